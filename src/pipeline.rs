//! The pipeline, owned here: scan → merge ([`analyze`]) → report → render →
//! write ([`produce`], [`regenerate`]). Commands and the MCP server call it;
//! it calls no command.

use crate::cache::Mode;
use crate::config::Config;
use crate::error::Result;
use crate::render::render;
use crate::report::{Analysis, Report, build, collected_stats};
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
    let mut vault = crate::scan::scan_vault_with(root, cfg, mode)?;
    let scanned = start.elapsed();
    let items = std::mem::take(&mut vault.items);
    let (sources, untagged) = collected_stats(&items);
    let handle = VaultDir::open(root)?;
    let key = crate::cache::key("pair", cfg, &vault.projects);
    let mut pairs = crate::cache::Pairs::open(&handle, mode, key);
    let merged = crate::merge::merge_with(
        items,
        &vault.signals,
        vault.as_of,
        cfg.dedup_threshold,
        pairs.memo.as_mut(),
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

/// The report and the dashboard text, with the wall time of the scan, the
/// merge and the rendering.
pub fn produce(
    root: &Path,
    cfg: &Config,
    template: &str,
) -> Result<(Report, String, [Duration; 3])> {
    produce_with(root, cfg, template, Mode::of(cfg, false))
}

pub(crate) fn produce_with(
    root: &Path,
    cfg: &Config,
    template: &str,
    mode: Mode,
) -> Result<(Report, String, [Duration; 3])> {
    let analysis = analyze_with(root, cfg, mode)?;
    let report = build(&analysis, cfg);
    let started = Instant::now();
    let text = render(&report, template, cfg)?;
    let [scan, merge] = analysis.timings;
    let rendered = started.elapsed();
    crate::exit_fast::release(analysis);
    Ok((report, text, [scan, merge, rendered]))
}

/// Regenerates the dashboard, and brings the cache up to date. Call with
/// the lock held.
pub fn regenerate(root: &Path, cfg: &Config, template: &str) -> Result<Report> {
    let vault = VaultDir::open(root)?;
    let (mut report, text, _) = produce_with(root, cfg, template, Mode::of(cfg, true))?;
    let written = write_dashboard(&vault, &cfg.output, text.as_bytes())?;
    report.written = written;
    report.changed = written;
    Ok(report)
}
