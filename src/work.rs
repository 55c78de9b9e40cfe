//! A count of the merge's pairwise work, in debug builds only: the rows the
//! similarity indexes' scans visit, and the comparisons run in full (an
//! edit distance, a guard check). Tests read it (through `-vv`) to hold
//! the merge to near-linear work on a vault of near-identical items
//! without timing anything; a release build counts nothing and costs
//! nothing.

#[cfg(debug_assertions)]
use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(debug_assertions)]
static ROWS: AtomicU64 = AtomicU64::new(0);
#[cfg(debug_assertions)]
static PAIRS: AtomicU64 = AtomicU64::new(0);

/// Counts one comparison run in full.
#[inline(always)]
pub(crate) fn pair() {
    #[cfg(debug_assertions)]
    PAIRS.fetch_add(1, Ordering::Relaxed);
}

/// Counts `n` index rows visited by a scan.
#[inline(always)]
pub(crate) fn rows(n: usize) {
    #[cfg(debug_assertions)]
    ROWS.fetch_add(n as u64, Ordering::Relaxed);
    #[cfg(not(debug_assertions))]
    let _ = n;
}

/// (rows scanned, comparisons run in full) so far in this process; (0, 0)
/// in a release build.
pub(crate) fn counts() -> (u64, u64) {
    #[cfg(debug_assertions)]
    return (ROWS.load(Ordering::Relaxed), PAIRS.load(Ordering::Relaxed));
    #[cfg(not(debug_assertions))]
    (0, 0)
}
