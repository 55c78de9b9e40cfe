//! The bigram-mask bound over a bucket of the similarity index, the inner
//! loop of every candidate search: for each entry, the number of bits where
//! its 256-bit bigram set differs from the query's, against a budget. The
//! masks are stored as four columns (one per 64-bit word), so a vector unit
//! can test four entries at once (eight with AVX-512's 64-bit popcount);
//! the AVX-512, AVX2 and portable loops give the same rows in the same
//! order (checked in the tests).

use super::similarity::{Bigrams, Nibbles};

/// Bigram masks as four columns of 64-bit words, one row per entry, and
/// beside them each entry's clamped character counts (the next bound,
/// checked on the rows the masks let through).
#[derive(Debug, Default)]
pub(super) struct Masks {
    cols: [Vec<u64>; 4],
    sigs: Vec<Nibbles>,
}

impl Masks {
    pub(super) fn insert(&mut self, at: usize, mask: Bigrams, sig: Nibbles) {
        // Ids mostly arrive in ascending order: a push, not a shift.
        for (col, word) in self.cols.iter_mut().zip(mask.0) {
            col.insert(at, word);
        }
        self.sigs.insert(at, sig);
    }

    pub(super) fn remove(&mut self, at: usize) {
        for col in &mut self.cols {
            col.remove(at);
        }
        self.sigs.remove(at);
    }

    #[cfg(test)]
    pub(super) fn push(&mut self, mask: Bigrams) {
        let at = self.cols[0].len();
        self.insert(at, mask, Nibbles::default());
    }

    /// The four columns, borrowed.
    pub(super) fn cols(&self) -> Cols<'_> {
        let [c0, c1, c2, c3] = &self.cols;
        [c0, c1, c2, c3]
    }

    /// The clamped character counts, row by row.
    pub(super) fn sigs(&self) -> &[Nibbles] {
        &self.sigs
    }
}

/// Four columns of mask words (one per 64-bit word of a mask), row `i` of
/// every column belonging to the same entry.
pub(super) type Cols<'a> = [&'a [u64]; 4];

/// Calls `f` with every row `i` below `rows`, ascending, whose mask differs
/// from `q` in at most `budget` bits; stops (returning false) when `f`
/// returns false.
#[inline]
pub(super) fn scan(
    masks: Cols<'_>,
    rows: usize,
    q: &Bigrams,
    budget: u32,
    f: impl FnMut(usize) -> bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if avx512::available() {
            // SAFETY: the CPU supports the features, checked just above.
            return unsafe { avx512::scan(masks, rows, q, budget, f) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { avx2::scan(masks, rows, q, budget, f) };
        }
    }
    scan_portable(masks, rows, 0, q, budget, f)
}

/// The rows from `from` on, one at a time.
#[inline(always)]
fn scan_portable(
    masks: Cols<'_>,
    n: usize,
    from: usize,
    q: &Bigrams,
    budget: u32,
    mut f: impl FnMut(usize) -> bool,
) -> bool {
    let [c0, c1, c2, c3] = masks;
    // Checked in release builds too: the slices below rely on it.
    assert!(masks.iter().all(|c| c.len() >= n), "a mask per row");
    let (c0, c1, c2, c3) = (&c0[..n], &c1[..n], &c2[..n], &c3[..n]);
    for i in from..n {
        let d = (c0[i] ^ q.0[0]).count_ones()
            + (c1[i] ^ q.0[1]).count_ones()
            + (c2[i] ^ q.0[2]).count_ones()
            + (c3[i] ^ q.0[3]).count_ones();
        if d <= budget && !f(i) {
            return false;
        }
    }
    true
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Bigrams, Cols, scan_portable};
    use std::arch::x86_64::*;

    /// Four rows per step: the differing bits of each 64-bit word counted
    /// by nibble lookup (at most 32 per byte over the four columns), then
    /// summed per row; the rows within budget are visited in order.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn scan(
        masks: Cols<'_>,
        n: usize,
        q: &Bigrams,
        budget: u32,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let cols = masks;
        // Checked in release builds too: the loads below rely on it.
        assert!(cols.iter().all(|c| c.len() >= n), "a mask per row");
        let lut = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let nibble = _mm256_set1_epi8(0x0f);
        let qv = q.0.map(|w| _mm256_set1_epi64x(w as i64));
        let limit = _mm256_set1_epi64x(i64::from(budget));
        let mut i = 0;
        while i + 4 <= n {
            let mut bytes = _mm256_setzero_si256();
            for (col, qw) in cols.iter().zip(&qv) {
                // SAFETY: `i + 4 <= n` and every column holds at least `n` words.
                let v = unsafe { _mm256_loadu_si256(col.as_ptr().add(i).cast::<__m256i>()) };
                let x = _mm256_xor_si256(v, *qw);
                let lo = _mm256_and_si256(x, nibble);
                let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(x), nibble);
                bytes = _mm256_add_epi8(bytes, _mm256_shuffle_epi8(lut, lo));
                bytes = _mm256_add_epi8(bytes, _mm256_shuffle_epi8(lut, hi));
            }
            let counts = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
            let over = _mm256_cmpgt_epi64(counts, limit);
            let mut within = !_mm256_movemask_pd(_mm256_castsi256_pd(over)) & 0xf;
            while within != 0 {
                let lane = within.trailing_zeros() as usize;
                if !f(i + lane) {
                    return false;
                }
                within &= within - 1;
            }
            i += 4;
        }
        scan_portable(masks, n, i, q, budget, f)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Bigrams, Cols, scan_portable};
    use std::arch::x86_64::*;

    /// Whether the CPU counts the bits of eight 64-bit words at once.
    #[inline]
    pub(super) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }

    /// Eight rows per step: the differing bits of each column's eight words
    /// counted by `vpopcntq` and summed per row; the rows within budget are
    /// visited in order.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub(super) unsafe fn scan(
        masks: Cols<'_>,
        n: usize,
        q: &Bigrams,
        budget: u32,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let cols = masks;
        // Checked in release builds too: the loads below rely on it.
        assert!(cols.iter().all(|c| c.len() >= n), "a mask per row");
        let qv = q.0.map(|w| _mm512_set1_epi64(w as i64));
        let limit = _mm512_set1_epi64(i64::from(budget));
        let mut i = 0;
        while i + 8 <= n {
            let mut sum = _mm512_setzero_si512();
            for (col, qw) in cols.iter().zip(&qv) {
                // SAFETY: `i + 8 <= n` and every column holds at least `n` words.
                let v = unsafe { _mm512_loadu_si512(col.as_ptr().add(i).cast::<__m512i>()) };
                sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(_mm512_xor_si512(v, *qw)));
            }
            let mut within = _mm512_cmple_epu64_mask(sum, limit);
            while within != 0 {
                let lane = within.trailing_zeros() as usize;
                if !f(i + lane) {
                    return false;
                }
                within &= within - 1;
            }
            i += 8;
        }
        scan_portable(masks, n, i, q, budget, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One of the vector loops, called on a visitor.
    #[cfg(target_arch = "x86_64")]
    type Loop = fn(Cols<'_>, usize, &Bigrams, u32, &mut dyn FnMut(usize) -> bool) -> bool;

    fn visited(masks: &Masks, rows: usize, q: &Bigrams, budget: u32, stop: usize) -> Vec<usize> {
        let mut seen = Vec::new();
        scan(masks.cols(), rows, q, budget, |id| {
            seen.push(id);
            id != stop
        });
        seen
    }

    /// More rows than masks: a panic, never a read past the columns.
    #[test]
    #[should_panic]
    fn more_rows_than_masks_panics_instead_of_reading_past_them() {
        let mut masks = Masks::default();
        for _ in 0..3 {
            masks.push(Bigrams([0; 4]));
        }
        scan(masks.cols(), 8, &Bigrams([0; 4]), 256, |_| true);
    }

    proptest! {
        #[test]
        fn every_loop_visits_the_same_ids(
            rows in proptest::collection::vec(proptest::array::uniform4(any::<u64>()), 0..40),
            flips in proptest::collection::vec(proptest::collection::vec(0u32..256, 0..60), 40),
            q in proptest::array::uniform4(any::<u64>()),
            budget in 0u32..80,
            stop in 0usize..45,
        ) {
            // Rows near the query (a few bits flipped) and random ones.
            let mut masks = Masks::default();
            let ids: Vec<usize> = (0..rows.len()).collect();
            for (n, row) in rows.iter().enumerate() {
                let mut m = if n % 2 == 0 { q } else { *row };
                for &b in &flips[n] {
                    m[(b / 64) as usize] ^= 1 << (b % 64);
                }
                masks.push(Bigrams(m));
            }
            let q = Bigrams(q);
            let mut expect = Vec::new();
            scan_portable(masks.cols(), ids.len(), 0, &q, budget, |id| {
                expect.push(id);
                id != stop
            });
            let by_definition: Vec<usize> = ids
                .iter()
                .copied()
                .filter(|&i| q.differing(&Bigrams(std::array::from_fn(|k| masks.cols[k][i]))) <= budget)
                .collect();
            let upto = by_definition.iter().position(|&i| i == stop).map_or(by_definition.len(), |p| p + 1);
            prop_assert_eq!(&expect, &by_definition[..upto].to_vec());
            prop_assert_eq!(&visited(&masks, ids.len(), &q, budget, stop), &expect);
            #[cfg(target_arch = "x86_64")]
            {
                let by_loop = |simd: Loop| {
                    let mut seen = Vec::new();
                    simd(masks.cols(), ids.len(), &q, budget, &mut |id| {
                        seen.push(id);
                        id != stop
                    });
                    seen
                };
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU supports AVX2, checked just above.
                    prop_assert_eq!(&by_loop(|m, i, q, b, f| unsafe { avx2::scan(m, i, q, b, f) }), &expect);
                }
                if avx512::available() {
                    // SAFETY: the CPU supports the features, checked just above.
                    prop_assert_eq!(&by_loop(|m, i, q, b, f| unsafe { avx512::scan(m, i, q, b, f) }), &expect);
                }
            }
        }
    }
}
