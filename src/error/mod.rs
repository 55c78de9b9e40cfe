//! Every way a run can fail, as one enum: one variant per failure carrying
//! its fields, the message and hint written in one `Display`
//! (error/message.rs), and the exit code derived from the variant, so the
//! same condition always exits with the same code. The codes are documented
//! in docs/FORMAT.md §7.
//!
//! Adding a failure: add a variant with the fields the message needs, an arm
//! in [`Error::exit_code`], an arm in `Error::message` (error/message.rs;
//! and in [`Error::hint`] when the user can do something about it), and a
//! line in the message tests (error/tests.rs).

use std::fmt;
use std::path::PathBuf;

/// Exit codes (sysexits.h values where one fits).
pub(crate) mod exit {
    pub(crate) const OK: i32 = 0;
    /// `regen --check` found the dashboard stale or missing.
    pub(crate) const STALE: i32 = 1;
    /// The command line is wrong.
    pub(crate) const USAGE: i32 = 2;
    /// Bad data: configuration, template, route input, JSON (EX_DATAERR).
    pub(crate) const DATA: i32 = 65;
    /// No vault found (EX_NOINPUT).
    pub(crate) const NO_VAULT: i32 = 66;
    /// A program the command needs (git) cannot be run (EX_UNAVAILABLE).
    pub(crate) const UNAVAILABLE: i32 = 69;
    /// A bug in active-status itself (EX_SOFTWARE).
    pub(crate) const SOFTWARE: i32 = 70;
    /// A file cannot be written, or a write would leave the vault (EX_CANTCREAT).
    pub(crate) const CANT_WRITE: i32 = 73;
    /// A file, folder or stream cannot be read (EX_IOERR).
    pub(crate) const CANT_READ: i32 = 74;
    /// The lock was not acquired in time (EX_TEMPFAIL).
    pub(crate) const LOCKED: i32 = 75;

    /// Every code with its meaning: the man pages print it, and the exit-code
    /// tables of README.md, docs/FORMAT.md and docs/GUIDE.md must equal it
    /// (backticks aside; a test compares them).
    pub(crate) const TABLE: &[(i32, &str)] = &[
        (OK, "success (hooks always exit 0)"),
        (
            STALE,
            "regen --check: the dashboard is stale or missing (a short diff goes to stderr)",
        ),
        (
            USAGE,
            "usage error: a bad flag or a missing argument, a bad date on the command line, init inside another vault without --here, init --git-hooks outside git, review --interactive when stdin is not a terminal (nothing is written)",
        ),
        (
            DATA,
            "bad data: configuration (values, TOML, invalid UTF-8), template syntax, route input, hook JSON, an unknown project, an item that matches nothing or several, an undo refused (a file changed since the operation, or it cannot be reverted)",
        ),
        (NO_VAULT, "no vault found, or the root is not a folder"),
        (UNAVAILABLE, "git cannot be run (init --git-hooks)"),
        (SOFTWARE, "internal error (a bug; please report it)"),
        (
            CANT_WRITE,
            "a file cannot be written; a vault path leads out of the vault (.., an absolute path, a symbolic link out, even one swapped in during the run; for reads and writes alike), into git's folder (.git, by its resolved place), or to a file with several hard links; output names an existing file without the generated-file notice",
        ),
        (
            CANT_READ,
            "a file cannot be read: a source, the --config file, the template, stdin, the working directory (the run stops rather than drop its items)",
        ),
        (
            LOCKED,
            "the lock was not acquired in time (the message names the holder: pid, command, since), or a file kept changing under an edit through every retry",
        ),
    ];
}

/// Why one `route` entry is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryProblem {
    EmptyText,
    /// The text starts with Markdown block syntax (named).
    BlockSyntax(&'static str),
    MultiLine,
    NotSlug {
        what: &'static str,
        value: String,
    },
    NeedsProject {
        dest: &'static str,
    },
    NeedsTask,
    BadDate {
        value: String,
        reason: String,
    },
    /// The text holds a control character other than tab (`at`: 1-based
    /// character position).
    ControlChar {
        ch: u32,
        at: usize,
    },
    /// The text is longer than [`crate::route::MAX_TEXT_CHARS`].
    TooLong {
        chars: usize,
        max: usize,
    },
    /// A `<private>` span is left open, or a `</private>` closes none.
    UnbalancedPrivate,
}

impl fmt::Display for EntryProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryProblem::EmptyText => write!(f, "text is empty"),
            EntryProblem::BlockSyntax(what) => write!(
                f,
                "text starts with {what}, which would not stay one list item; rephrase it"
            ),
            EntryProblem::MultiLine => {
                write!(f, "text spans several lines; route one line per entry")
            }
            EntryProblem::NotSlug { what, value } => write!(
                f,
                "{what} {value:?} is not a slug ([A-Za-z0-9][A-Za-z0-9._-]*: no `/`, `..`, spaces or absolute paths)"
            ),
            EntryProblem::NeedsProject { dest } => write!(f, "--to {dest} needs a project"),
            EntryProblem::NeedsTask => write!(f, "--to active needs a task"),
            EntryProblem::BadDate { value, reason } => {
                write!(f, "date {value:?}: {reason}; expected YYYY-MM-DD")
            }
            EntryProblem::ControlChar { ch, at } => write!(
                f,
                "text holds the control character U+{ch:04X} at character {at}; only tab is allowed"
            ),
            EntryProblem::TooLong { chars, max } => write!(
                f,
                "text is {chars} characters long, over the {max}-character limit"
            ),
            EntryProblem::UnbalancedPrivate => write!(
                f,
                "text has a `<private>` without its `</private>` (or a `</private>` without its `<private>`), which would hide or reveal other lines of the file"
            ),
        }
    }
}

/// Everything that can make a run fail.
#[derive(Debug)]
pub enum Error {
    // ---- the command line (what clap cannot check) ----
    /// A required combination of arguments is missing.
    MissingArgument {
        needed: &'static str,
    },
    /// A command that reads keys from a terminal was run without one.
    NotATerminal {
        command: &'static str,
    },
    /// `list --project P` names no project of the vault.
    UnknownProject {
        project: String,
        known: Vec<String>,
    },
    /// `man WORDS` names no command.
    NoSuchCommand {
        words: String,
    },

    // ---- the vault ----
    /// No ancestor of `start` looks like a vault.
    NoVault {
        start: PathBuf,
    },
    /// `--root` / `ACTIVE_STATUS_ROOT` names something that is not a folder.
    NoVaultAt {
        root: PathBuf,
    },
    /// `init` in a folder inside another vault, without `--here`.
    InsideVault {
        root: PathBuf,
        vault: PathBuf,
    },
    /// The working directory cannot be read (deleted, no permission).
    WorkingDir {
        source: std::io::Error,
    },
    /// A vault path would lead outside the vault root (`..`, absolute path,
    /// a symbolic link on the way, a swapped link) or to a file with several
    /// hard links; refused for reads and writes alike (see src/vault_fs/).
    OutsideVault {
        path: PathBuf,
        why: String,
    },
    /// An existing `output` file does not carry the generated-file notice.
    NotGenerated {
        path: PathBuf,
    },
    /// `view --out` names a place the page may not go (not `.html`, or
    /// inside a source folder, where a later scan would read it).
    ViewOut {
        path: String,
        why: String,
    },

    // ---- files ----
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    Write {
        path: PathBuf,
        source: std::io::Error,
    },

    // ---- configuration and template ----
    /// A configuration layer is malformed or holds a bad value. `origin`
    /// names the file (or variable); `message` says where and what.
    Config {
        origin: String,
        message: String,
    },
    /// A configuration file that must exist (`--config FILE`) cannot be read.
    ConfigRead {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The configured template cannot be read.
    TemplateRead {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The template does not render (Tera's message chain).
    Template {
        message: String,
    },

    // ---- compare-and-swap edits (src/cas.rs) ----
    /// A rename of a batch failed after others succeeded: exactly which
    /// files were written.
    PartialWrite {
        written: Vec<String>,
        failed: String,
        source: std::io::Error,
    },
    /// A file kept changing under an edit, which was planned again each time.
    EditRace {
        path: String,
        tries: u32,
    },

    // ---- the lock ----
    Locked {
        path: PathBuf,
        holder: String,
        /// Seconds waited; `None` with `--no-wait`.
        waited: Option<f64>,
    },

    // ---- route ----
    /// One entry of a route batch is refused (`entry` is 1-based; `None`
    /// for a single command-line entry).
    RouteEntry {
        entry: Option<usize>,
        problem: EntryProblem,
    },
    /// `route --from FILE` is not a JSON array of entries.
    RouteInput {
        from: String,
        /// Where: `line 3, column 7` for JSON syntax, `entry 2` for an entry.
        at: String,
        /// What, without a position.
        message: String,
    },
    /// A `decide` batch (or one answer of it) is refused.
    DecideInput {
        from: String,
        /// Where: `line 3, column 7` for JSON syntax, `answer 2` for an answer.
        at: String,
        message: String,
    },
    /// `route --from -` cannot read stdin.
    RouteStdin {
        source: std::io::Error,
    },
    /// A date given by the user (a flag, `ACTIVE_STATUS_TODAY`, an MCP
    /// argument) is not one, or is out of range.
    BadDate {
        /// What was given: the flag, variable or argument name.
        what: &'static str,
        value: String,
        reason: String,
    },
    /// A destination file is not UTF-8 and would be rewritten lossily.
    NotUtf8 {
        path: String,
    },
    /// The routed line would not parse back as an open item.
    WouldNotParseBack {
        path: String,
        line: u32,
    },

    // ---- acting on items (done, cancel, defer, history) ----
    /// No open item is named by the query (an ID, `path:line` or text).
    NoSuchItem {
        query: String,
        why: &'static str,
    },
    /// The query names several open items; `candidates` describes the first few.
    AmbiguousItem {
        query: String,
        count: usize,
        candidates: Vec<String>,
    },
    /// An in-place edit of an item's line cannot be made as planned.
    EditRefused {
        path: String,
        line: u32,
        why: String,
    },
    /// `undo` refused: a file changed since the operation, the operation is
    /// not revertible, or no such operation.
    UndoRefused {
        op: String,
        why: String,
    },
    /// A file to edit is read-only.
    ReadOnly {
        path: String,
    },

    /// A route entry's `replaces` names an item with no captured inbox member.
    NotCaptured {
        entry: usize,
        query: String,
    },
    /// `.mcp.json` exists but cannot be merged into.
    McpJson {
        path: String,
        why: String,
    },
    /// `.codex/hooks.json` is not a hooks file we can merge into.
    HooksJson {
        path: String,
        why: String,
    },

    // ---- the MCP server ----
    /// The stdio transport or the runtime failed.
    Mcp {
        message: String,
    },

    // ---- hooks ----
    HookStdin {
        source: std::io::Error,
    },
    HookInput {
        source: serde_json::Error,
    },
    HookField {
        field: &'static str,
    },

    // ---- transcripts ----
    /// A JSON transcript whose records are neither Claude Code nor Codex.
    TranscriptNotRecognised {
        path: PathBuf,
        line: usize,
    },
    /// `extract --session ID`: no transcript of that session in the default folders.
    NoSuchSession {
        id: String,
    },
    /// `extract --since` is neither an age nor a date.
    BadSince {
        value: String,
    },
    /// A transcript that is not a regular file, or is larger than the cap.
    TranscriptRefused {
        path: PathBuf,
        reason: String,
    },

    // ---- init ----
    /// A path with a control character would go into a git hook or rule.
    UnsafeName {
        value: String,
        target: &'static str,
        ch: u32,
    },
    /// `git` cannot be started.
    GitUnavailable {
        source: std::io::Error,
    },
    /// `git ARGS` ran and failed (not a repository, …).
    GitFailed {
        args: String,
        dir: PathBuf,
        stderr: String,
    },

    // ---- output ----
    /// Our own JSON output cannot be serialised (a bug).
    Serialize {
        source: serde_json::Error,
    },
}

impl Error {
    /// The process exit status for this failure.
    pub fn exit_code(&self) -> i32 {
        use Error::*;
        match self {
            MissingArgument { .. }
            | NotATerminal { .. }
            | BadSince { .. }
            | BadDate { .. }
            | NoSuchCommand { .. }
            | ViewOut { .. }
            | InsideVault { .. } => exit::USAGE,
            NoSuchSession { .. } => exit::CANT_READ,
            NoVault { .. } | NoVaultAt { .. } => exit::NO_VAULT,
            WorkingDir { .. }
            | Read { .. }
            | ConfigRead { .. }
            | TemplateRead { .. }
            | RouteStdin { .. }
            | HookStdin { .. }
            | Mcp { .. } => exit::CANT_READ,
            Write { .. }
            | OutsideVault { .. }
            | ReadOnly { .. }
            | NotGenerated { .. }
            | PartialWrite { .. } => exit::CANT_WRITE,
            Config { .. }
            | Template { .. }
            | RouteEntry { .. }
            | RouteInput { .. }
            | DecideInput { .. }
            | UnknownProject { .. }
            | NotUtf8 { .. }
            | WouldNotParseBack { .. }
            | HookInput { .. }
            | HookField { .. }
            | TranscriptNotRecognised { .. }
            | TranscriptRefused { .. }
            | NoSuchItem { .. }
            | AmbiguousItem { .. }
            | EditRefused { .. }
            | UndoRefused { .. }
            | UnsafeName { .. }
            | McpJson { .. }
            | HooksJson { .. }
            | NotCaptured { .. } => exit::DATA,
            Locked { .. } | EditRace { .. } => exit::LOCKED,
            GitUnavailable { .. } => exit::UNAVAILABLE,
            GitFailed { .. } => exit::USAGE,
            Serialize { .. } => exit::SOFTWARE,
        }
    }

    /// What the user can do about it, when there is something to say.
    pub fn hint(&self) -> Option<&'static str> {
        use Error::*;
        Some(match self {
            NoVault { .. } => {
                "pass `--root DIR`, set ACTIVE_STATUS_ROOT, or run `active-status init` inside your vault"
            }
            NoVaultAt { .. } => {
                "pass `--root DIR` (or ACTIVE_STATUS_ROOT) naming your vault's top folder"
            }
            WorkingDir { .. } => "cd into an existing folder, or pass `--root DIR`",
            NoSuchCommand { .. } => "`active-status --help` lists the commands",
            InsideVault { .. } => {
                "run `active-status init` in that vault's folder, or pass --here to create a separate vault anyway"
            }
            Locked { .. } => "wait for that run to finish, or raise --lock-timeout",
            GitUnavailable { .. } => "install git, or leave out --git-hooks",
            GitFailed { .. } => "run `git init` first, or leave out --git-hooks",
            Serialize { .. } => "this is a bug in active-status; please report it",
            WouldNotParseBack { .. } => "fix the file and route again",
            RouteInput { .. } => {
                "give a JSON array of {\"text\", \"to\", \"project\", \"task\", \"date\"} objects, or \
                 `extract --format json` output with a \"to\" added to each candidate; other fields are ignored"
            }
            NoSuchItem { .. } => "`active-status list` shows the open items with their IDs",
            AmbiguousItem { .. } => "name one by its ID, its path:line or a longer text",
            ReadOnly { .. } => "make the file writable (chmod u+w) and run again",
            McpJson { .. } => {
                "fix the file, or add \"active-status\": {\"command\": \"active-status\", \"args\": [\"mcp\"]} under mcpServers by hand"
            }
            ViewOut { .. } => {
                "pass an `.html` path outside the source folders, or leave out --out (.agents/view.html)"
            }
            NotGenerated { .. } => {
                "set `output` to another file, or delete this one if it really is an old dashboard"
            }
            EditRace { .. } => "close the editor or wait for the other writer, then run again",
            TranscriptNotRecognised { .. } => "pass `--input-format text` to read it as plain text",
            _ => return None,
        })
    }

    pub fn read(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Read {
            path: path.into(),
            source,
        }
    }

    pub fn write(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Write {
            path: path.into(),
            source,
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use Error::*;
        match self {
            WorkingDir { source }
            | Read { source, .. }
            | Write { source, .. }
            | ConfigRead { source, .. }
            | TemplateRead { source, .. }
            | RouteStdin { source }
            | HookStdin { source }
            | PartialWrite { source, .. }
            | GitUnavailable { source } => Some(source),
            HookInput { source } | Serialize { source } => Some(source),
            _ => None,
        }
    }
}

/// The message and hint of every failure.
mod message;

pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests;
