//! A list that says it is empty ("Follow-ups: none.", "Open items: n/a",
//! "Remaining: nothing for now", "残タスク: なし") holds no follow-up: the
//! word that says so is never a candidate.

/// Words that, alone, say a list is empty.
const EMPTY: &[&str] = &[
    "none",
    "nothing",
    "n/a",
    "na",
    "nil",
    "-",
    "—",
    "–",
    "없음",
    "없습니다",
    "없어요",
    "なし",
    "ありません",
    "特になし",
    "无",
    "没有",
    "暂无",
    "無",
    "aucun",
    "aucune",
    "rien",
    "keine",
    "keiner",
    "nichts",
    "ninguno",
    "ninguna",
    "nada",
];

/// Words that open a short "none" phrase ("none so far", "nothing left").
const OPENERS: &[&str] = &["none", "nothing", "n/a", "no"];

/// Words that may follow an opener in a short "none" phrase.
const AFTER: &[&str] = &[
    "yet",
    "so",
    "far",
    "for",
    "now",
    "at",
    "this",
    "time",
    "left",
    "else",
    "pending",
    "open",
    "remaining",
    "outstanding",
    "identified",
    "found",
    "known",
    "planned",
    "needed",
    "required",
    "follow-ups",
    "followups",
    "items",
    "todos",
    "blockers",
    "tasks",
    "steps",
];

/// Whether `text` only says that there is nothing: an empty-list word, or a
/// short phrase of one ("none so far", "nothing pending", "no follow-ups").
pub(super) fn says_nothing(text: &str) -> bool {
    // Several sentences ("none at this time. Follow-ups: nothing pending."):
    // each says nothing, a label before its colon aside.
    let parts: Vec<&str> = text
        .split(['.', ';', '。'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() > 1 {
        return parts.iter().all(|p| {
            let p = match p.split_once([':', '：']) {
                Some((label, rest)) if label.split_whitespace().count() <= 3 => rest,
                _ => p,
            };
            one_says_nothing(p)
        });
    }
    one_says_nothing(text)
}

/// [`says_nothing`] for one sentence.
fn one_says_nothing(text: &str) -> bool {
    let t = text
        .trim()
        .trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, '.' | '!' | '。' | '*' | '_' | '`' | '(' | ')')
        })
        .to_lowercase();
    if EMPTY.contains(&t.as_str()) {
        return true;
    }
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.'))
        .filter(|w| !w.is_empty())
        .collect();
    match words.split_first() {
        Some((first, rest)) if OPENERS.contains(first) && !rest.is_empty() && rest.len() <= 3 => {
            rest.iter().all(|w| AFTER.contains(w))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::says_nothing;

    #[test]
    fn empty_list_words_say_nothing() {
        for t in [
            "none.",
            "None",
            "N/A",
            "nothing",
            "—",
            "none so far",
            "Nothing pending.",
            "none at this time. Follow-ups: nothing pending.",
            "no follow-ups",
            "none at this time",
            "なし",
            "없음",
            "暂无",
            "rien",
            "keine",
            "nada",
        ] {
            assert!(says_nothing(t), "{t}");
        }
    }

    #[test]
    fn real_items_say_something() {
        for t in [
            "None of the tests cover the retry path",
            "Nothing breaks when the cache is cold, but measure it",
            "no",
            "Add a retry policy",
            "na\u{ef}ve date parsing in the importer",
            "Nada: rename the crate",
            "None yet. Rename the crate.",
        ] {
            assert!(!says_nothing(t), "{t}");
        }
    }
}
