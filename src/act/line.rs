//! Byte-preserving edits of one list item's lines: the checkbox mark, and a
//! metadata field appended at the end of the item's text. Everything else in
//! the file, line endings included, stays as it was.

use jiff::civil::Date;
use std::ops::Range;

/// Byte ranges of every line of `text`, each without its line ending.
fn lines(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            let end = if i > start && text.as_bytes()[i - 1] == b'\r' {
                i - 1
            } else {
                i
            };
            out.push(start..end);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// The list marker and spacing at the start of a line: the offset where the
/// item's content begins, or `None` when the line does not open a list item.
fn content_start(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut i = 0;
    // Indentation and block-quote markers.
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'>') {
        i += 1;
    }
    match b.get(i)? {
        b'-' | b'*' | b'+' => i += 1,
        c if c.is_ascii_digit() => {
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 9 || !matches!(b.get(i + digits), Some(b'.' | b')')) {
                return None;
            }
            i += digits + 1;
        }
        _ => return None,
    }
    let spaces = b[i..]
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    (spaces > 0 || i == b.len()).then_some(i + spaces)
}

/// The byte range of the checkbox mark (`x` in `[x]`) on an item's first line.
pub(crate) fn checkbox_mark(line: &str) -> Option<Range<usize>> {
    let start = content_start(line)?;
    let rest = &line[start..];
    let mut chars = rest.char_indices();
    match (chars.next(), chars.next(), chars.next()) {
        (Some((_, '[')), Some((m, mark)), Some((close, ']'))) => {
            let after = &rest[close + 1..];
            (after.is_empty() || after.starts_with([' ', '\t']))
                .then(|| start + m..start + m + mark.len_utf8())
        }
        _ => None,
    }
}

/// Sets the checkbox mark of the item starting on 1-based `line` to `mark`.
pub(super) fn set_mark(text: &str, line: u32, mark: char) -> Option<String> {
    let range = lines(text).get(line.checked_sub(1)? as usize)?.clone();
    let m = checkbox_mark(&text[range.clone()])?;
    let at = range.start + m.start..range.start + m.end;
    let mut out = String::with_capacity(text.len() + 2);
    out.push_str(&text[..at.start]);
    out.push(mark);
    out.push_str(&text[at.end..]);
    Some(out)
}

/// The last line of the item's first paragraph: the item's line and the
/// lines that continue it (non-blank, not a new item, heading, quote or fence).
fn paragraph_end(all: &[Range<usize>], text: &str, first: usize) -> usize {
    let mut last = first;
    for (n, r) in all.iter().enumerate().skip(first + 1) {
        let l = text[r.clone()].trim_start();
        let stops = l.is_empty()
            || content_start(&text[r.clone()]).is_some()
            || l.starts_with(['#', '>', '|'])
            || l.starts_with("```")
            || l.starts_with("~~~")
            || l.starts_with("<!--");
        if stops {
            break;
        }
        last = n;
    }
    last
}

/// How a file writes task metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaStyle {
    /// Obsidian Tasks emoji (`🛫 2026-05-10`).
    Tasks,
    /// Dataview inline fields (`[start:: 2026-05-10]`).
    Dataview,
}

const TASKS_EMOJI: [&str; 12] = [
    "✅", "📅", "📆", "🗓", "🛫", "⏳", "⌛", "➕", "❌", "🔁", "🆔", "⛔",
];
const DATAVIEW_KEYS: [&str; 6] = [
    "[due::",
    "[start::",
    "[scheduled::",
    "[completion::",
    "[created::",
    "[cancelled::",
];

/// The metadata style a file already uses, if any (Dataview wins only when
/// the file has Dataview task fields and no Tasks emoji).
pub(crate) fn style_of(text: &str) -> Option<MetaStyle> {
    if TASKS_EMOJI.iter().any(|e| text.contains(e)) {
        Some(MetaStyle::Tasks)
    } else if DATAVIEW_KEYS.iter().any(|k| text.contains(k)) {
        Some(MetaStyle::Dataview)
    } else {
        None
    }
}

/// A date field in the given style.
pub(super) fn field(style: MetaStyle, emoji: &str, key: &str, date: Date) -> String {
    match style {
        MetaStyle::Tasks => format!("{emoji} {date}"),
        MetaStyle::Dataview => format!("[{key}:: {date}]"),
    }
}

/// Where a date written after `marker` starts on `l`, and where it ends.
fn dated_field(l: &str, marker: &str) -> Option<Range<usize>> {
    let at = l.find(marker)? + marker.len();
    let rest = &l[at..];
    let skip = rest.len() - rest.trim_start_matches(['\u{fe0f}', ' ']).len();
    let date_start = at + skip;
    let candidate = l.get(date_start..date_start + 10)?;
    candidate
        .parse::<Date>()
        .is_ok()
        .then_some(date_start..date_start + 10)
}

/// Sets a date field on the item starting on `line`: replaces the date of an
/// existing field of that kind, else appends ` FIELD` at the end of the
/// item's first paragraph (before a trailing ` ^block-id`).
pub(super) fn set_date_field(
    text: &str,
    line: u32,
    style: MetaStyle,
    emoji: &str,
    key: &str,
    date: Date,
) -> Option<String> {
    let all = lines(text);
    let first = line.checked_sub(1)? as usize;
    all.get(first)?;
    let last = paragraph_end(&all, text, first);
    for r in &all[first..=last] {
        let l = &text[r.clone()];
        let existing = dated_field(l, emoji).or_else(|| dated_field(l, &format!("[{key}::")));
        if let Some(d) = existing {
            let at = r.start + d.start..r.start + d.end;
            return Some(format!("{}{date}{}", &text[..at.start], &text[at.end..]));
        }
    }
    let r = all[last].clone();
    let l = &text[r.clone()];
    let trimmed = l.trim_end();
    // Before a trailing block id (` ^abc-1`), which must stay last.
    let insert_at = match trimmed.rfind(" ^") {
        Some(i)
            if trimmed[i + 2..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && i + 2 < trimmed.len() =>
        {
            r.start + i
        }
        _ => r.start + trimmed.len(),
    };
    let f = field(style, emoji, key, date);
    Some(format!("{} {f}{}", &text[..insert_at], &text[insert_at..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    #[test]
    fn marks_are_found_after_list_markers_only() {
        assert_eq!(checkbox_mark("- [ ] a"), Some(3..4));
        assert_eq!(checkbox_mark("  * [?] a"), Some(5..6));
        assert_eq!(checkbox_mark("> 12. [ ] a"), Some(7..8));
        assert_eq!(checkbox_mark("- [✓] a"), Some(3..6));
        assert_eq!(checkbox_mark("- a [ ] b"), None);
        assert_eq!(checkbox_mark("[ ] a"), None);
        assert_eq!(checkbox_mark("-[ ] a"), None);
        assert_eq!(checkbox_mark("- [link] a"), None);
    }

    #[test]
    fn set_mark_keeps_every_other_byte() {
        let text = "# t\r\n\r\n- [ ] one\r\n- [ ] two\r\n";
        assert_eq!(
            set_mark(text, 4, 'x').unwrap(),
            "# t\r\n\r\n- [ ] one\r\n- [x] two\r\n"
        );
        assert_eq!(set_mark(text, 1, 'x'), None);
        assert_eq!(set_mark(text, 9, 'x'), None);
        assert_eq!(set_mark("- [ ] a", 1, '-').unwrap(), "- [-] a");
    }

    #[test]
    fn styles() {
        assert_eq!(style_of("- [ ] a 📅 2026-05-01\n"), Some(MetaStyle::Tasks));
        assert_eq!(
            style_of("- [ ] a [due:: 2026-05-01]\n"),
            Some(MetaStyle::Dataview)
        );
        assert_eq!(style_of("- [ ] a\n"), None);
    }

    #[test]
    fn date_fields_append_or_replace() {
        let t = "- [ ] a 📅 2026-05-01\r\n- [ ] b\r\n";
        assert_eq!(
            set_date_field(t, 2, MetaStyle::Tasks, "🛫", "start", d("2026-06-01")).unwrap(),
            "- [ ] a 📅 2026-05-01\r\n- [ ] b 🛫 2026-06-01\r\n"
        );
        let t = "- [ ] a 🛫 2026-05-01 ^blk\n";
        assert_eq!(
            set_date_field(t, 1, MetaStyle::Tasks, "🛫", "start", d("2026-06-01")).unwrap(),
            "- [ ] a 🛫 2026-06-01 ^blk\n"
        );
        let t = "- [ ] a ^blk-1\n";
        assert_eq!(
            set_date_field(t, 1, MetaStyle::Dataview, "🛫", "start", d("2026-06-01")).unwrap(),
            "- [ ] a [start:: 2026-06-01] ^blk-1\n"
        );
        let t = "- a long item\n  that continues\n- next\n";
        assert_eq!(
            set_date_field(t, 1, MetaStyle::Tasks, "✅", "completion", d("2026-06-01")).unwrap(),
            "- a long item\n  that continues ✅ 2026-06-01\n- next\n"
        );
        let t = "- [ ] a [start:: 2026-05-01]\n";
        assert_eq!(
            set_date_field(t, 1, MetaStyle::Dataview, "🛫", "start", d("2026-06-01")).unwrap(),
            "- [ ] a [start:: 2026-06-01]\n"
        );
    }
}
