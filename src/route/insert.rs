//! Where a routed line goes inside a Markdown file, as a byte offset and the
//! exact text to insert there. Nothing else in the file changes, and the
//! file's own line ending is used.

use crate::parse::{HeadingInfo, ParsedDoc, Role, SessionProject, session_project};

/// An insertion: `text` goes at byte `offset`; the routed item lands on `line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insertion {
    pub offset: usize,
    pub text: String,
    pub line: u32,
    /// The first line the inserted block occupies, and how many lines it adds.
    pub first_line: u32,
    pub added_lines: u32,
}

impl Insertion {
    pub fn apply(&self, original: &str) -> String {
        let mut out = String::with_capacity(original.len() + self.text.len());
        out.push_str(&original[..self.offset]);
        out.push_str(&self.text);
        out.push_str(&original[self.offset..]);
        out
    }
}

/// The file's line ending: CRLF when its first line ends that way.
pub fn eol_of(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// Byte offsets where each line starts (index 0 = line 1).
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if starts.last() == Some(&text.len()) && !text.is_empty() {
        starts.pop();
    }
    if text.is_empty() {
        starts.clear();
    }
    starts
}

struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines {
            text,
            starts: line_starts(text),
        }
    }

    fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    fn line(&self, n: u32) -> &'a str {
        let i = n as usize - 1;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        &self.text[self.starts[i]..end]
    }

    /// The last non-blank line in `from..=to` (1-based, inclusive).
    fn last_nonblank(&self, from: u32, to: u32) -> u32 {
        (from..=to)
            .rev()
            .find(|&n| !self.line(n).trim().is_empty())
            .unwrap_or(from)
    }

    /// Whether the list items on lines `from..=to` are written with
    /// checkboxes (most of them, and at least one).
    fn uses_checkboxes(&self, doc: &ParsedDoc, from: u32, to: u32) -> bool {
        let (boxed, plain) = doc
            .entries
            .iter()
            .filter(|e| (from..=to).contains(&e.line))
            .fold((0, 0), |(b, p), e| {
                if has_checkbox(self.line(e.line)) {
                    (b + 1, p)
                } else {
                    (b, p + 1)
                }
            });
        boxed > 0 && boxed >= plain
    }

    /// The last line of the list that holds the item on `line`: the
    /// following lines up to a blank line, as long as each is a list item or
    /// an indented continuation.
    fn list_end(&self, line: u32) -> u32 {
        let mut end = line;
        while end < self.count() {
            let next = self.line(end + 1);
            let t = next.trim();
            if t.is_empty() || !(is_list_item(t) || next.starts_with([' ', '\t'])) {
                break;
            }
            end += 1;
        }
        end
    }

    /// An insertion of `lines` right after line `after` (0 = start of file).
    /// `item_index` is the index in `lines` of the routed item.
    fn after(&self, after: u32, lines: &[String], item_index: usize, eol: &str) -> Insertion {
        let (offset, mut text) = if after == 0 {
            (0, String::new())
        } else {
            let l = self.line(after);
            let end = self.starts[after as usize - 1] + l.len();
            let prefix = if l.ends_with('\n') {
                String::new()
            } else {
                eol.to_string()
            };
            (end, prefix)
        };
        for l in lines {
            text.push_str(l);
            text.push_str(eol);
        }
        // Text right after the new item would continue its paragraph (and a
        // setext underline would turn both into a heading): keep a blank line.
        let next = after + 1;
        if next <= self.count() {
            let following = self.line(next).trim();
            if !following.is_empty() && !following.starts_with('#') && !is_list_item(following) {
                text.push_str(eol);
            }
        }
        let added_lines = text.matches('\n').count() as u32;
        Insertion {
            offset,
            text,
            line: after + 1 + item_index as u32,
            first_line: after + 1,
            added_lines,
        }
    }
}

/// The last line of the text directly under heading `h`, before any other
/// heading: an item placed there belongs to `h` itself, whatever sub-headings
/// follow (bounded by `limit`).
fn own_end(doc: &ParsedDoc, h: &HeadingInfo, limit: u32) -> u32 {
    doc.headings
        .iter()
        .find(|o| o.line > h.line)
        .map_or(limit, |o| (o.line - 1).min(limit))
}

/// The last line of the section opened by heading `h` (until the next heading
/// of the same or a higher level, bounded by `limit`).
fn section_end(doc: &ParsedDoc, h: &HeadingInfo, limit: u32) -> u32 {
    doc.headings
        .iter()
        .find(|o| o.line > h.line && o.level <= h.level)
        .map_or(limit, |o| (o.line - 1).min(limit))
}

/// Inserts `item` in the journal: in the last session section for `project`
/// (one that names no project when `project` is None), under the sub-heading
/// of `role`, creating the section and sub-heading when absent.
pub(super) fn journal(
    text: &str,
    doc: &ParsedDoc,
    known: &[String],
    project: Option<&str>,
    role: Role,
    sub_heading: &str,
    item: &str,
) -> Insertion {
    let eol = eol_of(text);
    let lines = Lines::new(text);
    let total = lines.count();
    let wanted = match project {
        Some(p) => SessionProject::Project(p.to_string()),
        None => SessionProject::NoProject,
    };
    let session = doc
        .headings
        .iter()
        .rfind(|h| h.session.is_some() && session_project(&h.text, known) == wanted);
    let Some(session) = session else {
        let title = match project {
            Some(p) => format!("## Session: follow-ups ({p})"),
            None => "## Session: follow-ups".to_string(),
        };
        let last = if total == 0 {
            0
        } else {
            lines.last_nonblank(1, total)
        };
        let mut block = Vec::new();
        if last > 0 {
            block.push(String::new());
        }
        block.extend([
            title,
            String::new(),
            format!("### {sub_heading}"),
            String::new(),
            item.to_string(),
        ]);
        let idx = block.len() - 1;
        return lines.after(last, &block, idx, eol);
    };
    let end = section_end(doc, session, total);
    let sub = doc
        .headings
        .iter()
        .find(|h| h.line > session.line && h.line <= end && h.level > 2 && h.role == Some(role));
    match sub {
        Some(sub) => {
            let sub_end = own_end(doc, sub, end);
            let last = lines.last_nonblank(sub.line, sub_end);
            // A follow-up joins its list in the list's own style.
            let boxed = role == Role::Next && lines.uses_checkboxes(doc, sub.line, sub_end);
            let item = if boxed {
                with_checkbox(item)
            } else {
                item.to_string()
            };
            lines.after(last, &[item], 0, eol)
        }
        None => {
            let last = lines.last_nonblank(session.line, end);
            let block = [
                String::new(),
                format!("### {sub_heading}"),
                String::new(),
                item.to_string(),
            ];
            lines.after(last, &block, 3, eol)
        }
    }
}

/// Inserts `item` at the end of the first Next section (creating
/// `## Next Session` at the end of the file when there is none).
pub(super) fn project(text: &str, doc: &ParsedDoc, item: &str) -> Insertion {
    let eol = eol_of(text);
    let lines = Lines::new(text);
    let total = lines.count();
    match doc.headings.iter().find(|h| h.role == Some(Role::Next)) {
        Some(h) => {
            let end = own_end(doc, h, total);
            let last = lines.last_nonblank(h.line, end);
            lines.after(last, &[item.to_string()], 0, eol)
        }
        None => {
            let last = if total == 0 {
                0
            } else {
                lines.last_nonblank(1, total)
            };
            let mut block = Vec::new();
            if last > 0 {
                block.push(String::new());
            }
            block.extend([
                "## Next Session".to_string(),
                String::new(),
                item.to_string(),
            ]);
            let idx = block.len() - 1;
            lines.after(last, &block, idx, eol)
        }
    }
}

/// A list item line that starts with a checkbox (`- [ ]`, `* [x]`, `1. [ ]`).
fn has_checkbox(line: &str) -> bool {
    let t = line.trim_start();
    let rest = t
        .strip_prefix(['-', '*', '+'])
        .or_else(|| {
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            (digits > 0)
                .then(|| t[digits..].strip_prefix(['.', ')']))
                .flatten()
        })
        .unwrap_or("");
    let rest = rest.trim_start();
    rest.len() >= 3 && rest.starts_with('[') && rest.as_bytes()[2] == b']'
}

/// A line (trimmed) that starts a list item.
fn is_list_item(t: &str) -> bool {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 {
        t[digits..].strip_prefix(['.', ')'])
    } else {
        t.strip_prefix(['-', '*', '+'])
    };
    rest.is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
}

/// `- text` → `- [ ] text`.
fn with_checkbox(item: &str) -> String {
    match item.strip_prefix("- ") {
        Some(rest) => format!("- [ ] {rest}"),
        None => item.to_string(),
    }
}

/// Inserts `item` at the end of the task's open list: the list holding the
/// last open checkbox item (else the last checkbox item), so text after that
/// list (a `Notes:` paragraph and its own list) stays after it; at the end of
/// the file when the file has no checkbox item.
pub(super) fn task_list(text: &str, doc: &ParsedDoc, item: &str) -> Insertion {
    let lines = Lines::new(text);
    let boxed = |open: bool| {
        doc.entries
            .iter()
            .filter(|e| has_checkbox(lines.line(e.line)) && (!open || !e.check.is_done()))
            .map(|e| e.line)
            .max()
    };
    match boxed(true).or_else(|| boxed(false)) {
        Some(line) => lines.after(lines.list_end(line), &[item.to_string()], 0, eol_of(text)),
        None => end_of_file(text, item),
    }
}

/// Inserts `item` after the last non-blank line of the file (after a blank
/// line when that last line is a heading).
pub(super) fn end_of_file(text: &str, item: &str) -> Insertion {
    let eol = eol_of(text);
    let lines = Lines::new(text);
    let total = lines.count();
    let last = if total == 0 {
        0
    } else {
        lines.last_nonblank(1, total)
    };
    if last > 0 && lines.line(last).trim_start().starts_with('#') {
        return lines.after(last, &[String::new(), item.to_string()], 1, eol);
    }
    lines.after(last, &[item.to_string()], 0, eol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{HeadingMatcher, parse_document};

    fn doc(t: &str) -> ParsedDoc {
        parse_document(
            t,
            &HeadingMatcher::from_config(&crate::config::Config::default()),
        )
    }

    fn known() -> Vec<String> {
        vec!["wrap-cli".into()]
    }

    #[test]
    fn appends_to_existing_next_list() {
        let t = "# d\n\n## Session: a (wrap-cli)\n\n### Next\n- one\n\n### Done\n- x\n";
        let ins = journal(
            t,
            &doc(t),
            &known(),
            Some("wrap-cli"),
            Role::Next,
            "Next",
            "- (wrap-cli) two",
        );
        let out = ins.apply(t);
        assert_eq!(
            out,
            "# d\n\n## Session: a (wrap-cli)\n\n### Next\n- one\n- (wrap-cli) two\n\n### Done\n- x\n"
        );
        assert_eq!(ins.line, 7);
    }

    #[test]
    fn creates_subsection_in_last_matching_session() {
        let t = "## Session: a (wrap-cli)\n- note\n## Session: b (wrap-cli)\ntext\n\n## Other\n";
        let ins = journal(
            t,
            &doc(t),
            &known(),
            Some("wrap-cli"),
            Role::Skipped,
            "Skipped follow-ups",
            "- s",
        );
        assert_eq!(
            ins.apply(t),
            "## Session: a (wrap-cli)\n- note\n## Session: b (wrap-cli)\ntext\n\n### Skipped follow-ups\n\n- s\n\n## Other\n"
        );
        assert_eq!(ins.line, 8);
    }

    #[test]
    fn creates_session_at_end_keeping_crlf() {
        let t = "# 2026-05-06\r\n\r\nprose";
        let ins = journal(
            t,
            &doc(t),
            &known(),
            Some("wrap-cli"),
            Role::Next,
            "Next",
            "- x",
        );
        assert_eq!(
            ins.apply(t),
            "# 2026-05-06\r\n\r\nprose\r\n\r\n## Session: follow-ups (wrap-cli)\r\n\r\n### Next\r\n\r\n- x\r\n"
        );
        assert_eq!(ins.line, 9);
    }

    #[test]
    fn project_next_session_and_eof() {
        let t = "# p\n\n## Backlog\n- [ ] b\n\n## Next Session\n- [ ] a\n\n## Done\n";
        let ins = project(t, &doc(t), "- [ ] new");
        assert_eq!(ins.line, 8);
        assert!(ins.apply(t).contains("- [ ] a\n- [ ] new\n\n## Done"));
        let t2 = "# p\n";
        assert_eq!(
            project(t2, &doc(t2), "- [ ] n").apply(t2),
            "# p\n\n## Next Session\n\n- [ ] n\n"
        );
        assert_eq!(
            end_of_file("- [ ] a\n\n\n", "- [ ] b").apply("- [ ] a\n\n\n"),
            "- [ ] a\n- [ ] b\n\n\n"
        );
        assert_eq!(end_of_file("", "- [ ] b").apply(""), "- [ ] b\n");
        assert_eq!(
            end_of_file("# t\n", "- [ ] b").apply("# t\n"),
            "# t\n\n- [ ] b\n"
        );
    }
}
