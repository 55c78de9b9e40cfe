//! Property: over random edit sequences on a vault, a run with the cache
//! gives exactly what a run without it gives (dashboard and report), and
//! the result cache answers only for the vault it was made from.

use super::super::{Lookup, Mode, RESULT_FILE, SCAN_FILE};
use super::{clock_ahead, config, run, small_vault, write};
use crate::start_summary::SummaryView;
use proptest::prelude::*;
use std::path::Path;

/// Lines a generated file is made of (headings, tasks, tags, sessions).
const LINES: &[&str] = &[
    "## Next",
    "## Done",
    "### Next",
    "## Session: work (alpha)",
    "## Session: other (beta)",
    "## Session: nothing in particular",
    "- [ ] fix the lock timeout",
    "- [ ] fix the lock timeouts",
    "- [ ] (beta) ship the index",
    "- [ ] (gamma) a tag naming a project folder made later",
    "- [x] fix the lock timeout",
    "- [ ] rotate the token <private>s3cret</private>",
    "- [ ] write the docs 📅 2026-05-10",
    "- [>] forwarded work",
    "- plain bullet",
    "",
    "text paragraph",
    // Near-duplicates in other projects, ranks and dates: they change which
    // cluster an item joins.
    "- [ ] (alpha) fix the lock timeout quickly",
    "- [ ] (beta) fix the lock timeout quickly",
    "- [ ] fix the lock timeout quick ⏫",
    "- [ ] fix the lock timeout quicker",
    "- [ ] ship the index 📅 2026-05-02",
    "- [ ] (beta) ship an index",
    "- [x] ship the index",
    "- [ ] rotate the token <private>other</private>",
];

const FILES: &[&str] = &[
    "journal/2026-05-01.md",
    "journal/2026-05-05.md",
    "journal/2026-05-06.md",
    "projects/alpha/todos.md",
    "projects/beta/todos.md",
    "projects/beta/PROGRESS.md",
    "projects/alpha/actives/t1/todos.md",
    ".agents/inbox/2026-05-06-note.md",
];

#[derive(Debug, Clone)]
enum Step {
    /// Write a file (creating it) from lines.
    Write(usize, Vec<usize>),
    /// Change one byte of a file to another of the same length, and put
    /// its modification time back.
    SameSize(usize, u8),
    Delete(usize),
    /// Rename a file to another of the names.
    Rename(usize, usize),
    /// Only the modification time changes.
    Touch(usize),
    /// A configuration change that alters what is scanned.
    Config(bool),
    /// A new project folder (changes which tags are projects).
    Project,
    /// The cache file damaged.
    Corrupt(usize),
    /// The result file damaged.
    CorruptResult(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let f = 0..FILES.len();
    prop_oneof![
        3 => (f.clone(), prop::collection::vec(0..LINES.len(), 0..8)).prop_map(|(i, l)| Step::Write(i, l)),
        2 => (f.clone(), any::<u8>()).prop_map(|(i, b)| Step::SameSize(i, b)),
        1 => f.clone().prop_map(Step::Delete),
        1 => (f.clone(), f.clone()).prop_map(|(a, b)| Step::Rename(a, b)),
        1 => f.clone().prop_map(Step::Touch),
        1 => any::<bool>().prop_map(Step::Config),
        1 => Just(Step::Project),
        1 => any::<usize>().prop_map(Step::Corrupt),
        1 => any::<usize>().prop_map(Step::CorruptResult),
    ]
}

fn apply(root: &Path, step: &Step) {
    let path = |i: usize| root.join(FILES[i]);
    match step {
        Step::Write(i, lines) => {
            let text: Vec<&str> = lines.iter().map(|&l| LINES[l]).collect();
            write(root, FILES[*i], &(text.join("\n") + "\n"));
        }
        Step::SameSize(i, b) => {
            let Ok(mut bytes) = std::fs::read(path(*i)) else {
                return;
            };
            let Ok(mtime) = std::fs::metadata(path(*i)).and_then(|m| m.modified()) else {
                return;
            };
            // An ASCII letter changed to another: same size, still UTF-8.
            if let Some(pos) = bytes.iter().position(|c| c.is_ascii_lowercase()) {
                bytes[pos] = b'a' + (bytes[pos] - b'a' + 1 + b % 25) % 26;
            }
            std::fs::write(path(*i), &bytes).unwrap();
            let f = std::fs::File::options().write(true).open(path(*i)).unwrap();
            f.set_modified(mtime).unwrap();
        }
        Step::Delete(i) => {
            let _ = std::fs::remove_file(path(*i));
        }
        Step::Rename(a, b) => {
            if path(*a).exists() {
                std::fs::create_dir_all(path(*b).parent().unwrap()).unwrap();
                std::fs::rename(path(*a), path(*b)).unwrap();
            }
        }
        Step::Touch(i) => {
            if let Ok(f) = std::fs::File::options().write(true).open(path(*i)) {
                f.set_modified(std::time::SystemTime::now()).unwrap();
            }
        }
        Step::Config(on) => {
            // Another threshold as well.
            let toml = if *on {
                "[dedup]\nthreshold = 0.7\n[headings]\nnext = [\"next\", \"done\"]\n"
            } else {
                ""
            };
            write(root, ".agents/active-status.toml", toml);
        }
        Step::Project => write(root, "projects/gamma/todos.md", "- [ ] gamma task\n"),
        Step::Corrupt(at) => corrupt(root, SCAN_FILE, *at),
        Step::CorruptResult(at) => corrupt(root, RESULT_FILE, *at),
    }
}

/// Truncates the cache file `rel` at `at`, or flips the byte there.
fn corrupt(root: &Path, rel: &str, at: usize) {
    if let Ok(mut bytes) = std::fs::read(root.join(rel)) {
        if bytes.is_empty() {
            return;
        }
        let at = at % bytes.len();
        if at.is_multiple_of(2) {
            bytes.truncate(at);
        } else {
            bytes[at] ^= 0x55;
        }
        std::fs::write(root.join(rel), bytes).unwrap();
    }
}

/// The summary view the result cache holds for the vault as it is now.
fn cached_view(root: &Path) -> Option<SummaryView> {
    let cfg = config(root);
    let disc = crate::discover::discover(root, &cfg).unwrap();
    let vault = crate::vault_fs::VaultDir::open(root).unwrap();
    match super::super::result::lookup(&vault, &cfg, Mode::Read, &disc.found()) {
        Lookup::Hit(view) => Some(view),
        Lookup::Miss | Lookup::Bad(_) => None,
    }
}

/// Runs with the cache (writing it, then read-only) and without; all equal.
/// The result left by the last writing run is used only when it is right,
/// and a writing run leaves one that is.
fn check(root: &Path) -> Result<(), TestCaseError> {
    let _ = config(root);
    let fresh = run(root, Mode::Off);
    let view = SummaryView::of(&fresh.1);
    if let Some(cached) = cached_view(root) {
        prop_assert_eq!(&cached, &view);
    }
    let (text, report, _) = run(root, Mode::Write);
    prop_assert_eq!(&text, &fresh.0);
    prop_assert_eq!(&report, &fresh.1);
    prop_assert_eq!(cached_view(root), Some(view));
    let (text, report, _) = run(root, Mode::Read);
    prop_assert_eq!(&text, &fresh.0);
    prop_assert_eq!(&report, &fresh.1);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Real clock: every file is recent, so the cache checks content.
    #[test]
    fn same_output_with_the_cache(steps in prop::collection::vec(step(), 1..10)) {
        let v = small_vault();
        check(v.path())?;
        for s in &steps {
            apply(v.path(), s);
            check(v.path())?;
        }
    }

    /// Clock ahead: files count as old, so the cache trusts their stamps.
    /// A pause before each edit puts it in a later timestamp tick than the
    /// run that cached the file (what the real 2-second rule guarantees).
    #[test]
    fn same_output_with_stamps_trusted(steps in prop::collection::vec(step(), 1..8)) {
        clock_ahead();
        let v = small_vault();
        check(v.path())?;
        for s in &steps {
            std::thread::sleep(std::time::Duration::from_millis(25));
            apply(v.path(), s);
            check(v.path())?;
        }
    }
}
