//! The match test of two keys: normalized Levenshtein similarity of their
//! compared parts (the first `COMPARED_CHARS` characters) at least the
//! threshold, and no guard keeping them apart. Cheap lower bounds come
//! first: the length window the threshold implies, a bigram-set bound and a
//! bag-distance bound (each a lower bound on the Levenshtein distance)
//! reject most pairs before the distance runs; the guards run last, on the
//! few pairs that pass.

const SIG_BUCKETS: usize = 32;

/// A character histogram folded into 32 buckets. A count stops at 255:
/// clamping is monotone and never widens a difference, so the bag distance
/// stays a lower bound (and a compared part of at most `COMPARED_CHARS`
/// characters reaches 255 in one bucket only when nearly all its
/// characters fall there). One byte per bucket keeps the key at 128 bytes,
/// which resolution holds for every distinct Done entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Signature([u8; SIG_BUCKETS]);

impl Signature {
    pub fn of(text: &str) -> (Signature, usize) {
        let mut sig = [0u8; SIG_BUCKETS];
        if text.is_ascii() {
            for &b in text.as_bytes() {
                let slot = &mut sig[usize::from(b) % SIG_BUCKETS];
                *slot = slot.saturating_add(1);
            }
            return (Signature(sig), text.len());
        }
        let mut n = 0;
        for c in text.chars() {
            let slot = &mut sig[(c as u32 as usize) % SIG_BUCKETS];
            *slot = slot.saturating_add(1);
            n += 1;
        }
        (Signature(sig), n)
    }

    /// Bag distance over the folded histogram: never more than the
    /// Levenshtein distance of the two texts.
    fn bag_distance(&self, other: &Signature) -> u32 {
        let (mut more, mut less) = (0u32, 0u32);
        for (a, b) in self.0.iter().zip(other.0.iter()) {
            if a > b {
                more += u32::from(a - b);
            } else {
                less += u32::from(b - a);
            }
        }
        more.max(less)
    }
}

/// The set of character bigrams of a text, hashed into 256 bits. One edit
/// changes at most four bigrams of the set, so `popcount(a ^ b) / 4` is a
/// lower bound on the Levenshtein distance.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bigrams(pub [u64; 4]);

impl Bigrams {
    fn of(text: &str) -> Bigrams {
        if !text.is_ascii() {
            return Bigrams::of_chars(text.chars());
        }
        // A byte of ASCII text is its character.
        Bigrams::of_chars(text.bytes().map(char::from))
    }

    fn of_chars(chars: impl Iterator<Item = char>) -> Bigrams {
        let mut bits = [0u64; 4];
        let mut prev = 0u32;
        for c in chars {
            let c = c as u32;
            let h = prev.wrapping_mul(0x9E37_79B1) ^ c.wrapping_mul(0x85EB_CA77);
            let slot = (h.rotate_left(13).wrapping_mul(0xC2B2_AE3D) >> 24) as usize;
            bits[slot >> 6] |= 1 << (slot & 63);
            prev = c;
        }
        Bigrams(bits)
    }

    #[inline(always)]
    pub fn differing(&self, other: &Bigrams) -> u32 {
        self.0
            .iter()
            .zip(other.0.iter())
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }
}

/// A prepared query or entry: a matching key with its bounds.
#[derive(Clone, Debug)]
pub struct Key<'a> {
    /// The whole matching key (see `normalize::key`).
    pub norm: &'a str,
    /// The part the edit distance compares.
    pub cmp: &'a str,
    pub sig: Signature,
    pub bigrams: Bigrams,
    /// Characters of `cmp`.
    pub len: usize,
    /// The private mark of the text (see `guards::private_mark`).
    pub private: Option<u64>,
    /// Hash of the key's distinguishing tokens: keys of different classes
    /// never match (see `guards::token_class`).
    pub class: u64,
}

impl<'a> Key<'a> {
    pub fn new(norm: &'a str) -> Self {
        let cmp = crate::normalize::compared(norm);
        let (sig, len) = Signature::of(cmp);
        Key {
            norm,
            cmp,
            sig,
            bigrams: Bigrams::of(cmp),
            len,
            private: None,
            class: crate::guards::token_class(norm),
        }
    }

    /// The key of a text whose private spans hash to `private`.
    pub fn with_private(norm: &'a str, private: Option<u64>) -> Self {
        Key {
            private,
            ..Key::new(norm)
        }
    }
}

/// Whether two keys match by definition: similarity of the compared parts
/// at least `threshold` and no guard (the slow reference `similar` agrees with).
pub fn matches_by_definition(
    a: &str,
    pa: Option<u64>,
    b: &str,
    pb: Option<u64>,
    threshold: f64,
) -> bool {
    crate::normalize::similarity(a, b) >= threshold && crate::guards::check(a, b, pa, pb).is_none()
}

/// Whether `a` and `b` match: similar enough (cheap bounds first) and not
/// kept apart by a guard.
pub fn similar(a: &Key<'_>, b: &Key<'_>, threshold: f64) -> bool {
    close(a, b, threshold) && crate::guards::check(a.norm, b.norm, a.private, b.private).is_none()
}

/// Whether the compared parts of `a` and `b` reach `threshold`, guards aside.
pub fn close(a: &Key<'_>, b: &Key<'_>, threshold: f64) -> bool {
    let max = a.len.max(b.len);
    if max == 0 {
        return true;
    }
    let allowed = (1.0 - threshold) * max as f64 + 1e-9;
    if (a.len.abs_diff(b.len) as f64) > allowed {
        return false;
    }
    if f64::from(a.bigrams.differing(&b.bigrams)) > 4.0 * allowed {
        return false;
    }
    if f64::from(a.sig.bag_distance(&b.sig)) > allowed {
        return false;
    }
    if a.cmp == b.cmp {
        return true;
    }
    // A bit-parallel Levenshtein bounded by the allowed distance; within the
    // bound it is exact, and the score is formed exactly as
    // `strsim::normalized_levenshtein` forms it (checked in the tests).
    let args = rapidfuzz::distance::levenshtein::Args::default().score_cutoff(allowed as usize);
    match rapidfuzz::distance::levenshtein::distance_with_args(a.cmp.chars(), b.cmp.chars(), &args)
    {
        Some(d) => 1.0 - (d as f64) / (max as f64) >= threshold,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bag_distance_bounds_levenshtein() {
        let pairs = [
            ("kitten", "sitting"),
            ("abc", "abc"),
            ("", "abc"),
            ("다음 세션", "다음 세션들"),
        ];
        for (a, b) in pairs {
            let (ka, kb) = (Key::new(a), Key::new(b));
            assert!(ka.sig.bag_distance(&kb.sig) as usize <= strsim::levenshtein(a, b));
        }
    }

    #[test]
    fn bigram_bound_holds() {
        let pairs = [
            ("kitten", "sitting"),
            ("abc", "abd"),
            ("", "ab"),
            ("add lock timeout", "lock timeout add"),
        ];
        for (a, b) in pairs {
            let (ka, kb) = (Key::new(a), Key::new(b));
            assert!(
                ka.bigrams.differing(&kb.bigrams) as usize <= 4 * strsim::levenshtein(a, b),
                "{a} {b}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn ascii_keys_hash_and_count_like_characters(a in "[ -~]{0,40}") {
            proptest::prop_assert_eq!(Bigrams::of(&a), Bigrams::of_chars(a.chars()));
            let mut sig = [0u8; SIG_BUCKETS];
            for c in a.chars() {
                sig[(c as u32 as usize) % SIG_BUCKETS] += 1;
            }
            proptest::prop_assert_eq!(Signature::of(&a), (Signature(sig), a.chars().count()));
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
}
