//! What the readers see of a file: its leading front matter, Logseq/org
//! drawers and lone `-` lines blanked, so both readers (`lines`,
//! `markdown`) parse the same text and line numbers do not move.

/// `src` with its leading front matter (a metadata block opened by a `---`
/// first line) blanked: each of its lines becomes an empty line, so line
/// numbers do not move. A `---` line anywhere else is a thematic break (or a
/// setext underline), never front matter.
///
/// Logseq/org drawers (`:LOGBOOK:` … `:END:`) are written by the tool, not
/// Markdown: each line inside one gets a `:` before its text, so a logged
/// `* State "DONE" from "TODO"` line never opens a list that would cut the
/// item off from its date lines (the item's text drops the whole drawer).
/// A line that is nothing but `-` right after a line with text (an empty
/// Logseq block) is blanked: it is never a setext underline turning the
/// item above into a heading.
pub(super) fn blank_front_matter(src: &str) -> std::borrow::Cow<'_, str> {
    match front_matter_blanked(src) {
        std::borrow::Cow::Borrowed(s) => quote_drawers(s),
        std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(quote_drawers(&s).into_owned()),
    }
}

/// `src` with the lines inside its drawers behind a `:` and its lone `-`
/// lines blanked (see [`blank_front_matter`]); borrowed when there is
/// neither.
fn quote_drawers(src: &str) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = src.split_inclusive('\n').collect();
    // A lone `-` right after a line with text (where it would underline it).
    let mut lone = vec![false; lines.len()];
    for (n, w) in lines.windows(2).enumerate() {
        lone[n + 1] = w[1].trim() == "-" && !w[0].trim().is_empty();
    }
    let has_end = memchr::memmem::find(src.as_bytes(), b":END:").is_some();
    if !has_end && !lone.contains(&true) {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut quote = vec![false; lines.len()];
    let mut i = 0;
    while has_end && i < lines.len() {
        if opens_drawer(lines[i].trim())
            && let Some(end) = lines[i + 1..].iter().position(|l| l.trim() == ":END:")
        {
            for q in &mut quote[i + 1..i + 1 + end] {
                *q = true;
            }
            i += end + 2;
        } else {
            i += 1;
        }
    }
    if !quote.iter().zip(&lines).any(|(q, l)| *q && needs_quote(l)) && !lone.contains(&true) {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out = String::with_capacity(src.len() + 16);
    for ((line, q), lone) in lines.iter().zip(quote).zip(lone) {
        if lone {
            // An empty Logseq block, not a setext underline that would
            // make the line above a heading.
            out.push_str(&line[line.trim_end().len()..]);
        } else if q && needs_quote(line) {
            let body = line.trim_start_matches([' ', '\t']);
            out.push_str(&line[..line.len() - body.len()]);
            out.push(':');
            out.push_str(body);
        } else {
            out.push_str(line);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A drawer line that could open a Markdown block: any with text not
/// already starting with `:`.
fn needs_quote(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    !t.trim_end().is_empty() && !t.starts_with(':')
}

fn front_matter_blanked(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.starts_with("---") || !metadata_opens(src, 0) {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut lines = src.split_inclusive('\n');
    let mut out = String::with_capacity(src.len());
    let mut end = 0;
    if let Some(first) = lines.next() {
        end += first.len();
        out.push('\n');
    }
    for line in lines {
        end += line.len();
        out.push('\n');
        if closes_metadata(line.as_bytes()) {
            break;
        }
    }
    out.push_str(&src[end..]);
    std::borrow::Cow::Owned(out)
}

/// Whether a `---` line at `start` opens a metadata block: the next line is
/// neither blank nor a closing line, and a closing line follows.
fn metadata_opens(src: &str, start: usize) -> bool {
    let b = &src.as_bytes()[start..];
    let first = memchr::memchr(b'\n', b).map_or(b.len(), |i| i + 1);
    if !b[3..first].iter().all(u8::is_ascii_whitespace) || b.get(3) == Some(&b'-') {
        return false;
    }
    let mut rest = &b[first..];
    let mut first_line = true;
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let line = &rest[..end];
        let closed = closes_metadata(line);
        if first_line
            && (closed
                || line
                    .iter()
                    .all(|&c| c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'))
        {
            return false;
        }
        first_line = false;
        if closed {
            return true;
        }
        rest = &rest[end..];
    }
    false
}

/// A metadata block's closing line: `---` or `...`, then spaces, then the line end.
fn closes_metadata(line: &[u8]) -> bool {
    let Some(c @ (b'-' | b'.')) = line.first().copied() else {
        return false;
    };
    let run = line.iter().take_while(|&&x| x == c).count();
    let spaces = line[run..].iter().take_while(|&&x| x == b' ').count();
    run == 3 && matches!(line.get(run + spaces), None | Some(b'\n' | b'\r'))
}

/// A Logseq/org drawer's opening line (`:LOGBOOK:`, `:AGENDA:`,
/// `:PROPERTIES:`): a word of capitals and `_` between colons.
pub(super) fn opens_drawer(t: &str) -> bool {
    t.len() > 2
        && t != ":END:"
        && t.strip_prefix(':')
            .and_then(|r| r.strip_suffix(':'))
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
}
