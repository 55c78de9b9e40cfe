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
    /// `tool_use`: the call's id; `tool_result`: `tool_use_id` names it.
    id: Loose,
    tool_use_id: Loose,
    /// `tool_result`: what the tool answered.
    content: ResultText,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TextItem {
    text: Loose,
}

/// A tool result's content: a string or an array of text blocks, joined.
#[derive(Debug, Default)]
struct ResultText(String);

impl<'de> Lenient<'de> for ResultText {
    fn string(s: String) -> Self {
        ResultText(s)
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut out = String::new();
        while let Some(item) = seq.next_element::<Obj<TextItem>>()? {
            if let Some(t) = item.0.as_ref().and_then(|i| i.text.as_str()) {
                out.push_str(t);
                out.push('\n');
            }
        }
        Ok(ResultText(out))
    }
}

/// The input of a tool call: todo tools (`TodoWrite`, `TaskCreate`,
/// `TaskUpdate`), and what file and shell tools write or run.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ToolInput {
    todos: TodoItems,
    subject: Loose,
    description: Loose,
    #[serde(rename = "taskId")]
    task_id: Loose,
    status: Loose,
    /// `Write`.
    content: Loose,
    /// `Edit`.
    new_string: Loose,
    /// `NotebookEdit`.
    new_source: Loose,
    /// `Bash`.
    command: Loose,
    /// `Write`, `Edit`, `MultiEdit`: the file the call changes.
    file_path: Loose,
    /// `MultiEdit`.
    edits: NewStrings,
    /// `ExitPlanMode`: the plan, read as a `<proposed_plan>` block.
    plan: Loose,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct EditItem {
    new_string: Loose,
}

/// The `new_string`s of a `MultiEdit` call.
#[derive(Debug, Default)]
struct NewStrings(Vec<String>);

impl<'de> Lenient<'de> for NewStrings {
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut out = Vec::new();
        while let Some(item) = seq.next_element::<Obj<EditItem>>()? {
            if let Some(s) = item
                .0
                .and_then(|e| e.new_string.as_str().map(str::to_owned))
            {
                out.push(s);
            }
        }
        Ok(NewStrings(out))
    }
}

impl ToolInput {
    /// What the call wrote or ran, as text (empty for other tools); a
    /// change to a file starts with the file's path.
    fn acted(&mut self) -> Vec<String> {
        let mut out: Vec<String> = std::mem::take(&mut self.edits.0);
        for v in [
            &mut self.content,
            &mut self.new_string,
            &mut self.new_source,
            &mut self.command,
        ] {
            if let Loose::Str(s) = std::mem::take(v) {
                out.push(s);
            }
        }
        if let Some(path) = self.file_path.as_str() {
            for change in &mut out {
                change.insert(0, '\n');
                change.insert_str(0, path);
            }
        }
        out
    }
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
/// the type is `None` for plain-string content. Todo tool calls are kept too,
/// what other tool calls wrote or ran, and whether any block was present.
#[derive(Debug, Default)]
pub(super) struct Content(
    Vec<(Option<String>, String)>,
    Vec<TodoOp>,
    Vec<String>,
    bool,
    /// A tool result saying the user rejected the call (a plan, an edit).
    bool,
);

/// How Claude Code answers a tool call the user rejected.
const REJECTED: [&str; 2] = [
    "The user doesn't want to proceed with this tool use",
    "The tool use was rejected",
];

fn todo_op(name: &str, call: &Loose, input: ToolInput) -> Option<TodoOp> {
    match name {
        "TodoWrite" => Some(TodoOp::Replace(input.todos.0)),
        "TaskCreate" => input
            .subject
            .as_str()
            .or(input.description.as_str())
            .map(|t| TodoOp::Create {
                text: t.to_owned(),
                call: call.as_id().map(str::to_owned),
            }),
        "TaskUpdate" => Some(TodoOp::Update {
            id: input.task_id.as_id()?.to_owned(),
            status: input.status.as_str()?.to_owned(),
        }),
        _ => None,
    }
}

impl<'de> Lenient<'de> for Content {
    fn string(s: String) -> Self {
        Content::from_text(s)
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut blocks = Vec::new();
        let mut todos = Vec::new();
        let mut acted = Vec::new();
        let mut any = false;
        let mut rejected = false;
        while let Some(block) = seq.next_element::<Obj<Block>>()? {
            let Some(block) = block.0 else { continue };
            any = true;
            match (block.kind.as_str(), block.text) {
                (Some("tool_use"), _) => {
                    if let (Some(name), Some(mut input)) = (block.name.as_str(), block.input.0) {
                        acted.extend(input.acted());
                        if let ("ExitPlanMode", Loose::Str(plan)) = (name, &input.plan) {
                            let block = format!("<proposed_plan>\n{plan}\n</proposed_plan>");
                            blocks.push((Some("text".to_owned()), block));
                        }
                        if let Some(op) = todo_op(name, &block.id, input) {
                            todos.push(op);
                        }
                    }
                }
                (Some("tool_result"), _) => {
                    rejected |= REJECTED.iter().any(|r| block.content.0.contains(r));
                    // `TaskCreate` answers "Task #5 created …": the id later
                    // `TaskUpdate` calls use, not always the creation order.
                    if let (Some(call), Some(id)) = (
                        block.tool_use_id.as_id(),
                        super::todo::created_id(&block.content.0),
                    ) {
                        todos.push(TodoOp::Assign {
                            call: call.to_owned(),
                            id,
                        });
                    }
                }
                (kind, Loose::Str(text)) => {
                    blocks.push((Some(kind.unwrap_or_default().to_owned()), text));
                }
                _ => {}
            }
        }
        Ok(Content(blocks, todos, acted, any, rejected))
    }
}

lenient_deserialize!(Content, TodoItems, NewStrings, ResultText);

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
        let any = !text.is_empty();
        let rejected = REJECTED.iter().any(|r| text.starts_with(r));
        Content(vec![(None, text)], Vec::new(), Vec::new(), any, rejected)
    }

    /// The todo tool calls, in order.
    pub(super) fn take_todos(&mut self) -> Vec<TodoOp> {
        std::mem::take(&mut self.1)
    }

    /// What the tool calls wrote or ran.
    pub(super) fn take_acted(&mut self) -> Vec<String> {
        std::mem::take(&mut self.2)
    }

    /// Whether the content held any block (text, thinking, tool call, …).
    pub(super) fn any(&self) -> bool {
        self.3
    }

    /// Whether a tool result says the user rejected the call.
    pub(super) fn rejected(&self) -> bool {
        self.4
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
    #[serde(rename = "isApiErrorMessage")]
    api_error: Loose,
    #[serde(rename = "sessionId")]
    session: Loose,
    uuid: Loose,
    message: Obj<Message>,
    /// `system` records: `away_summary` and others.
    subtype: Loose,
    /// A `system` record's text.
    content: Loose,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Message {
    content: Content,
    model: Loose,
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
        Some("system") if record.subtype.as_str() == Some("away_summary") => {
            return away_summary(&record.content);
        }
        _ => return Decoded::Ignored,
    };
    if record.sidechain.is_true() || record.meta.is_true() {
        return Decoded::Ignored;
    }
    let Some(mut message) = record.message.0 else {
        return Decoded::Ignored;
    };
    let todos = message.content.take_todos();
    let acted = message.content.take_acted();
    let active = message.content.any();
    let synthetic = role == Role::Assistant
        && (record.api_error.is_true() || message.model.as_str() == Some("<synthetic>"));
    let raw = message.content.text(&["text"]);
    let mut summary = record.compact.is_true();
    let mut stop = None;
    if role == Role::User && message.content.rejected() {
        stop = Some("rejected plan");
    }
    if synthetic {
        stop = Some("stopped on an error");
    }
    let text = match role {
        Role::User if raw.contains("<command-name>") => slash_command(&raw)
            .filter(|c| c.starts_with("/goal "))
            .unwrap_or_default(),
        Role::User => {
            let t = super::strip_blocks(&raw, &HIDDEN);
            let start = t.trim_start();
            summary |= start.starts_with(super::summary::OPENING);
            if start.starts_with("[Request interrupted") {
                stop = Some("interrupted request");
                String::new()
            } else if start.starts_with("Base directory for this skill:") {
                String::new()
            } else {
                t
            }
        }
        _ => raw,
    };
    // An assistant record without text still shows the agent at work.
    if text.trim().is_empty()
        && todos.is_empty()
        && stop.is_none()
        && !(role == Role::Assistant && active)
    {
        return Decoded::Ignored;
    }
    Decoded::Turn(Turn {
        role,
        text,
        summary,
        todos,
        acted,
        synthetic,
        echo: false,
        stop,
        recap: false,
    })
}

/// Claude Code's recap of the session for a user who was away: its text,
/// without the note on how to turn recaps off.
fn away_summary(content: &Loose) -> Decoded {
    let Some(text) = content.as_str() else {
        return Decoded::Ignored;
    };
    let text = match text.rfind("(disable recaps") {
        Some(i) => &text[..i],
        None => text,
    };
    if text.trim().is_empty() {
        return Decoded::Ignored;
    }
    Decoded::Turn(Turn {
        role: Role::Assistant,
        text: text.to_string(),
        synthetic: true,
        recap: true,
        ..Turn::default()
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
mod tests;
