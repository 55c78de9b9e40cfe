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
//! **What is read.** Main-thread user and assistant text only (of a prompt
//! template sent as user text, the user's words: [`template`]): no tool input or
//! output, thinking, sidechains, meta records (skill bodies, caveats), slash
//! commands (except `/goal`) or injected blocks (`<local-command-stdout>`,
//! `<system-reminder>`, `<task-notification>`, Codex environment and
//! instructions). A Codex message is read once: its `event_msg` copy only when
//! the file has no `response_item` messages. Table rows are never candidates;
//! the line cap `extract.max_line_chars` applies per sentence (and counts what
//! it skips). What the agent wrote or ran (file writes, edits, commands) and
//! whether it was at work (tool calls, thinking) are kept as signals only.
//!
//! **Candidates**, each with an origin:
//! - `message`: lists under a lead-in (also run-on lists in prose, [`runon`])
//!   and single sentences ([`structure`], [`markers`]), and sentence-level
//!   deferrals in twelve languages ([`deferral`]);
//! - `handoff`: steps left to the user without a marker phrase, in the message
//!   that ends an exchange, and steps offered "when ready" ([`handoff`]);
//!   manual steps handed to the user mid-message, and steps put off until
//!   the user can ("when you're back at your computer, …") ([`userstep`]); a proposal
//!   list closing the agent's last message that no user message answered
//!   ([`proposal`]); a request that hands the next move to the user, with the
//!   agent's promise to go on, in the session's last message ([`awaits`]);
//! - `summary`: the pending / next-step items of a compaction summary
//!   ([`summary`]);
//! - `agent-todo`: the agent's own todo list as it stands at the end, items
//!   still pending or in progress ([`todo`]);
//! - `last-request`: the last user request (three words or more) when the agent
//!   never started on it: no assistant record after it but API errors and
//!   Claude Code's `<synthetic>` notices (usage limit, login). A request the
//!   agent was working on when the transcript was cut off is no candidate.
//!
//! A `message`, `handoff` or `summary` candidate is dropped (counted in `resolved`) when a
//! later user or assistant line reports it done (a done word and half of its
//! words), when a later write, edit or command of the agent holds every code
//! name it mentions ([`done`]), when later lines report each of its release
//! verbs ([`verbs`]), or when a later user clause in the first person reports
//! it ([`confirm`]); summary items also when an agent todo finished after the
//! summary covers it, or when the agent answered after the summary and a new
//! user request followed. A hand-off that names the same task as an open
//! agent todo is dropped (the todo is reported). Identical candidate texts (ignoring case and spacing)
//! are reported once.
//!
//! **Goal**: a user message whose first non-blank line starts with `/goal `,
//! `goal:` or `objective:` (case-insensitive) states the goal; the latest wins.

mod awaits;
mod claude;
mod codex;
mod confirm;
mod deferral;
mod described;
mod done;
mod endstate;
mod handoff;
mod keywords;
mod lenient;
mod lower;
mod markers;
mod nothing;
mod offer;
mod plain;
mod plan;
mod pretty;
mod proposal;
mod ranked;
pub mod read;
mod review;
mod runon;
mod sentences;
mod session;
mod steps;
mod structure;
mod summary;
mod template;
mod todo;
mod userstep;
mod verbs;

use std::path::Path;

use keywords::Matcher;
use session::Run;
use todo::TodoOp;

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
    /// A step left to the user without a marker phrase ([`handoff`]).
    Handoff,
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
    /// Message, hand-off and summary candidates a later turn reported done.
    pub resolved: usize,
    /// The session's working folder, when the transcript records one.
    pub cwd: Option<String>,
}

/// How to read a transcript.
#[derive(Debug, Clone)]
pub struct Options {
    pub keywords: Vec<String>,
    /// Lead-in phrases of hand-offs ([`handoff`]).
    pub handoff_leads: Vec<String>,
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
    /// Binary content (an image, an archive, a NUL byte, bytes that are not
    /// UTF-8): no transcript, whatever the input format.
    #[error("not a transcript: {0}")]
    NotText(String),
}

/// Why `bytes` are no transcript text, if they are not: a known binary
/// signature, a NUL byte, or more than one byte in 64 that is not UTF-8.
fn not_text(bytes: &[u8]) -> Option<String> {
    const MAGIC: [(&[u8], &str); 9] = [
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF-", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "a gzip archive"),
        (b"\x7fELF", "an executable"),
        (b"BM", "a bitmap image"),
        (b"\x00\x00\x01\x00", "an icon"),
    ];
    for (magic, what) in MAGIC {
        // "BM" opens ordinary words too: only with a bitmap's header size.
        if bytes.starts_with(magic) && (magic != b"BM" || bytes.get(14) == Some(&40)) {
            return Some(format!("{what} (binary content)"));
        }
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        return Some("a WebP image (binary content)".into());
    }
    if let Some(at) = memchr::memchr(0, bytes) {
        return Some(format!("binary content (a NUL byte at offset {at})"));
    }
    let mut bad = 0usize;
    let mut rest = bytes;
    while let Err(e) = std::str::from_utf8(rest) {
        bad += e.error_len().unwrap_or(1);
        rest = &rest[(e.valid_up_to() + e.error_len().unwrap_or(rest.len() - e.valid_up_to()))..];
    }
    (bad * 64 > bytes.len()).then(|| format!("binary content ({bad} bytes that are not UTF-8)"))
}

/// Candidate text as a single clean line: terminal escape sequences removed,
/// line breaks and tabs made spaces, other control characters and bidi
/// overrides dropped.
pub(crate) fn clean_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ parameters final byte; other escapes: one char.
                if chars.next_if_eq(&'[').is_some() {
                    for n in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&n) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\t' | '\n' | '\r' => out.push(' '),
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
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

/// One main-thread message, compaction summary, todo tool call, or other
/// assistant activity (tool calls, thinking).
#[derive(Debug, Default)]
struct Turn {
    role: Role,
    text: String,
    summary: bool,
    todos: Vec<TodoOp>,
    /// What the agent wrote or ran (file contents, edits, commands): later
    /// done signals, never scanned for candidates.
    acted: Vec<String>,
    /// An assistant record that is no answer (API errors, usage-limit and
    /// login notices Claude Code writes as `<synthetic>` messages).
    synthetic: bool,
    /// A Codex `event_msg` copy of a message also written as a `response_item`.
    echo: bool,
    /// The turn was stopped before the agent finished: the user interrupted
    /// it or rejected its tool call or plan, or the session hit an API error
    /// or a usage limit. The keyword the unfinished request is reported with.
    stop: Option<&'static str>,
    /// A recap the host wrote while the user was away (Claude Code's
    /// `away_summary`): read for open work like a closing message.
    recap: bool,
}

/// Removes the given `(open, close)` blocks (tags included). A removed block
/// that spanned lines leaves a line break; an unclosed block hides the rest.
pub(crate) fn strip_blocks(text: &str, blocks: &[(&str, &str)]) -> String {
    // Most messages hold no tag at all: one byte search settles them.
    let mut firsts: Vec<u8> = blocks
        .iter()
        .filter_map(|(o, _)| o.bytes().next())
        .collect();
    firsts.sort_unstable();
    firsts.dedup();
    let hay = text.as_bytes();
    let tagless = match firsts[..] {
        [a] => memchr::memchr(a, hay).is_none(),
        [a, b] => memchr::memchr2(a, b, hay).is_none(),
        [a, b, c] => memchr::memchr3(a, b, c, hay).is_none(),
        _ => false,
    };
    if tagless {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = blocks
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

/// Extracts follow-up candidates and the session goal from transcript bytes.
pub fn extract_bytes(bytes: &[u8], opts: &Options) -> Result<Extraction, ExtractError> {
    if let Some(why) = not_text(bytes) {
        return Err(ExtractError::NotText(why));
    }
    let matcher = Matcher::new(&opts.keywords);
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let leads = Matcher::new(&opts.handoff_leads);
    let mut run = Run::new(&matcher, &leads, opts.max_line_chars);
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(first) = first.filter(|_| !opts.force_text) else {
        // A private span in plain text runs across speakers until closed.
        plain::plain_text(&mut run, &crate::privacy::redact(text));
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
        plain::plain_text(&mut run, &crate::privacy::redact(text));
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
    run.skip_echoes = format == Format::CodexJsonl
        && records
            .iter()
            .any(|(_, r)| r.contains("\"response_item\"") || r.contains("\"type\":\"message\""));
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
    cwd: lenient::Loose,
    payload: lenient::Obj<CwdPayload>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct CwdPayload {
    cwd: lenient::Loose,
}

/// The `cwd` of a Claude record or of a Codex `session_meta` payload.
fn cwd_of(record: &str) -> Option<String> {
    if !record.contains("\"cwd\"") {
        return None;
    }
    let p: CwdProbe = lenient::parse(record).ok()?;
    p.cwd
        .as_str()
        .or(p.payload.0.as_ref().and_then(|c| c.cwd.as_str()))
        .map(str::to_string)
}

/// [`extract_bytes`] on a regular file of at most `opts.max_bytes` bytes.
pub fn extract_path(path: &Path, opts: &Options) -> Result<Extraction, ExtractError> {
    let bytes = read::read_regular(path, opts.max_bytes)?;
    extract_bytes(&bytes, opts)
}

#[cfg(test)]
mod tests;
