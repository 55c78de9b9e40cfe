//! `<private>…</private>` redaction: a state machine over a whole file or
//! message, so a span hides everything up to its matching close tag across
//! list items, lines, blank lines and nested spans.
//!
//! Tags match ASCII-case-insensitively: `<private>`, `<private >`,
//! `<private class="x">` open (`<private/>` is empty), `</private>` and
//! `</private >` close. An open span is replaced by one `[private]` where it
//! starts; every byte inside it is dropped except line breaks, so line
//! numbers stay true. An unclosed span hides the rest of the text.

use std::borrow::Cow;

pub const REDACTED: &str = "[private]";

const NAME: &[u8] = b"private";

/// What a `<` starts.
enum Tag {
    Open(usize),
    Close(usize),
    Empty(usize),
}

/// The private tag starting at `b[0] == b'<'`, with its length. Attributes
/// may not span lines.
fn tag_at(b: &[u8]) -> Option<Tag> {
    let close = b.get(1) == Some(&b'/');
    let name_at = if close { 2 } else { 1 };
    let name = b.get(name_at..name_at + NAME.len())?;
    if !name.eq_ignore_ascii_case(NAME) {
        return None;
    }
    let rest = &b[name_at + NAME.len()..];
    match rest.first()? {
        b'>' => Some(if close { Tag::Close } else { Tag::Open }(
            name_at + NAME.len() + 1,
        )),
        c if c.is_ascii_whitespace() || (*c == b'/' && !close) => {
            let end = rest
                .iter()
                .take(4096)
                .position(|&c| c == b'>' || c == b'\n')?;
            if rest[end] != b'>' {
                return None;
            }
            let len = name_at + NAME.len() + end + 1;
            let inner = &rest[..end];
            if close {
                inner
                    .iter()
                    .all(u8::is_ascii_whitespace)
                    .then_some(Tag::Close(len))
            } else if inner.last() == Some(&b'/') {
                Some(Tag::Empty(len))
            } else {
                Some(Tag::Open(len))
            }
        }
        _ => None,
    }
}

/// The redaction state carried from one piece of text to the next (line by
/// line for streamed transcripts).
#[derive(Debug, Default, Clone)]
pub struct Redactor {
    depth: usize,
}

impl Redactor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a span is open after the text seen so far.
    pub fn is_open(&self) -> bool {
        self.depth > 0
    }

    /// Redacts the next piece of text, continuing any span left open.
    ///
    /// Jumps between the bytes that matter with `memchr`: outside a span
    /// only `<` can change anything; inside one, `<` and the line breaks
    /// that are kept.
    pub fn feed<'a>(&mut self, text: &'a str) -> Cow<'a, str> {
        let b = text.as_bytes();
        if self.depth == 0 && !may_hold_tag(b) {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        // Start of the visible run not yet copied.
        let mut run = 0;
        let mut i = 0;
        while i < b.len() {
            let next = if self.depth == 0 {
                memchr::memchr(b'<', &b[i..])
            } else {
                memchr::memchr2(b'<', b'\n', &b[i..])
            };
            let Some(off) = next else {
                break;
            };
            let at = i + off;
            if b[at] == b'\n' {
                // Inside a span: the line break is kept, the rest dropped.
                out.push('\n');
                i = at + 1;
                run = i;
                continue;
            }
            let Some(tag) = tag_at(&b[at..]) else {
                i = at + 1;
                if self.depth > 0 {
                    run = i;
                }
                continue;
            };
            if self.depth == 0 {
                out.push_str(&text[run..at]);
            }
            let len = match tag {
                Tag::Open(len) => {
                    if self.depth == 0 {
                        out.push_str(REDACTED);
                    }
                    self.depth += 1;
                    len
                }
                Tag::Close(len) if self.depth > 0 => {
                    self.depth -= 1;
                    len
                }
                // A stray close tag or an empty element hides nothing.
                Tag::Close(len) | Tag::Empty(len) => {
                    if self.depth == 0 {
                        out.push_str(&text[at..at + len]);
                    }
                    len
                }
            };
            i = at + len;
            run = i;
        }
        if self.depth == 0 {
            out.push_str(&text[run..]);
        }
        Cow::Owned(out)
    }
}

/// Whether `b` may hold a private tag (a quick filter: `memchr` to each `<`).
fn may_hold_tag(b: &[u8]) -> bool {
    memchr::memchr_iter(b'<', b).any(|at| {
        let rest = &b[at + 1..];
        let rest = rest.strip_prefix(b"/").unwrap_or(rest);
        rest.get(..NAME.len())
            .is_some_and(|name| name.eq_ignore_ascii_case(NAME))
    })
}

/// The contents of every outermost span of `text`, with the 1-based line
/// it opens on (an unclosed span runs to the end). For comparing private
/// contents without showing them (`guards::private_mark`).
pub fn spans(text: &str) -> Vec<(u32, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    if !may_hold_tag(b) {
        return out;
    }
    let (mut depth, mut start, mut line, mut start_line) = (0usize, 0usize, 1u32, 1u32);
    // Offset up to which line breaks are counted in `line`.
    let mut counted = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let at = i + off;
        let Some(tag) = tag_at(&b[at..]) else {
            i = at + 1;
            continue;
        };
        line += memchr::memchr_iter(b'\n', &b[counted..at]).count() as u32;
        counted = at;
        match tag {
            Tag::Open(len) => {
                if depth == 0 {
                    start = at + len;
                    start_line = line;
                }
                depth += 1;
                i = at + len;
            }
            Tag::Close(len) if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push((start_line, &text[start..at]));
                }
                i = at + len;
            }
            Tag::Close(len) | Tag::Empty(len) => i = at + len,
        }
    }
    if depth > 0 {
        out.push((start_line, &text[start..]));
    }
    out
}

/// Whether every `<private>` of `text` is closed by a `</private>` and
/// every `</private>` closes one: a text that can be put into a file
/// without changing what the file's other lines hide.
pub fn is_balanced(text: &str) -> bool {
    let b = text.as_bytes();
    if !may_hold_tag(b) {
        return true;
    }
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let at = i + off;
        match tag_at(&b[at..]) {
            None => i = at + 1,
            Some(Tag::Open(len)) => {
                depth += 1;
                i = at + len;
            }
            Some(Tag::Close(len)) => {
                let Some(d) = depth.checked_sub(1) else {
                    return false;
                };
                depth = d;
                i = at + len;
            }
            Some(Tag::Empty(len)) => i = at + len,
        }
    }
    depth == 0
}

/// Redacts a whole text (a file, a message, an item): every span replaced
/// by `[private]`, line breaks inside spans kept.
pub fn redact(text: &str) -> Cow<'_, str> {
    Redactor::new().feed(text)
}

#[cfg(test)]
mod tests;
