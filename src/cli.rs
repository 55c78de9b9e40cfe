//! The command line (docs/FORMAT.md §7), as clap derive types. Kept in the library so
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
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,
    /// Configuration file to use instead of <root>/.agents/active-status.toml
    #[arg(long, global = true, value_name = "FILE", help_heading = GLOBAL)]
    pub config: Option<PathBuf>,
    /// Print nothing but errors
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        help_heading = GLOBAL
    )]
    pub quiet: bool,
    /// Print more detail (every warning and untagged item; -vv adds phase timings)
    #[arg(short, long, global = true, action = clap::ArgAction::Count, help_heading = GLOBAL)]
    pub verbose: u8,
    /// Today's date, YYYY-MM-DD, 1970-2100 (default: $ACTIVE_STATUS_TODAY, else the local date); fixes as_of, ages, deferral and the dates every write records
    #[arg(long, global = true, value_name = "DATE", value_parser = date_arg, help_heading = GLOBAL)]
    pub today: Option<jiff::civil::Date>,
    /// Neither read nor write the cache in .agents/cache/ (same output, every file parsed)
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub no_cache: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// The help heading of the options every command takes; a command's own
/// options come first, under "Options".
const GLOBAL: &str = "Global options";

/// The variable that fixes today when `--today` is not given.
pub const TODAY_VAR: &str = "ACTIVE_STATUS_TODAY";

/// The program and subcommand names of this run (`active-status route`):
/// the first argument that names a subcommand, never any other argument.
pub fn command_name() -> String {
    let mut args = std::env::args_os();
    let program = args
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "active-status".into());
    let cli = <Cli as clap::CommandFactory>::command();
    let sub = args.find_map(|a| {
        let a = a.to_str()?;
        cli.get_subcommands()
            .any(|c| c.get_name() == a)
            .then(|| a.to_string())
    });
    match sub {
        Some(s) => format!("{program} {s}"),
        None => program,
    }
}

/// A date given on the command line: exactly `YYYY-MM-DD`, a real day, in
/// the years 1970-2100. A bad one is a usage error (exit 2) naming the flag.
pub fn date_arg(s: &str) -> Result<jiff::civil::Date, String> {
    crate::clock::parse_date(s)
}

impl Cli {
    /// Today as fixed by `--today`, else by `ACTIVE_STATUS_TODAY` (read
    /// here rather than by clap, so a variable set in the environment never
    /// shows in a usage line as if it were a required flag); `None`: the
    /// local date.
    pub fn today(&self) -> crate::error::Result<Option<jiff::civil::Date>> {
        if self.today.is_some() {
            return Ok(self.today);
        }
        match std::env::var(TODAY_VAR) {
            Ok(v) if v.is_empty() => Ok(None),
            Ok(v) => date_arg(&v)
                .map(Some)
                .map_err(|reason| crate::error::Error::BadDate {
                    what: TODAY_VAR,
                    value: v,
                    reason,
                }),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(v)) => Err(crate::error::Error::BadDate {
                what: TODAY_VAR,
                value: v.to_string_lossy().into_owned(),
                reason: "not valid UTF-8".into(),
            }),
        }
    }
}

/// `--format`, declared once for every command that prints a report.
#[derive(Debug, Clone, Copy, Args)]
pub struct OutputArgs {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The lock flags, declared once and offered only by commands that take the lock.
#[derive(Debug, Clone, Copy, Args)]
pub struct LockArgs {
    /// Fail at once (exit 75) when another run holds the lock
    #[arg(long)]
    pub no_wait: bool,
    /// Seconds to wait for the lock (default: lock.timeout_secs, 30)
    #[arg(long, value_name = "SECS")]
    pub lock_timeout: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Every command. Those that work on a vault are one group, so the vault and
/// its configuration are loaded in one place for all of them.
#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(flatten)]
    Vault(VaultCommand),
    /// Claude Code / Codex hook adapters (read the hook JSON on stdin, never fail)
    #[command(
        after_help = "Examples:\n  echo '{\"cwd\":\".\",\"source\":\"startup\"}' | active-status hook session-start\n  active-status init --claude   # prints the settings.json hooks block"
    )]
    Hook(HookArgs),
    /// Write the vault config and lock folder; optionally git hooks and agent setup
    #[command(
        after_help = "Examples:\n  active-status init\n  active-status init --here          # a vault inside another vault's folder, on purpose\n  active-status init --git-hooks     # regenerate on commit/merge/rebase/checkout, never conflict\n  active-status init --claude        # /wrap skill + settings.json hooks block"
    )]
    Init(InitArgs),
    /// Print a shell completion script
    #[command(
        after_help = "Example:\n  active-status completions bash > ~/.local/share/bash-completion/completions/active-status"
    )]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff), or write every page to a folder
    #[command(
        after_help = "Examples:\n  active-status man > ~/.local/share/man/man1/active-status.1\n  active-status man route | man -l -\n  active-status man --dir ~/.local/share/man/man1   # every page, one per command"
    )]
    Man(ManArgs),
}

/// The commands that work on a vault: each gets a loaded [`Ctx`](crate::commands::Ctx).
#[derive(Debug, Subcommand)]
pub enum VaultCommand {
    /// Regenerate the dashboard under the lock and print the audit
    #[command(
        after_help = "Examples:\n  active-status regen\n  active-status regen --dry-run --format json\n  active-status regen --check        # exit 1 when stale, diff on stderr\n  active-status regen --no-wait      # exit 75 at once if another run holds the lock"
    )]
    Regen(RegenArgs),
    /// Print the persistence audit without writing anything (a dry run)
    #[command(
        after_help = "Examples:\n  active-status audit\n  active-status audit --format json | jq .audit"
    )]
    Audit(OutputArgs),
    /// List every open item after the merge (no cap unless --limit)
    #[command(
        after_help = "Examples:\n  active-status list --project wrap-cli\n  active-status list --source project_todos --limit 5 --format json"
    )]
    List(ListArgs),
    /// Print the effective configuration, each value with where it came from
    #[command(
        after_help = "Examples:\n  active-status config\n  ACTIVE_STATUS_CAP=20 active-status config   # shows `cap = 20  # env ACTIVE_STATUS_CAP`"
    )]
    Config,
    /// Find follow-up candidates in a Claude Code / Codex transcript or a text file
    #[command(
        after_help = "Examples:\n  active-status extract --transcript ~/.claude/projects/x/session.jsonl\n  active-status extract --transcript notes.txt --format json | jq '.candidates[] | select(.persisted | not)'"
    )]
    Extract(ExtractArgs),
    /// Persist follow-ups into the journal, a project, an active task, or record a skip or goal
    #[command(
        after_help = "Examples:\n  active-status route --to project --project wrap-cli add lock timeout\n  active-status route --to journal --project wrap-cli --regen \"retry flaky test\"\n  active-status route --to skip \"rewrite in Go\"\n  echo '[{\"text\":\"x\",\"to\":\"active\",\"project\":\"p\",\"task\":\"t\"}]' | active-status route --from -"
    )]
    Route(RouteArgs),
    /// Keep items open: out of the review for review.stale_days (a decisions line each)
    #[command(
        after_help = "Examples:\n  active-status keep 3fy6bd\n  active-status keep 3fy6bd k2j9aa --regen"
    )]
    Keep(DecideIdsArgs),
    /// Record that two open items are one task from now on
    #[command(after_help = "Example:\n  active-status same 3fy6bd k2j9aa")]
    Same(DecideIdsArgs),
    /// Record that items are not tasks: never listed again (counted as resolved)
    #[command(after_help = "Example:\n  active-status not-task 9ab2cd")]
    NotTask(DecideIdsArgs),
    /// Answer the review in one batch: a JSON array of {action, id[, other]}
    #[command(
        after_help = "Examples:\n  echo '[{\"action\":\"keep\",\"id\":\"3fy6bd\"},{\"action\":\"done\",\"id\":\"k2j9aa\"}]' | active-status decide --from -\n  active-status decide --from answers.json --dry-run"
    )]
    Decide(DecideArgs),
    /// The review queue: open items the tool is unsure about, with reason and evidence
    #[command(
        after_help = "Examples:\n  active-status review\n  active-status review --format json\n  active-status review --archive-before 2026-01-01   # one keep decision per older item\n  active-status review --interactive                 # one key per item: k d n s q"
    )]
    Review(ReviewArgs),
    /// The hand-off check: this project's last hand-off items and the review, with IDs
    #[command(
        after_help = "Examples:\n  active-status wrap --project wrap-cli\n  active-status wrap --format json   # then answer with decide --from -"
    )]
    Wrap(WrapArgs),
    /// Mark an item done: tick its checkboxes, or write a Done entry in the journal
    #[command(
        after_help = "Examples:\n  active-status done k3j9qa\n  active-status done \"add lock timeout\" --dry-run\n  active-status done journal/2026-05-06.md:12 --regen"
    )]
    Done(ActArgs),
    /// Cancel an item: `[-]` on its checkboxes, or a Skipped entry in the journal
    #[command(
        after_help = "Examples:\n  active-status cancel \"rewrite in Go\"\n  active-status cancel k3j9qa --format json"
    )]
    Cancel(ActArgs),
    /// Defer an item until a date: writes a start date (Tasks 🛫 or Dataview [start::])
    #[command(
        after_help = "Examples:\n  active-status defer k3j9qa --until 2026-06-01\n  active-status defer \"port to Windows\" --until 2026-07-01 --dry-run"
    )]
    Defer(DeferArgs),
    /// The operation log: every command that wrote to the vault, newest first
    #[command(
        after_help = "Examples:\n  active-status log\n  active-status log --limit 5 --format json"
    )]
    Log(LogArgs),
    /// Revert one operation (default: the last one not undone) when its files still hold what it wrote
    #[command(
        after_help = "Examples:\n  active-status undo --dry-run        # the diff, nothing written\n  active-status undo\n  active-status undo k3j9qa2b --regen"
    )]
    Undo(UndoArgs),
    /// The history of one item: every day and file it appeared in, merges, resolution
    #[command(
        after_help = "Examples:\n  active-status history \"add lock timeout\"\n  active-status history journal/2026-05-06.md:12 --format json"
    )]
    History(HistoryArgs),
    /// Search every item, open, resolved or cancelled, and every Done/Skipped entry, ranked (BM25)
    #[command(
        after_help = "Examples:\n  active-status search csv export\n  active-status search '#12' --status resolved\n  active-status search gen_vault.rs --project wrap-cli --since 2026-01-01 --format json\n  active-status search 내보내기"
    )]
    Search(SearchArgs),
    /// Why one item is where it is: where it was collected, what merged with it, what resolved it, near misses
    #[command(
        after_help = "Examples:\n  active-status explain lstmwg\n  active-status explain \"add lock timeout\" --format json"
    )]
    Explain(ExplainArgs),
    /// Vault statistics: created vs done per week, age of open items, zombies, stuck projects
    #[command(
        after_help = "Examples:\n  active-status stats\n  active-status stats --zombie-days 30\n  active-status stats --format json | jq .zombies"
    )]
    Stats(StatsArgs),
    /// Write a self-contained HTML view: priorities, every open item with filters, charts
    #[command(
        after_help = "Examples:\n  active-status view                       # writes .agents/view.html\n  active-status view --open\n  active-status view --out site/status.html --format json"
    )]
    View(ViewArgs),
    /// Serve the Model Context Protocol on stdin/stdout (tools: status, list, route, done, cancel, defer, extract, stats, history, explain, search; the dashboard and the HTML view as resources)
    #[command(
        after_help = "Examples:\n  active-status mcp                      # started by the agent, not by hand\n  active-status init --claude            # registers it in .mcp.json"
    )]
    Mcp,
}

#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Where to write the page, relative to the vault root (default: .agents/view.html; an .html file outside the source folders)
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Open the page in the default browser once written
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (`route`, `hook pre-compact`); none: the main page
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub command: Vec<String>,
    /// Write every page (active-status.1, active-status-regen.1, …) into this folder
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Create a vault here even inside another vault's folder
    #[arg(long)]
    pub here: bool,
    /// Install git hooks (pre-commit, post-merge, post-rewrite, post-checkout) and a merge rule
    #[arg(long)]
    pub git_hooks: bool,
    /// Write a /wrap skill for Claude Code and print the settings.json hooks block
    #[arg(long)]
    pub claude: bool,
    /// Write a /wrap skill for Codex and print its hooks configuration
    #[arg(long)]
    pub codex: bool,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Transcript file: Claude Code JSONL, Codex JSONL, JSON, Markdown or plain text
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present_any = ["sweep", "session", "since", "project", "capture"],
        conflicts_with_all = ["sweep", "session"]
    )]
    pub transcript: Option<PathBuf>,
    /// The transcript of this session id, found in the default transcript folders (in a Claude Code skill: ${CLAUDE_SESSION_ID})
    #[arg(long, value_name = "ID", conflicts_with = "sweep")]
    pub session: Option<String>,
    /// Read every session in the default transcript folders (~/.claude/projects, $CLAUDE_CONFIG_DIR, ~/.config/claude/projects, ~/.codex/sessions)
    #[arg(long)]
    pub sweep: bool,
    /// With --sweep: only sessions changed since this age (7d, 12h) or date (YYYY-MM-DD)
    #[arg(long, value_name = "AGE|DATE", requires = "sweep")]
    pub since: Option<String>,
    /// With --sweep: only sessions whose working folder names this project
    #[arg(long, value_name = "P", requires = "sweep")]
    pub project: Option<String>,
    /// With --sweep: write each session's new orphans to the inbox (idempotent)
    #[arg(long, requires = "sweep")]
    pub capture: bool,
    /// How to read the transcript: auto-detect, or plain text whatever it holds
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub input_format: InputFormat,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// How `extract` reads a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    Auto,
    Text,
}

#[derive(Debug, Args)]
pub struct RouteArgs {
    /// Destination
    #[arg(
        long,
        value_enum,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub to: Option<crate::route::Dest>,
    /// Project slug (required for --to project and --to active)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Task slug (required for --to active)
    #[arg(long, value_name = "T")]
    pub task: Option<String>,
    /// Journal date YYYY-MM-DD (default: today)
    #[arg(long, value_name = "D", value_parser = date_arg)]
    pub date: Option<jiff::civil::Date>,
    /// Regenerate the dashboard while still holding the lock
    #[arg(long)]
    pub regen: bool,
    /// Read a JSON array of {"text","to","project","task"} from FILE or - (stdin)
    #[arg(long, value_name = "FILE|-")]
    pub from: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
    /// The follow-up text (words are joined with spaces)
    #[arg(
        value_name = "TEXT",
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub text: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ActArgs {
    /// The item: its ID, its path:line, or a text that matches exactly one open item
    #[arg(value_name = "ITEM", required = true)]
    pub item: Vec<String>,
    /// Date of a Done/Skipped journal entry and of ✅/❌ fields (default: today)
    #[arg(long, value_name = "D", value_parser = date_arg)]
    pub date: Option<jiff::civil::Date>,
    /// Print the edits as a diff and write nothing (takes no lock)
    #[arg(long, conflicts_with = "regen")]
    pub dry_run: bool,
    /// Regenerate the dashboard while still holding the lock
    #[arg(long)]
    pub regen: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct DecideIdsArgs {
    /// The items: IDs (or path:line); `same` takes two
    #[arg(value_name = "ID", required = true)]
    pub ids: Vec<String>,
    /// Date of the decision (default: today)
    #[arg(long, value_name = "D")]
    pub date: Option<String>,
    /// Print what would be recorded and write nothing (takes no lock)
    #[arg(long, conflicts_with = "regen")]
    pub dry_run: bool,
    /// Regenerate the dashboard while still holding the lock
    #[arg(long)]
    pub regen: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct DecideArgs {
    /// A JSON file of answers, or `-` for stdin
    #[arg(long, value_name = "FILE|-", required = true)]
    pub from: String,
    /// Date of the decisions (default: today)
    #[arg(long, value_name = "D")]
    pub date: Option<String>,
    /// Check the batch and print what it would do; write nothing
    #[arg(long, conflicts_with = "regen")]
    pub dry_run: bool,
    /// Regenerate the dashboard while still holding the lock
    #[arg(long)]
    pub regen: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// Only this project's review items
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Record one `keep` decision for every review item last seen before DATE
    #[arg(long, value_name = "DATE")]
    pub archive_before: Option<String>,
    /// Answer each item with one key on a terminal: k keep, d done, n not-task, s skip, q quit
    #[arg(long, conflicts_with = "archive_before")]
    pub interactive: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Show only the newest N operations
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// The operation ID (or a unique prefix of at least 3 characters); default: the last one not undone
    #[arg(value_name = "OP")]
    pub op: Option<String>,
    /// Print the diff (private text redacted) and write nothing (takes no lock)
    #[arg(long, conflicts_with = "regen")]
    pub dry_run: bool,
    /// Regenerate the dashboard while still holding the lock
    #[arg(long)]
    pub regen: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct WrapArgs {
    /// The project (default: the one the working directory is in)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct DeferArgs {
    /// The start date: the item is deferred until then (YYYY-MM-DD)
    #[arg(long, value_name = "DATE", required = true, value_parser = date_arg)]
    pub until: jiff::civil::Date,
    #[command(flatten)]
    pub act: ActArgs,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The item: its path:line, or a text that matches it
    #[arg(value_name = "ITEM", required = true)]
    pub item: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to look for: words, identifiers (`#12`, `gen_vault.rs`, `parseConfig`), any language (words are joined with spaces)
    #[arg(value_name = "QUERY", required = true)]
    pub query: Vec<String>,
    /// Only hits of this project
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Only open, resolved (done) or cancelled (skipped) hits
    #[arg(long, value_enum, default_value_t = crate::search::StatusFilter::All)]
    pub status: crate::search::StatusFilter,
    /// Only hits whose latest date (last seen, or closed) is on or after DATE (YYYY-MM-DD); leaves out undated hits
    #[arg(long, value_name = "DATE")]
    pub since: Option<jiff::civil::Date>,
    /// At most N hits (0: all)
    #[arg(long, value_name = "N", default_value_t = crate::search::DEFAULT_LIMIT)]
    pub limit: usize,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The item: its ID, its path:line, or its text (an open or a resolved item)
    #[arg(value_name = "ID|TEXT", required = true)]
    pub item: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Zombie age and stuck-project window in days (default: stats.zombie_days, 14)
    #[arg(long, value_name = "N")]
    pub zombie_days: Option<u32>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub event: HookEvent,
}

#[derive(Debug, Subcommand, Clone, Copy)]
pub enum HookEvent {
    /// Print a compact summary as SessionStart additionalContext
    #[command(
        after_help = "Examples:\n  echo '{\"cwd\":\"/home/me/kb\",\"source\":\"startup\"}' | active-status hook session-start"
    )]
    SessionStart,
    /// Capture the transcript's orphan follow-ups into .agents/inbox/
    #[command(
        after_help = "Examples:\n  echo '{\"transcript_path\":\"/tmp/s.jsonl\",\"cwd\":\"/home/me/kb/projects/wrap-cli\",\"session_id\":\"abc123\"}' | active-status hook pre-compact"
    )]
    PreCompact,
    /// Capture the transcript's orphan follow-ups when the session ends (/clear, logout, exit)
    #[command(
        after_help = "Examples:\n  echo '{\"transcript_path\":\"/tmp/s.jsonl\",\"cwd\":\"/home/me/kb\",\"session_id\":\"abc123\",\"reason\":\"clear\"}' | active-status hook session-end"
    )]
    SessionEnd,
    /// Codex's Stop (after every turn): capture the transcript's new orphan follow-ups
    #[command(
        after_help = "Examples:\n  echo '{\"transcript_path\":\"/tmp/rollout.jsonl\",\"cwd\":\"/home/me/kb\",\"session_id\":\"abc123\",\"turn_id\":\"t1\"}' | active-status hook stop"
    )]
    Stop,
}

#[derive(Debug, Args)]
pub struct RegenArgs {
    /// Write nothing and take no lock
    #[arg(long, conflicts_with = "check")]
    pub dry_run: bool,
    /// Write nothing; exit 0 when the dashboard is current, 1 when stale or missing
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub lock: LockArgs,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// List the deferred items (start or scheduled date after as_of) instead of the actionable ones
    #[arg(long)]
    pub deferred: bool,
    /// Only items of this project
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Only items whose representative comes from this source kind
    #[arg(long, value_name = "KIND", value_parser = ["journal_next", "captured", "active_todos", "project_todos", "progress"])]
    pub source: Option<String>,
    /// At most N items
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl VaultCommand {
    /// The lock flags of a command that takes the lock.
    pub fn lock(&self) -> Option<&LockArgs> {
        match self {
            VaultCommand::Regen(a) => Some(&a.lock),
            VaultCommand::Route(a) => Some(&a.lock),
            VaultCommand::Done(a) | VaultCommand::Cancel(a) => Some(&a.lock),
            VaultCommand::Defer(a) => Some(&a.act.lock),
            VaultCommand::View(a) => Some(&a.lock),
            VaultCommand::Keep(a) | VaultCommand::Same(a) | VaultCommand::NotTask(a) => {
                Some(&a.lock)
            }
            VaultCommand::Decide(a) => Some(&a.lock),
            VaultCommand::Review(a) => Some(&a.lock),
            VaultCommand::Undo(a) => Some(&a.lock),
            _ => None,
        }
    }
}
