//! The arguments of the MCP tools, with their JSON schemas.

use jiff::civil::Date;
use rmcp::schemars;
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct StatusParams {
    /// Put this project first (its goal and every open item), the rest as one count line.
    #[serde(default)]
    pub project: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct ListParams {
    /// Only items of this project.
    #[serde(default)]
    pub project: Option<String>,
    /// Only items whose representative comes from this source kind:
    /// journal_next, captured, active_todos, project_todos, progress.
    #[serde(default)]
    pub source: Option<String>,
    /// At most this many items.
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only items with this status: open, in_progress, flagged, forwarded.
    #[serde(default)]
    pub status: Option<String>,
    /// Only items with a due date: `overdue`, `any`, or a date YYYY-MM-DD (due on or before it).
    #[serde(default)]
    pub due: Option<String>,
    /// true: only the deferred items (start or scheduled date after as_of); false or absent: only the others, as `list` does.
    #[serde(default)]
    pub deferred: Option<bool>,
    /// true: only blocked items (⛔ naming an open item); false: only unblocked ones.
    #[serde(default)]
    pub blocked: Option<bool>,
}

/// The `due` filter of the `list` tool.
pub(super) enum DueFilter {
    Overdue,
    Any,
    OnOrBefore(Date),
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct RouteParams {
    /// Entries, validated whole before anything is written.
    pub entries: Vec<crate::route::RouteEntry>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct ActParams {
    /// The item: its ID, its path:line, or a text matching exactly one open item.
    pub item: String,
    /// Date of a Done/Skipped entry and of ✅/❌ fields, YYYY-MM-DD (default today).
    #[serde(default)]
    pub date: Option<String>,
    /// Plan only: return the changes and a diff, write nothing.
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct DeferParams {
    /// The item: its ID, its path:line, or a text matching exactly one open item.
    pub item: String,
    /// Deferred until this date, YYYY-MM-DD.
    pub until: String,
    /// Plan only: return the changes and a diff, write nothing.
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct StatsParams {
    /// Zombie age and stuck-project window in days (default: stats.zombie_days).
    #[serde(default)]
    pub zombie_days: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct ExtractParams {
    /// Transcript file: Claude Code JSONL, Codex JSONL, or plain text.
    pub transcript: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct HistoryParams {
    /// The item: its ID, its path:line, or a text.
    pub item: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct ExplainParams {
    /// The item: its ID (or a unique ID prefix), or a text.
    pub item: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct ReviewParams {
    /// Only this project's review items.
    #[serde(default)]
    pub project: Option<String>,
}

/// One answer of a `decide` batch.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerParam {
    /// keep, same, not-task, done or cancel.
    pub action: String,
    /// The item's ID (as review and wrap show it).
    pub id: String,
    /// For `same`: the other item's ID.
    #[serde(default)]
    pub other: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub(super) struct DecideParams {
    /// The answers, checked whole before anything is written.
    pub answers: Vec<AnswerParam>,
    /// Plan only: check the answers and return what they would do.
    #[serde(default)]
    pub dry_run: bool,
}
