//! Peeling task metadata off the end of a text (Obsidian Tasks emoji
//! fields, todo.txt and Dataview fields, tags, block ids, org dates), and
//! removing Dataview fields with task keys anywhere in it: the field
//! grammar of `parse_task_meta`.

use super::{
    DATE_EMOJI, DateField, Hints, PRIORITY_EMOJI, Priority, TaskMeta, VS16, parse_date, split_ids,
};

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

pub(super) fn strip_trailing<'a>(mut s: &'a str, meta: &mut TaskMeta, hints: Hints) -> &'a str {
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
pub(super) fn strip_inline_fields(s: &str, meta: &mut TaskMeta) -> String {
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
