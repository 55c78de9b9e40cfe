//! The command line (SPEC §6), as clap derive types. Kept in the library so
//! completions and the man page are generated from the same definition.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "active-status",
    version,
    about = "Regenerate ACTIVE-STATUS.md from every durable follow-up source in a Markdown vault",
    long_about = "Regenerates ACTIVE-STATUS.md, the dashboard an AI coding session reads first, \
from every durable source in a Markdown vault (journal, project todos, PROGRESS, actives, inbox), \
under a file lock, with fuzzy dedup, a cap and a persistence audit that accounts for every item.",
    after_help = "Examples:\n  active-status regen                 regenerate the dashboard of the vault you are in\n  active-status --root ~/kb audit     show the audit without writing anything\n  active-status regen --check         exit 1 when the dashboard is stale (CI, pre-commit)"
)]
pub struct Cli {
    /// Vault root (default: $ACTIVE_STATUS_ROOT, else the nearest ancestor holding .agents/ or journal/)
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Configuration file to use instead of <root>/.agents/active-status.toml
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print nothing but errors
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more detail (every warning and untagged item)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Regenerate the dashboard under the lock and print the audit
    #[command(
        after_help = "Examples:\n  active-status regen\n  active-status regen --dry-run --format json\n  active-status regen --check        # exit 1 when stale, diff on stderr\n  active-status regen --no-wait      # exit 75 at once if another run holds the lock"
    )]
    Regen(RegenArgs),
    /// Print the persistence audit without writing anything (a dry run)
    #[command(
        after_help = "Examples:\n  active-status audit\n  active-status audit --format json | jq .audit"
    )]
    Audit(FormatArg),
    /// List every open item after the merge (no cap unless --limit)
    #[command(
        after_help = "Examples:\n  active-status list --project wrap-cli\n  active-status list --source project_todos --limit 5 --format json"
    )]
    List(ListArgs),
    /// Print the effective configuration, each value with where it came from
    #[command(after_help = "Example:\n  active-status config")]
    Config,
}

#[derive(Debug, Args)]
pub struct FormatArg {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct RegenArgs {
    /// Write nothing and take no lock
    #[arg(long, conflicts_with = "check")]
    pub dry_run: bool,
    /// Write nothing; exit 0 when the dashboard is current, 1 when stale or missing
    #[arg(long)]
    pub check: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Seconds to wait for the lock (default: lock.timeout_secs, 30)
    #[arg(long, value_name = "SECS")]
    pub lock_timeout: Option<f64>,
    /// Fail at once (exit 75) when another run holds the lock
    #[arg(long)]
    pub no_wait: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only items of this project
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Only items whose representative comes from this source kind
    #[arg(long, value_name = "KIND", value_parser = ["journal_next", "captured", "active_todos", "project_todos", "progress"])]
    pub source: Option<String>,
    /// At most N items
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}
