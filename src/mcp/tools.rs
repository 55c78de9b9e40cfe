//! The MCP tools and the dashboard resource.

use super::params::*;
use crate::act::{Action, plan_action, run_action};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::lock::{LockOptions, with_lock};
use crate::route::{RouteEntry, route_batch, validate};
use crate::vault_fs::VaultDir;
use jiff::civil::Date;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{
    CallToolResult, ContentBlock, JsonObject, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// The server: the vault it serves and its configuration.
#[derive(Debug, Clone)]
pub(crate) struct Server {
    root: PathBuf,
    cfg: Config,
    tool_router: ToolRouter<Self>,
}

impl Server {
    fn search_json(&self, p: SearchParams) -> Result<crate::search::Results> {
        let status = match p.status {
            None | Some(SearchStatusParam::All) => crate::search::StatusFilter::All,
            Some(SearchStatusParam::Open) => crate::search::StatusFilter::Open,
            Some(SearchStatusParam::Resolved) => crate::search::StatusFilter::Resolved,
            Some(SearchStatusParam::Cancelled) => crate::search::StatusFilter::Cancelled,
        };
        let options = crate::search::Options {
            query: p.query,
            project: p.project,
            status,
            since: p.since.map(|d| parse_date("since", &d)).transpose()?,
            limit: p.limit.unwrap_or(crate::search::DEFAULT_LIMIT),
        };
        crate::pipeline::search(&self.root, &self.cfg, &options).map(|s| s.results)
    }
}

/// What every tool answers: its result, or a protocol error.
type Reply = std::result::Result<CallToolResult, ErrorData>;

/// A tool's outcome: JSON (or text) on success, the CLI's message as a tool
/// error otherwise.
fn reply<T: Serialize>(r: Result<T>) -> Reply {
    Ok(match r {
        Ok(v) => match serde_json::to_string_pretty(&v) {
            Ok(s) => CallToolResult::success(vec![ContentBlock::text(s)]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("JSON: {e}"))]),
        },
        Err(e) => refusal(&e),
    })
}

/// An error as a tool error: the message without the command line's hint
/// (hints name commands and flags a tool caller does not have).
fn refusal(e: &Error) -> CallToolResult {
    let full = e.to_string();
    let message = full.split("\nhint: ").next().unwrap_or(&full);
    CallToolResult::error(vec![ContentBlock::text(message.to_string())])
}

/// A tool's arguments, or the tool error that says what is wrong with them.
macro_rules! args {
    ($tool:literal, $args:expr) => {
        match read($tool, $args) {
            Ok(p) => p,
            Err(message) => return Ok(CallToolResult::error(vec![ContentBlock::text(message)])),
        }
    };
}

fn parse_date(what: &'static str, d: &str) -> Result<Date> {
    crate::clock::parse_date(d).map_err(|reason| Error::BadDate {
        what,
        value: d.to_string(),
        reason,
    })
}

#[derive(Serialize)]
struct ListOut {
    schema: u32,
    as_of: Option<Date>,
    items: Vec<crate::report::ReportItem>,
}

#[derive(Serialize)]
struct Planned {
    #[serde(flatten)]
    acted: crate::act::Acted,
    diff: String,
    /// What deserves a second look (a deferral date not after today).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

impl Server {
    pub(crate) fn new(root: PathBuf, cfg: Config) -> Self {
        Server {
            root,
            cfg,
            tool_router: Self::tool_router(),
        }
    }

    /// Runs a tool on a thread of its own, off the request loop: a write
    /// waiting for the vault lock (or a long read) never holds up the
    /// other requests, which keep being read and answered meanwhile. A
    /// tool that panics is answered with an internal error.
    async fn off_loop(&self, tool: impl FnOnce(&Server) -> Reply + Send + 'static) -> Reply {
        let server = self.clone();
        tokio::task::spawn_blocking(move || tool(&server))
            .await
            .unwrap_or_else(|e| {
                Err(ErrorData::internal_error(
                    format!("the tool failed: {e}"),
                    None,
                ))
            })
    }

    fn lock_options(&self) -> LockOptions {
        LockOptions {
            root: self.root.clone(),
            path: self.root.join(&self.cfg.lock_path),
            origin: self.cfg.origin("lock.path").to_string(),
            timeout: Duration::try_from_secs_f64(self.cfg.lock_timeout_secs)
                .unwrap_or(Duration::MAX),
            no_wait: false,
            announce: false,
            command: crate::cli::command_name(),
        }
    }

    fn act(
        &self,
        item: &str,
        action: Action,
        date: Option<&str>,
        dry_run: bool,
    ) -> Result<Planned> {
        let today = self.cfg.today();
        let date = match date {
            Some(d) => parse_date("date", d)?,
            None => today,
        };
        let warnings: Vec<String> = match action {
            Action::Defer { until } => crate::act::past_until(until, today).into_iter().collect(),
            _ => Vec::new(),
        };
        let vault = VaultDir::open(&self.root)?;
        if dry_run {
            let (acted, changes) = plan_action(&vault, &self.cfg, item, action, date)?;
            return Ok(Planned {
                acted,
                diff: crate::act::diff(&changes),
                warnings,
            });
        }
        crate::oplog::name_next(&format!("mcp {}", action.name()));
        let acted = with_lock(&self.lock_options(), || {
            run_action(&vault, &self.cfg, item, action, date)
        })?;
        Ok(Planned {
            acted,
            diff: String::new(),
            warnings,
        })
    }

    fn dashboard(&self) -> Result<String> {
        let template = crate::render::template_source(&self.root, &self.cfg)?;
        let (_, text, _) = crate::pipeline::produce(
            &self.root,
            &self.cfg,
            &template,
            crate::report::Trail::Counted,
        )?;
        Ok(text)
    }

    /// The HTML view's page as `view` would write it now (nothing written).
    fn view_page(&self) -> Result<String> {
        let name = self
            .root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "vault".to_string());
        Ok(crate::pipeline::view_page(&self.root, &self.cfg, &name)?.0)
    }
}

#[tool_router]
impl Server {
    #[tool(
        description = "The session-start summary: counts, goals and the top open follow-ups with their IDs (plain text).",
        input_schema = schema::<StatusParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn status(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: StatusParams = args!("status", a);
            let r = crate::pipeline::analyze(&s.root, &s.cfg).map(|a| {
                let report = crate::report::build(&a, &s.cfg);
                let focus = p.project.map(|f| f.to_ascii_lowercase());
                crate::start_summary::summary(
                    &report,
                    s.cfg.hook_max_chars,
                    s.cfg.review_max,
                    focus.as_deref(),
                )
            });
            Ok(match r {
                Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
                Err(e) => refusal(&e),
            })
        })
        .await
    }

    #[tool(
        description = "Every open follow-up after the merge, in rank order, as JSON items with id, text, project, tier, source, ages and every place it was written.",
        input_schema = schema::<ListParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ListParams = args!("list", a);
            reply((|| {
                let kind = p.source.map(SourceParam::kind);
                let due = match p.due.as_deref() {
                    None => None,
                    Some("overdue") => Some(DueFilter::Overdue),
                    Some("any") => Some(DueFilter::Any),
                    Some(d) => Some(DueFilter::OnOrBefore(parse_date("due", d)?)),
                };
                let a = crate::pipeline::analyze(&s.root, &s.cfg)?;
                let project = p.project.map(|s| s.to_ascii_lowercase());
                let deferred = p.deferred.unwrap_or(false);
                let mut items: Vec<_> = crate::report::report_items(&a.merged, a.vault.as_of)
                    .into_iter()
                    .filter(|i| project.is_none() || i.project == project)
                    .filter(|i| kind.is_none_or(|k| i.source.kind == k))
                    .filter(|i| p.status.is_none_or(|s| i.status.as_str() == s.as_str()))
                    .filter(|i| match &due {
                        None => true,
                        Some(DueFilter::Overdue) => i.overdue,
                        Some(DueFilter::Any) => i.due.is_some(),
                        Some(DueFilter::OnOrBefore(d)) => i.due.is_some_and(|x| x <= *d),
                    })
                    .filter(|i| i.deferred_until.is_some() == deferred)
                    .filter(|i| p.blocked.is_none_or(|b| i.blocked_by.is_empty() != b))
                    .collect();
                if let Some(n) = p.limit {
                    items.truncate(usize::try_from(n).unwrap_or(usize::MAX));
                }
                Ok(ListOut {
                    schema: 1,
                    as_of: a.vault.as_of,
                    items,
                })
            })())
        })
        .await
    }

    #[tool(
        description = "Persist follow-ups into the vault (journal, project todos, an active task, a skip, a goal, or a done entry), under the vault lock. The whole batch is validated first; a refused entry writes nothing and is returned as an error. An entry already present is not written twice.",
        input_schema = schema::<RouteParams>(),
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn route(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: RouteParams = args!("route", a);
            reply((|| {
                let entries: Vec<RouteEntry> = p.entries;
                let today = s.cfg.today();
                let checked = validate(&entries, today)?;
                let replaces: Vec<Option<String>> =
                    entries.iter().map(|e| e.replaces.clone()).collect();
                crate::oplog::name_next("mcp route");
                with_lock(&s.lock_options(), || {
                    let vault = VaultDir::open(&s.root)?;
                    let view = crate::route::VaultView::discover(&s.root, &s.cfg)?;
                    if replaces.iter().any(Option::is_some) {
                        crate::act::route_replacing(
                            &vault, &s.cfg, &view, &checked, &replaces, today,
                        )
                    } else {
                        route_batch(&vault, &s.cfg, &view, &checked)
                    }
                })
            })())
        })
        .await
    }

    #[tool(
        description = "Mark one open item done: its checkboxes become [x], or a Done entry is written in today's journal. Takes the vault lock; dry_run returns the diff and writes nothing.",
        input_schema = schema::<ActParams>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn done(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ActParams = args!("done", a);
            reply(s.act(&p.item, Action::Done, p.date.as_deref(), p.dry_run))
        })
        .await
    }

    #[tool(
        description = "Cancel one open item: its checkboxes become [-], or a Skipped entry is written (the audit shows it as potentially lost that day). Takes the vault lock; dry_run writes nothing.",
        input_schema = schema::<ActParams>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn cancel(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ActParams = args!("cancel", a);
            reply(s.act(&p.item, Action::Cancel, p.date.as_deref(), p.dry_run))
        })
        .await
    }

    #[tool(
        description = "Defer one open item until a date: writes a start date (Tasks 🛫 or Dataview [start::]) on every place it was written. Takes the vault lock; dry_run writes nothing.",
        input_schema = schema::<DeferParams>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn defer(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: DeferParams = args!("defer", a);
            reply(
                parse_date("until", &p.until)
                    .and_then(|until| s.act(&p.item, Action::Defer { until }, None, p.dry_run)),
            )
        })
        .await
    }

    #[tool(
        description = "The review queue as JSON: open items the tool is unsure about (possibly-done, not-a-task, possible-duplicate, superseded, unreviewed-capture, stale), each with its ID, reason and evidence. Answer with the decide tool.",
        input_schema = schema::<ReviewParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn review(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ReviewParams = args!("review", a);
            reply(crate::pipeline::analyze(&s.root, &s.cfg).map(|a| {
                let report = crate::report::build_with(&a, &s.cfg, crate::report::Trail::Counted);
                let project = p.project.map(|s| s.to_ascii_lowercase());
                report
                    .review
                    .into_iter()
                    .filter(|r| project.is_none() || r.item.project == project)
                    .collect::<Vec<_>>()
            }))
        })
        .await
    }

    #[tool(
        description = "The hand-off check for a project, as JSON: the open items of its last hand-off and its review items, each with ID and evidence. Call it first when wrapping up a session, then answer everything in one decide call.",
        input_schema = schema::<ReviewParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn wrap(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ReviewParams = args!("wrap", a);
            reply(crate::pipeline::analyze(&s.root, &s.cfg).map(|a| {
                let report = crate::report::build_with(&a, &s.cfg, crate::report::Trail::Counted);
                let project = p.project.map(|s| s.to_ascii_lowercase());
                crate::report::review::wrap_of(&report, project.as_deref())
            }))
        })
        .await
    }

    #[tool(
        description = "Answer review or hand-off items in one batch: keep (still open, not asked again for review.stale_days), same (two items are one task), not-task (never listed again), done, cancel. Decisions are appended to .agents/decisions.log under the vault lock; the batch is checked whole first.",
        input_schema = schema::<DecideParams>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn decide(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: DecideParams = args!("decide", a);
            reply((|| {
                let answers: Vec<crate::decide::Answer> = p
                    .answers
                    .into_iter()
                    .map(|a| crate::decide::Answer {
                        action: a.action.as_str().to_string(),
                        id: a.id,
                        other: a.other,
                    })
                    .collect();
                let text = serde_json::to_string(&answers).unwrap_or_default();
                let answers = crate::decide::parse_batch("(MCP)", &text)?;
                let date = s.cfg.today();
                let vault = VaultDir::open(&s.root)?;
                if p.dry_run {
                    let (_, planned) =
                        crate::decide::plan(&vault, &s.cfg, "(MCP)", &answers, date)?;
                    return Ok(crate::decide::Decided {
                        schema: 1,
                        answers: planned,
                        written: false,
                    });
                }
                crate::oplog::name_next("mcp decide");
                with_lock(&s.lock_options(), || {
                    crate::decide::run(&vault, &s.cfg, "(MCP)", &answers, date)
                })
            })())
        })
        .await
    }

    #[tool(
        description = "Vault statistics as JSON: created vs done per week, open items by age, zombies (open longer than N days), stuck projects, per-project counts.",
        input_schema = schema::<StatsParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn stats(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: StatsParams = args!("stats", a);
            let days = p.zombie_days.unwrap_or(s.cfg.stats_zombie_days);
            reply(crate::stats::compute(&s.root, &s.cfg, days))
        })
        .await
    }

    #[tool(
        description = "Follow-up candidates said in a transcript, each marked persisted (already in the vault) or not, as JSON: what /wrap routes.",
        input_schema = schema::<ExtractParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn extract(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ExtractParams = args!("extract", a);
            let path = std::path::Path::new(&p.transcript);
            reply(crate::followups::report(
                &s.root,
                &s.cfg,
                path,
                &p.transcript,
                false,
            ))
        })
        .await
    }

    #[tool(
        description = "Why one item is where it is, as JSON: every place it was collected, what merged with it and how similar, what resolved it or why it is open (shown, overflow, deferred, blocked), and near misses with the guard that rejected them.",
        input_schema = schema::<ExplainParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn explain(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: ExplainParams = args!("explain", a);
            reply(
                crate::pipeline::analyze(&s.root, &s.cfg)
                    .and_then(|a| crate::explain::explain(&a, &s.cfg, &p.item)),
            )
        })
        .await
    }

    #[tool(
        description = "The history of one item as JSON: every day and file it was written in, open or resolved, what merged with it, and the done entries matching it.",
        input_schema = schema::<HistoryParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn history(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: HistoryParams = args!("history", a);
            reply(crate::history::history(&s.root, &s.cfg, &p.item))
        })
        .await
    }

    #[tool(
        description = "Did we already do this? Ranked full-text search (BM25) over every item, open, resolved or cancelled, and every Done/Skipped entry, as JSON: each hit with its ID (open items), status, dates, path:line and the entry that resolved it. Identifiers (#12, file names) count as exact terms; Korean and Japanese work.",
        input_schema = schema::<SearchParams>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search(&self, Parameters(a): Parameters<JsonObject>) -> Reply {
        self.off_loop(move |s| {
            let p: SearchParams = args!("search", a);
            reply(s.search_json(p))
        })
        .await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(rmcp::model::Implementation::new(
            "active-status",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(
            "Follow-ups of a Markdown vault. Call `status` at the start of a session; close items \
             with `done`/`cancel`/`defer` by their ID; persist new follow-ups with `route`. The \
             dashboard is the resource active-status://dashboard.",
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(super::DASHBOARD_URI, "dashboard")
                .with_title(self.cfg.output.clone())
                .with_description("The dashboard as it would be regenerated now (Markdown)")
                .with_mime_type("text/markdown"),
            Resource::new(super::VIEW_URI, "view")
                .with_title("view.html")
                .with_description(
                    "The self-contained HTML view (charts, every open item) as `view` would write it now",
                )
                .with_mime_type("text/html"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ReadResourceResponse, ErrorData> {
        let (page, mime): (fn(&Server) -> Result<String>, _) = match request.uri.as_str() {
            super::DASHBOARD_URI => (Server::dashboard, "text/markdown"),
            super::VIEW_URI => (Server::view_page, "text/html"),
            _ => {
                return Err(ErrorData::resource_not_found(
                    format!("no resource {}", request.uri),
                    None,
                ));
            }
        };
        // Off the request loop, like the tools.
        let server = self.clone();
        let page = tokio::task::spawn_blocking(move || page(&server))
            .await
            .unwrap_or_else(|e| {
                Err(Error::Mcp {
                    message: format!("the resource failed: {e}"),
                })
            });
        match page {
            Ok(text) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, request.uri).with_mime_type(mime),
            ])
            .into()),
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_its_argument_check() {
        for tool in Server::tool_router().list_all() {
            assert!(
                check_arguments(&tool.name, JsonObject::new()).is_some(),
                "{}",
                tool.name
            );
        }
        assert!(check_arguments("nosuch", JsonObject::new()).is_none());
    }
}
