//! Follow-up phrases as markers, not nouns.
//!
//! A configured phrase counts on a line when it stands:
//! - before a colon (`Next session: add tests`, `TODO: wire it`): the text after
//!   the colon is the candidate (empty: the line is a lead-in);
//! - at the start of a sentence or clause (`Next session we should add X`), not
//!   followed by a noun it qualifies (`follow-up window`, `follow-up questions`):
//!   the rest of the sentence, with the boilerplate (`we should`, `let's`, …)
//!   stripped and the first letter capitalised;
//! - in a deferral form: `leave X for the next session` gives `X`; a deferral
//!   verb (`defer`, `park`, `postpone`, `come back to`, …) at a clause start or
//!   after a subject or modal (`let's`, `we can`, `I'd`) gives the clause from
//!   the verb on.
//!
//! A lead-in line is a heading whose text holds a phrase, or a line ending in
//! `:` that holds one anywhere.

use super::keywords::{Hit, Matcher, list_item_body, strip_checkbox};

/// Words that make a phrase before them a noun modifier, not a marker.
#[rustfmt::skip]
const NOUNS: &[&str] = &[
    "window", "windows", "question", "questions", "email", "emails", "call", "calls",
    "meeting", "meetings", "appointment", "appointments", "visit", "visits", "study",
    "studies", "period", "message", "messages", "survey", "care", "list", "lists", "item",
    "items", "comment", "comments", "app", "apps", "tool", "tools", "count", "date",
    "dates", "time", "interval", "reminder", "reminders", "rate", "data", "mechanism",
    "flow", "feature", "button", "field", "ticket", "tickets", "issue", "issues", "pr",
    "prs", "work", "mode", "hook", "hooks", "sequence", "sequences", "system",
];

/// Phrases that are verbs: a candidate keeps them (`Defer the refactor`).
#[rustfmt::skip]
const VERBS: &[&str] = &[
    "follow up", "defer", "park", "postpone", "come back to", "revisit", "circle back to",
    "punt on", "reporter", "verschieben", "aplazar", "posponer", "미루", "미뤄", "保留", "推迟",
    "延期",
];

/// Words after which a deferral verb still counts (`let's defer X`).
#[rustfmt::skip]
const SUBJECTS: &[&str] = &[
    "let's", "lets", "let us", "we", "i", "i'd", "i'll", "we'll", "we'd", "you", "can",
    "could", "should", "will", "would", "to", "we can", "we could", "we should", "i would",
    "i will", "i can", "you can", "you could", "maybe", "probably", "then", "and", "or",
    "so",
];

/// Boilerplate removed from the start of a candidate, repeatedly.
#[rustfmt::skip]
const BOILERPLATE: &[&str] = &[
    "we should", "we'll", "we will", "we need to", "we have to", "we must", "we can",
    "we could", "i'll", "i will", "i should", "i need to", "i'd", "i would", "let's",
    "let us", "lets", "you should", "you can", "you'll", "need to", "should", "please",
    "also", "maybe", "probably", "then", "is to", "will be to", "is", "are", "would be to",
    "to", "on", "in", "for", "of", "the team should",
];

/// What a phrase on a line contributes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// `phrase: text` with `text`, trimmed (empty: a lead-in).
    Colon(String),
    /// A sentence or deferral candidate.
    Sentence(String),
}

/// Removes leading Markdown emphasis and quote markers.
fn strip_emphasis(s: &str) -> &str {
    s.trim_start_matches(['*', '_', '>', ' ', '\t'])
}

fn lower_words(s: &str) -> Vec<String> {
    s.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The prefix ends where a sentence or clause begins.
fn clause_start(prefix: &str) -> bool {
    let p = prefix.trim_end_matches(['*', '_', ' ', '\t', '"', '\'', '“', '‘', '(']);
    if p.is_empty() {
        return true;
    }
    if p.ends_with([
        '.', ';', '!', '?', ',', ':', '—', '–', '-', '。', '，', '；', '：', '！', '？',
    ]) {
        return true;
    }
    let words = lower_words(p);
    let tail2 = words
        .iter()
        .rev()
        .take(2)
        .rev()
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    // "In the next session …", "For the follow-up, …"
    let leads = [
        "in the",
        "for the",
        "during the",
        "on the",
        "at the",
        "in a",
        "by the",
    ];
    leads.contains(&tail2.as_str()) && words.len() == 2
}

/// After a subject or modal: `let's defer`, `we can park`.
fn after_subject(prefix: &str) -> bool {
    let words = lower_words(prefix);
    let n = words.len();
    let last1 = words.last().cloned().unwrap_or_default();
    let last2 = if n >= 2 {
        format!("{} {}", words[n - 2], words[n - 1])
    } else {
        String::new()
    };
    SUBJECTS.contains(&last1.as_str()) || SUBJECTS.contains(&last2.as_str())
}

/// The next word after the phrase, lowercased, when the phrase qualifies a noun.
/// Verbs that make the phrase before them the subject of a statement ("Next
/// steps are in the doc I linked", "Next actions taken by the scheduler are
/// logged"): a description, not a step.
#[rustfmt::skip]
const STATED: &[&str] = &[
    "are", "is", "were", "was", "will", "would", "can", "could", "have", "has", "had",
    "taken", "listed", "described", "logged", "documented", "tracked", "written", "kept",
    "live", "lives", "sit", "sits", "depend", "depends",
];

/// Whether the first word after a phrase (after one noun of work: "Suggested
/// next steps are …") is a verb of [`STATED`].
fn subject_of(after: &str) -> bool {
    let word = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let mut words = after
        .trim_start_matches(['*', '_'])
        .split_whitespace()
        .map(word);
    let mut next = words.next().unwrap_or_default();
    if WORK_NOUNS.contains(&next.as_str()) {
        next = words.next().unwrap_or_default();
    }
    !after.starts_with([',', '.', ';', ':']) && STATED.contains(&next.as_str())
}

fn qualifies_noun(after: &str) -> bool {
    let next = after
        .trim_start_matches(['*', '_'])
        .split_whitespace()
        .next()
        .unwrap_or("");
    let next = next
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    !after.starts_with([',', '.', ';', ':']) && NOUNS.contains(&next.as_str())
}

/// Strips boilerplate and sentence ends, capitalises the first letter.
pub(crate) fn tidy(text: &str) -> String {
    let mut s = text
        .trim()
        .trim_start_matches([',', ':', '-', '—', '–', ' ', '*', '_'])
        .trim();
    loop {
        let lower = s.to_lowercase();
        let Some(b) = BOILERPLATE.iter().find(|b| {
            lower.starts_with(*b)
                && lower[b.len()..].starts_with(|c: char| c.is_whitespace() || c == ',')
        }) else {
            break;
        };
        s = s[b.len()..].trim_start_matches([',', ' ']).trim_start();
    }
    // The candidate is the first sentence.
    let end = s
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '.' | '!' | '?' | '。' | '！' | '？')
                && s[i + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
        })
        .map_or(s.len(), |(i, _)| i);
    let s = s[..end]
        .trim()
        .trim_end_matches(['*', '_', ',', ';', ':', ' ']);
    let s = strip_tail(s);
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A list item as a candidate: trimmed, without a trailing `.`/`;`, at most
/// 300 characters (cut at a character boundary).
pub(crate) fn tidy_item(text: &str) -> String {
    let t = text.trim().trim_end_matches(['.', ';', ',']).trim_end();
    t.chars().take(300).collect()
}

/// Drops a trailing time qualifier: `for now`, `for later`, `later`, `until later`.
fn strip_tail(s: &str) -> &str {
    let mut s = s.trim_end();
    for tail in [
        " for now",
        " for later",
        " until later",
        " later",
        " for the next session",
    ] {
        let lower = s.to_lowercase();
        if lower.ends_with(tail) && s.len() > tail.len() {
            s = s[..s.len() - tail.len()].trim_end();
        }
    }
    s
}

/// Drops a trailing question offering to do it (`X — want me to commit them?`).
fn drop_question(text: &str) -> &str {
    match text.rsplit_once(" — ") {
        Some((head, tail)) if tail.trim_end().ends_with('?') && !head.trim().is_empty() => {
            head.trim_end()
        }
        _ => text,
    }
}

/// `leave X for the next session`: the `X`, when `prefix` (ending just before a
/// phrase) holds the form.
fn leave_for(prefix: &str) -> Option<&str> {
    let lower = super::lower::lower(prefix);
    let for_at = [
        "for the ",
        "for a ",
        "for ",
        "until the ",
        "to the ",
        "to a ",
    ]
    .iter()
    .find_map(|f| lower.ends_with(f).then(|| lower.len() - f.len()))?;
    let head = &lower[..for_at];
    let verb = ["leave ", "save ", "keep ", "move ", "push "]
        .iter()
        .filter_map(|v| head.rfind(v).map(|i| i + v.len()))
        .max()?;
    let x = prefix.get(verb..for_at)?.trim();
    (!x.is_empty()).then_some(x)
}

/// The phrase of `matcher` found at marker position on `line` (a line outside
/// code and lists), or `None`.
pub(crate) fn find(matcher: &Matcher, line: &str) -> Option<(usize, Found)> {
    find_every(matcher, line).into_iter().next()
}

/// Every phrase at marker position on `line`: sentence candidates in order,
/// ending at the first colon form (whose text runs to the end of the line).
pub(crate) fn find_every(matcher: &Matcher, line: &str) -> Vec<(usize, Found)> {
    let body = strip_emphasis(line);
    let body = list_item_body(body).map_or(body, |b| strip_emphasis(strip_checkbox(b)));
    let mut out = Vec::new();
    for hit in matcher.find_all(body) {
        match at(matcher, body, &hit) {
            Some(f @ Found::Colon(_)) => {
                out.push((hit.index, f));
                break;
            }
            Some(f) => out.push((hit.index, f)),
            None => {}
        }
    }
    out
}

fn at(matcher: &Matcher, body: &str, hit: &Hit) -> Option<Found> {
    let prefix = &body[..hit.start];
    let after = &body[hit.end..];
    let name = matcher.name(hit.index);
    let colon = if name.ends_with(':') {
        Some(after)
    } else {
        let after = after.trim_start_matches([' ', '\t', '*', '_']);
        after
            .strip_prefix([':', '：'])
            .or_else(|| work_noun_colon(after))
    };
    if let Some(rest) = colon
        && (clause_start(prefix) || prefix.split_whitespace().count() <= 3)
    {
        let rest = rest.trim_start_matches(['*', '_']).trim();
        return Some(Found::Colon(drop_question(rest).to_string()));
    }
    if let Some(x) = leave_for(prefix) {
        return Some(Found::Sentence(tidy(x)));
    }
    let verb = VERBS.iter().any(|v| v.eq_ignore_ascii_case(name));
    if verb {
        let ok = clause_start(prefix) || after_subject(prefix);
        let object = after.split_whitespace().count() >= 2;
        if ok && object && !qualifies_noun(after) {
            return Some(Found::Sentence(tidy(&body[hit.start..])));
        }
        return None;
    }
    if clause_start(prefix) && !qualifies_noun(after) && !subject_of(after) {
        // Non-ASCII phrases (Korean, Japanese, Chinese) are part of the sentence.
        let text = if name.is_ascii() {
            tidy(after)
        } else {
            tidy(&body[hit.start..])
        };
        return (!text.is_empty() && text.chars().count() >= 3).then_some(Found::Sentence(text));
    }
    None
}

/// Nouns of work that may stand between a phrase and its colon ("Suggested
/// next command: …", "Next steps for you: …" is not one).
const WORK_NOUNS: &[&str] = &[
    "command", "commands", "action", "actions", "task", "tasks", "item", "items", "move", "moves",
    "step", "steps",
];

/// After a phrase, `<work noun>:` and the text after the colon.
fn work_noun_colon(after: &str) -> Option<&str> {
    let end = after.find(|c: char| !c.is_alphabetic())?;
    let noun = &after[..end];
    if !WORK_NOUNS.iter().any(|n| n.eq_ignore_ascii_case(noun)) {
        return None;
    }
    after[end..]
        .trim_start_matches(['*', '_'])
        .strip_prefix([':', '：'])
}

/// Whether `line` is a lead-in: a heading holding a phrase, or a line ending in
/// `:` holding one.
pub(crate) fn lead_in(matcher: &Matcher, line: &str) -> Option<usize> {
    let t = line.trim();
    let heading = t
        .strip_prefix('#')
        .map(|h| h.trim_start_matches('#'))
        .filter(|h| h.starts_with([' ', '\t']));
    let bold = t.starts_with("**") && t.ends_with("**") && t.len() > 4;
    let colon = t.trim_end_matches(['*', '_', ' ']).ends_with([':', '：']);
    if heading.is_none() && !bold && !colon {
        return bare_phrase(matcher, t);
    }
    if heading.is_none() && !bold && list_item_body(t).is_some() {
        // A list item ending in ':' is a lead-in only at the start of a clause.
        let (i, f) = find(matcher, t)?;
        return matches!(f, Found::Colon(ref s) if s.is_empty()).then_some(i);
    }
    let text = heading.unwrap_or(t);
    if reports_completion(text) {
        return None;
    }
    matcher.find_all(text).first().map(|h| h.index)
}

/// A line that is a phrase alone, perhaps with a qualifier in parentheses
/// ("Next steps (optional)", "次のステップ（必要なら）"): a lead-in without its
/// colon. No word may stand beside the phrase and its qualifier.
fn bare_phrase(matcher: &Matcher, t: &str) -> Option<usize> {
    // Short: a few words, a few dozen characters (most prose lines are not).
    let long = t.split_whitespace().nth(6).is_some() || t.chars().nth(48).is_some();
    if long || list_item_body(t).is_some() {
        return None;
    }
    let hits = matcher.find_all(t);
    let hit = hits.first()?;
    let mut rest = format!("{} {}", &t[..hit.start], &t[hit.end..]);
    for (open, close) in [('(', ')'), ('（', '）')] {
        while let (Some(a), Some(b)) = (rest.find(open), rest.rfind(close)) {
            if b < a {
                break;
            }
            rest.replace_range(a..b + close.len_utf8(), " ");
        }
    }
    let words = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count();
    (words == 0 && !t.ends_with(['.', '!', '?', '。'])).then_some(hit.index)
}

/// Predicates that say the listed work is finished: "All pending tasks are
/// now complete:" introduces a done report, not follow-ups.
const COMPLETION: &[&str] = &[
    "are now complete",
    "are complete",
    "are completed",
    "are all complete",
    "are all done",
    "are now done",
    "are done",
    "are finished",
    "is now complete",
    "is complete",
    "is done",
    "have been completed",
    "have been done",
    "were completed",
    "now completed",
];

/// Whether a lead-in line reports its work finished (English predicates),
/// judged on its last sentence only: in "Phase 1 is done. Next steps:" the
/// lead-in is the second sentence. Positions are not needed, so a full
/// lowercase copy is fine.
fn reports_completion(line: &str) -> bool {
    let last = [". ", "! ", "? "]
        .iter()
        .filter_map(|end| line.rfind(end))
        .max()
        .map_or(line, |i| &line[i + 2..]);
    let lower = last.to_lowercase();
    COMPLETION.iter().any(|p| lower.contains(p))
}

#[cfg(test)]
mod tests;
