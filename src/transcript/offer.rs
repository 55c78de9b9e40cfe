//! Closing offers: the agent's question that offers more work at the end of the
//! session's last message ("Want me to clean up the old branches?", "Ready to
//! build. Start on the parser?"), or the same offer as a statement ("If you
//! want, I can add retries to the uploader next.", "I can also wire the
//! exporter if you'd like."). Nobody answered it — the session ended — so
//! the offered work is a follow-up. A question answered by a later user
//! message is never read (the reply decides), and neither is one that offers
//! nothing specific ("Want me to continue?", "Anything else?").
//!
//! Only the last two prose lines of the message count; fenced code and table
//! rows are skipped, and so are sentences over the line cap.

use super::keywords::{Fence, list_item_body};
use super::markers::tidy;
use super::sentences::{is_table_row, sentences};

/// Question openings that offer work; the work follows.
#[rustfmt::skip]
const OPENERS: &[&str] = &[
    "want me to ", "do you want me to ", "would you like me to ", "should i ", "shall i ",
    "should we ", "shall we ", "want to ", "do you want to ", "would you like to ",
    "ready for me to ", "ok to ", "okay to ",
];

/// Statement openings that offer work; the work follows (a trailing "if you'd
/// like" / "next" is dropped).
#[rustfmt::skip]
const STATEMENTS: &[&str] = &[
    "if you want, i can ", "if you'd like, i can ", "if you like, i can ", "if you want i can ",
    "if you'd like i can ", "i can also ", "next, i can ",
];

/// First words of an offered statement that offer talk, not work ("walk you
/// through it", "explain the trade-offs").
#[rustfmt::skip]
const TALK: &[&str] = &[
    "explain", "walk", "discuss", "clarify", "answer", "help", "look", "dig", "talk", "go",
    "elaborate", "share", "show", "tell", "point", "suggest", "recommend", "outline", "sketch",
];

/// Tails of an offered statement, dropped.
const TAILS: &[&str] = &[
    " if you'd like",
    " if you want",
    " if you like",
    " if useful",
    " if helpful",
    " next",
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
            if s.chars().count() > max_line {
                continue;
            }
            let s = s.trim_start_matches(['*', '_', '>', ' ']);
            let step = if s.ends_with(['?', '？']) {
                offered(s)
            } else {
                stated(s)
            };
            out.extend(step.map(|step| (step, offset)));
        }
    }
    out
}

/// The work of an offer made as a statement, if `sentence` is one.
fn stated(sentence: &str) -> Option<String> {
    let lower = super::lower::lower(sentence);
    let o = STATEMENTS.iter().find(|o| lower.starts_with(*o))?;
    let mut step = sentence[o.len()..].trim_end_matches(['.', '!', ' ']);
    let first = step.split_whitespace().next().unwrap_or("").to_lowercase();
    if TALK.contains(&first.as_str()) {
        return None;
    }
    for t in TAILS {
        if super::lower::lower(step).ends_with(t) {
            step = &step[..step.len() - t.len()];
        }
    }
    specific(step)
}

/// The step as a candidate when it names specific work.
fn specific(step: &str) -> Option<String> {
    let specific = step
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.len() >= 4 && !VAGUE.contains(&w.to_lowercase().as_str()));
    let t = tidy(step);
    (specific && t.split_whitespace().count() >= 2).then_some(t)
}

fn offered(question: &str) -> Option<String> {
    let lower = super::lower::lower(question);
    let step = match OPENERS.iter().find(|o| lower.starts_with(*o)) {
        Some(o) => &question[o.len()..],
        None => {
            let first = lower.split_whitespace().next().unwrap_or("");
            STEPS.contains(&first).then_some(question)?
        }
    };
    specific(step)
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
    fn offers_as_statements() {
        assert_eq!(
            texts("Shipped.\n\nIf you want, I can add retries to the uploader next."),
            ["Add retries to the uploader"]
        );
        assert_eq!(
            texts("Done. I can also wire the exporter into the CLI if you'd like."),
            ["Wire the exporter into the CLI"]
        );
        assert!(texts("Done. If you want, I can continue.").is_empty());
        assert!(texts("If you want, I can walk you through the changes.").is_empty());
        assert!(texts("Happy to walk through any of them.").is_empty());
        assert!(texts("I can see the logs now.\n\nThe build is green.").is_empty());
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
