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
    CallToolResult, ContentBlock, ListResourcesResult, PaginatedRequestParams,
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

/// A tool's outcome: JSON (or text) on success, the CLI's message as a tool
/// error otherwise.
fn reply<T: Serialize>(r: Result<T>) -> std::result::Result<CallToolResult, ErrorData> {
    Ok(match r {
        Ok(v) => match serde_json::to_string_pretty(&v) {
            Ok(s) => CallToolResult::success(vec![ContentBlock::text(s)]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("JSON: {e}"))]),
        },
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
    })
}

fn parse_date(what: &str, d: &str) -> Result<Date> {
    crate::clock::parse_date(d).map_err(|reason| Error::BadDate {
        value: format!("{what} {d}"),
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
}

impl Server {
    pub(crate) fn new(root: PathBuf, cfg: Config) -> Self {
        Server {
            root,
            cfg,
            tool_router: Self::tool_router(),
        }
    }

    fn lock_options(&self) -> LockOptions {
        LockOptions {
            root: self.root.clone(),
            path: self.root.join(&self.cfg.lock_path),
            timeout: Duration::try_from_secs_f64(self.cfg.lock_timeout_secs)
                .unwrap_or(Duration::MAX),
            no_wait: false,
            announce: false,
        }
    }

    fn act(
        &self,
        item: &str,
        action: Action,
        date: Option<&str>,
        dry_run: bool,
    ) -> Result<Planned> {
        let date = match date {
            Some(d) => parse_date("date", d)?,
            None => crate::clock::now().date(),
        };
        let vault = VaultDir::open(&self.root)?;
        if dry_run {
            let (acted, changes) = plan_action(&vault, &self.cfg, item, action, date)?;
            return Ok(Planned {
                acted,
                diff: crate::act::diff(&changes),
            });
        }
        let acted = with_lock(&self.lock_options(), || {
            run_action(&vault, &self.cfg, item, action, date)
        })?;
        Ok(Planned {
            acted,
            diff: String::new(),
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
}

#[tool_router]
impl Server {
    #[tool(
        description = "The session-start summary: counts, goals and the top open follow-ups with their IDs (plain text)."
    )]
    fn status(
        &self,
        Parameters(p): Parameters<StatusParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        let r = crate::pipeline::analyze(&self.root, &self.cfg).map(|a| {
            let report = crate::report::build(&a, &self.cfg);
            let focus = p.project.map(|f| f.to_ascii_lowercase());
            crate::summary::summary(
                &report,
                self.cfg.hook_max_chars,
                self.cfg.review_max,
                focus.as_deref(),
            )
        });
        Ok(match r {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
        })
    }

    #[tool(
        description = "Every open follow-up after the merge, in rank order, as JSON items with id, text, project, tier, source, ages and every place it was written."
    )]
    fn list(
        &self,
        Parameters(p): Parameters<ListParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply((|| {
            let kind = match p.source.as_deref() {
                None => None,
                Some(s) => Some(crate::item::SourceKind::parse(s).ok_or(
                    Error::MissingArgument {
                        needed: "source: one of journal_next, captured, active_todos, project_todos, progress",
                    },
                )?),
            };
            let due = match p.due.as_deref() {
                None => None,
                Some("overdue") => Some(DueFilter::Overdue),
                Some("any") => Some(DueFilter::Any),
                Some(d) => Some(DueFilter::OnOrBefore(parse_date("due", d)?)),
            };
            let a = crate::pipeline::analyze(&self.root, &self.cfg)?;
            let project = p.project.map(|s| s.to_ascii_lowercase());
            let deferred = p.deferred.unwrap_or(false);
            let mut items: Vec<_> = crate::report::report_items(&a.merged, a.vault.as_of)
                .into_iter()
                .filter(|i| project.is_none() || i.project == project)
                .filter(|i| kind.is_none_or(|k| i.source.kind == k))
                .filter(|i| p.status.as_deref().is_none_or(|s| i.status.as_str() == s))
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
                items.truncate(n);
            }
            Ok(ListOut {
                schema: 1,
                as_of: a.vault.as_of,
                items,
            })
        })())
    }

    #[tool(
        description = "Persist follow-ups into the vault (journal, project todos, an active task, a skip, a goal, or a done entry), under the vault lock. The whole batch is validated first; a refused entry writes nothing and is returned as an error."
    )]
    fn route(
        &self,
        Parameters(p): Parameters<RouteParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply((|| {
            let entries: Vec<RouteEntry> = p.entries;
            let today = crate::clock::now().date();
            let checked = validate(&entries, today)?;
            let replaces: Vec<Option<String>> =
                entries.iter().map(|e| e.replaces.clone()).collect();
            with_lock(&self.lock_options(), || {
                let vault = VaultDir::open(&self.root)?;
                let view = crate::route::VaultView::discover(&self.root, &self.cfg)?;
                if replaces.iter().any(Option::is_some) {
                    crate::act::route_replacing(
                        &vault, &self.cfg, &view, &checked, &replaces, today,
                    )
                } else {
                    route_batch(&vault, &self.cfg, &view, &checked)
                }
            })
        })())
    }

    #[tool(
        description = "Mark one open item done: its checkboxes become [x], or a Done entry is written in today's journal. Takes the vault lock; dry_run returns the diff and writes nothing."
    )]
    fn done(
        &self,
        Parameters(p): Parameters<ActParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(self.act(&p.item, Action::Done, p.date.as_deref(), p.dry_run))
    }

    #[tool(
        description = "Cancel one open item: its checkboxes become [-], or a Skipped entry is written (the audit shows it as potentially lost that day). Takes the vault lock; dry_run writes nothing."
    )]
    fn cancel(
        &self,
        Parameters(p): Parameters<ActParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(self.act(&p.item, Action::Cancel, p.date.as_deref(), p.dry_run))
    }

    #[tool(
        description = "Defer one open item until a date: writes a start date (Tasks 🛫 or Dataview [start::]) on every place it was written. Takes the vault lock; dry_run writes nothing."
    )]
    fn defer(
        &self,
        Parameters(p): Parameters<DeferParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(
            parse_date("until", &p.until)
                .and_then(|until| self.act(&p.item, Action::Defer { until }, None, p.dry_run)),
        )
    }

    #[tool(
        description = "The review queue as JSON: open items the tool is unsure about (possibly-done, not-a-task, possible-duplicate, unreviewed-capture, stale), each with its ID, reason and evidence. Answer with the decide tool."
    )]
    fn review(
        &self,
        Parameters(p): Parameters<ReviewParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(crate::pipeline::analyze(&self.root, &self.cfg).map(|a| {
            let report = crate::report::build_with(&a, &self.cfg, crate::report::Trail::Counted);
            let project = p.project.map(|s| s.to_ascii_lowercase());
            report
                .review
                .into_iter()
                .filter(|r| project.is_none() || r.item.project == project)
                .collect::<Vec<_>>()
        }))
    }

    #[tool(
        description = "The hand-off check for a project, as JSON: the open items of its last hand-off and its review items, each with ID and evidence. Call it first when wrapping up a session, then answer everything in one decide call."
    )]
    fn wrap(
        &self,
        Parameters(p): Parameters<ReviewParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(crate::pipeline::analyze(&self.root, &self.cfg).map(|a| {
            let report = crate::report::build_with(&a, &self.cfg, crate::report::Trail::Counted);
            let project = p.project.map(|s| s.to_ascii_lowercase());
            crate::review::wrap_of(&report, project.as_deref())
        }))
    }

    #[tool(
        description = "Answer review or hand-off items in one batch: keep (still open, not asked again for review.stale_days), same (two items are one task), not-task (never listed again), done, cancel. Decisions are appended to .agents/decisions.log under the vault lock; the batch is checked whole first."
    )]
    fn decide(
        &self,
        Parameters(p): Parameters<DecideParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply((|| {
            let answers: Vec<crate::decide::Answer> = p
                .answers
                .into_iter()
                .map(|a| crate::decide::Answer {
                    action: a.action,
                    id: a.id,
                    other: a.other,
                })
                .collect();
            let text = serde_json::to_string(&answers).unwrap_or_default();
            let answers = crate::decide::parse_batch("(MCP)", &text)?;
            let date = self.cfg.today();
            let vault = VaultDir::open(&self.root)?;
            if p.dry_run {
                let (_, planned) = crate::decide::plan(&vault, &self.cfg, "(MCP)", &answers, date)?;
                return Ok(crate::decide::Decided {
                    schema: 1,
                    answers: planned,
                    written: false,
                });
            }
            with_lock(&self.lock_options(), || {
                crate::decide::run(&vault, &self.cfg, "(MCP)", &answers, date)
            })
        })())
    }

    #[tool(
        description = "Vault statistics as JSON: created vs done per week, open items by age, zombies (open longer than N days), stuck projects, per-project counts."
    )]
    fn stats(
        &self,
        Parameters(p): Parameters<StatsParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        let days = p.zombie_days.unwrap_or(self.cfg.stats_zombie_days);
        reply(crate::stats::compute(&self.root, &self.cfg, days))
    }

    #[tool(
        description = "Follow-up candidates said in a transcript, each marked persisted (already in the vault) or not, as JSON: what /wrap routes."
    )]
    fn extract(
        &self,
        Parameters(p): Parameters<ExtractParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        let path = std::path::Path::new(&p.transcript);
        reply(crate::followups::report(
            &self.root,
            &self.cfg,
            path,
            &p.transcript,
            false,
        ))
    }

    #[tool(
        description = "Why one item is where it is, as JSON: every place it was collected, what merged with it and how similar, what resolved it or why it is open (shown, overflow, deferred, blocked), and near misses with the guard that rejected them."
    )]
    fn explain(
        &self,
        Parameters(p): Parameters<ExplainParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(
            crate::pipeline::analyze(&self.root, &self.cfg)
                .and_then(|a| crate::explain::explain(&a, &self.cfg, &p.item)),
        )
    }

    #[tool(
        description = "The history of one item as JSON: every day and file it was written in, open or resolved, what merged with it, and the done entries matching it."
    )]
    fn history(
        &self,
        Parameters(p): Parameters<HistoryParams>,
    ) -> std::result::Result<CallToolResult, ErrorData> {
        reply(crate::history::history(&self.root, &self.cfg, &p.item))
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
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ReadResourceResponse, ErrorData> {
        if request.uri != super::DASHBOARD_URI {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            ));
        }
        match self.dashboard() {
            Ok(text) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, request.uri).with_mime_type("text/markdown"),
            ])
            .into()),
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }
}
