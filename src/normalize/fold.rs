//! Word-level folding of a normalized text into its matching key: follow-up
//! boilerplate at the start removed, English articles dropped, Korean
//! request endings and English inflections folded, words repeated inside a
//! longer word dropped. Each step maps variants of one phrasing to one form;
//! the key is never shown, so the forms need not be words.

/// Phrases that introduce a follow-up rather than say what it is, removed
/// from the start of a key (repeatedly, longest first). Words as normalized
/// (lower case), compared after edge punctuation is trimmed.
const LEADS: &[&str] = &[
    "in the next session",
    "for the next session",
    "next session",
    "next time",
    "next steps",
    "next step",
    "next up",
    "next",
    "follow-up",
    "follow up",
    "followup",
    "todo",
    "to-do",
    "to do",
    "action item",
    "reminder",
    "later",
    "afterwards",
    "then",
    "also",
    "and",
    "다음 세션에서는",
    "다음 세션에서",
    "다음 세션에는",
    "다음 세션엔",
    "다음 세션에",
    "다음 세션",
    "다음 번에",
    "다음번에",
    "다음에는",
    "다음에",
    "나중에",
    "추후에",
    "추후",
    "이후에",
    "할 일",
];

/// Who-will-do-it phrases after a lead ("next session we should …").
const MODALS: &[&str] = &[
    "we should probably",
    "we should",
    "we need to",
    "we must",
    "we could",
    "we can",
    "we have to",
    "we want to",
    "we will",
    "we'll",
    "we're going to",
    "we are going to",
    "i should",
    "i need to",
    "i must",
    "i have to",
    "i want to",
    "i will",
    "i'll",
    "i'm going to",
    "i am going to",
    "let's",
    "lets",
    "let us",
    "let me",
    "you should",
    "someone should",
    "should",
    "need to",
    "needs to",
    "must",
    "have to",
    "going to",
    "gonna",
    "try to",
    "remember to",
    "don't forget to",
    "dont forget to",
    "make sure to",
    "please",
    "maybe",
    "probably",
    "can you",
    "could you",
];

/// Korean request and intention endings, folded off the end of the key
/// (longest first): "지원하자", "지원하기", "지원할 것" all become "지원".
const KO_ENDINGS: &[&str] = &[
    "해야 할 것",
    "해야 한다",
    "해야겠다",
    "해야 함",
    "해야 됨",
    "해야지",
    "해야함",
    "하면 좋겠다",
    "하면 좋을 듯",
    "할 예정",
    "해 보자",
    "해 보기",
    "해보자",
    "해보기",
    "해 두기",
    "해두기",
    "해 줘",
    "해줘",
    "해주기",
    "합시다",
    "하세요",
    "하도록",
    "하기로",
    "할 것",
    "할것",
    "할게",
    "할께",
    "하자",
    "하기",
    "한다",
    "하고",
    "보자",
    "보기",
];

/// Irregular English forms and their base form.
const IRREGULAR: &[(&str, &str)] = &[
    ("wrote", "write"),
    ("written", "write"),
    ("rewrote", "rewrite"),
    ("rewritten", "rewrite"),
    ("ran", "run"),
    ("made", "make"),
    ("built", "build"),
    ("rebuilt", "rebuild"),
    ("broke", "break"),
    ("broken", "break"),
    ("did", "do"),
    ("done", "do"),
    ("undid", "undo"),
    ("redid", "redo"),
    ("went", "go"),
    ("gone", "go"),
    ("got", "get"),
    ("gotten", "get"),
    ("chose", "choose"),
    ("chosen", "choose"),
    ("found", "find"),
    ("took", "take"),
    ("taken", "take"),
    ("began", "begin"),
    ("begun", "begin"),
    ("sent", "send"),
    ("spent", "spend"),
    ("kept", "keep"),
    ("held", "hold"),
    ("paid", "pay"),
    ("said", "say"),
    ("thought", "think"),
    ("brought", "bring"),
    ("bought", "buy"),
    ("caught", "catch"),
    ("taught", "teach"),
    ("gave", "give"),
    ("given", "give"),
    ("hid", "hide"),
    ("hidden", "hide"),
    ("knew", "know"),
    ("known", "know"),
    ("saw", "see"),
    ("seen", "see"),
    ("sold", "sell"),
    ("shown", "show"),
    ("told", "tell"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("understood", "understand"),
    ("drew", "draw"),
    ("drawn", "draw"),
    ("spoke", "speak"),
    ("spoken", "speak"),
    ("forgot", "forget"),
    ("forgotten", "forget"),
    ("froze", "freeze"),
    ("frozen", "freeze"),
    ("grew", "grow"),
    ("grown", "grow"),
    ("fell", "fall"),
    ("fallen", "fall"),
    ("led", "lead"),
    ("fed", "feed"),
    ("met", "meet"),
    ("lost", "lose"),
    ("meant", "mean"),
    ("used", "use"),
    ("using", "use"),
];

/// Words that an article may stand before without being one ("bug a in …").
const NOT_A_NOUN: &[&str] = &[
    "in", "on", "at", "to", "for", "and", "or", "of", "with", "from", "by", "is", "are", "was",
    "vs", "versus", "and/or", "but", "if", "then",
];

/// Characters trimmed from both ends of every word of the key.
fn is_edge_punct(c: char) -> bool {
    matches!(
        c,
        ',' | ';'
            | ':'
            | '!'
            | '?'
            | '.'
            | '"'
            | '\''
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '“'
            | '”'
            | '‘'
            | '’'
            | '…'
            | '。'
            | '、'
            | '·'
            | '—'
            | '–'
    )
}

/// The key of an already normalized text (see [`super::key`]).
pub(super) fn fold(norm: &str) -> String {
    let mut words: Vec<String> = norm
        .split(' ')
        .map(|w| w.trim_matches(is_edge_punct))
        .filter(|w| !(w.is_empty() || w.chars().count() == 1 && w.chars().all(is_dash)))
        .map(str::to_string)
        .collect();
    strip_leads(&mut words);
    drop_articles(&mut words);
    fold_korean_ending(&mut words);
    for w in &mut words {
        *w = stem(w);
    }
    drop_repeated(&mut words);
    words.join(" ")
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '—' | '–' | '→' | '>')
}

/// Whether `words` starts with the words of `phrase`; returns their count.
fn starts_with(words: &[String], phrase: &str) -> Option<usize> {
    let mut n = 0;
    for p in phrase.split(' ') {
        if words.get(n).map(String::as_str) != Some(p) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// The longest phrase of `list` that `words` starts with, leaving at least one word.
fn longest(words: &[String], list: &[&str]) -> Option<usize> {
    list.iter()
        .filter_map(|p| starts_with(words, p))
        .filter(|&n| n < words.len())
        .max()
}

fn strip_leads(words: &mut Vec<String>) {
    loop {
        let n = longest(words, LEADS).or_else(|| longest(words, MODALS));
        match n {
            Some(n) => {
                words.drain(..n);
            }
            None => return,
        }
    }
}

/// Drops "the" and "an" before a word, and "a" before a word that is not a
/// function word (so "bug a" and "plan a for x" keep their letter).
fn drop_articles(words: &mut Vec<String>) {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for i in 0..words.len() {
        let w = words[i].as_str();
        let next = words.get(i + 1).map(String::as_str);
        let drop = match w {
            "the" | "an" => next.is_some(),
            "a" => next.is_some_and(|n| {
                n.chars().count() > 1
                    && !NOT_A_NOUN.contains(&n)
                    && n.chars().any(char::is_alphabetic)
            }),
            _ => false,
        };
        if !drop {
            out.push(words[i].clone());
        }
    }
    *words = out;
}

/// Folds one Korean request ending off the end of the text.
fn fold_korean_ending(words: &mut Vec<String>) {
    if words.is_empty() {
        return;
    }
    let joined = words.join(" ");
    for e in KO_ENDINGS {
        if let Some(stem) = joined.strip_suffix(e) {
            let stem = stem.trim_end();
            if !stem.is_empty() && stem.chars().last().is_some_and(is_hangul) {
                *words = stem.split(' ').map(str::to_string).collect();
                return;
            }
        }
    }
}

fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Longer words are left alone (no English word needs it, and the
/// fixed-point loop stays short).
const MAX_STEMMED: usize = 32;

/// A light English stemmer for lower-case ASCII words: irregular forms to
/// their base, then `-ies`/`-ied` → `y`, `-ing`, `-ed`, `-es` (after a
/// sibilant), `-s`; a doubled final consonant undoubled; a final `e`
/// dropped. Repeated to a fixed point, so stemming a stem changes nothing.
pub fn stem(word: &str) -> String {
    if !(3..=MAX_STEMMED).contains(&word.len()) || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_string();
    }
    let mut w = IRREGULAR
        .iter()
        .find(|(form, _)| *form == word)
        .map_or(word, |(_, base)| base)
        .to_string();
    loop {
        let next = stem_once(&w);
        if next == w {
            return w;
        }
        w = next;
    }
}

fn stem_once(w: &str) -> String {
    let b = w.as_bytes();
    let n = b.len();
    let has_vowel = |s: &[u8]| s.iter().copied().any(is_vowel);
    let mut s: &str = w;
    let mut y = false;
    if n > 4 && (w.ends_with("ies") || w.ends_with("ied")) {
        s = &w[..n - 3];
        y = true;
    } else if n >= 6 && w.ends_with("ing") && has_vowel(&b[..n - 3]) {
        s = &w[..n - 3];
    } else if (n >= 5 && w.ends_with("ed") && has_vowel(&b[..n - 2]))
        || (n >= 5
            && w.ends_with("es")
            && (matches!(b[n - 3], b's' | b'x' | b'z')
                || w[..n - 2].ends_with("ch")
                || w[..n - 2].ends_with("sh")))
    {
        s = &w[..n - 2];
    } else if n > 3
        && w.ends_with('s')
        && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is"))
    {
        s = &w[..n - 1];
    }
    let mut out = s.to_string();
    if y {
        out.push('y');
    }
    let ob = out.as_bytes();
    let m = ob.len();
    let doubled = m >= 3 && ob[m - 1] == ob[m - 2] && !is_vowel(ob[m - 1]);
    if doubled || (m > 3 && ob[m - 1] == b'e') {
        out.pop();
    }
    out
}

/// Drops a word of four or more characters that also appears inside a word
/// at least twice as long ("the flaky testloginredirect test").
/// Only keys of at most `REPEAT_WORDS` words are looked at (the check is
/// quadratic in the number of words).
const REPEAT_WORDS: usize = 64;

fn drop_repeated(words: &mut Vec<String>) {
    if words.len() < 2 || words.len() > REPEAT_WORDS {
        return;
    }
    let keep: Vec<bool> = words
        .iter()
        .map(|w| {
            let n = w.chars().count();
            n < 4
                || !words
                    .iter()
                    .any(|o| o.chars().count() >= 2 * n && o.contains(w.as_str()))
        })
        .collect();
    let mut k = keep.into_iter();
    words.retain(|_| k.next().unwrap_or(true));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_fold_to_one_stem() {
        for group in [
            &["add", "added", "adds", "adding"][..],
            &["fix", "fixed", "fixes", "fixing"],
            &["update", "updated", "updates", "updating"],
            &["write", "wrote", "written", "writes", "writing"],
            &["stop", "stopped", "stopping", "stops"],
            &["process", "processes", "processed", "processing"],
            &["copy", "copies", "copied", "copying"],
            &["use", "used", "uses", "using"],
            &["need", "needed", "needs"],
            &["close", "closed", "closes", "closing"],
            &["test", "tests", "tested", "testing"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.iter().all(|s| s == &stems[0]),
                "{group:?} -> {stems:?}"
            );
        }
        assert_ne!(stem("add"), stem("remove"));
        assert_eq!(stem("v0.1.0"), "v0.1.0");
        assert_eq!(stem("이다"), "이다");
    }

    #[test]
    fn stemming_is_a_fixed_point() {
        for w in [
            "stringing",
            "embedded",
            "addeded",
            "processes",
            "ingingings",
            "series",
        ] {
            let s = stem(w);
            assert_eq!(stem(&s), s, "{w}");
        }
    }

    #[test]
    fn leads_modals_articles_and_endings() {
        assert_eq!(
            fold("next session we should add a retry policy"),
            fold("add a retry policy")
        );
        assert_eq!(
            fold("todo: remember to add the retry policy"),
            fold("add retry policy")
        );
        assert_eq!(
            fold("follow-up: let's add retry policy"),
            fold("add retry policy")
        );
        assert_eq!(
            fold("다음 세션에서 로그인 페이지 다크모드 지원하자"),
            fold("로그인 페이지 다크모드 지원하기")
        );
        assert_eq!(
            fold("로그인 페이지 다크모드 지원할 것"),
            "로그인 페이지 다크모드 지원"
        );
        assert_eq!(fold("fix bug a"), "fix bug a");
        assert_eq!(fold("fix bug a in parser"), "fix bug a in parser");
        assert_eq!(fold("add a password reset flow"), "ad password reset flow");
        assert_eq!(fold("next"), "next");
        assert_eq!(fold("todo"), "todo");
    }

    #[test]
    fn repeated_words_inside_identifiers_drop() {
        assert_eq!(
            fold("fixed flaky testloginredirect"),
            fold("fix the flaky testloginredirect test")
        );
        assert_eq!(fold("add log to login"), "ad log to login");
    }
}
