//! Work ranked for later in a final answer: a lead-in saying where the next
//! effort should go, followed by prose rather than a Markdown list.
//! - "If you get one more hour, spend it here." (a lead-in ending in `.`):
//!   the first sentence of the paragraph that follows;
//! - "The rest, in rough order of value:" (ending in `:`): each sentence (or
//!   `;`-separated part) of the paragraph, or each item of a list, that follows.

use super::keywords::{Fence, list_item_body};
use super::markers::tidy;
use super::structure::sentences;

/// Phrases of a lead-in that ranks the work still worth doing.
const LEADS: &[&str] = &[
    "one more hour",
    "spend it here",
    "order of value",
    "if i had more time",
    "if you have more time",
    "with more time,",
];

/// At most this many candidates from one lead-in.
const MAX_ITEMS: usize = 8;

/// Connectors that open a ranked sentence, dropped from its text.
const CONNECTORS: &[&str] = &[
    "first, ",
    "second, ",
    "third, ",
    "then, ",
    "then ",
    "next, ",
    "finally, ",
    "after that, ",
    "and ",
];

fn lead(line: &str) -> Option<char> {
    let t = line.trim().trim_end_matches(['*', '_', ' ']);
    let last = sentences(t).last().copied().unwrap_or(t).to_lowercase();
    let end = t.chars().last()?;
    (LEADS.iter().any(|l| last.contains(l)) && matches!(end, ':' | '.' | '：')).then_some(end)
}

fn item(text: &str, offset: usize, out: &mut Vec<(String, usize)>) {
    let mut t = text.trim().trim_start_matches(['*', '_', ' ']);
    let lower = t.to_lowercase();
    if let Some(c) = CONNECTORS.iter().find(|c| lower.starts_with(*c)) {
        t = &t[c.len()..];
    }
    let t = tidy(t);
    if t.split_whitespace().count() >= 3 && out.len() < MAX_ITEMS {
        out.push((t, offset));
    }
}

/// Candidates after ranked-work lead-ins: `(text, 0-based line)`.
pub(crate) fn ranked(text: &str, max_line: usize) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut fence = Fence::default();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if fence.is_code(line) || list_item_body(line).is_some() {
            continue;
        }
        let Some(end) = lead(line) else { continue };
        let mut found = Vec::new();
        let body = lines[i + 1..]
            .iter()
            .enumerate()
            .skip_while(|(_, l)| l.trim().is_empty())
            .take_while(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with("```"));
        for (n, l) in body {
            let offset = i + 1 + n;
            if let Some(b) = list_item_body(l) {
                if end != '.' {
                    item(
                        sentences(b).first().copied().unwrap_or(b),
                        offset,
                        &mut found,
                    );
                }
                continue;
            }
            for s in sentences(l)
                .into_iter()
                .filter(|s| s.chars().count() <= max_line)
            {
                for part in s.split("; ") {
                    item(part.trim_end_matches(['.', ';']), offset, &mut found);
                }
            }
        }
        if end == '.' {
            found.truncate(1);
        }
        out.extend(found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<String> {
        ranked(t, 400).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn ranked_paragraphs() {
        let t = "Shipped the parser.\n\nIf you get one more hour, spend it here.\n\
                 Wire the retry queue into the upload path. Today a failed upload is lost, \
                 which is the worst bug left.\n";
        assert_eq!(texts(t), ["Wire the retry queue into the upload path"]);
        let t = "The rest, in rough order of value:\nAdd a dark theme; cache the avatar \
                 lookups. Then move the settings page to the new router.\n";
        assert_eq!(
            texts(t),
            [
                "Add a dark theme",
                "Cache the avatar lookups",
                "Move the settings page to the new router"
            ]
        );
        assert!(texts("The fix is ranked in order of value.").is_empty());
        assert!(texts("I spent an hour on it.\nThe tests pass.").is_empty());
    }
}
