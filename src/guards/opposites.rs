//! The opposite-verb guard: two keys never match when one says a verb and
//! the other its opposite ("add" / "remove", "enable" / "disable", 추가 /
//! 삭제).

use crate::normalize::stem;
use std::sync::LazyLock;

/// Pairs of opposite verbs (base forms; Korean words match the start of a word).
const OPPOSITES: &[(&str, &str)] = &[
    ("add", "remove"),
    ("add", "delete"),
    ("add", "drop"),
    ("enable", "disable"),
    ("upgrade", "downgrade"),
    ("open", "close"),
    ("start", "stop"),
    ("start", "end"),
    ("show", "hide"),
    ("lock", "unlock"),
    ("include", "exclude"),
    ("install", "uninstall"),
    ("increase", "decrease"),
    ("import", "export"),
    ("upload", "download"),
    ("connect", "disconnect"),
    ("attach", "detach"),
    ("encrypt", "decrypt"),
    ("compress", "decompress"),
    ("expand", "collapse"),
    ("mount", "unmount"),
    ("subscribe", "unsubscribe"),
    ("follow", "unfollow"),
    ("block", "unblock"),
    ("allow", "deny"),
    ("allow", "block"),
    ("accept", "reject"),
    ("approve", "reject"),
    ("archive", "unarchive"),
    ("pin", "unpin"),
    ("freeze", "unfreeze"),
    ("push", "pull"),
    ("login", "logout"),
    ("merge", "split"),
    ("grant", "revoke"),
    ("publish", "unpublish"),
    ("register", "unregister"),
    ("hire", "fire"),
    ("buy", "sell"),
    ("추가", "삭제"),
    ("추가", "제거"),
    ("활성화", "비활성화"),
    ("시작", "중지"),
    ("시작", "종료"),
    ("열기", "닫기"),
    ("설치", "제거"),
    ("표시", "숨김"),
    ("표시", "숨기"),
    ("켜기", "끄기"),
    ("증가", "감소"),
    ("업로드", "다운로드"),
    ("업그레이드", "다운그레이드"),
    ("잠금", "해제"),
    ("포함", "제외"),
    ("허용", "차단"),
    ("가져오기", "내보내기"),
    ("확대", "축소"),
    ("생성", "삭제"),
];

/// The opposite pairs in key form (English stemmed like keys).
pub(super) static OPPOSITE_KEYS: LazyLock<Vec<(String, String)>> =
    LazyLock::new(|| OPPOSITES.iter().map(|(a, b)| (stem(a), stem(b))).collect());

/// The ASCII sides of the opposite pairs.
static OPPOSITE_ASCII: LazyLock<rustc_hash::FxHashSet<&'static str>> = LazyLock::new(|| {
    OPPOSITE_KEYS
        .iter()
        .flat_map(|(p, q)| [p.as_str(), q.as_str()])
        .filter(|w| w.is_ascii())
        .collect()
});

/// Whether `word` names a side of some opposite pair (as [`names`] says).
/// An ASCII word can only be an ASCII side itself: a side that is not
/// ASCII is no prefix of it.
pub(super) fn names_an_opposite(word: &str) -> bool {
    if word.is_ascii() {
        return OPPOSITE_ASCII.contains(word);
    }
    OPPOSITE_KEYS
        .iter()
        .any(|(p, q)| names(word, p) || names(word, q))
}

fn names(word: &str, verb: &str) -> bool {
    if verb.is_ascii() {
        word == verb
    } else {
        word.starts_with(verb)
    }
}

/// A word of `a` missing from `b` and a word of `b` missing from `a` that
/// are opposites.
///
/// Only words that name a side of some pair can be part of an answer, so
/// the others are left out before any word is looked for on the other
/// side (most keys hold none, and the answer is then known at once).
pub(super) fn opposite<'a>(a: &[&'a str], b: &[&'a str]) -> Option<(&'a str, &'a str)> {
    let only_a: Vec<&str> = a
        .iter()
        .copied()
        .filter(|w| names_an_opposite(w) && !b.contains(w))
        .collect();
    if only_a.is_empty() {
        return None;
    }
    let only_b: Vec<&str> = b
        .iter()
        .copied()
        .filter(|w| names_an_opposite(w) && !a.contains(w))
        .collect();
    first_opposites(&only_a, &only_b)
}

/// The first word of `xs` and the first word of `ys`, in that order of
/// search, that are opposites.
pub(super) fn first_opposites<'a>(xs: &[&'a str], ys: &[&'a str]) -> Option<(&'a str, &'a str)> {
    for x in xs {
        for y in ys {
            let hit = OPPOSITE_KEYS.iter().any(|(p, q)| {
                (names(x, p) && names(y, q) && !names(y, p))
                    || (names(x, q) && names(y, p) && !names(x, p))
            });
            if hit {
                return Some((x, y));
            }
        }
    }
    None
}
