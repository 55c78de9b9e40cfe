//! The next move handed to the user: the session's last message asks the user
//! for something and says the agent goes on once it has it ("Please provide
//! the five branch names. Once you send them, I'll create them.", "Please
//! check out the branch and tell me when it's done. Then I'll continue.").
//! Nobody answered — the session ended — so the request is a follow-up: the
//! request and the promise, as one candidate. A request answered by a later
//! user message is never read (the reply decides), and neither is a request
//! without a promise ("Please review the diff.") or a polite closing ("Please
//! let me know if you need anything else.").
//!
//! English; prose lines only (fenced code and table rows skipped), sentences
//! over the line cap skipped, at most three requests per message.

use super::keywords::Fence;
use super::markers::tidy;
use super::sentences::{is_table_row, sentences};

/// Openings of a request to the user; the step follows.
const REQUESTS: &[&str] = &["please ", "kindly "];

/// Requests that ask nothing of the user's work.
#[rustfmt::skip]
const POLITE: &[&str] = &[
    "let me know if", "let me know whether", "note", "feel free", "ignore", "disregard",
    "confirm if", "tell me if", "let me know what you think", "be aware", "keep in mind",
    "reach out", "don't hesitate", "do not hesitate",
];

/// Whether a sentence promises the agent's next step once the user acts.
fn promises(lower: &str) -> bool {
    let agent = [
        "i'll ",
        "i will ",
        "i’ll ",
        "i can then ",
        "i can continue",
        "i can proceed",
    ]
    .iter()
    .any(|p| lower.contains(p));
    let after = [
        "once ",
        "when ",
        "after ",
        "as soon as ",
        "then ",
        "and i'll",
        "and i’ll",
        "and i will",
    ]
    .iter()
    .any(|p| lower.contains(p));
    agent && after
}

/// The requests the message ends the session on, with their line offsets.
pub(super) fn requests(text: &str, max_line: usize) -> Vec<(String, usize)> {
    // Every opening ends in "lease " or "indly " (any case of its first letter).
    static OPENS: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::new(["lease ", "LEASE ", "indly ", "INDLY "])
            .expect("the openings build an automaton")
    });
    if !OPENS.is_match(text) {
        return Vec::new();
    }
    let mut said: Vec<(usize, &str)> = Vec::new();
    let mut fence = Fence::default();
    for (offset, line) in text.lines().enumerate() {
        if fence.is_code(line) || is_table_row(line) {
            continue;
        }
        for s in sentences(line) {
            if s.chars().count() <= max_line {
                said.push((offset, s));
            }
        }
    }
    let mut out = Vec::new();
    for (i, &(offset, s)) in said.iter().enumerate() {
        let lower = s.to_lowercase();
        // The openings are ASCII: matched on the sentence itself, never cut
        // at a place found in its lowercased copy (which may differ in size).
        let Some(step) = REQUESTS.iter().find_map(|r| {
            s.get(..r.len())
                .filter(|head| head.eq_ignore_ascii_case(r))
                .map(|_| &s[r.len()..])
        }) else {
            continue;
        };
        let step_lower = step.to_lowercase();
        if POLITE.iter().any(|p| step_lower.starts_with(p)) || step.split_whitespace().count() < 2 {
            continue;
        }
        let request = tidy(step);
        let text = if promises(&lower) {
            request
        } else if let Some(&(_, next)) =
            said.get(i + 1).filter(|(_, n)| promises(&n.to_lowercase()))
        {
            let next = next.trim_end_matches(['.', '!']);
            let mut first = next.chars();
            let next: String = first
                .next()
                .map(|c| c.to_lowercase().chain(first).collect())
                .unwrap_or_default();
            format!("{request} — {next}")
        } else {
            continue;
        };
        out.push((text, offset));
        if out.len() == 3 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::requests;

    fn texts(t: &str) -> Vec<String> {
        requests(t, 400).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn a_request_with_a_promise_is_a_step() {
        assert_eq!(
            texts(
                "Got it. Please check out branch `feat-7` and tell me when it's done. Then I'll continue with the parser."
            ),
            [
                "Check out branch `feat-7` and tell me when it's done — then I'll continue with the parser"
            ]
        );
        assert_eq!(
            texts(
                "I can't guess them.\n\nPlease send the three service names, and I'll create the folders."
            ),
            ["Send the three service names, and I'll create the folders"]
        );
    }

    #[test]
    fn a_character_that_shrinks_when_lowercased_is_no_problem() {
        // ẞ is three bytes, its lowercase two: no cut inside it.
        assert!(texts("Please ẞ#").is_empty());
        assert_eq!(
            texts("Please send ẞtraße names. Once you do, I'll rename them."),
            ["Send ẞtraße names — once you do, I'll rename them"]
        );
    }

    #[test]
    fn requests_without_a_promise_or_polite_closings_are_none() {
        assert!(texts("Please review the diff.").is_empty());
        assert!(texts("Please let me know if you need anything else. I'll be here.").is_empty());
        assert!(texts("Please note that I'll rerun it later.").is_empty());
        assert!(texts("```\nPlease run it. Then I'll go on.\n```").is_empty());
    }
}
