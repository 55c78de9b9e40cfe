//! The cache refuses whatever does not fit, never panics, and a run with it
//! gives what a run without it gives.

use super::container::{self, Header};
use super::*;
use crate::vault_fs::VaultDir;
use std::cell::Cell;
use std::path::Path;

mod defer;
mod prop;
mod trust;

thread_local! {
    /// Added to the clock the cache reads on this thread: a test that
    /// shifts it into the future makes files written just now old enough
    /// to be trusted by their stamp.
    pub(super) static CLOCK_SHIFT_NS: Cell<i128> = const { Cell::new(0) };
    static KEY_HOME: tempfile::TempDir = tempfile::tempdir().unwrap();
}

/// This thread's cache clock and key folder, to be set on another thread
/// that works for this one (the pipeline runs some cache work beside).
pub(crate) fn carried() -> impl FnOnce() + Send {
    let shift = CLOCK_SHIFT_NS.with(|s| s.get());
    let dir = crate::user_key::KEY_DIR.with(|d| d.borrow().clone());
    move || {
        CLOCK_SHIFT_NS.with(|s| s.set(shift));
        crate::user_key::KEY_DIR.with(|d| *d.borrow_mut() = dir);
    }
}

/// Points this thread's cache key at a folder of its own.
fn own_key() {
    KEY_HOME.with(|h| {
        crate::user_key::KEY_DIR.with(|d| *d.borrow_mut() = Some(h.path().to_path_buf()))
    });
}

/// This thread's cache key.
fn secret() -> [u8; super::secret::LEN] {
    own_key();
    super::secret::key(true).unwrap()
}

/// Shifts this thread's cache clock an hour ahead.
pub(super) fn clock_ahead() {
    CLOCK_SHIFT_NS.with(|s| s.set(3_600_000_000_000));
}

pub(super) fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

pub(super) fn small_vault() -> tempfile::TempDir {
    own_key();
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, ".agents/active-status.toml", "");
    write(
        r,
        "journal/2026-05-06.md",
        "## Session: work (alpha)\n\n### Next\n\n- [ ] fix the lock timeout\n- [ ] (beta) ship the index\n\n### Done\n\n- [x] wrote the parser\n",
    );
    write(
        r,
        "projects/alpha/todos.md",
        "- [ ] alpha task one\n- [x] alpha done\n",
    );
    write(r, "projects/beta/todos.md", "## Next\n- [ ] beta task\n");
    dir
}

pub(super) fn config(root: &Path) -> Config {
    let mut cfg = crate::config::load(root, &crate::config::Overrides::default()).unwrap();
    cfg.today = Some(jiff::civil::date(2026, 5, 7));
    cfg
}

/// The dashboard text and the report (without its cache counts).
pub(super) fn run(root: &Path, mode: Mode) -> (String, crate::report::Report, Option<CacheUse>) {
    let cfg = config(root);
    let template = crate::render::template_source(root, &cfg).unwrap();
    let (mut report, text, _) =
        crate::pipeline::produce_with(root, &cfg, &template, mode, crate::report::Trail::Listed)
            .unwrap();
    let used = report.audit.cache.take();
    (text, report, used)
}

fn header(key: [u8; 16]) -> Header {
    Header {
        kind: *b"SCAN",
        key,
        started_ns: 0,
    }
}

#[test]
fn frame_round_trip_and_every_truncation_refused() {
    let key = [7u8; 16];
    let k = secret();
    let bytes = container::encode(&header(key), b"payload", &k);
    let (h, p) = container::decode(&bytes, b"SCAN", &key, &k).unwrap();
    assert_eq!((h, p), (header(key), &b"payload"[..]));
    for n in 0..bytes.len() {
        assert!(
            container::decode(&bytes[..n], b"SCAN", &key, &k).is_err(),
            "{n}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(container::decode(&longer, b"SCAN", &key, &k).is_err());
}

#[test]
fn frame_refuses_each_wrong_field() {
    let key = [7u8; 16];
    let k = secret();
    let bytes = container::encode(&header(key), b"payload", &k);
    let err = |b: &[u8]| container::decode(b, b"SCAN", &key, &k).unwrap_err();
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert_eq!(err(&magic), "not a cache file (wrong magic)");
    assert_eq!(
        container::decode(&bytes, b"PAIR", &key, &k).unwrap_err(),
        "a cache file of another kind"
    );
    let mut format = bytes.clone();
    format[12] = 99;
    assert!(err(&format).starts_with("format 99"));
    assert!(
        container::decode(&bytes, b"SCAN", &[8u8; 16], &k)
            .unwrap_err()
            .starts_with("written by another build")
    );
    let bad = "bad signature (corrupted, or not written by this user's runs)";
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert_eq!(err(&flipped), bad);
    // Signed with another key: someone else's cache.
    let other = container::encode(&header(key), b"payload", &[1u8; 32]);
    assert_eq!(err(&other), bad);
    // A payload length claiming far more than there is.
    let len_at = bytes.len() - b"payload".len() - 40;
    let mut huge = bytes.clone();
    huge[len_at..len_at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(err(&huge).starts_with("payload of 7 bytes"));
}

#[test]
fn key_follows_config_and_projects_but_not_the_lock_timeout() {
    let base = Config::default();
    let k = key("scan", &base, &["a".into()]);
    assert_ne!(k, key("scan", &base, &["a".into(), "b".into()]));
    assert_ne!(k, key("pair", &base, &["a".into()]));
    let mut headings = base.clone();
    headings.next_headings.push("upcoming".into());
    assert_ne!(k, key("scan", &headings, &["a".into()]));
    let mut timeout = base.clone();
    timeout.lock_timeout_secs = 1.0;
    assert_eq!(k, key("scan", &timeout, &["a".into()]));
}

/// Writes `bytes` as the scan cache of `root`.
fn plant(root: &Path, bytes: &[u8]) {
    write(root, SCAN_FILE, "");
    std::fs::write(root.join(SCAN_FILE), bytes).unwrap();
}

/// A run with the planted cache gives the fresh output, says why the cache
/// was ignored, and re-reads every file.
fn assert_ignored(root: &Path, why: &str) {
    let fresh = run(root, Mode::Off);
    let (text, report, used) = run(root, Mode::Read);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    let used = used.unwrap();
    assert_eq!(used.reused, 0);
    assert!(
        used.ignored.iter().any(|w| w.contains(why)),
        "{:?} lacks {why}",
        used.ignored
    );
}

#[test]
fn hostile_or_broken_cache_files_are_ignored() {
    let v = small_vault();
    let root = v.path();
    let cfg = config(root);
    let projects = vec!["alpha".to_string(), "beta".to_string()];
    let k = key("scan", &cfg, &projects);
    let sk = secret();
    plant(root, b"");
    assert_ignored(root, "truncated");
    plant(root, b"garbage that is not a cache at all");
    assert_ignored(root, "wrong magic");
    // A valid frame around a payload that is not a list of entries.
    plant(root, &container::encode(&header(k), &[0xff; 40], &sk));
    assert_ignored(root, "undecodable payload");
    // A list claiming 2^63 entries.
    let mut huge = Vec::new();
    huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
    plant(root, &container::encode(&header(k), &huge, &sk));
    assert_ignored(root, "undecodable payload");
    // Written "in the future".
    let future = Header {
        started_ns: i128::MAX,
        ..header(k)
    };
    plant(root, &container::encode(&future, &[0], &sk));
    assert_ignored(root, "in the future");
    // A cache for another configuration.
    plant(root, &container::encode(&header([0; 16]), &[0], &sk));
    assert_ignored(root, "another build");
    // A valid cache signed by someone else.
    run(root, Mode::Write);
    let bytes = std::fs::read(root.join(SCAN_FILE)).unwrap();
    let (h, payload) = container::decode(&bytes, b"SCAN", &k, &sk).unwrap();
    plant(root, &container::encode(&h, payload, &[9u8; 32]));
    assert_ignored(root, "bad signature");
}

#[test]
fn a_cache_over_the_size_cap_is_ignored() {
    let v = small_vault();
    let root = v.path();
    let f = std::fs::File::create(root.join(".agents/cache/scan.bin")).or_else(|_| {
        std::fs::create_dir_all(root.join(DIR)).unwrap();
        std::fs::File::create(root.join(SCAN_FILE))
    });
    f.unwrap().set_len(MAX_BYTES + 1).unwrap();
    assert_ignored(root, "limit");
}

#[test]
fn a_symlinked_cache_leading_outside_is_not_read_nor_written_through() {
    let v = small_vault();
    let outside = tempfile::tempdir().unwrap();
    let root = v.path();
    std::os::unix::fs::symlink(outside.path(), root.join(DIR)).unwrap();
    assert_ignored(root, "outside");
    let (_, _, used) = run(root, Mode::Write);
    let used = used.unwrap();
    assert!(!used.written, "{used:?}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

/// Rewrites the entries of the cache of `root` with `edit`, keeping a valid
/// frame (what an attacker who can write the vault could do).
fn tamper(
    root: &Path,
    edit: impl FnOnce(&mut Vec<(String, crate::vault_fs::FileStamp, u128, Vec<u8>)>),
) {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct E {
        rel: String,
        stamp: crate::vault_fs::FileStamp,
        hash: u128,
        scan: Vec<u8>,
    }
    let cfg = config(root);
    let k = key("scan", &cfg, &["alpha".into(), "beta".into()]);
    let sk = secret();
    let bytes = std::fs::read(root.join(SCAN_FILE)).unwrap();
    let (h, payload) = container::decode(&bytes, b"SCAN", &k, &sk).unwrap();
    let list: Vec<E> = from_bytes(payload).unwrap();
    let mut list: Vec<_> = list
        .into_iter()
        .map(|e| (e.rel, e.stamp, e.hash, e.scan))
        .collect();
    edit(&mut list);
    let list: Vec<E> = list
        .into_iter()
        .map(|(rel, stamp, hash, scan)| E {
            rel,
            stamp,
            hash,
            scan,
        })
        .collect();
    plant(root, &container::encode(&h, &to_bytes(&list).unwrap(), &sk));
}

#[test]
fn hostile_entries_are_ignored_one_by_one() {
    clock_ahead();
    let v = small_vault();
    let root = v.path();
    let fresh = run(root, Mode::Off);
    run(root, Mode::Write);
    tamper(root, |list| {
        // Paths outside the vault, for files that do not exist, repeated.
        let first = list[0].clone();
        list.push(("../outside.md".into(), first.1, first.2, first.3.clone()));
        list.push(("/etc/passwd".into(), first.1, first.2, first.3.clone()));
        list.push((
            "journal/2000-01-01.md".into(),
            first.1,
            first.2,
            first.3.clone(),
        ));
        list.push(first);
        // A scan naming a path (entries never hold one), and one that
        // does not decode.
        let mut named: crate::sources::FileScan = from_bytes(&list[1].3).unwrap();
        assert!(!named.items.is_empty());
        super::PerFile::set_paths(&mut named, &"projects/alpha/todos.md".into());
        list[0].3 = to_bytes(&named).unwrap();
        list[1].3 = vec![0xff; 3];
    });
    let (text, report, used) = run(root, Mode::Read);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    let used = used.unwrap();
    assert_eq!((used.reused, used.reread), (1, 2), "{used:?}");
    assert!(used.ignored[0].contains("3 entries with a bad or repeated path"));
}

#[test]
fn an_unchanged_vault_is_reused_from_stamps_and_not_rewritten() {
    clock_ahead();
    let v = small_vault();
    let root = v.path();
    let (_, _, first) = run(root, Mode::Write);
    let first = first.unwrap();
    assert_eq!((first.reused, first.reread, first.written), (0, 3, true));
    let (_, _, second) = run(root, Mode::Write);
    let second = second.unwrap();
    assert_eq!(
        (second.reused, second.reread, second.written),
        (3, 0, false)
    );
    assert_eq!(run(root, Mode::Off).2, None);
    // The folder keeps itself out of git.
    let ignore = std::fs::read_to_string(root.join(DIR).join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"));
    let _ = VaultDir::open(root).unwrap();
}

#[test]
fn a_file_changed_just_before_the_run_is_checked_by_content() {
    // Real clock: the files were written just now, so the cache cannot trust
    // their stamps; a same-size edit that restores the mtime is still seen.
    let v = small_vault();
    let root = v.path();
    run(root, Mode::Write);
    let rel = "projects/alpha/todos.md";
    let path = root.join(rel);
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, "- [ ] alpha task two\n- [x] alpha done\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let fresh = run(root, Mode::Off);
    let (text, report, used) = run(root, Mode::Write);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    assert!(text.contains("alpha task two"));
    let used = used.unwrap();
    assert_eq!((used.reused, used.reread), (2, 1));
}

#[test]
fn a_stamp_collision_on_a_recent_file_is_caught_by_the_racy_rule() {
    // A same-size edit inside the file system's timestamp granularity
    // leaves the stamp as it was: simulated by writing the new stamp into
    // the cache. The file changed within 2 s of the caching run, so its
    // content is checked, and the edit is seen.
    let v = small_vault();
    let root = v.path();
    run(root, Mode::Write);
    let rel = "projects/beta/todos.md";
    std::fs::write(root.join(rel), "## Next\n- [ ] bxta task\n").unwrap();
    let stamp = VaultDir::open(root).unwrap().stamp(rel).unwrap();
    tamper(root, |list| {
        list.iter_mut()
            .filter(|e| e.0 == rel)
            .for_each(|e| e.1 = stamp);
    });
    let fresh = run(root, Mode::Off);
    let (text, report, used) = run(root, Mode::Read);
    assert_eq!((&text, &report), (&fresh.0, &fresh.1));
    assert!(text.contains("bxta task"));
    assert_eq!(used.unwrap().reread, 1);
}
