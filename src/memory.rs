//! Giving freed memory back to the system in batches.
//!
//! A run's peak resident memory is a target (docs/PERFORMANCE.md), so freed
//! pages must not pile up. Giving each one back the moment it was freed kept
//! the peak down but cost a system call for every freed run of pages (3,367
//! in a cold run on the L benchmark vault), a page fault for every page
//! touched again, and, on two cores, an interruption of the other thread for
//! each (its address translations are flushed). Instead the binary lets its
//! allocator keep freed pages for reuse, and this module gives them back all
//! at once where a phase has just dropped its scratch memory: every
//! [`Batches::EVERY`] files of the scan, after the files are read and the
//! cache is finished, after the scan's lists are gathered, between the
//! merge's steps, and after the report. The peak stays where it was (each
//! batch is given back before the next phase grows), and most of the system
//! calls and faults go.
//!
//! The library only calls [`purge`]; the binary decides what it does
//! ([`set_purge`]). With none set (the library's tests, other crates) it
//! does nothing and the allocator runs as configured.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

static PURGE: OnceLock<fn()> = OnceLock::new();

/// Sets what [`purge`] does for the rest of the process (the first call
/// wins): give the allocator's freed pages back to the system.
pub fn set_purge(purge: fn()) {
    let _ = PURGE.set(purge);
}

/// Gives the allocator's freed pages back to the system, when the binary
/// asked for it.
pub(crate) fn purge() {
    if let Some(purge) = PURGE.get() {
        purge();
    }
}

/// Counts the steps of a parallel loop and purges after every
/// [`Batches::EVERY`]-th, whichever thread takes it.
#[derive(Default)]
pub(crate) struct Batches {
    steps: AtomicUsize,
}

impl Batches {
    /// Steps (files scanned or decoded) between two purges: on the L
    /// benchmark vault 128 files hold about 0.7 MB of text; purging every
    /// 32, 128, 512 or 2,048 files gave the same peak and 22.8–23.6 k page
    /// faults (measured at 8c6a8a6).
    pub(crate) const EVERY: usize = 128;

    /// One step done: true (after purging) when it completes a batch.
    pub(crate) fn step(&self) -> bool {
        let done = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
        let due = done.is_multiple_of(Self::EVERY);
        if due {
            purge();
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch completes every `EVERY` steps, however many threads count.
    #[test]
    fn a_batch_completes_every_so_many_steps() {
        let batches = Batches::default();
        let due: Vec<bool> = (0..3 * Batches::EVERY).map(|_| batches.step()).collect();
        let at: Vec<usize> = due
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d)
            .map(|(i, _)| i + 1)
            .collect();
        let n = Batches::EVERY;
        assert_eq!(at, [n, 2 * n, 3 * n]);

        let shared = Batches::default();
        let purged = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..n {
                        if shared.step() {
                            purged.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(purged.into_inner(), 4);
    }

    /// Purging calls what the binary set (here a counter; the library's
    /// tests run with no allocator purge otherwise).
    #[test]
    fn purging_calls_what_was_set() {
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        set_purge(|| {
            CALLS.fetch_add(1, Ordering::Relaxed);
        });
        let before = CALLS.load(Ordering::Relaxed);
        purge();
        assert!(CALLS.load(Ordering::Relaxed) > before);
    }
}
