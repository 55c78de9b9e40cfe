//! Task metadata written inside an item's text: Obsidian Tasks emoji,
//! Dataview inline fields, todo.txt tokens, Logseq/org keywords, trailing
//! `#tags`, a trailing block id and rollover notes.
//!
//! [`parse_task_meta`] takes an item's text (checkbox and project tag already
//! removed) and returns the text a reader means, with every recognised piece
//! of metadata removed, plus the metadata as fields. Both the item text shown
//! on the dashboard and the matching key are built from the cleaned text, so
//! `Fix login 📅 2026-05-10 ⏫` and `Fix login` are the same item.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Task priority, highest first (Obsidian Tasks' five levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    Highest,
    High,
    Medium,
    Low,
    Lowest,
}

impl Priority {
    /// Rank for sorting: an item without a priority sits between medium and
    /// low, as Obsidian Tasks' "normal".
    pub(crate) fn rank(p: Option<Priority>) -> u8 {
        match p {
            Some(Priority::Highest) => 0,
            Some(Priority::High) => 1,
            Some(Priority::Medium) => 2,
            None => 3,
            Some(Priority::Low) => 4,
            Some(Priority::Lowest) => 5,
        }
    }

    fn from_word(w: &str) -> Option<Priority> {
        match w.trim().to_ascii_lowercase().as_str() {
            "highest" | "a" => Some(Priority::Highest),
            "high" | "b" => Some(Priority::High),
            "medium" | "c" => Some(Priority::Medium),
            "low" | "d" => Some(Priority::Low),
            "lowest" | "e" => Some(Priority::Lowest),
            _ => None,
        }
    }
}

/// A status stated by the text itself (not by a checkbox): a Logseq/org
/// keyword, a todo.txt `x DATE` prefix, a whole item struck through, or a
/// done/cancelled date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextStatus {
    Open,
    InProgress,
    Done,
    Cancelled,
}

/// Metadata found in an item's text. Every field is empty when absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskMeta {
    /// Status from a leading keyword, `x DATE`, or `~~whole item~~`.
    pub status: Option<TextStatus>,
    pub created: Option<Date>,
    pub scheduled: Option<Date>,
    pub start: Option<Date>,
    pub due: Option<Date>,
    pub done_on: Option<Date>,
    pub cancelled_on: Option<Date>,
    pub priority: Option<Priority>,
    /// `🔁 every week` / `[repeat:: …]`.
    pub recurrence: Option<String>,
    /// `🏁 delete` / `[onCompletion:: …]`.
    pub on_completion: Option<String>,
    /// `🆔 abc123` / `[id:: …]`.
    pub task_id: Option<String>,
    /// `⛔ a,b` / `[dependsOn:: …]`.
    pub depends_on: Vec<String>,
    /// Trailing `#tags`, without the `#`, in written order.
    pub tags: Vec<String>,
    /// Trailing ` ^block-id`.
    pub block_id: Option<String>,
    /// Target of a rollover note such as `(now in [[2026-05-07]])`.
    pub rolled_to: Option<String>,
}

impl TaskMeta {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        *self == TaskMeta::default()
    }
}

/// The date emoji of Obsidian Tasks and the field each one sets.
const DATE_EMOJI: &[(char, DateField)] = &[
    ('➕', DateField::Created),
    ('⏳', DateField::Scheduled),
    ('⌛', DateField::Scheduled),
    ('🛫', DateField::Start),
    ('📅', DateField::Due),
    ('📆', DateField::Due),
    ('🗓', DateField::Due),
    ('✅', DateField::Done),
    ('❌', DateField::Cancelled),
];

const PRIORITY_EMOJI: &[(char, Priority)] = &[
    ('🔺', Priority::Highest),
    ('⏫', Priority::High),
    ('🔼', Priority::Medium),
    ('🔽', Priority::Low),
    ('⏬', Priority::Lowest),
];

const VS16: char = '\u{fe0f}';

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DateField {
    Created,
    Scheduled,
    Start,
    Due,
    Done,
    Cancelled,
}

impl TaskMeta {
    fn set_date(&mut self, field: DateField, d: Date) {
        let slot = match field {
            DateField::Created => &mut self.created,
            DateField::Scheduled => &mut self.scheduled,
            DateField::Start => &mut self.start,
            DateField::Due => &mut self.due,
            DateField::Done => &mut self.done_on,
            DateField::Cancelled => &mut self.cancelled_on,
        };
        // Peeling goes from the end: the first value written wins.
        *slot = Some(d);
    }

    /// A Dataview / Logseq field; false when the key is not a task field.
    fn set_field(&mut self, key: &str, value: &str) -> bool {
        let value = value.trim();
        let date = || parse_date(value.get(..10).unwrap_or(value));
        let field = match key.to_ascii_lowercase().as_str() {
            "due" => DateField::Due,
            "scheduled" => DateField::Scheduled,
            "start" => DateField::Start,
            "created" => DateField::Created,
            "completion" | "done" | "completed" => DateField::Done,
            "cancelled" | "canceled" => DateField::Cancelled,
            "priority" => {
                self.priority = Priority::from_word(value).or(self.priority);
                return true;
            }
            "repeat" | "recurrence" => {
                self.recurrence = Some(value.to_string());
                return true;
            }
            "oncompletion" => {
                self.on_completion = Some(value.to_string());
                return true;
            }
            "id" => {
                self.task_id = Some(value.to_string());
                return true;
            }
            "dependson" => {
                self.depends_on = split_ids(value);
                return true;
            }
            _ => return false,
        };
        match date() {
            Some(d) => {
                self.set_date(field, d);
                true
            }
            None => false,
        }
    }
}

fn split_ids(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect()
}

/// `YYYY-MM-DD` exactly.
pub(crate) fn parse_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<i32> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    Date::new(
        digits(0..4)? as i16,
        digits(5..7)? as i8,
        digits(8..10)? as i8,
    )
    .ok()
}

/// What a text can hold at all, found in one pass over its bytes, so the
/// peeling below skips the searches that cannot match (most texts are ASCII
/// without `::`).
#[derive(Debug, Clone, Copy)]
struct Hints {
    /// No emoji (or any other non-ASCII character).
    ascii: bool,
    /// Holds `::` (a Dataview or Logseq field).
    fields: bool,
}

fn has_double_colon(s: &str) -> bool {
    s.as_bytes().windows(2).any(|w| w == b"::")
}

/// Whether a text can hold any metadata this module knows (a cheap pre-check:
/// most item texts are plain ASCII without these characters).
fn may_hold_meta(text: &str) -> bool {
    let b = text.as_bytes();
    // Two vectorised searches for the six marker bytes (`#^:` and `)]~`):
    // a byte-by-byte test of all six was 3% of a whole scan of the L vault.
    !text.is_ascii()
        || memchr::memchr3(b'#', b'^', b':', b).is_some()
        || memchr::memchr3(b')', b']', b'~', b).is_some()
        || text.starts_with(['x', '('])
        || KEYWORDS.iter().any(|(k, _)| text.starts_with(k))
}

/// Parses and removes task metadata; returns the cleaned text and the fields.
///
/// The cleaned text is the input when nothing was found (no allocation).
/// Rules: leading Logseq/org keywords (`TODO LATER NOW DOING WAITING DONE
/// CANCELED CANCELLED`, with an optional `[#A]` priority), todo.txt `x DATE`
/// (done) and `(A)` priority with an optional creation date; from the end, in
/// any order: Obsidian Tasks emoji fields (variation selector optional),
/// Dataview `[key:: value]` / `(key:: value)` and Logseq `key:: value`,
/// todo.txt `due:` `t:` `pri:`, `#tags`, a ` ^block-id`, `SCHEDULED: <…>` /
/// `DEADLINE: <…>`, and a rollover note `(now in [[…]])`; Dataview fields
/// with task keys anywhere in the text; and a whole item inside `~~…~~`
/// (cancelled).
pub(crate) fn parse_task_meta(text: &str) -> (Cow<'_, str>, TaskMeta) {
    let mut meta = TaskMeta::default();
    if !may_hold_meta(text) {
        return (Cow::Borrowed(text), meta);
    }
    let mut s = text.trim();
    let hints = Hints {
        ascii: text.is_ascii(),
        fields: has_double_colon(text),
    };
    s = strip_leading(s, &mut meta);
    s = strip_trailing(s, &mut meta, hints);
    let mut out: Cow<'_, str> = Cow::Borrowed(s);
    if hints.fields {
        let inner = strip_inline_fields(s, &mut meta);
        if inner != s {
            out = Cow::Owned(inner);
        }
    }
    if meta.status.is_none()
        && let Some(rest) = bare_check_mark(&out)
    {
        meta.status = Some(TextStatus::Done);
        out = Cow::Owned(rest.to_string());
    }
    if meta.status.is_none() && struck_title_resolved(&out) {
        meta.status = Some(TextStatus::Done);
    }
    if let Some(inner) = whole_strike(&out) {
        meta.status = Some(TextStatus::Cancelled);
        out = Cow::Owned(inner.trim().to_string());
    }
    if meta.status.is_none() {
        if meta.cancelled_on.is_some() {
            meta.status = Some(TextStatus::Cancelled);
        } else if meta.done_on.is_some() {
            meta.status = Some(TextStatus::Done);
        }
    }
    if out.is_empty() {
        // Nothing but metadata: keep the text as written.
        return (Cow::Borrowed(text.trim()), meta);
    }
    (out, meta)
}

/// A `✅` without a date at the start or the end of the text (a done mark):
/// the text without it.
fn bare_check_mark(s: &str) -> Option<&str> {
    const MARKS: [&str; 2] = ["\u{2705}\u{fe0f}", "\u{2705}"];
    for m in MARKS {
        if let Some(rest) = s.strip_prefix(m)
            && rest.starts_with(char::is_whitespace)
            && !rest.trim().is_empty()
        {
            return Some(rest.trim());
        }
        if let Some(head) = s.strip_suffix(m)
            && head.ends_with(char::is_whitespace)
            && !head.trim().is_empty()
        {
            return Some(head.trim());
        }
    }
    None
}

/// A leading struck-through title followed by a note that says it is
/// settled: `~~Flaky upload test~~ — resolved by the retry fix`.
fn struck_title_resolved(s: &str) -> bool {
    let Some(after) = s.strip_prefix("~~") else {
        return false;
    };
    let Some(end) = after.find("~~") else {
        return false;
    };
    let rest = after[end + 2..].to_lowercase();
    if end == 0 || rest.trim().is_empty() {
        return false;
    }
    const SETTLED: &[&str] = &[
        "resolved",
        "fixed",
        "done",
        "completed",
        "closed",
        "merged",
        "shipped",
        "superseded",
        "obsolete",
        "not needed",
        "no longer",
        "해결",
        "완료",
        "解決",
        "完了",
    ];
    SETTLED.iter().any(|w| rest.contains(w))
}

/// `~~inner~~` spanning the whole text, with no other `~~` inside.
fn whole_strike(s: &str) -> Option<&str> {
    let inner = s.strip_prefix("~~")?.strip_suffix("~~")?;
    (!inner.contains("~~") && !inner.trim().is_empty()).then_some(inner)
}

const KEYWORDS: &[(&str, TextStatus)] = &[
    ("TODO", TextStatus::Open),
    ("LATER", TextStatus::Open),
    ("WAITING", TextStatus::Open),
    ("NOW", TextStatus::InProgress),
    ("DOING", TextStatus::InProgress),
    ("DONE", TextStatus::Done),
    ("CANCELED", TextStatus::Cancelled),
    ("CANCELLED", TextStatus::Cancelled),
];

/// Splits the first word (up to whitespace); `None` when there is no rest.
fn first_word(s: &str) -> Option<(&str, &str)> {
    let end = s.find(char::is_whitespace)?;
    Some((&s[..end], s[end..].trim_start()))
}

fn strip_leading<'a>(mut s: &'a str, meta: &mut TaskMeta) -> &'a str {
    // Logseq / org keyword, then an optional `[#A]` priority.
    if let Some((word, rest)) = first_word(s)
        && let Some(&(_, status)) = KEYWORDS.iter().find(|(k, _)| *k == word)
        && !rest.is_empty()
    {
        meta.status = Some(status);
        s = rest;
        if let Some(p) = s.strip_prefix("[#")
            && let Some((inner, after)) = p.split_once(']')
            && let Some(pr) = match inner {
                "A" => Some(Priority::High),
                "B" => Some(Priority::Medium),
                "C" => Some(Priority::Low),
                _ => None,
            }
            && after.starts_with(char::is_whitespace)
        {
            meta.priority = Some(pr);
            s = after.trim_start();
        }
        return s;
    }
    // todo.txt: `x DONE-DATE [CREATED-DATE] text`.
    if let Some(rest) = s.strip_prefix("x ")
        && let Some((d, rest)) = first_word(rest)
        && let Some(done) = parse_date(d)
    {
        meta.status = Some(TextStatus::Done);
        meta.done_on = Some(done);
        s = rest;
        if let Some((d, rest)) = first_word(s)
            && let Some(created) = parse_date(d)
        {
            meta.created = Some(created);
            s = rest;
        }
        return s;
    }
    // todo.txt: `(A) [CREATED-DATE] text`.
    let b = s.as_bytes();
    if b.len() > 4 && b[0] == b'(' && b[1].is_ascii_uppercase() && b[2] == b')' && b[3] == b' ' {
        meta.priority = Priority::from_word(&s[1..2]).or(Some(Priority::Lowest));
        s = s[4..].trim_start();
        if let Some((d, rest)) = first_word(s)
            && let Some(created) = parse_date(d)
        {
            meta.created = Some(created);
            s = rest;
        }
    }
    s
}

mod peel;
#[cfg(test)]
mod tests;

use peel::{strip_inline_fields, strip_trailing};
