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
/// characters fall there). One byte per bucket keeps it at 32 bytes; the
/// similarity indexes keep a 16-byte clamped copy per row ([`Nibbles`]).
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
    /// Levenshtein distance of the two texts. (Saturating differences, so
    /// the loop has no branch and runs on vector registers.)
    #[inline]
    pub(super) fn bag_distance(&self, other: &Signature) -> u32 {
        let (mut more, mut less) = (0u32, 0u32);
        for (a, b) in self.0.iter().zip(other.0.iter()) {
            more += u32::from(a.saturating_sub(*b));
            less += u32::from(b.saturating_sub(*a));
        }
        more.max(less)
    }
}

/// A [`Signature`]'s counts clamped at 15, two to a byte: the 16 bytes a
/// similarity index keeps beside each row's mask. Clamping is monotone and
/// never widens a difference, so this bag distance is at most the
/// signature's (and the edit distance); below 16 of a character (most
/// texts) the two are equal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) struct Nibbles([u8; SIG_BUCKETS / 2]);

impl Nibbles {
    pub(super) fn of(sig: &Signature) -> Nibbles {
        Nibbles(std::array::from_fn(|i| {
            sig.0[2 * i].min(15) | sig.0[2 * i + 1].min(15) << 4
        }))
    }

    /// Bag distance over the clamped counts: never more than
    /// [`Signature::bag_distance`].
    #[inline]
    pub(super) fn bag_distance(&self, other: &Nibbles) -> u32 {
        let (mut more, mut less) = (0u32, 0u32);
        for (a, b) in self.0.iter().zip(other.0.iter()) {
            let (a0, a1, b0, b1) = (a & 15, a >> 4, b & 15, b >> 4);
            more += u32::from(a0.saturating_sub(b0)) + u32::from(a1.saturating_sub(b1));
            less += u32::from(b0.saturating_sub(a0)) + u32::from(b1.saturating_sub(a1));
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
    /// `sig` clamped, as the similarity indexes keep it beside each row.
    pub(super) nibbles: Nibbles,
}

/// What the similarity indexes and the cheap bounds read of a key: a key
/// without its texts (80 bytes against 144, and it borrows nothing).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub(super) class: u64,
    /// Characters of the compared part.
    pub(super) len: u32,
    pub(super) bigrams: Bigrams,
    pub(super) sig: Signature,
}

impl Shape {
    pub(super) fn of(k: &Key<'_>) -> Shape {
        Shape {
            class: k.class,
            len: k.len as u32,
            bigrams: k.bigrams,
            sig: k.sig,
        }
    }
}

impl<'a> Key<'a> {
    pub fn new(norm: &'a str) -> Self {
        let cmp = crate::normalize::compared(norm);
        let (sig, len) = Signature::of(cmp);
        Key {
            norm,
            cmp,
            sig,
            nibbles: Nibbles::of(&sig),
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
    edits_within(a.cmp, b.cmp, max, allowed, threshold)
}

/// The last step of [`close`] for compared parts `a` and `b`, the longer
/// of `max` characters, allowed `allowed` edits.
fn edits_within(a: &str, b: &str, max: usize, allowed: f64, threshold: f64) -> bool {
    crate::work::pair();
    if a == b {
        return true;
    }
    // A bit-parallel Levenshtein bounded by the allowed distance; within the
    // bound it is exact, and the score is formed exactly as
    // `strsim::normalized_levenshtein` forms it (checked in the tests).
    let args = rapidfuzz::distance::levenshtein::Args::default().score_cutoff(allowed as usize);
    match rapidfuzz::distance::levenshtein::distance_with_args(a.chars(), b.chars(), &args) {
        Some(d) => 1.0 - (d as f64) / (max as f64) >= threshold,
        None => false,
    }
}

/// [`similar`] for a pair whose bigram and bag-distance bounds are known to
/// hold (a row an index's scan gave, see `index::Rows::scan`), from the
/// other side's text alone: its key need not be built.
pub(super) fn similar_within_bounds(
    q: &Key<'_>,
    norm: &str,
    private: Option<u64>,
    threshold: f64,
) -> bool {
    let cmp = crate::normalize::compared(norm);
    let len = if cmp.is_ascii() {
        cmp.len()
    } else {
        cmp.chars().count()
    };
    let max = q.len.max(len);
    if max == 0 {
        return crate::guards::check(q.norm, norm, q.private, private).is_none();
    }
    let allowed = (1.0 - threshold) * max as f64 + 1e-9;
    q.len.abs_diff(len) as f64 <= allowed
        && edits_within(q.cmp, cmp, max, allowed, threshold)
        && crate::guards::check(q.norm, norm, q.private, private).is_none()
}

#[cfg(test)]
pub(super) mod tests;
