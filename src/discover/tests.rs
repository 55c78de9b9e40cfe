//! Tests of `discover`.

use super::*;

#[test]
fn dates_from_names() {
    assert_eq!(
        date_in_name("2026-05-06.md"),
        Some(jiff::civil::date(2026, 5, 6))
    );
    assert_eq!(
        date_in_name("retro-2026-05-04-x.md"),
        Some(jiff::civil::date(2026, 5, 4))
    );
    assert_eq!(
        date_in_name("2026-13-45 then 2026-01-02.md"),
        Some(jiff::civil::date(2026, 1, 2))
    );
    assert_eq!(date_in_name("notes.md"), None);
    assert_eq!(date_in_name("2026-5-6.md"), None);
    let d = Some(jiff::civil::date(2024, 1, 15));
    assert_eq!(date_in_name("2024_01_15.md"), d);
    assert_eq!(date_in_name("daily.journal.2024.01.15.md"), d);
    assert_eq!(date_in_name("20240115.md"), d);
    assert_eq!(date_in_name("note-20240115-x.markdown"), d);
    assert_eq!(date_in_name("2024-01_15.md"), None);
    assert_eq!(date_in_name("120240115.md"), None);
    assert_eq!(date_in_name("2024011.md"), None);
    assert!(is_markdown("a.markdown") && is_markdown("A.MD") && !is_markdown("a.mdx"));
    assert!(
        missing_dot("2025.09.14md") && !missing_dot("2025.09.14.md") && !missing_dot("readmemd")
    );
}

/// Links in `projects/`, as discovery decides them from one `lstat` (or the
/// folder listing's entry type) and a `stat` only for a link it follows:
/// without `follow_symlinks`, a linked `todos.md` and a linked project
/// folder are skipped with a warning each, and a regular file and folder
/// are read; with it, the links lead to what they point at. A folder named
/// `todos.md` is no source either way.
#[test]
fn project_links_are_followed_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "- [ ] x\n").unwrap();
    };
    write("journal/2026-05-06.md");
    write("projects/plain/todos.md");
    write("elsewhere/linked.md");
    write("store/shared/todos.md");
    std::fs::create_dir_all(root.join("projects/dir-named/todos.md")).unwrap();
    std::fs::create_dir_all(root.join("projects/filelink")).unwrap();
    std::os::unix::fs::symlink(
        "../../elsewhere/linked.md",
        root.join("projects/filelink/todos.md"),
    )
    .unwrap();
    std::os::unix::fs::symlink("../store/shared", root.join("projects/dirlink")).unwrap();
    for follow in [false, true] {
        // Set as the user's own configuration would (the vault's file may
        // not turn it on).
        let cfg = crate::config::Config {
            follow_symlinks: follow,
            ..crate::config::Config::default()
        };
        let found = discover(root, &cfg).unwrap();
        let rels: Vec<&str> = found.files.iter().map(|f| &*f.rel).collect();
        let warned = |rel: &str| {
            found
                .warnings
                .iter()
                .any(|w| w.path == rel && w.message.contains("symbolic link not followed"))
        };
        assert!(rels.contains(&"projects/plain/todos.md"), "{rels:?}");
        assert!(!rels.contains(&"projects/dir-named/todos.md"), "{rels:?}");
        assert_eq!(
            rels.contains(&"projects/filelink/todos.md"),
            follow,
            "follow={follow}: {rels:?}"
        );
        assert_eq!(
            rels.contains(&"projects/dirlink/todos.md"),
            follow,
            "follow={follow}: {rels:?}"
        );
        assert_eq!(found.projects.contains(&"dirlink".to_string()), follow);
        assert_eq!(
            warned("projects/filelink/todos.md"),
            !follow,
            "{:?}",
            found.warnings
        );
        assert_eq!(warned("projects/dirlink"), !follow, "{:?}", found.warnings);
    }
}
