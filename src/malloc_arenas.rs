//! Fewer malloc arenas for a one-shot process.
//!
//! glibc's allocator gives each thread that allocates concurrently an arena
//! of its own (up to eight per core). The scan parses files on rayon's
//! threads, so the items it keeps live in those threads' arenas, and the
//! memory they free there (file texts, per-file result vectors) can be
//! reused only by threads of the same arena; the merge and the report then
//! grow the main arena instead. On the L benchmark vault that costs about
//! 10 MiB of peak resident memory (docs/PERFORMANCE.md, "Peak memory (issue
//! 15)").
//!
//! One arena for all threads saves the most memory but serialises the
//! scanning threads on the arena's lock: on a quiet 2-core machine it made a
//! cold run on L 1.6× slower. So the limit is one arena per core the process
//! may use: the threads still rarely wait for each other, and the freed
//! blocks are shared among far fewer arenas than glibc's default.
//!
//! The binary calls [`limit_arenas`] before any thread starts, for its
//! one-shot commands; a library user's process keeps its own settings.

/// Limits glibc's malloc to one arena per available core (a no-op on other
/// C libraries and systems). Call before any other thread starts.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let arenas = libc::c_int::try_from(cores).unwrap_or(libc::c_int::MAX);
        // SAFETY: `mallopt` only changes allocator tuning; called before any
        // other thread exists, so no allocation races with it.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

/// Gives the free memory of every glibc arena back to the system (a no-op
/// on other C libraries and systems).
///
/// The scan frees much of what it built (per-file result vectors, file
/// texts, the key memo) on its threads, in their arenas, where the merge,
/// running mostly on the main thread, cannot reuse it; the pages stay
/// resident until the process ends. Called once the scan's results are
/// gathered, it lowers the run's peak resident memory on the L benchmark
/// vault by about 4.5 MiB (docs/PERFORMANCE.md, session 8), for about 1 ms.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free memory to the system; glibc
    // locks each arena while it trims it.
    unsafe {
        libc::malloc_trim(0);
    }
}
