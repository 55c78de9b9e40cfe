use super::*;

/// `text` after each edit `(at, with)`: `with`'s character replaces the
/// one at `at` (an even `at`) or is inserted there; an empty `with` deletes
/// the character at `at`. For property tests that need pairs of texts near
/// each other.
pub(in crate::merge) fn after_edits(text: &str, edits: &[(usize, String)]) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for (at, with) in edits {
        let at = (*at).min(c.len());
        match (with.chars().next(), at < c.len()) {
            (Some(x), true) if at % 2 == 0 => c[at] = x,
            (Some(x), _) => c.insert(at, x),
            (None, true) => {
                c.remove(at);
            }
            (None, false) => {}
        }
    }
    c.into_iter().collect()
}

/// Asserts `bound(a, b) <= factor × levenshtein(a, b)` on every pair.
fn bound_holds(pairs: &[(&str, &str)], factor: usize, bound: impl Fn(&Key, &Key) -> u32) {
    for &(a, b) in pairs {
        let (ka, kb) = (Key::new(a), Key::new(b));
        assert!(
            bound(&ka, &kb) as usize <= factor * strsim::levenshtein(a, b),
            "{a} {b}"
        );
    }
}

#[test]
fn bag_distance_bounds_levenshtein() {
    let pairs = [
        ("kitten", "sitting"),
        ("abc", "abc"),
        ("", "abc"),
        ("다음 세션", "다음 세션들"),
    ];
    bound_holds(&pairs, 1, |ka, kb| ka.sig.bag_distance(&kb.sig));
}

#[test]
fn bigram_bound_holds() {
    let pairs = [
        ("kitten", "sitting"),
        ("abc", "abd"),
        ("", "ab"),
        ("add lock timeout", "lock timeout add"),
    ];
    bound_holds(&pairs, 4, |ka, kb| ka.bigrams.differing(&kb.bigrams));
}

proptest::proptest! {
    /// For a pair inside the bounds an index's scan checks (the length
    /// window aside), the test from the other side's text alone is
    /// `similar`.
    #[test]
    fn within_bounds_is_similar(
        a in "[a-dé1 ]{0,30}",
        edits in proptest::collection::vec((0usize..32, "[a-dé1 ]?"), 0..5),
        t in 0.5f64..1.0,
        pa in proptest::option::of(0u64..2),
        pb in proptest::option::of(0u64..2),
    ) {
        // `b` is `a` after a few edits: most pairs are near each other.
        let b = after_edits(&a, &edits);
        let (ka, kb) = (Key::with_private(&a, pa), Key::with_private(&b, pb));
        let allowed = (1.0 - t) * ka.len.max(kb.len) as f64 + 1e-9;
        let bounds = f64::from(ka.bigrams.differing(&kb.bigrams)) <= 4.0 * allowed
            && f64::from(ka.sig.bag_distance(&kb.sig)) <= allowed;
        let expect = similar(&ka, &kb, t);
        if bounds {
            proptest::prop_assert_eq!(similar_within_bounds(&ka, &b, pb, t), expect);
        }
    }

    #[test]
    fn ascii_keys_hash_and_count_like_characters(a in "[ -~]{0,40}") {
        proptest::prop_assert_eq!(Bigrams::of(&a), Bigrams::of_chars(a.chars()));
        let mut sig = [0u8; SIG_BUCKETS];
        for c in a.chars() {
            sig[(c as u32 as usize) % SIG_BUCKETS] += 1;
        }
        proptest::prop_assert_eq!(Signature::of(&a), (Signature(sig), a.chars().count()));
    }

    /// The clamped counts' bag distance never exceeds the signature's,
    /// and equals it while no count passes 15.
    #[test]
    fn nibbles_bound_the_signature(a in "[a-c !]{0,60}", b in "[a-c !]{0,60}") {
        let ((sa, _), (sb, _)) = (Signature::of(&a), Signature::of(&b));
        let (na, nb) = (Nibbles::of(&sa), Nibbles::of(&sb));
        let (fine, coarse) = (sa.bag_distance(&sb), na.bag_distance(&nb));
        proptest::prop_assert!(coarse <= fine);
        if sa.0.iter().chain(&sb.0).all(|&c| c <= 15) {
            proptest::prop_assert_eq!(coarse, fine);
        }
    }

    /// `a` and `!` fall in one bucket, so long texts fill it past 255:
    /// the clamped counts still bound the edit distance from below.
    #[test]
    fn clamped_counts_stay_a_lower_bound(a in "[a!]{200,300}", b in "[a!b]{150,300}") {
        let (sa, _) = Signature::of(&a);
        let (sb, _) = Signature::of(&b);
        proptest::prop_assert!(sa.bag_distance(&sb) as usize <= strsim::levenshtein(&a, &b));
    }

    #[test]
    fn similar_is_exactly_the_strsim_rule(a in "[a-e ]{0,30}", b in "[a-e ]{0,30}", t in 0.5f64..1.0) {
        let expect = crate::normalize::similarity(&a, &b) >= t;
        proptest::prop_assert_eq!(close(&Key::new(&a), &Key::new(&b), t), expect);
        let by_def = matches_by_definition(&a, None, &b, None, t);
        proptest::prop_assert_eq!(similar(&Key::new(&a), &Key::new(&b), t), by_def);
    }
}

#[test]
fn similar_agrees_with_strsim() {
    let t = 0.85;
    let texts = [
        "add lock timeout",
        "add lock timeouts",
        "add a lock timeout",
        "remove lock",
        "",
    ];
    for a in texts {
        for b in texts {
            let expect = strsim::normalized_levenshtein(a, b) >= t;
            assert_eq!(
                close(&Key::new(a), &Key::new(b), t),
                expect,
                "{a:?} vs {b:?}"
            );
        }
    }
}
