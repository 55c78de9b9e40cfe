//! Codex JSONL records (rollout files) and format detection.

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::claude::{Content, Loose, Obj, parse};
use super::{Decoded, Format, Role};

/// Blocks Codex injects into user messages; their content is never scanned.
const HIDDEN: [(&str, &str); 3] = [
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

/// Detects the format from the first non-blank line. Codex: a JSON object whose
/// `type` is a Codex record type (`response_item`, `event_msg`, `session_meta`,
/// `turn_context`, `compacted`, or the older un-wrapped `message`), or which has a
/// `payload` object, or (older rollouts) a `record_type` key or a leading
/// `{"id", "timestamp", "instructions"}` header without `type`. Any other JSON
/// object: Claude. Anything else: plain text.
pub(super) fn detect(line: &str) -> Format {
    match parse::<Probe>(line) {
        Ok(p) => {
            let codex_type = p.kind.as_str().is_some_and(|k| CODEX_TYPES.contains(&k));
            let old_header = p.kind == Loose::Other && p.instructions.0;
            if codex_type || p.payload.0.is_some() || p.record_type.0 || old_header {
                Format::CodexJsonl
            } else {
                Format::ClaudeJsonl
            }
        }
        Err(Decoded::Ignored) => Format::ClaudeJsonl,
        Err(_) => Format::Text,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Item {
    #[serde(rename = "type")]
    kind: Loose,
    role: Loose,
    content: Content,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Record {
    #[serde(rename = "type")]
    kind: Loose,
    payload: Obj<Item>,
    role: Loose,
    content: Content,
}

/// Decodes one Codex record: `response_item` messages (or the older un-wrapped
/// `message` lines) from `user`/`assistant`, `input_text`/`output_text` blocks,
/// with [`HIDDEN`] blocks removed. `event_msg` echoes are ignored.
pub(super) fn decode(line: &str) -> Decoded {
    let record: Record = match parse(line) {
        Ok(r) => r,
        Err(d) => return d,
    };
    let item = match record.kind.as_str() {
        Some("response_item") => match record.payload.0 {
            Some(item) => item,
            None => return Decoded::Ignored,
        },
        Some("message") => Item {
            kind: record.kind,
            role: record.role,
            content: record.content,
        },
        _ => return Decoded::Ignored,
    };
    if item.kind.as_str() != Some("message") {
        return Decoded::Ignored;
    }
    let role = match item.role.as_str() {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        _ => return Decoded::Ignored,
    };
    let text = strip_hidden(&item.content.text(&["input_text", "output_text", "text"]));
    if text.trim().is_empty() {
        return Decoded::Ignored;
    }
    Decoded::Message(role, text)
}

/// Removes [`HIDDEN`] blocks (tags included). A removed block that spanned lines
/// leaves a line break; an unclosed block hides the rest of the text.
pub(super) fn strip_hidden(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = HIDDEN
            .iter()
            .filter_map(|&(open, close)| rest.find(open).map(|i| (i, open, close)))
            .min_by_key(|&(i, _, _)| i);
        let Some((i, open, close)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..i]);
        let inner = &rest[i + open.len()..];
        let Some(j) = inner.find(close) else {
            return out;
        };
        if inner[..j].contains('\n') {
            out.push('\n');
        }
        rest = &inner[j + close.len()..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(line: &str) -> Option<(Role, String)> {
        match decode(line) {
            Decoded::Message(r, t) => Some((r, t)),
            _ => None,
        }
    }

    #[test]
    fn detection() {
        assert_eq!(
            detect(r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#),
            Format::CodexJsonl
        );
        assert_eq!(
            detect(r#"{"type":"whatever","payload":{}}"#),
            Format::CodexJsonl
        );
        assert_eq!(
            detect(r#"{"type":"event_msg","payload":{"type":"user_message"}}"#),
            Format::CodexJsonl
        );
        assert_eq!(
            detect(r#"{"id":"x","timestamp":"t","instructions":null}"#),
            Format::CodexJsonl
        );
        assert_eq!(detect(r#"{"record_type":"state"}"#), Format::CodexJsonl);
        assert_eq!(
            detect(r#"{"type":"summary","summary":"s","leafUuid":"u"}"#),
            Format::ClaudeJsonl
        );
        assert_eq!(
            detect(r#"{"type":"user","payload":"not an object","uuid":"u"}"#),
            Format::ClaudeJsonl
        );
        assert_eq!(detect(r#"{"a":1,"a":2}"#), Format::ClaudeJsonl);
        assert_eq!(detect("# Transcript"), Format::Text);
        assert_eq!(detect("[1]"), Format::Text);
        assert_eq!(detect("{not json"), Format::Text);
    }

    #[test]
    fn response_item_vs_event_msg() {
        let item = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Next session: x"}]}}"#;
        assert_eq!(msg(item), Some((Role::Assistant, "Next session: x".into())));
        let echo = r#"{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"Next session: x"}}"#;
        assert!(matches!(decode(echo), Decoded::Ignored));
        let user = r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"x"},{"type":"input_text","text":"b"}]}}"#;
        assert_eq!(msg(user), Some((Role::User, "a\nb".into())));
        let dev = r#"{"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"TODO: x"}]}}"#;
        assert!(matches!(decode(dev), Decoded::Ignored));
        let call = r#"{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"TODO: x"}}"#;
        assert!(matches!(decode(call), Decoded::Ignored));
        let reasoning = r#"{"type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"defer"}],"content":null}}"#;
        assert!(matches!(decode(reasoning), Decoded::Ignored));
    }

    #[test]
    fn old_unwrapped_form() {
        let l = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"defer it"}]}"#;
        assert_eq!(msg(l), Some((Role::User, "defer it".into())));
    }

    #[test]
    fn hidden_blocks() {
        let l = r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/defer</cwd>\n</environment_context>"}]}}"#;
        assert!(matches!(decode(l), Decoded::Ignored));
        assert_eq!(
            strip_hidden("a <user_instructions>TODO: x</user_instructions> b"),
            "a  b"
        );
        assert_eq!(
            strip_hidden("a\n<user_instructions>\nTODO: x\n</user_instructions>\nb"),
            "a\n\n\nb"
        );
        assert_eq!(strip_hidden("x <INSTRUCTIONS>\ndefer"), "x ");
        assert_eq!(
            strip_hidden(
                "<environment_context>e</environment_context>q<user_instructions>u</user_instructions>r"
            ),
            "qr"
        );
    }

    #[test]
    fn codex_transcript() {
        use super::super::tests::{goal, rows, run};
        let input = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x","instructions":"TODO: no"}}
{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/defer</cwd>\n</environment_context>\n/goal ship it\n다음 세션에 테스트 추가"}]}}
{"type":"event_msg","payload":{"type":"user_message","message":"다음 세션에 테스트 추가"}}
{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"We can follow up later."}]}}
"#;
        let e = run(input);
        assert_eq!(e.format, Format::CodexJsonl);
        let expected = [
            ("다음 세션에 테스트 추가", "다음 세션", Role::User, 2),
            ("We can follow up later.", "follow up", Role::Assistant, 4),
        ];
        assert_eq!(rows(&e), expected);
        assert_eq!(goal(&e), Some(("ship it", 2)));
    }
}
