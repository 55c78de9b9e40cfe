use clap::Parser;

fn main() {
    // Die quietly on a closed pipe (`active-status list | head`), as other
    // Unix tools do, instead of panicking on the failed write.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = active_status::cli::Cli::parse();
    let code = match active_status::commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}");
            err.exit_code()
        }
    };
    std::process::exit(code);
}
