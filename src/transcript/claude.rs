//! Claude Code JSONL records: message content blocks, todo tool calls, and the
//! record decoder (see [`super::lenient`] for how values are read).

use serde::Deserialize;
use serde::de::SeqAccess;

use super::lenient::{Lenient, Loose, Obj, lenient_deserialize, parse};
use super::todo::TodoOp;
use super::{Decoded, Role, Turn};

/// One content block (an object in a content array).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Block {
    #[serde(rename = "type")]
    kind: Loose,
    text: Loose,
    name: Loose,
    input: Obj<ToolInput>,
}

/// The input of a todo tool call (`TodoWrite`, `TaskCreate`, `TaskUpdate`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ToolInput {
    todos: TodoItems,
    subject: Loose,
    description: Loose,
    #[serde(rename = "taskId")]
    task_id: Loose,
    status: Loose,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TodoItem {
    content: Loose,
    step: Loose,
    status: Loose,
}

/// A list of todo objects: `(text, status)`; `content` (Claude) or `step` (Codex).
#[derive(Debug, Default)]
pub(super) struct TodoItems(pub(super) Vec<(String, String)>);

impl<'de> Lenient<'de> for TodoItems {
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Obj<TodoItem>>()? {
            if let Some(TodoItem {
                content,
                step,
                status,
            }) = item.0
                && let Some(text) = content.as_str().or(step.as_str())
            {
                let status = status.as_str().unwrap_or("pending").to_owned();
                items.push((text.to_owned(), status));
            }
        }
        Ok(TodoItems(items))
    }
}

/// Message content: a string or an array of blocks, as `(block type, text)`;
/// the type is `None` for plain-string content. Todo tool calls are kept too.
#[derive(Debug, Default)]
pub(super) struct Content(Vec<(Option<String>, String)>, Vec<TodoOp>);

fn todo_op(name: &str, input: ToolInput) -> Option<TodoOp> {
    match name {
        "TodoWrite" => Some(TodoOp::Replace(input.todos.0)),
        "TaskCreate" => input
            .subject
            .as_str()
            .or(input.description.as_str())
            .map(|t| TodoOp::Create(t.to_owned())),
        "TaskUpdate" => Some(TodoOp::Update {
            id: input.task_id.as_id()?.to_owned(),
            status: input.status.as_str()?.to_owned(),
        }),
        _ => None,
    }
}

impl<'de> Lenient<'de> for Content {
    fn string(s: String) -> Self {
        Content(vec![(None, s)], Vec::new())
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut blocks = Vec::new();
        let mut todos = Vec::new();
        while let Some(block) = seq.next_element::<Obj<Block>>()? {
            let Some(block) = block.0 else { continue };
            match (block.kind.as_str(), block.text) {
                (Some("tool_use"), _) => {
                    if let (Some(name), Some(input)) = (block.name.as_str(), block.input.0)
                        && let Some(op) = todo_op(name, input)
                    {
                        todos.push(op);
                    }
                }
                (kind, Loose::Str(text)) => {
                    blocks.push((Some(kind.unwrap_or_default().to_owned()), text));
                }
                _ => {}
            }
        }
        Ok(Content(blocks, todos))
    }
}

lenient_deserialize!(Content, TodoItems);

impl Content {
    /// The texts of plain-string content and of blocks whose type is in `kinds`, joined by newlines.
    pub(super) fn text(&self, kinds: &[&str]) -> String {
        let mut out = String::new();
        for (kind, text) in &self.0 {
            if kind.as_deref().is_none_or(|k| kinds.contains(&k)) {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(text);
            }
        }
        out
    }

    /// Plain-string content.
    pub(super) fn from_text(text: String) -> Self {
        Content(vec![(None, text)], Vec::new())
    }

    /// The todo tool calls, in order.
    pub(super) fn take_todos(&mut self) -> Vec<TodoOp> {
        std::mem::take(&mut self.1)
    }
}

/// Top-level record types Claude Code writes.
const CLAUDE_TYPES: [&str; 12] = [
    "user",
    "assistant",
    "system",
    "summary",
    "attachment",
    "permission-mode",
    "file-history-snapshot",
    "ai-title",
    "custom-title",
    "queue-operation",
    "progress",
    "last-prompt",
];

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Record {
    #[serde(rename = "type")]
    kind: Loose,
    #[serde(rename = "isSidechain")]
    sidechain: Loose,
    #[serde(rename = "isMeta")]
    meta: Loose,
    #[serde(rename = "isCompactSummary")]
    compact: Loose,
    #[serde(rename = "sessionId")]
    session: Loose,
    uuid: Loose,
    message: Obj<Message>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Message {
    content: Content,
}

/// Whether a JSON object looks like a Claude Code record.
pub(super) fn recognised(line: &str) -> bool {
    parse::<Record>(line).is_ok_and(|r| {
        r.kind.as_str().is_some_and(|k| CLAUDE_TYPES.contains(&k))
            || r.session.as_str().is_some()
            || r.uuid.as_str().is_some()
    })
}

/// Blocks Claude Code injects into user text; their content is never scanned.
const HIDDEN: [(&str, &str); 12] = [
    ("<local-command-stdout>", "</local-command-stdout>"),
    ("<local-command-stderr>", "</local-command-stderr>"),
    ("<local-command-caveat>", "</local-command-caveat>"),
    ("<system-reminder>", "</system-reminder>"),
    ("<task-notification>", "</task-notification>"),
    ("<ide_opened_file>", "</ide_opened_file>"),
    ("<ide_selection>", "</ide_selection>"),
    ("<user-prompt-submit-hook>", "</user-prompt-submit-hook>"),
    ("<bash-input>", "</bash-input>"),
    ("<bash-stdout>", "</bash-stdout>"),
    ("<bash-stderr>", "</bash-stderr>"),
    ("<command-message>", "</command-message>"),
];

/// Decodes one Claude Code record: `user`/`assistant` records that are neither
/// sidechain nor meta (injected caveats, skill bodies); `text` blocks and todo
/// tool calls only. A user record with `isCompactSummary`, or whose text opens
/// with the compaction sentence, is a summary. Slash commands are dropped,
/// except `/goal`, which becomes `/goal …` text.
pub(super) fn decode(line: &str) -> Decoded {
    let record: Record = match parse(line) {
        Ok(r) => r,
        Err(d) => return d,
    };
    let role = match record.kind.as_str() {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        _ => return Decoded::Ignored,
    };
    if record.sidechain.is_true() || record.meta.is_true() {
        return Decoded::Ignored;
    }
    let Some(mut message) = record.message.0 else {
        return Decoded::Ignored;
    };
    let todos = message.content.take_todos();
    let raw = message.content.text(&["text"]);
    let mut summary = record.compact.is_true();
    let text = match role {
        Role::User if raw.contains("<command-name>") => slash_command(&raw)
            .filter(|c| c.starts_with("/goal "))
            .unwrap_or_default(),
        Role::User => {
            let t = super::codex::strip_blocks(&raw, &HIDDEN);
            let start = t.trim_start();
            summary |= start.starts_with(super::summary::OPENING);
            if start.starts_with("[Request interrupted")
                || start.starts_with("Base directory for this skill:")
            {
                String::new()
            } else {
                t
            }
        }
        _ => raw,
    };
    if text.trim().is_empty() && todos.is_empty() {
        return Decoded::Ignored;
    }
    Decoded::Turn(Turn {
        role,
        text,
        summary,
        todos,
    })
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let len = text.get(start..)?.find(close)?;
    text.get(start..start + len)
}

/// Claude Code records a slash command as `<command-name>/goal</command-name>`
/// plus `<command-args>…</command-args>`; this turns it back into `/goal …`.
fn slash_command(text: &str) -> Option<String> {
    let name = between(text, "<command-name>", "</command-name>")?.trim();
    let args = between(text, "<command-args>", "</command-args>").unwrap_or("");
    Some(format!("{name} {}", args.trim()))
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

    #[test]
    fn string_and_block_content() {
        let l =
            r#"{"type":"user","message":{"role":"user","content":"hello\nTODO: x"},"uuid":"u"}"#;
        assert_eq!(msg(l), Some((Role::User, "hello\nTODO: x".into())));
        let l = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"defer"},{"type":"text","text":"b"}]}}"#;
        assert_eq!(msg(l), Some((Role::Assistant, "a\nb".into())));
    }

    #[test]
    fn skipped_blocks_and_records() {
        let tool = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"echo TODO: x","text":"TODO: y"}}]}}"#;
        assert!(matches!(decode(tool), Decoded::Ignored));
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
}
