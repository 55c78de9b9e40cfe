//! A writing run that finds few files changed leaves `scan.bin` as it
//! was (FORMAT.md §12.1, "Writing"); the output is
//! the same as without the cache, and the next run re-reads those files.

use super::super::*;
use super::{clock_ahead, run, small_vault, write};
use crate::report::Report;
use std::path::Path;

/// The bytes of the per-file results.
fn cache_files(root: &Path) -> Vec<u8> {
    std::fs::read(root.join(SCAN_FILE)).unwrap()
}

#[test]
fn a_few_changed_files_leave_the_cache_files_as_they_were() {
    clock_ahead();
    let v = small_vault();
    let root = v.path();
    assert!(run(root, Mode::Write).2.unwrap().written);
    let before = cache_files(root);
    write(
        root,
        "projects/beta/todos.md",
        "## Next\n- [ ] beta task\n- [ ] beta task two\n",
    );
    let fresh = run(root, Mode::Off);
    let (text, report, used) = run(root, Mode::Write);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    assert!(text.contains("beta task two"));
    let used = used.unwrap();
    assert!(used.deferred, "{used:?}");
    assert_eq!((used.reused, used.reread), (2, 1));
    assert_eq!(cache_files(root), before);
    // The next run re-reads the changed file, and still agrees.
    let (text, report, used) = run(root, Mode::Write);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    assert_eq!(used.unwrap().reread, 1);
    assert_eq!(cache_files(root), before);
}

/// Writes `count` project lists and fills the cache, then changes every
/// one of them: the cache files as they were, the output of a run without
/// the cache, and (text, report, cache use) of a writing run.
#[allow(clippy::type_complexity)]
fn change_lists(
    root: &Path,
    count: usize,
) -> (
    Vec<u8>,
    (String, Report),
    (String, Report, Option<CacheUse>),
) {
    for n in 0..count {
        write(root, &format!("projects/p{n}/todos.md"), "- [ ] a task\n");
    }
    run(root, Mode::Write);
    let before = cache_files(root);
    for n in 0..count {
        write(
            root,
            &format!("projects/p{n}/todos.md"),
            &format!("- [ ] a task\n- [ ] task {n} more\n"),
        );
    }
    let (text, report, _) = run(root, Mode::Off);
    (before, (text, report), run(root, Mode::Write))
}

#[test]
fn as_many_changed_files_as_the_limit_leave_the_cache_as_it_was() {
    clock_ahead();
    let v = small_vault();
    let root = v.path();
    let (before, fresh, (text, report, used)) = change_lists(root, files::REWRITE_AFTER);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    let used = used.unwrap();
    assert!(used.deferred, "{used:?}");
    assert_eq!(used.reread, files::REWRITE_AFTER);
    assert_eq!(cache_files(root), before);
}

#[test]
fn more_changed_files_than_the_limit_rewrite_the_cache() {
    clock_ahead();
    let v = small_vault();
    let root = v.path();
    let (before, fresh, (text, report, used)) = change_lists(root, files::REWRITE_AFTER + 1);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    let used = used.unwrap();
    assert!(!used.deferred && used.written, "{used:?}");
    assert_ne!(cache_files(root), before);
    let (_, report, used) = run(root, Mode::Write);
    assert_eq!(report, fresh.1);
    assert_eq!(used.unwrap().reread, 0);
}
