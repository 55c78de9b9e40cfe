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

/// Strips a trailing `c` followed by an optional variation selector.
fn strip_emoji_suffix(s: &str, c: char) -> Option<&str> {
    let s = s.strip_suffix(VS16).unwrap_or(s);
    s.strip_suffix(c)
}

/// The text before the last occurrence of `c` (with an optional variation
/// selector after it) and the text after it.
fn split_at_last_emoji(s: &str, c: char) -> Option<(&str, &str)> {
    let pos = s.rfind(c)?;
    let after = &s[pos + c.len_utf8()..];
    let after = after.strip_prefix(VS16).unwrap_or(after);
    Some((&s[..pos], after.trim()))
}

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The byte offset just after the last whitespace character (0 when none).
fn after_last_space(s: &str) -> usize {
    s.char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Peels one trailing piece of metadata; `None` when there is none.
fn peel_once<'a>(s: &'a str, meta: &mut TaskMeta, hints: Hints) -> Option<&'a str> {
    // `<date emoji> YYYY-MM-DD` or todo.txt `due:YYYY-MM-DD` / `t:YYYY-MM-DD`.
    if s.len() >= 10
        && let Some(tail) = s.get(s.len() - 10..)
        && let Some(d) = parse_date(tail)
    {
        let before = &s[..s.len() - 10];
        if let Some(head) = before.strip_suffix("due:") {
            if head.is_empty() || head.ends_with(char::is_whitespace) {
                meta.set_date(DateField::Due, d);
                return Some(head);
            }
        } else if let Some(head) = before.strip_suffix("t:")
            && (head.is_empty() || head.ends_with(char::is_whitespace))
        {
            meta.set_date(DateField::Scheduled, d);
            return Some(head);
        }
        let trimmed = before.trim_end();
        for &(c, field) in DATE_EMOJI.iter().filter(|_| !hints.ascii) {
            if let Some(head) = strip_emoji_suffix(trimmed, c) {
                meta.set_date(field, d);
                return Some(head);
            }
        }
    }
    if !hints.ascii
        && let Some(head) = peel_emoji(s, meta)
    {
        return Some(head);
    }
    if s.ends_with(']') || s.ends_with(')') {
        return peel_bracketed(s, meta, hints);
    }
    if s.ends_with('>') {
        return peel_logseq_date(s, meta);
    }
    peel_word(s, meta, hints)
}

/// The emoji fields without a date: priority, recurrence, on-completion,
/// id and dependencies.
fn peel_emoji<'a>(s: &'a str, meta: &mut TaskMeta) -> Option<&'a str> {
    for &(c, p) in PRIORITY_EMOJI {
        if let Some(head) = strip_emoji_suffix(s, c) {
            meta.priority = Some(p);
            return Some(head);
        }
    }
    if let Some((head, after)) = split_at_last_emoji(s, '🔁')
        && !after.is_empty()
        && after
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | ',' | '!'))
    {
        meta.recurrence = Some(after.to_string());
        return Some(head);
    }
    if let Some((head, after)) = split_at_last_emoji(s, '🏁')
        && is_id(after)
    {
        meta.on_completion = Some(after.to_string());
        return Some(head);
    }
    if let Some((head, after)) = split_at_last_emoji(s, '🆔')
        && is_id(after)
    {
        meta.task_id = Some(after.to_string());
        return Some(head);
    }
    if let Some((head, after)) = split_at_last_emoji(s, '⛔') {
        let ids = split_ids(after);
        if !ids.is_empty() && ids.iter().all(|i| is_id(i)) {
            meta.depends_on = ids;
            return Some(head);
        }
    }
    None
}

/// The last whitespace-separated word: a tag, a block id, a todo.txt
/// priority, or a Logseq `key:: value` property.
fn peel_word<'a>(s: &'a str, meta: &mut TaskMeta, hints: Hints) -> Option<&'a str> {
    let start = after_last_space(s);
    let (head, word) = (&s[..start], &s[start..]);
    if let Some(tag) = word.strip_prefix('#')
        && !tag.is_empty()
        && !tag.contains('#')
        && !tag.chars().all(|c| c.is_ascii_digit())
        && tag
            .chars()
            .all(|c| c.is_alphanumeric() || "-_/".contains(c))
        && !head.is_empty()
    {
        meta.tags.insert(0, tag.to_string());
        return Some(head);
    }
    if let Some(id) = word.strip_prefix('^')
        && is_id(id)
        && !head.is_empty()
    {
        meta.block_id = Some(id.to_string());
        return Some(head);
    }
    if let Some(p) = word.strip_prefix("pri:")
        && let Some(pr) = Priority::from_word(p).filter(|_| p.len() == 1)
    {
        meta.priority = Some(pr);
        return Some(head);
    }
    // Logseq property `key:: value` at the end (a continuation line).
    if hints.fields
        && let Some(pos) = s.rfind(":: ")
    {
        let before = &s[..pos];
        let kstart = after_last_space(before);
        let key = &before[kstart..];
        if kstart > 0 && is_id(key) && meta.set_field(key, &s[pos + 3..]) {
            return Some(&s[..kstart]);
        }
    }
    None
}

/// `[key:: value]`, `(key:: value)` or a rollover note at the end.
fn peel_bracketed<'a>(s: &'a str, meta: &mut TaskMeta, hints: Hints) -> Option<&'a str> {
    let close = s.chars().next_back()?;
    let open = if close == ']' { '[' } else { '(' };
    let start = s.rfind(open)?;
    let inner = &s[start + 1..s.len() - 1];
    if hints.fields
        && let Some((key, value)) = inner.split_once("::")
        && is_id(key.trim())
        && meta.set_field(key.trim(), value)
    {
        return Some(&s[..start]);
    }
    if close == ')' && s.ends_with("]])") {
        // Rollover: `(now in [[X]])`, `(moved to [[X]])`, `(rolled over to [[X]])`.
        let start = s.rfind("(")?;
        let inner = &s[start + 1..s.len() - 1];
        let lower = inner.to_ascii_lowercase();
        for lead in ["now in ", "moved to ", "rolled over to ", "rolled to "] {
            if let Some(link) = lower.strip_prefix(lead)
                && link.starts_with("[[")
                && link.ends_with("]]")
            {
                let target = &inner[lead.len() + 2..inner.len() - 2];
                meta.rolled_to = Some(target.to_string());
                return Some(&s[..start]);
            }
        }
    }
    None
}

/// Logseq `SCHEDULED: <2026-05-07 Thu>` / `DEADLINE: <…>` at the end.
fn peel_logseq_date<'a>(s: &'a str, meta: &mut TaskMeta) -> Option<&'a str> {
    let start = s.rfind('<')?;
    let d = parse_date(s.get(start + 1..start + 11)?)?;
    let head = s[..start].trim_end();
    if let Some(h) = head.strip_suffix("SCHEDULED:") {
        meta.set_date(DateField::Scheduled, d);
        return Some(h);
    }
    if let Some(h) = head.strip_suffix("DEADLINE:") {
        meta.set_date(DateField::Due, d);
        return Some(h);
    }
    None
}

fn strip_trailing<'a>(mut s: &'a str, meta: &mut TaskMeta, hints: Hints) -> &'a str {
    // Bounded: every peel removes at least one character.
    while let Some(head) = peel_once(s, meta, hints) {
        let head = head.trim_end();
        if head.len() >= s.len() || head.is_empty() {
            break;
        }
        s = head;
    }
    s
}

/// Removes `[key:: value]` / `(key:: value)` fields with task keys anywhere.
fn strip_inline_fields(s: &str, meta: &mut TaskMeta) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find(['[', '(']) {
        let open = rest.as_bytes()[pos];
        let close = if open == b'[' { ']' } else { ')' };
        let after = &rest[pos + 1..];
        let taken = after.find(close).and_then(|end| {
            let inner = &after[..end];
            let (key, value) = inner.split_once("::")?;
            (is_id(key.trim()) && meta.set_field(key.trim(), value)).then_some(end)
        });
        match taken {
            Some(end) => {
                out.push_str(rest[..pos].trim_end());
                rest = &after[end + 1..];
                if !out.is_empty() && !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
                    out.push(' ');
                }
            }
            None => {
                out.push_str(&rest[..pos + 1]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
