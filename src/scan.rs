//! Scanning a whole vault: discovery, then every file parsed (in parallel),
//! gathered in path order so the result never depends on thread timing.

use crate::cache::{FileCache, Keep, Mode};
use crate::config::Config;
use crate::discover::{Discovery, FileRole, discover};
use crate::error::Result;
use crate::item::{ActiveTask, Goal, Item, Signal, SkipRecord, Warning};
use crate::memory::Batches;
use crate::parse::HeadingMatcher;
use crate::sources::{FileScan, scan_read};
use jiff::civil::Date;
use rayon::prelude::*;
use std::path::Path;

/// Everything the merge and the report need from the vault.
#[derive(Debug, Default)]
pub struct Vault {
    pub items: Vec<Item>,
    pub signals: Vec<Signal>,
    pub goals: Vec<Goal>,
    pub skips: Vec<SkipRecord>,
    pub active_tasks: Vec<ActiveTask>,
    pub warnings: Vec<Warning>,
    pub projects: Vec<String>,
    pub files_scanned: usize,
    /// Latest date among journal and inbox files that is not after `today`.
    pub as_of: Option<Date>,
    pub today: Option<Date>,
    /// Decoration-marked items (`[i]`, `["]` …) where items are collected.
    pub non_task: usize,
    /// Files read whole (no next section), by path.
    pub read_whole: Vec<std::sync::Arc<str>>,
    /// Files skipped because their front matter excludes them.
    pub excluded: usize,
    /// What the cache did (`None` when it is off).
    pub cache: Option<crate::cache::CacheUse>,
    /// The files as this run saw them, for the result cache (only when the
    /// run may write the cache).
    pub(crate) marks: Option<crate::cache::Marks>,
}

/// Scans the vault at `root`, reusing a valid cache (never writing it).
pub(crate) fn scan_vault(root: &Path, cfg: &Config) -> Result<Vault> {
    scan_vault_with(root, cfg, Mode::of(cfg, false))
}

/// Scans the vault at `root`: every file parsed, or taken from the cache
/// when it is valid for it; with [`Mode::Write`] (the lock held) the cache
/// is then brought up to date.
pub(crate) fn scan_vault_with(root: &Path, cfg: &Config, mode: Mode) -> Result<Vault> {
    scan_discovered(root, cfg, mode, discover(root, cfg)?)
}

/// [`scan_vault_with`] over the files of a discovery already made.
pub(crate) fn scan_discovered(
    root: &Path,
    cfg: &Config,
    mode: Mode,
    discovery: Discovery,
) -> Result<Vault> {
    let Discovery {
        files,
        projects,
        warnings,
    } = discovery;
    let headings = HeadingMatcher::from_config(cfg);
    let handle = crate::vault_fs::VaultDir::open(root)?;
    let cache = FileCache::open(&handle, mode, crate::cache::key("scan", cfg, &projects));
    let rels: Vec<std::sync::Arc<str>> = files.iter().map(|f| f.rel.clone()).collect();
    let stamps = cache.stamps(&handle, &rels);
    // Each file's text and parse are freed when its scan ends: given back
    // to the system a batch of files at a time (see `crate::memory`).
    let batches = Batches::default();
    let looked: Vec<(FileScan, Keep)> = files
        .par_iter()
        .enumerate()
        .map(|(n, f)| {
            let stamp = stamps.get(n).copied().flatten();
            let scan = cache.scan(&handle, &f.rel, stamp, |read| {
                scan_read(&handle, f, read, &headings, &projects)
            });
            batches.step();
            scan
        })
        .collect::<Result<_>>()?;
    // The scan's scratch goes back before the per-file results are
    // gathered into one list.
    drop(headings);
    crate::memory::purge();
    let (mut scans, keeps): (Vec<FileScan>, Vec<Keep>) = looked.into_iter().unzip();
    let marks = cache.marks(&rels, &keeps).map(|m| crate::cache::Marks {
        discovered: crate::cache::result::discovered(&warnings),
        ..m
    });
    let used = cache.finish(&handle, &rels, &keeps, &mut scans);
    drop(keeps);
    crate::memory::purge();
    let today = cfg.today();
    // A date after today (a note written ahead) does not become "today".
    let as_of = files
        .iter()
        .filter_map(|f| match f.role {
            FileRole::Journal { date, .. } => Some(date),
            FileRole::Inbox { date } => date,
            _ => None,
        })
        .filter(|d| *d <= today)
        .max();
    let mut vault = Vault {
        warnings,
        projects,
        files_scanned: files.len(),
        as_of,
        today: Some(today),
        cache: (mode != Mode::Off).then_some(used),
        marks,
        ..Vault::default()
    };
    // Sized up front: growing these by doubling would briefly hold two copies.
    vault
        .items
        .reserve_exact(scans.iter().map(|s| s.items.len()).sum());
    vault
        .signals
        .reserve_exact(scans.iter().map(|s| s.signals.len()).sum());
    for (scan, file) in scans.into_iter().zip(&files) {
        vault.non_task += scan.non_task;
        if scan.read_whole {
            vault.read_whole.push(file.rel.clone());
        }
        if scan.excluded {
            vault.excluded += 1;
        }
        vault.items.extend(scan.items);
        vault.signals.extend(scan.signals);
        vault.goals.extend(scan.goals);
        vault.skips.extend(scan.skips);
        vault.active_tasks.extend(scan.active);
        vault.warnings.extend(scan.warnings);
        // Each file's lists, copied, are freed: in batches here too, so the
        // copies and the originals are never all resident at once.
        batches.step();
    }
    crate::memory::purge();
    Ok(vault)
}
