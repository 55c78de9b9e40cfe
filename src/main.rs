use clap::Parser;

fn main() {
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
