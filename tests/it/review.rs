//! The certain rules (task identifiers), the review queue with its reasons
//! and evidence, the decisions that last (`keep`, `same`, `not-task`,
//! `decide`, `review --archive-before`) and `wrap`.

use crate::common::{Vault, stderr, stdout};
use crate::common::{check_accounting, check_cases, same};
use serde_json::Value;

const TODAY: &str = "2026-05-04";

fn at(v: &Vault, args: &[&str]) -> Value {
    let mut all = vec!["--today", TODAY];
    all.extend_from_slice(args);
    v.json(&all)
}

fn report(v: &Vault) -> Value {
    let r = at(v, &["audit", "--format", "json"]);
    check_accounting(&r);
    r
}

/// Every listed open text (priorities and overflow).
fn listed(r: &Value) -> Vec<String> {
    ["priorities", "overflow"]
        .iter()
        .flat_map(|k| r[k].as_array().unwrap().iter())
        .map(|i| i["text"].as_str().unwrap().to_string())
        .collect()
}

/// `(reason, text, evidence text)` of every review item.
fn review(r: &Value) -> Vec<(String, String, String)> {
    r["review"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["reason"].as_str().unwrap().to_string(),
                i["text"].as_str().unwrap().to_string(),
                i["evidence"]["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn id_of(r: &Value, text: &str) -> String {
    ["priorities", "overflow", "review"]
        .iter()
        .flat_map(|k| r[k].as_array().unwrap().iter())
        .find(|i| i["text"] == text)
        .unwrap_or_else(|| panic!("{text} not open: {r}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn journal(date: &str, next: &[&str], done: &[&str]) -> String {
    let mut s = format!("# {date}\n\n## Session: work (app)\n\n");
    if !done.is_empty() {
        s.push_str("### Done\n\n");
        for d in done {
            s.push_str(&format!("- {d}\n"));
        }
        s.push('\n');
    }
    s.push_str("### Next\n\n");
    for n in next {
        s.push_str(&format!("- [ ] {n}\n"));
    }
    s
}

fn two_days(first: &[&str], done: &[&str], second: &[&str]) -> Vault {
    Vault::new()
        .project("app")
        .file("journal/2026-05-01.md", journal("2026-05-01", first, &[]))
        .file("journal/2026-05-03.md", journal("2026-05-03", second, done))
}

/// The second day's Next item of the done-line cases.
const NOTES: &str = "write the release notes";

/// `(case, the first day's Next items, the second day's Done lines, what
/// stays listed, how many items are resolved)`.
type DoneCase = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    u64,
);

/// A later done line resolves an item that shares its identifier, and
/// nothing else goes to review.
const DONE_LINES: &[DoneCase] = &[
    (
        "a later done line naming the identifier resolves the item",
        &["Begin work on ticket #7: scaffold the app"],
        &["#7 done"],
        &[NOTES],
        1,
    ),
    (
        "identifier forms: a PR, a key and an issue URL",
        &[
            "review PR #12 before the release",
            "fix T-091 in the importer",
            "answer https://github.com/o/r/issues/42 today",
        ],
        &["merged #12", "T-091 fixed", "closed #42"],
        &[NOTES],
        3,
    ),
    (
        "a done line naming a different identifier leaves it open",
        &["review PR #12 before the release"],
        &["Reviewed PR #13 before the release"],
        &[NOTES, "review PR #12 before the release"],
        0,
    ),
    (
        "unrelated done lines leave an item listed",
        &["port the lock to Windows"],
        &["wrote the parser tests"],
        &[NOTES, "port the lock to Windows"],
        0,
    ),
];

#[test]
fn a_later_done_line_resolves_by_identifier_and_sends_nothing_to_review() {
    check_cases(
        DONE_LINES,
        |c| c.0,
        |&(_, first, done, want_listed, want_resolved)| {
            let r = report(&two_days(first, done, &[NOTES]));
            same(
                listed(&r),
                want_listed.iter().map(|t| t.to_string()).collect(),
            )?;
            same(r["audit"]["resolved"].as_u64(), Some(want_resolved))?;
            same(review(&r), vec![])
        },
    );
}

#[test]
fn explain_names_the_identifier_and_the_done_line_that_resolved_an_item() {
    let v = two_days(
        &["Begin work on ticket #7: scaffold the app"],
        &["#7 done"],
        &[NOTES],
    );
    let e = at(
        &v,
        &[
            "explain",
            "--format",
            "json",
            "Begin work on ticket #7: scaffold the app",
        ],
    );
    assert_eq!(e["state"], "resolved");
    assert_eq!(e["resolved_by"]["rule"], "identifier #7");
    assert_eq!(e["resolved_by"]["entry"]["text"], "#7 done");
}

#[test]
fn an_earlier_done_line_does_not_resolve_a_later_item() {
    let v = Vault::new()
        .project("app")
        .file(
            "journal/2026-05-01.md",
            journal("2026-05-01", &["write the notes"], &["closed #7"]),
        )
        .file(
            "journal/2026-05-03.md",
            journal("2026-05-03", &["reopen ticket #7 for the import"], &[]),
        );
    let r = report(&v);
    assert!(listed(&r).contains(&"reopen ticket #7 for the import".to_string()));
}

#[test]
fn possibly_done_on_shared_words_or_a_file_name_with_evidence() {
    let v = two_days(
        &[
            "Update the parser in `src/parse.rs` for tables",
            "benchmark import speed large vaults",
        ],
        &[
            "Rewrote table handling in `src/parse.rs`",
            "import speed benchmarked on large vaults",
        ],
        &["write the release notes"],
    );
    let r = report(&v);
    assert_eq!(listed(&r), ["write the release notes"]);
    let q = review(&r);
    assert_eq!(q.len(), 2, "{q:?}");
    assert!(q.iter().all(|(reason, _, _)| reason == "possibly-done"));
    let parser = r["review"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["text"] == "Update the parser in `src/parse.rs` for tables")
        .unwrap();
    assert_eq!(parser["evidence"]["path"], "journal/2026-05-03.md");
    assert_eq!(parser["evidence"]["line"], 7);
}

#[test]
fn describing_shapes_go_to_review_as_not_a_task() {
    let v = two_days(
        &[
            "Files changed:",
            "Result: all tests pass",
            "src/lock.rs — the lock and its timeout",
            "src/lock.rs: add a timeout",
        ],
        &[],
        &["write the release notes"],
    );
    let r = report(&v);
    assert_eq!(
        listed(&r),
        ["write the release notes", "src/lock.rs: add a timeout"]
    );
    let reasons: Vec<_> = review(&r)
        .into_iter()
        .map(|(reason, text, why)| format!("{reason} {text} | {why}"))
        .collect();
    assert_eq!(
        reasons,
        [
            "not-a-task Files changed: | a fragment ending in `:`",
            "not-a-task Result: all tests pass | a result or status line",
            "not-a-task src/lock.rs — the lock and its timeout | a path followed by a description",
        ]
    );
}

#[test]
fn a_possible_duplicate_names_the_other_item() {
    let v = Vault::new().project("app").file(
        "journal/2026-05-03.md",
        journal(
            "2026-05-03",
            &[
                "migrate the billing database schema to postgres",
                "postgres migration for billing database schema",
            ],
            &[],
        ),
    );
    let r = report(&v);
    let q = r["review"].as_array().unwrap();
    assert_eq!(q.len(), 1, "{r}");
    assert_eq!(q[0]["reason"], "possible-duplicate");
    assert_eq!(
        q[0]["evidence"]["text"],
        "migrate the billing database schema to postgres"
    );
    assert!(q[0]["evidence"]["id"].is_string());
}

/// A vault whose `docs/sessions` folder is declared as session logs of `kind`
/// (project `app`), holding the given notes (name, Next items, Done items).
fn session_logs(kind: &str, notes: &[(&str, &[&str], &[&str])]) -> Vault {
    let mut v = Vault::new().project("app").file(
        ".agents/active-status.toml",
        format!(
            "[sources]\nextra = [{{ path = \"docs/sessions\", kind = \"{kind}\", project = \"app\" }}]\n"
        ),
    );
    for (name, next, done) in notes {
        let mut s = format!("# Session {name}\n\n");
        if !done.is_empty() {
            s.push_str("## Done\n\n");
            for d in *done {
                s.push_str(&format!("- {d}\n"));
            }
            s.push('\n');
        }
        s.push_str("## Next steps\n\n");
        for n in *next {
            s.push_str(&format!("- {n}\n"));
        }
        v = v.file(&format!("docs/sessions/{name}.md"), s);
    }
    v
}

#[test]
fn an_earlier_session_logs_item_a_later_one_drops_is_superseded() {
    let v = session_logs(
        "session-log",
        &[
            (
                "2026-05-01",
                &["port the lock to Windows", "write the notes"],
                &[],
            ),
            ("2026-05-03", &["write the notes", "tag the release"], &[]),
        ],
    );
    let r = report(&v);
    assert_eq!(
        review(&r),
        [(
            "superseded".to_string(),
            "port the lock to Windows".to_string(),
            "a later session log (2026-05-03) neither restates nor closes it".to_string()
        )],
        "{r}"
    );
    assert_eq!(
        r["review"][0]["evidence"]["path"],
        "docs/sessions/2026-05-03.md"
    );
    assert_eq!(r["review"][0]["evidence"]["line"], 5);
    // Restated: listed, seen twice; the latest note's items are listed.
    assert_eq!(listed(&r), ["write the notes", "tag the release"]);
    // Hand-off folders are read alike.
    let h = session_logs(
        "handoff",
        &[
            ("2026-05-01", &["port the lock to Windows"], &[]),
            ("2026-05-03", &["tag the release"], &[]),
        ],
    );
    assert_eq!(review(&report(&h))[0].0, "superseded");
}

#[test]
fn superseded_needs_a_later_note_and_a_session_log_source() {
    // The same day: one session, nothing superseded.
    let same_day = session_logs(
        "session-log",
        &[
            ("2026-05-03-morning", &["port the lock to Windows"], &[]),
            ("2026-05-03-evening", &["tag the release"], &[]),
        ],
    );
    assert!(review(&report(&same_day)).is_empty());
    // Closed by the later note: resolved, not in review.
    let closed = session_logs(
        "session-log",
        &[
            ("2026-05-01", &["port the lock to Windows"], &[]),
            (
                "2026-05-03",
                &["tag the release"],
                &["port the lock to Windows"],
            ),
        ],
    );
    let r = report(&closed);
    assert!(review(&r).is_empty(), "{r}");
    assert_eq!(listed(&r), ["tag the release"]);
    // Plain journals (not declared session logs) are never superseded.
    let r = report(&two_days(
        &["port the lock to Windows"],
        &[],
        &["write the notes"],
    ));
    assert!(review(&r).is_empty(), "{r}");
    // An item also listed in a todo file stays listed.
    let also = session_logs(
        "session-log",
        &[
            ("2026-05-01", &["port the lock to Windows"], &[]),
            ("2026-05-03", &["tag the release"], &[]),
        ],
    )
    .file(
        "projects/app/todos.md",
        "## Next\n\n- [ ] port the lock to Windows\n",
    );
    let r = report(&also);
    assert!(review(&r).is_empty(), "{r}");
}

#[test]
fn an_inbox_capture_is_unreviewed_until_kept() {
    let v = Vault::new().project("app").file(
        ".agents/inbox/2026-05-03T101500-abcd1234.md",
        "## Session: work (app)\n\n### Next (captured)\n\n- [ ] retry the flaky upload test\n",
    );
    let r = report(&v);
    assert_eq!(review(&r)[0].0, "unreviewed-capture", "{r}");
    let id = id_of(&r, "retry the flaky upload test");
    at(&v, &["keep", &id, "--format", "json"]);
    let r = report(&v);
    assert!(review(&r).is_empty(), "{r}");
    assert_eq!(listed(&r), ["retry the flaky upload test"]);
}

#[test]
fn stale_is_the_last_reason_and_follows_review_stale_days() {
    let v = two_days(&["port the lock to Windows"], &[], &["write the notes"]).file(
        "journal/2026-06-20.md",
        journal("2026-06-20", &["write the notes"], &[]),
    );
    let r = v.json(&["--today", "2026-06-20", "audit", "--format", "json"]);
    check_accounting(&r);
    assert_eq!(review(&r)[0].0, "stale");
    assert!(
        review(&r)[0]
            .2
            .starts_with("last seen 2026-05-01, 50 days ago")
    );
    v.write(".agents/active-status.toml", "[review]\nstale_days = 60\n");
    let r = v.json(&["--today", "2026-06-20", "audit", "--format", "json"]);
    assert!(review(&r).is_empty(), "{r}");
}

#[test]
fn not_task_and_same_last_through_regen_and_a_rewording() {
    let v = two_days(
        &["Result: all tests pass", "add the lock timeout to wrap"],
        &[],
        &["lock timeout for the wrap command"],
    );
    let r = report(&v);
    let result = id_of(&r, "Result: all tests pass");
    let a = id_of(&r, "add the lock timeout to wrap");
    let b = id_of(&r, "lock timeout for the wrap command");
    at(&v, &["not-task", &result, "--format", "json"]);
    at(&v, &["same", &a, &b, "--format", "json"]);
    let log = v.read(".agents/decisions.log");
    assert_eq!(
        log.lines().filter(|l| !l.starts_with('#')).count(),
        2,
        "{log}"
    );
    at(&v, &["regen", "--format", "json"]);
    let r = report(&v);
    assert_eq!(listed(&r).len(), 1, "{r}");
    assert_eq!(r["audit"]["open"], 1);
    // A rewording the key calls the same item keeps the decision.
    v.write(
        "journal/2026-05-01.md",
        journal(
            "2026-05-01",
            &["Result: all the tests pass", "add the lock timeout to wrap"],
            &[],
        ),
    );
    let r = report(&v);
    assert_eq!(r["audit"]["open"], 1, "{r}");
    let e = at(
        &v,
        &["explain", "--format", "json", "Result: all the tests pass"],
    );
    assert_eq!(e["state"], "resolved");
    assert!(
        e["resolved_by"]["rule"]
            .as_str()
            .unwrap()
            .starts_with(&format!("decision {TODAY} not-task")),
        "{e}"
    );
}

#[test]
fn decisions_of_two_clones_merge_by_union_in_git() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        return;
    }
    let v = two_days(
        &["Result: all tests pass", "Files changed:"],
        &[],
        &["write the notes"],
    );
    let git = |dir: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new("git")
            .current_dir(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
        stdout(&out)
    };
    git(v.path(), &["init", "-q", "-b", "main"]);
    let out = v.cmd().args(["init", "--git-hooks"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    git(v.path(), &["add", "-A"]);
    git(v.path(), &["commit", "-qm", "start", "--no-verify"]);
    let r = report(&v);
    let one = id_of(&r, "Result: all tests pass");
    let two = id_of(&r, "Files changed:");
    let clone = tempfile::tempdir().unwrap();
    git(
        clone.path(),
        &["clone", "-q", &v.path().display().to_string(), "c"],
    );
    let c = clone.path().join("c");
    // The binary on the clone, on TODAY.
    let in_clone = |args: &[&str]| {
        crate::common::bare_cmd()
            .arg("--root")
            .arg(&c)
            .args(["--today", TODAY])
            .args(args)
            .output()
            .unwrap()
    };
    at(&v, &["not-task", &one, "--format", "json"]);
    git(v.path(), &["add", "-A"]);
    git(v.path(), &["commit", "-qm", "one", "--no-verify"]);
    let out = in_clone(&["not-task", &two]);
    assert!(out.status.success(), "{}", stderr(&out));
    git(&c, &["add", "-A"]);
    git(&c, &["commit", "-qm", "two", "--no-verify"]);
    git(
        &c,
        &["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"],
    );
    let log = std::fs::read_to_string(c.join(".agents/decisions.log")).unwrap();
    assert!(!log.contains("<<<<<<<"), "{log}");
    assert_eq!(
        log.lines().filter(|l| l.contains(" not-task ")).count(),
        2,
        "{log}"
    );
    let out = in_clone(&["audit", "--format", "json"]);
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed(&r), ["write the notes"]);
}

#[test]
fn a_decide_batch_is_checked_whole_before_writing() {
    let v = two_days(&["Result: all tests pass"], &[], &["write the notes"]);
    let r = report(&v);
    let id = id_of(&r, "Result: all tests pass");
    let batch =
        format!(r#"[{{"action":"not-task","id":"{id}"}},{{"action":"keep","id":"zzzz99"}}]"#);
    v.write("answers.json", &batch);
    let out = v
        .cmd()
        .args(["--today", TODAY, "decide", "--from"])
        .arg(v.join("answers.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("answers.json: answer 2: no open item matches \"zzzz99\""),
        "{}",
        stderr(&out)
    );
    assert!(!v.exists(".agents/decisions.log"));
    let good = format!(r#"[{{"action":"not-task","id":"{id}"}}]"#);
    v.write("answers.json", &good);
    let file = v.join("answers.json").display().to_string();
    let d = at(&v, &["decide", "--from", &file, "--format", "json"]);
    assert_eq!(d["answers"][0]["action"], "not-task");
    assert!(v.read(".agents/decisions.log").contains(&format!(
        "{TODAY} not-task {id} [app] Result: all tests pass"
    )));
}

#[test]
fn a_bad_decisions_line_is_a_warning_with_its_line() {
    let v = two_days(&["write the code"], &[], &["write the notes"]).file(
        ".agents/decisions.log",
        "# decisions\n2026-05-01 maybe ab12 [app] x\n",
    );
    let r = report(&v);
    let w = r["audit"]["warnings"].as_array().unwrap();
    assert!(
        w.iter().any(|w| w["path"] == ".agents/decisions.log"
            && w["message"]
                == "line 2: expected keep, same or not-task after the date; line ignored"),
        "{w:?}"
    );
}

#[test]
fn archive_before_records_a_keep_for_each_older_item() {
    let v = two_days(
        &["Files changed:", "Result: all tests pass"],
        &[],
        &["Notes:"],
    );
    let out = v
        .cmd()
        .args(["--today", TODAY, "review", "--archive-before", "2026-05-02"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "archived 2 review items last seen before 2026-05-02 (a keep decision each, in .agents/decisions.log)\n"
    );
    let r = report(&v);
    assert_eq!(review(&r).len(), 1, "{r}");
}

#[test]
fn wrap_lists_the_last_handoff_and_the_review_then_takes_one_batch() {
    let v = two_days(
        &["Result: all tests pass"],
        &[],
        &["write the notes", "tag the release"],
    );
    let w = at(&v, &["wrap", "--project", "app", "--format", "json"]);
    assert_eq!(w["handoff_date"], "2026-05-03");
    let handoff: Vec<_> = w["handoff"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["text"].as_str().unwrap())
        .collect();
    assert_eq!(handoff, ["write the notes", "tag the release"]);
    assert_eq!(w["review"][0]["reason"], "not-a-task");
    let out = v
        .cmd()
        .args(["--today", TODAY, "wrap", "--project", "app"])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains("Last hand-off (2026-05-03), 2 open:"),
        "{text}"
    );
    assert!(text.contains("Review (1):"), "{text}");
}

#[test]
fn session_start_ends_with_the_review_block() {
    let v = two_days(&["Result: all tests pass"], &[], &["write the notes"]);
    let out = v
        .cmd()
        .args(["--today", TODAY, "hook", "session-start"])
        .write_stdin(format!(
            "{{\"cwd\":\"{}\",\"source\":\"startup\"}}",
            v.path().display()
        ))
        .output()
        .unwrap();
    let hook: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = hook["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    let tail: Vec<&str> = text.lines().rev().take(3).collect();
    assert!(tail[2].starts_with("Review (1):"), "{text}");
    assert!(
        tail[1].contains(" not-a-task – [app] Result: all tests pass – a result or status line"),
        "{text}"
    );
    assert!(
        tail[0].starts_with("Answer: keep ID | same ID ID | not-task ID"),
        "{text}"
    );
}

#[test]
fn review_interactive_refuses_without_a_terminal_and_writes_nothing() {
    let v = two_days(&["Result: all tests pass"], &[], &["write the notes"]);
    let before = v.snapshot();
    let out = v
        .cmd()
        .args(["--today", TODAY, "review", "--interactive"])
        .write_stdin("k\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: review --interactive reads one key per item from a terminal, and stdin is not one; nothing was written\n"
    );
    assert_eq!(v.snapshot(), before);
}
