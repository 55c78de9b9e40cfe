//! The line-level extractor: the common grammar of a notes file (front
//! matter, ATX headings, list items with their first paragraph, plain
//! paragraphs, blank lines, thematic breaks, fenced and indented code,
//! lazy continuation lines) read line by line, without building the
//! Markdown event stream.
//!
//! It yields exactly what the pulldown-cmark walk (`parse_exact`) yields, or
//! nothing at all: the whole document goes back to the full parse as soon as
//! a line holds a construct this reader leaves to pulldown-cmark (a code
//! fence, thematic break or heading inside a list item, an HTML block, a
//! block quote, a table, a setext heading, a link reference definition, a
//! tab in the indentation, an empty list item, a list item whose text opens
//! another block, or an ordered item that may not interrupt a paragraph). The
//! property tests in `tests` check the equality on random documents and on
//! every fixture file.

use super::blank::blank_front_matter;
use super::headings::HeadingMatcher;
use super::markdown::{Lead, ParsedDoc, Sections, entry_from, fold_details, quiet_entry};

/// An open list item.
struct Open {
    /// Column where its content starts (continuation lines reach it).
    content: usize,
    /// Its line.
    line: u32,
}

/// The paragraph open at the current line, if any.
#[derive(Clone, Copy, PartialEq)]
enum Para {
    None,
    /// A paragraph whose text nobody collects.
    Plain,
    /// The first paragraph of pending item `n`.
    Item(usize),
}

/// An item whose first paragraph is being read.
struct Pending {
    line: u32,
    text: std::ops::Range<usize>,
    role: Option<super::Role>,
    session: Option<usize>,
    /// The line of the item it is nested in.
    parent: Option<u32>,
    /// Under a bold lead-in that gives no role.
    quiet: bool,
}

/// Parses `src` (redacted, no BOM) line by line; `None` when it holds a
/// construct left to the full parse.
pub(super) fn parse_lines(src: &str, headings: &HeadingMatcher) -> Option<ParsedDoc> {
    let blanked = blank_front_matter(src);
    let src = &*blanked;
    let b = src.as_bytes();
    if memchr::memmem::find(b, b"]:").is_some() || memchr::memchr(0, b).is_some() {
        return None;
    }
    // A bare `\r` ends a line for the Markdown parser.
    if memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n')) {
        return None;
    }
    let mut doc = ParsedDoc::default();
    let mut sections = Sections::default();
    let mut stack: Vec<Open> = Vec::new();
    let mut para = Para::None;
    let mut pending: Vec<Pending> = Vec::new();
    // The bold lead-in paragraph, for the list that follows it.
    let mut lead: Option<Lead> = None;
    // Whether the plain paragraph being read started at the margin.
    let mut plain_top = false;
    let mut lines = LineIter {
        src,
        pos: 0,
        line: 0,
    };
    while let Some((start, content)) = lines.next() {
        let line_no = lines.line;
        let l = content.as_bytes();
        let indent = l.iter().take_while(|&&c| c == b' ').count();
        let rest = &l[indent..];
        if rest.iter().all(|&c| c == b' ' || c == b'\t') {
            para = Para::None;
            continue;
        }
        if rest[0] == b'\t' {
            return None;
        }
        let k = stack.iter().take_while(|o| indent >= o.content).count();
        let base = if k > 0 { stack[k - 1].content } else { 0 };
        let rel = indent - base;
        let continues = para != Para::None && k == stack.len();
        if rel >= 4 {
            // Paragraph continuation text (lazy when it does not reach the
            // paragraph's item), or indented code.
            if para == Para::None {
                if k == 0 {
                    lead = None;
                }
                stack.truncate(k);
                lines.skip_indented_code(base + 4);
            } else {
                if para == Para::Plain && plain_top {
                    lead = None;
                }
                extend(&mut pending, para, start + l.len());
            }
            continue;
        }
        if para != Para::None && underline(rest) {
            return None;
        }
        match block_start(rest)? {
            Start::Heading(level, text) => {
                if k > 0 {
                    return None;
                }
                stack.clear();
                para = Para::None;
                lead = None;
                let text = heading_text(rest, text)?;
                sections.heading(&mut doc, headings, level, &text, line_no);
            }
            Start::Fence(c, n) => {
                if k > 0 {
                    return None;
                }
                stack.clear();
                para = Para::None;
                lead = None;
                lines.skip_fence(c, n);
            }
            Start::Break => {
                // A break inside a list item leaves the item's text open.
                if k > 0 {
                    return None;
                }
                stack.clear();
                para = Para::None;
                lead = None;
            }
            Start::Item {
                marker,
                number,
                width,
                spaces,
            } => {
                let after = &rest[width + spaces..];
                if spaces == 0 || spaces > 4 || !plain_start(after) {
                    return None;
                }
                if continues && marker != b'-' && marker != b'+' && marker != b'*' && number != 1 {
                    return None;
                }
                stack.truncate(k);
                let parent = stack.last().map(|o| o.line);
                stack.push(Open {
                    content: indent + width + spaces,
                    line: line_no,
                });
                let at = start + indent + width + spaces;
                let (role, quiet) = Lead::role(lead, sections.role());
                pending.push(Pending {
                    line: line_no,
                    text: at..start + l.len(),
                    role,
                    session: sections.session(),
                    parent,
                    quiet,
                });
                para = Para::Item(pending.len() - 1);
            }
            Start::Text => {
                if para != Para::None {
                    // A continuation line; a lazy one (not reaching the
                    // paragraph's item) leaves the items open.
                    if para == Para::Plain && plain_top {
                        lead = None;
                    }
                    extend(&mut pending, para, start + l.len());
                } else {
                    plain_top = k == 0;
                    if plain_top {
                        lead = super::markdown::bold_lead(content, headings);
                    }
                    stack.truncate(k);
                    para = Para::Plain;
                }
            }
        }
    }
    for p in pending {
        if let Some(mut e) = entry_from(src, p.text, false, p.line, p.role, p.session, headings) {
            e.parent = p.parent;
            quiet_entry(&mut e, p.quiet);
            doc.entries.push(e);
        }
    }
    // Heading items were pushed as their headings were met.
    doc.entries.sort_by_key(|e| e.line);
    fold_details(&mut doc.entries);
    Some(doc)
}

fn extend(pending: &mut [Pending], para: Para, end: usize) {
    if let Para::Item(n) = para {
        pending[n].text.end = end;
    }
}

/// Lines of `src` with their start offsets, line ends (`\n`, `\r\n`) cut off.
struct LineIter<'a> {
    src: &'a str,
    pos: usize,
    /// 1-based number of the line last returned.
    line: u32,
}

impl<'a> LineIter<'a> {
    fn next(&mut self) -> Option<(usize, &'a str)> {
        if self.pos >= self.src.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.src.as_bytes()[start..];
        let end = memchr::memchr(b'\n', rest).map_or(self.src.len(), |i| start + i);
        self.pos = if end < self.src.len() { end + 1 } else { end };
        self.line += 1;
        let content = &self.src[start..end];
        Some((start, content.strip_suffix('\r').unwrap_or(content)))
    }

    /// Skips the rest of an indented code block: blank lines and lines
    /// indented by `min` columns or more.
    fn skip_indented_code(&mut self, min: usize) {
        loop {
            let (pos, line) = (self.pos, self.line);
            let Some((_, l)) = self.next() else {
                return;
            };
            let l = l.as_bytes();
            let indent = l.iter().take_while(|&&x| x == b' ').count();
            let blank = l[indent..].iter().all(|&x| x == b' ' || x == b'\t');
            if !blank && (indent < min || l[indent] == b'\t') {
                (self.pos, self.line) = (pos, line);
                return;
            }
        }
    }

    /// Skips the lines of a fenced code block up to and including its
    /// closing fence (fewer than four spaces, at least `n` times `c`, then
    /// spaces), or to the end.
    fn skip_fence(&mut self, c: u8, n: usize) {
        while let Some((_, l)) = self.next() {
            let l = l.as_bytes();
            let indent = l.iter().take_while(|&&x| x == b' ').count();
            let run = l[indent..].iter().take_while(|&&x| x == c).count();
            if indent < 4 && run >= n && l[indent + run..].iter().all(|&x| x == b' ') {
                return;
            }
        }
    }
}

/// What a line (its indentation removed) starts.
enum Start<'a> {
    Heading(u8, &'a [u8]),
    /// A thematic break (or a metadata block's opening line).
    Break,
    /// A code fence: its character and length.
    Fence(u8, usize),
    Item {
        marker: u8,
        number: u64,
        width: usize,
        spaces: usize,
    },
    Text,
}

/// Classifies a line's start; `None` for a construct left to the full parse.
fn block_start(rest: &[u8]) -> Option<Start<'_>> {
    match rest[0] {
        b'>' | b'<' | b'|' => None,
        c @ (b'`' | b'~') if rest.starts_with(&[c; 3]) => {
            let n = rest.iter().take_while(|&&x| x == c).count();
            // A backtick in a backtick fence's info string: not a fence.
            (c == b'~' || !rest[n..].contains(&b'`')).then_some(Start::Fence(c, n))
        }
        b'#' => {
            let level = rest.iter().take_while(|&&c| c == b'#').count();
            match rest.get(level) {
                _ if level > 6 => Some(Start::Text),
                None | Some(b' ') => Some(Start::Heading(level as u8, &rest[level..])),
                Some(b'\t') => None,
                _ => Some(Start::Text),
            }
        }
        b'-' | b'*' | b'_' | b'+' if thematic_break(rest)? => Some(Start::Break),
        b'-' | b'*' | b'+' => match rest.get(1) {
            None => None,
            Some(b' ') => Some(Start::Item {
                marker: rest[0],
                number: 0,
                width: 1,
                spaces: spaces_after(&rest[1..])?,
            }),
            Some(b'\t') => None,
            _ => Some(Start::Text),
        },
        b'0'..=b'9' => {
            let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            match (rest.get(digits), rest.get(digits + 1)) {
                (Some(&d @ (b'.' | b')')), next) if digits <= 9 => match next {
                    None => None,
                    Some(b' ') => Some(Start::Item {
                        marker: d,
                        number: std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?,
                        width: digits + 1,
                        spaces: spaces_after(&rest[digits + 1..])?,
                    }),
                    Some(b'\t') => None,
                    _ => Some(Start::Text),
                },
                _ => Some(Start::Text),
            }
        }
        _ => Some(Start::Text),
    }
}

/// Spaces after a list marker; `None` for an empty item or a tab.
fn spaces_after(after: &[u8]) -> Option<usize> {
    let n = after.iter().take_while(|&&c| c == b' ').count();
    match after.get(n) {
        None | Some(b'\t') => None,
        Some(_) => Some(n),
    }
}

/// Whether the content after a list marker is plain paragraph text (not a
/// heading, quote, fence, HTML, table, nested marker or break).
fn plain_start(after: &[u8]) -> bool {
    // A leading backslash escape starts the parser's text after the backslash.
    !after.is_empty()
        && matches!(block_start(after), Some(Start::Text))
        && !matches!(after[0], b'=' | b'\\')
}

/// A thematic break: three or more `-`, `*` or `_` (the same), spaces
/// between; `None` when a tab makes it unclear.
fn thematic_break(rest: &[u8]) -> Option<bool> {
    let c = rest[0];
    if c == b'+' {
        return Some(false);
    }
    let mut n = 0;
    for &x in rest {
        match x {
            b' ' => {}
            b'\t' => return None,
            x if x == c => n += 1,
            _ => return Some(false),
        }
    }
    Some(n >= 3)
}

/// A line that would underline the open paragraph (setext) or is close to it.
fn underline(rest: &[u8]) -> bool {
    let c = rest[0];
    (c == b'=' || c == b'-')
        && rest
            .iter()
            .all(|&x| x == c || x == b' ' || x == b'\t' || x == b'\r')
}

/// The text of an ATX heading as the parser's text events give it: the
/// content without the closing `#` run; a heading with inline markup is
/// handed to the parser alone (`line`, from its `#`).
fn heading_text(line: &[u8], raw: &[u8]) -> Option<String> {
    let raw = std::str::from_utf8(raw).ok()?;
    let mut t = raw.trim_matches(|c| c == ' ' || c == '\t');
    let bare = t.trim_end_matches('#');
    if bare.is_empty() {
        t = "";
    } else if bare.len() < t.len() && bare.ends_with([' ', '\t']) {
        t = bare.trim_end_matches([' ', '\t']);
    }
    if !t.bytes().any(|c| {
        matches!(
            c,
            b'\\' | b'`' | b'*' | b'_' | b'&' | b'<' | b'[' | b']' | b'!' | b'~'
        )
    }) {
        return Some(t.to_string());
    }
    Some(super::markdown::heading_text(
        std::str::from_utf8(line).ok()?,
    ))
}

#[cfg(test)]
mod tests;
