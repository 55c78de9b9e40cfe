//! Guards: rules that keep two keys apart however similar they are. Every
//! guard is symmetric (it rejects `a, b` exactly when it rejects `b, a`) and
//! only ever rejects, so a pair the similarity bounds pass may still be kept
//! apart here, but never the reverse.
//!
//! - **Distinguishing tokens**: the two keys must hold the same set of
//!   numbers, dates, versions and identifiers (any word with a digit:
//!   `2026-05-10`, `v0.1.0`, `fw-007`, `#123`, `ca3`) and single letters
//!   ("bug a" / "bug b").
//! - **Opposite verbs**: one key says add and the other remove (enable /
//!   disable, open / close, 추가 / 삭제, …).
//! - **Different actions**: both keys start with a known verb and the verbs
//!   are neither equal nor synonyms ("work on x" / "revise x").
//! - **Private spans**: when both texts have `<private>` spans their
//!   contents must be equal (compared as a hash, never shown); when only one
//!   has, the spans are ignored.

use crate::normalize::normalize;
use std::hash::{Hash, Hasher};

/// Why two keys were kept apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guard {
    /// A number, date, version, identifier or single letter on one side only.
    Token(String),
    /// Opposite verbs, as written in the keys (first key's word first).
    Opposite(String, String),
    /// Different leading verbs that are not synonyms.
    Action(String, String),
    /// Both texts have private spans and their contents differ.
    Private,
}

impl std::fmt::Display for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Guard::Token(t) => write!(f, "distinguishing token `{t}` on one side only"),
            Guard::Opposite(a, b) => write!(f, "opposite verbs `{a}` / `{b}`"),
            Guard::Action(a, b) => write!(f, "different actions `{a}` / `{b}`"),
            Guard::Private => write!(f, "different private contents"),
        }
    }
}

/// A fingerprint of the contents of the `<private>` spans of a raw text
/// (None without any), for the private-span guard. Never shown.
pub fn private_mark(raw: &str) -> Option<u64> {
    mark_of(crate::privacy::spans(raw).into_iter().map(|(_, s)| s))
}

/// The private mark of span contents given in order (None without any):
/// 64 bits of a BLAKE3 hash keyed with the cache key (`user_key::mark_key`),
/// since the cache stores it: without the key it confirms no guess.
pub fn mark_of<'a>(spans: impl IntoIterator<Item = &'a str>) -> Option<u64> {
    let mut h = blake3::Hasher::new_keyed(&crate::user_key::mark_key());
    let mut any = false;
    for s in spans {
        let s = normalize(s);
        h.update(&(s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
        any = true;
    }
    let mut out = [0u8; 8];
    out.copy_from_slice(&h.finalize().as_bytes()[..8]);
    any.then(|| u64::from_le_bytes(out))
}

/// Checks every guard on two keys (and the private marks of their texts):
/// `None` when none keeps them apart.
pub fn check(a: &str, b: &str, pa: Option<u64>, pb: Option<u64>) -> Option<Guard> {
    crate::work::pair();
    if let (Some(x), Some(y)) = (pa, pb)
        && x != y
    {
        return Some(Guard::Private);
    }
    if a == b {
        return None;
    }
    let (wa, wb) = (words(a), words(b));
    if let Some(t) = token_difference(&wa, &wb) {
        return Some(Guard::Token(t));
    }
    if let Some((x, y)) = opposite(&wa, &wb) {
        return Some(Guard::Opposite(x.to_string(), y.to_string()));
    }
    if let (Some(x), Some(y)) = (wa.first(), wb.first())
        && x != y
        && let (Some(gx), Some(gy)) = (verb_group(x), verb_group(y))
        && gx != gy
    {
        return Some(Guard::Action(x.to_string(), y.to_string()));
    }
    None
}

/// The words of a key, in a vector sized once: growing it word by word
/// cost more than finding the words.
fn words(key: &str) -> Vec<&str> {
    let mut v = Vec::with_capacity(1 + key.bytes().filter(|&b| b == b' ').count());
    v.extend(key.split(' '));
    v
}

/// The words of `key` (split at every space) that pass
/// [`may_distinguish`], found in one pass over the bytes: a word is
/// looked at only when it is one byte long or holds a digit, `.` or `/`.
fn candidate_words(key: &str) -> impl Iterator<Item = &str> {
    let bytes = key.as_bytes();
    let mut start = 0;
    let mut marked = false;
    let mut at = 0;
    std::iter::from_fn(move || {
        while at <= bytes.len() {
            let i = at;
            at += 1;
            match bytes.get(i) {
                Some(b' ') | None => {
                    let (from, hit) = (start, marked || i - start == 1);
                    start = i + 1;
                    marked = false;
                    if hit {
                        // Spaces are ASCII: the word's ends are character
                        // boundaries.
                        return key.get(from..i);
                    }
                }
                Some(&c) => marked |= c.is_ascii_digit() || c == b'.' || c == b'/',
            }
        }
        None
    })
}

/// Whether [`candidate_words`] yields anything for `key`: a byte that
/// marks a word (a digit, `.` or `/`), or a word of one byte.
fn has_candidate_words(key: &[u8]) -> bool {
    let marks = |b: u8| b.is_ascii_digit() | (b == b'.') | (b == b'/');
    let marked = key.iter().fold(false, |hit, &b| hit | marks(b));
    let n = key.len();
    let one_byte = match n {
        0 => false,
        1 => key[0] != b' ',
        _ => {
            (key[0] != b' ' && key[1] == b' ')
                || (key[n - 1] != b' ' && key[n - 2] == b' ')
                || key.windows(3).fold(false, |hit, w| {
                    hit | ((w[0] == b' ') & (w[1] != b' ') & (w[2] == b' '))
                })
        }
    };
    marked || one_byte
}

/// A quick filter: every distinguishing word is one byte long or holds a
/// digit, a `.` or a `/` (see [`distinguishing`] and [`is_file_name`]).
fn may_distinguish(w: &str) -> bool {
    w.len() == 1
        || w.bytes()
            .any(|b| b.is_ascii_digit() || b == b'.' || b == b'/')
}

/// The comparable form of a distinguishing word, or None for other words.
fn distinguishing(w: &str) -> Option<&str> {
    let mut chars = w.chars();
    let single = matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_alphabetic() && c != 'i');
    if single || is_file_name(w) {
        return Some(w);
    }
    if !w.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let w = w.strip_prefix('#').unwrap_or(w);
    let w = match w.strip_prefix('v') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => rest,
        _ => w,
    };
    Some(w)
}

/// A file name (`stem.ext`: a stem of 2 or more characters, so `e.g.` is
/// not one, and an extension of 1 to 5 ASCII letters or digits starting
/// with a letter) or a path (`a/b`): it names one file, so two
/// texts naming different files are different tasks.
fn is_file_name(w: &str) -> bool {
    let w = w.trim_end_matches(['.', ',', ';', ':', ')']);
    if let Some((head, tail)) = w.split_once('/') {
        return !head.is_empty() && !tail.is_empty() && !w.contains("://");
    }
    match w.rsplit_once('.') {
        Some((stem, ext)) => {
            stem.chars().count() >= 2
                && (1..=5).contains(&ext.len())
                && ext.starts_with(|c: char| c.is_ascii_alphabetic())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        }
        None => false,
    }
}

/// A hash of the set of distinguishing words of a key: two keys whose
/// classes differ always differ in a distinguishing token (the converse
/// holds but for hash collisions), so an index may keep classes apart.
pub fn token_class(key: &str) -> u64 {
    // Most keys have no candidate word at all (two thirds of the Done
    // entries of the L benchmark vault): one pass over the bytes, with no
    // branch per byte, tells.
    if !has_candidate_words(key.as_bytes()) {
        return 0;
    }
    // Most keys hold a few tokens: they are gathered on the stack, and in
    // a vector only past `STACK` of them.
    const STACK: usize = 8;
    let mut few: [&str; STACK] = [""; STACK];
    let mut n = 0;
    let mut many: Vec<&str> = Vec::new();
    for w in candidate_words(key).filter_map(distinguishing) {
        if n < STACK {
            few[n] = w;
            n += 1;
        } else {
            if many.is_empty() {
                many.extend_from_slice(&few);
            }
            many.push(w);
        }
    }
    let words: &mut [&str] = if many.is_empty() {
        &mut few[..n]
    } else {
        &mut many
    };
    if words.is_empty() {
        return 0;
    }
    words.sort_unstable();
    let first_of_kind = |k: usize| k == 0 || words[k - 1] != words[k];
    // Hashed as the list of the distinct words is (its length, then each
    // word): the classes stay those a cache written before holds.
    let mut h = rustc_hash::FxHasher::default();
    (0..words.len())
        .filter(|&k| first_of_kind(k))
        .count()
        .hash(&mut h);
    for (k, w) in words.iter().enumerate() {
        if first_of_kind(k) {
            w.hash(&mut h);
        }
    }
    h.finish()
}

/// The smallest distinguishing word present on one side only.
fn token_difference(a: &[&str], b: &[&str]) -> Option<String> {
    // Each side's distinguishing words, sorted and without repeats (most
    // keys have none: no allocation then).
    fn set<'w>(ws: &[&'w str]) -> Vec<&'w str> {
        let mut v: Vec<&'w str> = ws
            .iter()
            .filter(|w| may_distinguish(w))
            .filter_map(|w| distinguishing(w))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    let (sa, sb) = (set(a), set(b));
    // The first place the two sorted lists differ holds the smallest word
    // of their symmetric difference.
    let (mut i, mut j) = (0, 0);
    loop {
        let smaller = match (sa.get(i), sb.get(j)) {
            (None, None) => return None,
            (Some(x), None) => x,
            (None, Some(y)) => y,
            (Some(x), Some(y)) => match x.cmp(y) {
                std::cmp::Ordering::Less => x,
                std::cmp::Ordering::Greater => y,
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                    continue;
                }
            },
        };
        return Some((*smaller).to_string());
    }
}

mod actions;
mod opposites;

use actions::verb_group;
use opposites::opposite;
#[cfg(test)]
use opposites::{OPPOSITE_KEYS, first_opposites, names_an_opposite};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::key;

    /// The definition of `token_difference`: the first element of the
    /// symmetric difference of the two sets of distinguishing words.
    fn token_difference_by_sets(a: &[&str], b: &[&str]) -> Option<String> {
        let set = |ws: &[&str]| -> std::collections::BTreeSet<String> {
            ws.iter()
                .filter_map(|w| distinguishing(w))
                .map(str::to_string)
                .collect()
        };
        let (sa, sb) = (set(a), set(b));
        sa.symmetric_difference(&sb).next().cloned()
    }

    /// The definition of `token_class`: the hash of the sorted list of the
    /// distinct distinguishing words.
    fn token_class_by_list(key: &str) -> u64 {
        let mut words: Vec<&str> = key.split(' ').filter_map(distinguishing).collect();
        if words.is_empty() {
            return 0;
        }
        words.sort_unstable();
        words.dedup();
        let mut h = rustc_hash::FxHasher::default();
        words.hash(&mut h);
        h.finish()
    }

    /// The definition of `opposite`: the first word of `a` missing from
    /// `b` and the first word of `b` missing from `a`, in order, that make
    /// an opposite pair, with no word left out beforehand.
    fn opposite_by_definition<'a>(a: &[&'a str], b: &[&'a str]) -> Option<(&'a str, &'a str)> {
        let only_a: Vec<&str> = a.iter().copied().filter(|w| !b.contains(w)).collect();
        let only_b: Vec<&str> = b.iter().copied().filter(|w| !a.contains(w)).collect();
        first_opposites(&only_a, &only_b)
    }

    /// Every side of every pair is found by the filter, and no other word
    /// of the test alphabet is.
    #[test]
    fn the_opposite_filter_knows_every_side() {
        for (p, q) in OPPOSITE_KEYS.iter() {
            assert!(names_an_opposite(p) && names_an_opposite(q), "{p} {q}");
        }
        assert!(
            names_an_opposite("비활성화하기"),
            "a Korean side names a longer word"
        );
        for w in ["fix", "the", "zzz", "", "삭"] {
            assert!(!names_an_opposite(w), "{w}");
        }
    }

    /// Words for the opposite-pair property: sides of pairs (stemmed, and a
    /// Korean side inside a longer word) and words that are no side.
    const VERB_WORDS: &str = "(add|remov|delet|enabl|disabl|open|close|start|stop|end|lock|unlock|push|pull|fix|the|x|추가|삭제하기|시작|종료|열기)";

    proptest::proptest! {
        #[test]
        fn opposite_equals_its_definition(
            a in proptest::collection::vec(VERB_WORDS, 0..7),
            b in proptest::collection::vec(VERB_WORDS, 0..7),
        ) {
            let (a, b): (Vec<&str>, Vec<&str>) = (a.iter().map(String::as_str).collect(), b.iter().map(String::as_str).collect());
            proptest::prop_assert_eq!(opposite(&a, &b), opposite_by_definition(&a, &b));
        }

        #[test]
        fn token_class_is_the_hash_of_the_distinct_words(
            words in proptest::collection::vec("(a|b|x|i|é|v1|v0.1.0|#12|12|a.rs|b.md|x/y|fix|the|e.g.|ca3|-|)", 0..20),
        ) {
            let key = words.join(" ");
            proptest::prop_assert_eq!(token_class(&key), token_class_by_list(&key));
            proptest::prop_assert_eq!(has_candidate_words(key.as_bytes()), candidate_words(&key).next().is_some());
        }

        #[test]
        fn token_difference_is_the_smallest_of_the_symmetric_difference(
            a in proptest::collection::vec("(a|b|x|i|é|v1|v0.1.0|#12|12|a.rs|b.md|x/y|fix|the|e.g.|ca3|-)", 0..8),
            b in proptest::collection::vec("(a|b|x|i|é|v1|v0.1.0|#12|12|a.rs|b.md|x/y|fix|the|e.g.|ca3|-)", 0..8),
        ) {
            let (a, b): (Vec<&str>, Vec<&str>) = (a.iter().map(String::as_str).collect(), b.iter().map(String::as_str).collect());
            proptest::prop_assert_eq!(token_difference(&a, &b), token_difference_by_sets(&a, &b));
        }
    }

    fn guard(a: &str, b: &str) -> Option<Guard> {
        check(&key(a), &key(b), private_mark(a), private_mark(b))
    }

    #[test]
    fn distinguishing_tokens() {
        assert_eq!(
            guard("Fix bug A", "Fix bug B"),
            Some(Guard::Token("a".into()))
        );
        assert!(matches!(
            guard(
                "[[2024-10-17 Interaction and Pleasure]]",
                "[[2024-11-21 Interaction and Pleasure]]"
            ),
            Some(Guard::Token(_))
        ));
        assert!(guard("Release v0.1.0", "Release v0.2.0").is_some());
        assert_eq!(guard("Release v0.1.0", "release 0.1.0"), None);
        assert_eq!(guard("Close #123", "close 123"), None);
        assert!(guard("Fix FW-007", "Fix FW-008").is_some());
        assert!(guard("Ask about CA3", "Ask about CA1").is_some());
        assert!(guard("Plan A for launch", "Plan B for launch").is_some());
        assert_eq!(guard("Add a retry", "Add the retry"), None);
        // File names and paths name one thing each (seen in a public
        // checklist: two test files merged at similarity 0.886).
        assert!(
            guard(
                "Investigate `n_object_missing_value.json`",
                "Investigate `n_object_missing_colon.json`"
            )
            .is_some()
        );
        assert!(guard("Refactor src/app/view.rs", "Refactor src/app/edit.rs").is_some());
        assert_eq!(
            guard("Update `config.toml` docs", "update config.toml docs"),
            None
        );
        assert_eq!(
            guard("Add examples, e.g. the lock", "Add examples e.g. the lock"),
            None
        );
    }

    #[test]
    fn opposite_verbs_and_actions() {
        assert_eq!(
            guard("Enable the cache", "Disable the cache"),
            Some(Guard::Opposite("enabl".into(), "disabl".into()))
        );
        assert!(matches!(
            guard("Add dark mode", "Remove dark mode"),
            Some(Guard::Opposite(..))
        ));
        assert!(matches!(
            guard("다크모드 추가하기", "다크모드 삭제하기"),
            Some(Guard::Opposite(..))
        ));
        assert!(matches!(
            guard(
                "Work on [[Thesis chapter 3]]",
                "Revise [[Thesis chapter 3]]"
            ),
            Some(Guard::Action(..))
        ));
        assert_eq!(guard("Update dependencies", "Upgrade dependencies"), None);
        assert_eq!(guard("Fix login", "Repair login"), None);
    }

    #[test]
    fn private_spans() {
        let bob = "call <private>Bob</private> about the contract";
        let alice = "call <private>Alice</private> about the contract";
        assert_eq!(guard(bob, alice), Some(Guard::Private));
        assert_eq!(guard(bob, "call about the contract"), None);
        assert_eq!(
            guard(bob, "Call <private>bob</private> about the contract"),
            None
        );
        assert_eq!(private_mark("no spans"), None);
        assert_eq!(
            crate::privacy::spans("a <private>x\ny</private> b <private>z"),
            vec![(1, "x\ny"), (2, "z")]
        );
    }

    proptest::proptest! {
        #[test]
        fn the_quick_filter_keeps_every_distinguishing_word(w in "[a-zI0-9./#:,)é-]{0,8}") {
            if distinguishing(&w).is_some() {
                proptest::prop_assert!(may_distinguish(&w), "{}", w);
            }
        }

        #[test]
        fn the_byte_loop_finds_the_words_the_word_filter_keeps(k in "[a-c1./é ]{0,12}") {
            let by_words: Vec<&str> = k.split(' ').filter(|w| may_distinguish(w)).collect();
            proptest::prop_assert_eq!(candidate_words(&k).collect::<Vec<_>>(), by_words);
        }
    }

    #[test]
    fn guards_are_symmetric_on_examples() {
        let texts = [
            "Fix bug A",
            "Fix bug B",
            "Enable cache",
            "Disable cache",
            "Work on x",
            "Revise x",
            "Release 0.1",
            "Release 0.2",
            "다크모드 추가",
            "다크모드 삭제",
            "call <private>Bob</private>",
            "call <private>Ann</private>",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(guard(a, b).is_some(), guard(b, a).is_some(), "{a} / {b}");
            }
        }
    }
}
