//! The user's cache key and the persisted pairwise answers: only what this
//! user's runs signed is trusted.

use super::super::{Mode, RESULT_FILE, SCAN_FILE, secret};
use super::{config, run, small_vault, write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Runs `f` with this thread's cache key in `dir`.
fn with_key_dir<T>(dir: &Path, f: impl FnOnce() -> T) -> T {
    let old = crate::user_key::KEY_DIR.with(|d| d.replace(Some(dir.to_path_buf())));
    let out = f();
    crate::user_key::KEY_DIR.with(|d| *d.borrow_mut() = old);
    out
}

#[test]
fn the_key_is_made_once_private_and_then_reused() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("active-status");
    with_key_dir(&dir, || {
        assert!(secret::key(false).unwrap_err().contains("no cache key"));
        let k = secret::key(true).unwrap();
        assert_eq!(secret::key(false).unwrap(), k);
        assert_eq!(secret::key(true).unwrap(), k);
    });
    let meta = std::fs::metadata(dir.join("key")).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(meta.len(), secret::LEN as u64);
    let folder = std::fs::metadata(&dir).unwrap();
    assert_eq!(folder.permissions().mode() & 0o777, 0o700);
    // Two runs making it at once end with one key.
    let other = home.path().join("race");
    let keys: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| s.spawn(|| with_key_dir(&other, || secret::key(true).unwrap())))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(keys.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_key_others_can_read_or_a_link_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("k");
    with_key_dir(&dir, || secret::key(true).unwrap());
    let key = dir.join("key");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = with_key_dir(&dir, || secret::key(true).unwrap_err());
    assert!(err.contains("mode 0600"), "{err}");
    let linked = home.path().join("l");
    std::fs::create_dir(&linked).unwrap();
    std::os::unix::fs::symlink(&key, linked.join("key")).unwrap();
    let err = with_key_dir(&linked, || secret::key(true).unwrap_err());
    assert!(err.contains("cache key"), "{err}");
    // Then no cache is read or written, and the output is the same.
    let v = small_vault();
    let fresh = run(v.path(), Mode::Off);
    let (text, report, used) = with_key_dir(&dir, || run(v.path(), Mode::Write));
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    let used = used.unwrap();
    assert!(
        !used.written && used.ignored[0].contains("mode 0600"),
        "{used:?}"
    );
    assert!(!v.path().join(SCAN_FILE).exists());
}

/// The result cache's answer for the vault at `root` as it is now.
fn lookup(root: &Path) -> super::super::Lookup<crate::start_summary::SummaryView> {
    lookup_on(root, 7)
}

/// [`lookup`] on another day of May 2026.
fn lookup_on(root: &Path, day: i8) -> super::super::Lookup<crate::start_summary::SummaryView> {
    let mut cfg = config(root);
    cfg.today = Some(jiff::civil::date(2026, 5, day));
    let disc = crate::discover::discover(root, &cfg).unwrap();
    let vault = crate::vault_fs::VaultDir::open(root).unwrap();
    super::super::result::lookup(&vault, &cfg, Mode::Read, &disc.found())
}

#[test]
fn the_result_is_used_only_when_signed_current_and_whole() {
    use super::super::Lookup;
    let v = small_vault();
    let root = v.path();
    let view = crate::start_summary::SummaryView::of(&run(root, Mode::Off).1);
    assert!(matches!(lookup(root), Lookup::Miss));
    let (_, _, used) = run(root, Mode::Write);
    assert!(used.unwrap().written);
    assert!(matches!(lookup(root), Lookup::Hit(ref got) if *got == view));
    assert!(matches!(lookup_on(root, 8), Lookup::Miss));
    // Signed by another user's key: refused, and noted by the next run.
    let other = tempfile::tempdir().unwrap();
    with_key_dir(other.path(), || run(root, Mode::Write));
    assert!(matches!(lookup(root), Lookup::Bad(ref why) if why.contains("bad signature")));
    let (_, _, used) = run(root, Mode::Read);
    let used = used.unwrap();
    assert!(
        used.ignored
            .iter()
            .any(|w| w.starts_with(RESULT_FILE) && w.contains("bad signature")),
        "{used:?}"
    );
    run(root, Mode::Write);
    assert!(matches!(lookup(root), Lookup::Hit(_)));
    // Truncated: refused.
    let bytes = std::fs::read(root.join(RESULT_FILE)).unwrap();
    std::fs::write(root.join(RESULT_FILE), &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(lookup(root), Lookup::Bad(_)));
    std::fs::write(root.join(RESULT_FILE), &bytes).unwrap();
    assert!(matches!(lookup(root), Lookup::Hit(_)));
    // A new file, a removed one: a miss, never the old view.
    write(root, "projects/beta/PROGRESS.md", "- [ ] one more\n");
    assert!(matches!(lookup(root), Lookup::Miss));
    std::fs::remove_file(root.join("projects/beta/PROGRESS.md")).unwrap();
    assert!(matches!(lookup(root), Lookup::Hit(_)));
    std::fs::remove_file(root.join("projects/beta/todos.md")).unwrap();
    assert!(matches!(lookup(root), Lookup::Miss));
}

/// A result written right after its files changed is written again, the
/// same, by the first run that finds them settled: later lookups then
/// trust their stamps instead of reading them. After that, runs leave it.
#[test]
fn a_result_is_rewritten_once_when_its_files_settle() {
    let v = small_vault();
    let root = v.path();
    let result = || std::fs::read(root.join(RESULT_FILE)).unwrap();
    // A run that started a second ago: the files written just now changed
    // inside its racy window.
    super::CLOCK_SHIFT_NS.with(|s| s.set(-1_000_000_000));
    run(root, Mode::Write);
    let first = result();
    // An hour later the files are settled: the same result, a later start.
    super::clock_ahead();
    run(root, Mode::Write);
    let second = result();
    assert_ne!(first, second);
    assert!(matches!(lookup(root), super::super::Lookup::Hit(_)));
    // Nothing settles any more: left as it is.
    run(root, Mode::Write);
    assert_eq!(result(), second);
}
