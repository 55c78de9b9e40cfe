//! One malloc arena for a one-shot process.
//!
//! glibc's allocator gives each thread that allocates concurrently an arena
//! of its own (up to eight per core). The scan parses files on rayon's
//! threads, so the items it keeps live in those threads' arenas, and the
//! memory they free there (file texts, per-file result vectors) can be
//! reused only by those threads; the merge and the report then grow the
//! main arena instead. On the L benchmark vault that costs about 15 MiB of
//! peak resident memory (docs/PERFORMANCE.md, "Peak memory (issue 15)").
//! With one arena every thread reuses every freed block; the threads still
//! allocate small blocks from their own caches (tcache) without locking.
//!
//! The binary calls [`single_arena`] before any thread starts, for its
//! one-shot commands; a library user's process keeps its own settings.

/// Limits glibc's malloc to one arena (a no-op on other C libraries and
/// systems). Call before any other thread starts.
pub fn single_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes allocator tuning; called before any
    // other thread exists, so no allocation races with it.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
