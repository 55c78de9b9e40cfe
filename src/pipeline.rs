//! The pipeline, owned here: scan → merge ([`analyze`]) → report → render →
//! write ([`produce`], [`regenerate`]). Commands and the MCP server call it;
//! it calls no command.

use crate::cache::{Lookup, Mode};
use crate::config::Config;
use crate::error::Result;
use crate::render::render;
use crate::report::{Analysis, Report, Trail, build_with, collected_stats};
use crate::summary::SummaryView;
use crate::vault_fs::VaultDir;
use crate::write::write_dashboard;
use std::path::Path;
use std::time::{Duration, Instant};

/// Scans and merges the vault at `root`: every source read and parsed,
/// then resolved, deduplicated and ranked.
pub fn analyze(root: &Path, cfg: &Config) -> Result<Analysis> {
    analyze_with(root, cfg, Mode::of(cfg, false))
}

/// [`analyze`] using the cache as `mode` says.
fn analyze_with(root: &Path, cfg: &Config, mode: Mode) -> Result<Analysis> {
    let start = Instant::now();
    let discovery = crate::discover::discover(root, cfg)?;
    analyze_discovered(root, cfg, mode, discovery, start)
}

/// [`analyze_with`] over a discovery already made (at `start`).
fn analyze_discovered(
    root: &Path,
    cfg: &Config,
    mode: Mode,
    discovery: crate::discover::Discovery,
    start: Instant,
) -> Result<Analysis> {
    let mut vault = crate::scan::scan_discovered(root, cfg, mode, discovery)?;
    let scanned = start.elapsed();
    let items = std::mem::take(&mut vault.items);
    let (sources, untagged) = collected_stats(&items);
    let handle = VaultDir::open(root)?;
    let key = crate::cache::key("pair", cfg, &vault.projects);
    let mut pairs = crate::cache::Pairs::open(&handle, mode, key);
    pairs.choose_keeping(vault.cache.as_ref().is_some_and(|u| u.deferred));
    let merged = crate::merge::merge_memos(
        items,
        &vault.signals,
        vault.as_of,
        cfg.dedup_threshold,
        pairs.memo.as_mut(),
        pairs.clusters.as_mut(),
    );
    if let Some(used) = vault.cache.as_mut() {
        pairs.finish(&handle, used);
    }
    Ok(Analysis {
        vault,
        merged,
        sources,
        untagged,
        timings: [scanned, start.elapsed() - scanned],
    })
}

/// The report (its resolved items listed as `trail` says) and the
/// dashboard text, with the wall time of the scan, the merge and the
/// rendering.
pub fn produce(
    root: &Path,
    cfg: &Config,
    template: &str,
    trail: Trail,
) -> Result<(Report, String, [Duration; 3])> {
    produce_with(root, cfg, template, Mode::of(cfg, false), trail)
}

pub(crate) fn produce_with(
    root: &Path,
    cfg: &Config,
    template: &str,
    mode: Mode,
    trail: Trail,
) -> Result<(Report, String, [Duration; 3])> {
    let analysis = analyze_with(root, cfg, mode)?;
    let mut report = build_with(&analysis, cfg, trail);
    keep_result(root, cfg, &analysis, &mut report)?;
    let started = Instant::now();
    let text = render(&report, template, cfg)?;
    let [scan, merge] = analysis.timings;
    let rendered = started.elapsed();
    crate::exit_fast::release(analysis);
    Ok((report, text, [scan, merge, rendered]))
}

/// Notes a result cache file that does not fit, and (when the run may
/// write the cache) keeps this run's result for runs that find the vault
/// unchanged (see [`crate::cache::result`]).
fn keep_result(root: &Path, cfg: &Config, analysis: &Analysis, report: &mut Report) -> Result<()> {
    if report.audit.cache.is_none() {
        return Ok(());
    }
    let vault = VaultDir::open(root)?;
    let projects = &analysis.vault.projects;
    let mut notes = Vec::new();
    let old = crate::cache::result::current(&vault, cfg, projects)
        .map_err(|why| notes.push(why))
        .ok()
        .flatten();
    let mut written = false;
    if let Some(marks) = &analysis.vault.marks {
        let view = SummaryView::of(report);
        // The date the report was made with (the scan's), not the clock now.
        let today = analysis.vault.today.unwrap_or_else(|| cfg.today());
        match crate::cache::result::store(
            &vault,
            cfg,
            projects,
            today,
            marks,
            &view,
            old.as_deref(),
        ) {
            Ok(w) => written = w,
            Err(why) => notes.push(format!("{} not written: {why}", crate::cache::RESULT_FILE)),
        }
        crate::exit_fast::release(view);
    }
    crate::exit_fast::release(old);
    if let Some(used) = report.audit.cache.as_mut() {
        used.written |= written;
        used.ignored.extend(notes);
    }
    Ok(())
}

/// The session-start summary's view of the vault, the known projects, and
/// whether the view came from the result cache: from it when the vault is
/// unchanged since the run that wrote it, else scanned and merged (reading,
/// never writing, the cache).
pub(crate) fn summary_view(root: &Path, cfg: &Config) -> Result<(SummaryView, Vec<String>, bool)> {
    let start = Instant::now();
    let mode = Mode::of(cfg, false);
    let discovery = crate::discover::discover(root, cfg)?;
    let vault = VaultDir::open(root)?;
    let note = match crate::cache::result::lookup(&vault, cfg, mode, &discovery) {
        Lookup::Hit(view) => return Ok((view, discovery.projects, true)),
        Lookup::Miss => None,
        Lookup::Bad(note) => Some(note),
    };
    let mut analysis = analyze_discovered(root, cfg, mode, discovery, start)?;
    if let Some(used) = analysis.vault.cache.as_mut() {
        used.ignored.extend(note);
    }
    let report = build_with(&analysis, cfg, Trail::Counted);
    let view = SummaryView::of(&report);
    let projects = analysis.vault.projects.clone();
    crate::exit_fast::release((analysis, report));
    Ok((view, projects, false))
}

/// Regenerates the dashboard, and brings the cache up to date. Call with
/// the lock held.
pub fn regenerate(root: &Path, cfg: &Config, template: &str, trail: Trail) -> Result<Report> {
    let vault = VaultDir::open(root)?;
    let (mut report, text, _) = produce_with(root, cfg, template, Mode::of(cfg, true), trail)?;
    let written = write_dashboard(&vault, &cfg.output, text.as_bytes())?;
    report.written = written;
    report.changed = written;
    Ok(report)
}
