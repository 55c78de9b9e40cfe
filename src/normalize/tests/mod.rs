//! Tests of `normalize`.

use super::*;

mod settled;

#[test]
fn markers_links_case_and_punctuation() {
    assert_eq!(normalize("  Add **lock** `timeout`.  "), "add lock timeout");
    assert_eq!(
        normalize("see [the docs](http://x.y/z) now!"),
        "see the docs now"
    );
    assert_eq!(
        normalize("ping [[People/Ann|Ann]] and [[wrap-cli]]"),
        "ping ann and wrap-cli"
    );
    assert_eq!(normalize("~~old~~ new;:"), "old new");
    assert_eq!(normalize("a\t\n  b"), "a b");
    assert_eq!(normalize("snake_case"), "snakecase");
}

#[test]
fn nfc_and_unicode_lowercase() {
    // "é" as e + combining acute equals the precomposed form.
    assert_eq!(normalize("Cafe\u{301}"), normalize("Café"));
    assert_eq!(normalize("ÄRGER"), "ärger");
    assert_eq!(normalize("다음 세션에 테스트."), "다음 세션에 테스트");
}

#[test]
fn normalization_is_a_fixed_point() {
    for s in [
        "~_~",
        "[a]*(b)",
        "[[a]*]",
        "İ\u{316}",
        "*~*~x",
        "plain text.",
    ] {
        let once = normalize(s);
        assert_eq!(normalize(&once), once, "{s:?}");
    }
    assert_eq!(normalize("[a]*(b)"), "a");
    assert_eq!(normalize("~_~"), "");
    let nested = format!("{}x{}", "[".repeat(20), "]".repeat(20));
    assert_eq!(normalize(&nested), "x");
    assert_eq!(normalize(&normalize(&nested)), "x");
    assert_eq!(normalize("~[](u)~ a"), "a");
    assert_eq!(normalize("[x[[y]]](u) [[p|q]]"), "xy q");
    for s in ["[1[[]()]]", "[[[]]]()"] {
        let once = normalize(s);
        assert_eq!(normalize(&once), once, "{s:?}");
    }
}

proptest::proptest! {
    #[test]
    fn ascii_fast_path_matches_the_general_pass(t in "[a-cA-C *_`~.!;: \t\n\r]{0,40}") {
        proptest::prop_assert_eq!(ascii_pass(&t), general_pass(&t));
    }
}

proptest::proptest! {
    #[test]
    fn similarity_is_strsims_normalized_levenshtein(a in "[a-c 가é]{0,12}", b in "[a-c 가é]{0,12}") {
        let expect = strsim::normalized_levenshtein(compared(&a), compared(&b));
        proptest::prop_assert_eq!(similarity(&a, &b).to_bits(), expect.to_bits());
    }
}

#[test]
fn similarity_of_long_keys_is_strsims() {
    let a = "ab".repeat(300);
    let b = format!("x{}", "ba".repeat(290));
    let expect = strsim::normalized_levenshtein(compared(&a), compared(&b));
    assert_eq!(similarity(&a, &b).to_bits(), expect.to_bits());
}

#[test]
fn unmatched_brackets_survive() {
    assert_eq!(normalize("[private] and [x"), "[private] and [x");
    assert_eq!(normalize("[a](b"), "[a](b");
}

#[test]
fn similarity_and_length_bound() {
    assert_eq!(similarity("abc", "abc"), 1.0);
    assert!(similarity("add lock timeout", "add lock timeouts") >= 0.85);
    assert!(lengths_compatible(100, 85, 0.85));
    assert!(!lengths_compatible(100, 84, 0.85));
    assert!(lengths_compatible(0, 0, 0.85));
}
