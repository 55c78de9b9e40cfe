//! The session's end state, read by structure rather than by marker phrase.
//!
//! - **Open-work block** ([`open_work`]): in the agent's last message, the
//!   items under a short label that names open work, whatever its wording:
//!   `Next:`, `Next focus:`, `Remaining:`, `**Still open**`, `## For Monday`,
//!   `Blocked:`. A label is a line of at most five words ending with a colon
//!   (or a heading, or a bold line), or the words before a colon that opens a
//!   line; the items are the text after its colon and the list (or, without
//!   a list, the one line) that follows. A label naming finished work ("Done",
//!   "Fixed", "Completed") is none, even beside an open-work word.
//! - **Blocked statements** ([`blocked`]): sentences of the last message that
//!   say a step waits on something only the user can give (credentials, a
//!   permission, a decision) or that a value was left as a placeholder.
//! - **Parked work** ([`parked`]): a sentence of any message that puts work
//!   off until something happens ("let's park the search page until the API
//!   settles", "hold off on the export").
//!
//! English; fenced code and table rows are skipped, sentences over the line
//! cap are skipped.

use super::keywords::{Fence, list_item_body};
use super::sentences::{is_table_row, item_text, sentences};

/// Words of a label that names open work.
#[rustfmt::skip]
const OPEN_WORDS: &[&str] = &[
    "next", "remaining", "remains", "todo", "todos", "pending", "open", "outstanding",
    "left", "blocked", "blocker", "blockers", "later", "tomorrow", "unfinished",
    "unresolved", "followups", "follow-ups", "follow-up", "waiting", "deferred",
    "parked", "backlog", "undone", "incomplete",
];

/// Times a label may put work off to, after `for`, `by`, `until` or `before`
/// ("For Monday"; a bare "Tuesday:" is a calendar line).
#[rustfmt::skip]
const TIMES: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "weekend", "tomorrow", "week", "session", "sprint", "release",
];

/// Words of a label that names finished work.
#[rustfmt::skip]
const DONE_WORDS: &[&str] = &[
    "done", "fixed", "completed", "complete", "finished", "resolved", "changed",
    "changes", "shipped", "merged", "implemented", "summary", "accomplished", "verified",
];

fn label_words(label: &str) -> Vec<String> {
    label
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `label` (the words before a colon, a heading, a bold line) names
/// open work: at most five words, one of them an open-work word or "to do" /
/// "not yet", none naming finished work.
fn open_label(label: &str) -> bool {
    let words = label_words(label);
    if words.is_empty() || words.len() > 5 {
        return false;
    }
    let joined = words.join(" ");
    let timed = matches!(words[0].as_str(), "for" | "by" | "until" | "before")
        && words.iter().any(|w| TIMES.contains(&w.as_str()));
    // A CJK label opening with "next" or "remaining" ("次の候補タスク",
    // "下一步计划", "다음 작업", "残りの作業") is one word to the split above.
    let cjk = words.len() <= 2 && CJK_OPEN.iter().any(|p| joined.starts_with(p));
    let open = timed
        || cjk
        || words.iter().any(|w| OPEN_WORDS.contains(&w.as_str()))
        || joined.contains("to do")
        || joined.contains("not yet")
        || joined.starts_with("still ");
    open && !words
        .iter()
        .any(|w| DONE_WORDS.contains(&w.as_str()) || MAYBE_WORDS.contains(&w.as_str()))
}

/// Openings of a CJK label that names open work: "next", "remaining",
/// "from now on", "unfinished".
const CJK_OPEN: &[&str] = &[
    "次の",
    "次に",
    "残り",
    "残タスク",
    "今後",
    "未完了",
    "下一",
    "接下来",
    "后续",
    "剩余",
    "待办",
    "未完成",
    "다음",
    "남은",
];

/// Words of a label that offers ideas rather than naming open work
/// ("Possible next improvements"): the offer rules read those.
const MAYBE_WORDS: &[&str] = &["possible", "optional", "ideas", "maybe", "could"];

/// A line's label and what follows its colon: `Next: add X` gives
/// `("Next", "add X")`, `## Still open` gives `("Still open", "")`.
fn label_of(line: &str) -> Option<(String, String)> {
    let mut t = line.trim();
    let heading = t.starts_with('#');
    t = t.trim_start_matches('#').trim();
    // A list item may carry the label: "- **Next:** add X".
    if let Some(body) = list_item_body(t) {
        t = body;
    }
    let plain: String = t.chars().filter(|c| !matches!(c, '*' | '_')).collect();
    let plain = plain.trim();
    if let Some(i) = plain.find(':') {
        let (label, rest) = (&plain[..i], plain[i + 1..].trim());
        // "https://…" or "12:30" is no label.
        if rest.starts_with("//") || label.ends_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        return Some((label.to_string(), rest.to_string()));
    }
    let bold = t.starts_with("**") && t.ends_with("**") && t.len() > 4;
    (heading || bold).then(|| (plain.to_string(), String::new()))
}

/// The open-work items of the agent's last message: `(text, label, offset)`.
pub(crate) fn open_work(text: &str, max_line: usize) -> Vec<(String, String, usize)> {
    // A message closing on a question ("Want me to take one of these?")
    // proposes its lists: the proposal and offer rules decide on them.
    let last = text.lines().rev().map(str::trim).find(|l| !l.is_empty());
    if last.is_some_and(|l| l.trim_end_matches(['*', '_', ')']).ends_with(['?', '？'])) {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut fence = Fence::default();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if fence.is_code(line) || is_table_row(line) {
            continue;
        }
        let Some((label, rest)) = label_of(line) else {
            continue;
        };
        if !open_label(&label) {
            continue;
        }
        let keyword = label.trim().to_string();
        let mut add = |t: &str, offset: usize| {
            if t.chars().nth(max_line).is_some() {
                return;
            }
            let t = item_text(t);
            if !t.is_empty() {
                out.push((t, keyword.clone(), offset));
            }
        };
        if !rest.is_empty() {
            add(&rest, i - 1);
        }
        // The list that follows (blank lines allowed between items; nested
        // items stay with their parent), or else the one line.
        let mut listed = false;
        let mut item_indent = None;
        while i < lines.len() {
            let l = lines[i];
            if l.trim().is_empty() {
                i += 1;
                continue;
            }
            if fence.is_code(l) {
                break;
            }
            let indent = l.len() - l.trim_start().len();
            match list_item_body(l) {
                Some(body) if item_indent.is_none_or(|d| indent <= d) => {
                    item_indent.get_or_insert(indent);
                    if label_of(body).is_some_and(|(lb, _)| open_label(&lb) || is_done_label(&lb))
                        && listed
                    {
                        break;
                    }
                    add(body, i);
                    listed = true;
                }
                Some(_) => {}
                None if listed || !rest.is_empty() => break,
                None => {
                    if label_of(l).is_none() {
                        add(l, i);
                        i += 1;
                    }
                    break;
                }
            }
            i += 1;
        }
    }
    out
}

fn is_done_label(label: &str) -> bool {
    label_words(label)
        .iter()
        .any(|w| DONE_WORDS.contains(&w.as_str()))
}

/// Phrases of a step that waits on the user, or of a value left to fill in.
#[rustfmt::skip]
const BLOCKED: &[&str] = &[
    "blocked on ", "blocked by ", "is blocked", "are blocked", "still blocked",
    "can't proceed", "cannot proceed", "can't continue", "cannot continue",
    "can't finish", "cannot finish", "couldn't finish", "could not finish",
    "waiting for you", "waiting on you", "waiting for your", "waiting on your",
    "needs your ", "need your ", "requires your ", "as a placeholder",
    "left a placeholder", "placeholder for now", "placeholder until",
    "once you've", "once you have", "after you ", "when you provide",
];

/// Sentences of the agent's last message that say a step is blocked on the
/// user or left as a placeholder: `(sentence, offset)`.
pub(crate) fn blocked(text: &str, max_line: usize) -> Vec<(String, usize)> {
    sentences_matching(text, max_line, BLOCKED)
}

/// Phrases that put work off until something happens.
#[rustfmt::skip]
const PARK: &[&str] = &[
    "park the ", "park this", "park it", "parking the ", "shelve the ", "shelve this",
    "hold off on ", "put on hold", "on hold until", "postpone the ", "postponed until",
    "leave it until", "leave that until", "leave this until",
];

/// Sentences that park work until later: `(sentence, offset)`.
pub(crate) fn parked(text: &str, max_line: usize) -> Vec<(String, usize)> {
    sentences_matching(text, max_line, PARK)
}

fn sentences_matching(text: &str, max_line: usize, phrases: &[&str]) -> Vec<(String, usize)> {
    let mut fence = Fence::default();
    let mut out = Vec::new();
    for (offset, line) in text.lines().enumerate() {
        if fence.is_code(line) || is_table_row(line) {
            continue;
        }
        let body = list_item_body(line).unwrap_or(line);
        for s in sentences(body) {
            if s.chars().nth(max_line).is_some() {
                continue;
            }
            let lower = s.to_lowercase().replace('’', "'");
            if phrases.iter().any(|p| lower.contains(p)) {
                let t = item_text(s);
                if !t.is_empty() {
                    out.push((t, offset));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        for l in [
            "Next",
            "Next focus",
            "Remaining",
            "Still open",
            "For Monday",
            "What's left",
        ] {
            assert!(open_label(l), "{l}");
        }
        for l in [
            "Done",
            "Fixed next to the header",
            "Summary",
            "Note",
            "Changes made",
        ] {
            assert!(!open_label(l), "{l}");
        }
    }

    #[test]
    fn blocks_under_any_label() {
        let text = "I split the loader.\n\nNext focus:\n- move the cache settings\n\n- document the flags\n\nRemaining: the retry path has no timeout.\n";
        let got: Vec<String> = open_work(text, 500).into_iter().map(|h| h.0).collect();
        assert_eq!(
            got,
            [
                "move the cache settings",
                "document the flags",
                "the retry path has no timeout"
            ]
        );
    }
}
