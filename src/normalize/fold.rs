//! Word-level folding of a normalized text into its matching key: follow-up
//! boilerplate at the start removed, English articles dropped, Korean
//! request endings and English inflections folded, words repeated inside a
//! longer word dropped. Each step maps variants of one phrasing to one form;
//! the key is never shown, so the forms need not be words.

use super::phrases::{KO_ENDINGS, LEADS, MODALS, NOT_A_NOUN};
use super::stem::{stem, stem_cow};
use rustc_hash::FxHashSet;
use std::borrow::Cow;
use std::sync::LazyLock;

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
#[cfg(test)]
pub(super) fn fold(norm: &str) -> String {
    fold_certified(norm).0
}

/// The word folding of an already normalized text (see [`super::key`]),
/// and whether its result is certainly a fixed point of the folding
/// (`false` means "not known"). Only the ASCII path gives a certificate:
/// see [`fold_ascii`].
pub(super) fn fold_certified(norm: &str) -> (String, bool) {
    if norm.is_ascii() {
        return fold_ascii(norm);
    }
    (fold_general(norm), false)
}

fn fold_general(norm: &str) -> String {
    let mut words: Vec<String> = split_words(norm).map(str::to_string).collect();
    strip_leads(&mut words);
    drop_articles(&mut words);
    fold_korean_ending(&mut words);
    for w in &mut words {
        *w = stem(w);
    }
    drop_repeated(&mut words);
    words.join(" ")
}

/// [`fold`] for ASCII text: the same steps on borrowed words (no Korean
/// ending can end an ASCII text), allocating only the result and the rare
/// stem that gains a letter. Checked equal to the general path in the tests.
///
/// Also returns whether folding the result again would change nothing,
/// decided from what this fold did rather than by folding again: every
/// word of the result reads back as itself (no edge punctuation, not
/// empty, not a lone dash), no lead phrase can start it, no article is
/// left, no word was dropped as a repeat and none repeats, and each word
/// the stemmer changed is a stem of its own (stemming is not always
/// idempotent: "leds" → "led" → "lead"). Checked against folding again in
/// the tests.
fn fold_ascii(norm: &str) -> (String, bool) {
    // At most one word per two bytes: one allocation for the list.
    let mut words: Vec<Cow<'_, str>> = Vec::with_capacity(norm.len() / 2 + 1);
    words.extend(ascii_words(norm).map(Cow::Borrowed));
    strip_leads(&mut words);
    drop_articles_in_place(&mut words);
    let mut stems_settled = true;
    for w in &mut words {
        if let Cow::Borrowed(b) = *w {
            let stemmed = stem_cow(b);
            if stemmed.len() != b.len() || matches!(stemmed, Cow::Owned(_)) {
                stems_settled &= *stem_cow(&stemmed) == *stemmed;
            }
            *w = stemmed;
        }
    }
    // The words are ASCII: a character is a byte.
    let repeats = repeats_any(&words);
    if repeats {
        drop_repeated(&mut words);
    }
    let settled = stems_settled
        && !repeats
        && words
            .first()
            .is_none_or(|w| !FIRST_WORDS.contains(w.as_ref()))
        && words.iter().all(|w| reads_back(w));
    let mut out = String::with_capacity(norm.len());
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(w);
    }
    (out, settled)
}

/// Whether the ASCII word `w` of a folded text comes back from
/// [`ascii_words`] as itself and is kept by [`drop_articles`]: not empty,
/// not a lone dash, no edge punctuation at either end, not an article.
fn reads_back(w: &str) -> bool {
    let b = w.as_bytes();
    let edge = |c: u8| {
        matches!(
            c,
            b',' | b';'
                | b':'
                | b'!'
                | b'?'
                | b'.'
                | b'"'
                | b'\''
                | b'('
                | b')'
                | b'['
                | b']'
                | b'{'
                | b'}'
        )
    };
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            !edge(f) && !edge(l) && !matches!(b, [b'-' | b'>'] | b"the" | b"an" | b"a")
        }
        _ => false,
    }
}

/// [`split_words`] for ASCII text: words between single spaces, edge
/// punctuation trimmed only when a word does not start and end with a
/// letter or digit (the usual word), empty words and lone dashes dropped.
fn ascii_words(norm: &str) -> impl Iterator<Item = &str> {
    // Words are short: a plain loop over the bytes finds the spaces faster
    // than a searcher started for each word.
    let b = norm.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        while start <= b.len() {
            let end = b[start..]
                .iter()
                .position(|&c| c == b' ')
                .map_or(b.len(), |at| start + at);
            let w = &norm[start..end];
            start = end + 1;
            let wb = w.as_bytes();
            let w = if wb.first().is_some_and(u8::is_ascii_alphanumeric)
                && wb.last().is_some_and(u8::is_ascii_alphanumeric)
            {
                w
            } else {
                w.trim_matches(is_edge_punct)
            };
            if !(w.is_empty() || matches!(w.as_bytes(), [b'-' | b'>'])) {
                return Some(w);
            }
        }
        None
    })
}

/// Whether [`fold`] returns the ASCII text `norm` unchanged, decided
/// without allocating (false also when it cannot tell cheaply: more than
/// `REPEAT_WORDS` words, a first word that may start a lead phrase, an
/// article). True when every word is kept as it is: not empty, no edge
/// punctuation, not a lone dash, its own stem, and not repeated inside a
/// longer word.
#[cfg(test)]
pub(super) fn settled_ascii(norm: &str) -> bool {
    debug_assert!(norm.is_ascii());
    let mut words: [&str; REPEAT_WORDS] = [""; REPEAT_WORDS];
    let mut n = 0;
    for w in norm.split(' ') {
        if n == REPEAT_WORDS
            || w.is_empty()
            || w.starts_with(is_edge_punct)
            || w.ends_with(is_edge_punct)
            || (w.len() == 1 && w.starts_with(is_dash))
            || matches!(w, "the" | "an" | "a")
            || *stem_cow(w) != *w
        {
            return false;
        }
        words[n] = w;
        n += 1;
    }
    let words = &words[..n];
    if words.first().is_some_and(|w| FIRST_WORDS.contains(*w)) {
        return false;
    }
    !repeats_any(words)
}

/// Whether [`drop_repeated`] would drop a word of the ASCII `words` (the
/// same test without a list: a character is a byte).
fn repeats_any<S: AsRef<str>>(words: &[S]) -> bool {
    let len = |w: &S| w.as_ref().len();
    if words.len() < 2 || words.len() > REPEAT_WORDS || words.iter().all(|w| len(w) < 8) {
        return false;
    }
    words.iter().any(|w| {
        len(w) >= 4
            && words
                .iter()
                .any(|o| len(o) >= 2 * len(w) && holds(o.as_ref(), w.as_ref()))
    })
}

/// The words of a normalized text, edge punctuation trimmed, empty words
/// and lone dashes dropped.
fn split_words(norm: &str) -> impl Iterator<Item = &str> {
    norm.split(' ')
        .map(|w| w.trim_matches(is_edge_punct))
        .filter(|w| !(w.is_empty() || w.chars().count() == 1 && w.chars().all(is_dash)))
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '—' | '–' | '→' | '>')
}

/// Whether `words` starts with the words of `phrase`; returns their count.
fn starts_with<S: AsRef<str>>(words: &[S], phrase: &str) -> Option<usize> {
    let mut n = 0;
    for p in phrase.split(' ') {
        if words.get(n).map(AsRef::as_ref) != Some(p) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// The first words of the phrases of `LEADS` and `MODALS`: a text starting
/// with none of them has neither.
static FIRST_WORDS: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
    LEADS
        .iter()
        .chain(MODALS)
        .filter_map(|p| p.split(' ').next())
        .collect()
});

/// The longest phrase of `list` that `words` starts with, leaving at least one word.
fn longest<S: AsRef<str>>(words: &[S], list: &[&str]) -> Option<usize> {
    list.iter()
        .filter_map(|p| starts_with(words, p))
        .filter(|&n| n < words.len())
        .max()
}

fn strip_leads<S: AsRef<str>>(words: &mut Vec<S>) {
    loop {
        if !words
            .first()
            .is_some_and(|w| FIRST_WORDS.contains(w.as_ref()))
        {
            return;
        }
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
fn drop_articles<S: AsRef<str>>(words: &mut Vec<S>) {
    if !words
        .iter()
        .any(|w| matches!(w.as_ref(), "the" | "an" | "a"))
    {
        return;
    }
    let drop: Vec<bool> = (0..words.len())
        .map(|i| dropped_article(words[i].as_ref(), words.get(i + 1).map(AsRef::as_ref)))
        .collect();
    if !drop.contains(&true) {
        return;
    }
    let mut d = drop.into_iter();
    words.retain(|_| !d.next().unwrap_or(false));
}

/// Whether the word `w`, followed by `next`, is an article to drop.
fn dropped_article(w: &str, next: Option<&str>) -> bool {
    match w {
        "the" | "an" => next.is_some(),
        "a" => next.is_some_and(|n| {
            n.chars().count() > 1 && !NOT_A_NOUN.contains(&n) && n.chars().any(char::is_alphabetic)
        }),
        _ => false,
    }
}

/// [`drop_articles`] without a list of decisions: each word is decided
/// from itself and the next word as written, then moved down over the
/// dropped ones (positions at and after the current one are untouched).
fn drop_articles_in_place<S: AsRef<str>>(words: &mut Vec<S>) {
    if !words
        .iter()
        .any(|w| matches!(w.as_ref(), "the" | "an" | "a"))
    {
        return;
    }
    let mut kept = 0;
    for i in 0..words.len() {
        if !dropped_article(words[i].as_ref(), words.get(i + 1).map(AsRef::as_ref)) {
            words.swap(kept, i);
            kept += 1;
        }
    }
    words.truncate(kept);
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

/// Drops a word of four or more characters that also appears inside a word
/// at least twice as long ("the flaky testloginredirect test").
/// Only keys of at most `REPEAT_WORDS` words are looked at (the check is
/// quadratic in the number of words).
const REPEAT_WORDS: usize = 64;

fn drop_repeated<S: AsRef<str>>(words: &mut Vec<S>) {
    if let Some(keep) = repeated(words) {
        let mut k = keep.into_iter();
        words.retain(|_| k.next().unwrap_or(true));
    }
}

/// Which words [`drop_repeated`] keeps, or `None` when it keeps them all
/// without looking (too few or too many words, none long enough).
fn repeated<S: AsRef<str>>(words: &[S]) -> Option<Vec<bool>> {
    // A word of 8 characters has at least 8 bytes.
    if words.len() < 2 || words.len() > REPEAT_WORDS || words.iter().all(|w| w.as_ref().len() < 8) {
        return None;
    }
    let lens: Vec<usize> = words.iter().map(|w| w.as_ref().chars().count()).collect();
    let longest = lens.iter().copied().max().unwrap_or(0);
    if longest < 8 {
        // No word of four or more characters has a word twice as long.
        return None;
    }
    let keep: Vec<bool> = words
        .iter()
        .zip(&lens)
        .map(|(w, &n)| {
            n < 4
                || !words
                    .iter()
                    .zip(&lens)
                    .any(|(o, &m)| m >= 2 * n && holds(o.as_ref(), w.as_ref()))
        })
        .collect();
    Some(keep)
}

/// `hay.contains(needle)` for the short words of a key, without building a
/// substring searcher per call (the same bytes compared: a byte-wise match
/// of valid UTF-8 is a match of the strings).
fn holds(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    match n.first() {
        None => true,
        Some(&first) => h.windows(n.len()).any(|w| w[0] == first && w == n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stemming is not always idempotent, and the certificate knows it.
    #[test]
    fn a_stem_that_stems_again_is_not_certified() {
        assert_eq!(stem("leds"), "led");
        assert_eq!(stem("led"), "lead");
        assert_eq!(fold_ascii("fix leds"), ("fix led".to_string(), false));
        assert_eq!(fold_ascii("fix led"), ("fix lead".to_string(), true));
        assert_eq!(fold_ascii("fix lead"), ("fix lead".to_string(), true));
        // An article or lead left, a repeat dropped: not certified.
        assert!(!fold_ascii("fix bug the").1);
        assert!(!fold_ascii("the next step").1);
        assert!(!fold_ascii("login testloginredirect").1);
        assert!(fold_ascii("cache large test suite for nightly build").1);
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

    proptest::proptest! {
        /// The ASCII path folds as the general one; and a certified fold is
        /// a fixed point: folding it again changes nothing (words that stem
        /// again, leads exposed by a dropped article, an article made by the
        /// stemmer, repeats).
        #[test]
        fn ascii_fold_matches_the_general_path_and_its_certificate_holds(
            words in proptest::collection::vec(
                "(the|a|an|thes|next|nexts|session|we|should|todo|to|do|let's|in|for|follow-up|-|>|added|fixing|copies|stopped|leds|led|fed|uses|testloginredirect|login|test|bug|x|\\(a\\)|v0.1.0|,|\\.|\"q\"|\\(x\\)s|s\\.|:)",
                0..10,
            )
        ) {
            let norm = words.join(" ");
            let (out, certified) = fold_ascii(&norm);
            proptest::prop_assert_eq!(&out, &fold_general(&norm));
            if certified {
                proptest::prop_assert_eq!(fold(&out), out);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn holds_is_contains(h in "[ab가]{0,12}", n in "[ab가]{0,4}") {
            proptest::prop_assert_eq!(holds(&h, &n), h.contains(n.as_str()));
        }
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
