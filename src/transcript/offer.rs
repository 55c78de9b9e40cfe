//! Closing offers: the agent's question that offers more work at the end of the
//! session's last message ("Want me to clean up the old branches?", "Ready to
//! build. Start on the parser?"). Nobody answered it — the session ended — so
//! the offered work is a follow-up. A question answered by a later user
//! message is never read (the reply decides), and neither is one that offers
//! nothing specific ("Want me to continue?", "Anything else?").
//!
//! Only the last two prose lines of the message count; fenced code and table
//! rows are skipped, and so are sentences over the line cap.

use super::keywords::{Fence, list_item_body};
use super::markers::tidy;
use super::structure::{is_table_row, sentences};

/// Question openings that offer work; the work follows.
#[rustfmt::skip]
const OPENERS: &[&str] = &[
    "want me to ", "do you want me to ", "would you like me to ", "should i ", "shall i ",
    "should we ", "shall we ", "want to ", "do you want to ", "would you like to ",
    "ready for me to ", "ok to ", "okay to ",
];

/// Verbs that open a bare offered step ("Start on the parser?").
#[rustfmt::skip]
const STEPS: &[&str] = &[
    "start", "begin", "proceed", "continue", "implement", "build", "add", "write", "create",
    "deploy", "commit", "push", "run", "clean", "move", "wire", "migrate", "set",
];

/// Words that say nothing about the work itself.
#[rustfmt::skip]
const VAGUE: &[&str] = &[
    "go", "ahead", "proceed", "continue", "with", "this", "that", "it", "now", "do", "anything",
    "else", "more", "something", "next", "the", "on", "to", "and", "or", "them", "these", "those",
    "start", "keep", "going", "next", "step", "steps", "help", "further",
];

/// The offered work of the closing question(s) of `text`.
pub(crate) fn closing(text: &str, max_line: usize) -> Vec<(String, usize)> {
    let mut fence = Fence::default();
    let prose: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !fence.is_code(l) && !is_table_row(l) && !l.trim().is_empty())
        .collect();
    let mut out = Vec::new();
    for &(offset, line) in prose.iter().rev().take(2).rev() {
        let line = list_item_body(line).unwrap_or(line);
        for s in sentences(line) {
            if !s.ends_with(['?', '？']) || s.chars().count() > max_line {
                continue;
            }
            if let Some(step) = offered(s.trim_start_matches(['*', '_', '>', ' '])) {
                out.push((step, offset));
            }
        }
    }
    out
}

fn offered(question: &str) -> Option<String> {
    let lower = question.to_lowercase();
    let step = match OPENERS.iter().find(|o| lower.starts_with(*o)) {
        Some(o) => &question[o.len()..],
        None => {
            let first = lower.split_whitespace().next().unwrap_or("");
            STEPS.contains(&first).then_some(question)?
        }
    };
    let specific = step
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.len() >= 4 && !VAGUE.contains(&w.to_lowercase().as_str()));
    let t = tidy(step);
    (specific && t.split_whitespace().count() >= 2).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        closing(text, 400).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn offers_closing_the_message() {
        assert_eq!(
            texts("Done.\n\nWant me to clean up the stale feature branches?"),
            ["Clean up the stale feature branches"]
        );
        assert_eq!(
            texts("Plan is set. Ready to build. Start wiring the parser into the CLI?"),
            ["Start wiring the parser into the CLI"]
        );
        assert_eq!(
            texts("Want me to (a) add retries, (b) log failures, or (c) both?"),
            ["(a) add retries, (b) log failures, or (c) both"]
        );
    }

    #[test]
    fn vague_or_earlier_questions_are_no_offer() {
        assert!(texts("Done. Want me to continue?").is_empty());
        assert!(texts("Anything else?").is_empty());
        assert!(texts("Should I go ahead with this?").is_empty());
        assert!(texts("Want me to add tests?\n\nFirst line.\nSecond line.").is_empty());
        assert!(texts("Is the parser right?").is_empty());
        assert!(texts("```\nWant me to drop the table?\n```").is_empty());
    }
}
