use clap::Parser;

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
        active_status::malloc_arenas::limit_arenas();
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
