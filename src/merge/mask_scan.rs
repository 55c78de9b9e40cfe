//! The bigram-mask bound over a bucket of the similarity index, the inner
//! loop of every candidate search: for each entry, the number of bits where
//! its 256-bit bigram set differs from the query's, against a budget. The
//! masks are stored as four columns (one per 64-bit word), one row per
//! entry.

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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
        fn the_scan_visits_the_rows_within_budget_in_order(
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
        }
    }
}
