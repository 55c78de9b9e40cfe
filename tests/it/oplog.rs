//! The operation log and `undo`: every kind of write is one entry that
//! `undo` reverts when its files still hold what it wrote; the refusals
//! (a file changed since, private text), `--dry-run`, and a log that is
//! hostile input (bad lines, paths that lead out of the vault).

use crate::common::assert_has;
use crate::common::{Vault, find, id_in, stderr, stdout};
use serde_json::{Value, json};

const TODAY: &str = "2026-05-06";
const LOG: &str = ".agents/oplog.jsonl";

fn vault() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .file(
            "projects/wrap-cli/todos.md",
            "# wrap-cli\n\n## Next Session\n\n- [ ] port to Windows\n- [ ] add lock timeout\n\nNotes stay.\n",
        )
        .file(
            "journal/2026-05-01.md",
            "# 2026-05-01\n\n## Session: start (wrap-cli)\n\n### Next\n\n- [ ] Result: all tests pass\n- [ ] Files changed:\n",
        )
        .file(
            "journal/2026-05-05.md",
            "# 2026-05-05\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- retry the flaky test\n- publish the crate\n",
        )
}

/// The vault's files an operation may change: not the log itself, the
/// dashboard or caches.
fn files(v: &Vault) -> Vec<(String, Vec<u8>)> {
    v.snapshot()
        .into_iter()
        .filter(|(p, _)| p != LOG && !p.contains(".agents/cache") && p != "ACTIVE-STATUS.md")
        .collect()
}

fn run(v: &Vault, args: &[&str], stdin: Option<&str>) -> std::process::Output {
    let mut cmd = v.cmd();
    cmd.args(["--today", TODAY]).args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    cmd.output().unwrap()
}

/// `route --to project --project wrap-cli TEXT`.
fn route(text: &str) -> [&str; 6] {
    ["route", "--to", "project", "--project", "wrap-cli", text]
}

fn ok(v: &Vault, args: &[&str], stdin: Option<&str>) -> String {
    let out = run(v, args, stdin);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

fn log(v: &Vault) -> Value {
    v.json(&["log", "--format", "json"])
}

fn id_of(v: &Vault, text: &str) -> String {
    id_in(
        &v.json(&["--today", TODAY, "list", "--format", "json"]),
        text,
    )
}

/// Runs one writing command, checks its log entry names exactly the files
/// it changed, undoes it and checks every file is back byte for byte and
/// the undo is logged. Returns the operation's entry.
fn undo_round_trip(v: &Vault, args: &[&str], stdin: Option<&str>, command: &str) -> Value {
    let before = files(v);
    ok(v, args, stdin);
    let after = files(v);
    assert_ne!(before, after, "{args:?} changed nothing");
    let changed: Vec<String> = after
        .iter()
        .filter(|f| !before.contains(f))
        .map(|(p, _)| p.clone())
        .collect();
    let l = log(v);
    let op = l["operations"][0].clone();
    assert_eq!(op["command"], command, "{l}");
    let mut logged: Vec<String> = op["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    logged.sort();
    assert_eq!(logged, changed, "{l}");
    let undone = ok(v, &["undo"], None);
    let id = op["op"].as_str().unwrap();
    assert!(undone.starts_with(&format!("undone: {id} ")), "{undone}");
    assert_eq!(files(v), before, "{args:?} not reverted");
    let l = log(v);
    assert_eq!(l["operations"][0]["command"], "undo", "{l}");
    assert_eq!(l["operations"][0]["undoes"], id, "{l}");
    assert_eq!(
        l["operations"][1]["undone_by"], l["operations"][0]["op"],
        "{l}"
    );
    op
}

#[test]
fn route_is_logged_and_undone() {
    let v = vault();
    undo_round_trip(&v, &route("bump the version"), None, "route");
}

#[test]
fn done_cancel_and_defer_are_logged_and_undone() {
    let v = vault();
    let id = id_of(&v, "port to Windows");
    undo_round_trip(&v, &["done", &id], None, "done");
    // An item without a checkbox: a Done entry in today's journal, created.
    let op = undo_round_trip(&v, &["done", "publish the crate"], None, "done");
    let created = find(&op["files"], "path", "journal/2026-05-06.md");
    assert!(created["before"].is_null(), "{op}");
    assert!(!v.exists("journal/2026-05-06.md"));
    undo_round_trip(&v, &["cancel", &id], None, "cancel");
    undo_round_trip(&v, &["defer", &id, "--until", "2026-06-01"], None, "defer");
}

#[test]
fn keep_same_and_not_task_are_logged_and_undone() {
    let v = vault();
    let a = id_of(&v, "add lock timeout");
    let b = id_of(&v, "port to Windows");
    let op = undo_round_trip(&v, &["keep", &a], None, "keep");
    // The decisions file did not exist: undo removes it.
    assert_eq!(op["files"][0]["path"], ".agents/decisions.log");
    assert!(!v.exists(".agents/decisions.log"));
    undo_round_trip(&v, &["same", &a, &b], None, "same");
    undo_round_trip(&v, &["not-task", &b], None, "not-task");
}

#[test]
fn a_decide_batch_is_one_operation() {
    let v = vault();
    let a = id_of(&v, "add lock timeout");
    let w = id_of(&v, "port to Windows");
    let batch = json!([{"action": "keep", "id": a}, {"action": "done", "id": w}]).to_string();
    let op = undo_round_trip(&v, &["decide", "--from", "-"], Some(&batch), "decide");
    assert_eq!(op["files"].as_array().unwrap().len(), 2, "{op}");
}

#[test]
fn review_archive_before_is_logged_and_undone() {
    let v = vault();
    undo_round_trip(
        &v,
        &["review", "--archive-before", "2026-05-02"],
        None,
        "review",
    );
}

#[test]
fn an_inbox_triage_is_logged_and_undone() {
    let inbox = ".agents/inbox/2026-05-06T183000-abcd1234.md";
    let v = vault().file(
        inbox,
        "# Captured follow-ups 2026-05-06 18:30:00\n\n<!-- project: wrap-cli -->\n\n### Next (captured)\n\n- [ ] (wrap-cli) benchmark the parser\n",
    );
    let batch = r#"[{"text": "Benchmark the parser on the large vault", "to": "project", "project": "wrap-cli", "replaces": "benchmark the parser"}]"#;
    let op = undo_round_trip(&v, &["route", "--from", "-"], Some(batch), "route");
    assert_eq!(op["files"].as_array().unwrap().len(), 2, "{op}");
}

#[test]
fn a_hook_capture_is_logged_and_undone() {
    let v = vault();
    let t = tempfile::tempdir().unwrap();
    let transcript = t.path().join("s.jsonl");
    let line = |kind: &str, text: &str| {
        json!({"type": kind, "sessionId": "abcdef123456", "message": {"role": kind, "content": text}})
            .to_string()
    };
    std::fs::write(
        &transcript,
        [
            line("user", "rotate the lock file please"),
            line(
                "assistant",
                "Rotated.\n\nNext steps:\n- document the lock path\n- bump the version\n",
            ),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let input = json!({"session_id": "abcdef123456", "transcript_path": transcript,
        "cwd": v.join("projects/wrap-cli"), "hook_event_name": "SessionEnd", "reason": "clear"})
    .to_string();
    let op = undo_round_trip(
        &v,
        &["hook", "session-end"],
        Some(&input),
        "hook session-end",
    );
    let path = op["files"][0]["path"].as_str().unwrap();
    assert!(path.starts_with(".agents/inbox/"), "{op}");
    assert!(!v.exists(path));
}

#[test]
fn regen_alone_logs_nothing() {
    let v = vault();
    ok(&v, &["regen"], None);
    assert!(v.exists("ACTIVE-STATUS.md"));
    assert!(!v.exists(LOG));
    assert_eq!(
        stdout(&v.cmd().arg("log").output().unwrap()),
        "no operations logged\n"
    );
}

#[test]
fn undo_refuses_when_a_file_changed_since_and_writes_nothing() {
    let v = vault();
    let id = id_of(&v, "port to Windows");
    ok(&v, &["done", &id], None);
    let todos = v.read("projects/wrap-cli/todos.md") + "- [ ] typed by hand\n";
    v.write("projects/wrap-cli/todos.md", &todos);
    let before = v.snapshot();
    let out = run(&v, &["undo"], None);
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    let op = log(&v)["operations"][0]["op"].as_str().unwrap().to_string();
    assert_eq!(
        stderr(&out),
        format!(
            "error: undo {op}: projects/wrap-cli/todos.md: changed since the operation (it no longer holds what {op} wrote); nothing was written\n"
        )
    );
    assert_eq!(v.snapshot(), before);
}

#[test]
fn undo_walks_back_one_operation_at_a_time_and_an_undo_can_be_undone() {
    let v = vault();
    let start = files(&v);
    ok(&v, &route("first"), None);
    let one = files(&v);
    ok(&v, &route("second"), None);
    ok(&v, &["undo"], None);
    assert_eq!(files(&v), one);
    ok(&v, &["undo"], None);
    assert_eq!(files(&v), start);
    let out = run(&v, &["undo"], None);
    assert_eq!(out.status.code(), Some(65));
    assert!(stderr(&out).contains("nothing to undo"), "{}", stderr(&out));
    // The newest undo, undone: the first route is back.
    let newest = log(&v)["operations"][0]["op"].as_str().unwrap().to_string();
    ok(&v, &["undo", &newest], None);
    assert_eq!(files(&v), one);
    let again = run(&v, &["undo", &newest], None);
    assert_eq!(again.status.code(), Some(65));
    assert!(
        stderr(&again).contains("already undone by"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let v = vault();
    let id = id_of(&v, "port to Windows");
    ok(&v, &["done", &id], None);
    let before = v.snapshot();
    let out = ok(&v, &["undo", "--dry-run"], None);
    assert_has(
        &out,
        &[
            "  restore projects/wrap-cli/todos.md\n",
            "\n-- [x] port to Windows",
            "\n+- [ ] port to Windows\n",
        ],
    );
    assert!(out.ends_with("(dry run: nothing written)\n"), "{out}");
    assert_eq!(v.snapshot(), before);
}

#[test]
fn a_change_to_private_text_is_logged_redacted_and_not_undone() {
    let v = vault().file(
        "projects/wrap-cli/todos.md",
        "## Next Session\n\n- [ ] rotate <private>hunter2</private> key\n",
    );
    ok(&v, &["done", "rotate [private] key"], None);
    assert!(!v.read(LOG).contains("hunter2"), "{}", v.read(LOG));
    assert!(v.read(LOG).contains("[private]"));
    let before = v.snapshot();
    let out = run(&v, &["undo", "--dry-run"], None);
    assert_eq!(out.status.code(), Some(65));
    assert!(
        stderr(&out).contains("touches <private> text"),
        "{}",
        stderr(&out)
    );
    let out = run(&v, &["undo"], None);
    assert_eq!(out.status.code(), Some(65));
    assert_eq!(v.snapshot(), before);
    let text = stdout(&v.cmd().arg("log").output().unwrap());
    assert!(text.contains("private: not revertible"), "{text}");
}

#[test]
fn bad_log_lines_are_counted_warnings_naming_file_and_line() {
    let v = vault();
    ok(&v, &route("first"), None);
    let mut text = v.read(LOG);
    text.push_str("garbage\n");
    text.push_str(
        &json!({"op": "evil1", "time": "2026-05-06T10:00:00Z", "command": "done",
            "files": [{"path": "../outside.md", "before": null,
                       "after": "0".repeat(64), "hunks": []}]})
        .to_string(),
    );
    text.push('\n');
    v.write(LOG, &text);
    let out = v.cmd().arg("log").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let shown = v.join(LOG).display().to_string();
    assert!(
        err.contains(&format!("warning: {shown}:3: not an operation")),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "warning: {shown}:4: path \"../outside.md\" is refused"
        )),
        "{err}"
    );
    assert!(
        err.contains("warning: 2 line(s) of .agents/oplog.jsonl ignored"),
        "{err}"
    );
    assert_eq!(log(&v)["operations"].as_array().unwrap().len(), 1);
    let out = run(&v, &["undo", "evil1"], None);
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
}

#[test]
fn a_log_path_through_a_link_out_of_the_vault_is_refused() {
    let v = vault();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.md"), "outside\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), v.join("link")).unwrap();
    let hash = |s: &str| blake3::hash(s.as_bytes()).to_hex().to_string();
    let entry = json!({"op": "evil2", "time": "2026-05-06T10:00:00Z", "command": "done",
        "files": [{"path": "link/x.md", "before": hash(""), "after": hash("outside\n"),
                   "hunks": [{"at": 0, "add": ["outside\n"]}]}]});
    v.write(LOG, format!("{entry}\n"));
    let out = run(&v, &["undo", "evil2"], None);
    assert_eq!(out.status.code(), Some(73), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(outside.path().join("x.md")).unwrap(),
        "outside\n"
    );
}

/// docs/GUIDE.md's log-and-undo recipe, run as written: each `$ ` line
/// and its output (the operation IDs and times of the guide stand for the
/// run's own).
#[test]
fn the_guide_undo_recipe_runs_as_written() {
    let guide = include_str!("../../docs/GUIDE.md");
    let at = guide.find("### log and undo").expect("the recipe");
    let start = guide[at..].find("```console\n").expect("block") + at + 11;
    let end = guide[start..].find("```\n").expect("block end") + start;
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in guide[start..end].lines() {
        match line.strip_prefix("$ ") {
            Some(c) => steps.push((c.to_string(), String::new())),
            None => {
                let out = &mut steps.last_mut().expect("a command first").1;
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    assert_eq!(steps.len(), 4);
    let v = Vault::new().project("wrap-cli").file(
        "projects/wrap-cli/todos.md",
        "# wrap-cli\n\n## Next Session\n\n- [ ] port to Windows\n- [x] fix the CI badge\n",
    );
    let before = files(&v);
    for (command, expected) in &steps {
        let args = command.strip_prefix("active-status ").expect("the tool");
        let args = args.replace("\"port to Windows\"", "port to Windows");
        let args: Vec<&str> = match args.strip_prefix("done ") {
            Some(text) => vec!["done", text],
            None => args.split_whitespace().collect(),
        };
        let mut out = ok(&v, &args, None);
        for op in log(&v)["operations"].as_array().unwrap() {
            let guide_id = if op["command"] == "done" {
                "xq4kz2ma"
            } else {
                "m7rc2d4p"
            };
            out = out
                .replace(op["op"].as_str().unwrap(), guide_id)
                .replace(op["time"].as_str().unwrap(), "2026-05-07T09:12:44Z");
        }
        assert_eq!(out, *expected, "{command}");
    }
    assert_eq!(files(&v), before);
}
