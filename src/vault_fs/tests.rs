use super::*;
use std::os::unix::fs::symlink;

fn vault() -> (tempfile::TempDir, VaultDir) {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("v")).unwrap();
    let v = VaultDir::open(&t.path().join("v")).unwrap();
    (t, v)
}

#[test]
fn relative_paths_are_checked() {
    for bad in [
        "",
        "/etc/passwd",
        "../x",
        "a/../../b",
        "./a",
        "a\nb",
        "a\u{1b}[2Jb",
    ] {
        assert!(check_rel(bad).is_err(), "{bad:?}");
    }
    for good in ["a", "a/b.md", "dir with space/x.md", "일지/2026.md"] {
        assert!(check_rel(good).is_ok(), "{good:?}");
    }
}

#[test]
fn links_out_of_the_root_are_an_escape() {
    let (t, v) = vault();
    std::fs::write(t.path().join("secret"), "s").unwrap();
    symlink(t.path().join("secret"), t.path().join("v/link")).unwrap();
    symlink(t.path(), t.path().join("v/up")).unwrap();
    for rel in ["link", "up/secret"] {
        let e = v.read(rel).unwrap_err();
        assert!(matches!(e, Error::OutsideVault { .. }), "{rel}: {e}");
        assert_eq!(e.exit_code(), 73);
    }
    let e = v.replace("up/new.md", b"x").unwrap_err();
    assert!(matches!(e, Error::OutsideVault { .. }), "{e}");
    assert!(!t.path().join("new.md").exists());
    let e = v.replace("link", b"x").unwrap_err();
    assert!(matches!(e, Error::OutsideVault { .. }), "{e}");
    assert_eq!(
        std::fs::read_to_string(t.path().join("secret")).unwrap(),
        "s"
    );
}

#[test]
fn links_inside_the_root_are_read() {
    let (t, v) = vault();
    std::fs::write(t.path().join("v/a.md"), "a").unwrap();
    symlink("a.md", t.path().join("v/b.md")).unwrap();
    assert_eq!(v.read("b.md").unwrap().unwrap(), b"a");
}

#[test]
fn hard_linked_files_are_never_written() {
    let (t, v) = vault();
    std::fs::write(t.path().join("outside"), "keep").unwrap();
    std::fs::hard_link(t.path().join("outside"), t.path().join("v/lock")).unwrap();
    assert!(matches!(
        v.open_lock("lock").unwrap_err(),
        Error::OutsideVault { .. }
    ));
    assert!(matches!(
        v.replace("lock", b"x").unwrap_err(),
        Error::OutsideVault { .. }
    ));
    assert_eq!(
        std::fs::read_to_string(t.path().join("outside")).unwrap(),
        "keep"
    );
}

#[test]
fn fifos_are_refused_without_blocking() {
    let (t, v) = vault();
    let mode = rustix::fs::Mode::from_raw_mode(0o600);
    rustix::fs::mkfifoat(rustix::fs::CWD, t.path().join("v/fifo"), mode).unwrap();
    assert!(matches!(v.read("fifo").unwrap_err(), Error::Read { .. }));
}

#[test]
fn replace_keeps_the_mode_and_leaves_no_temp() {
    use std::os::unix::fs::PermissionsExt;
    let (t, v) = vault();
    let p = t.path().join("v/d/f.md");
    assert!(v.replace("d/f.md", b"one").unwrap());
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert!(v.replace("d/f.md", b"two").unwrap());
    assert!(!v.replace("d/f.md", b"two").unwrap());
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o640
    );
    let names: Vec<_> = std::fs::read_dir(t.path().join("v/d"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("f.md")]);
}

#[test]
fn stale_temps_are_cleaned_under_the_lock() {
    let (t, v) = vault();
    std::fs::create_dir(t.path().join("v/journal")).unwrap();
    std::fs::write(t.path().join("v/journal/.2026-05-06.md.aB3xYz.tmp"), "old").unwrap();
    std::fs::write(
        t.path()
            .join("v/journal/.2026-05-06.md.active-status-9-1.tmp"),
        "old",
    )
    .unwrap();
    std::fs::write(t.path().join("v/journal/keep.md"), "k").unwrap();
    v.clean_temps_beside("journal/2026-05-06.md");
    let names: Vec<_> = std::fs::read_dir(t.path().join("v/journal"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("keep.md")]);
}

#[test]
fn create_new_takes_the_first_free_name() {
    let (t, v) = vault();
    std::fs::create_dir(t.path().join("v/inbox")).unwrap();
    std::fs::write(t.path().join("v/inbox/a.md"), "taken").unwrap();
    let rel = v
        .create_new("inbox", ["a.md".to_string(), "b.md".to_string()], b"new")
        .unwrap();
    assert_eq!(rel, "inbox/b.md");
    assert_eq!(
        std::fs::read_to_string(t.path().join("v/inbox/a.md")).unwrap(),
        "taken"
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join("v/inbox/b.md")).unwrap(),
        "new"
    );
    assert_eq!(
        std::fs::read_dir(t.path().join("v/inbox")).unwrap().count(),
        2
    );
}

#[test]
fn an_empty_file_left_by_a_failed_run_is_replaced() {
    let (t, v) = vault();
    std::fs::write(t.path().join("v/c.toml"), "").unwrap();
    assert!(v.create_if_missing("c.toml", b"x = 1\n").unwrap());
    assert!(!v.create_if_missing("c.toml", b"y = 2\n").unwrap());
    assert_eq!(
        std::fs::read_to_string(t.path().join("v/c.toml")).unwrap(),
        "x = 1\n"
    );
}

mod confinement {
    use super::super::*;
    use proptest::prelude::*;
    use std::os::unix::fs::symlink;
    use std::path::Path;

    /// Every file under `dir` with its bytes (links not followed).
    fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let ft = e.file_type().unwrap();
                if ft.is_dir() {
                    stack.push(p.clone());
                }
                let bytes = if ft.is_file() {
                    std::fs::read(&p).unwrap()
                } else {
                    Vec::new()
                };
                out.push((p.strip_prefix(dir).unwrap().display().to_string(), bytes));
            }
        }
        out.sort();
        out
    }

    const NAMES: &[&str] = &["a", "b", "c.md", "..", ".", "link", "up", "abs", "dang"];

    fn rel() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::collection::vec(proptest::sample::select(NAMES), 1..4)
                .prop_map(|v| v.join("/")),
            Just("/etc/passwd".to_string()),
        ]
    }

    /// Links inside the vault: to outside (absolute and relative), to the
    /// parent, to a sibling, dangling.
    fn layout() -> impl Strategy<Value = Vec<(String, u8)>> {
        proptest::collection::vec((rel(), 0u8..5), 0..6)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        fn nothing_outside_the_root_is_read_or_written(links in layout(), ops in proptest::collection::vec((rel(), 0u8..6), 1..8)) {
            let t = tempfile::tempdir().unwrap();
            let root = t.path().join("v");
            let outside = t.path().join("outside");
            std::fs::create_dir_all(root.join("a/b")).unwrap();
            std::fs::create_dir_all(&outside).unwrap();
            std::fs::write(outside.join("c.md"), "OUTSIDE").unwrap();
            std::fs::write(root.join("a/c.md"), "inside").unwrap();
            for (at, kind) in &links {
                let Ok(p) = check_rel(at) else { continue };
                let target: std::path::PathBuf = match kind {
                    0 => outside.clone(),
                    1 => "../outside".into(),
                    2 => "..".into(),
                    3 => "a".into(),
                    _ => "nowhere".into(),
                };
                let link = root.join(p);
                if let Some(parent) = link.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                let _ = symlink(&target, &link);
            }
            let before = tree(&outside);
            let v = VaultDir::open(&root).unwrap();
            for (at, op) in &ops {
                match op {
                    0 => {
                        if let Ok(Some(b)) = v.read(at) {
                            prop_assert!(b != b"OUTSIDE", "read outside through {at}");
                        }
                    }
                    1 => { let _ = v.replace(at, b"written"); }
                    2 => { let _ = v.create_dir_all(at); }
                    3 => { let _ = v.open_lock(at); }
                    4 => { let _ = v.create_new(at, ["n.md".to_string()], b"new"); }
                    _ => {
                        if let Ok(Some(s)) = v.snapshot(at) {
                            prop_assert!(s.bytes != b"OUTSIDE", "snapshot outside through {at}");
                        }
                    }
                }
            }
            prop_assert_eq!(tree(&outside), before);
        }
    }
}

/// Stamps taken together, a folder at a time, are each file's own stamp:
/// nested and top-level files, a link inside the root (followed), a link
/// out of it and one that dangles (none), a folder, a missing name, a path
/// that is not a vault path, and names of one folder that are not adjacent.
#[test]
fn stamps_together_equal_each_stamp() {
    let (t, v) = vault();
    let root = t.path().join("v");
    std::fs::create_dir_all(root.join("journal/2026/05")).unwrap();
    std::fs::create_dir_all(root.join("projects/a")).unwrap();
    std::fs::write(t.path().join("outside.md"), "o").unwrap();
    for f in [
        "top.md",
        "journal/2026/05/a.md",
        "journal/2026/05/b.md",
        "projects/a/todos.md",
    ] {
        std::fs::write(root.join(f), f).unwrap();
    }
    // Relative: a link to an absolute path is refused even inside the root.
    symlink(
        "../../../projects/a/todos.md",
        root.join("journal/2026/05/in.md"),
    )
    .unwrap();
    symlink(
        t.path().join("outside.md"),
        root.join("journal/2026/05/out.md"),
    )
    .unwrap();
    symlink(
        root.join("nothing.md"),
        root.join("journal/2026/05/dangling.md"),
    )
    .unwrap();
    let rels = [
        "top.md",
        "journal/2026/05/a.md",
        "journal/2026/05/in.md",
        "journal/2026/05/out.md",
        "journal/2026/05/dangling.md",
        "journal/2026/05/missing.md",
        "journal/2026/05/b.md",
        "journal/2026",
        "projects/a/todos.md",
        "../outside.md",
        "journal/2026/05/a.md",
        "missing/x.md",
    ];
    let each: Vec<Option<FileStamp>> = rels.iter().map(|r| v.stamp(r)).collect();
    assert_eq!(v.stamps(&rels), each);
    let found = |rel: &str| each[rels.iter().position(|r| *r == rel).unwrap()];
    assert!(found("journal/2026/05/a.md").is_some());
    assert_eq!(found("journal/2026/05/in.md"), found("projects/a/todos.md"));
    for none in [
        "journal/2026/05/out.md",
        "journal/2026/05/dangling.md",
        "journal/2026",
        "../outside.md",
        "missing/x.md",
    ] {
        assert_eq!(found(none), None, "{none}");
    }
}
