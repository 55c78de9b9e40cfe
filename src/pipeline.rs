//! The pipeline, owned here: scan → merge ([`analyze`]) → report → render →
//! write ([`produce`], [`regenerate`]). Commands and the MCP server call it;
//! it calls no command.

use crate::cache::{Lookup, Mode};
use crate::config::Config;
use crate::error::Result;
use crate::render::render;
use crate::report::{Analysis, Report, Trail, build_with, collected_stats};
use crate::start_summary::SummaryView;
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
    let handle = VaultDir::open(root)?;
    let mut vault = crate::scan::scan_discovered(root, cfg, mode, discovery)?;
    let scanned = start.elapsed();
    let items = std::mem::take(&mut vault.items);
    let (sources, untagged) = collected_stats(&items);
    let mut merged = crate::merge::merge(items, &vault.signals, vault.as_of, cfg.dedup_threshold);
    let decisions = read_decisions(&handle, &mut vault.warnings)?;
    crate::merge::settle(
        &mut merged,
        &mut vault.signals,
        &decisions,
        cfg.dedup_threshold,
    );
    if merged.capped > 0 {
        vault.warnings.push(crate::item::Warning::new(
            ".",
            format!(
                "merge: {} items nearly match thousands of others; each was compared with {} clusters only, so a duplicate may be listed apart",
                merged.capped,
                crate::merge::MAX_COMPARED
            ),
        ));
    }
    for (line, why) in &merged.settled.unmatched {
        vault.warnings.push(crate::item::Warning::new(
            crate::decisions::FILE,
            format!("line {line}: {why}; decision kept for when it appears"),
        ));
    }
    crate::memory::purge();
    Ok(Analysis {
        vault,
        merged,
        sources,
        untagged,
        timings: [scanned, start.elapsed() - scanned],
    })
}

/// The decisions recorded in the vault (none when the file is absent); a
/// line that is not a decision is a warning, never an error.
pub(crate) fn read_decisions(
    handle: &VaultDir,
    warnings: &mut Vec<crate::item::Warning>,
) -> Result<Vec<crate::decisions::Decision>> {
    let Some(bytes) = handle.read(crate::decisions::FILE)? else {
        return Ok(Vec::new());
    };
    let text = String::from_utf8_lossy(&bytes);
    let (decisions, bad) = crate::decisions::parse(&text);
    for why in bad {
        warnings.push(crate::item::Warning::new(crate::decisions::FILE, why));
    }
    Ok(decisions)
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
    // The report's scratch goes back before rendering (see `crate::memory`).
    crate::memory::purge();
    // The result is kept on a thread of its own while the dashboard is
    // rendered: both only read the report (the dashboard shows nothing of
    // the cache), and what keeping it found is noted afterwards.
    // A run that may not write the cache keeps nothing (it only notes a
    // bad result file): then all is done in turn.
    let (kept, rendered) = beside(
        analysis.vault.marks.is_some(),
        || {
            (
                keep_result(root, cfg, &analysis, &report),
                keep_index(root, cfg, &analysis),
            )
        },
        || {
            let started = Instant::now();
            (render(&report, template, cfg), started.elapsed())
        },
    );
    for kept in [kept.0?, kept.1?] {
        if let (Some((written, notes)), Some(used)) = (kept, report.audit.cache.as_mut()) {
            used.written |= written;
            used.ignored.extend(notes);
        }
    }
    let (text, rendered) = (rendered.0?, rendered.1);
    let [scan, merge] = analysis.timings;
    Ok((report, text, [scan, merge, rendered]))
}

/// Notes a result cache file that does not fit, and (when the run may
/// write the cache) keeps this run's result for runs that find the vault
/// unchanged (see [`crate::cache::result`]): whether it was written and
/// the notes, for the report's cache audit (`None`: the cache is off).
fn keep_result(
    root: &Path,
    cfg: &Config,
    analysis: &Analysis,
    report: &Report,
) -> Result<Option<(bool, Vec<String>)>> {
    if report.audit.cache.is_none() {
        return Ok(None);
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
            old.as_ref().map(|(at, payload)| (*at, &payload[..])),
        ) {
            Ok(w) => written = w,
            Err(why) => notes.push(format!("{} not written: {why}", crate::cache::RESULT_FILE)),
        }
    }
    Ok(Some((written, notes)))
}

/// Keeps the search index (when the run may write the cache) for searches
/// that find the vault unchanged (see [`crate::cache::index`]): whether it
/// was written, and why not when it could not be.
fn keep_index(
    root: &Path,
    cfg: &Config,
    analysis: &Analysis,
) -> Result<Option<(bool, Vec<String>)>> {
    let v = &analysis.vault;
    let Some(marks) = &v.marks else {
        return Ok(None);
    };
    let vault = VaultDir::open(root)?;
    let today = v.today.unwrap_or_else(|| cfg.today());
    let kept = crate::cache::index::keep(&vault, cfg, &v.projects, today, marks, || {
        crate::search::index_of(&analysis.merged, &v.signals, &v.skips, v.as_of)
    });
    Ok(Some(match kept {
        Ok(written) => (written, Vec::new()),
        Err(why) => (
            false,
            vec![format!("{} not written: {why}", crate::cache::index::FILE)],
        ),
    }))
}

/// What `search` found, and how: from the cache's index or by scanning.
pub(crate) struct Searched {
    pub results: crate::search::Results,
    /// Whether the answer came from the index.
    pub indexed: bool,
    /// Why the index present was not used, when it was not.
    pub note: Option<String>,
    /// Wall time of the scan and the merge, when the vault was scanned.
    pub timings: Option<[Duration; 2]>,
}

/// Searches the vault at `root`: over the cache's index when it was made
/// from the vault as it is (see [`crate::cache::index`]), else over the
/// scanned and merged vault (reading, never writing, the cache). Both give
/// the same answer.
pub(crate) fn search(root: &Path, cfg: &Config, o: &crate::search::Options) -> Result<Searched> {
    let start = Instant::now();
    let mode = Mode::of(cfg, false);
    let discovery = crate::discover::discover(root, cfg)?;
    let vault = VaultDir::open(root)?;
    let note = match crate::cache::index::lookup(&vault, cfg, mode, &discovery.found()) {
        Lookup::Hit(index) => {
            let found =
                crate::search::index::search(index.bytes(), o, cfg.today(), &discovery.projects)?;
            match found {
                Some(results) => {
                    return Ok(Searched {
                        results,
                        indexed: true,
                        note: None,
                        timings: None,
                    });
                }
                None => Some(format!(
                    "{} ignored: an index that does not fit",
                    crate::cache::index::FILE
                )),
            }
        }
        Lookup::Miss => None,
        Lookup::Bad(note) => Some(note),
    };
    let analysis = analyze_discovered(root, cfg, mode, discovery, start)?;
    let v = &analysis.vault;
    let corpus = crate::search::corpus(&analysis.merged, &v.signals, &v.skips);
    let today = v.today.unwrap_or_else(|| cfg.today());
    let results = crate::search::search(corpus, o, v.as_of, today, &v.projects)?;
    let timings = Some(analysis.timings);
    Ok(Searched {
        results,
        indexed: false,
        note,
        timings,
    })
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
    let note = match crate::cache::result::lookup(&vault, cfg, mode, &discovery.found()) {
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
    Ok((view, projects, false))
}

/// The HTML view of the vault at `root` (src/view/), named `name`, and
/// its number of open items: the report with every resolution listed, the
/// statistics, and `explain` for each priority.
pub(crate) fn view_page(root: &Path, cfg: &Config, name: &str) -> Result<(String, usize)> {
    page_of(&analyze(root, cfg)?, root, cfg, name)
}

/// What `view` did with its page.
pub(crate) struct Viewed {
    /// Whether the page file was written.
    pub written: bool,
    /// Open items on the page.
    pub open: usize,
    /// Whether the page present was kept: the vault is as it was when the
    /// page was made (see [`crate::cache::page`]).
    pub kept: bool,
    /// Why a cache file was ignored or not written, for `view -v`.
    pub notes: Vec<String>,
}

/// Writes the HTML view of the vault at `root`, named `name`, to `out`
/// (call with the lock held). A vault unchanged since the last writing run
/// (a valid result cache) whose page at `out` is still the one made from it
/// is left as it is, with no scan or merge; otherwise the page is made and
/// written, and recorded for the next `view` when the result cache is valid.
pub(crate) fn view(root: &Path, cfg: &Config, name: &str, out: &str) -> Result<Viewed> {
    let start = Instant::now();
    let mode = Mode::of(cfg, false);
    let discovery = crate::discover::discover(root, cfg)?;
    let vault = VaultDir::open(root)?;
    let mut notes = Vec::new();
    let found = discovery.found();
    let state = match crate::cache::result::lookup_state::<SummaryView>(&vault, cfg, mode, &found) {
        Lookup::Hit((_, state)) => Some(state),
        Lookup::Miss => None,
        Lookup::Bad(note) => {
            notes.push(note);
            None
        }
    };
    drop(found);
    let projects = discovery.projects.clone();
    let page = state.map(|state| crate::cache::page::Page { out, name, state });
    if let Some(p) = &page {
        match crate::cache::page::kept(&vault, cfg, &projects, p) {
            Ok(Some(open)) => {
                return Ok(Viewed {
                    written: false,
                    open,
                    kept: true,
                    notes,
                });
            }
            Ok(None) => {}
            Err(note) => notes.push(note),
        }
    }
    let analysis = analyze_discovered(root, cfg, mode, discovery, start)?;
    let (html, open) = page_of(&analysis, root, cfg, name)?;
    if let Some(parent) = Path::new(out).parent()
        && !parent.as_os_str().is_empty()
    {
        vault.create_dir_all(&parent.to_string_lossy())?;
    }
    let written = write_dashboard(&vault, out, html.as_bytes())?;
    if let Some(p) = &page
        && let Err(why) = crate::cache::page::keep(&vault, cfg, &projects, p, html.as_bytes(), open)
    {
        notes.push(format!("{} not written: {why}", crate::cache::page::FILE));
    }
    Ok(Viewed {
        written,
        open,
        kept: false,
        notes,
    })
}

/// [`view_page`] of an analysis already made.
fn page_of(analysis: &Analysis, root: &Path, cfg: &Config, name: &str) -> Result<(String, usize)> {
    let report = build_with(analysis, cfg, Trail::Listed);
    // The charts come from the same analysis: one scan, one merge.
    let stats = crate::stats::of_analysis(analysis, cfg, cfg.stats_zombie_days)?;
    // Every ID once, for all the priorities (not once per item explained).
    let ids = crate::find::ids(&analysis.merged);
    let cluster_of: std::collections::HashMap<&str, usize> = ids
        .iter()
        .enumerate()
        .map(|(c, id)| (id.as_str(), c))
        .collect();
    let details = report
        .priorities
        .iter()
        .filter_map(|i| {
            let c = *cluster_of.get(i.id.as_str())?;
            let e = crate::explain::explain_open(analysis, cfg, &report, c, &i.id);
            Some((i.id.clone(), e))
        })
        .collect();
    let decided: Vec<(jiff::civil::Date, &'static str)> =
        read_decisions(&VaultDir::open(root)?, &mut Vec::new())?
            .iter()
            .map(|d| (d.date, d.verb.as_str()))
            .collect();
    let page = crate::view::page(&crate::view::ViewInput {
        name,
        report: &report,
        stats: &stats,
        details: &details,
        decisions: &decided,
    });
    Ok((page, report.audit.open))
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

/// `side` and `main` side by side (`side` on a thread of its own) when
/// `apart`, else one after the other; a panic in `side` goes on in the
/// caller, as it would have. When the system gives no thread, `side` runs
/// here after `main`.
fn beside<S: Send, M>(
    apart: bool,
    side: impl FnOnce() -> S + Send,
    main: impl FnOnce() -> M,
) -> (S, M) {
    beside_on(std::thread::Builder::new(), apart, side, main)
}

/// [`beside`] with the side thread made by `builder`.
fn beside_on<S: Send, M>(
    builder: std::thread::Builder,
    apart: bool,
    side: impl FnOnce() -> S + Send,
    main: impl FnOnce() -> M,
) -> (S, M) {
    if !apart {
        return (side(), main());
    }
    // Tests keep the cache's clock and key per thread: the side thread
    // takes this one's.
    #[cfg(test)]
    let side = {
        let carried = crate::cache::carried();
        move || {
            carried();
            side()
        }
    };
    // Whichever thread takes `side` runs it: the new one, or this one when
    // the new one could not be made.
    let slot = std::sync::Mutex::new(Some(side));
    let take = || {
        slot.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    };
    std::thread::scope(|s| {
        let spawned = builder.spawn_scoped(s, || take().map(|f| f()));
        let main = main();
        let done = match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => None,
        };
        match done {
            Some(side) => (side, main),
            None => match take() {
                Some(f) => (f(), main),
                None => unreachable!("the side closure is taken once and run by its taker"),
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::beside;

    /// Side by side or in turn, each closure's result comes back in its place.
    #[test]
    fn beside_returns_each_result_in_its_place() {
        for apart in [false, true] {
            let on_side = std::sync::atomic::AtomicBool::new(false);
            let (side, main) = beside(
                apart,
                || {
                    on_side.store(true, std::sync::atomic::Ordering::SeqCst);
                    std::thread::current().id()
                },
                || std::thread::current().id(),
            );
            assert!(on_side.into_inner());
            assert_eq!(side != main, apart, "apart: {apart}");
        }
    }

    /// A thread the system refuses (here: a stack no system gives): the
    /// side step runs on the calling thread, after the main one.
    #[test]
    fn a_refused_thread_runs_the_side_here_after_the_main() {
        let order = std::sync::Mutex::new(Vec::new());
        let refused = std::thread::Builder::new().stack_size(1 << 62);
        let (side, main) = super::beside_on(
            refused,
            true,
            || {
                order.lock().unwrap().push("side");
                std::thread::current().id()
            },
            || {
                order.lock().unwrap().push("main");
                std::thread::current().id()
            },
        );
        assert_eq!(side, main);
        assert_eq!(order.into_inner().unwrap(), ["main", "side"]);
    }

    #[test]
    #[should_panic(expected = "side failed")]
    fn a_panic_on_the_side_goes_on_in_the_caller() {
        beside(true, || panic!("side failed"), || ());
    }
}
