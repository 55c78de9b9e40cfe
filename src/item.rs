//! The data model shared by parsing, merging and reporting.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where an item was collected from (docs/FORMAT.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    JournalNext,
    Captured,
    ActiveTodos,
    ProjectTodos,
    Progress,
}

impl SourceKind {
    pub const ALL: [SourceKind; 5] = [
        SourceKind::JournalNext,
        SourceKind::Captured,
        SourceKind::ActiveTodos,
        SourceKind::ProjectTodos,
        SourceKind::Progress,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::JournalNext => "journal_next",
            SourceKind::Captured => "captured",
            SourceKind::ActiveTodos => "active_todos",
            SourceKind::ProjectTodos => "project_todos",
            SourceKind::Progress => "progress",
        }
    }

    pub fn parse(s: &str) -> Option<SourceKind> {
        SourceKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Rank tiers, in rank order (docs/FORMAT.md §5 step 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Today,
    Captured,
    Active,
    Project,
    Progress,
    Carried,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Today => "today",
            Tier::Captured => "captured",
            Tier::Active => "active",
            Tier::Project => "project",
            Tier::Progress => "progress",
            Tier::Carried => "carried",
        }
    }
}

/// Why an open item has no project (docs/FORMAT.md §3, rule 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UntaggedReason {
    NoSession,
    SessionWithoutProject,
    AmbiguousSession,
}

impl UntaggedReason {
    pub fn as_str(self) -> &'static str {
        match self {
            UntaggedReason::NoSession => "no-session",
            UntaggedReason::SessionWithoutProject => "session-without-project",
            UntaggedReason::AmbiguousSession => "ambiguous-session",
        }
    }
}

/// The status of an open item (from its checkbox mark or keyword).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    #[default]
    Open,
    /// `[/]` `[~]` `[^]`, `NOW`/`DOING`: ranked first in its tier.
    InProgress,
    /// `[!]`.
    Flagged,
    /// `[>]` with no matching open item elsewhere.
    Forwarded,
}

impl ItemStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Open => "open",
            ItemStatus::InProgress => "in_progress",
            ItemStatus::Flagged => "flagged",
            ItemStatus::Forwarded => "forwarded",
        }
    }
}

/// A place in the vault: root-relative path with `/` separators and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Location {
    pub path: Arc<str>,
    pub line: u32,
}

/// An open follow-up collected from a source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Redacted Markdown text as written (checkbox and tag removed).
    pub text: String,
    /// The matching key (`normalize::key`, docs/FORMAT.md §5), shared by
    /// the items and signals of one scan whose texts are the same.
    #[serde(deserialize_with = "shared_str")]
    pub norm: Arc<str>,
    /// Hash of the text's private spans, for the private-span guard.
    pub private: Option<u64>,
    /// Shared by the items and signals of a file that name the same project.
    pub project: Option<Arc<str>>,
    pub kind: SourceKind,
    pub loc: Location,
    pub date: Option<Date>,
    /// Set when the item has no project.
    pub untagged: Option<UntaggedReason>,
    /// Task metadata parsed off the text (`None` when there was none).
    pub meta: Option<Box<crate::task_meta::TaskMeta>>,
    pub status: ItemStatus,
}

impl Item {
    /// The project, as text.
    pub fn project(&self) -> Option<&str> {
        self.project.as_deref()
    }

    /// The project as an owned string (for outputs that keep their own copy).
    pub fn project_owned(&self) -> Option<String> {
        self.project.as_deref().map(str::to_string)
    }
}

/// A done item that can resolve open items (docs/FORMAT.md §5 step 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signal {
    /// Redacted text as written, for the trail.
    pub text: String,
    /// The matching key (shared, as [`Item::norm`]).
    #[serde(deserialize_with = "shared_str")]
    pub norm: Arc<str>,
    /// Hash of the text's private spans, for the private-span guard.
    pub private: Option<u64>,
    pub project: Option<Arc<str>>,
    pub date: Option<Date>,
    pub loc: Location,
}

impl Signal {
    /// The project, as text.
    pub fn project(&self) -> Option<&str> {
        self.project.as_deref()
    }

    /// The project as an owned string (for outputs that keep their own copy).
    pub fn project_owned(&self) -> Option<String> {
        self.project.as_deref().map(str::to_string)
    }
}

/// A goal item from a journal Goal section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Goal {
    pub project: Option<String>,
    pub text: String,
    pub date: Option<Date>,
    pub path: Arc<str>,
    pub line: u32,
    #[serde(skip)]
    pub done: bool,
}

/// An item under a "Skipped follow-ups" heading in a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkipRecord {
    pub text: String,
    pub project: Option<String>,
    pub date: Option<Date>,
    pub loc: Location,
}

/// Counts for one `projects/<p>/actives/<task>/todos.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveTask {
    pub project: String,
    pub task: String,
    pub path: Arc<str>,
    pub open: usize,
    pub done: usize,
}

/// A non-fatal problem, shown in the audit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Warning {
    pub path: String,
    pub message: String,
}

impl Warning {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// An `Arc<str>` read straight from the text the deserializer lends (one
/// allocation; serde's own `Arc<str>` builds a `Box<str>` first and copies
/// it).
fn shared_str<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Arc<str>, D::Error> {
    struct Shared;
    impl serde::de::Visitor<'_> for Shared {
        type Value = Arc<str>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Arc<str>, E> {
            Ok(Arc::from(v))
        }
    }
    d.deserialize_str(Shared)
}

/// Project slugs are checked where the configuration declares them too.
pub use crate::config::is_slug;
