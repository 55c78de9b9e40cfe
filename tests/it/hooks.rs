//! End-to-end tests of the hook adapters (docs/FORMAT.md §10): `hook session-start`
//! finds the vault from the hook JSON's `cwd` and prints one bounded JSON
//! object; `hook pre-compact` captures a transcript's orphans into a new inbox
//! file without the lock. Neither ever fails the host.

use crate::common::{HANG_GUARD, Vault, assert_has, assert_lacks, assert_status, bare_cmd, texts};
use crate::common::{stderr, stdout};

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;
use tempfile::TempDir;

const LOCK: &str = ".agents/locks/active-status.lock";
const INBOX: &str = ".agents/inbox";

/// Runs `hook EVENT` with `stdin`, without `--root`: the vault must come from
/// the JSON `cwd`. The process itself runs in `run_in` (outside any vault).
/// Hooks always exit 0 (docs/FORMAT.md): checked here for every run.
fn hook_in(event: &str, stdin: &str, run_in: &Path, home: &Path) -> Output {
    let out = bare_cmd()
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .current_dir(run_in)
        .args(["hook", event])
        .write_stdin(stdin)
        .output()
        .expect("run binary");
    assert_status(&out, 0, &format!("hook {event}"));
    out
}

/// A neutral place to run from and a clean config home.
struct Env {
    elsewhere: TempDir,
    home: TempDir,
}

impl Env {
    fn new() -> Self {
        Env {
            elsewhere: tempfile::tempdir().expect("tempdir"),
            home: tempfile::tempdir().expect("tempdir"),
        }
    }

    fn hook(&self, event: &str, stdin: &str) -> Output {
        hook_in(event, stdin, self.elsewhere.path(), self.home.path())
    }

    /// `hook session-end` on `transcript`, from the vault's wrap-cli project.
    fn end(&self, v: &Vault, transcript: &Path) -> Output {
        self.hook("session-end", &end_input(transcript, &wrap_cli(v)))
    }

    /// `hook pre-compact` on `transcript`, from the vault's wrap-cli project.
    fn compact(&self, v: &Vault, transcript: &Path) -> Output {
        self.hook("pre-compact", &compact_input(transcript, &wrap_cli(v)))
    }

    /// A Claude Code transcript `name` in the neutral folder: one plain
    /// message record per `(role, text)`.
    fn transcript(&self, name: &str, turns: &[(&str, &str)]) -> PathBuf {
        let lines: Vec<String> = turns
            .iter()
            .map(|(kind, text)| {
                json!({"type": kind, "sessionId": "abcdef123456", "message": {"role": kind, "content": text}})
                    .to_string()
            })
            .collect();
        let path = self.elsewhere.path().join(name);
        std::fs::write(&path, lines.join("\n") + "\n").expect("write transcript");
        path
    }
}

/// The vault's `projects/wrap-cli` folder (the cwd of most hook inputs).
fn wrap_cli(v: &Vault) -> PathBuf {
    v.join("projects/wrap-cli")
}

fn start_input(cwd: &Path) -> String {
    json!({"session_id": "s1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
        .to_string()
}

/// Parses stdout as exactly one JSON object (one line) and returns its
/// `additionalContext` after checking the envelope.
fn context(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let text = stdout(out);
    assert_eq!(text.lines().count(), 1, "exactly one line: {text:?}");
    let v: Value = serde_json::from_str(text.trim()).expect("one JSON object");
    let obj = v.as_object().expect("object");
    assert_eq!(
        obj.keys().collect::<Vec<_>>(),
        ["hookSpecificOutput"],
        "{v}"
    );
    let specific = v["hookSpecificOutput"].as_object().expect("object");
    let mut keys: Vec<&str> = specific.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["additionalContext", "hookEventName"]);
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("string")
        .to_string()
}

fn lock_vault() -> Vault {
    Vault::new().project("wrap-cli").project("docs").file(
        "journal/2026-05-06.md",
        "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Goal\n- ship the lock timeout\n\n\
         ### Next\n- [ ] add lock timeout test\n- [ ] rotate <private>api key hunter2</private> token\n",
    )
    .file("projects/docs/todos.md", "## Next Session\n- [ ] write the guide\n")
}

/// `lock_vault()` with a capture cap of two per session.
fn capped_vault() -> Vault {
    lock_vault().file(".agents/active-status.toml", "[hook]\nmax_captured = 2\n")
}

// ---------------------------------------------------------------- session-start

#[test]
fn session_start_discovers_the_vault_from_cwd() {
    let v = lock_vault();
    std::fs::create_dir_all(v.join("projects/wrap-cli/src")).expect("mkdir");
    let env = Env::new();
    let out = env.hook(
        "session-start",
        &start_input(&v.join("projects/wrap-cli/src")),
    );
    let ctx = context(&out);
    assert_has(&ctx, &["add lock timeout test", "ship the lock timeout"]);
    // Started inside projects/wrap-cli/: that project first, the rest counted.
    assert!(
        ctx.contains("Project wrap-cli (this session's working directory):"),
        "{ctx}"
    );
    assert!(!ctx.contains("write the guide"), "{ctx}");
    assert!(ctx.ends_with("Other projects: 1 open (docs 1)."), "{ctx}");
    assert!(ctx.chars().count() <= 4000);
    // Nothing is written by the hook.
    assert!(!v.exists("ACTIVE-STATUS.md"));
    assert!(!v.exists(LOCK));
}

#[test]
fn session_start_never_shows_private_text() {
    let v = lock_vault().file(
        "journal/2026-05-07.md",
        "## Session: s (wrap-cli)\n### Goal\n- goal with <private>secret-goal</private> part\n\
         ### Next\n- [ ] unclosed <private>leaks-nothing\n",
    );
    let env = Env::new();
    let ctx = context(&env.hook("session-start", &start_input(v.path())));
    for secret in [
        "hunter2",
        "api key",
        "secret-goal",
        "leaks-nothing",
        "<private>",
        "</private>",
    ] {
        assert!(!ctx.contains(secret), "{secret:?} leaked: {ctx}");
    }
    assert_has(&ctx, &["rotate [private] token", "[private]"]);
}

#[test]
fn session_start_respects_max_chars() {
    let mut journal = String::from(
        "# 2026-05-06\n\n## Session: many (wrap-cli)\n\n### Goal\n- ship it all\n\n### Next\n",
    );
    for i in 0..60 {
        journal.push_str(&format!(
            "- [ ] item number {i} with a fairly long description {}\n",
            "x".repeat(i)
        ));
    }
    let v = Vault::new()
        .project("wrap-cli")
        .file("journal/2026-05-06.md", &journal)
        .file(".agents/active-status.toml", "[hook]\nmax_chars = 200\n");
    let env = Env::new();
    let ctx = context(&env.hook("session-start", &start_input(v.path())));
    assert!(
        ctx.chars().count() <= 200,
        "{} chars: {ctx}",
        ctx.chars().count()
    );
    assert!(!ctx.is_empty());

    // Multi-byte text counts in characters, not bytes.
    let mut korean = String::from("## Session: 다음 (wrap-cli)\n### Next\n");
    for i in 0..40 {
        korean.push_str(&format!(
            "- [ ] 다음 세션에 테스트 추가하기 {i}번 항목 {}\n",
            "가".repeat(i)
        ));
    }
    v.write("journal/2026-05-06.md", &korean);
    let ctx = context(&env.hook("session-start", &start_input(v.path())));
    assert!(
        ctx.chars().count() <= 200,
        "{} chars: {ctx}",
        ctx.chars().count()
    );

    // Without the setting the default bound (4000) applies.
    v.write(".agents/active-status.toml", "");
    v.write("journal/2026-05-06.md", &journal);
    let ctx = context(&env.hook("session-start", &start_input(v.path())));
    assert!(ctx.chars().count() <= 4000, "{}", ctx.chars().count());
    assert!(ctx.chars().count() > 200, "{}", ctx.chars().count());
}

#[test]
fn session_start_without_a_vault_prints_nothing() {
    let env = Env::new();
    let nowhere = tempfile::tempdir().expect("tempdir");
    let out = env.hook("session-start", &start_input(nowhere.path()));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    // ...also when the cwd does not exist at all.
    let out = env.hook(
        "session-start",
        &start_input(&nowhere.path().join("gone/away")),
    );
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}

#[test]
fn session_start_uses_active_status_root() {
    let v = lock_vault();
    let env = Env::new();
    let nowhere = tempfile::tempdir().expect("tempdir");
    let out = bare_cmd()
        .env("XDG_CONFIG_HOME", env.home.path())
        .env("HOME", env.home.path())
        .env("ACTIVE_STATUS_ROOT", v.path())
        .current_dir(env.elsewhere.path())
        .args(["hook", "session-start"])
        .write_stdin(start_input(nowhere.path()))
        .output()
        .expect("run");
    assert!(context(&out).contains("add lock timeout test"));
}

#[test]
fn session_start_with_garbage_stdin_explains_on_stderr() {
    let env = Env::new();
    for input in ["this is not json", "{\"cwd\": ", "[1, 2"] {
        let out = env.hook("session-start", input);
        assert!(out.stdout.is_empty(), "{input}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains("not JSON"), "{input}: {err}");
    }
}

#[test]
fn session_start_with_empty_stdin_exits_0() {
    let env = Env::new();
    let out = env.hook("session-start", "");
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}

#[test]
fn a_broken_vault_config_does_not_fail_the_host() {
    let v = lock_vault().file(".agents/active-status.toml", "cap = \"many\"\n");
    let env = Env::new();
    let out = env.hook("session-start", &start_input(v.path()));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("active-status.toml"),
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------- pre-compact

/// A Claude Code transcript with three candidates: "add lock timeout test"
/// (persisted in the vault's journal) and two orphans.
fn write_transcript(dir: &Path) -> std::path::PathBuf {
    let line = |kind: &str, content: Value| {
        json!({"type": kind, "isSidechain": false, "sessionId": "abcdef123456",
               "message": {"role": kind, "content": content}})
        .to_string()
    };
    let lines = [
        line("user", json!("/goal finish the lock work")),
        line(
            "assistant",
            json!([{"type": "text", "text": "Done for now.\nNext session: add lock timeout test\n\
                    TODO: rotate the lock file\nFollow-up: document the --from format"}]),
        ),
        line(
            "user",
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": "TODO: not me"}]),
        ),
    ];
    let path = dir.join("session.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write transcript");
    path
}

fn inbox_files(v: &Vault) -> Vec<String> {
    let dir = v.join(INBOX);
    if !dir.exists() {
        return Vec::new();
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read inbox")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn compact_input(transcript: &Path, cwd: &Path) -> String {
    json!({"session_id": "abcdef123456", "transcript_path": transcript, "cwd": cwd,
           "hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": ""})
    .to_string()
}

/// `YYYY-MM-DDTHHMMSS-abcdef12.md`.
fn is_capture_name(name: &str) -> bool {
    let b = name.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    name.len() == "2026-05-06T101500-abcdef12.md".len()
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..17)
        && name.ends_with("-abcdef12.md")
}

#[test]
fn pre_compact_captures_orphans_into_a_new_inbox_file() {
    let (v, env) = (lock_vault(), Env::new());
    let transcript = write_transcript(env.elsewhere.path());
    let input = compact_input(&transcript, &wrap_cli(&v));

    env.hook("pre-compact", &input);
    let files = inbox_files(&v);
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(is_capture_name(&files[0]), "{files:?}");
    let body = v.read(&format!("{INBOX}/{}", files[0]));
    assert_has(
        &body,
        &[
            "### Next (captured)",
            "- [ ] (wrap-cli) rotate the lock file\n",
            "- [ ] (wrap-cli) document the --from format\n",
        ],
    );
    assert_lacks(&body, &["add lock timeout test", "not me"]);
    assert_eq!(body.matches("- [ ]").count(), 2, "{body}");
    assert!(!v.exists(LOCK), "pre-compact must not take the lock");
    assert!(
        !v.exists(".agents/locks"),
        "pre-compact must not take the lock"
    );

    // Again: the orphans are persisted now, so nothing new is written.
    env.hook("pre-compact", &input);
    assert_eq!(inbox_files(&v), files);

    // The captured items are open items of the `captured` source.
    let report = v.report();
    assert_eq!(report["audit"]["sources"]["captured"], 2);
    assert_eq!(report["audit"]["untagged_warnings"], json!([]));
    let captured = v.json(&["list", "--source", "captured", "--format", "json"]);
    let items = captured["items"].as_array().expect("items");
    let mut got = texts(&captured["items"]);
    got.sort();
    assert_eq!(got, ["document the --from format", "rotate the lock file"]);
    for item in items {
        assert_eq!(item["project"], "wrap-cli", "{item}");
        assert_eq!(item["source"]["kind"], "captured", "{item}");
        assert_eq!(item["tier"], "captured", "{item}");
        assert_eq!(
            item["source"]["path"],
            format!("{INBOX}/{}", files[0]).as_str()
        );
    }
    // Captured but not routed is still an orphan for extract (so /wrap asks),
    // and each candidate points at its captured item.
    let out = v.json(&[
        "extract",
        "--format",
        "json",
        "--transcript",
        transcript.to_str().expect("utf8"),
    ]);
    assert_eq!(out["orphans"], 2);
    let orphans: Vec<&Value> = out["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter(|c| c["persisted"] == false)
        .collect();
    assert_eq!(orphans.len(), 2);
    for c in orphans {
        assert!(
            c["captured_at"]["path"]
                .as_str()
                .is_some_and(|p| p.starts_with(INBOX)),
            "{c}"
        );
    }
}

#[test]
fn pre_compact_outside_a_known_project_writes_untagged_items() {
    let (v, env) = (lock_vault(), Env::new());
    let transcript = write_transcript(env.elsewhere.path());
    env.hook("pre-compact", &compact_input(&transcript, v.path()));
    let files = inbox_files(&v);
    assert_eq!(files.len(), 1, "{files:?}");
    let body = v.read(&format!("{INBOX}/{}", files[0]));
    assert_has(
        &body,
        &[
            "- [ ] rotate the lock file\n",
            "- [ ] document the --from format\n",
        ],
    );
    assert_lacks(&body, &["(wrap-cli)"]);
}

#[test]
fn pre_compact_with_a_missing_transcript_exits_0_with_a_message() {
    let v = lock_vault();
    let env = Env::new();
    let missing = v.join("no-such-session.jsonl");
    let out = env.compact(&v, &missing);
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("no-such-session.jsonl"), "{err}");
    assert!(inbox_files(&v).is_empty());
    assert!(!v.exists(INBOX));
}

#[test]
fn pre_compact_without_transcript_path_or_vault_exits_0() {
    let v = lock_vault();
    let env = Env::new();
    let out = env.hook(
        "pre-compact",
        &json!({"session_id": "abc", "cwd": v.path()}).to_string(),
    );
    assert!(stderr(&out).contains("transcript_path"), "{}", stderr(&out));
    assert!(inbox_files(&v).is_empty());

    let nowhere = tempfile::tempdir().expect("tempdir");
    let transcript = write_transcript(nowhere.path());
    let out = env.hook("pre-compact", &compact_input(&transcript, nowhere.path()));
    assert!(out.stdout.is_empty());
    assert!(!nowhere.path().join(INBOX).exists());

    let out = env.hook("pre-compact", "garbage");
    assert!(stderr(&out).contains("not JSON"), "{}", stderr(&out));
}

#[test]
fn session_start_summary_never_ends_with_an_empty_priorities_heading() {
    let mut journal = String::from("## Session: s (wrap-cli)\n\n### Goal\n- ship it\n\n### Next\n");
    for i in 0..5 {
        journal.push_str(&format!(
            "- [ ] a rather long item text number {i} {}\n",
            "y".repeat(40 + i)
        ));
    }
    let v = Vault::new()
        .project("wrap-cli")
        .file("journal/2026-05-06.md", &journal);
    let env = Env::new();
    for max in (120..320).step_by(10) {
        v.write(
            ".agents/active-status.toml",
            format!("[hook]\nmax_chars = {max}\n"),
        );
        let ctx = context(&env.hook("session-start", &start_input(v.path())));
        assert!(ctx.chars().count() <= max, "{max}: {ctx}");
        assert!(!ctx.trim_end().ends_with("Priorities:"), "{max}: {ctx}");
    }
}

// ---------------------------------------------------------------- session-end

/// A transcript whose last user request got no answer (the session ended).
fn write_unanswered(env: &Env) -> PathBuf {
    env.transcript(
        "ended.jsonl",
        &[
            ("user", "rotate the lock file please"),
            (
                "assistant",
                "Rotated.\n\nNext steps:\n- add a lock timeout test\n- document the lock path\n- bump the version\n",
            ),
            ("user", "now publish the release notes"),
        ],
    )
}

/// A transcript `name`: "tidy the parser", an answer ending in the list
/// `steps` under "Next steps:", then the user's `request` if any.
fn tidied(env: &Env, name: &str, steps: &[&str], request: Option<&str>) -> PathBuf {
    let answer: String = steps.iter().map(|s| format!("- {s}\n")).collect();
    let answer = format!("Tidied.\n\nNext steps:\n{answer}");
    let mut turns = vec![("user", "tidy the parser"), ("assistant", answer.as_str())];
    turns.extend(request.map(|r| ("user", r)));
    env.transcript(name, &turns)
}

fn end_input(transcript: &Path, cwd: &Path) -> String {
    json!({"session_id": "abcdef123456", "transcript_path": transcript, "cwd": cwd,
           "hook_event_name": "SessionEnd", "reason": "clear"})
    .to_string()
}

fn captured_lines(v: &Vault) -> Vec<String> {
    let mut out = Vec::new();
    for f in inbox_files(v) {
        for l in v.read(&format!("{INBOX}/{f}")).lines() {
            if let Some(t) = l.strip_prefix("- [ ] (wrap-cli) ") {
                out.push(t.to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn session_end_captures_orphans_and_the_unanswered_request() {
    let (v, env) = (lock_vault(), Env::new());
    let out = env.end(&v, &write_unanswered(&env));
    assert_eq!(stdout(&out), "");
    // "add a lock timeout test" matches the journal's "add lock timeout test".
    assert_eq!(
        captured_lines(&v),
        [
            "bump the version",
            "document the lock path",
            "now publish the release notes"
        ]
    );
    assert!(
        v.read(&format!("{INBOX}/{}", inbox_files(&v)[0]))
            .contains("`active-status hook session-end`")
    );
}

#[test]
fn pre_compact_leaves_the_request_being_worked_on() {
    let (v, env) = (lock_vault(), Env::new());
    let transcript = write_unanswered(&env);
    env.compact(&v, &transcript);
    assert_eq!(
        captured_lines(&v),
        ["bump the version", "document the lock path"]
    );
    // Then the session ends: only the request is new.
    env.end(&v, &transcript);
    assert_eq!(inbox_files(&v).len(), 2);
    assert_eq!(
        captured_lines(&v),
        [
            "bump the version",
            "document the lock path",
            "now publish the release notes"
        ]
    );
}

#[test]
fn capture_respects_the_session_cap_and_never_recaptures() {
    let (v, env) = (capped_vault(), Env::new());
    let transcript = write_unanswered(&env);
    let out = env.end(&v, &transcript);
    // The unfinished request ranks first.
    assert_eq!(
        captured_lines(&v),
        ["document the lock path", "now publish the release notes"]
    );
    assert!(
        stderr(&out).contains("1 more follow-ups not captured"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("hook.max_captured (2)"),
        "{}",
        stderr(&out)
    );
    // Again: the cap is per session, over all its files; nothing new.
    env.end(&v, &transcript);
    assert_eq!(inbox_files(&v).len(), 1);
    // Captured but not routed: still orphans for extract, with their place.
    let t = transcript.to_str().expect("utf8");
    let out = v.json(&["extract", "--format", "json", "--transcript", t]);
    assert_eq!(out["orphans"], 3);
    let captured: Vec<&Value> = out["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter(|c| !c["captured_at"].is_null())
        .collect();
    assert_eq!(captured.len(), 2);
    assert!(captured.iter().all(|c| c["persisted"] == false));
    // Routed: persisted, no longer an orphan.
    v.test()
        .args(["route", "--to", "project", "--project", "wrap-cli"])
        .arg("bump the version")
        .run();
    let out = v.json(&["extract", "--format", "json", "--transcript", t]);
    assert_eq!(out["orphans"], 2);
}

#[test]
fn capture_hooks_refuse_devices_and_fifos_promptly() {
    let v = lock_vault();
    let tmp = tempfile::tempdir().expect("tempdir");
    let fifo = tmp.path().join("fifo.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let env = Env::new();
    for (event, path) in [
        ("session-end", Path::new("/dev/zero")),
        ("pre-compact", fifo.as_path()),
        ("session-end", tmp.path()),
    ] {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("active-status"));
        cmd.env("HOME", env.home.path())
            .env("XDG_CONFIG_HOME", env.home.path())
            .current_dir(env.elsewhere.path())
            .args(["hook", event]);
        let input = end_input(path, &wrap_cli(&v));
        let (out, _) = crate::common::run_limited(cmd, input.as_bytes(), HANG_GUARD, event);
        assert_eq!(out.status.code(), Some(0), "{event} {}", path.display());
        assert!(
            stderr(&out).contains("refused: not a regular file"),
            "{}",
            stderr(&out)
        );
        assert!(inbox_files(&v).is_empty());
    }
}

#[test]
fn hook_stdin_is_read_bounded() {
    let env = Env::new();
    let big = format!("{{\"cwd\": \"/\", \"pad\": \"{}\"}}", "x".repeat(2 << 20));
    let out = env.hook("session-end", &big);
    assert!(
        stderr(&out).contains("more than 1048576 bytes"),
        "{}",
        stderr(&out)
    );
}

// ------------------------------------------------- case folding that resizes

/// A Claude Code transcript whose assistant text holds characters whose
/// lowercase form has another UTF-8 length (Kelvin sign, İ, ẞ) right before
/// the positions the rules cut at.
fn write_resizing(env: &Env) -> PathBuf {
    env.transcript(
        "resizing.jsonl",
        &[
            ("user", "set up the client"),
            (
                "assistant",
                "Done.\n\n\u{212A} é add your API key to the config.\n\
                 Add your API key to the config ẞé so the app starts.\n\
                 ẞéone more hour: write the retry tests.\n\
                 İ note: é replace the key before using it.\n\
                 TODO: rotate the ẞé token\n\
                 ẞ 下一步：补充测试 İ",
            ),
        ],
    )
}

#[test]
fn session_end_and_pre_compact_survive_case_folding_that_resizes() {
    for (event, input) in [
        ("session-end", end_input as fn(&Path, &Path) -> String),
        ("pre-compact", compact_input),
    ] {
        let (v, env) = (lock_vault(), Env::new());
        env.hook(event, &input(&write_resizing(&env), &wrap_cli(&v)));
        let captured = captured_lines(&v);
        assert!(
            captured.contains(&"rotate the ẞé token".to_string()),
            "{event}: {captured:?}"
        );
        // ẞ shrinks and İ grows by one byte: a non-ASCII keyword between
        // them is found at its own position.
        assert!(
            captured.iter().any(|c| c.starts_with("补充测试")),
            "{event}: {captured:?}"
        );
    }
}

#[test]
fn a_long_item_is_shortened_and_never_crowds_out_the_other_priorities() {
    let mut journal = String::from("# 2026-05-06\n\n## Session: s (wrap-cli)\n\n### Next\n");
    journal.push_str(&format!("- [ ] {}\n", "a very long item ".repeat(250)));
    for i in 1..15 {
        journal.push_str(&format!("- [ ] item number {i}\n"));
    }
    let v = Vault::new()
        .project("wrap-cli")
        .file("journal/2026-05-06.md", &journal);
    let env = Env::new();
    let ctx = context(&env.hook("session-start", &start_input(v.path())));
    let items: Vec<&str> = ctx
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(items.len(), 15, "{ctx}");
    let long = items[0];
    assert_has(
        long,
        &["a very long item a very", "… (journal/2026-05-06.md:6)"],
    );
    assert!(long.chars().count() < 260, "{long}");

    // A budget too small for all of them says how many were left out.
    v.write(".agents/active-status.toml", "[hook]\nmax_chars = 600\n");
    let ctx = context(&env.hook("session-start", &start_input(v.path())));
    assert!(ctx.chars().count() <= 600, "{ctx}");
    let shown = ctx
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    assert!(shown < 15, "{ctx}");
    assert!(
        ctx.ends_with(&format!(
            "… {} more (`active-status list` shows them all).",
            15 - shown
        )),
        "{ctx}"
    );
}

#[test]
fn session_end_never_captures_a_control_character() {
    let (v, env) = (lock_vault(), Env::new());
    let steps = ["hide the \u{0} rest of the file", "document the parser"];
    let transcript = tidied(&env, "nul.jsonl", &steps, None);
    let out = env.end(&v, &transcript);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The reader removes the control character from the candidate; what is
    // captured holds none.
    let captured = captured_lines(&v);
    assert_eq!(captured.len(), 2, "{captured:?}");
    assert!(
        captured.iter().all(|l| !l.chars().any(char::is_control)),
        "{captured:?}"
    );
}

#[test]
fn a_hook_answers_once_the_payload_is_complete_while_stdin_stays_open() {
    use std::io::{Read, Write};
    let v = lock_vault();
    let mut child = v
        .process()
        .args(["hook", "session-start"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn hook");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(start_input(&v.join("projects/wrap-cli")).as_bytes())
        .expect("write payload");
    stdin.flush().expect("flush");
    // The write end stays open until the hook has exited; the deadline only
    // keeps a hang from stopping the test run.
    let status = crate::common::wait_deadline(&mut child, HANG_GUARD, "hook with stdin held open");
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read stdout");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    drop(stdin);
    assert!(status.success(), "{err}");
    assert!(
        out.contains("add lock timeout test"),
        "stdout {out:?}, stderr {err:?}"
    );
    assert!(!err.contains("not closed in time"), "{err}");
}

#[test]
fn a_codex_session_captures_each_open_follow_up_exactly_once() {
    let v = lock_vault();
    let tmp = tempfile::tempdir().expect("tempdir");
    let cwd = v.join("projects/wrap-cli");
    let env = Env::new();
    let mut r = Rollout::new(tmp.path());
    let start = |r: &Rollout, source: &str| {
        let out = env.hook(
            "session-start",
            &r.payload("SessionStart", &cwd, json!({"source": source})),
        );
        assert!(context(&out).contains("wrap-cli"));
    };
    let stop = |r: &Rollout, turn: &str| {
        let out = env.hook(
            "stop",
            &r.payload(
                "Stop",
                &cwd,
                json!({"turn_id": turn, "stop_hook_active": false,
                                              "last_assistant_message": null}),
            ),
        );
        assert_eq!(stdout(&out), "", "Stop prints nothing on stdout");
    };
    start(&r, "startup");
    r.say("user", "set up the config loader");
    r.say("assistant", "The loader reads the file now.\n\nNext:\n- add a schema check\n- document the env override\n");
    stop(&r, "t1");
    assert_eq!(
        captured_lines(&v),
        ["add a schema check", "document the env override"]
    );
    // The same turn again (a Stop that continued the turn): nothing new.
    stop(&r, "t1");
    start(&r, "resume");
    r.say("user", "add the schema check");
    r.say("assistant", "Added the schema check.\n\nNext focus:\n- document the env override\n- write a migration note\n");
    stop(&r, "t2");
    env.hook(
        "pre-compact",
        &r.payload(
            "PreCompact",
            &cwd,
            json!({"trigger": "auto", "turn_id": "t2"}),
        ),
    );
    start(&r, "compact");
    r.say("user", "thanks, tag the release");
    r.say(
        "assistant",
        "Bumped the version. The tag is blocked on your signing key.\n",
    );
    stop(&r, "t3");
    stop(&r, "t3");
    start(&r, "clear");
    assert_eq!(
        captured_lines(&v),
        [
            "The tag is blocked on your signing key",
            "add a schema check",
            "document the env override",
            "write a migration note",
        ]
    );
    assert_eq!(
        inbox_files(&v).len(),
        3,
        "one file per Stop that found something new"
    );
    // Codex may give no transcript: said on stderr, nothing captured, exit 0.
    let out = env.hook(
        "stop",
        &json!({"session_id": "c0dex5e55", "transcript_path": null, "cwd": cwd,
                "hook_event_name": "Stop", "turn_id": "t4"})
        .to_string(),
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out).trim(),
        "active-status hook stop: the hook input has no transcript (transcript_path is null); nothing captured"
    );
    assert_eq!(inbox_files(&v).len(), 3);
}

#[test]
fn over_the_cap_the_most_certain_candidates_are_captured() {
    let (v, env) = (capped_vault(), Env::new());
    let steps = [
        "split the tokenizer",
        "rename the error type",
        "drop the old flag",
    ];
    let transcript = tidied(
        &env,
        "capped.jsonl",
        &steps,
        Some("now write the changelog entry"),
    );
    let out = env.end(&v, &transcript);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The unfinished request first, then the list in transcript order.
    assert_eq!(
        captured_lines(&v),
        ["now write the changelog entry", "split the tokenizer"]
    );
    let file = v.read(&format!("{INBOX}/{}", inbox_files(&v)[0]));
    let order: Vec<&str> = file.lines().filter(|l| l.starts_with("- [ ]")).collect();
    assert_eq!(
        order,
        [
            "- [ ] (wrap-cli) split the tokenizer",
            "- [ ] (wrap-cli) now write the changelog entry"
        ]
    );
}

/// A Codex rollout growing turn by turn, and the hook payloads Codex sends.
struct Rollout {
    path: std::path::PathBuf,
    lines: Vec<String>,
}

impl Rollout {
    fn new(dir: &Path) -> Self {
        let meta = json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "c0dex5e55", "cwd": "/w"}});
        Rollout {
            path: dir.join("rollout-2026-05-06T10-00-00-c0dex5e55.jsonl"),
            lines: vec![meta.to_string()],
        }
    }

    fn say(&mut self, role: &str, text: &str) {
        let kind = if role == "user" {
            "input_text"
        } else {
            "output_text"
        };
        let item = json!({"timestamp": "t", "type": "response_item",
            "payload": {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}});
        self.lines.push(item.to_string());
        std::fs::write(&self.path, self.lines.join("\n") + "\n").expect("write rollout");
    }

    fn payload(&self, event: &str, cwd: &Path, extra: Value) -> String {
        let mut p = json!({"session_id": "c0dex5e55", "transcript_path": self.path, "cwd": cwd,
                           "hook_event_name": event, "model": "gpt-5"});
        for (k, v) in extra.as_object().expect("object") {
            p[k] = v.clone();
        }
        p.to_string()
    }
}
