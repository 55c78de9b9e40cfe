//! A pre-pass that blanks plain prose paragraphs before the Markdown parser
//! sees them, so the parser does not spend its time on inline syntax that
//! can never hold an item. Line breaks are kept, so line numbers do not move.
//!
//! A paragraph is blanked only when it is safe: it follows a blank line (or
//! starts the file), none of its lines is indented or starts with a
//! character that can open or continue a block (`- * + # > ` ~ < | = _`,
//! a digit, `[`, `!`, `\`, or `...`, which closes a metadata block that
//! an earlier `---` line opened), and the next line that is not blank starts at
//! the margin (an indented one would otherwise join a list the paragraph
//! closes). Such a paragraph cannot be a list item, a lazy continuation, a
//! heading, a fence, an HTML block or a table, and it cannot change how
//! anything around it parses. Leading front matter is never touched, nor is
//! a paragraph that starts right after it.

/// Whether a line could start or continue something other than plain prose.
fn special(line: &str) -> bool {
    match line.as_bytes().first() {
        None => false,
        Some(b' ' | b'\t') => true,
        Some(&b) => {
            matches!(
                b,
                b'-' | b'*'
                    | b'+'
                    | b'#'
                    | b'>'
                    | b'`'
                    | b'~'
                    | b'<'
                    | b'|'
                    | b'='
                    | b'_'
                    | b'['
                    | b'!'
                    | b'\\'
            ) || b.is_ascii_digit()
                // `...` closes a metadata block that a `---` line opened.
                || line.starts_with("...")
        }
    }
}

/// The end (byte offset after its closing line) of a leading front matter block.
fn front_matter_end(src: &str) -> usize {
    let mut lines = src.split_inclusive('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => {}
        _ => return 0,
    }
    let mut end = src.split_inclusive('\n').next().map_or(0, str::len);
    for line in lines {
        end += line.len();
        let t = line.trim_end();
        if t == "---" || t == "..." {
            return end;
        }
    }
    src.len()
}

/// `src` with every safe prose paragraph's characters removed (line breaks kept).
pub(super) fn blank_prose(src: &str) -> std::borrow::Cow<'_, str> {
    let start = front_matter_end(src);
    let mut run: Vec<(usize, usize)> = Vec::new();
    let mut run_safe = true;
    // The line right after a leading `---` block is kept: when the parser
    // does not take that block as front matter (its first line is blank),
    // its closing `---` may open a metadata block whose first line this is.
    let mut after_blank = start == 0;
    // A safe paragraph that ended at a blank line, blanked only if the next
    // line that is not blank starts at the margin: an indented one would
    // otherwise join a list the paragraph closes.
    let mut held: Vec<(usize, usize)> = Vec::new();
    let mut pos = start;
    // Collect the byte ranges to blank, then build the result once.
    let mut blank: Vec<(usize, usize)> = Vec::new();
    for line in src[start..].split_inclusive('\n') {
        let (a, b) = (pos, pos + line.len());
        pos = b;
        let content = line.trim_end_matches(['\n', '\r']);
        if content.bytes().all(|b| b == b' ' || b == b'\t') {
            if run_safe && !run.is_empty() {
                held = std::mem::take(&mut run);
            }
            run.clear();
            run_safe = true;
            after_blank = true;
            continue;
        }
        if !matches!(content.as_bytes()[0], b' ' | b'\t') {
            blank.append(&mut held);
        }
        held.clear();
        if run.is_empty() {
            run_safe = after_blank;
        }
        if special(content) {
            run_safe = false;
        }
        run.push((a, a + content.len()));
        after_blank = false;
    }
    blank.append(&mut held);
    if run_safe {
        blank.extend(run.iter().copied());
    }
    if blank.is_empty() {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out = String::with_capacity(src.len());
    let mut last = 0;
    for (a, b) in blank {
        out.push_str(&src[last..a]);
        last = b;
    }
    out.push_str(&src[last..]);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_only_safe_prose_and_keeps_lines() {
        let src = "---\ntitle: x\nplain yaml\n---\n\nSome prose here.\nMore prose.\n\n## Next\n- [ ] item\nlazy continuation\n\nText\n===\n\n<div>\nhtml text\n</div>\n";
        let out = blank_prose(src);
        assert_eq!(
            out,
            "---\ntitle: x\nplain yaml\n---\n\n\n\n\n## Next\n- [ ] item\nlazy continuation\n\nText\n===\n\n<div>\nhtml text\n</div>\n"
        );
        assert_eq!(out.matches('\n').count(), src.matches('\n').count());
    }

    #[test]
    fn the_line_right_after_a_leading_dash_block_is_kept() {
        let src = "---\n\n---\nSome prose here.\n\n# Title\n---\n";
        assert_eq!(blank_prose(src), src);
        let src = "---\ntitle: x\n---\n\nprose\n";
        assert_eq!(blank_prose(src), "---\ntitle: x\n---\n\n\n");
    }

    #[test]
    fn a_dots_line_that_closes_a_metadata_block_is_kept() {
        // Only the leading block is front matter: the second `---` is a
        // thematic break, and the item after it is read.
        let src = "---\ntitle: x\n---\n---\n- [ ] a\n\n...\n";
        assert_eq!(blank_prose(src), src);
        let doc = crate::parse::parse_document(
            src,
            &crate::parse::HeadingMatcher::from_config(&crate::config::Config::default()),
        );
        assert_eq!(doc.entries.len(), 1);
    }

    #[test]
    fn a_paragraph_right_after_a_block_is_kept() {
        let src = "- item\nnot after a blank line\n\n2. x\n";
        assert_eq!(blank_prose(src), src);
        let crlf = "a\r\n\r\nprose\r\n";
        assert_eq!(blank_prose(crlf), "\r\n\r\n\r\n");
    }

    #[test]
    fn a_paragraph_closing_a_list_stays_when_an_indented_line_follows() {
        // Blanked, the paragraph would let the indented item join the list.
        let src = "- [ ] a\n\nprose\n\n    - [ ] b\n";
        assert_eq!(blank_prose(src), src);
        let src = "- [ ] a\n\nprose\n\n- [ ] b\n";
        assert_eq!(blank_prose(src), "- [ ] a\n\n\n\n- [ ] b\n");
    }
}
