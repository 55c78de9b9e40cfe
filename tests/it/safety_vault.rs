//! A vault cloned from someone else: its configuration, committed links,
//! notes and templates try to destroy or hide the user's data. Every write
//! lands on its resolved place inside the vault and outside `.git`; the lock
//! file is never a file the tool did not create.

use crate::common::{Vault, stderr};
use std::os::unix::fs::symlink;
use std::process::Output;

const DAY: &str = "journal/2026-05-06.md";
const HEAD: &str = "# 2026-05-06\n\n## Session: s (p)\n\n### Next\n\n- [ ] first\n\n## Log\n\n";
const GIT_CONFIG: &str = "[remote \"origin\"]\n\turl = git@example.org:me/notes.git\n";

fn run(v: &Vault, args: &[&str]) -> Output {
    v.cmd().args(args).output().expect("run binary")
}

/// A vault that is a git work tree (a plain `.git` folder, no git needed).
fn git_vault(config: &str) -> Vault {
    Vault::new()
        .project("p")
        .file(DAY, HEAD)
        .file(".git/HEAD", "ref: refs/heads/main\n")
        .file(".git/config", GIT_CONFIG)
        .file(".git/objects/.keep", "")
        .file(".git/refs/heads/.keep", "")
        .file(".git/hooks/.keep", "")
        .file(".agents/active-status.toml", config)
}

fn assert_lock_refused(o: &Output) {
    assert_eq!(o.status.code(), Some(65), "{}", stderr(o));
    assert!(stderr(o).contains("lock.path"), "{}", stderr(o));
}

#[test]
fn a_lock_path_naming_a_note_never_empties_it() {
    let v = Vault::new()
        .project("p")
        .file(DAY, HEAD)
        .file("README.md", "# my vault\n")
        .file(".agents/active-status.toml", "lock.path = \"README.md\"\n");
    for args in [
        &["regen"][..],
        &["route", "--to", "journal", "--date", "2026-05-06", "z"][..],
    ] {
        let o = run(&v, args);
        assert_lock_refused(&o);
        assert!(stderr(&o).contains("not a lock file"), "{}", stderr(&o));
    }
    assert_eq!(v.read("README.md"), "# my vault\n");
    assert_eq!(v.read(DAY), HEAD);
}

#[test]
fn a_lock_path_through_a_committed_folder_link_never_empties_a_note() {
    let v = Vault::new().project("p").file(DAY, HEAD).file(
        ".agents/active-status.toml",
        "lock.path = \"jl/2026-05-06.md\"\n",
    );
    symlink("journal", v.join("jl")).unwrap();
    let o = run(&v, &["regen"]);
    assert_lock_refused(&o);
    assert_eq!(v.read(DAY), HEAD);
}

#[test]
fn a_lock_path_through_a_link_to_git_never_empties_its_config() {
    let v = git_vault("lock.path = \"gd/config\"\n");
    symlink(".git", v.join("gd")).unwrap();
    let o = run(&v, &["regen"]);
    assert_lock_refused(&o);
    assert!(stderr(&o).contains(".git"), "{}", stderr(&o));
    assert_eq!(v.read(".git/config"), GIT_CONFIG);
    // A new file there is refused too: nothing is created inside .git.
    v.write(
        ".agents/active-status.toml",
        "lock.path = \"gd/new.lock\"\n",
    );
    let o = run(&v, &["regen"]);
    assert_lock_refused(&o);
    assert!(!v.exists(".git/new.lock"));
}

#[test]
fn an_output_through_a_link_to_git_hooks_is_never_written() {
    let v = git_vault("output = \"dash/pre-commit\"\n");
    symlink(".git/hooks", v.join("dash")).unwrap();
    let o = run(&v, &["regen"]);
    assert_eq!(o.status.code(), Some(73), "{}", stderr(&o));
    assert!(stderr(&o).contains(".git"), "{}", stderr(&o));
    assert!(!v.exists(".git/hooks/pre-commit"));
}

#[test]
fn a_route_through_a_project_link_into_git_is_never_written() {
    let v = git_vault("");
    symlink("../.git/hooks", v.join("projects/h")).unwrap();
    let o = run(&v, &["route", "--to", "project", "--project", "h", "x"]);
    assert_eq!(o.status.code(), Some(73), "{}", stderr(&o));
    assert!(!v.exists(".git/hooks/todos.md"));
}

#[test]
fn the_default_lock_file_is_created_and_reused() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    assert_eq!(run(&v, &["regen"]).status.code(), Some(0));
    assert!(v.exists(".agents/locks/active-status.lock"));
    assert_eq!(run(&v, &["regen"]).status.code(), Some(0));
}
