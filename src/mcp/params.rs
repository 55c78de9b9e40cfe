//! The arguments of the MCP tools, with their JSON schemas.
//!
//! Every parameter struct refuses unknown arguments (`additionalProperties:
//! false` in its schema). An optional argument is typed as its plain value
//! (`integer`, `boolean`, `string`, an enum), never `[T, "null"]`: clients
//! that build forms from the schema (the MCP Inspector) then send the right
//! JSON type. Closed sets are enums.

use jiff::civil::Date;
use rmcp::schemars;
use serde::Deserialize;

/// Source kinds an item's representative can come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum SourceParam {
    JournalNext,
    Captured,
    ActiveTodos,
    ProjectTodos,
    Progress,
}

impl SourceParam {
    pub(super) fn kind(self) -> crate::item::SourceKind {
        use crate::item::SourceKind as K;
        match self {
            SourceParam::JournalNext => K::JournalNext,
            SourceParam::Captured => K::Captured,
            SourceParam::ActiveTodos => K::ActiveTodos,
            SourceParam::ProjectTodos => K::ProjectTodos,
            SourceParam::Progress => K::Progress,
        }
    }
}

/// Statuses of an open item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum StatusParam {
    Open,
    InProgress,
    Flagged,
    Forwarded,
}

impl StatusParam {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            StatusParam::Open => "open",
            StatusParam::InProgress => "in_progress",
            StatusParam::Flagged => "flagged",
            StatusParam::Forwarded => "forwarded",
        }
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct StatusParams {
    /// Put this project first (its goal and every open item), the rest as one count line.
    #[serde(default)]
    #[schemars(with = "String")]
    pub project: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ListParams {
    /// Only items of this project.
    #[serde(default)]
    #[schemars(with = "String")]
    pub project: Option<String>,
    /// Only items whose representative comes from this source kind.
    #[serde(default)]
    #[schemars(with = "SourceParam")]
    pub source: Option<SourceParam>,
    /// At most this many items.
    #[serde(default)]
    #[schemars(with = "u32")]
    pub limit: Option<u32>,
    /// Only items with this status.
    #[serde(default)]
    #[schemars(with = "StatusParam")]
    pub status: Option<StatusParam>,
    /// Only items with a due date: `overdue`, `any`, or a date YYYY-MM-DD (due on or before it).
    #[serde(default)]
    #[schemars(with = "String")]
    pub due: Option<String>,
    /// true: only the deferred items (start or scheduled date after as_of); false or absent: only the others.
    #[serde(default)]
    #[schemars(with = "bool")]
    pub deferred: Option<bool>,
    /// true: only blocked items (⛔ naming an open item); false: only unblocked ones; absent: both.
    #[serde(default)]
    #[schemars(with = "bool")]
    pub blocked: Option<bool>,
}

/// The `due` filter of the `list` tool.
pub(super) enum DueFilter {
    Overdue,
    Any,
    OnOrBefore(Date),
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RouteParams {
    /// Entries, validated whole before anything is written.
    pub entries: Vec<crate::route::RouteEntry>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ActParams {
    /// The item: its ID, its path:line, or a text matching exactly one open item.
    pub item: String,
    /// Date of a Done/Skipped entry and of ✅/❌ fields, YYYY-MM-DD (default: today).
    #[serde(default)]
    #[schemars(with = "String")]
    pub date: Option<String>,
    /// Plan only: return the changes and a diff, write nothing.
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct DeferParams {
    /// The item: its ID, its path:line, or a text matching exactly one open item.
    pub item: String,
    /// Deferred until this date, YYYY-MM-DD (after today).
    pub until: String,
    /// Plan only: return the changes and a diff, write nothing.
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct StatsParams {
    /// Zombie age and stuck-project window in days (default: the configured stats.zombie_days).
    #[serde(default)]
    #[schemars(with = "u32")]
    pub zombie_days: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ExtractParams {
    /// Transcript file: Claude Code JSONL, Codex JSONL, or plain text.
    pub transcript: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct HistoryParams {
    /// The item: its ID, its path:line, or a text.
    pub item: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ExplainParams {
    /// The item: its ID (or a unique ID prefix), or a text.
    pub item: String,
}

/// A tool's input schema, from its parameter type, without the `"default":
/// null` of optional arguments (null is not of their type: an absent
/// argument is the default).
pub(super) fn schema<T: schemars::JsonSchema + 'static>() -> std::sync::Arc<rmcp::model::JsonObject>
{
    fn drop_null_defaults(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                if m.get("default").is_some_and(serde_json::Value::is_null) {
                    m.remove("default");
                }
                m.values_mut().for_each(drop_null_defaults);
            }
            serde_json::Value::Array(list) => list.iter_mut().for_each(drop_null_defaults),
            _ => {}
        }
    }
    let schema = rmcp::handler::server::common::schema_for_input::<T>()
        .unwrap_or_else(|e| panic!("the input schema of {}: {e}", std::any::type_name::<T>()));
    let mut value = serde_json::Value::Object((*schema).clone());
    drop_null_defaults(&mut value);
    match value {
        serde_json::Value::Object(m) => std::sync::Arc::new(m),
        _ => schema,
    }
}

/// Reads a tool's arguments; the error reads as a sentence, without the
/// deserializer's or Rust's vocabulary.
pub(super) fn read<T: serde::de::DeserializeOwned>(
    tool: &str,
    args: rmcp::model::JsonObject,
) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::Object(args)).map_err(|e| {
        let mut m = e.to_string();
        for (rust, plain) in [
            ("expected u32", "expected a whole number (0 or more)"),
            ("expected usize", "expected a whole number (0 or more)"),
            ("expected a boolean", "expected true or false"),
        ] {
            m = m.replace(rust, plain);
        }
        format!("{tool}: invalid arguments: {m}")
    })
}

/// What a search hit may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum SearchStatusParam {
    Open,
    Resolved,
    Cancelled,
    All,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SearchParams {
    /// What to look for: words, identifiers (`#12`, `gen_vault.rs`), any language.
    pub query: String,
    /// Only hits of this project.
    #[serde(default)]
    #[schemars(with = "String")]
    pub project: Option<String>,
    /// Only hits of this status (default: all).
    #[serde(default)]
    #[schemars(with = "SearchStatusParam")]
    pub status: Option<SearchStatusParam>,
    /// Only hits whose latest date is on or after this day, YYYY-MM-DD.
    #[serde(default)]
    #[schemars(with = "String")]
    pub since: Option<String>,
    /// At most this many hits (default 10; 0: all).
    #[serde(default)]
    #[schemars(with = "u32")]
    pub limit: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ReviewParams {
    /// Only this project's review items.
    #[serde(default)]
    #[schemars(with = "String")]
    pub project: Option<String>,
}

/// What an answer does to its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(super) enum ActionParam {
    Keep,
    Same,
    NotTask,
    Done,
    Cancel,
}

impl ActionParam {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            ActionParam::Keep => "keep",
            ActionParam::Same => "same",
            ActionParam::NotTask => "not-task",
            ActionParam::Done => "done",
            ActionParam::Cancel => "cancel",
        }
    }
}

/// One answer of a `decide` batch.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerParam {
    /// What to do with the item.
    pub action: ActionParam,
    /// The item's ID (as review and wrap show it).
    pub id: String,
    /// For `same`: the other item's ID.
    #[serde(default)]
    #[schemars(with = "String")]
    pub other: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct DecideParams {
    /// The answers, checked whole before anything is written.
    pub answers: Vec<AnswerParam>,
    /// Plan only: check the answers and return what they would do.
    #[serde(default)]
    pub dry_run: bool,
}

/// Whether `args` are valid arguments of `tool` (the tool error's message
/// otherwise); `None` for a name that is no tool. What every tool reads
/// first, for the fuzz target of requests.
pub(super) fn check_arguments(
    tool: &str,
    args: rmcp::model::JsonObject,
) -> Option<Result<(), String>> {
    fn check<T: serde::de::DeserializeOwned>(
        tool: &str,
        args: rmcp::model::JsonObject,
    ) -> Result<(), String> {
        read::<T>(tool, args).map(drop)
    }
    Some(match tool {
        "status" => check::<StatusParams>(tool, args),
        "list" => check::<ListParams>(tool, args),
        "route" => check::<RouteParams>(tool, args),
        "done" | "cancel" => check::<ActParams>(tool, args),
        "defer" => check::<DeferParams>(tool, args),
        "review" | "wrap" => check::<ReviewParams>(tool, args),
        "decide" => check::<DecideParams>(tool, args),
        "stats" => check::<StatsParams>(tool, args),
        "extract" => check::<ExtractParams>(tool, args),
        "explain" => check::<ExplainParams>(tool, args),
        "history" => check::<HistoryParams>(tool, args),
        "search" => check::<SearchParams>(tool, args),
        _ => return None,
    })
}
