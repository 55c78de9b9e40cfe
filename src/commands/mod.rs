//! One function per subcommand; `run` dispatches. Everything here is glue
//! between the command line and the library modules.

mod act;
mod config_cmd;
mod extract;
mod history;
mod hook;
mod init;
mod list;
mod regen;
mod route;
mod stats;

use crate::cli::{Cli, Command};
use crate::config::{Config, Overrides};
use crate::error::{Error, Result};
use std::path::PathBuf;

/// What every vault command needs: the root, the configuration and verbosity.
pub struct Ctx {
    pub root: PathBuf,
    pub cfg: Config,
    pub quiet: bool,
    pub verbose: u8,
}

impl Ctx {
    pub fn load(cli: &Cli) -> Result<Ctx> {
        let cwd = std::env::current_dir().map_err(|source| Error::WorkingDir { source })?;
        let root = crate::discover::find_root(cli.root.as_deref(), &cwd)?;
        Self::for_root(cli, root)
    }

    pub fn for_root(cli: &Cli, root: PathBuf) -> Result<Ctx> {
        let overrides = Overrides {
            config_file: cli.config.clone(),
            lock_timeout_secs: cli.lock_timeout,
        };
        let mut cfg = crate::config::load(&root, &overrides)?;
        if !cli.quiet {
            for w in &cfg.warnings {
                eprintln!("warning: {w}");
            }
        }
        cfg.today = cli.today;
        Ok(Ctx {
            root,
            cfg,
            quiet: cli.quiet,
            verbose: cli.verbose,
        })
    }
}

/// Runs the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> Result<i32> {
    match &cli.command {
        Command::Regen(args) => {
            let ctx = Ctx::load(&cli)?;
            regen::regen(&ctx, args)
        }
        Command::Audit(args) => {
            let ctx = Ctx::load(&cli)?;
            regen::audit(&ctx, args.format)
        }
        Command::List(args) => {
            let ctx = Ctx::load(&cli)?;
            list::list(&ctx, args)
        }
        Command::Config => {
            let ctx = Ctx::load(&cli)?;
            config_cmd::show(&ctx)
        }
        Command::Extract(args) => {
            let ctx = Ctx::load(&cli)?;
            extract::extract(&ctx, args)
        }
        Command::Route(args) => {
            let ctx = Ctx::load(&cli)?;
            route::route(&ctx, args)
        }
        Command::Done(args) => {
            let ctx = Ctx::load(&cli)?;
            act::act(&ctx, args, crate::act::Action::Done)
        }
        Command::Cancel(args) => {
            let ctx = Ctx::load(&cli)?;
            act::act(&ctx, args, crate::act::Action::Cancel)
        }
        Command::Defer(args) => {
            let ctx = Ctx::load(&cli)?;
            let until = act::parse_date(&args.until)?;
            act::act(&ctx, &args.act, crate::act::Action::Defer { until })
        }
        Command::History(args) => {
            let ctx = Ctx::load(&cli)?;
            history::history(&ctx, args)
        }
        Command::Stats(args) => {
            let ctx = Ctx::load(&cli)?;
            stats::stats(&ctx, args)
        }
        Command::Hook(args) => hook::hook(&cli, args.event),
        Command::Init(args) => {
            let root = cli
                .root
                .clone()
                .or_else(|| std::env::var_os("ACTIVE_STATUS_ROOT").map(PathBuf::from));
            init::init(root, &cli, args)
        }
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(*shell, &mut cmd, "active-status", &mut std::io::stdout());
            Ok(crate::error::exit::OK)
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            clap_mangen::Man::new(cmd)
                .render(&mut std::io::stdout())
                .map_err(|e| Error::write("stdout", e))?;
            Ok(crate::error::exit::OK)
        }
    }
}

/// Prints a value as pretty JSON on stdout.
pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let s = serde_json::to_string_pretty(value).map_err(|source| Error::Serialize { source })?;
    println!("{s}");
    Ok(())
}
