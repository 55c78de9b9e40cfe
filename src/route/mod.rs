//! `route`: persists follow-ups into durable sources (docs/FORMAT.md §9). Every entry
//! is validated before anything is written; writes happen under the lock,
//! insert lines without touching any other byte, and are idempotent.

mod apply;
mod insert;
mod line_ends;
mod target;

pub use apply::{Plan, apply, plan_batch, route_batch};
pub use insert::{Insertion, eol_of};
pub use target::VaultView;

use crate::error::{EntryProblem, Error, Result};
use crate::item::is_slug;
use jiff::civil::Date;
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

/// Where a follow-up goes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Dest {
    Journal,
    Project,
    Active,
    Skip,
    Goal,
    /// A done entry in the journal: resolves matching items dated that day or before.
    Done,
}

/// One entry of `route --from` (or the single-entry command line form).
/// Other fields are ignored, so `extract --format json` candidates (with
/// `keyword`, `line`, `persisted` …) can be routed once given a `to`.
/// The same type is the MCP `route` tool's entry schema.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(description = "One follow-up to persist, and where.")]
pub struct RouteEntry {
    /// The follow-up, one line.
    pub text: String,
    /// Where it goes.
    pub to: Dest,
    /// Project slug (required for project and active).
    #[serde(default)]
    #[schemars(with = "String")]
    pub project: Option<String>,
    /// Task slug (required for active).
    #[serde(default)]
    #[schemars(with = "String")]
    pub task: Option<String>,
    /// Journal date (YYYY-MM-DD) for journal, skip and goal (default: today).
    #[serde(default)]
    #[schemars(with = "String")]
    pub date: Option<String>,
    /// A captured inbox item (its ID, path:line or text) this entry replaces:
    /// it is ticked in the same locked step, as triaged.
    #[serde(default)]
    #[schemars(with = "String")]
    pub replaces: Option<String>,
}

/// Reads `route --from` input: a JSON array of entries, or the object
/// `extract --format json` prints (its `candidates`). Errors say where
/// (`line L, column C` or `entry N`) and what, separately.
pub fn parse_entries(raw: &str) -> std::result::Result<Vec<RouteEntry>, (String, String)> {
    parse_batch(raw).map(|(entries, _)| entries)
}

/// [`parse_entries`], leaving out the `extract` candidates marked
/// `"persisted": true` (already in the vault: routing them again would
/// add them a second time elsewhere); returns how many were left out.
pub fn parse_batch(raw: &str) -> std::result::Result<(Vec<RouteEntry>, usize), (String, String)> {
    let value: serde_json::Value = serde_json::from_str(raw).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
        (format!("line {}, column {}", e.line(), e.column()), message)
    })?;
    let list = match value {
        serde_json::Value::Array(list) => list,
        serde_json::Value::Object(mut obj) => match obj.remove("candidates") {
            Some(serde_json::Value::Array(list)) => list,
            _ => {
                return Err((
                    "the top level".into(),
                    "an object without a \"candidates\" array".into(),
                ));
            }
        },
        other => {
            return Err((
                "the top level".into(),
                format!("expected an array, found {}", json_kind(&other)),
            ));
        }
    };
    let persisted =
        |v: &serde_json::Value| v.get("persisted") == Some(&serde_json::Value::Bool(true));
    let skipped = list.iter().filter(|v| persisted(v)).count();
    let entries = list
        .into_iter()
        .enumerate()
        .filter(|(_, v)| !persisted(v))
        .map(|(i, v)| {
            RouteEntry::deserialize(v).map_err(|e| (format!("entry {}", i + 1), e.to_string()))
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok((entries, skipped))
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Added,
    AlreadyPresent,
}

#[derive(Debug, Clone, Serialize)]
pub struct RouteResult {
    pub text: String,
    pub to: Dest,
    pub path: String,
    pub line: u32,
    pub status: Status,
    /// Lines inserted by this entry: (first line, count). Earlier results in
    /// the same file at or after that line move down by the count.
    #[serde(skip)]
    pub shift: Option<(u32, u32)>,
    /// The captured inbox item(s) this entry retired, as `path:line`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<String>,
}

/// Keeps the line numbers of a batch's results true after later entries
/// inserted lines above them in the same file.
pub fn settle_lines(results: &mut [RouteResult]) {
    for i in 0..results.len() {
        let Some((first, count)) = results[i].shift else {
            continue;
        };
        let (earlier, rest) = results.split_at_mut(i);
        let path = &rest[0].path;
        for r in earlier
            .iter_mut()
            .filter(|r| &r.path == path && r.line >= first)
        {
            r.line += count;
        }
    }
}

/// A validated entry.
#[derive(Debug, Clone)]
pub struct Checked {
    pub text: String,
    pub to: Dest,
    pub project: Option<String>,
    pub task: Option<String>,
    pub date: Date,
}

fn bad(i: usize, total: usize, problem: EntryProblem) -> Error {
    Error::RouteEntry {
        entry: (total > 1).then_some(i + 1),
        problem,
    }
}

fn check_slug(what: &'static str, v: &str) -> std::result::Result<String, EntryProblem> {
    if is_slug(v) {
        Ok(v.to_ascii_lowercase())
    } else {
        Err(EntryProblem::NotSlug {
            what,
            value: v.to_string(),
        })
    }
}

/// The longest text written as one item, in characters (docs/FORMAT.md §9.2).
pub(crate) const MAX_TEXT_CHARS: usize = 2000;

/// Checks a text about to be written into a vault file as one item: no
/// control character but tab (a NUL would make the scanner skip the whole
/// file), at most [`MAX_TEXT_CHARS`] characters, and balanced `<private>`
/// tags (an unclosed one would hide the file's later lines).
pub(crate) fn check_text(text: &str) -> std::result::Result<(), EntryProblem> {
    if let Some((at, ch)) = text
        .chars()
        .enumerate()
        .find(|&(_, c)| c.is_control() && c != '\t')
    {
        return Err(EntryProblem::ControlChar {
            ch: ch as u32,
            at: at + 1,
        });
    }
    let chars = text.chars().count();
    if chars > MAX_TEXT_CHARS {
        return Err(EntryProblem::TooLong {
            chars,
            max: MAX_TEXT_CHARS,
        });
    }
    if !crate::privacy::is_balanced(text) {
        return Err(EntryProblem::UnbalancedPrivate);
    }
    Ok(())
}

/// Validates every entry; the first problem refuses the whole batch.
pub fn validate(entries: &[RouteEntry], default_date: Date) -> Result<Vec<Checked>> {
    let total = entries.len();
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let text = e.text.trim();
            if text.is_empty() {
                return Err(bad(i, total, EntryProblem::EmptyText));
            }
            if let Some(why) = block_syntax(text) {
                return Err(bad(i, total, EntryProblem::BlockSyntax(why)));
            }
            if text.contains(['\n', '\r']) {
                return Err(bad(i, total, EntryProblem::MultiLine));
            }
            check_text(text).map_err(|p| bad(i, total, p))?;
            let project = e
                .project
                .as_deref()
                .map(|p| check_slug("project", p))
                .transpose()
                .map_err(|m| bad(i, total, m))?;
            let task = e
                .task
                .as_deref()
                .map(|t| check_slug("task", t))
                .transpose()
                .map_err(|m| bad(i, total, m))?;
            if matches!(e.to, Dest::Project | Dest::Active) && project.is_none() {
                return Err(bad(
                    i,
                    total,
                    EntryProblem::NeedsProject {
                        dest: dest_name(e.to),
                    },
                ));
            }
            if e.to == Dest::Active && task.is_none() {
                return Err(bad(i, total, EntryProblem::NeedsTask));
            }
            let date = match &e.date {
                Some(d) => crate::clock::parse_date(d).map_err(|reason| {
                    bad(
                        i,
                        total,
                        EntryProblem::BadDate {
                            value: d.clone(),
                            reason,
                        },
                    )
                })?,
                None => default_date,
            };
            Ok(Checked {
                text: text.to_string(),
                to: e.to,
                project,
                task,
                date,
            })
        })
        .collect()
}

/// Markdown block syntax at the start of a text, which would turn the routed
/// `- TEXT` line into something other than one item with that text.
fn block_syntax(text: &str) -> Option<&'static str> {
    let (check, _) = crate::parse::split_checkbox(text);
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let after_digits = text.as_bytes().get(digits).copied();
    if check.has_box() {
        Some("a checkbox `[ ]`")
    } else if text.starts_with('#') {
        Some("`#` (a heading)")
    } else if text.starts_with('>') {
        Some("`>` (a block quote)")
    } else if text.starts_with("```") || text.starts_with("~~~") {
        Some("a code fence")
    } else if text.starts_with(['-', '*', '+']) && text[1..].starts_with([' ', '\t']) {
        Some("a list marker")
    } else if (1..=9).contains(&digits)
        && matches!(after_digits, Some(b'.' | b')'))
        && text[digits + 1..].starts_with([' ', '\t'])
    {
        Some("an ordered-list marker")
    } else {
        None
    }
}

pub fn dest_name(d: Dest) -> &'static str {
    match d {
        Dest::Journal => "journal",
        Dest::Project => "project",
        Dest::Active => "active",
        Dest::Skip => "skip",
        Dest::Goal => "goal",
        Dest::Done => "done",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(path: &str, line: u32, shift: Option<(u32, u32)>) -> RouteResult {
        RouteResult {
            replaced: Vec::new(),
            text: "t".into(),
            to: Dest::Journal,
            path: path.into(),
            line,
            status: Status::Added,
            shift,
        }
    }

    #[test]
    fn extract_candidates_are_accepted_with_a_destination() {
        let raw = r#"{"schema": 1, "candidates": [
            {"text": "wire it", "keyword": "TODO:", "role": "assistant", "line": 11,
             "persisted": false, "to": "project", "project": "p"}
        ]}"#;
        let e = parse_entries(raw).expect("accepted");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].text, "wire it");
        assert_eq!(e[0].to, Dest::Project);
        let raw = r#"[{"text": "a", "to": "skip", "keyword": "defer"}]"#;
        assert_eq!(parse_entries(raw).expect("accepted")[0].to, Dest::Skip);
    }

    #[test]
    fn input_errors_name_the_place_once() {
        let (at, message) = parse_entries("[{\"text\": \"a\"}, {\"text\": 1}]").unwrap_err();
        assert_eq!(at, "entry 1");
        assert_eq!(message, "missing field `to`");
        let (at, message) = parse_entries("[\n  {\"text\": }").unwrap_err();
        assert_eq!(at, "line 2, column 12");
        assert!(!message.contains("line"), "{message}");
        let (at, _) = parse_entries("{\"x\": 1}").unwrap_err();
        assert_eq!(at, "the top level");
    }

    #[test]
    fn block_syntax_is_refused() {
        for t in [
            "# x", "[ ] x", "[x] y", "> q", "- a", "1. a", "2) b", "```rust",
        ] {
            assert!(block_syntax(t).is_some(), "{t}");
        }
        for t in ["a # b", "-dash", "1.5 release", "[link](u) x", "(p) x", "x"] {
            assert!(block_syntax(t).is_none(), "{t}");
        }
    }

    #[test]
    fn later_insertions_above_move_earlier_results_down() {
        let mut r = vec![
            result("a.md", 19, Some((19, 1))),
            result("b.md", 30, Some((30, 1))),
            result("a.md", 10, Some((9, 3))),
        ];
        settle_lines(&mut r);
        assert_eq!(
            r.iter().map(|x| x.line).collect::<Vec<_>>(),
            vec![22, 30, 10]
        );
    }
}
