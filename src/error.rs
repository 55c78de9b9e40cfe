//! Every way a run can fail, as one enum in the style of just's `error.rs`:
//! one variant per failure carrying its fields, the message and hint written
//! in one `Display`, and the exit code derived from the variant, so the same
//! condition always exits with the same code. The codes are documented in
//! docs/FORMAT.md §7.
//!
//! Adding a failure: add a variant with the fields the message needs, an arm
//! in [`Error::exit_code`], an arm in `Display` (and in [`Error::hint`] when
//! the user can do something about it), and a line in the message tests.

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

    /// Every code with its meaning, for the man pages.
    pub(crate) const TABLE: &[(i32, &str)] = &[
        (OK, "success (hooks always exit 0)"),
        (STALE, "regen --check: the dashboard is stale or missing"),
        (
            USAGE,
            "usage error (bad flag, missing argument, init --git-hooks outside git, init inside another vault without --here)",
        ),
        (
            DATA,
            "bad data: configuration values, template syntax, route input, hook JSON, an unknown project",
        ),
        (NO_VAULT, "no vault found, or the root is not a folder"),
        (UNAVAILABLE, "git cannot be run"),
        (SOFTWARE, "internal error (a bug)"),
        (
            CANT_WRITE,
            "a file cannot be written, or a write would leave the vault",
        ),
        (
            CANT_READ,
            "a file cannot be read (a source, the configuration, the template, stdin, the working directory)",
        ),
        (LOCKED, "the lock was not acquired in time"),
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
    /// `route --from -` cannot read stdin.
    RouteStdin {
        source: std::io::Error,
    },
    /// `--date` is not a date.
    BadDate {
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
            | BadSince { .. }
            | NoSuchCommand { .. }
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
            | UnknownProject { .. }
            | BadDate { .. }
            | NotUtf8 { .. }
            | WouldNotParseBack { .. }
            | HookInput { .. }
            | HookField { .. }
            | TranscriptNotRecognised { .. }
            | TranscriptRefused { .. }
            | NoSuchItem { .. }
            | AmbiguousItem { .. }
            | EditRefused { .. }
            | UnsafeName { .. }
            | McpJson { .. }
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

    fn message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Error::*;
        match self {
            MissingArgument { needed } => write!(f, "missing arguments: {needed}"),
            NoSuchCommand { words } => write!(f, "no command `{words}`"),
            UnknownProject { project, known } => {
                write!(f, "no project {project:?} in this vault\nhint: ")?;
                if known.is_empty() {
                    write!(f, "the vault has no project folders")
                } else {
                    write!(f, "known projects: {}", known.join(", "))
                }
            }
            NoVault { start } => write!(
                f,
                "no vault found from {}: none of its ancestors holds `.agents/` or `journal/`",
                start.display()
            ),
            NoVaultAt { root } => write!(
                f,
                "vault root {} does not exist or is not a folder",
                root.display()
            ),
            WorkingDir { source } => write!(f, "cannot read the working directory: {source}"),
            InsideVault { root, vault } => write!(
                f,
                "{} is inside the vault {}; a second vault there would collect captures the first never reads",
                root.display(),
                vault.display()
            ),
            OutsideVault { path, why } => write!(
                f,
                "refusing {}: {why}; nothing outside the vault is read or written",
                path.display()
            ),
            NotGenerated { path } => write!(
                f,
                "refusing to replace {}: it does not carry the notice \"Generated by active-status\", \
                 so it is not a dashboard this tool wrote",
                path.display()
            ),
            PartialWrite {
                written,
                failed,
                source,
            } => {
                write!(f, "cannot write {failed}: {source}; already written: ")?;
                if written.is_empty() {
                    write!(f, "nothing")
                } else {
                    write!(f, "{}", written.join(", "))
                }
            }
            EditRace { path, tries } => write!(
                f,
                "{path} kept changing while being edited ({tries} tries); nothing was written"
            ),
            Read { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Write { path, source } => write!(f, "cannot write {}: {source}", path.display()),
            Config { origin, message } => write!(f, "{origin}: {message}"),
            ConfigRead { path, source } => {
                write!(f, "cannot read configuration {}: {source}", path.display())
            }
            TemplateRead { path, source } => {
                write!(f, "cannot read template {}: {source}", path.display())
            }
            Template { message } => write!(f, "template: {message}"),
            Locked {
                path,
                holder,
                waited,
            } => {
                write!(f, "lock {} is held by {holder}; ", path.display())?;
                match waited {
                    Some(secs) => write!(f, "waited {secs:.1}s"),
                    None => write!(f, "--no-wait was given"),
                }
            }
            RouteEntry {
                entry: Some(n),
                problem,
            } => write!(f, "route entry {n}: {problem}; nothing was written"),
            RouteEntry {
                entry: None,
                problem,
            } => write!(f, "route: {problem}; nothing was written"),
            RouteInput { from, at, message } => write!(
                f,
                "route --from {from}: {at}: {message}; nothing was written"
            ),
            RouteStdin { source } => write!(f, "route --from -: cannot read stdin: {source}"),
            BadDate { value, reason } => {
                write!(f, "--date {value:?}: {reason}; expected YYYY-MM-DD")
            }
            NotUtf8 { path } => write!(
                f,
                "{path}: not valid UTF-8; refusing to route into it (it would be rewritten lossily); \
                 nothing was written"
            ),
            WouldNotParseBack { path, line } => write!(
                f,
                "{path}: the routed line would not be read back as an open item at line {line} \
                 (an unclosed code fence or HTML comment before it?); nothing was written"
            ),
            NoSuchItem { query, why } => write!(f, "no open item matches {query:?}: {why}"),
            AmbiguousItem {
                query,
                count,
                candidates,
            } => {
                write!(f, "{query:?} matches {count} open items:")?;
                for c in candidates {
                    write!(f, "\n  {c}")?;
                }
                if *count > candidates.len() {
                    write!(f, "\n  … and {} more", count - candidates.len())?;
                }
                Ok(())
            }
            EditRefused { path, line, why } => {
                write!(f, "{path}:{line}: {why}; nothing was written")
            }
            ReadOnly { path } => write!(
                f,
                "cannot write {path}: the file is read-only; nothing was written"
            ),
            Mcp { message } => write!(f, "mcp: {message}"),
            NotCaptured { entry, query } => write!(
                f,
                "route entry {entry}: `replaces` {query:?} names an open item with no captured inbox place; nothing was written"
            ),
            McpJson { path, why } => write!(
                f,
                "cannot register the MCP server in {path}: {why}; the file was left as it is"
            ),
            HookStdin { source } => write!(f, "cannot read the hook JSON on stdin: {source}"),
            HookInput { source } => write!(f, "the hook input on stdin is not JSON: {source}"),
            HookField { field } => write!(f, "hook input has no {field}"),
            UnsafeName { value, target, ch } => write!(
                f,
                "{value:?} holds the control character U+{ch:04X}; refusing to write it into {target}"
            ),
            TranscriptNotRecognised { path, line } => write!(
                f,
                "{}: format not recognised: its JSON records (from line {line}) are neither Claude Code nor Codex",
                path.display()
            ),
            NoSuchSession { id } => write!(
                f,
                "no transcript of session {id:?} under ~/.claude/projects, $CLAUDE_CONFIG_DIR/projects, ~/.config/claude/projects or ~/.codex/sessions"
            ),
            BadSince { value } => write!(
                f,
                "--since {value:?}: expected an age like 7d, 12h or 30m, or a date YYYY-MM-DD"
            ),
            TranscriptRefused { path, reason } => {
                write!(f, "{}: refused: {reason}", path.display())
            }
            GitUnavailable { source } => write!(f, "cannot run git: {source}"),
            GitFailed { args, dir, stderr } => write!(
                f,
                "`git {args}` failed in {}: {}",
                dir.display(),
                stderr.trim_end()
            ),
            Serialize { source } => write!(f, "cannot write the output as JSON: {source}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message(f)?;
        if let Some(hint) = self.hint() {
            write!(f, "\nhint: {hint}")?;
        }
        Ok(())
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

pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error as Io, ErrorKind};

    fn io() -> Io {
        Io::new(ErrorKind::PermissionDenied, "Permission denied")
    }

    /// Every variant's whole message and exit code, one line each.
    #[test]
    fn messages_and_codes() {
        let json_err = serde_json::from_str::<u8>("x").unwrap_err();
        let cases: Vec<(Error, i32, &str)> = vec![
            (
                Error::MissingArgument {
                    needed: "route needs --to and TEXT, or --from FILE|-",
                },
                2,
                "missing arguments: route needs --to and TEXT, or --from FILE|-",
            ),
            (
                Error::InsideVault {
                    root: "/kb/sub".into(),
                    vault: "/kb".into(),
                },
                2,
                "/kb/sub is inside the vault /kb; a second vault there would collect captures the first never reads\n\
                 hint: run `active-status init` in that vault's folder, or pass --here to create a separate vault anyway",
            ),
            (
                Error::UnknownProject {
                    project: "nosuch".into(),
                    known: vec!["alpha".into(), "wrap-cli".into()],
                },
                65,
                "no project \"nosuch\" in this vault\nhint: known projects: alpha, wrap-cli",
            ),
            (
                Error::NoSuchCommand {
                    words: "nosuch".into(),
                },
                2,
                "no command `nosuch`\nhint: `active-status --help` lists the commands",
            ),
            (
                Error::NoVault {
                    start: "/tmp/x".into(),
                },
                66,
                "no vault found from /tmp/x: none of its ancestors holds `.agents/` or `journal/`\n\
                 hint: pass `--root DIR`, set ACTIVE_STATUS_ROOT, or run `active-status init` inside your vault",
            ),
            (
                Error::NoVaultAt {
                    root: "/nope".into(),
                },
                66,
                "vault root /nope does not exist or is not a folder\n\
                 hint: pass `--root DIR` (or ACTIVE_STATUS_ROOT) naming your vault's top folder",
            ),
            (
                Error::WorkingDir { source: io() },
                74,
                "cannot read the working directory: Permission denied\n\
                 hint: cd into an existing folder, or pass `--root DIR`",
            ),
            (
                Error::OutsideVault {
                    path: "journal/x.md".into(),
                    why: "it is a symbolic link".into(),
                },
                73,
                "refusing journal/x.md: it is a symbolic link; nothing outside the vault is read or written",
            ),
            (
                Error::NotGenerated {
                    path: "notes.md".into(),
                },
                73,
                "refusing to replace notes.md: it does not carry the notice \"Generated by active-status\", \
                 so it is not a dashboard this tool wrote\n\
                 hint: set `output` to another file, or delete this one if it really is an old dashboard",
            ),
            (
                Error::PartialWrite {
                    written: vec!["a.md".into()],
                    failed: "b.md".into(),
                    source: io(),
                },
                73,
                "cannot write b.md: Permission denied; already written: a.md",
            ),
            (
                Error::EditRace {
                    path: "j.md".into(),
                    tries: 8,
                },
                75,
                "j.md kept changing while being edited (8 tries); nothing was written\n\
                 hint: close the editor or wait for the other writer, then run again",
            ),
            (
                Error::read("a.md", io()),
                74,
                "cannot read a.md: Permission denied",
            ),
            (
                Error::write("b.md", io()),
                73,
                "cannot write b.md: Permission denied",
            ),
            (
                Error::Config {
                    origin: "v.toml".into(),
                    message: "line 2: key `cap`: expected a whole number".into(),
                },
                65,
                "v.toml: line 2: key `cap`: expected a whole number",
            ),
            (
                Error::ConfigRead {
                    path: "c.toml".into(),
                    source: io(),
                },
                74,
                "cannot read configuration c.toml: Permission denied",
            ),
            (
                Error::TemplateRead {
                    path: "t.md".into(),
                    source: io(),
                },
                74,
                "cannot read template t.md: Permission denied",
            ),
            (
                Error::Template {
                    message: "bad tag".into(),
                },
                65,
                "template: bad tag",
            ),
            (
                Error::Locked {
                    path: ".agents/l".into(),
                    holder: "pid 7".into(),
                    waited: Some(2.0),
                },
                75,
                "lock .agents/l is held by pid 7; waited 2.0s\n\
                 hint: wait for that run to finish, or raise --lock-timeout",
            ),
            (
                Error::Locked {
                    path: ".agents/l".into(),
                    holder: "pid 7".into(),
                    waited: None,
                },
                75,
                "lock .agents/l is held by pid 7; --no-wait was given\n\
                 hint: wait for that run to finish, or raise --lock-timeout",
            ),
            (
                Error::RouteEntry {
                    entry: Some(2),
                    problem: EntryProblem::NeedsTask,
                },
                65,
                "route entry 2: --to active needs a task; nothing was written",
            ),
            (
                Error::RouteEntry {
                    entry: None,
                    problem: EntryProblem::NotSlug {
                        what: "project",
                        value: "a/b".into(),
                    },
                },
                65,
                "route: project \"a/b\" is not a slug ([A-Za-z0-9][A-Za-z0-9._-]*: no `/`, `..`, \
                 spaces or absolute paths); nothing was written",
            ),
            (
                Error::RouteInput {
                    from: "-".into(),
                    at: "entry 2".into(),
                    message: "missing field `to`".into(),
                },
                65,
                "route --from -: entry 2: missing field `to`; nothing was written\n\
                 hint: give a JSON array of {\"text\", \"to\", \"project\", \"task\", \"date\"} objects, or \
                 `extract --format json` output with a \"to\" added to each candidate; other fields are ignored",
            ),
            (
                Error::RouteStdin { source: io() },
                74,
                "route --from -: cannot read stdin: Permission denied",
            ),
            (
                Error::BadDate {
                    value: "May".into(),
                    reason: "invalid".into(),
                },
                65,
                "--date \"May\": invalid; expected YYYY-MM-DD",
            ),
            (
                Error::NotUtf8 {
                    path: "j.md".into(),
                },
                65,
                "j.md: not valid UTF-8; refusing to route into it (it would be rewritten lossily); \
                 nothing was written",
            ),
            (
                Error::WouldNotParseBack {
                    path: "j.md".into(),
                    line: 4,
                },
                65,
                "j.md: the routed line would not be read back as an open item at line 4 \
                 (an unclosed code fence or HTML comment before it?); nothing was written\n\
                 hint: fix the file and route again",
            ),
            (
                Error::HookStdin { source: io() },
                74,
                "cannot read the hook JSON on stdin: Permission denied",
            ),
            (
                Error::HookField {
                    field: "transcript_path",
                },
                65,
                "hook input has no transcript_path",
            ),
            (
                Error::UnsafeName {
                    value: "a\nb".into(),
                    target: "a git hook",
                    ch: 10,
                },
                65,
                "\"a\\nb\" holds the control character U+000A; refusing to write it into a git hook",
            ),
            (
                Error::TranscriptNotRecognised {
                    path: "t.jsonl".into(),
                    line: 2,
                },
                65,
                "t.jsonl: format not recognised: its JSON records (from line 2) are neither Claude Code nor Codex\n\
                 hint: pass `--input-format text` to read it as plain text",
            ),
            (
                Error::TranscriptRefused {
                    path: "/dev/zero".into(),
                    reason: "not a regular file".into(),
                },
                65,
                "/dev/zero: refused: not a regular file",
            ),
            (
                Error::GitUnavailable { source: io() },
                69,
                "cannot run git: Permission denied\nhint: install git, or leave out --git-hooks",
            ),
            (
                Error::GitFailed {
                    args: "rev-parse --show-toplevel".into(),
                    dir: "/v".into(),
                    stderr: "fatal: not a git repository\n".into(),
                },
                2,
                "`git rev-parse --show-toplevel` failed in /v: fatal: not a git repository\n\
                 hint: run `git init` first, or leave out --git-hooks",
            ),
            (
                Error::HookInput { source: json_err },
                65,
                "the hook input on stdin is not JSON: expected value at line 1 column 1",
            ),
        ];
        for (err, code, message) in cases {
            assert_eq!(err.to_string(), message);
            assert_eq!(err.exit_code(), code, "{message}");
        }
    }

    #[test]
    fn every_entry_problem_reads_as_a_sentence() {
        let problems = [
            (EntryProblem::EmptyText, "text is empty"),
            (
                EntryProblem::BlockSyntax("`#` (a heading)"),
                "text starts with `#` (a heading), which would not stay one list item; rephrase it",
            ),
            (
                EntryProblem::MultiLine,
                "text spans several lines; route one line per entry",
            ),
            (
                EntryProblem::NeedsProject { dest: "project" },
                "--to project needs a project",
            ),
            (
                EntryProblem::BadDate {
                    value: "x".into(),
                    reason: "bad".into(),
                },
                "date \"x\": bad; expected YYYY-MM-DD",
            ),
        ];
        for (p, want) in problems {
            assert_eq!(p.to_string(), want);
        }
    }

    #[test]
    fn io_failures_keep_their_source() {
        let err = Error::read("a", io());
        assert!(std::error::Error::source(&err).is_some());
    }
}
