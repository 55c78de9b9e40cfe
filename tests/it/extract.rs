//! End-to-end tests of `extract` (docs/FORMAT.md §9): the candidate list found in each
//! transcript format, the goal, malformed lines, and the persisted/orphan
//! check against a vault.

use crate::common::{Vault, check_cases, same};
use std::path::Path;

use serde_json::{Value, json};

const CLAUDE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/transcripts/claude.jsonl"
);
const CODEX: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/transcripts/codex.jsonl"
);
const PLAIN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/transcripts/plain.txt"
);

/// (text, keyword, role, line) of every candidate, in order.
type Row = (String, String, String, u64);

fn rows(out: &Value) -> Vec<Row> {
    out["candidates"]
        .as_array()
        .expect("candidates array")
        .iter()
        .map(|c| {
            (
                c["text"].as_str().expect("text").to_string(),
                c["keyword"].as_str().expect("keyword").to_string(),
                c["role"].as_str().expect("role").to_string(),
                c["line"].as_u64().expect("line"),
            )
        })
        .collect()
}

fn row(text: &str, keyword: &str, role: &str, line: u64) -> Row {
    (text.into(), keyword.into(), role.into(), line)
}

fn extract_json(v: &Vault, transcript: &str) -> Value {
    v.json(&["extract", "--transcript", transcript, "--format", "json"])
}

/// `extract` of `transcript` on an empty vault: checks the format it is read
/// as, the `(text, keyword, role, line)` of every candidate in order and the
/// keys of each, and returns the report.
#[track_caller]
fn candidates(transcript: &str, format: &str, expected: &[(&str, &str, &str, u64)]) -> Value {
    let out = extract_json(&Vault::new(), transcript);
    assert_eq!(out["format"], format);
    let expected: Vec<Row> = expected
        .iter()
        .map(|&(text, keyword, role, line)| row(text, keyword, role, line))
        .collect();
    assert_eq!(rows(&out), expected);
    assert_candidate_shape(&out);
    out
}

/// Every candidate is `{text, keyword, role, line, persisted, persisted_at}`.
fn assert_candidate_shape(out: &Value) {
    for c in out["candidates"].as_array().expect("candidates") {
        let mut keys: Vec<&str> = c
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "captured_at",
                "keyword",
                "line",
                "origin",
                "persisted",
                "persisted_at",
                "role",
                "text"
            ]
        );
        assert_eq!(c["persisted"].as_bool(), Some(!c["persisted_at"].is_null()));
    }
}

/// A vault where one Claude candidate is a journal item and another, spelled
/// a little differently, is a project todo.
fn vault_with_persisted() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Next\n\
             - [ ] rotate logs\n- [ ] add a lock timeout test\n",
        )
        .file(
            "projects/wrap-cli/todos.md",
            "# wrap-cli\n\n## Next Session\n- [ ] Wire `--lock-timeout` into route.\n",
        )
}

/// `(format, transcript, goal as (text, line), malformed lines skipped,
/// orphans, (text, keyword, role, line) of every candidate)`.
type FormatCase = (
    &'static str,
    &'static str,
    Option<(&'static str, u64)>,
    u64,
    u64,
    &'static [(&'static str, &'static str, &'static str, u64)],
);

/// Each transcript format on its fixture, in an empty vault.
#[rustfmt::skip]
const FORMATS: &[FormatCase] = &[
    // Ignored: the tool_use input and the tool_result text ("next session:
    // run migrations"), the thinking block ("TODO: x"), the sidechain record,
    // the fenced "TODO: in code", and "deferred" (no word boundary).
    // `goal: first…` on line 1, then `/goal second…` on line 10: the latest
    // wins.
    ("claude-jsonl", CLAUDE, Some(("second pass: ship the lock timeout with tests", 10)), 1, 5, &[
        ("add a lock timeout test", "next session", "assistant", 5),
        ("다음 세션에 테스트 추가하기", "다음 세션", "user", 8),
        ("문서 정리", "후속", "assistant", 9),
        ("Follow up on the flaky CI job", "follow up", "assistant", 9),
        ("wire --lock-timeout into route", "todo", "assistant", 11),
    ]),
    // Ignored: session_meta instructions, <user_instructions> and
    // <environment_context> blocks, turn_context, reasoning, function calls
    // and their output, fenced code, and the event_msg echoes.
    ("codex-jsonl", CODEX, Some(("make route idempotent", 4)), 0, 3, &[
        ("Come back to the CRLF handling", "come back to", "user", 4),
        ("add a CRLF fixture.", "follow-up", "assistant", 9),
        ("나중에 README 업데이트", "나중에", "assistant", 9),
    ]),
    // "다시 보" in the middle of a sentence is no marker.
    ("text", PLAIN, None, 0, 5, &[
        ("rotate the lock file", "next session", "assistant", 4),
        ("Defer the Windows port", "defer", "assistant", 9),
        ("check the CI cache", "todo", "user", 10),
        ("add docs for --from", "follow-up", "assistant", 13),
        ("publish 0.2", "follow-up", "assistant", 14),
    ]),
];

#[test]
fn each_format_gives_its_candidates_goal_and_counts() {
    check_cases(
        FORMATS,
        |c| c.0,
        |&(format, transcript, goal, skipped, orphans, want)| {
            let out = candidates(transcript, format, want);
            let goal = goal.map_or(
                Value::Null,
                |(text, line)| json!({"text": text, "line": line}),
            );
            same(&out["goal"], &goal)?;
            same(&out["skipped_lines"], &json!(skipped))?;
            same(&out["orphans"], &json!(orphans))
        },
    );
}

#[test]
fn claude_jsonl_skips_tools_thinking_sidechains_and_code() {
    let out = extract_json(&Vault::new(), CLAUDE);
    assert_eq!(out["schema"], 1);
    assert_eq!(out["transcript"], CLAUDE);
    let texts = crate::common::texts(&out["candidates"]);
    for never in ["run migrations", "in code", "sidechain", "find callers"] {
        assert!(
            !texts.iter().any(|t| t.contains(never)),
            "{never:?} must not be a candidate: {texts:?}"
        );
    }
    assert!(!texts.iter().any(|t| t == "x"), "{texts:?}");
    assert!(
        out["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .all(|c| c["persisted"] == false && c["persisted_at"].is_null())
    );
}

#[test]
fn persisted_candidates_point_at_their_item() {
    let v = vault_with_persisted();
    let out = extract_json(&v, CLAUDE);
    let by_text = |t: &str| {
        out["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .find(|c| c["text"] == t)
            .unwrap_or_else(|| panic!("no candidate {t:?}"))
            .clone()
    };
    let c = by_text("add a lock timeout test");
    assert_eq!(c["persisted"], true);
    assert_eq!(
        c["persisted_at"],
        json!({"path": "journal/2026-05-06.md", "line": 7})
    );
    // A fuzzy match (code markers, case, trailing `.`) counts as persisted.
    let c = by_text("wire --lock-timeout into route");
    assert_eq!(c["persisted"], true);
    assert_eq!(
        c["persisted_at"],
        json!({"path": "projects/wrap-cli/todos.md", "line": 4})
    );
    for orphan in [
        "다음 세션에 테스트 추가하기",
        "문서 정리",
        "Follow up on the flaky CI job",
    ] {
        let c = by_text(orphan);
        assert_eq!(c["persisted"], false, "{orphan}");
        assert_eq!(c["persisted_at"], Value::Null, "{orphan}");
    }
    assert_eq!(out["orphans"], 3);
    // Persistence does not change the candidate list itself.
    assert_eq!(rows(&out), rows(&extract_json(&Vault::new(), CLAUDE)));
}

#[test]
fn text_output_marks_orphans_and_persisted() {
    let v = vault_with_persisted();
    let text = v
        .test()
        .args(["extract", "--transcript", CLAUDE])
        .stdout_has("ORPHAN")
        .stdout_has("persisted at journal/2026-05-06.md:7")
        .stdout_has("second pass: ship the lock timeout with tests")
        .stdout_has("5 candidates, 3 orphans, 1 malformed lines skipped, 0 long lines skipped")
        .run()
        .stdout();
    assert_eq!(text.matches("ORPHAN").count(), 3, "{text}");
}

#[test]
fn missing_transcript_exits_74() {
    let v = Vault::new();
    v.test()
        .args(["extract", "--format", "json", "--transcript"])
        .arg(v.join("no-such-transcript.jsonl"))
        .status(74)
        .stdout("")
        .stderr_has("no-such-transcript.jsonl")
        .run();
}

// ---------------------------------------------------------------- formats and reads

#[test]
fn unknown_json_records_are_refused_unless_read_as_text() {
    let v = Vault::new().file(
        "events.jsonl",
        "{\"event\":\"click\"}\n{\"event\":\"TODO: not a transcript\"}\n",
    );
    let path = v.join("events.jsonl");
    let p = path.to_str().expect("utf8");
    v.test()
        .args(["extract", "--transcript", p])
        .status(65)
        .stderr_has("format not recognised")
        .stderr_has("--input-format text")
        .run();
    let out = v.json(&[
        "extract",
        "--transcript",
        p,
        "--input-format",
        "text",
        "--format",
        "json",
    ]);
    assert_eq!(out["format"], "text");
}

#[test]
fn devices_fifos_and_oversized_transcripts_are_refused() {
    let v = Vault::new().file(".agents/active-status.toml", "[extract]\nmax_bytes = 16\n");
    let tmp = tempfile::tempdir().expect("tempdir");
    let fifo = tmp.path().join("fifo.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let big = tmp.path().join("big.txt");
    std::fs::write(&big, "Next session: a follow-up that is too long\n").expect("write");
    for (path, why) in [
        (Path::new("/dev/zero"), "not a regular file"),
        (fifo.as_path(), "not a regular file"),
        (big.as_path(), "more than the 16-byte cap"),
    ] {
        v.test()
            .args(["extract", "--transcript"])
            .arg(path)
            .status(65)
            .stderr_has(why)
            .run();
    }
}

#[test]
fn pretty_printed_json_is_read_as_records() {
    let records = json!([
        {"type": "user", "message": {"role": "user", "content": "tidy the loader"}},
        {"type": "assistant", "message": {"role": "assistant", "content": "Tidied.\n\nNext steps:\n- Add a test for an empty file"}}
    ]);
    let pretty = serde_json::to_string_pretty(&records).expect("json");
    let v = Vault::new().file("pretty.json", pretty);
    let out = extract_json(&v, v.join("pretty.json").to_str().expect("utf8"));
    assert_eq!(out["format"], "claude-jsonl");
    assert_eq!(
        crate::common::texts(&out["candidates"]),
        ["Add a test for an empty file"]
    );
}

// ---------------------------------------------------------------- sweep

/// One Claude Code record line with a working folder.
fn claude_line(kind: &str, text: &str, cwd: &str) -> String {
    json!({"type": kind, "cwd": cwd, "sessionId": "s", "message": {"role": kind, "content": text}})
        .to_string()
}

/// A fake home with sessions in every default location, one of them old.
fn fake_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("tempdir");
    let h = home.path();
    let write = |rel: &str, body: String| {
        let p = h.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, body).expect("write");
        p
    };
    let session = |cwd: &str, item: &str| {
        [
            claude_line("user", "wrap up", cwd),
            claude_line("assistant", &format!("Done.\n\nNext steps:\n- {item}"), cwd),
        ]
        .join("\n")
    };
    write(
        ".claude/projects/-home-me-kb-projects-wrap-cli/aaaa1111.jsonl",
        session("/home/me/kb/projects/wrap-cli", "add a lock timeout test"),
    );
    write(
        "alt-config/projects/-home-me-other/bbbb2222.jsonl",
        session("/home/me/other", "rename the config key"),
    );
    write(
        ".config/claude/projects/-home-me-docs/cccc3333.jsonl",
        session("/home/me/docs", "proofread the guide"),
    );
    let codex = [
        json!({"type": "session_meta", "payload": {"id": "dddd4444", "cwd": "/home/me/tiles"}}).to_string(),
        json!({"type": "response_item", "payload": {"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": "Next steps:\n- add a WebP golden test"}]}})
        .to_string(),
    ]
    .join("\n");
    write(
        ".codex/sessions/2026/05/03/rollout-2026-05-03T10-00-00-dddd4444.jsonl",
        codex,
    );
    write(
        ".codex/sessions/2026/05/03/history.jsonl",
        session("/x", "not a rollout"),
    );
    let old = write(
        ".claude/projects/-home-me-old/eeee5555.jsonl",
        session("/home/me/old", "an old follow-up"),
    );
    let month_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(30 * 86_400);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .and_then(|f| f.set_modified(month_ago))
        .expect("set mtime");
    home
}

fn sweep(v: &Vault, home: &Path, args: &[&str]) -> Value {
    let out = v
        .cmd()
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", home.join("alt-config"))
        .args(["extract", "--sweep", "--format", "json"])
        .args(args)
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

fn session_items(out: &Value) -> Vec<String> {
    let mut all: Vec<String> = out["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .flat_map(|s| crate::common::texts(&s["candidates"]))
        .collect();
    all.sort();
    all
}

#[test]
fn sweep_reads_every_default_location() {
    let home = fake_home();
    let v = Vault::new().project("wrap-cli");
    let out = sweep(&v, home.path(), &[]);
    assert_eq!(
        session_items(&out),
        [
            "add a WebP golden test",
            "add a lock timeout test",
            "an old follow-up",
            "proofread the guide",
            "rename the config key"
        ]
    );
    assert_eq!(out["orphans"], 5);
    assert_eq!(out["errors"], json!([]));
    let recent = sweep(&v, home.path(), &["--since", "7d"]);
    assert_eq!(session_items(&recent).len(), 4);
    let one = sweep(&v, home.path(), &["--project", "wrap-cli"]);
    assert_eq!(session_items(&one), ["add a lock timeout test"]);
    assert_eq!(one["sessions"][0]["cwd"], "/home/me/kb/projects/wrap-cli");
}

#[test]
fn sweep_capture_is_idempotent() {
    let home = fake_home();
    let v = Vault::new().project("wrap-cli");
    let first = sweep(&v, home.path(), &["--since", "7d", "--capture"]);
    assert_eq!(first["captured"], 4);
    let inbox = std::fs::read_dir(v.join(".agents/inbox"))
        .expect("inbox")
        .count();
    assert_eq!(inbox, 4);
    let wrap = std::fs::read_dir(v.join(".agents/inbox"))
        .expect("inbox")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read"))
        .find(|t| t.contains("lock timeout"))
        .expect("the wrap-cli capture");
    assert!(
        wrap.contains("- [ ] (wrap-cli) add a lock timeout test"),
        "{wrap}"
    );
    let again = sweep(&v, home.path(), &["--since", "7d", "--capture"]);
    assert_eq!(again["captured"], 0);
    assert_eq!(again["orphans"], 4, "captured, not routed: still orphans");
    assert_eq!(
        std::fs::read_dir(v.join(".agents/inbox"))
            .expect("inbox")
            .count(),
        4
    );
}

#[test]
fn session_flag_finds_the_transcript_and_bad_since_is_a_usage_error() {
    let home = fake_home();
    let v = Vault::new();
    let out = v
        .test()
        .env("HOME", home.path())
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["extract", "--session", "dddd4444", "--format", "json"])
        .run()
        .json();
    assert_eq!(out["format"], "codex-jsonl");
    assert_eq!(
        crate::common::texts(&out["candidates"]),
        ["add a WebP golden test"]
    );
    v.test()
        .env("HOME", home.path())
        .args(["extract", "--session", "nope"])
        .status(74)
        .run();
    v.test()
        .env("HOME", home.path())
        .args(["extract", "--sweep", "--since", "soon"])
        .status(2)
        .run();
}

#[test]
fn a_deferred_noun_phrase_inside_a_fuller_candidate_is_not_a_second_candidate() {
    let v = Vault::new();
    let as_text = |body: &str| {
        v.write("notes.txt", body);
        let path = v.join("notes.txt");
        let args = ["extract", "--input-format", "text", "--format", "json"];
        v.test()
            .args(args)
            .arg("--transcript")
            .arg(path)
            .run()
            .json()
    };
    let report = as_text(
        "The signup form works now. I'll leave the CAPTCHA for the next session.\n\n\
         Next steps:\n- wire the CAPTCHA into the signup form\n",
    );
    assert_eq!(
        crate::common::texts(&report["candidates"]),
        ["wire the CAPTCHA into the signup form"],
        "{report}"
    );
    // Alone, the deferral still gives its noun phrase.
    let report = as_text("I'll leave the CAPTCHA for the next session.\n");
    assert_eq!(report["candidates"][0]["text"], "The CAPTCHA", "{report}");
}

#[test]
fn sweep_reads_specstory_exports_of_the_vault_and_its_projects() {
    let export = |item: &str| {
        format!(
            "<!-- Generated by SpecStory -->\n\n_**User**_\n\nwrap up\n\n---\n\n_**Agent (model m, mode Agent)**_\n\nDone.\n\nNext:\n- {item}\n"
        )
    };
    let home = tempfile::tempdir().expect("tempdir");
    let v = Vault::new()
        .project("wrap-cli")
        .file(
            ".specstory/history/2026-05-06_10-00Z-vault.md",
            export("sort the inbox"),
        )
        .file(
            "projects/wrap-cli/.specstory/history/2026-05-06_11-00Z-lock.md",
            export("add a lock timeout test"),
        )
        .file(
            "projects/wrap-cli/.specstory/history/notes.txt",
            export("not an export"),
        );
    let out = sweep(&v, home.path(), &[]);
    assert_eq!(
        session_items(&out),
        ["add a lock timeout test", "sort the inbox"]
    );
    let one = sweep(&v, home.path(), &["--project", "wrap-cli"]);
    assert_eq!(session_items(&one), ["add a lock timeout test"]);
    let captured = sweep(&v, home.path(), &["--project", "wrap-cli", "--capture"]);
    assert_eq!(captured["captured"], 1);
    let inbox = std::fs::read_dir(v.join(".agents/inbox"))
        .expect("inbox")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read"))
        .collect::<String>();
    assert!(
        inbox.contains("- [ ] (wrap-cli) add a lock timeout test"),
        "{inbox}"
    );
}
