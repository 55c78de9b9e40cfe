//! Line and sentence helpers shared by the message readers: a list item's
//! text, the sentences of a line, and whether a line is a table row.

use super::keywords::strip_checkbox;
use super::markers;

/// Cleans a list item body into candidate text.
pub(crate) fn item_text(body: &str) -> String {
    markers::tidy_item(strip_checkbox(body))
}

/// The sentences of `line`, split after `.`, `!`, `?` (and their CJK forms)
/// followed by a space or the end, outside `code spans`.
pub(crate) fn sentences(line: &str) -> Vec<&str> {
    // Without a sentence end the line is one sentence.
    if memchr::memchr3(b'.', b'!', b'?', line.as_bytes()).is_none()
        && (line.is_ascii() || !line.contains(['。', '！', '？']))
    {
        let t = line.trim();
        return if t.is_empty() { Vec::new() } else { vec![t] };
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut code = false;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '`' {
            code = !code;
        }
        let next_blank = chars.peek().is_none_or(|&(_, n)| n.is_whitespace());
        if !code && matches!(c, '.' | '!' | '?' | '。' | '！' | '？') && next_blank {
            out.push(&line[start..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    out.push(&line[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

pub(crate) fn is_table_row(line: &str) -> bool {
    line.trim_start().starts_with('|')
}
