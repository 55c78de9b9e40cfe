//! One message's text: follow-up lists under lead-ins, and single sentences.
//!
//! A lead-in (see [`markers::lead_in`]) followed by a list makes each item of
//! the list one candidate; blank lines may come before and between items, a
//! nested item or an indented continuation line stays with its parent item
//! (it is no candidate of its own), and the list ends at the first other line.
//! Fenced code is ignored; lines longer than the configured cap are skipped and
//! counted.

use super::keywords::{Fence, Matcher, list_item_body, strip_checkbox};
use super::markers::{self, Found};

/// A candidate found in a message: text, the phrase that triggered it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) text: String,
    pub(crate) keyword: usize,
    /// 0-based line within the message.
    pub(crate) offset: usize,
}

#[derive(Clone, Copy)]
enum State {
    Prose,
    /// After a lead-in: its keyword, the item indent once seen, whether the lead-in was a heading.
    List {
        keyword: usize,
        indent: Option<usize>,
        heading: bool,
    },
}

fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

fn is_heading(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') && t.trim_start_matches('#').starts_with([' ', '\t'])
}

/// Cleans a list item body into candidate text.
pub(crate) fn item_text(body: &str) -> String {
    markers::tidy_item(strip_checkbox(body))
}

/// Scans the lines of one message. `long` counts skipped over-long lines.
pub(crate) fn scan(matcher: &Matcher, text: &str, max_line: usize, long: &mut usize) -> Vec<Hit> {
    let mut out = Vec::new();
    let mut fence = Fence::default();
    let mut state = State::Prose;
    for (offset, line) in text.lines().enumerate() {
        if fence.is_code(line) {
            continue;
        }
        if line.chars().count() > max_line {
            *long += 1;
            state = State::Prose;
            continue;
        }
        if let State::List {
            keyword,
            indent,
            heading,
        } = state
        {
            if line.trim().is_empty() {
                continue;
            }
            let ind = indent_of(line);
            match (list_item_body(line), indent) {
                (Some(body), None) => {
                    state = State::List {
                        keyword,
                        indent: Some(ind),
                        heading,
                    };
                    push(&mut out, item_text(body), keyword, offset);
                    continue;
                }
                (Some(body), Some(base)) if ind <= base => {
                    push(&mut out, item_text(body), keyword, offset);
                    continue;
                }
                (_, Some(base)) if ind > base => continue,
                (None, None) if heading && !is_heading(line) && line.trim_end().ends_with(':') => {
                    continue;
                }
                _ => state = State::Prose,
            }
        }
        if let Some(keyword) = markers::lead_in(matcher, line) {
            state = State::List {
                keyword,
                indent: None,
                heading: is_heading(line),
            };
            // `Next session: do X` on a lead-in-looking line is a candidate itself.
            if let Some((k, Found::Colon(t))) = markers::find(matcher, line)
                && !t.is_empty()
            {
                push(&mut out, t, k, offset);
            }
            continue;
        }
        for (keyword, found) in markers::find_every(matcher, line) {
            match found {
                Found::Colon(t) if t.is_empty() => {
                    state = State::List {
                        keyword,
                        indent: None,
                        heading: false,
                    }
                }
                Found::Colon(t) | Found::Sentence(t) => push(&mut out, t, keyword, offset),
            }
        }
    }
    out
}

fn push(out: &mut Vec<Hit>, text: String, keyword: usize, offset: usize) {
    if !text.trim().is_empty() {
        out.push(Hit {
            text,
            keyword,
            offset,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m() -> Matcher {
        let kws = [
            "next steps",
            "follow-up",
            "next session",
            "todo",
            "still uncommitted",
        ];
        Matcher::new(&kws.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn texts(text: &str) -> Vec<String> {
        let mut long = 0;
        scan(&m(), text, 400, &mut long)
            .into_iter()
            .map(|h| h.text)
            .collect()
    }

    #[test]
    fn lead_in_lists() {
        let t = "If you agree, the follow-up I'd run as a single small pass:\n\n1. Rename the flag\n   - nested stays\n   continuation\n2. **Drop** the shim\n\nThat is all.\n- not an item";
        assert_eq!(texts(t), ["Rename the flag", "**Drop** the shim"]);
        let t =
            "## Next steps\n\nBefore the release:\n- [ ] Tag v1\n- [x] Done thing\n## Other\n- no";
        assert_eq!(texts(t), ["Tag v1", "Done thing"]);
        let t = "## Next steps\nWe are done here.\n- no";
        assert!(texts(t).is_empty());
    }

    #[test]
    fn sentences_and_code() {
        let t = "```\nTODO: in code\n```\nNext session we should add a retry policy.";
        assert_eq!(texts(t), ["Add a retry policy"]);
    }

    #[test]
    fn long_lines_are_counted() {
        let mut long = 0;
        let line = format!("TODO: {}", "x".repeat(500));
        assert!(scan(&m(), &line, 400, &mut long).is_empty());
        assert_eq!(long, 1);
    }
}
