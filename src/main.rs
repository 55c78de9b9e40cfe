use clap::Parser;

// On Linux the binary allocates through jemalloc (docs/PERFORMANCE.md,
// "Issue 15 targets: where they stand (commit 463284a, session 9)"):
// glibc's malloc kept the pages the scan freed between the items it kept,
// so a cold run on the L benchmark vault peaked at 64-65 MiB resident for
// about 41 MiB of live data. jemalloc, told below to give freed pages back
// at once, peaked at about 51 MiB with the same code, no slower cold; the
// price is page faults, which make a warm run a few percent slower.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read at its first allocation: pages freed are
/// returned to the system at once (`dirty_decay_ms:0`) instead of after
/// jemalloc's default ten seconds, longer than a whole run. A
/// `_RJEM_MALLOC_CONF` variable in the environment still overrides them.
#[cfg(target_os = "linux")]
#[unsafe(export_name = "_rjem_malloc_conf")]
static MALLOC_CONF: &[u8; 34] = b"dirty_decay_ms:0,muzzy_decay_ms:0\0";

fn main() {
    // Die quietly on a closed pipe (`active-status list | head`), as other
    // Unix tools do, instead of panicking on the failed write.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = active_status::cli::Cli::parse();
    // Every command but the MCP server ends the process when it is done:
    // its large results are left to the exit instead of being freed.
    use active_status::cli::{Command, VaultCommand};
    if !matches!(cli.command, Command::Vault(VaultCommand::Mcp)) {
        active_status::exit_fast::leave_at_exit();
    }
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
