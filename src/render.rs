//! Rendering the dashboard with Tera (docs/FORMAT.md §6). No clock: the same report
//! always renders to the same bytes.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::report::Report;
use serde::Serialize;
use std::path::Path;

/// The default template, embedded in the binary.
pub const DEFAULT_TEMPLATE: &str = include_str!("../templates/active-status.md.tera");

/// How many untagged warnings and warnings the dashboard lists by name.
const LISTED: usize = 10;

#[derive(Serialize)]
struct Linked<'a, T: Serialize> {
    #[serde(flatten)]
    inner: &'a T,
    href: String,
}

#[derive(Serialize)]
struct Priority<'a> {
    id: &'a str,
    project: Option<&'a str>,
    text: &'a str,
    path: &'a str,
    line: u32,
    href: String,
    tier: crate::item::Tier,
    age_days: Option<i32>,
    also: usize,
    status: crate::item::ItemStatus,
    due: Option<jiff::civil::Date>,
    overdue: bool,
    /// `highest` … `lowest`, or none.
    priority: Option<crate::task_meta::Priority>,
}

/// A blocked item as the dashboard's "Blocked" line shows it.
#[derive(Serialize)]
struct Blocked<'a> {
    id: &'a str,
    project: Option<&'a str>,
    text: &'a str,
    blocked_by: &'a [String],
}

/// `audit` as the template sees it: counts, the skip records of the day,
/// and the number (not the list) of untagged items and warnings.
#[derive(Serialize)]
struct AuditView<'a> {
    files_scanned: usize,
    sources: crate::report::SourceCounts,
    collected: usize,
    resolved: usize,
    duplicates_merged: usize,
    open: usize,
    shown: usize,
    overflow: usize,
    deferred: usize,
    blocked: usize,
    review: usize,
    non_task: usize,
    excluded_files: usize,
    read_whole: usize,
    untagged_count: usize,
    warnings_count: usize,
    potentially_lost: &'a [crate::report::Lost],
}

impl<'a> AuditView<'a> {
    fn of(a: &'a crate::report::Audit) -> Self {
        AuditView {
            files_scanned: a.files_scanned,
            sources: a.sources,
            collected: a.collected,
            resolved: a.resolved,
            duplicates_merged: a.duplicates_merged,
            open: a.open,
            shown: a.shown,
            overflow: a.overflow,
            deferred: a.deferred,
            blocked: a.blocked,
            review: a.review,
            non_task: a.non_task,
            excluded_files: a.excluded_files,
            read_whole: a.read_whole.len(),
            untagged_count: a.untagged_warnings.len(),
            warnings_count: a.warnings.len(),
            potentially_lost: &a.potentially_lost,
        }
    }
}

/// A review item as the dashboard lists it.
#[derive(Serialize)]
struct ReviewRow<'a> {
    id: &'a str,
    project: Option<&'a str>,
    text: &'a str,
    path: &'a str,
    line: u32,
    href: String,
    reason: &'static str,
    evidence: String,
}

#[derive(Serialize)]
struct OverflowCount<'a> {
    project: Option<&'a str>,
    count: usize,
}

/// A Markdown link destination from the dashboard to a root-relative path.
pub fn href(output: &str, target: &str) -> String {
    let depth = Path::new(output).components().count().saturating_sub(1);
    let rel = format!("{}{}", "../".repeat(depth), target);
    if rel.contains([' ', '(', ')', '<', '>']) {
        format!("<{}>", rel.replace('<', "%3C").replace('>', "%3E"))
    } else {
        rel
    }
}

/// Overflow counts per project, largest first, untagged last.
fn overflow_counts(report: &Report) -> Vec<OverflowCount<'_>> {
    let mut counts: std::collections::BTreeMap<Option<&str>, usize> = Default::default();
    for item in &report.overflow {
        *counts.entry(item.project.as_deref()).or_default() += 1;
    }
    let mut v: Vec<_> = counts
        .into_iter()
        .map(|(project, count)| OverflowCount { project, count })
        .collect();
    v.sort_by(|a, b| {
        (a.project.is_none(), std::cmp::Reverse(a.count), a.project).cmp(&(
            b.project.is_none(),
            std::cmp::Reverse(b.count),
            b.project,
        ))
    });
    v
}

/// Loads the configured template (relative to the root, read through the
/// vault handle: never from outside it) or the default.
pub fn template_source(root: &Path, cfg: &Config) -> Result<String> {
    match &cfg.template {
        None => Ok(DEFAULT_TEMPLATE.to_string()),
        Some(t) => {
            let vault = crate::vault_fs::VaultDir::open(root)?;
            match vault.read_string(t) {
                Ok(Some(text)) => Ok(text),
                Ok(None) => Err(Error::TemplateRead {
                    path: root.join(t),
                    source: std::io::Error::from(std::io::ErrorKind::NotFound),
                }),
                Err(Error::Read { path, source }) => Err(Error::TemplateRead { path, source }),
                Err(e) => Err(e),
            }
        }
    }
}

/// A Tera instance holding only `template`: no file system access (no
/// includes from disk) and no environment (`get_env` refuses).
fn sandboxed(template: &str) -> tera::Result<tera::Tera> {
    let mut tera = tera::Tera::default();
    tera.register_function(
        "get_env",
        |_: &std::collections::HashMap<String, tera::Value>| -> tera::Result<tera::Value> {
            Err(tera::Error::msg(
                "get_env is disabled: templates cannot read the environment",
            ))
        },
    );
    tera.add_raw_template("dashboard", template)?;
    Ok(tera)
}

/// Checks that `template` compiles (before anything is written).
pub fn check_template(template: &str) -> Result<()> {
    sandboxed(template).map(drop).map_err(|e| Error::Template {
        message: tera_chain(&e),
    })
}

/// Renders the dashboard for `report`.
pub fn render(report: &Report, template: &str, cfg: &Config) -> Result<String> {
    let out = &cfg.output;
    // The context is the report without its long lists (overflow items,
    // every untagged warning), which the dashboard only counts: serializing
    // them for Tera would dominate rendering on large vaults.
    let mut ctx = tera::Context::new();
    ctx.insert("schema", &report.schema);
    ctx.insert("as_of", &report.as_of);
    ctx.insert("output", &report.output);
    ctx.insert("audit", &AuditView::of(&report.audit));
    let goals: Vec<_> = report
        .goals
        .iter()
        .map(|g| Linked {
            inner: g,
            href: href(out, &g.path),
        })
        .collect();
    let tasks: Vec<_> = report
        .active_tasks
        .iter()
        .map(|t| Linked {
            inner: t,
            href: href(out, &t.path),
        })
        .collect();
    let priorities: Vec<_> = report
        .priorities
        .iter()
        .map(|p| Priority {
            id: &p.id,
            project: p.project.as_deref(),
            text: &p.text,
            path: &p.source.path,
            line: p.source.line,
            href: href(out, &p.source.path),
            tier: p.tier,
            age_days: p.age_days,
            also: p.seen_in.len() - 1,
            status: p.status,
            due: p.due,
            overdue: p.overdue,
            priority: p.priority,
        })
        .collect();
    let blocked: Vec<_> = report
        .blocked
        .iter()
        .map(|b| Blocked {
            id: &b.id,
            project: b.project.as_deref(),
            text: &b.text,
            blocked_by: &b.blocked_by,
        })
        .collect();
    let next_deferred = report
        .deferred
        .iter()
        .filter_map(|d| d.deferred_until)
        .min();
    let review: Vec<_> = report
        .review
        .iter()
        .take(cfg.review_max)
        .map(|r| ReviewRow {
            id: &r.item.id,
            project: r.item.project.as_deref(),
            text: &r.item.text,
            path: &r.item.source.path,
            line: r.item.source.line,
            href: href(out, &r.item.source.path),
            reason: r.reason.as_str(),
            evidence: r.evidence.display(),
        })
        .collect();
    let untagged = &report.audit.untagged_warnings;
    let warnings = &report.audit.warnings;
    ctx.insert(
        "review_more",
        &report.review.len().saturating_sub(review.len()),
    );
    ctx.insert("review", &review);
    ctx.insert("command", "active-status regen");
    ctx.insert("goals", &goals);
    ctx.insert("active_tasks", &tasks);
    ctx.insert("priorities", &priorities);
    ctx.insert("blocked", &blocked);
    ctx.insert("next_deferred", &next_deferred);
    ctx.insert("overflow_by_project", &overflow_counts(report));
    ctx.insert("untagged_shown", &untagged[..untagged.len().min(LISTED)]);
    ctx.insert("untagged_more", &untagged.len().saturating_sub(LISTED));
    ctx.insert("warnings_shown", &warnings[..warnings.len().min(LISTED)]);
    ctx.insert("warnings_more", &warnings.len().saturating_sub(LISTED));
    let rendered = if cfg.template.is_some() {
        isolated::render(template, ctx)?
    } else {
        sandboxed(template)
            .and_then(|t| t.render("dashboard", &ctx))
            .map_err(|e| Error::Template {
                message: tera_chain(&e),
            })?
    };
    let mut rendered = crate::output::escape_controls(&rendered).into_owned();
    if !rendered.contains(crate::write::GENERATED_MARK) {
        rendered.insert_str(0, crate::write::GENERATED_NOTICE);
    }
    if !rendered.ends_with('\n') {
        rendered.push('\n');
    }
    Ok(rendered)
}

/// A configured template comes from the vault and may recurse without end,
/// allocate without bound (`range(end=1e10)`) or loop for ever: it renders
/// in a child process of this binary with a memory limit, a time budget and
/// an output budget, so it can fail but never abort, hang or exhaust the
/// run (or the MCP server) that asked for it.
pub mod isolated {
    use super::{sandboxed, tera_chain};
    use crate::error::{Error, Result};
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// The first argument that makes the binary a template renderer.
    pub const CHILD_ARG: &str = "--internal-render-template";
    /// Wall time a configured template may take.
    pub const TIME: Duration = Duration::from_secs(10);
    /// Largest dashboard a configured template may produce.
    pub const MAX_OUTPUT: u64 = 16 << 20;
    /// Address space of the renderer.
    const MEMORY: u64 = 2 << 30;

    fn failed(message: impl Into<String>) -> Error {
        Error::Template {
            message: message.into(),
        }
    }

    /// Renders `template` with `ctx` in a child process.
    pub(crate) fn render(template: &str, ctx: tera::Context) -> Result<String> {
        let exe = std::env::current_exe()
            .map_err(|e| failed(format!("cannot start the template renderer: {e}")))?;
        render_with(&exe, template, ctx)
    }

    /// Renders `template` as a configured template is (in a child process
    /// of `renderer`, a program that runs [`child_main`] when given
    /// [`CHILD_ARG`], with the budgets) on a small sample report: the
    /// entry of the fuzz target for templates.
    pub fn render_sample(
        renderer: &std::path::Path,
        template: &str,
    ) -> std::result::Result<String, String> {
        let mut ctx = tera::Context::new();
        ctx.insert("as_of", "2026-05-06");
        ctx.insert("output", "ACTIVE-STATUS.md");
        ctx.insert(
            "priorities",
            &serde_json::json!([{"id": "ab12cd", "text": "port it", "project": "wrap-cli",
                "tier": 1, "path": "journal/2026-05-06.md", "line": 3}]),
        );
        ctx.insert("goals", &Vec::<String>::new());
        render_with(renderer, template, ctx).map_err(|e| e.to_string())
    }

    fn render_with(exe: &std::path::Path, template: &str, ctx: tera::Context) -> Result<String> {
        let input = serde_json::to_vec(&serde_json::json!({
            "template": template,
            "context": ctx.into_json(),
        }))
        .map_err(|source| Error::Serialize { source })?;
        let mut child = Command::new(exe)
            .arg(CHILD_ARG)
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failed(format!("cannot start the template renderer: {e}")))?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let mut stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = (&mut stdout)
                .take(MAX_OUTPUT * 2 + 1024)
                .read_to_end(&mut out);
            out
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() >= TIME => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return Err(failed(format!("the template renderer failed: {e}"))),
            }
        };
        let _ = writer.join();
        let out = reader.join().unwrap_or_default();
        let Some(status) = status else {
            return Err(failed(format!(
                "the template ran past its time budget ({} s): a loop too large?",
                TIME.as_secs()
            )));
        };
        if !status.success() {
            return Err(failed(
                "the template aborted: a macro that calls itself without end, or a value \
                 too large for its memory budget (a huge `range`?)",
            ));
        }
        let answer: serde_json::Value = serde_json::from_slice(&out).map_err(|_| {
            failed(format!(
                "the template's output is over its budget ({} MiB)",
                MAX_OUTPUT >> 20
            ))
        })?;
        match (answer["ok"].as_str(), answer["err"].as_str()) {
            (Some(text), _) if text.len() as u64 <= MAX_OUTPUT => Ok(text.to_string()),
            (Some(_), _) => Err(failed(format!(
                "the template's output is over its budget ({} MiB)",
                MAX_OUTPUT >> 20
            ))),
            (None, Some(message)) => Err(failed(message)),
            (None, None) => Err(failed("the template renderer gave no answer")),
        }
    }

    /// The child's side: reads `{template, context}` on stdin, writes
    /// `{"ok": text}` or `{"err": message}` on stdout. Returns the exit code.
    pub fn child_main() -> i32 {
        crate::platform::limit_address_space(MEMORY);
        let mut input = Vec::new();
        if std::io::stdin().read_to_end(&mut input).is_err() {
            return 74;
        }
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&input) else {
            return 65;
        };
        let template = v["template"].as_str().unwrap_or_default();
        let answer = match tera::Context::from_value(v["context"].clone())
            .and_then(|ctx| sandboxed(template)?.render("dashboard", &ctx))
        {
            Ok(text) if text.len() as u64 > MAX_OUTPUT => serde_json::json!({
                "err": format!("the template's output is over its budget ({} MiB)", MAX_OUTPUT >> 20)
            }),
            Ok(text) => serde_json::json!({ "ok": text }),
            Err(e) => serde_json::json!({ "err": tera_chain(&e) }),
        };
        let mut stdout = std::io::stdout().lock();
        let _ = serde_json::to_writer(&mut stdout, &answer);
        let _ = stdout.flush();
        0
    }
}

fn tera_chain(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_are_relative_to_the_dashboard() {
        assert_eq!(href("ACTIVE-STATUS.md", "journal/a.md"), "journal/a.md");
        assert_eq!(href("dash/AS.md", "journal/a.md"), "../journal/a.md");
        assert_eq!(
            href("AS.md", "journal/my notes.md"),
            "<journal/my notes.md>"
        );
    }
}
