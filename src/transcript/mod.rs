//! Transcript reader and follow-up candidate finder (docs/FORMAT.md §9, `extract`).
//!
//! **Formats.** A transcript is read whole from a regular file of at most
//! `extract.max_bytes` bytes ([`read`]). Claude Code JSONL and Codex JSONL are
//! told apart by their records ([`codex::detect`]); pretty-printed JSON (an array
//! of records, or records over several lines) is parsed as JSON ([`pretty`]);
//! anything else is plain text, read by speaker markers (`User:`, `## Human:`,
//! `### Assistant`, …). A JSON file whose records match neither Claude Code
//! nor Codex is refused ([`ExtractError::NotRecognised`]) unless text is forced.
//!
//! **What is read.** Main-thread user and assistant text only: no tool input or
//! output, thinking, sidechains, meta records (skill bodies, caveats), slash
//! commands (except `/goal`) or injected blocks (`<local-command-stdout>`,
//! `<system-reminder>`, `<task-notification>`, Codex environment and
//! instructions). Lines longer than `extract.max_line_chars` are skipped and
//! counted.
//!
//! **Candidates**, each with an origin:
//! - `message`: lists under a lead-in and single sentences ([`structure`],
//!   [`markers`]);
//! - `summary`: the pending / next-step items of a compaction summary
//!   ([`summary`]), unless a later assistant line or a finished agent todo
//!   reports them done;
//! - `agent-todo`: the agent's own todo list as it stands at the end, items
//!   still pending or in progress ([`todo`]);
//! - `last-request`: the last user request (three words or more) when no
//!   assistant text answered it (the session ended, or only API errors came back).
//!
//! Identical candidate texts (ignoring case and spacing) are reported once.
//!
//! **Goal**: a user message whose first non-blank line starts with `/goal `,
//! `goal:` or `objective:` (case-insensitive) states the goal; the latest wins.

mod claude;
mod codex;
mod keywords;
mod markers;
mod pretty;
pub mod read;
mod structure;
mod summary;
mod todo;

use std::path::Path;

use keywords::{Fence, Matcher};
use todo::{TodoOp, Todos};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    ClaudeJsonl,
    CodexJsonl,
    Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    #[default]
    Unknown,
}

/// Where a candidate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    Message,
    Summary,
    AgentTodo,
    LastRequest,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Candidate {
    pub text: String,
    /// The phrase, section title or tool that produced it.
    pub keyword: String,
    pub origin: Origin,
    pub role: Role,
    /// 1-based line in the transcript file.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Goal {
    pub text: String,
    /// 1-based line in the transcript file.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extraction {
    pub format: Format,
    pub candidates: Vec<Candidate>,
    pub goal: Option<Goal>,
    /// Records that are not JSON objects.
    pub skipped_lines: usize,
    /// Message lines longer than the cap, not scanned.
    pub long_lines: usize,
    /// Summary items a later turn reported done.
    pub resolved: usize,
    /// The session's working folder, when the transcript records one.
    pub cwd: Option<String>,
}

/// How to read a transcript.
#[derive(Debug, Clone)]
pub struct Options {
    pub keywords: Vec<String>,
    pub max_line_chars: usize,
    pub max_bytes: u64,
    /// Read as plain text whatever the content.
    pub force_text: bool,
}

/// Why a transcript gave no extraction.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error(transparent)]
    Read(#[from] read::ReadError),
    #[error(
        "format not recognised: its JSON records are neither Claude Code nor Codex (line {line})"
    )]
    NotRecognised { line: usize },
}

/// What a JSONL decoder makes of one record.
#[derive(Debug)]
enum Decoded {
    /// Not a JSON object: counted in `skipped_lines`.
    Invalid,
    /// A record without message text or todo calls.
    Ignored,
    Turn(Turn),
}

/// One main-thread message, compaction summary, or todo tool call.
#[derive(Debug, Default)]
struct Turn {
    role: Role,
    text: String,
    summary: bool,
    todos: Vec<TodoOp>,
}

/// The running state of one extraction.
struct Run<'m> {
    matcher: &'m Matcher,
    max_line: usize,
    out: Extraction,
    todos: Todos,
    /// Candidate indexes of summary items, with whether they were resolved.
    summary_items: Vec<(usize, bool)>,
    last_request: Option<(String, usize)>,
}

impl Run<'_> {
    fn push(&mut self, text: String, keyword: &str, origin: Origin, role: Role, line: usize) {
        self.out.candidates.push(Candidate {
            text,
            keyword: keyword.to_string(),
            origin,
            role,
            line,
        });
    }

    /// One turn, `line` being the file line of its record (JSONL) or of its
    /// first line (text; hits report their own line).
    fn turn(&mut self, mut turn: Turn, line: usize, per_line: bool) {
        // A private span runs across the lines of its message.
        if let std::borrow::Cow::Owned(red) = crate::privacy::redact(&turn.text) {
            turn.text = red;
        }
        for op in turn.todos {
            self.todos.apply(op, line);
        }
        if turn.text.trim().is_empty() {
            return;
        }
        if turn.summary {
            self.last_request = None;
            for (text, section) in summary::items(&turn.text) {
                self.summary_items.push((self.out.candidates.len(), false));
                self.push(text, &section, Origin::Summary, Role::Assistant, line);
            }
            return;
        }
        if turn.role == Role::User
            && let Some(first) = turn.text.lines().find(|l| !l.trim().is_empty())
            && let Some(goal) = keywords::goal_text(first)
        {
            self.out.goal = Some(Goal { text: goal, line });
        }
        for hit in structure::scan(
            self.matcher,
            &turn.text,
            self.max_line,
            &mut self.out.long_lines,
        ) {
            let at = if per_line { line + hit.offset } else { line };
            let name = self.matcher.name(hit.keyword).to_string();
            self.push(hit.text, &name, Origin::Message, turn.role, at);
        }
        match turn.role {
            Role::Assistant => {
                if !turn.text.trim_start().starts_with("API Error") {
                    self.last_request = None;
                }
                for (index, resolved) in &mut self.summary_items {
                    let item = &self.out.candidates[*index].text;
                    if !*resolved && turn.text.lines().any(|l| summary::reports_done(item, l)) {
                        *resolved = true;
                    }
                }
            }
            Role::User => {
                let text = turn.text.trim();
                let first = text.lines().next().unwrap_or("").trim();
                let request = if first.starts_with("/goal") {
                    ""
                } else {
                    first
                };
                self.last_request = Some((request.chars().take(300).collect(), line));
            }
            Role::Unknown => {}
        }
    }

    fn finish(mut self) -> Extraction {
        let done: Vec<String> = self.todos.done().into_iter().map(str::to_string).collect();
        for (index, resolved) in &mut self.summary_items {
            let item = &self.out.candidates[*index].text;
            if done.iter().any(|d| summary::same_task(item, d)) {
                *resolved = true;
            }
        }
        let gone: Vec<usize> = self
            .summary_items
            .iter()
            .filter(|(_, r)| *r)
            .map(|(i, _)| *i)
            .collect();
        self.out.resolved = gone.len();
        let mut index = 0;
        self.out.candidates.retain(|_| {
            index += 1;
            !gone.contains(&(index - 1))
        });
        let open: Vec<(String, usize)> = self
            .todos
            .open()
            .into_iter()
            .map(|(t, l)| (t.to_string(), l))
            .collect();
        for (text, line) in open {
            self.push(text, "agent todo", Origin::AgentTodo, Role::Assistant, line);
        }
        if let Some((text, line)) = self.last_request.take()
            && text.split_whitespace().count() >= 3
        {
            self.push(text, "last request", Origin::LastRequest, Role::User, line);
        }
        let mut seen = std::collections::HashSet::new();
        self.out.candidates.retain(|c| {
            let key = c
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            seen.insert(key)
        });
        self.out
    }
}

/// A plain-text speaker marker: the role and the rest of the line.
fn speaker(line: &str) -> Option<(Role, &str)> {
    const NAMES: [(&str, Role); 5] = [
        ("user", Role::User),
        ("human", Role::User),
        ("assistant", Role::Assistant),
        ("claude", Role::Assistant),
        ("codex", Role::Assistant),
    ];
    let t = line.trim();
    let role_of = |name: &str| {
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, r)| r)
    };
    if let Some(h) = t.strip_prefix('#') {
        let h = h.trim_start_matches('#');
        if !h.starts_with([' ', '\t']) {
            return None;
        }
        return role_of(h.trim().trim_end_matches(':').trim_end()).map(|r| (r, ""));
    }
    let (t, bold) = t.strip_prefix("**").map_or((t, false), |r| (r, true));
    let colon = t.find(':')?;
    let (name, mut rest) = (&t[..colon], &t[colon + 1..]);
    let name = if bold {
        match name.strip_suffix("**") {
            Some(n) => n,
            None => rest.strip_prefix("**").map(|r| {
                rest = r;
                name
            })?,
        }
    } else {
        name
    };
    role_of(name).map(|r| (r, rest))
}

/// Extracts follow-up candidates and the session goal from transcript bytes.
pub fn extract_bytes(bytes: &[u8], opts: &Options) -> Result<Extraction, ExtractError> {
    let matcher = Matcher::new(&opts.keywords);
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut run = Run {
        matcher: &matcher,
        max_line: opts.max_line_chars,
        out: Extraction {
            format: Format::Text,
            candidates: Vec::new(),
            goal: None,
            skipped_lines: 0,
            long_lines: 0,
            resolved: 0,
            cwd: None,
        },
        todos: Todos::default(),
        summary_items: Vec::new(),
        last_request: None,
    };
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(first) = first.filter(|_| !opts.force_text) else {
        // A private span in plain text runs across speakers until closed.
        plain_text(&mut run, &crate::privacy::redact(text));
        return Ok(run.finish());
    };
    let jsonl = codex::detect(first) != Some(Format::Text);
    let records: Vec<(usize, std::borrow::Cow<'_, str>)> = if jsonl {
        text.lines()
            .enumerate()
            .map(|(i, l)| {
                (
                    i + 1,
                    std::borrow::Cow::Borrowed(l.strip_suffix('\r').unwrap_or(l)),
                )
            })
            .collect()
    } else if first.starts_with(['{', '[']) {
        match pretty::records(text) {
            Some((records, broken)) => {
                run.out.skipped_lines += usize::from(broken);
                records
                    .into_iter()
                    .map(|(n, r)| (n, std::borrow::Cow::Owned(r)))
                    .collect()
            }
            None => Vec::new(),
        }
    } else {
        Vec::new()
    };
    if records.is_empty() {
        // A private span in plain text runs across speakers until closed.
        plain_text(&mut run, &crate::privacy::redact(text));
        return Ok(run.finish());
    }
    let mut format = None;
    let mut first_object = None;
    for (n, r) in &records {
        match codex::detect(r) {
            Some(Format::Text) => {}
            Some(f) => {
                format = Some(f);
                break;
            }
            None => {
                first_object.get_or_insert(*n);
            }
        }
    }
    let Some(format) = format else {
        return Err(ExtractError::NotRecognised {
            line: first_object.unwrap_or(1),
        });
    };
    run.out.format = format;
    for (n, r) in &records {
        if r.trim().is_empty() {
            continue;
        }
        if run.out.cwd.is_none() {
            run.out.cwd = cwd_of(r);
        }
        let decoded = match format {
            Format::CodexJsonl => codex::decode(r),
            _ => claude::decode(r),
        };
        match decoded {
            Decoded::Invalid => run.out.skipped_lines += 1,
            Decoded::Ignored => {}
            Decoded::Turn(t) => run.turn(t, *n, false),
        }
    }
    Ok(run.finish())
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct CwdProbe {
    cwd: claude::Loose,
    payload: claude::Obj<CwdPayload>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct CwdPayload {
    cwd: claude::Loose,
}

/// The `cwd` of a Claude record or of a Codex `session_meta` payload.
fn cwd_of(record: &str) -> Option<String> {
    if !record.contains("\"cwd\"") {
        return None;
    }
    let p: CwdProbe = claude::parse(record).ok()?;
    p.cwd
        .as_str()
        .or(p.payload.0.as_ref().and_then(|c| c.cwd.as_str()))
        .map(str::to_string)
}

/// Plain text: speaker markers start messages; each message is scanned whole.
fn plain_text(run: &mut Run<'_>, text: &str) {
    let mut fence = Fence::default();
    let mut role = Role::Unknown;
    let mut body = String::new();
    let mut start = 1;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if !fence.is_open()
            && let Some((r, rest)) = speaker(line)
        {
            let turn = Turn {
                role,
                text: std::mem::take(&mut body),
                ..Turn::default()
            };
            run.turn(turn, start, true);
            role = r;
            start = i + 1;
            body.push_str(rest.trim_start());
            body.push('\n');
            continue;
        }
        fence.is_code(line);
        if body.is_empty() && line.trim().is_empty() {
            start = i + 2;
            continue;
        }
        body.push_str(line);
        body.push('\n');
    }
    let turn = Turn {
        role,
        text: body,
        ..Turn::default()
    };
    run.turn(turn, start, true);
}

/// [`extract_bytes`] on a regular file of at most `opts.max_bytes` bytes.
pub fn extract_path(path: &Path, opts: &Options) -> Result<Extraction, ExtractError> {
    let bytes = read::read_regular(path, opts.max_bytes)?;
    extract_bytes(&bytes, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULTS: &str =
        "next session|next steps|follow-up|follow up|todo|come back to|defer|다음 세션|후속";

    pub(super) type Row<'a> = (&'a str, Origin, Role, usize);

    fn opts() -> Options {
        Options {
            keywords: DEFAULTS.split('|').map(str::to_string).collect(),
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
        let record =
            serde_json::json!({"type": role, "message": {"role": role, "content": content}});
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
        );
        let json = serde_json::to_string(&all).ok();
        assert_eq!(
            json.as_deref(),
            Some(r#"["claude-jsonl","codex-jsonl","text","unknown","agent-todo","last-request"]"#)
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
        jsonl
            .extend_from_slice(b"\n{\"type\":\"user\",\"message\":{\"content\":\"\xff TODO: b\"}}");
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
}
