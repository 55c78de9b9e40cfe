//! Unit tests of the whole extraction.

use super::plain::speaker;
use super::*;

mod closing;

const DEFAULTS: &str =
    "next session|next steps|follow-up|follow up|todo|come back to|defer|다음 세션|후속";

pub(super) type Row<'a> = (&'a str, Origin, Role, usize);

fn opts() -> Options {
    Options {
        keywords: DEFAULTS.split('|').map(str::to_string).collect(),
        handoff_leads: ["still need", "remaining", "what's left"]
            .map(str::to_string)
            .to_vec(),
        max_line_chars: 400,
        max_bytes: 1 << 30,
        force_text: false,
    }
}

pub(super) fn run(input: impl AsRef<[u8]>) -> Extraction {
    extract_bytes(input.as_ref(), &opts()).expect("recognised")
}

pub(super) fn rows(e: &Extraction) -> Vec<Row<'_>> {
    let c = e.candidates.iter();
    c.map(|c| (c.text.as_str(), c.origin, c.role, c.line))
        .collect()
}

pub(super) fn claude(role: &str, content: &str) -> String {
    let record = serde_json::json!({"type": role, "message": {"role": role, "content": content}});
    record.to_string()
}

fn todo_write(items: &[(&str, &str)]) -> String {
    let todos: Vec<_> = items
        .iter()
        .map(|(c, s)| serde_json::json!({"content": c, "status": s}))
        .collect();
    serde_json::json!({"type": "assistant", "message": {"content": [
        {"type": "tool_use", "name": "TodoWrite", "input": {"todos": todos}}
    ]}})
    .to_string()
}

#[test]
fn serializes_names() {
    let all = (
        Format::ClaudeJsonl,
        Format::CodexJsonl,
        Format::Text,
        Role::Unknown,
        Origin::AgentTodo,
        Origin::LastRequest,
        Origin::Handoff,
    );
    let json = serde_json::to_string(&all).ok();
    assert_eq!(
        json.as_deref(),
        Some(
            r#"["claude-jsonl","codex-jsonl","text","unknown","agent-todo","last-request","handoff"]"#
        )
    );
}

#[test]
fn lead_in_lists_and_sentences() {
    let input = [
        claude("user", "/goal ship the parser"),
        claude(
            "assistant",
            "Done.\n\n## Next steps\n1. Add fuzzing\n   - nested stays\n2. Tag v1\n\nNext session we should add a retry policy.",
        ),
    ];
    let e = run(input.join("\n"));
    let expected: [Row; 3] = [
        ("Add fuzzing", Origin::Message, Role::Assistant, 2),
        ("Tag v1", Origin::Message, Role::Assistant, 2),
        ("Add a retry policy", Origin::Message, Role::Assistant, 2),
    ];
    assert_eq!(rows(&e), expected);
    assert_eq!(
        e.goal.map(|g| (g.text, g.line)),
        Some(("ship the parser".into(), 1))
    );
}

#[test]
fn plain_text_and_markdown_roles() {
    let input = "\u{feff}Preamble: nothing\r\n## Human:\n\nfix the loader\n## Assistant:\n\nFixed.\n\nNext steps:\n- Add a test\n\n```\nUser: TODO: in code\n```\n";
    let e = run(input);
    assert_eq!(e.format, Format::Text);
    assert_eq!(
        rows(&e),
        [("Add a test", Origin::Message, Role::Assistant, 10)]
    );
}

#[test]
fn summaries_todos_and_last_request() {
    let summary = serde_json::json!({"type": "user", "isCompactSummary": true, "message": {"content":
        "Summary:\n7. Pending Tasks:\n   - Write the migration guide\n   - Bump the version\n8. Current Work:\n   x"}})
    .to_string();
    let input = [
        summary,
        todo_write(&[
            ("Bump the version", "completed"),
            ("Tag the release", "in_progress"),
        ]),
        claude("assistant", "The migration guide is done."),
        claude("user", "now publish the crate please"),
        claude("assistant", "API Error: overloaded"),
    ];
    let e = run(input.join("\n"));
    let expected: [Row; 2] = [
        ("Tag the release", Origin::AgentTodo, Role::Assistant, 2),
        (
            "now publish the crate please",
            Origin::LastRequest,
            Role::User,
            4,
        ),
    ];
    assert_eq!(rows(&e), expected);
    assert_eq!(e.resolved, 2);
}

#[test]
fn invalid_utf8_malformed_and_empty() {
    let mut jsonl = claude("assistant", "TODO: a").into_bytes();
    jsonl.extend_from_slice(b"\n{\"type\":\"user\",\"message\":{\"content\":\"\xff TODO: b\"}}");
    jsonl.extend_from_slice(b"\n[1]\n\"s\"\n\n{\"type\":\n");
    jsonl.extend_from_slice(claude("assistant", "ok").as_bytes());
    let e = run(&jsonl);
    let got: Vec<&str> = e.candidates.iter().map(|c| c.text.as_str()).collect();
    assert_eq!((got, e.skipped_lines), (vec!["a", "b"], 3));
    let e = run("\n  \n");
    assert_eq!(
        (e.format, e.candidates.len(), e.skipped_lines),
        (Format::Text, 0, 0)
    );
}

#[test]
fn long_lines_are_skipped_and_counted() {
    let big = "x".repeat(5 << 20);
    let tool = format!(
        r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","content":"{big} TODO: no"}}]}}}}"#
    );
    let input = [
        tool,
        claude("assistant", &format!("TODO: {big}\nTODO: short")),
    ];
    let e = run(input.join("\n"));
    assert_eq!(
        (rows(&e), e.long_lines),
        (vec![("short", Origin::Message, Role::Assistant, 2)], 1)
    );
}

#[test]
fn pretty_json_and_unknown_json() {
    let pretty =
        "{\n  \"type\": \"assistant\",\n  \"message\": {\"content\": \"TODO: pretty\"}\n}\n";
    let e = run(pretty);
    assert_eq!(
        (e.format, rows(&e)),
        (
            Format::ClaudeJsonl,
            vec![("pretty", Origin::Message, Role::Assistant, 1)]
        )
    );
    let unknown = "{\"event\":\"click\"}\n{\"event\":\"TODO: x\"}\n";
    assert!(matches!(
        extract_bytes(unknown.as_bytes(), &opts()),
        Err(ExtractError::NotRecognised { line: 1 })
    ));
    let forced = Options {
        force_text: true,
        ..opts()
    };
    let e = extract_bytes(unknown.as_bytes(), &forced).expect("text");
    assert_eq!(e.format, Format::Text);
}

#[test]
fn speaker_markers() {
    assert_eq!(speaker("### Assistant:"), Some((Role::Assistant, "")));
    assert_eq!(speaker("**User**: hi"), Some((Role::User, " hi")));
    assert_eq!(speaker("**Human:** hi"), Some((Role::User, " hi")));
    assert_eq!(speaker("CODEX: x"), Some((Role::Assistant, " x")));
    for no in ["## Users", "#User", "**User: x", "The user: x", "User"] {
        assert_eq!(speaker(no), None, "{no}");
    }
}

#[test]
fn reads_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.txt");
    std::fs::write(&path, "Assistant: TODO: from file\n").expect("write temp file");
    let e = extract_path(&path, &opts()).expect("read temp file");
    assert_eq!(
        rows(&e),
        [("from file", Origin::Message, Role::Assistant, 1)]
    );
    assert!(extract_path(Path::new("/nonexistent/transcript"), &opts()).is_err());
    assert!(matches!(
        extract_path(Path::new("/dev/zero"), &opts()),
        Err(ExtractError::Read(read::ReadError::NotRegular))
    ));
}

fn tool(name: &str, input: serde_json::Value) -> String {
    serde_json::json!({"type": "assistant", "message": {"content": [
        {"type": "tool_use", "name": name, "input": input}
    ]}})
    .to_string()
}

#[test]
fn later_actions_and_reports_resolve_candidates() {
    let input = [
        claude(
            "assistant",
            "Next steps:\n1. Wrap the app in `WalletProvider`\n2. Add the faucet link to the README\n3. Rename the deploy script",
        ),
        tool(
            "Write",
            serde_json::json!({"file_path": "src/main.tsx", "content": "<WalletProvider><App/></WalletProvider>"}),
        ),
        claude("user", "i renamed the deploy script, it is done"),
        claude("assistant", "Good."),
    ];
    let e = run(input.join("\n"));
    assert_eq!(
        rows(&e),
        [(
            "Add the faucet link to the README",
            Origin::Message,
            Role::Assistant,
            1
        )]
    );
    assert_eq!(e.resolved, 2);
}

#[test]
fn a_request_cut_off_at_work_stays_open_and_a_notice_is_no_answer() {
    let started = [
        claude("user", "help me apply for the grant"),
        tool("Bash", serde_json::json!({"command": "ls"})),
    ];
    // Cut off at work, without an answer: the request stays open.
    assert_eq!(
        rows(&run(started.join("\n"))),
        [(
            "help me apply for the grant",
            Origin::LastRequest,
            Role::User,
            1
        )]
    );
    let notice = serde_json::json!({"type": "assistant", "message": {"model": "<synthetic>",
        "content": [{"type": "text", "text": "You're out of extra usage · resets 3am"}]}})
    .to_string();
    let never = [claude("user", "deploy the contract please"), notice];
    assert_eq!(
        rows(&run(never.join("\n"))),
        [(
            "deploy the contract please",
            Origin::LastRequest,
            Role::User,
            1
        )]
    );
}

#[test]
fn hand_offs_end_an_exchange() {
    let input = [
        claude("user", "draft the application"),
        claude(
            "assistant",
            "Drafted, but you still need to fill:\n\n- Telegram username\n- Milestone dates",
        ),
        claude("user", "set the milestone dates to May"),
        claude("assistant", "Updated the milestone dates."),
    ];
    let e = run(input.join("\n"));
    assert_eq!(
        rows(&e),
        [("Telegram username", Origin::Handoff, Role::Assistant, 2)]
    );
    // Only the message that ends an exchange is read for hand-offs.
    let mid = [
        claude("assistant", "You still need to add the key."),
        claude("assistant", "All set."),
    ];
    assert!(run(mid.join("\n")).candidates.is_empty());
}

fn codex(kind: &str, payload: serde_json::Value) -> String {
    serde_json::json!({"type": kind, "payload": payload}).to_string()
}

#[test]
fn codex_messages_are_read_once() {
    let item = codex(
        "response_item",
        serde_json::json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Remaining:\n- Rotate the key"}]}),
    );
    let echo = codex(
        "event_msg",
        serde_json::json!({"type": "agent_message", "message": "Remaining:\n- Rotate the key\n- Echo only"}),
    );
    let both = run([echo.clone(), item].join("\n"));
    assert_eq!(
        rows(&both),
        [("Rotate the key", Origin::Handoff, Role::Assistant, 2)]
    );
    let meta = codex("session_meta", serde_json::json!({"id": "x"}));
    let only = run([meta, echo].join("\n"));
    let texts: Vec<&str> = only.candidates.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["Rotate the key", "Echo only"]);
}

#[test]
fn a_summary_the_agent_went_on_from_is_settled_by_the_next_request() {
    let summary =
        serde_json::json!({"type": "user", "isCompactSummary": true, "message": {"content":
        "Summary:\n7. Pending Tasks:\n   - Screenshot the hero\n8. Current Work:\n   x"}})
        .to_string();
    let open = [summary.clone(), claude("assistant", "Looking at it now.")];
    assert_eq!(
        rows(&run(open.join("\n"))),
        [("Screenshot the hero", Origin::Summary, Role::Assistant, 1)]
    );
    let moved_on = [
        summary,
        claude("assistant", "Looks right."),
        claude("user", "rename the headline"),
        claude("assistant", "Renamed."),
    ];
    let e = run(moved_on.join("\n"));
    assert_eq!((e.candidates.len(), e.resolved), (0, 1));
}

#[test]
fn continue_after_a_limit_does_not_settle_a_summary() {
    let summary =
        serde_json::json!({"type": "user", "isCompactSummary": true, "message": {"content":
        "Summary:\n7. Pending Tasks:\n   - Screenshot the hero\n8. Current Work:\n   x"}})
        .to_string();
    let limit = serde_json::json!({"type": "assistant", "message": {"model": "<synthetic>",
        "content": [{"type": "text", "text": "You've hit your limit"}]}})
    .to_string();
    let session = [
        summary,
        claude("assistant", "Taking the screenshot now."),
        limit.clone(),
        claude("user", "continue"),
        limit,
    ];
    let e = run(session.join("\n"));
    assert_eq!(
        rows(&e),
        [("Screenshot the hero", Origin::Summary, Role::Assistant, 1)]
    );
}

#[test]
fn a_hand_off_restating_an_open_todo_is_reported_once() {
    let session = [
        claude("user", "deploy the program to devnet"),
        todo_write(&[("Run the compute-unit simulation", "pending")]),
        claude(
            "assistant",
            "Deployed. The compute-unit simulation remains pending because the RPC timed out.",
        ),
    ];
    let e = run(session.join("\n"));
    assert_eq!(
        rows(&e),
        [(
            "Run the compute-unit simulation",
            Origin::AgentTodo,
            Role::Assistant,
            2
        )]
    );
}
