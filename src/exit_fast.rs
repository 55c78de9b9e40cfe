//! Leaving large results to the operating system at exit.
//!
//! A one-shot command ends the process right after printing; freeing the
//! scanned vault, the merge and the report first (tens of thousands of small
//! allocations on a large vault) is work nobody needs, since the process's
//! memory goes back to the system as a whole. The binary turns this on for
//! its one-shot commands ([`leave_at_exit`]); the library default, and any
//! long-running use (the MCP server, tests, other crates), frees as usual.
//!
//! `std::mem::forget` is safe: nothing of what is released here holds a lock,
//! a file or a buffer that still needs flushing (output is written and
//! flushed before the value is released).

use std::sync::atomic::{AtomicBool, Ordering};

static LEAVE: AtomicBool = AtomicBool::new(false);

/// Makes [`release`] leave values to the process exit instead of freeing
/// them. Call only in a process that exits when its command is done.
pub fn leave_at_exit() {
    LEAVE.store(true, Ordering::Relaxed);
}

/// Drops `value`, or (after [`leave_at_exit`]) leaves its memory to the
/// process exit without running its destructor.
pub fn release<T>(value: T) {
    if LEAVE.load(Ordering::Relaxed) {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    static DROPPED: AtomicUsize = AtomicUsize::new(0);

    struct Counted;

    impl Drop for Counted {
        fn drop(&mut self) {
            DROPPED.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn frees_by_default_and_leaves_to_the_exit_when_told() {
        release(Counted);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
        leave_at_exit();
        release(Counted);
        // Other tests in this process may run meanwhile: leaving their
        // values to the exit changes nothing they can see.
        LEAVE.store(false, Ordering::Relaxed);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
    }
}
