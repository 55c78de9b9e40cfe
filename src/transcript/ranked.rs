//! Work ranked for later in a final answer: a lead-in saying where the next
//! effort should go, followed by prose rather than a Markdown list. The lead
//! is a sentence holding one of [`LEADS`], anywhere in a line.
//! - A lead ending in `:` ("The rest, in rough order of value:") introduces a
//!   run-on list ([`super::runon`]): the text after the colon on the same line,
//!   or else the paragraph (or the list) that follows; each item is one
//!   candidate.
//! - A lead ending in `.` ("If you get one more hour, spend it here.")
//!   introduces one piece of work: the rest of its line, or else the
//!   paragraph that follows. Its action is the candidate: the first sentence
//!   opening (after boilerplate such as "I'd") with a step verb or a verb of
//!   [`ACTIONS`] ("Hash the first 64 KB …"), or else the first sentence.

use super::keywords::{Fence, list_item_body};
use super::markers::tidy;
use super::runon::{self, MAX_ITEMS};
use super::sentences::sentences;
use super::steps::step_verb;

/// Phrases of a lead-in that ranks the work still worth doing.
const LEADS: &[&str] = &[
    "one more hour",
    "spend it here",
    "order of value",
    "if i had more time",
    "if you have more time",
    "with more time,",
    "worth doing next",
    "highest-leverage next",
    "most valuable next",
];

static LEAD_AUTOMATON: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(LEADS)
            .expect("the leads build an automaton")
    });

static LEAD_ANY_CASE: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(LEADS)
            .expect("the leads build an automaton")
    });

/// Verbs that open the action of a work paragraph, beyond the step verbs.
#[rustfmt::skip]
const ACTIONS: &[&str] = &[
    "hash", "wire", "implement", "refactor", "split", "extract", "cache", "port", "migrate",
    "rewrite", "document", "benchmark", "profile", "dedupe", "deduplicate", "batch", "index",
    "validate", "sanitize", "stream", "memoize", "throttle", "debounce", "handle", "catch",
    "guard", "gate", "encrypt", "compress", "paginate", "normalize", "persist", "store", "load",
    "parse", "emit", "track", "measure", "instrument", "tune", "optimize", "reduce", "cut",
    "ship", "finish", "polish", "clean", "support", "prevent", "ensure", "detect", "warn",
    "teach", "give", "keep", "turn", "hook", "expose", "surface", "show", "hide", "swap",
    "replace", "skip", "limit", "cap", "bound", "land", "harden", "simplify", "speed", "make",
];

fn acts(sentence: &str) -> bool {
    let t = tidy(sentence.trim_start_matches(['*', '_', ' ']));
    let first = t
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .next()
        .unwrap_or("")
        .to_lowercase();
    step_verb(&t) || ACTIONS.contains(&first.as_str())
}

/// Where a lead sits in a line: how it ends, and the text after it there.
fn lead(line: &str) -> Option<(char, &str)> {
    // The leads are ASCII: an ASCII line without one (any case) has none.
    if line.is_ascii() && !LEAD_ANY_CASE.is_match(line) {
        return None;
    }
    let t = line.trim().trim_end_matches(['*', '_', ' ']);
    for s in sentences(t) {
        let lower = super::lower::lower(s);
        // The leftmost start of any lead (leftmost semantics find it).
        let Some(at) = LEAD_AUTOMATON.find(&lower).map(|m| m.start()) else {
            continue;
        };
        // Where the sentence sits in the line (it is a subslice of `t`).
        let start = s.as_ptr() as usize - t.as_ptr() as usize;
        if let Some(colon) = s[at..].find([':', '：']) {
            let after = start + at + colon + s[at + colon..].chars().next()?.len_utf8();
            return Some((':', t[after..].trim()));
        }
        let s = s.trim_end_matches(['*', '_', ' ']);
        if s.ends_with('.') {
            return Some((
                '.',
                t[start + s.len()..].trim_start_matches(['*', '_', ' ']),
            ));
        }
    }
    None
}

/// The action of a paragraph describing one piece of work. A bold title
/// ("**Retry queue.** Today …") is a sentence of its own.
fn action(paragraph: &str) -> Option<String> {
    let plain = paragraph.replace("**", "");
    let all = sentences(&plain);
    let first = all.iter().find(|s| acts(s)).or(all.first())?;
    let t = tidy(first.trim_end_matches(['.', ';']));
    (t.split_whitespace().count() >= 3).then_some(t)
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
        let Some((end, rest)) = lead(line) else {
            continue;
        };
        let mut found: Vec<(String, usize)> = Vec::new();
        if !rest.is_empty() && rest.chars().count() <= max_line * 2 {
            match end {
                ':' => found.extend(runon::items(rest).into_iter().map(|t| (t, i))),
                _ => found.extend(action(rest).map(|t| (t, i))),
            }
            out.extend(found);
            continue;
        }
        let body = lines[i + 1..]
            .iter()
            .enumerate()
            .skip_while(|(_, l)| l.trim().is_empty())
            .take_while(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with("```"));
        for (n, l) in body {
            let offset = i + 1 + n;
            if end == '.' {
                // A paragraph that opens with a lead of its own is read on
                // its own line, never as this lead's action.
                if found.is_empty() && lead(l).is_some() {
                    break;
                }
                if found.is_empty()
                    && l.chars().count() <= max_line * 2
                    && let Some(t) = action(list_item_body(l).unwrap_or(l))
                {
                    found.push((t, offset));
                }
                continue;
            }
            let items = match list_item_body(l) {
                Some(b) => runon::items(sentences(b).first().copied().unwrap_or(b)),
                None if l.chars().count() <= max_line * 2 => runon::items(l),
                None => Vec::new(),
            };
            for t in items {
                if found.len() < MAX_ITEMS && t.split_whitespace().count() >= 3 {
                    found.push((t, offset));
                }
            }
        }
        out.extend(found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leads_are_lowercase_ascii_so_the_any_case_check_agrees() {
        for l in LEADS {
            assert!(l.is_ascii() && l.to_lowercase() == *l, "{l}");
        }
    }

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

    #[test]
    fn items_on_the_lead_line() {
        let t = "Shipped.\n\nThe rest, in rough order of value: add a dark theme; cache the \
                 avatar lookups — they are slow on mobile; move the settings page to the \
                 new router, …\n\nThanks for the session.";
        assert_eq!(
            texts(t),
            [
                "Add a dark theme",
                "Cache the avatar lookups",
                "Move the settings page to the new router"
            ]
        );
        let t = "If you get one more hour, spend it here. The upload path loses files on a \
                 dropped connection. Add a retry queue in front of the uploader so nothing \
                 is lost.\n\nThe rest can wait.";
        assert_eq!(
            texts(t),
            ["Add a retry queue in front of the uploader so nothing is lost"]
        );
        let t = "If you get one more hour, spend it here. Copies under two names both \
                 survive. I'd hash the first 64 KB of each file and skip known hashes.";
        assert_eq!(
            texts(t),
            ["Hash the first 64 KB of each file and skip known hashes"]
        );
        let t = "If you get one more hour, spend it here.\n\n**Retry queue for uploads.** \
                 A dropped connection loses the file today.";
        assert_eq!(texts(t), ["Retry queue for uploads"]);
        let t = "If you get one more hour, spend it here.\n\nThe export is the weak spot: \
                 it rewrites the whole file. Make it append instead.";
        assert_eq!(texts(t), ["Make it append instead"]);
        // The next paragraph is a lead of its own: its items, not the line.
        let t = "The fix is small. If you get one more hour, spend it here.\n\nThe rest, \
                 in rough order of value: `total_rows` on `Page` (makes a short read \
                 detectable at all); merge-conflict reporting, since the survivor's values \
                 win silently.";
        assert_eq!(
            texts(t),
            [
                "`total_rows` on `Page` (makes a short read detectable at all)",
                "Merge-conflict reporting, since the survivor's values win silently"
            ]
        );
    }
}
