//! One message's text: follow-up lists under lead-ins, and single sentences.
//!
//! A lead-in (see [`markers::lead_in`]) followed by a list makes each item of
//! the list one candidate; blank lines may come before and between items, a
//! nested item or an indented continuation line stays with its parent item
//! (it is no candidate of its own), and the list ends at the first other line.
//! Items may also follow in prose ([`runon`]): `Next steps: add X; update Y.`
//! after the colon on the lead-in's own line, or a paragraph right after a
//! lead-in whose first sentence opens with a step verb or a connector, give
//! one candidate per item.
//! Fenced code and table rows (`| … |`) are ignored. The length cap applies per
//! sentence: a line longer than the cap is read sentence by sentence (a list
//! item by its first sentence), and each sentence longer than the cap is
//! skipped and counted.

use super::keywords::{Fence, Matcher, list_item_body};
use super::markers::{self, Found};
use super::runon;
use super::sentences::{is_table_row, item_text, sentences};

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

/// Scans the lines of one message. `long` counts skipped over-long sentences.
pub(crate) fn scan(matcher: &Matcher, text: &str, max_line: usize, long: &mut usize) -> Vec<Hit> {
    scan_with(matcher, text, max_line, long, true)
}

/// Lists under lead-ins and `phrase: text` forms only (no sentence candidates).
pub(crate) fn scan_lists(matcher: &Matcher, text: &str, max_line: usize) -> Vec<Hit> {
    let mut long = 0;
    scan_with(matcher, text, max_line, &mut long, false)
}

fn scan_with(
    matcher: &Matcher,
    text: &str,
    max_line: usize,
    long: &mut usize,
    sentence_forms: bool,
) -> Vec<Hit> {
    let mut out = Vec::new();
    let mut fence = Fence::default();
    let mut state = State::Prose;
    // The list item, ending in `:`, whose nested items join it.
    let mut gather: Option<usize> = None;
    for (offset, line) in text.lines().enumerate() {
        if fence.is_code(line) {
            continue;
        }
        if is_table_row(line) {
            state = State::Prose;
            continue;
        }
        if line.chars().count() > max_line {
            let item = match state {
                State::List {
                    keyword,
                    indent,
                    heading,
                } => list_item_body(line)
                    .filter(|_| indent.is_none_or(|base| indent_of(line) <= base))
                    .map(|b| (keyword, b, indent, heading)),
                State::Prose => None,
            };
            state = State::Prose;
            gather = None;
            if let Some((keyword, body, indent, heading)) = item {
                // A long item keeps the list going.
                state = State::List {
                    keyword,
                    indent: indent.or(Some(indent_of(line))),
                    heading,
                };
                match sentences(body).first() {
                    Some(first) if first.chars().count() <= max_line => {
                        push(&mut out, item_text(first), keyword, offset);
                    }
                    _ => *long += 1,
                }
                continue;
            }
            for sentence in sentences(line) {
                if sentence.chars().count() > max_line {
                    *long += 1;
                    continue;
                }
                for (keyword, found) in markers::find_every(matcher, sentence) {
                    match found {
                        Found::Colon(t) if !t.is_empty() => {
                            push_colon(&mut out, t, keyword, offset)
                        }
                        Found::Sentence(t) if sentence_forms => push(&mut out, t, keyword, offset),
                        _ => {}
                    }
                }
            }
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
                    gather = gathers(&out);
                    continue;
                }
                (Some(body), Some(base)) if ind <= base => {
                    push(&mut out, item_text(body), keyword, offset);
                    gather = gathers(&out);
                    continue;
                }
                (nested, Some(base)) if ind > base => {
                    // "Suggested commands:" + nested items: one candidate.
                    if let (Some(body), Some(at)) = (nested, gather) {
                        join_nested(&mut out[at].text, &item_text(body), max_line);
                    }
                    continue;
                }
                (None, None) if heading && !is_heading(line) && line.trim_end().ends_with(':') => {
                    continue;
                }
                (None, None) if !is_heading(line) && opens_steps(line) => {
                    // A run-on list in the paragraph right after the lead-in.
                    for t in runon::items(line) {
                        push(&mut out, t, keyword, offset);
                    }
                    state = State::Prose;
                    continue;
                }
                _ => state = State::Prose,
            }
        }
        // Without sentence forms only a lead-in or a `phrase: text` line counts.
        if !sentence_forms
            && !line.contains([':', '：'])
            && !is_heading(line)
            && !line.trim_start().starts_with("**")
        {
            continue;
        }
        // A lead-in reporting finished work ("已移除别名，仅保留 zh/en：")
        // opens no list.
        if line.trim_end().ends_with([':', '：']) && super::described::describes_done(line) {
            state = State::Prose;
            continue;
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
                push_colon(&mut out, t, k, offset);
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
                Found::Colon(t) => push_colon(&mut out, t, keyword, offset),
                Found::Sentence(t) if sentence_forms => push(&mut out, t, keyword, offset),
                Found::Sentence(_) => {}
            }
        }
    }
    out
}

/// Whether a prose line opens with a step: its first sentence, boilerplate
/// stripped, starts with a step verb or a connector ("Then …").
fn opens_steps(line: &str) -> bool {
    let first = sentences(line).first().map_or("", |s| *s);
    let t = markers::tidy(first.trim_start_matches(['*', '_', ' ', '>']));
    let lower = t.to_lowercase();
    super::steps::step_verb(&t)
        || ["then ", "first, ", "next, "]
            .iter()
            .any(|c| lower.starts_with(c))
}

/// The last candidate, when it is a list item ending in `:` that its nested
/// items complete (they stay with their parent, as one candidate).
fn gathers(out: &[Hit]) -> Option<usize> {
    out.last()
        .filter(|h| h.text.trim_end().ends_with([':', '：']))
        .map(|_| out.len() - 1)
}

/// Appends a nested item to its parent's text: after the colon, then after
/// `; `, while the text stays within `max_line` characters.
fn join_nested(parent: &mut String, item: &str, max_line: usize) {
    if item.is_empty() || parent.chars().count() + item.chars().count() + 2 > max_line {
        return;
    }
    if parent.trim_end().ends_with([':', '：']) {
        parent.truncate(parent.trim_end().len());
        parent.push(' ');
    } else {
        parent.push_str("; ");
    }
    parent.push_str(item);
}

/// The text after `phrase:`: one candidate, or one per item of a run-on list.
fn push_colon(out: &mut Vec<Hit>, text: String, keyword: usize, offset: usize) {
    if runon::is_list(&text) {
        for t in runon::items(&text) {
            push(out, t, keyword, offset);
        }
    } else {
        push(out, text, keyword, offset);
    }
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
    fn run_on_lists_after_a_lead_in() {
        let t = "Next steps: add a retry queue; move the settings file — users asked. Then tag v2.";
        assert_eq!(
            texts(t),
            ["Add a retry queue", "Move the settings file", "Tag v2"]
        );
        let t = "## Next steps\nI'd add a `--json` flag first; then update the docs.\n\nBye.";
        assert_eq!(texts(t), ["Add a `--json` flag first", "Update the docs"]);
        assert_eq!(
            texts("TODO: wire it. It is needed for the export."),
            ["wire it. It is needed for the export."]
        );
    }

    #[test]
    fn sentences_and_code() {
        let t = "```\nTODO: in code\n```\nNext session we should add a retry policy.";
        assert_eq!(texts(t), ["Add a retry policy"]);
    }

    #[test]
    fn long_lines_are_read_by_sentence() {
        let mut long = 0;
        let line = format!("TODO: {}", "x".repeat(500));
        assert!(scan(&m(), &line, 400, &mut long).is_empty());
        assert_eq!(long, 1);
        let line = format!(
            "{} done. Still uncommitted: `docs/a.md` and `docs/b.md`. {}",
            "x ".repeat(150),
            "y".repeat(420)
        );
        let mut long = 0;
        let got: Vec<String> = scan(&m(), &line, 400, &mut long)
            .into_iter()
            .map(|h| h.text)
            .collect();
        assert_eq!(
            (got, long),
            (vec!["`docs/a.md` and `docs/b.md`.".to_string()], 1)
        );
        let list = format!("Next steps:\n- Tag v1. {}\n- Ship", "z ".repeat(250));
        assert_eq!(texts(&list), ["Tag v1", "Ship"]);
    }

    #[test]
    fn table_rows_are_never_candidates() {
        assert!(texts("| a | TODO: keep this cell |\n|---|---|").is_empty());
        let t = "## Next steps\n| step | who |\n|---|---|\n| tag | me |";
        assert!(texts(t).is_empty());
        assert!(scan_lists(&m(), "Next session we should add a retry policy.", 400).is_empty());
    }
}
