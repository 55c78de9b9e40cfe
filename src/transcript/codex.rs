//! Codex JSONL records (rollout files) and format detection.

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::claude::{Content, TodoItems};
use super::lenient::{Loose, Obj, parse};
use super::todo::TodoOp;
use super::{Decoded, Format, Role, Turn};

/// Blocks Codex injects into user messages; their content is never scanned.
const HIDDEN: [(&str, &str); 5] = [
    ("<turn_aborted>", "</turn_aborted>"),
    ("<user_shell_command>", "</user_shell_command>"),
    ("<environment_context>", "</environment_context>"),
    ("<user_instructions>", "</user_instructions>"),
    // Newer Codex: "# AGENTS.md instructions for <dir>\n\n<INSTRUCTIONS>…</INSTRUCTIONS>".
    ("<INSTRUCTIONS>", "</INSTRUCTIONS>"),
];

/// Record types only Codex writes at the top level.
const CODEX_TYPES: [&str; 6] = [
    "response_item",
    "event_msg",
    "session_meta",
    "turn_context",
    "compacted",
    "message",
];

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Probe {
    #[serde(rename = "type")]
    kind: Loose,
    payload: Obj<IgnoredAny>,
    record_type: Present,
    instructions: Present,
}

/// Whether a key is present, whatever its value (even `null`).
#[derive(Debug, Default)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d).map(|_| Present(true))
    }
}

/// What one JSON line says about the format: Codex when its `type` is a Codex
/// record type (`response_item`, `event_msg`, `session_meta`, `turn_context`,
/// `compacted`, or the older un-wrapped `message`), or it has a `payload`
/// object, or (older rollouts) a `record_type` key or a leading `{"id",
/// "timestamp", "instructions"}` header without `type`; Claude when it looks like
/// a Claude Code record; `None` for any other JSON object; Text when the line is
/// not a JSON object.
pub(super) fn detect(line: &str) -> Option<Format> {
    match parse::<Probe>(line) {
        Ok(p) => {
            let codex_type = p.kind.as_str().is_some_and(|k| CODEX_TYPES.contains(&k));
            let old_header = p.kind == Loose::Other && p.instructions.0;
            if codex_type || p.payload.0.is_some() || p.record_type.0 || old_header {
                Some(Format::CodexJsonl)
            } else if super::claude::recognised(line) {
                Some(Format::ClaudeJsonl)
            } else {
                None
            }
        }
        Err(Decoded::Ignored) => None,
        Err(_) => Some(Format::Text),
    }
}

/// Item types older rollouts (2025) write at the top level, without the
/// `response_item` wrapper: a bare `function_call` may be an `update_plan`.
const UNWRAPPED_ITEMS: [&str; 5] = [
    "function_call",
    "custom_tool_call",
    "reasoning",
    "local_shell_call",
    "web_search_call",
];

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Item {
    #[serde(rename = "type")]
    kind: Loose,
    role: Loose,
    content: Content,
    name: Loose,
    arguments: Loose,
    /// `custom_tool_call` input (`apply_patch` text, code-mode `exec` script).
    input: Loose,
    message: Loose,
    /// An `event_msg` `plan_update` payload's steps.
    plan: TodoItems,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Record {
    #[serde(rename = "type")]
    kind: Loose,
    payload: Obj<Item>,
    role: Loose,
    content: Content,
    /// Sanitised exports write `{"type":"message","role":…,"text":…}`.
    text: Loose,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PlanArgs {
    plan: TodoItems,
}

/// The `plan` of the first `tools.update_plan({…})` call in a code-mode
/// `exec` script.
fn exec_plan(script: &str) -> Option<PlanArgs> {
    let at = script.find("tools.update_plan(")? + "tools.update_plan(".len();
    let rest = script[at..].trim_start();
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<PlanArgs>();
    stream.next()?.ok()
}

fn plan_turn(plan: PlanArgs, acted: Vec<String>) -> Decoded {
    Decoded::Turn(Turn {
        role: Role::Assistant,
        todos: vec![TodoOp::Replace(plan.plan.0)],
        acted,
        ..Turn::default()
    })
}

/// An assistant record with no text: the agent at work.
fn activity(acted: Vec<String>) -> Decoded {
    Decoded::Turn(Turn {
        role: Role::Assistant,
        acted,
        ..Turn::default()
    })
}

/// Decodes one Codex record: `response_item` messages (or the older un-wrapped
/// `message` lines, and un-wrapped tool calls and reasoning: [`UNWRAPPED_ITEMS`]) from `user`/`assistant`, `input_text`/`output_text` blocks,
/// with [`HIDDEN`] blocks removed; `update_plan` calls (a function call, or a
/// `tools.update_plan(…)` call inside a code-mode `exec` script); `compacted`
/// records (a summary); other tool calls and reasoning as agent activity (what
/// they wrote or ran kept as done signals); `event_msg` `agent_message` /
/// `user_message` as echoes (read only when no `response_item` carried the
/// same text), `event_msg` `plan_update` as a plan (a replacement, so a plan
/// seen twice is harmless).
pub(super) fn decode(line: &str) -> Decoded {
    let record: Record = match parse(line) {
        Ok(r) => r,
        Err(d) => return d,
    };
    let compacted = record.kind.as_str() == Some("compacted");
    let item = match record.kind.as_str() {
        Some("response_item" | "compacted") => match record.payload.0 {
            Some(item) => item,
            None => return Decoded::Ignored,
        },
        Some("event_msg") => return echo(record.payload.0),
        Some("message") => Item {
            kind: record.kind,
            role: record.role,
            content: match record.text {
                Loose::Str(t) => Content::from_text(t),
                _ => record.content,
            },
            ..Item::default()
        },
        // Older rollouts write tool calls and reasoning un-wrapped, at the top level.
        Some(k) if UNWRAPPED_ITEMS.contains(&k) => match parse::<Item>(line) {
            Ok(item) => item,
            Err(d) => return d,
        },
        _ => return Decoded::Ignored,
    };
    if compacted {
        return match item.message.as_str() {
            Some(text) if !text.trim().is_empty() => Decoded::Turn(Turn {
                role: Role::User,
                text: text.to_owned(),
                summary: true,
                ..Turn::default()
            }),
            _ => Decoded::Ignored,
        };
    }
    match item.kind.as_str() {
        Some("function_call") => {
            let args = match item.arguments {
                Loose::Str(a) => a,
                _ => String::new(),
            };
            if item.name.as_str() == Some("update_plan") {
                return match serde_json::from_str::<PlanArgs>(&args) {
                    Ok(p) => plan_turn(p, Vec::new()),
                    Err(_) => activity(Vec::new()),
                };
            }
            return activity(vec![args]);
        }
        Some("custom_tool_call") => {
            let input = match item.input {
                Loose::Str(i) => i,
                _ => String::new(),
            };
            return match exec_plan(&input) {
                Some(p) => plan_turn(p, vec![input]),
                None => activity(vec![input]),
            };
        }
        Some("reasoning" | "local_shell_call" | "web_search_call") => return activity(Vec::new()),
        Some("message") => {}
        _ => return Decoded::Ignored,
    }
    let role = match item.role.as_str() {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        _ => return Decoded::Ignored,
    };
    message(
        role,
        &item.content.text(&["input_text", "output_text", "text"]),
        false,
    )
}

/// A user or assistant message text, hidden blocks removed.
fn message(role: Role, raw: &str, echo: bool) -> Decoded {
    if role == Role::User && raw.trim_start().starts_with("<turn_aborted>") {
        return stopped("interrupted request");
    }
    let text = super::strip_blocks(raw, &HIDDEN);
    let start = text.trim_start();
    if text.trim().is_empty() || start.starts_with("# AGENTS.md instructions") {
        return Decoded::Ignored;
    }
    let summary = role == Role::User && start.starts_with(super::summary::OPENING);
    Decoded::Turn(Turn {
        role,
        text,
        summary,
        echo,
        ..Turn::default()
    })
}

/// A turn the user or an error stopped.
fn stopped(keyword: &'static str) -> Decoded {
    Decoded::Turn(Turn {
        role: Role::Unknown,
        stop: Some(keyword),
        synthetic: true,
        ..Turn::default()
    })
}

/// An `event_msg` payload: `agent_message` / `user_message` text as an echo;
/// a `plan_update` (the plan as the UI got it) as a plan.
fn echo(payload: Option<Item>) -> Decoded {
    let Some(p) = payload else {
        return Decoded::Ignored;
    };
    let role = match p.kind.as_str() {
        Some("plan_update") => return plan_turn(PlanArgs { plan: p.plan }, Vec::new()),
        // The user interrupted the turn; an error (a usage limit among them)
        // ended it.
        Some("turn_aborted") => return stopped("interrupted request"),
        Some("error") => return stopped("stopped on an error"),
        Some("agent_message") => Role::Assistant,
        Some("user_message") => Role::User,
        _ => return Decoded::Ignored,
    };
    match p.message.as_str() {
        Some(text) => message(role, text, true),
        None => Decoded::Ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(line: &str) -> Option<(Role, String)> {
        match decode(line) {
            Decoded::Turn(t) => Some((t.role, t.text)),
            _ => None,
        }
    }

    fn sh(text: &str) -> String {
        super::super::strip_blocks(text, &HIDDEN)
    }

    #[test]
    fn detection() {
        assert_eq!(
            detect(r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#),
            Some(Format::CodexJsonl)
        );
        assert_eq!(
            detect(r#"{"type":"whatever","payload":{}}"#),
            Some(Format::CodexJsonl)
        );
        assert_eq!(
            detect(r#"{"type":"event_msg","payload":{"type":"user_message"}}"#),
            Some(Format::CodexJsonl)
        );
        assert_eq!(
            detect(r#"{"id":"x","timestamp":"t","instructions":null}"#),
            Some(Format::CodexJsonl)
        );
        assert_eq!(
            detect(r#"{"record_type":"state"}"#),
            Some(Format::CodexJsonl)
        );
        assert_eq!(
            detect(r#"{"type":"summary","summary":"s","leafUuid":"u"}"#),
            Some(Format::ClaudeJsonl)
        );
        assert_eq!(
            detect(r#"{"type":"user","payload":"not an object","uuid":"u"}"#),
            Some(Format::ClaudeJsonl)
        );
        assert_eq!(detect(r#"{"a":1,"a":2}"#), None);
        assert_eq!(detect(r#"{"event":"x"}"#), None);
        assert_eq!(detect("# Transcript"), Some(Format::Text));
        assert_eq!(detect("[1]"), Some(Format::Text));
        assert_eq!(detect("{not json"), Some(Format::Text));
    }

    #[test]
    fn response_item_vs_event_msg() {
        let item = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Next session: x"}]}}"#;
        assert_eq!(msg(item), Some((Role::Assistant, "Next session: x".into())));
        let echo = r#"{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"Next session: x"}}"#;
        assert!(matches!(
            decode(echo),
            Decoded::Turn(Turn { echo: true, .. })
        ));
        let tokens = r#"{"type":"event_msg","payload":{"type":"token_count","info":null}}"#;
        assert!(matches!(decode(tokens), Decoded::Ignored));
        let user = r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"x"},{"type":"input_text","text":"b"}]}}"#;
        assert_eq!(msg(user), Some((Role::User, "a\nb".into())));
        let dev = r#"{"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"TODO: x"}]}}"#;
        assert!(matches!(decode(dev), Decoded::Ignored));
        let call = r#"{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"TODO: x"}}"#;
        assert!(matches!(decode(call), Decoded::Ignored));
        let reasoning = r#"{"type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"defer"}],"content":null}}"#;
        assert!(
            matches!(decode(reasoning), Decoded::Turn(Turn { role: Role::Assistant, ref text, .. }) if text.is_empty())
        );
    }

    #[test]
    fn old_unwrapped_form() {
        let l = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"defer it"}]}"#;
        assert_eq!(msg(l), Some((Role::User, "defer it".into())));
        let l = r#"{"type":"message","role":"assistant","timestamp":"t","text":"Next steps: x"}"#;
        assert_eq!(msg(l), Some((Role::Assistant, "Next steps: x".into())));
        // A 2025 rollout writes update_plan as a bare function_call record.
        let l = r#"{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"status\":\"pending\",\"step\":\"Audit\"}]}","call_id":"c"}"#;
        assert!(
            matches!(decode(l), Decoded::Turn(Turn { role: Role::Assistant, ref todos, .. }) if todos.len() == 1)
        );
        let l = r#"{"type":"event_msg","payload":{"type":"plan_update","plan":[{"step":"Ship","status":"in_progress"}]}}"#;
        assert!(
            matches!(decode(l), Decoded::Turn(Turn { role: Role::Assistant, ref todos, .. }) if todos.len() == 1)
        );
        let l = r#"{"type":"reasoning","summary":[{"type":"summary_text","text":"defer"}]}"#;
        assert!(
            matches!(decode(l), Decoded::Turn(Turn { role: Role::Assistant, ref text, .. }) if text.is_empty())
        );
    }

    #[test]
    fn hidden_blocks() {
        let l = r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/defer</cwd>\n</environment_context>"}]}}"#;
        assert!(matches!(decode(l), Decoded::Ignored));
        assert_eq!(
            sh("a <user_instructions>TODO: x</user_instructions> b"),
            "a  b"
        );
        assert_eq!(
            sh("a\n<user_instructions>\nTODO: x\n</user_instructions>\nb"),
            "a\n\n\nb"
        );
        assert_eq!(sh("x <INSTRUCTIONS>\ndefer"), "x ");
        assert_eq!(
            sh(
                "<environment_context>e</environment_context>q<user_instructions>u</user_instructions>r"
            ),
            "qr"
        );
    }

    #[test]
    fn plans_and_compactions() {
        let l = r#"{"type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"Scan\",\"status\":\"completed\"},{\"step\":\"Fix\",\"status\":\"in_progress\"}]}","call_id":"c"}}"#;
        let Decoded::Turn(t) = decode(l) else {
            panic!("a turn")
        };
        assert_eq!(
            t.todos,
            [TodoOp::Replace(vec![
                ("Scan".into(), "completed".into()),
                ("Fix".into(), "in_progress".into())
            ])]
        );
        let l = r#"{"type":"compacted","payload":{"message":"Next steps:\n- x"}}"#;
        assert!(matches!(
            decode(l),
            Decoded::Turn(Turn { summary: true, .. })
        ));
        let other = r#"{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}"}}"#;
        let Decoded::Turn(t) = decode(other) else {
            panic!("activity")
        };
        assert_eq!((t.text.as_str(), t.acted.len()), ("", 1));
        let exec = r#"{"type":"response_item","payload":{"type":"custom_tool_call","name":"exec","input":"const r = await tools.update_plan({\"plan\":[{\"step\":\"Ship\",\"status\":\"pending\"}]});\ntext(r);"}}"#;
        let Decoded::Turn(t) = decode(exec) else {
            panic!("a plan")
        };
        assert_eq!(
            t.todos,
            [TodoOp::Replace(vec![("Ship".into(), "pending".into())])]
        );
    }
}
