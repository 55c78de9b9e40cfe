//! The session-start summary by project: inside `projects/<p>/` or a folder
//! of `projects.<p>.paths`, that project's goal and items first, then one
//! line counting the rest; the character budget still holds.

use crate::common::assert_has;
use crate::common::{HANG_GUARD, Vault, run_limited};
use serde_json::{Value, json};
use std::path::Path;

fn vault() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .project("infra")
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n\n## Session: lock (wrap-cli)\n\n### Goal\n- ship the lock timeout\n\n### Next\n- add lock timeout test\n\n\
             ## Session: ops (infra)\n\n### Goal\n- quiet nights\n\n### Next\n- rotate the backup keys\n- move the nightly backup\n",
        )
        .file("projects/wrap-cli/todos.md", "## Next Session\n- [ ] port to Windows\n")
        .file("journal/2026-05-05.md", "# 2026-05-05\n\n### Next\n- answer the workshop email\n")
}

fn context(v: &Vault, cwd: &Path, max: Option<usize>) -> String {
    let mut cmd = v.process();
    if let Some(m) = max {
        cmd.env("ACTIVE_STATUS_HOOK_MAX_CHARS", m.to_string());
    }
    cmd.args(["hook", "session-start"]);
    let input = json!({"cwd": cwd, "source": "startup"}).to_string();
    let (out, _) = run_limited(cmd, input.as_bytes(), HANG_GUARD, "hook");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn inside_a_project_folder_that_project_comes_first() {
    let v = vault();
    std::fs::create_dir_all(v.join("projects/infra/scripts")).unwrap();
    let ctx = context(&v, &v.join("projects/infra/scripts"), None);
    let lines: Vec<&str> = ctx.lines().collect();
    assert!(
        lines[0].starts_with("ACTIVE-STATUS.md (active-status, as of 2026-05-06): 5 open"),
        "{ctx}"
    );
    assert_eq!(
        lines[1],
        "Project infra (this session's working directory):"
    );
    assert_eq!(lines[2], "Goals:");
    assert_eq!(lines[3], "- infra: quiet nights");
    assert_eq!(lines[4], "Priorities:");
    assert!(
        lines[5].starts_with("1. ")
            && lines[5].ends_with(" [infra] rotate the backup keys (journal/2026-05-06.md:17)"),
        "{ctx}"
    );
    assert!(
        lines[6].starts_with("2. ")
            && lines[6].ends_with(" [infra] move the nightly backup (journal/2026-05-06.md:18)"),
        "{ctx}"
    );
    assert_eq!(lines[7], "Other projects: 3 open (wrap-cli 2, untagged 1).");
    assert_eq!(lines.len(), 8, "{ctx}");
    assert!(!ctx.contains("ship the lock timeout"), "{ctx}");
}

#[test]
fn a_configured_repository_path_names_the_project() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join("src")).unwrap();
    let v = vault().file(
        ".agents/active-status.toml",
        format!(
            "[projects.wrap-cli]\npaths = [{:?}]\n",
            repo.path().display().to_string()
        ),
    );
    let ctx = context(&v, &repo.path().join("src"), None);
    assert_has(
        &ctx,
        &[
            "Project wrap-cli (this session's working directory):",
            "- wrap-cli: ship the lock timeout",
            "[wrap-cli] port to Windows",
        ],
    );
    assert!(
        ctx.ends_with("Other projects: 3 open (infra 2, untagged 1)."),
        "{ctx}"
    );
    // `config` shows the table.
    let out = v.cmd().arg("config").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("projects = { \"wrap-cli\" = { paths = ["),
        "{text}"
    );
}

#[test]
fn outside_any_project_the_summary_lists_every_project() {
    let v = vault();
    let ctx = context(&v, v.path(), None);
    assert!(!ctx.contains("this session's working directory"), "{ctx}");
    assert_has(
        &ctx,
        &["- infra: quiet nights", "- wrap-cli: ship the lock timeout"],
    );
    assert!(!ctx.contains("Other projects"), "{ctx}");
}

#[test]
fn the_budget_holds_and_keeps_the_count_line() {
    let v = vault();
    for max in [60, 200, 260, 400] {
        let ctx = context(&v, &v.join("projects/infra"), Some(max));
        assert!(ctx.chars().count() <= max, "{max}: {ctx}");
        if max >= 260 {
            assert!(
                ctx.ends_with("Other projects: 3 open (wrap-cli 2, untagged 1)."),
                "{max}: {ctx}"
            );
        }
    }
}
