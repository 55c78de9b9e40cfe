use clap::Parser;

// On Linux the binary allocates through jemalloc (measured at 463284a):
// glibc's malloc kept the pages the scan freed between the items it kept,
// so a cold run on the L benchmark vault peaked at 64-65 MiB resident for
// about 41 MiB of live data. jemalloc gives freed pages back to the system
// in batches, when the library says a phase has dropped its scratch memory
// (`active_status::memory`): the same peak as giving each page back at once,
// without a system call per freed run of pages and a fault per page reused.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read at its first allocation: freed pages are kept
/// for reuse for up to ten seconds (longer than a whole run), and given back
/// whole when the library purges (see [`purge_freed_pages`]); none is merely
/// marked reusable by the system (`muzzy`), which would still count as
/// resident. A `_RJEM_MALLOC_CONF` variable in the environment still
/// overrides them.
#[cfg(target_os = "linux")]
#[unsafe(export_name = "_rjem_malloc_conf")]
static MALLOC_CONF: &[u8; 38] = b"dirty_decay_ms:10000,muzzy_decay_ms:0\0";

/// Gives every jemalloc arena's freed pages back to the system.
#[cfg(target_os = "linux")]
fn purge_freed_pages() {
    // SAFETY: `arena.<i>.purge` with i = MALLCTL_ARENAS_ALL (4096) is a
    // documented jemalloc control that reads and writes no value: every
    // pointer is null and the length zero. A failure changes nothing, so its
    // status is not needed.
    unsafe {
        tikv_jemalloc_sys::mallctl(
            c"arena.4096.purge".as_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        );
    }
}

fn main() {
    // Die quietly on a closed pipe (`active-status list | head`), as other
    // Unix tools do, instead of panicking on the failed write.
    active_status::platform::default_sigpipe();
    #[cfg(target_os = "linux")]
    active_status::memory::set_purge(purge_freed_pages);
    // A configured template renders in a child of this binary (src/render.rs).
    if std::env::args_os().nth(1).as_deref()
        == Some(std::ffi::OsStr::new(
            active_status::render::isolated::CHILD_ARG,
        ))
    {
        std::process::exit(active_status::render::isolated::child_main());
    }
    let cli = active_status::cli::Cli::parse();
    let code = match active_status::commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // Coloured only on a terminal, never with NO_COLOR (anstream decides).
            let style = anstyle::Style::new()
                .bold()
                .fg_color(Some(anstyle::AnsiColor::Red.into()));
            anstream::eprintln!("{style}error:{style:#} {err}");
            err.exit_code()
        }
    };
    std::process::exit(code);
}
