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

/// `route --to journal --date 2026-05-06 TEXT`.
fn route_day(v: &Vault, text: &str) -> Output {
    run(
        v,
        &["route", "--to", "journal", "--date", "2026-05-06", text],
    )
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

// ------------------------------------------------- text written into the vault

fn route_from(v: &Vault, json: &str) -> Output {
    v.cmd()
        .args(["route", "--from", "-"])
        .write_stdin(json)
        .output()
        .expect("run binary")
}

fn assert_refused_unchanged(v: &Vault, o: &Output, why: &str) {
    assert_eq!(o.status.code(), Some(65), "{}", stderr(o));
    assert!(stderr(o).contains(why), "{}", stderr(o));
    assert_eq!(v.read(DAY), HEAD);
    assert!(!v.exists("projects/p/todos.md"));
}

#[test]
fn a_routed_text_with_a_nul_is_refused_and_nothing_written() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    let o = route_from(
        &v,
        r#"[{"text": "fine", "to": "project", "project": "p"},
            {"text": "hides \u0000 the file", "to": "journal", "date": "2026-05-06"}]"#,
    );
    assert_refused_unchanged(
        &v,
        &o,
        "entry 2: text holds the control character U+0000 at character 7",
    );
}

#[test]
fn a_routed_text_with_a_control_character_is_refused() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    let o = route_day(&v, "bell \u{7} here");
    assert_refused_unchanged(&v, &o, "U+0007");
    // A tab is text.
    let o = route_day(&v, "a\tb");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_routed_text_over_the_length_limit_is_refused() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    let long = "é".repeat(2001);
    let o = route_day(&v, &long);
    assert_refused_unchanged(
        &v,
        &o,
        "2001 characters long, over the 2000-character limit",
    );
    let at_limit = "é".repeat(2000);
    let o = route_day(&v, &at_limit);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_routed_text_with_an_unclosed_private_tag_is_refused() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    for text in [
        "rotate <private>key",
        "stray </private> close",
        "<private>a</private></private>",
    ] {
        let o = route_day(&v, text);
        assert_refused_unchanged(&v, &o, "`<private>` without its `</private>`");
    }
    let o = route_day(&v, "rotate <private>key</private> now");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(v.open_texts().contains(&"first".to_string()));
}

#[test]
fn done_never_writes_an_entry_whose_text_holds_a_control_character() {
    // A plain bullet (no checkbox) gets a journal entry on `done`.
    let v = Vault::new().project("p").file(
        "projects/p/PROGRESS.md",
        "## Next\n\n- ring \u{7} the bell\n",
    );
    let before = v.read("projects/p/PROGRESS.md");
    v.test()
        .args(["done", "ring"])
        .status(65)
        .stderr_has("U+0007")
        .expect_file("projects/p/PROGRESS.md", before)
        .expect_no_file("journal")
        .run();
}

// ------------------------------------------------------------ dry-run diffs

#[test]
fn dry_run_diffs_never_show_private_text() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        "## Next Session\n\n- [ ] pay the <private>card 4111 1111</private> bill\n\
         - [ ] call <private>the lawyer\n  about the will</private> back\n",
    );
    for args in [
        &["done", "--dry-run", "projects/p/todos.md:3"][..],
        &[
            "cancel",
            "--dry-run",
            "--format",
            "json",
            "projects/p/todos.md:4",
        ][..],
    ] {
        let o = run(&v, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = crate::common::stdout(&o);
        assert!(out.contains("[private]"), "{args:?}: {out}");
        for secret in ["4111", "lawyer", "the will"] {
            assert!(!out.contains(secret), "{args:?} shows {secret}: {out}");
        }
    }
}

// ------------------------------------------------------ bare CR line endings

const MAC: &str = "projects/p/todos.md";
const MAC_TEXT: &str = "## Next Session\r\r- [ ] first one\r- [ ] second one\r- [ ] third one\r";

#[test]
fn items_after_a_bare_cr_can_be_done_cancelled_and_deferred() {
    let v = Vault::new().project("p").file(MAC, MAC_TEXT);
    for (args, want) in [
        (&["done", "third one"][..], "- [x] third one\r"),
        (&["cancel", "second one"][..], "- [-] second one\r"),
        (
            &["defer", "first one", "--until", "2030-01-02"][..],
            "- [ ] first one 🛫 2030-01-02\r",
        ),
    ] {
        let o = run(&v, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(v.read(MAC).contains(want), "{args:?}: {:?}", v.read(MAC));
    }
    assert_eq!(
        v.read(MAC),
        "## Next Session\r\r- [ ] first one 🛫 2030-01-02\r- [-] second one\r- [x] third one\r"
    );
}

#[test]
fn a_route_into_a_bare_cr_file_uses_its_line_ending() {
    let v = Vault::new().project("p").file(MAC, MAC_TEXT);
    let o = run(
        &v,
        &["route", "--to", "project", "--project", "p", "fourth one"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        v.read(MAC),
        "## Next Session\r\r- [ ] first one\r- [ ] second one\r- [ ] third one\r- [ ] fourth one\r"
    );
    assert!(v.open_texts().contains(&"fourth one".to_string()));
}

// ------------------------------------------------------ templates from the vault

fn template_vault(template: &str) -> Vault {
    Vault::new()
        .project("p")
        .file(DAY, HEAD)
        .file("t.tera", template)
        .file(".agents/active-status.toml", "template = \"t.tera\"\n")
}

#[test]
fn a_recursive_macro_is_a_template_error_not_an_abort() {
    template_vault(
        "{% macro down(n) %}{{ self::down(n=n+1) }}{% endmacro down %}{{ self::down(n=1) }}\n",
    )
    .into_test()
    .arg("regen")
    .status(65)
    .stderr_has("the template aborted")
    .expect_no_file("ACTIVE-STATUS.md")
    .run();
}

#[test]
fn a_huge_range_is_a_template_error_not_an_abort() {
    template_vault("{% for i in range(end=1e10) %}x{% endfor %}\n")
        .into_test()
        .arg("regen")
        .status(65)
        .stderr_has("template")
        .run();
}

#[test]
fn nested_huge_loops_end_with_a_template_error() {
    let v = template_vault(
        "{% set r = range(end=100000) %}{% for a in r %}{% for b in r %}{% for c in r %}{% endfor %}{% endfor %}{% endfor %}\n",
    );
    // The route was written and is reported before the template's failure.
    v.test()
        .args(["route", "--regen", "--to", "journal", "--date"])
        .args(["2026-05-06", "z"])
        .status(65)
        .stderr_has("time budget")
        .stdout_has("added: journal/2026-05-06.md")
        .expect_file_has(DAY, "- z\n")
        .run();
}

// ------------------------------------------- limits the vault may only lower

#[test]
fn the_vault_config_may_not_raise_limits_or_follow_links() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("2026-05-05.md"),
        "## Session: s (p)\n### Next\n- [ ] outside secret item\n",
    )
    .unwrap();
    let v = Vault::new().project("p").file(DAY, HEAD).file(
        ".agents/active-status.toml",
        "follow_symlinks = true\n[extract]\nmax_bytes = 1000000000000\n[lock]\ntimeout_secs = 1e308\n",
    );
    symlink(outside.path(), v.join("journal/elsewhere")).unwrap();
    let o = run(&v, &["config"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    for key in ["follow_symlinks", "extract.max_bytes", "lock.timeout_secs"] {
        assert!(
            err.contains(&format!("the vault's configuration raises `{key}`")),
            "{err}"
        );
    }
    let o = run(&v, &["regen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let all = format!(
        "{}{}{}",
        stderr(&o),
        crate::common::stdout(&o),
        v.read("ACTIVE-STATUS.md")
    );
    assert!(!all.contains("outside secret item"), "{all}");
    assert!(!all.contains(&*outside.path().to_string_lossy()), "{all}");
    // Lowering is allowed, silently.
    v.write(".agents/active-status.toml", "[extract]\nmax_bytes = 16\n");
    let o = run(&v, &["config"]);
    assert!(!stderr(&o).contains("raises"), "{}", stderr(&o));
}

#[test]
fn a_followed_link_to_proc_never_fails_a_run() {
    let v = Vault::new()
        .project("p")
        .file(DAY, HEAD)
        .user_config("follow_symlinks = true\n");
    symlink("/proc", v.join("journal/proc")).unwrap();
    let o = run(&v, &["regen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("/proc/"), "{}", stderr(&o));
    assert!(v.read("ACTIVE-STATUS.md").contains("first"));
}
