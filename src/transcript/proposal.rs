//! Closing proposals: a list of further work the agent proposes at the end of
//! a message ("What I'd suggest next — tell me what matters most:\n1. …\n2. …",
//! "Possible improvements:\n- …", "Optional:\n- …"), in any of the languages
//! below. When nobody answered it — no user reply came before the session
//! ended — each proposed item is a follow-up. A reply decides instead (the
//! user picks, declines or moves on), so a proposal a user message follows is
//! never a candidate.
//!
//! The lead-in is the line right above the list (blank lines allowed): it ends
//! in `:` or `?` and holds a proposal word ([`PROPOSAL`]: suggest, propose,
//! recommend, idea, improve, optional, …; "next", "option" and "possible"
//! only beside a word of the future such as "step" or "could", [`WEAK`]),
//! and reports no work done ("I made these improvements:"). The list closes the
//! message: at most two prose lines follow it. Items that are questions
//! (clarifying questions put to the user) are not proposals; fenced code and
//! table rows are never read; items over the line cap are skipped; at most
//! [`MAX_ITEMS`] items are taken.

use super::keywords::{Fence, list_item_body};
use super::runon::MAX_ITEMS;
use super::sentences::{is_table_row, item_text};

/// Word stems that make a lead-in a proposal, matched at the start of a word
/// (Latin, Cyrillic and Greek scripts) or anywhere (CJK). Lowercase.
#[rustfmt::skip]
const PROPOSAL: &[&str] = &[
    // English ("next", "option" and "possible" are in [`WEAK`])
    "suggest", "propos", "recommend", "idea", "improv", "enhanc", "optional",
    "nice to have", "nice-to-have", "worth ", "could also",
    // German
    "vorschlag", "vorschläg", "empfehl", "nächst", "idee", "verbesser", "erweiter",
    "möglich", "sinnvoll", "als nächstes",
    // Spanish, Portuguese, Italian
    "suger", "propon", "propuest", "recomend", "recomiend", "siguiente", "próxim", "mejora",
    "opción", "opcion", "podríamos", "a continuación", "sugest", "sugiro", "propost", "melhor", "suggeri",
    "prossim", "miglior", "consigli",
    // French
    "sugg", "recommand", "prochain", "idée", "amélior", "pourrions",
    // Russian, Czech
    "предлага", "предлож", "рекоменд", "следующ", "идеи", "идея", "вариант", "улучш", "дальше",
    "navrh", "další", "doporuč", "vylepš",
];

/// Stems of scripts without spaces: matched anywhere.
#[rustfmt::skip]
const PROPOSAL_CJK: &[&str] = &[
    "提案", "次に", "次の", "おすすめ", "改善", "建议", "下一步", "接下来", "改进", "可选",
    "제안", "다음", "추천", "개선",
];

/// English words that name further work only beside a word of the future or
/// of choice ([`FUTURE`]): "Next steps:", "Options for later:", "What could
/// come next?" propose; "Possible causes:", "The CLI accepts these options:",
/// "Next I'll:" (a plan the agent carries out) do not.
const WEAK: &[&str] = &["next", "option", "possible"];

/// Words that make a [`WEAK`] word propose.
#[rustfmt::skip]
const FUTURE: &[&str] = &[
    "step", "could", "would", "should", "might", "consider", "later", "follow-up",
    "follow up", "future", "what's next", "what next", "up next", "if you", "want",
    "to do", "todo", "for next",
];

/// Lead-ins that report work done, not proposed ("I made these
/// improvements:", "Improvements applied:").
#[rustfmt::skip]
const DONE: &[&str] = &[
    "i made", "i've made", "i have made", "i added", "i've added", "i have added",
    "i implemented", "i've implemented", "i applied", "i fixed", "i've fixed",
    "we made", "we added", "we implemented", "were made", "have been", "has been",
    "made these", "applied", "implemented", "completed",
];

/// Whether `p` stands in `lower` at the start of a word.
fn at_word_start(lower: &str, p: &str) -> bool {
    lower.match_indices(p).any(|(i, _)| {
        lower[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
            // "Next.js", "next-auth" name a product, not what comes next.
            && !(p == "next" && lower[i + p.len()..].starts_with(['.', '-']))
    })
}

/// Whether a lowercased lead-in holds a proposal word and reports no work
/// done.
fn proposes(lower: &str) -> bool {
    if DONE.iter().any(|d| at_word_start(lower, d)) {
        return false;
    }
    if PROPOSAL_CJK.iter().any(|p| lower.contains(p)) {
        return true;
    }
    PROPOSAL.iter().any(|p| at_word_start(lower, p))
        || (WEAK.iter().any(|p| at_word_start(lower, p))
            && FUTURE.iter().any(|f| lower.contains(f)))
}

/// Whether a line ends a lead-in: `:` or `?` (also full-width), emphasis and
/// spaces aside.
fn ends_lead_in(line: &str) -> bool {
    line.trim_end()
        .trim_end_matches(['*', '_', ' '])
        .ends_with([':', '?', '：', '？'])
}

/// The items of the proposal list that closes `text`, with their 0-based
/// lines.
pub(crate) fn closing(text: &str, max_line: usize) -> Vec<(String, usize)> {
    // A lead-in and a list: two lines at least.
    if !text.trim().contains('\n') {
        return Vec::new();
    }
    let mut fence = Fence::default();
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !fence.is_code(l) && !is_table_row(l) && !l.trim().is_empty())
        .collect();
    // The last list of the message: its top-level items, and the line above.
    let Some(last_item) = lines.iter().rposition(|(_, l)| list_item_body(l).is_some()) else {
        return Vec::new();
    };
    if lines.len() - 1 - last_item > 2 {
        return Vec::new();
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut first = last_item;
    while first > 0 && {
        let l = lines[first - 1].1;
        list_item_body(l).is_some() || indent(l) > indent(lines[last_item].1)
    } {
        first -= 1;
    }
    if first == 0 {
        return Vec::new();
    }
    let lead = lines[first - 1].1;
    if list_item_body(lead).is_some()
        || !ends_lead_in(lead)
        || !proposes(&super::lower::lower(lead))
    {
        return Vec::new();
    }
    let top = indent(lines[first].1);
    let mut out = Vec::new();
    for &(offset, line) in &lines[first..=last_item] {
        let Some(body) = list_item_body(line).filter(|_| indent(line) == top) else {
            continue;
        };
        if body.chars().count() > max_line || body.trim_end().ends_with(['?', '？']) {
            continue;
        }
        let item = item_text(body);
        if item.split_whitespace().count() >= 2 || item.chars().count() >= 4 {
            out.push((item, offset));
        }
        // A proposal is a short list: the rest of a longer one is not read.
        if out.len() == MAX_ITEMS {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<String> {
        closing(text, 400).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn a_proposal_list_closing_the_message() {
        let t = "Done, the dashboard runs.\n\n**Direction ok?** Was ich als Nächstes vorschlagen würde — sag, was dir am wichtigsten ist:\n1. **Timeline** per patient\n2. A fix hint in the error block\n\nWhat is missing at first glance?";
        assert_eq!(
            items(t),
            ["**Timeline** per patient", "A fix hint in the error block"]
        );
        let t = "Possible improvements:\n- Cache the parsed config\n  - keyed by path\n- Retry failed uploads";
        assert_eq!(
            items(t),
            ["Cache the parsed config", "Retry failed uploads"]
        );
        assert_eq!(
            items("建议下一步：\n1. 增加缓存层\n2. 补充测试用例"),
            ["增加缓存层", "补充测试用例"]
        );
    }

    #[test]
    fn not_a_proposal() {
        // A lead-in without a proposal word: a report.
        assert!(items("Changed files:\n- src/a.rs\n- src/b.rs").is_empty());
        // Questions put to the user.
        assert!(
            items("A few options to settle first:\n1. Which database?\n2. Hosted or local?")
                .is_empty()
        );
        // The list does not close the message.
        assert!(
            items("Next ideas:\n- Cache it\n- Retry uploads\n\nOne.\n\nTwo.\n\nThree lines of prose follow.")
                .is_empty()
        );
        // "context" holds "next" inside a word only.
        assert!(items("In this context:\n- Cache it\n- Retry uploads").is_empty());
        assert!(items("No lead-in at all\n- Cache it").is_empty());
        // Work done, a diagnosis, a description, a product name, a plan the
        // agent carries out itself.
        for lead in [
            "Done. I made these improvements:",
            "Possible causes:",
            "Next.js app structure:",
            "The CLI accepts these options:",
            "Improvements applied:",
            "Next I'll:",
        ] {
            let t = format!(
                "{lead}\n- Cached the parsed config for each run\n- Removed the second round trip"
            );
            assert!(items(&t).is_empty(), "{lead}");
        }
    }

    #[test]
    fn weak_words_propose_beside_a_word_of_the_future() {
        for lead in [
            "Next steps:",
            "What's next?",
            "Options for later:",
            "Possible follow-ups:",
            "Things we could do next:",
        ] {
            let t = format!("{lead}\n- Cache the parsed config\n- Retry failed uploads");
            assert_eq!(
                items(&t),
                ["Cache the parsed config", "Retry failed uploads"],
                "{lead}"
            );
        }
    }
}
