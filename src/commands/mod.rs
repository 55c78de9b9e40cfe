//! One function per subcommand; `run` dispatches. Everything here is glue
//! between the command line and the library modules.

mod act;
mod codex;
mod config_cmd;
mod explain;
mod extract;
mod history;
mod hook;
mod init;
mod layout;
mod list;
mod man;
mod oplog;
mod regen;
mod review;
mod route;
mod search;
mod stats;
mod view;

use crate::cli::{Cli, Command, LockArgs, VaultCommand};
use crate::config::{Config, Overrides};
use crate::error::{Error, Result};
use crate::lock::LockOptions;
use std::path::PathBuf;
use std::time::Duration;

/// What every vault command needs: the root, the configuration and verbosity.
pub struct Ctx {
    pub root: PathBuf,
    pub cfg: Config,
    pub quiet: bool,
    pub verbose: u8,
}

impl Ctx {
    /// Finds the vault (`--root`, `$ACTIVE_STATUS_ROOT`, else the nearest
    /// enclosing vault) and loads its configuration. `lock_timeout` is the
    /// `--lock-timeout` of a command that takes the lock.
    pub fn load(cli: &Cli, lock_timeout: Option<f64>) -> Result<Ctx> {
        let cwd = std::env::current_dir().map_err(|source| Error::WorkingDir { source })?;
        let root = crate::discover::find_root(cli.root.as_deref(), &cwd)?;
        Self::for_root(cli, root, lock_timeout)
    }

    /// Loads the configuration of the vault at `root`.
    pub fn for_root(cli: &Cli, root: PathBuf, lock_timeout: Option<f64>) -> Result<Ctx> {
        let overrides = Overrides {
            config_file: cli.config.clone(),
            lock_timeout_secs: lock_timeout,
        };
        let mut cfg = crate::config::load(&root, &overrides)?;
        if !cli.quiet {
            for w in &cfg.warnings {
                eprintln!("warning: {w}");
            }
        }
        cfg.today = cli.today()?;
        if cli.no_cache {
            cfg.cache = false;
        }
        Ok(Ctx {
            root,
            cfg,
            quiet: cli.quiet,
            verbose: cli.verbose,
        })
    }

    /// How a command that writes takes the lock.
    pub fn lock_options(&self, lock: &LockArgs) -> LockOptions {
        LockOptions {
            root: self.root.clone(),
            path: self.root.join(&self.cfg.lock_path),
            origin: self.cfg.origin("lock.path").to_string(),
            timeout: Duration::try_from_secs_f64(self.cfg.lock_timeout_secs)
                .unwrap_or(Duration::MAX),
            no_wait: lock.no_wait,
            announce: !self.quiet,
            command: crate::cli::command_name(),
        }
    }
}

/// Runs the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let command = match &cli.command {
        Command::Vault(command) => command,
        Command::Hook(args) => return hook::hook(&cli, args.event),
        Command::Init(args) => return init::init(&cli, args),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(*shell, &mut cmd, "active-status", &mut std::io::stdout());
            return Ok(crate::error::exit::OK);
        }
        Command::Man(args) => return man::man(args),
    };
    let ctx = Ctx::load(&cli, command.lock().and_then(|l| l.lock_timeout))?;
    match command {
        VaultCommand::Regen(args) => regen::regen(&ctx, args),
        VaultCommand::Audit(args) => regen::audit(&ctx, args.format),
        VaultCommand::List(args) => list::list(&ctx, args),
        VaultCommand::Config => config_cmd::show(&ctx),
        VaultCommand::Extract(args) => extract::extract(&ctx, args),
        VaultCommand::Route(args) => route::route(&ctx, args),
        VaultCommand::Done(args) => act::act(&ctx, args, crate::act::Action::Done),
        VaultCommand::Cancel(args) => act::act(&ctx, args, crate::act::Action::Cancel),
        VaultCommand::Defer(args) => {
            if let Some(w) = crate::act::past_until(args.until, ctx.cfg.today())
                && !ctx.quiet
            {
                eprintln!("warning: {w}");
            }
            act::act(
                &ctx,
                &args.act,
                crate::act::Action::Defer { until: args.until },
            )
        }
        VaultCommand::Keep(args) => review::decide_ids(&ctx, args, "keep"),
        VaultCommand::Same(args) => review::decide_ids(&ctx, args, "same"),
        VaultCommand::NotTask(args) => review::decide_ids(&ctx, args, "not-task"),
        VaultCommand::Decide(args) => review::decide(&ctx, args),
        VaultCommand::Review(args) => review::review(&ctx, args),
        VaultCommand::Wrap(args) => review::wrap(&ctx, args),
        VaultCommand::Log(args) => oplog::log(&ctx, args),
        VaultCommand::Undo(args) => oplog::undo(&ctx, args),
        VaultCommand::History(args) => history::history(&ctx, args),
        VaultCommand::Explain(args) => explain::explain(&ctx, args),
        VaultCommand::Search(args) => search::search(&ctx, args),
        VaultCommand::Stats(args) => stats::stats(&ctx, args),
        VaultCommand::View(args) => view::view(&ctx, args),
        VaultCommand::Mcp => {
            crate::mcp::serve(ctx.root, ctx.cfg)?;
            Ok(crate::error::exit::OK)
        }
    }
}

/// Reports a `--regen` run after a write: the dashboard's line on stderr
/// (unless quiet), or its error after saying that `written` (the write
/// that came first) stands.
pub(crate) fn finish_regen(
    ctx: &Ctx,
    regen: Option<Result<crate::report::Report>>,
    written: &str,
) -> Result<()> {
    match regen {
        Some(Err(e)) => {
            eprintln!("active-status: {written}; regenerating the dashboard failed:");
            Err(e)
        }
        Some(Ok(report)) if !ctx.quiet => {
            let status = if report.written {
                "written"
            } else {
                "unchanged"
            };
            eprintln!(
                "{}: {status} ({} open, {} shown)",
                report.output, report.audit.open, report.audit.shown
            );
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Prints a value as pretty JSON on stdout.
pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let s = serde_json::to_string_pretty(value).map_err(|source| Error::Serialize { source })?;
    println!("{s}");
    Ok(())
}
