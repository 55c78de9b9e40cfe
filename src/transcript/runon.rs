//! Run-on lists: the items a lead-in introduces in prose rather than as a
//! Markdown list, on its own line after the colon or in the paragraph that
//! follows ("Next steps: add a retry queue; move the settings file — users
//! asked for it. Then drop the legacy index.").
//!
//! The text is cut at `; ` (outside code spans) and into sentences. A `;`
//! part is an item unless it explains the one before it (no step verb or
//! connector at its start, and `is`, `are`, `has`, `will`, … in its first
//! four words: "deploy to Vercel; the config is ready"); a further sentence
//! is an item only when it opens with a step verb or a connector ("Then …",
//! "Also …") — otherwise it explains the item before it and is dropped. A
//! comma list whose every part opens with a step verb ("add tests, update
//! the docs and tag v2") gives one item per part; two steps joined by a lone
//! `and` stay one item. An explanation after a dash (" — why") is dropped, connectors
//! and boilerplate are stripped (`markers::tidy`), questions and parts of one
//! word are dropped; at most [`MAX_ITEMS`] items.

use super::markers::tidy;
use super::sentences::sentences;
use super::steps::step_verb;

/// At most this many items from one lead-in.
pub(crate) const MAX_ITEMS: usize = 8;

/// Connectors that open a further item, dropped from its text.
const CONNECTORS: &[&str] = &[
    "first, ",
    "second, ",
    "third, ",
    "then, ",
    "then ",
    "next, ",
    "finally, ",
    "after that, ",
    "also, ",
    "also ",
    "and then ",
    "and ",
    "plus ",
];

fn connector(text: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    CONNECTORS
        .iter()
        .find(|c| lower.starts_with(*c))
        .map(|c| c.len())
}

/// `text` cut at `sep` outside `code spans`.
fn split_outside_code<'a>(text: &'a str, sep: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut code = false;
    for (i, c) in text.char_indices() {
        if c == '`' {
            code = !code;
        }
        if !code && text[i..].starts_with(sep) && i >= start {
            out.push(&text[start..i]);
            start = i + sep.len();
        }
    }
    out.push(&text[start..]);
    out
}

/// Drops an explanation after a dash: "Add X — users asked" gives "Add X".
fn drop_why(text: &str) -> &str {
    [" — ", " – ", " -- ", " - "]
        .iter()
        .filter_map(|d| split_outside_code(text, d).first().copied())
        .min_by_key(|h| h.len())
        .unwrap_or(text)
}

/// The parts of a comma list whose every part opens with a step verb. Two
/// steps joined by a lone `and` ("Run `npm install` and restart the server")
/// stay one item.
fn comma_steps(text: &str) -> Vec<&str> {
    let commas = split_outside_code(text, ", ");
    if commas.len() < 2 {
        return vec![text];
    }
    let mut parts = Vec::new();
    for p in commas {
        let p = p.trim();
        let p = p
            .strip_prefix("and ")
            .or(p.strip_prefix("or "))
            .unwrap_or(p);
        parts.extend(split_outside_code(p, " and "));
    }
    let parts: Vec<&str> = parts.into_iter().map(str::trim).collect();
    if parts.len() >= 2 && parts.iter().all(|p| step_verb(p)) {
        parts
    } else {
        vec![text]
    }
}

fn item(text: &str, out: &mut Vec<String>) {
    let mut t = text.trim().trim_start_matches(['*', '_', ' ']);
    if let Some(n) = connector(t) {
        t = &t[n..];
    }
    let t = t
        .trim_end_matches(['…', '.', ' '])
        .trim_end_matches(", etc");
    if t.trim_end().ends_with('?') {
        return;
    }
    for part in comma_steps(drop_why(t)) {
        let part = tidy(part);
        if part.split_whitespace().count() >= 2 && out.len() < MAX_ITEMS && !out.contains(&part) {
            out.push(part);
        }
    }
}

/// Words that make a clause a statement ("the config is ready").
const STATEMENT: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could", "should",
    "needs", "does", "did", "isn't", "aren't", "won't", "works",
];

/// Whether a later part explains rather than names work: it opens with no
/// step verb or connector and holds a verb of [`STATEMENT`] in its first
/// four words.
fn explains(part: &str) -> bool {
    let t = part.trim_start_matches(['*', '_', ' ']);
    if connector(t).is_some() || step_verb(t) {
        return false;
    }
    t.split_whitespace().take(4).any(|w| {
        STATEMENT.contains(
            &w.to_lowercase()
                .trim_matches(|c: char| !c.is_alphanumeric() && c != '\''),
        )
    })
}

/// The items of a run-on list (see the module docs).
pub(crate) fn items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, sentence) in sentences(text).into_iter().enumerate() {
        let s = sentence.trim_start_matches(['*', '_', ' ']);
        let further = connector(s).is_some() || step_verb(s);
        if n > 0 && !further {
            continue;
        }
        for (i, part) in split_outside_code(sentence, "; ").into_iter().enumerate() {
            if i == 0 || !explains(part) {
                item(part, &mut out);
            }
        }
    }
    out
}

/// Whether `text` holds more than one item: the lead-in's text is a list, not
/// one follow-up.
pub(crate) fn is_list(text: &str) -> bool {
    items(text).len() >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semicolons_sentences_and_commas() {
        assert_eq!(
            items(
                "show upload progress in the tray; move the settings file — users asked; \
                 drop the legacy index, …"
            ),
            [
                "Show upload progress in the tray",
                "Move the settings file",
                "Drop the legacy index"
            ]
        );
        assert_eq!(
            items("Wire the retry queue. It loses files today. Then tag v2."),
            ["Wire the retry queue", "Tag v2"]
        );
        assert_eq!(
            items("add tests, update the docs and tag v2."),
            ["Add tests", "Update the docs", "Tag v2"]
        );
        assert_eq!(
            items("the parser, the lexer and the CLI."),
            ["The parser, the lexer and the CLI"]
        );
        assert_eq!(
            items("`a; b` and `c`. Want me to commit them?"),
            ["`a; b` and `c`"]
        );
        assert!(!is_list("wire it. It is needed for the export."));
        assert_eq!(
            items("Run `npm install` and restart the dev server to see the changes."),
            ["Run `npm install` and restart the dev server to see the changes"]
        );
        assert_eq!(
            items("deploy to Vercel; the config is ready"),
            ["Deploy to Vercel"]
        );
        assert!(is_list("wire it; then ship the build"));
    }
}
