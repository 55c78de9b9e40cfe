//! Tests of `claude`.

use super::*;

fn msg(line: &str) -> Option<(Role, String)> {
    match decode(line) {
        Decoded::Turn(t) => Some((t.role, t.text)),
        _ => None,
    }
}

#[test]
fn string_and_block_content() {
    let l = r#"{"type":"user","message":{"role":"user","content":"hello\nTODO: x"},"uuid":"u"}"#;
    assert_eq!(msg(l), Some((Role::User, "hello\nTODO: x".into())));
    let l = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"defer"},{"type":"text","text":"b"}]}}"#;
    assert_eq!(msg(l), Some((Role::Assistant, "a\nb".into())));
}

#[test]
fn skipped_blocks_and_records() {
    let tool = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"echo TODO: x","text":"TODO: y"}}]}}"#;
    let Decoded::Turn(t) = decode(tool) else {
        panic!("agent activity")
    };
    assert_eq!(
        (t.text.as_str(), t.acted),
        ("", vec!["echo TODO: x".to_string()])
    );
    let write = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"MultiEdit","input":{"edits":[{"new_string":"a"},{"old_string":"x"},{"new_string":"b"}]}},{"type":"tool_use","name":"Write","input":{"content":"c"}}]}}"#;
    let Decoded::Turn(t) = decode(write) else {
        panic!("agent activity")
    };
    assert_eq!(t.acted, ["a", "b", "c"]);
    let edit = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{"file_path":"src/main.tsx","new_string":"x"}}]}}"#;
    let Decoded::Turn(t) = decode(edit) else {
        panic!("agent activity")
    };
    assert_eq!(t.acted, ["src/main.tsx\nx"]);
    let synthetic = r#"{"type":"assistant","message":{"model":"<synthetic>","content":[{"type":"text","text":"You're out of extra usage"}]}}"#;
    assert!(matches!(
        decode(synthetic),
        Decoded::Turn(Turn {
            synthetic: true,
            ..
        })
    ));
    let result = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"TODO: z"}]}]}}"#;
    assert!(matches!(decode(result), Decoded::Ignored));
    let side = r#"{"type":"assistant","isSidechain":true,"message":{"content":"TODO: s"}}"#;
    assert!(matches!(decode(side), Decoded::Ignored));
    let meta = r#"{"type":"user","isMeta":true,"message":{"content":"Caveat: TODO"}}"#;
    assert!(matches!(decode(meta), Decoded::Ignored));
    let summary = r#"{"type":"summary","summary":"TODO: q","leafUuid":"x"}"#;
    assert!(matches!(decode(summary), Decoded::Ignored));
    let stdout = r#"{"type":"user","message":{"content":"<local-command-stdout>TODO: no</local-command-stdout>"}}"#;
    assert!(matches!(decode(stdout), Decoded::Ignored));
    let cmd = r#"{"type":"user","message":{"content":"<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>TODO: no</command-args>"}}"#;
    assert!(matches!(decode(cmd), Decoded::Ignored));
}

#[test]
fn odd_shapes_are_lenient() {
    let l = r#"{"type":"user","isSidechain":"no","message":{"content":[1,"s",{"type":"text","text":5},{"text":"untyped"},{"type":"text","text":"ok"}]}}"#;
    assert_eq!(msg(l), Some((Role::User, "ok".into())));
    assert!(matches!(
        decode(r#"{"type":"user","message":"x"}"#),
        Decoded::Ignored
    ));
    assert!(matches!(
        decode(r#"{"type":"user","type":"user"}"#),
        Decoded::Ignored
    ));
    assert!(matches!(decode(r#"{"type":"user""#), Decoded::Invalid));
    assert!(matches!(decode("[1,2]"), Decoded::Invalid));
    assert!(matches!(decode("not json"), Decoded::Invalid));
}

#[test]
fn slash_command_records() {
    let l = r#"{"type":"user","message":{"content":"<command-message>goal is running…</command-message>\n<command-name>/goal</command-name>\n<command-args>ship v1</command-args>"}}"#;
    assert_eq!(msg(l), Some((Role::User, "/goal ship v1".into())));
}

#[test]
fn todo_calls_and_summaries() {
    let l = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"pending"},{"x":1}]}},{"type":"tool_use","name":"TaskUpdate","input":{"taskId":2,"status":"completed"}}]}}"#;
    let Decoded::Turn(t) = decode(l) else {
        panic!("a turn")
    };
    assert_eq!(
        t.todos,
        [
            TodoOp::Replace(vec![
                ("a".into(), "completed".into()),
                ("b".into(), "pending".into())
            ]),
            TodoOp::Update {
                id: "2".into(),
                status: "completed".into()
            }
        ]
    );
    let l = r#"{"type":"user","isCompactSummary":true,"message":{"content":"x"}}"#;
    assert!(matches!(
        decode(l),
        Decoded::Turn(Turn { summary: true, .. })
    ));
    assert!(recognised(r#"{"type":"ai-title","aiTitle":"x"}"#));
    assert!(!recognised(r#"{"event":"click","id":3}"#));
}
