//! `done`, `cancel`, `defer`: in-place, byte-preserving edits of the item's
//! sources, under the lock; a Done or Skipped journal entry for items
//! without a checkbox.

use crate::common::assert_has;
use crate::common::{HANG_GUARD, Vault, id_in, wait_deadline};
use serde_json::json;

const TODOS: &str = "# wrap-cli\n\n## Next Session\n\n- [ ] port to Windows\n- [ ] add lock timeout\n\nNotes stay as they are.\n";

fn vault() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .file("projects/wrap-cli/todos.md", TODOS)
        .file(
            "journal/2026-05-05.md",
            "# 2026-05-05\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- retry the flaky test\n- publish the crate\n",
        )
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- retry the flaky test\n",
        )
}

fn id_of(v: &Vault, text: &str) -> String {
    id_in(&v.json(&["list", "--format", "json"]), text)
}

#[test]
fn done_by_id_ticks_the_checkbox_and_changes_nothing_else() {
    let v = vault();
    let id = id_of(&v, "port to Windows");
    let out = v.json(&["done", &id, "--format", "json"]);
    assert_eq!(
        out,
        json!({"schema": 1, "action": "done", "id": id, "text": "port to Windows", "project": "wrap-cli",
               "until": null, "changes": [{"path": "projects/wrap-cli/todos.md", "line": 5, "change": "ticked"}],
               "written": true})
    );
    assert_eq!(
        v.read("projects/wrap-cli/todos.md"),
        TODOS.replace("- [ ] port to Windows", "- [x] port to Windows")
    );
    assert!(!v.open_texts().contains(&"port to Windows".to_string()));
}

#[test]
fn done_without_checkbox_writes_a_done_entry_that_resolves_every_day() {
    let v = vault();
    let out = v
        .test()
        .args(["done", "retry the flaky test", "--date", "2026-05-07"])
        .run()
        .output;
    let id = String::from_utf8(out.stdout).unwrap();
    assert!(id.starts_with("done: "), "{id}");
    assert!(
        id.ends_with(" [wrap-cli] retry the flaky test\n  done entry journal/2026-05-07.md:7\n"),
        "{id}"
    );
    assert_eq!(
        v.read("journal/2026-05-07.md"),
        "# 2026-05-07\n\n## Session: follow-ups (wrap-cli)\n\n### Done\n\n- retry the flaky test\n"
    );
    // Both earlier journal items are resolved; the journals are untouched.
    assert_eq!(
        v.open_texts(),
        vec!["port to Windows", "add lock timeout", "publish the crate"]
    );
    assert!(
        v.read("journal/2026-05-06.md")
            .ends_with("- retry the flaky test\n")
    );
}

#[test]
fn done_adds_the_done_date_when_the_file_uses_tasks_metadata() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        "## Next Session\n\n- [ ] ship it 📅 2026-05-10\n- [ ] write docs ^blk1\n",
    );
    v.ok(&["done", "ship it", "--date", "2026-05-07"]);
    v.ok(&["done", "write docs", "--date", "2026-05-08"]);
    assert_eq!(
        v.read("projects/p/todos.md"),
        "## Next Session\n\n- [x] ship it 📅 2026-05-10 ✅ 2026-05-07\n- [x] write docs ✅ 2026-05-08 ^blk1\n"
    );
}

#[test]
fn cancel_marks_checkboxes_and_records_plain_items_as_skipped() {
    let v = vault();
    v.test()
        .args(["cancel", "add lock timeout"])
        .expect_file_has("projects/wrap-cli/todos.md", "- [-] add lock timeout\n")
        .run();
    let acted = v
        .test()
        .args([
            "cancel",
            "publish the crate",
            "--date",
            "2026-05-06",
            "--format",
            "json",
        ])
        .run()
        .json();
    assert_eq!(
        acted["changes"],
        json!([{"path": "journal/2026-05-06.md", "line": 11, "change": "skip_entry"}])
    );
    assert_eq!(
        v.read("journal/2026-05-06.md"),
        "# 2026-05-06\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- retry the flaky test\n\n### Skipped follow-ups\n\n- publish the crate\n"
    );
    assert_eq!(
        v.open_texts(),
        vec!["retry the flaky test", "port to Windows"]
    );
    let r = v.report();
    assert_eq!(
        r["audit"]["potentially_lost"],
        json!([{"path": "journal/2026-05-06.md", "line": 11, "text": "publish the crate", "project": "wrap-cli"}])
    );
}

#[test]
fn defer_writes_a_start_date_in_the_file_style() {
    let v = vault().project("q").file(
        "projects/q/todos.md",
        "## Next Session\n\n- [ ] tidy [due:: 2026-06-01]\n- [ ] later 🛫 2026-05-20\n",
    );
    v.ok(&["defer", "port to Windows", "--until", "2026-06-01"]);
    assert!(
        v.read("projects/wrap-cli/todos.md")
            .contains("- [ ] port to Windows 🛫 2026-06-01\n")
    );
    v.ok(&["defer", "tidy", "--until", "2026-07-01"]);
    v.ok(&["defer", "later", "--until", "2026-08-01"]);
    assert_eq!(
        v.read("projects/q/todos.md"),
        "## Next Session\n\n- [ ] tidy [due:: 2026-06-01] [start:: 2026-07-01]\n- [ ] later 🛫 2026-08-01\n"
    );
    // Every open member of the cluster, on every day it was written.
    let out = v.json(&[
        "defer",
        "retry the flaky test",
        "--until",
        "2026-06-01",
        "--format",
        "json",
    ]);
    assert_eq!(out["until"], "2026-06-01");
    assert_eq!(out["changes"].as_array().unwrap().len(), 2);
    assert!(
        v.read("journal/2026-05-05.md")
            .contains("- retry the flaky test 🛫 2026-06-01\n")
    );
    assert!(
        v.read("journal/2026-05-06.md")
            .contains("- retry the flaky test 🛫 2026-06-01\n")
    );
    v.test()
        .args(["defer", "later", "--until", "next week"])
        .status(2)
        .run();
}

#[test]
fn ambiguous_text_lists_candidates_and_writes_nothing() {
    let v = vault().file(
        "projects/wrap-cli/actives/docs/todos.md",
        "- [ ] update the docs for route\n- [ ] update the docs for regen\n",
    );
    let before = v.snapshot();
    v.test()
        .args(["done", "update the docs"])
        .status(65)
        .stderr_has("\"update the docs\" matches 2 open items:")
        .stderr_has(
            "[wrap-cli] update the docs for route (projects/wrap-cli/actives/docs/todos.md:1)",
        )
        .stderr_has(
            "[wrap-cli] update the docs for regen (projects/wrap-cli/actives/docs/todos.md:2)",
        )
        .stderr_has("hint: name one by its ID, its path:line or a longer text")
        .run();
    assert_eq!(v.snapshot(), before);
    // A short word is never looked up as a part of a text.
    v.test()
        .args(["done", "the"])
        .status(65)
        .stderr_has("no open item matches \"the\"")
        .run();
    assert_eq!(v.snapshot(), before);
    // A path:line names it exactly.
    v.ok(&["done", "projects/wrap-cli/actives/docs/todos.md:2"]);
    assert_eq!(
        v.read("projects/wrap-cli/actives/docs/todos.md"),
        "- [ ] update the docs for route\n- [x] update the docs for regen\n"
    );
}

#[test]
fn an_id_that_no_longer_exists_is_refused() {
    let v = vault();
    let id = id_of(&v, "port to Windows");
    v.ok(&["done", &id]);
    let before = v.snapshot();
    v.test()
        .args(["done", &id])
        .status(65)
        .stderr_has(format!("no open item matches {id:?}"))
        .run();
    assert_eq!(v.snapshot(), before);
    v.test()
        .args(["cancel", "nothing like this at all"])
        .status(65)
        .run();
}

#[test]
fn a_read_only_file_is_refused_with_nothing_written() {
    use std::os::unix::fs::PermissionsExt;
    let v = vault();
    let path = v.join("projects/wrap-cli/todos.md");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = v.snapshot();
    v.test()
        .args(["done", "port to Windows"])
        .status(73)
        .stderr_has(
            "cannot write projects/wrap-cli/todos.md: the file is read-only; nothing was written",
        )
        .run();
    assert_eq!(v.snapshot(), before);
}

#[test]
fn crlf_files_keep_their_line_endings() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        "## Next Session\r\n\r\n- [ ] one\r\n- [ ] two\r\n",
    );
    v.ok(&["done", "two"]);
    v.ok(&["defer", "one", "--until", "2026-06-01"]);
    assert_eq!(
        v.read("projects/p/todos.md"),
        "## Next Session\r\n\r\n- [ ] one 🛫 2026-06-01\r\n- [x] two\r\n"
    );
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let v = vault();
    let before = v.snapshot();
    let out = v
        .test()
        .args(["done", "port to Windows", "--dry-run"])
        .run()
        .output;
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("done (dry run): "), "{text}");
    assert!(
        text.contains(
            "--- a/projects/wrap-cli/todos.md\n+++ b/projects/wrap-cli/todos.md\n@@ -3,5 +3,5 @@\n ## Next Session\n \n-- [ ] port to Windows\n+- [x] port to Windows\n"
        ),
        "{text}"
    );
    let out = v
        .cmd()
        .args([
            "cancel",
            "publish the crate",
            "--dry-run",
            "--date",
            "2026-05-09",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("+++ b/journal/2026-05-09.md\n"), "{text}");
    let json = v.json(&[
        "defer",
        "publish the crate",
        "--until",
        "2026-06-01",
        "--dry-run",
        "--format",
        "json",
    ]);
    assert_eq!(json["written"], false);
    assert_eq!(v.snapshot(), before);
}

#[test]
fn regen_updates_the_dashboard_under_the_same_lock() {
    let v = vault();
    v.json(&["regen", "--format", "json"]);
    assert!(v.read("ACTIVE-STATUS.md").contains("port to Windows"));
    v.test()
        .args(["done", "port to Windows", "--regen"])
        .stderr_has("ACTIVE-STATUS.md: written (3 open, 3 shown)")
        .run();
    assert!(!v.read("ACTIVE-STATUS.md").contains("port to Windows"));
}

#[test]
fn a_concurrent_route_into_the_same_file_loses_nothing() {
    let v = vault();
    let routed = [
        "write the changelog",
        "bump the version",
        "tag the release",
        "announce on the forum",
    ];
    for (n, text) in routed.iter().enumerate() {
        let mut route = v.process();
        route.args(["route", "--to", "project", "--project", "wrap-cli", text]);
        let mut done = v.process();
        let target = if n % 2 == 0 {
            "port to Windows"
        } else {
            "add lock timeout"
        };
        let verb = if n < 2 { "defer" } else { "done" };
        done.arg(verb).arg(target).args(["--date", "2026-05-07"]);
        if verb == "defer" {
            done.args(["--until", &format!("2026-06-0{}", n + 1)]);
        }
        let mut a = route.stdout(std::process::Stdio::null()).spawn().unwrap();
        let mut b = done.stdout(std::process::Stdio::null()).spawn().unwrap();
        assert!(wait_deadline(&mut a, HANG_GUARD, "route").success());
        assert!(wait_deadline(&mut b, HANG_GUARD, verb).success());
    }
    let todos = v.read("projects/wrap-cli/todos.md");
    for text in routed {
        assert!(todos.contains(&format!("- [ ] {text}\n")), "{todos}");
    }
    // The file uses Tasks metadata once deferred, so `done` adds the date.
    assert_has(
        &todos,
        &[
            "- [x] port to Windows 🛫 2026-06-01 ✅ 2026-05-07\n",
            "- [x] add lock timeout 🛫 2026-06-02 ✅ 2026-05-07\n",
            "\nNotes stay as they are.\n",
        ],
    );
}

const INBOX: &str = ".agents/inbox/2026-05-06T183000-abcd1234.md";

fn inbox_vault() -> Vault {
    vault().file(
        INBOX,
        "# Captured follow-ups 2026-05-06 18:30:00\n\n<!-- project: wrap-cli -->\n\n### Next (captured)\n\n- [ ] (wrap-cli) benchmark the parser\n- [ ] (wrap-cli) rewrite it in Go\n",
    )
}

#[test]
fn route_from_replaces_a_captured_item_in_the_same_step() {
    let v = inbox_vault();
    let batch = r#"[{"text": "Benchmark the parser on the large vault", "to": "project", "project": "wrap-cli", "replaces": "benchmark the parser"}]"#;
    let out = v
        .test()
        .args(["route", "--from", "-", "--format", "json"])
        .stdin(batch)
        .run()
        .output;
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results[0]["status"], "added");
    assert_eq!(results[0]["replaced"], json!([format!("{INBOX}:7")]));
    assert!(
        v.read(INBOX)
            .contains("- [x] (wrap-cli) benchmark the parser\n")
    );
    assert!(
        v.read(INBOX)
            .contains("- [ ] (wrap-cli) rewrite it in Go\n")
    );
    assert!(
        v.read("projects/wrap-cli/todos.md")
            .contains("- [ ] Benchmark the parser on the large vault\n")
    );
    let open = v.open_texts();
    assert!(
        !open.contains(&"benchmark the parser".to_string()),
        "{open:?}"
    );
    assert!(
        open.contains(&"Benchmark the parser on the large vault".to_string()),
        "{open:?}"
    );
}

#[test]
fn route_from_replaces_refuses_an_item_that_is_not_captured() {
    let v = inbox_vault();
    let before = v.snapshot();
    let batch = r#"[{"text": "x y z", "to": "journal", "replaces": "port to Windows"}]"#;
    v
        .test()
        .args(["route", "--from", "-"])
        .stdin(batch)
        .status(65).stderr_has("route entry 1: `replaces` \"port to Windows\" names an open item with no captured inbox place; nothing was written").run();
    v.test()
        .args(["route", "--from", "-"])
        .stdin(r#"[{"text": "x y z", "to": "journal", "replaces": "nothing like it at all"}]"#)
        .status(65)
        .run();
    assert_eq!(v.snapshot(), before);
}

// ---------------------------------------------------------------- triage

/// The capture and project list of docs/GUIDE.md's inbox-triage recipe.
const GUIDE_TODOS: &str = "# wrap-cli\n\n## Next Session\n\n- [ ] port to Windows\n";

/// The console block of docs/GUIDE.md's inbox-triage recipe and the
/// Markdown block before it (the capture), so the recipe is the test.
fn guide_triage() -> (String, String) {
    let guide = include_str!("../../docs/GUIDE.md");
    let at = guide
        .find("Inbox triage in one step:")
        .expect("the recipe in docs/GUIDE.md");
    let rest = &guide[at..];
    let block = |fence: &str, from: usize| -> (String, usize) {
        let start = rest[from..].find(fence).expect("block") + from + fence.len() + 1;
        let end = rest[start..].find("\n```\n").expect("block end") + start;
        (rest[start..end].to_string() + "\n", end + 5)
    };
    let (capture, after) = block("```markdown", 0);
    let (console, _) = block("```console", after);
    (capture, console)
}

#[test]
fn the_guide_inbox_triage_recipe_keeps_the_routed_item_open() {
    let (capture, console) = guide_triage();
    let v = Vault::new()
        .project("wrap-cli")
        .file("projects/wrap-cli/todos.md", GUIDE_TODOS)
        .file(INBOX, &capture);
    // Each `$ ` line is run as the GUIDE writes it; what follows is its output.
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in console.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => steps.push((command.to_string(), String::new())),
            None => {
                let (_, out) = steps.last_mut().expect("a command first");
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    assert_eq!(steps.len(), 2, "{console}");
    for (command, expected) in &steps {
        let (stdin, args) = match command.strip_prefix("echo '") {
            Some(rest) => {
                let (json, args) = rest.split_once("' | active-status ").expect("a pipe");
                (json.to_string(), args.to_string())
            }
            None => (
                String::new(),
                command
                    .strip_prefix("active-status ")
                    .expect("the tool")
                    .to_string(),
            ),
        };
        let out = v
            .test()
            .args(args.split_whitespace())
            .stdin(stdin)
            .run()
            .output;
        assert_eq!(crate::common::stdout(&out), *expected, "{command}");
    }
    assert!(v.read(INBOX).contains("- [x] benchmark the parser\n"));
}

#[test]
fn a_capture_ticked_by_hand_resolves_nothing() {
    let v = Vault::new()
        .project("wrap-cli")
        .file(
            "projects/wrap-cli/todos.md",
            "## Next Session\n\n- [ ] benchmark the parser\n",
        )
        .file(
            INBOX,
            "# Captured\n\n<!-- project: wrap-cli -->\n\n### Next (captured)\n\n- [x] benchmark the parser\n- [-] rewrite it in Go\n",
        );
    assert_eq!(v.open_texts(), ["benchmark the parser"]);
    let report = v.report();
    assert_eq!(report["audit"]["resolved"], 0, "{report}");
}

#[test]
fn done_on_a_capture_alone_ticks_it_and_writes_a_done_entry() {
    let v = Vault::new().project("wrap-cli").file(
        INBOX,
        "# Captured\n\n<!-- project: wrap-cli -->\n\n### Next (captured)\n\n- [ ] benchmark the parser\n",
    );
    v.test()
        .args(["--today", "2026-05-07", "done", "benchmark the parser"])
        .run();
    assert!(v.read(INBOX).contains("- [x] benchmark the parser\n"));
    assert_eq!(
        v.read("journal/2026-05-07.md"),
        "# 2026-05-07\n\n## Session: follow-ups (wrap-cli)\n\n### Done\n\n- benchmark the parser\n"
    );
    assert!(v.open_texts().is_empty());
}

// ---------------------------------------------------------------- today

#[test]
fn writes_date_their_entries_with_today_from_the_flag_or_the_variable() {
    let v = vault().file(
        "journal/2026-05-06.md",
        "# 2026-05-06\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- retry the flaky test\n- publish the crate\n- write the notes\n",
    );
    v.test()
        .args(["--today", "2026-05-08", "done", "retry the flaky test"])
        .expect_file_has("journal/2026-05-08.md", "- retry the flaky test\n")
        .run();
    v.test()
        .env("ACTIVE_STATUS_TODAY", "2026-05-09")
        .args(["cancel", "publish the crate"])
        .expect_file_has("journal/2026-05-09.md", "- publish the crate\n")
        .run();
    // A deferral date not after today is written, with a warning.
    v.test()
        .args([
            "--today",
            "2026-05-09",
            "defer",
            "write the notes",
            "--until",
            "2026-05-01",
        ])
        .stderr(
            "warning: deferred until 2026-05-01, which is not after today (2026-05-09); was a later date meant?\n",
        )
        .run();
    assert!(
        v.read("journal/2026-05-06.md")
            .contains("- write the notes 🛫 2026-05-01\n")
    );
}

// ---------------------------------------------------------------- closed by a tick

#[test]
fn history_and_explain_find_an_item_done_by_ticking_its_only_place() {
    let v = vault();
    let id = id_of(&v, "port to Windows");
    v.test().args(["--today", "2026-05-06", "done", &id]).run();
    for query in [
        "port to Windows",
        id.as_str(),
        "projects/wrap-cli/todos.md:5",
    ] {
        let h = v.json(&["history", query, "--format", "json"]);
        assert_eq!(h["status"], "resolved", "{query}: {h}");
        assert_eq!(h["text"], "port to Windows", "{query}: {h}");
        assert_eq!(
            h["done_entries"],
            json!([{"date": null, "path": "projects/wrap-cli/todos.md", "line": 5, "project": "wrap-cli"}]),
            "{query}"
        );
        let e = v.json(&["explain", query, "--format", "json"]);
        assert_eq!(e["state"], "resolved", "{query}: {e}");
        assert_eq!(e["text"], "port to Windows", "{query}: {e}");
        assert_eq!(
            e["resolved_by"]["entry"]["path"], "projects/wrap-cli/todos.md",
            "{query}: {e}"
        );
    }
}

/// An editor that saves by writing a new file and renaming it over the
/// target (vim, `sed -i`, sync tools), racing `done` on the same file: no
/// save of the editor is lost, whichever wins each race. The editor saves
/// as soon as it sees one of the tool's temporary files beside the target
/// (an edit is then between its write and its rename), every other time,
/// so each `done` also gets a try without a save under it.
#[test]
#[cfg_attr(
    feature = "portable",
    ignore = "without an exchange rename, a save between the check and the rename is lost"
)]
fn done_racing_an_editor_that_renames_its_saves_loses_none() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let items: Vec<String> = (1..=16).map(|n| format!("finish task {n}")).collect();
    let mut todos = String::from("# wrap-cli\n\n## Next Session\n\n");
    for text in &items {
        todos.push_str(&format!("- [ ] {text}\n"));
    }
    let v = Vault::new()
        .project("wrap-cli")
        .file("projects/wrap-cli/todos.md", &todos);
    let target = v.join("projects/wrap-cli/todos.md");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let editor = {
        let (stop, target) = (stop.clone(), target.clone());
        let folder = target.parent().unwrap().to_path_buf();
        let swap = folder.join(".todos.md.swp");
        std::thread::spawn(move || {
            let mut seen = std::collections::HashSet::new();
            let mut saves = 0u32;
            while !stop.load(Ordering::Relaxed) {
                let fresh = std::fs::read_dir(&folder)
                    .unwrap()
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.contains(".active-status-") && seen.insert(n.clone()))
                    .count();
                if fresh == 0 || seen.len() % 2 == 0 {
                    std::thread::yield_now();
                    continue;
                }
                let mut text = std::fs::read_to_string(&target).unwrap();
                saves += 1;
                text.push_str(&format!("- editor note {saves}\n"));
                std::fs::write(&swap, text).unwrap();
                std::fs::rename(&swap, &target).unwrap();
            }
            saves
        })
    };
    for text in &items {
        let mut done = v.process();
        done.args(["done", text, "--date", "2026-05-07"]);
        let mut child = done
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let status = wait_deadline(&mut child, HANG_GUARD, "done");
        // Done, or given up after many changes under it (exit 75): never a loss.
        assert!(matches!(status.code(), Some(0 | 75)), "{status:?}");
    }
    stop.store(true, Ordering::Relaxed);
    let saves = editor.join().unwrap();
    let now = std::fs::read_to_string(&target).unwrap();
    let lost: Vec<u32> = (1..=saves)
        .filter(|n| !now.contains(&format!("- editor note {n}\n")))
        .collect();
    assert!(
        saves > 0 && lost.is_empty(),
        "{} of {saves} saves lost: {lost:?}",
        lost.len()
    );
}
