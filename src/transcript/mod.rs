//! Transcript reader and follow-up candidate finder (docs/FORMAT.md §9, `extract`).
//!
//! The format is detected from the first non-blank line (see [`codex::detect`]):
//! Claude Code JSONL, Codex JSONL, or plain text. The input is processed line by
//! line, so transcripts of any size (and lines of many megabytes) stream through.
//!
//! **JSONL**: each `user`/`assistant` record is one message; every text line of
//! it is scanned, and reported with the 1-based file line of the record. Lines
//! that are not JSON objects count in `skipped_lines`; blank lines are ignored;
//! JSON objects of an unknown shape are ignored without being counted.
//!
//! **Plain text**: every line counts and reports its own line number. A speaker
//! marker line starts a new message: `User:`, `Human:` (role user) or
//! `Assistant:`, `Claude:`, `Codex:` (role assistant), case-insensitive, possibly
//! bold (`**User:**`), with the rest of the line being message text; or a Markdown
//! heading whose whole text is one of those names (`## User`, `### Assistant:`).
//! Before the first marker the role is `unknown`. Markers inside fenced code do
//! not count.
//!
//! **Inside a message**: fenced code is ignored (a fence left open ends with the
//! message). A line with a keyword is a candidate (see [`keywords`]). Extension:
//! when the text after the colon is empty (`Next session:` followed by a list),
//! each following list item of the same message becomes a candidate with that
//! keyword (text without list marker and checkbox); blank lines are allowed
//! before the first item, and the list ends at the first other line. An empty
//! candidate text gives no candidate.
//!
//! **Goal**: a user message whose first non-blank line starts with `/goal `,
//! `goal:` or `objective:` (case-insensitive) states the goal, the rest of that
//! line; the latest one wins. Its lines are still scanned for candidates.

mod claude;
mod codex;
mod keywords;

use std::io::{self, BufRead};
use std::path::Path;

use keywords::{Fence, Matcher, Text};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    ClaudeJsonl,
    CodexJsonl,
    Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Candidate {
    pub text: String,
    pub keyword: String,
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
    pub skipped_lines: usize,
}

/// What a JSONL decoder makes of one record.
#[derive(Debug)]
enum Decoded {
    /// Not a JSON object: counted in `skipped_lines`.
    Invalid,
    /// A record without message text to scan.
    Ignored,
    Message(Role, String),
}

/// Per-message scanning state.
struct Scanner<'m> {
    matcher: &'m Matcher,
    role: Role,
    fence: Fence,
    /// Keyword of an open `Keyword:` list, and whether an item was seen yet.
    list: Option<(usize, bool)>,
    first: bool,
}

impl<'m> Scanner<'m> {
    fn new(matcher: &'m Matcher, role: Role) -> Self {
        Scanner {
            matcher,
            role,
            fence: Fence::default(),
            list: None,
            first: true,
        }
    }

    fn line(&mut self, text: &str, line: usize, out: &mut Extraction) {
        if self.first && !text.trim().is_empty() {
            self.first = false;
            if self.role == Role::User
                && let Some(goal) = keywords::goal_text(text)
            {
                out.goal = Some(Goal { text: goal, line });
            }
        }
        if self.fence.is_code(text) {
            self.list = None;
            return;
        }
        let item = keywords::list_item_body(text);
        if let Some((_, seen)) = &mut self.list {
            if item.is_some() {
                *seen = true;
            } else if *seen || !text.trim().is_empty() {
                self.list = None;
            }
        }
        let push = |out: &mut Extraction, text: String, keyword: &str| {
            if !text.is_empty() {
                let (keyword, role) = (keyword.to_string(), self.role);
                out.candidates.push(Candidate {
                    text,
                    keyword,
                    role,
                    line,
                });
            }
        };
        if let Some(hit) = self.matcher.find(text) {
            let keyword = self.matcher.name(hit.index);
            match keywords::candidate_text(text, &hit, keyword) {
                Text::Colon(t) if t.is_empty() => self.list = Some((hit.index, false)),
                Text::Colon(t) | Text::Whole(t) => push(out, t, keyword),
            }
        } else if let (Some((index, _)), Some(body)) = (self.list, item) {
            let body = keywords::strip_checkbox(body).trim().to_string();
            push(out, body, self.matcher.name(index));
        }
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

/// Extracts follow-up candidates and the session goal from a transcript.
pub fn extract<R: BufRead>(mut reader: R, keywords: &[String]) -> io::Result<Extraction> {
    let matcher = Matcher::new(keywords);
    let mut out = Extraction {
        format: Format::Text,
        candidates: Vec::new(),
        goal: None,
        skipped_lines: 0,
    };
    let mut detected = false;
    let mut text_scanner = Scanner::new(&matcher, Role::Unknown);
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        number += 1;
        let raw = String::from_utf8_lossy(&buf);
        let mut line = raw.strip_suffix('\n').unwrap_or(&raw);
        line = line.strip_suffix('\r').unwrap_or(line);
        if number == 1 {
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        if !detected {
            if line.trim().is_empty() {
                continue;
            }
            out.format = codex::detect(line);
            detected = true;
        }
        let decoded = match out.format {
            Format::Text => {
                if !text_scanner.fence.is_open()
                    && let Some((role, rest)) = speaker(line)
                {
                    text_scanner = Scanner::new(&matcher, role);
                    line = rest;
                }
                text_scanner.line(line, number, &mut out);
                continue;
            }
            _ if line.trim().is_empty() => continue,
            Format::ClaudeJsonl => claude::decode(line),
            Format::CodexJsonl => codex::decode(line),
        };
        match decoded {
            Decoded::Invalid => out.skipped_lines += 1,
            Decoded::Ignored => {}
            Decoded::Message(role, text) => {
                let mut scanner = Scanner::new(&matcher, role);
                for l in text.lines() {
                    scanner.line(l, number, &mut out);
                }
            }
        }
    }
    Ok(out)
}

/// [`extract`] on a file.
pub fn extract_path(path: &Path, keywords: &[String]) -> io::Result<Extraction> {
    let file = std::fs::File::open(path)?;
    extract(io::BufReader::with_capacity(1 << 16, file), keywords)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULTS: &str = "next session|follow-up|follow up|TODO:|come back to|defer|다음 세션|후속|나중에|다시 보|미루|미뤄";

    pub(super) type Row<'a> = (&'a str, &'a str, Role, usize);

    pub(super) fn run(input: impl AsRef<[u8]>) -> Extraction {
        let kws: Vec<String> = DEFAULTS.split('|').map(str::to_string).collect();
        extract(input.as_ref(), &kws).expect("in-memory read")
    }

    pub(super) fn rows(e: &Extraction) -> Vec<Row<'_>> {
        let c = e.candidates.iter();
        c.map(|c| (c.text.as_str(), c.keyword.as_str(), c.role, c.line))
            .collect()
    }

    pub(super) fn goal(e: &Extraction) -> Option<(&str, usize)> {
        e.goal.as_ref().map(|g| (g.text.as_str(), g.line))
    }

    pub(super) fn claude(role: &str, content: &str) -> String {
        let record =
            serde_json::json!({"type": role, "message": {"role": role, "content": content}});
        record.to_string()
    }

    #[test]
    fn serializes_names() {
        let all = (
            Format::ClaudeJsonl,
            Format::CodexJsonl,
            Format::Text,
            Role::Unknown,
        );
        let json = serde_json::to_string(&all).ok();
        assert_eq!(
            json.as_deref(),
            Some(r#"["claude-jsonl","codex-jsonl","text","unknown"]"#)
        );
    }

    #[test]
    fn list_extension() {
        let text =
            "Next session:\n\n- [ ] write docs\n2. ~~~ not a fence\n-\n* TODO: own\nend\n- no";
        let e = run(claude("assistant", text));
        let expected: [Row; 3] = [
            ("write docs", "next session", Role::Assistant, 1),
            ("~~~ not a fence", "next session", Role::Assistant, 1),
            ("own", "TODO:", Role::Assistant, 1),
        ];
        assert_eq!(rows(&e), expected);
        // The list ends with the message; so does an unclosed fence.
        let input = [
            claude("assistant", "Follow-up:\n```"),
            claude("user", "- x\nTODO: y"),
        ];
        assert_eq!(
            rows(&run(input.join("\n"))),
            [("y", "TODO:", Role::User, 2)]
        );
    }

    #[test]
    fn plain_text_roles() {
        let input = "\u{feff}Preamble: defer this\r\n## User\n\n/goal text goal\nUser: TODO: mine\n\
            **Assistant:** we should defer the rest\n```\nClaude: defer in code\n```\n\
            Human: come back to it\nusername: defer me\n";
        let e = run(input);
        assert_eq!(e.format, Format::Text);
        let expected: [Row; 5] = [
            ("Preamble: defer this", "defer", Role::Unknown, 1),
            ("mine", "TODO:", Role::User, 5),
            ("we should defer the rest", "defer", Role::Assistant, 6),
            ("come back to it", "come back to", Role::User, 10),
            ("username: defer me", "defer", Role::User, 11),
        ];
        assert_eq!(rows(&e), expected);
        assert_eq!(goal(&e), Some(("text goal", 4)));
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
    fn invalid_utf8_malformed_and_empty() {
        let e = run(b"caf\xe9 defer it\n\xff\xfe\n");
        assert_eq!(
            rows(&e),
            [("caf\u{fffd} defer it", "defer", Role::Unknown, 1)]
        );
        let mut jsonl = claude("assistant", "TODO: a").into_bytes();
        jsonl
            .extend_from_slice(b"\n{\"type\":\"user\",\"message\":{\"content\":\"\xff TODO: b\"}}");
        jsonl.extend_from_slice(b"\n[1]\n\"s\"\n\n{\"type\":\n");
        let e = run(&jsonl);
        let expected: [Row; 2] = [
            ("a", "TODO:", Role::Assistant, 1),
            ("b", "TODO:", Role::User, 2),
        ];
        assert_eq!((rows(&e), e.skipped_lines), (expected.to_vec(), 3));
        let e = run("\n  \n");
        assert_eq!(
            (e.format, e.candidates.len(), e.skipped_lines),
            (Format::Text, 0, 0)
        );
    }

    #[test]
    fn long_lines() {
        let big = "x".repeat(5 << 20);
        let tool = format!(
            r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","content":"{big} TODO: no"}}]}}}}"#
        );
        let input = [
            claude("user", "hi"),
            tool,
            claude("assistant", &format!("{big} defer")),
        ];
        let e = run(input.join("\n"));
        assert_eq!(e.candidates.iter().map(|c| c.line).collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn reads_a_file() {
        let path = std::env::temp_dir().join(format!("transcript-{}.txt", std::process::id()));
        std::fs::write(&path, "Assistant: TODO: from file\n").expect("write temp file");
        let e = extract_path(&path, &["TODO:".to_string()]);
        let _ = std::fs::remove_file(&path);
        let e = e.expect("read temp file");
        assert_eq!(rows(&e), [("from file", "TODO:", Role::Assistant, 1)]);
        assert!(extract_path(Path::new("/nonexistent/transcript"), &[]).is_err());
    }
}
