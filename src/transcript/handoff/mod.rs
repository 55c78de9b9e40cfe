//! Hand-offs: what the agent leaves to the user, phrased without a follow-up
//! marker.
//!
//! In the **message that ends an exchange** (the agent's last message before a
//! user message, or the last of the session; "final answer" below):
//! - a list under a lead-in holding a hand-off phrase (`extract.handoff_leads`:
//!   "you still need to fill:", "Before submitting, fill in:", "Remaining:",
//!   "What's left:", "To run it:", …); `Remaining: X` on one line gives `X`;
//! - a sentence that hands a step to the user ([`MODALS`]: "You still need to
//!   X", "Remember to X", "Don't forget to X") gives `X`;
//! - a sentence that says something is still open ([`OPEN`]: "X remains
//!   pending", "X is not yet deployed"; "X has not been run", before an action
//!   of [`PENDING_ACTIONS`]; "X, pending your review": [`awaits_user`])
//!   gives the sentence;
//! - a clause that asks for a step before use ([`BEFORE`]: "replace the key
//!   before using") gives the clause;
//! - work ranked for later in prose ("If you get one more hour, spend it
//!   here.", "The rest, in rough order of value:") — see [`super::ranked`];
//! - the findings of a code review ("Critical: … Concrete fix: …") — see
//!   [`super::review`];
//! - the list that closes it (at most two lines after it) when a lead-in (a
//!   line ending in `:`, a heading or a bold line) turned to the user or what
//!   comes next introduces it and every item starts with an imperative verb or
//!   a command: steps left to the user ("To try it:\n1. Add your key to
//!   `.env`\n2. Run `npm run dev`"); and steps given as fenced code — see
//!   [`super::steps`].
//!
//! In **any assistant message**: a step offered for later ([`LATER`]: "You can
//! delete them when ready") gives the step without the offer.
//!
//! Fenced code and table rows are never read; sentences longer than the
//! line cap are skipped.

use super::keywords::{Fence, Matcher, list_item_body, strip_checkbox};
use super::markers::tidy;
use super::sentences::{is_table_row, sentences};
use super::steps::{closing_steps, code_steps, step_verb};
use super::structure;

/// Sentence openings that hand a step to the user; the step follows.
#[rustfmt::skip]
const MODALS: &[&str] = &[
    "you still need to ", "you'll still need to ", "you will still need to ",
    "you'll need to ", "you will need to ", "you need to ", "you still have to ",
    "you'll have to ", "you will have to ", "remember to ", "don't forget to ",
    "do not forget to ", "be sure to ", "make sure to ", "you should still ",
];

/// Phrases saying the subject of the sentence is still open.
#[rustfmt::skip]
const OPEN: &[&str] = &[
    " remains pending", " remain pending", " is still pending", " are still pending",
    " still needs to be ", " still need to be ", " is not yet ", " are not yet ",
    " still needs ", " remains open", " remain open", " is still open",
];

/// One search for whether any phrase of [`OPEN`] / [`BEFORE`] is in a
/// sentence: most sentences hold none, and then no phrase is tried alone.
static OPEN_ANY: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| {
    aho_corasick::AhoCorasick::new(OPEN).expect("the phrases build an automaton")
});
static BEFORE_ANY: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::new(BEFORE).expect("the phrases build an automaton")
    });

/// `has not been` and its forms count only before an action still to take
/// (`has not been run`), not as a statement (`the API has not been changed`).
#[rustfmt::skip]
const NOT_BEEN: &[&str] = &[" has not been ", " have not been ", " hasn't been ", " haven't been "];
#[rustfmt::skip]
const PENDING_ACTIONS: &[&str] = &[
    "run", "tested", "deployed", "verified", "committed", "pushed", "merged", "applied",
    "migrated", "released", "published", "exercised", "checked", "reviewed", "funded",
    "configured", "rotated", "signed", "submitted", "uploaded", "installed",
];

/// The `has not been <action>` phrase in a lowercased sentence, if any.
fn not_been(lower: &str) -> Option<&'static str> {
    // Every form holds " been ": one search rules most text out.
    memchr::memmem::find(lower.as_bytes(), b" been ")?;
    NOT_BEEN.iter().copied().find(|p| {
        lower.match_indices(*p).any(|(i, _)| {
            let next = lower[i + p.len()..]
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            PENDING_ACTIONS.contains(&next)
        })
    })
}

/// `still un<participle>` (`X and Y are still uncommitted`, `still untested`),
/// `the only un<participle>` (`X is the only uncommitted file`)
/// and `but not <action>` (`implemented but not exercised`, `but not yet
/// deployed`): a state still open.
fn still_open(lower: &str) -> Option<&'static str> {
    // Every form holds " un" or " but not ".
    let hay = lower.as_bytes();
    if memchr::memmem::find(hay, b" un").is_none()
        && memchr::memmem::find(hay, b" but not ").is_none()
    {
        return None;
    }
    let word_after = |i: usize| {
        lower[i..]
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .next()
            .unwrap_or("")
    };
    let un = [" still un", " only un"].iter().any(|p| {
        lower.match_indices(*p).any(|(i, _)| {
            let w = word_after(i + p.len() - 2);
            w.len() > 5
                && (w.ends_with("ed") || w.ends_with("en"))
                && !["unchanged", "unaffected", "unmodified", "unharmed"].contains(&w)
        })
    });
    if un {
        return Some("still un-");
    }
    let but = [" but not yet ", " but not "].iter().any(|p| {
        lower.match_indices(*p).any(|(i, _)| {
            let w = word_after(i + p.len());
            PENDING_ACTIONS.contains(&w) || ["wired", "used", "integrated", "enabled"].contains(&w)
        })
    });
    but.then_some("but not")
}

/// `pending your <step>` and its forms (`awaiting your review`, `waiting on
/// your sign-off`): the state waits on a step of the user ("Ready for
/// submission pending your read-through of the changes"); not when it waits
/// for a reply in the chat (`awaiting your answer`).
fn awaits_user(lower: &str) -> Option<&'static str> {
    const FORMS: &[&str] = &[
        "pending your ",
        "awaiting your ",
        "waiting on your ",
        "waiting for your ",
    ];
    // Words of a reply in the chat: the next user message gives it, so the
    // state waits on no step ("go-ahead" is cut at the hyphen).
    const CHAT: &[&str] = &[
        "reply",
        "answer",
        "response",
        "input",
        "thoughts",
        "message",
        "call",
        "feedback",
        "approval",
        "go",
        "confirmation",
        "decision",
        "ok",
        "okay",
        "choice",
        "opinion",
        "instructions",
        "direction",
        "say",
        "word",
        "green",
    ];
    // Every form ends in "your ": one search rules most sentences out.
    memchr::memmem::find(lower.as_bytes(), b"your ")?;
    FORMS.iter().copied().find(|f| {
        lower.match_indices(*f).any(|(i, _)| {
            let next = lower[i + f.len()..]
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            let word_start = lower[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            word_start && !next.is_empty() && !CHAT.contains(&next)
        })
    })
}

/// A step to take before use.
#[rustfmt::skip]
const BEFORE: &[&str] = &[
    "before using", "before you use", "before running", "before you run",
    "before deploying", "before you deploy", "before submitting", "before you submit",
    "before going live", "before launching",
];

/// A step offered for later, and the offers that introduce it.
#[rustfmt::skip]
const LATER: &[&str] = &[
    " when ready", " when you're ready", " when you are ready", " whenever you're ready",
    " whenever you are ready", " once you're ready", " once you are ready",
    " when you have time", " at your convenience",
];
#[rustfmt::skip]
const OFFERS: &[&str] = &[
    "you can ", "you may ", "you could ", "feel free to ", "go ahead and ", "you'll want to ",
    "you will want to ", "you'll need to ", "you will need to ", "you'll still need to ",
];

/// The sentence without a list marker, checkbox or emphasis at its start.
pub(crate) fn body(sentence: &str) -> &str {
    let s = sentence.trim_start_matches(['>', ' ', '\t']);
    let s = list_item_body(s).map_or(s, strip_checkbox);
    s.trim_start_matches(['*', '_', ' '])
}

/// Each prose sentence of a message with its 0-based line, outside code and
/// tables; sentences over `max_line` characters are counted in `long`.
pub(crate) fn prose(text: &str, max_line: usize, long: &mut usize) -> Vec<(usize, String)> {
    let mut fence = Fence::default();
    let mut out = Vec::new();
    for (offset, line) in text.lines().enumerate() {
        if fence.is_code(line) || is_table_row(line) {
            continue;
        }
        for s in sentences(line) {
            if s.chars().count() > max_line {
                *long += 1;
            } else {
                out.push((offset, s.to_string()));
            }
        }
    }
    out
}

fn one(text: &str, keyword: &str, offset: usize) -> Option<(String, String, usize)> {
    let t = tidy(text);
    (t.split_whitespace().count() >= 2).then(|| (t, keyword.to_string(), offset))
}

/// Hand-off candidates of a final answer: `(text, keyword, 0-based line)`.
pub(crate) fn final_answer(
    leads: &Matcher,
    text: &str,
    max_line: usize,
    long: &mut usize,
) -> Vec<(String, String, usize)> {
    let mut out: Vec<(String, String, usize)> = structure::scan_lists(leads, text, max_line)
        .into_iter()
        .map(|h| (h.text, leads.name(h.keyword).to_string(), h.offset))
        .collect();
    let mut seen: std::collections::HashSet<String> =
        out.iter().map(|(t, _, _)| t.clone()).collect();
    for (t, offset) in closing_steps(text)
        .into_iter()
        .chain(code_steps(text, max_line))
    {
        if seen.insert(t.clone()) {
            out.push((t, "steps for the user".to_string(), offset));
        }
    }
    for (t, offset) in super::ranked::ranked(text, max_line) {
        if seen.insert(t.clone()) {
            out.push((t, "ranked for later".to_string(), offset));
        }
    }
    for (t, offset) in super::review::findings(text, max_line) {
        if seen.insert(t.clone()) {
            out.push((t, "review finding".to_string(), offset));
        }
    }
    let mut listed: std::collections::HashSet<usize> = out.iter().map(|(_, _, o)| *o).collect();
    // A lead-in whose list gave the candidates is no candidate itself.
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let next = lines[i + 1..].iter().position(|l| !l.trim().is_empty());
        if line
            .trim_end_matches(['*', '_', ' '])
            .ends_with([':', '：'])
            && next.is_some_and(|n| listed.contains(&(i + 1 + n)))
        {
            listed.insert(i);
        }
    }
    let mut ignored = 0;
    for (offset, sentence) in prose(text, max_line, &mut ignored) {
        // A sentence ending in a colon before a list or a heading introduces
        // them ("here's what still needs to be done:"); it is no hand-off itself.
        let introduces = || {
            sentence
                .trim_end_matches(['*', '_', ' '])
                .ends_with([':', '：'])
                && lines
                    .iter()
                    .skip(offset + 1)
                    .find(|l| !l.trim().is_empty())
                    .is_some_and(|l| list_item_body(l).is_some() || l.trim_start().starts_with('#'))
        };
        if listed.contains(&offset) || introduces() {
            continue;
        }
        let b = body(&sentence);
        let lower = super::lower::lower(b);
        if let Some(m) = MODALS.iter().find(|m| lower.starts_with(*m)) {
            out.extend(one(&b[m.len()..], m.trim(), offset));
        } else if let Some(o) = (OPEN_ANY.is_match(&lower))
            .then(|| OPEN.iter().copied().find(|o| lower.contains(*o)))
            .flatten()
            .or_else(|| not_been(&lower))
            .or_else(|| still_open(&lower))
            .or_else(|| awaits_user(&lower))
        {
            out.extend(one(b, o.trim(), offset));
        } else if let Some(task) = named_task(b, &lower) {
            out.extend(one(task, "task:", offset));
        } else if let Some(k) = (BEFORE_ANY.is_match(&lower))
            .then(|| BEFORE.iter().find(|k| lower.contains(*k)))
            .flatten()
        {
            // The clause holding it: after the last `, so ` / `; ` / `: ` before it.
            let at = lower.find(k).unwrap_or(0);
            let head = &lower[..at];
            let from = [", so ", "; ", ": ", " — "]
                .iter()
                .filter_map(|sep| head.rfind(sep).map(|i| i + sep.len()))
                .max()
                .unwrap_or(0);
            let clause = b[from..].trim_end_matches([':', ' ']);
            let lower_clause = clause.to_lowercase();
            if !["if ", "when "].iter().any(|w| lower_clause.starts_with(w)) {
                out.extend(one(clause, k, offset));
            }
        }
    }
    *long += ignored;
    out
}

/// A task introduced by the noun `task:` ("Critical day-one task: verify the
/// webhook secret") when a step verb follows it.
fn named_task<'a>(b: &'a str, lower: &str) -> Option<&'a str> {
    let at = ["task: ", "tasks: "]
        .iter()
        .find_map(|t| lower.find(t).map(|i| i + t.len()))?;
    let rest = b.get(at..)?.trim_start_matches(['*', '_', ' ']);
    step_verb(rest).then_some(rest)
}

/// Work put off with a condition, in any assistant message: a sentence with
/// `unless` and `later` after it ("Refunds are intentionally blocked unless
/// the policy is expanded later") gives the sentence.
pub(crate) fn deferred(text: &str, max_line: usize) -> Vec<(String, String, usize)> {
    if !text.contains(" unless ") {
        return Vec::new();
    }
    let mut ignored = 0;
    let mut out = Vec::new();
    for (offset, sentence) in prose(text, max_line, &mut ignored) {
        let b = body(&sentence);
        let lower = b.to_lowercase();
        let later = lower.find(" unless ").is_some_and(|i| {
            lower[i..]
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "later")
        });
        if later {
            out.extend(one(b, "unless … later", offset));
        }
    }
    out
}

/// Words that point back to the sentence before.
const POINTERS: &[&str] = &["them", "it", "those", "these", "this", "that"];

/// Steps offered for later in any assistant message: `(text, keyword, 0-based
/// line)`. A step that points back (`delete them`) carries the sentence before
/// it in parentheses.
pub(crate) fn later(text: &str, max_line: usize) -> Vec<(String, String, usize)> {
    // Every form holds one of these (cheap test before reading sentences).
    if !["ready", "Ready", "READY", "convenience", "have time"]
        .iter()
        .any(|w| text.contains(w))
    {
        return Vec::new();
    }
    let mut ignored = 0;
    let mut out = Vec::new();
    let mut before: Option<String> = None;
    for (offset, sentence) in prose(text, max_line, &mut ignored) {
        let previous = before.replace(sentence.clone());
        let b = body(&sentence);
        let lower = super::lower::lower(b);
        let Some(tail) = LATER.iter().find(|l| lower.contains(*l)) else {
            continue;
        };
        let at = lower.find(tail).unwrap_or(0);
        let Some(offer) = OFFERS.iter().find(|o| lower.starts_with(*o)) else {
            continue;
        };
        if at > offer.len() {
            let step = &b[offer.len()..at];
            let points = step
                .split_whitespace()
                .any(|w| POINTERS.contains(&w.to_lowercase().as_str()));
            let step = match previous {
                Some(p) if points => format!("{step} ({})", p.trim_end_matches(['.', ':'])),
                _ => step.to_string(),
            };
            out.extend(one(&step, tail.trim(), offset));
        }
    }
    out
}

#[cfg(test)]
mod tests;
