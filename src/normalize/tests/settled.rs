//! `settled` may skip the second pass of the key only where that pass
//! changes nothing: checked against the pass itself and against the key as
//! computed before the shortcut (every pass run until a fixed point).

use super::super::*;
use proptest::prelude::*;

/// The key as first written: passes until one changes nothing, no shortcut.
fn reference_key(text: &str) -> String {
    let mut out = key_pass(head_bytes(text, KEY_INPUT_BYTES));
    for _ in 0..8 {
        let again = key_pass(&out);
        if again == out {
            break;
        }
        out = again;
    }
    if out.chars().count() > KEY_CHARS {
        let head = compared_prefix(&out, KEY_CHARS);
        let mid_word = !out[head.len()..].starts_with(' ');
        let cut = match head.rfind(' ') {
            Some(at) if mid_word => &head[..at],
            _ => head,
        };
        out = reference_key(cut);
    }
    out
}

/// Words and marks that reach every branch of the key: leads, modals,
/// articles, inflections, irregular forms, metadata, markers, links,
/// private spans, punctuation, repeated words.
const WORDS: &str = "(the|a|an|A|The|next|session|Next|we|should|todo|TODO|to|do|let's|in|for|follow-up|-|>|—|added|fixing|copies|ran|sent|thes|nexts|stopped|leds|led|uses|testloginredirect|login|test|bug|x|\\(a\\)|v0.1.0|,|\\.|:|;|!|\\?|\"q\"|\\*b\\*|_c_|`d`|~~e~~|~|\\[\\[p\\|q\\]\\]|\\[l\\]\\(u\\)|\\[private\\]|<private>s</private>|#tag|\\^id|due:2026-01-02|\\[due:: 2026-01-02\\]|📅|2026-01-02|DONE|\\(A\\)|xs|ies|가|하자|다음|é|\t|  )";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn settled_keys_are_fixed_points_of_the_pass(words in proptest::collection::vec(WORDS, 0..12)) {
        let text = words.join(" ");
        // Both the raw text and its first pass (the case the shortcut serves).
        for k in [text.clone(), key_pass(&text)] {
            if settled(&k) {
                prop_assert_eq!(key_pass(&k), k);
            }
        }
    }

    #[test]
    fn certified_passes_are_fixed_points(words in proptest::collection::vec(WORDS, 0..12)) {
        let text = words.join(" ");
        for k in [text.clone(), key_pass(&text)] {
            let (once, folded) = key_pass_certified(&k);
            if folded && settled_given_fold(&once) {
                prop_assert_eq!(key_pass(&once), once);
            }
        }
    }

    #[test]
    fn keys_equal_the_keys_without_the_shortcut(words in proptest::collection::vec(WORDS, 0..12)) {
        let text = words.join(" ");
        prop_assert_eq!(key(&text), reference_key(&text));
    }

    #[test]
    fn settled_never_claims_a_changing_ascii_text(k in "[a-zA-Z0-9 .,:;!?'\"()\\[\\]<>*_`~#^|/-]{0,40}") {
        if settled(&k) {
            prop_assert_eq!(key_pass(&k), k);
        }
    }
}

#[test]
fn ordinary_keys_settle_after_one_pass() {
    for text in [
        "Refactor the flaky parser of `sync_client` before the release",
        "Review the broken lock file of `flush_schema` for the nightly build (#687)",
        "next session we should add a retry policy",
    ] {
        let once = key_pass(text);
        assert!(settled(&once), "{text:?} -> {once:?}");
        assert_eq!(key(text), once);
        // The key itself takes the shortcut: the fold certifies its result
        // and the steps before it leave that result as it is.
        let (certified, folded) = key_pass_certified(text);
        assert_eq!(certified, once);
        assert!(folded && settled_given_fold(&certified), "{text:?}");
    }
    // Not settled: an article, a lead, a marker, upper case, non-ASCII.
    for k in ["the x", "next x", "a*b", "Ab", "é", "", "x  y", "x."] {
        assert!(!settled(k), "{k:?}");
    }
}
