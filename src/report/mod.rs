//! The report: the merge result shaped as docs/FORMAT.md §8's JSON, which is also the
//! context the dashboard template renders.

pub mod review;

use crate::config::Config;
use crate::item::{ActiveTask, Goal, Item, ItemStatus, SourceKind, Tier, Warning};
use crate::merge::{Merged, overdue, tier};
use crate::scan::Vault;
use crate::task_meta::Priority;
use jiff::civil::Date;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub schema: u32,
    pub as_of: Option<Date>,
    pub output: String,
    pub written: bool,
    pub changed: bool,
    pub goals: Vec<Goal>,
    pub priorities: Vec<ReportItem>,
    pub overflow: Vec<ReportItem>,
    /// Open items not actionable before a later date (`🛫`/`⏳` start or
    /// scheduled date after `as_of`, or written in a future-dated note).
    pub deferred: Vec<ReportItem>,
    /// Open items whose `⛔` names an open item's `🆔`.
    pub blocked: Vec<ReportItem>,
    /// Open items the tool is unsure about, each with a reason and its
    /// evidence, in queue order (docs/FORMAT.md §5.3).
    pub review: Vec<review::ReviewItem>,
    pub active_tasks: Vec<ActiveTask>,
    /// Every resolved item with the Done entry that closed it.
    pub resolutions: Vec<crate::trail::ResolutionOut>,
    pub audit: Audit,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReportItem {
    /// Stable short ID (see [`crate::item_id`]).
    pub id: String,
    pub text: String,
    pub project: Option<String>,
    pub tier: Tier,
    pub source: SourceRef,
    pub first_seen: Option<Date>,
    pub last_seen: Option<Date>,
    pub age_days: Option<i32>,
    /// Every member, the representative first, with its similarity to it.
    pub seen_in: Vec<crate::trail::Member>,
    /// `open`, `in_progress`, `flagged` or `forwarded`.
    pub status: ItemStatus,
    pub due: Option<Date>,
    pub scheduled: Option<Date>,
    pub start: Option<Date>,
    pub priority: Option<Priority>,
    pub tags: Vec<String>,
    /// The item's own `🆔` / `[id:: …]`.
    pub task_id: Option<String>,
    /// The `⛔` / `[dependsOn:: …]` IDs.
    pub depends_on: Vec<String>,
    pub done_on: Option<Date>,
    /// Due before `as_of`.
    pub overdue: bool,
    /// Set when the item is deferred: the first date it becomes actionable.
    pub deferred_until: Option<Date>,
    /// The open items' task IDs this item waits for (non-empty: blocked).
    pub blocked_by: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SourceRef {
    pub kind: SourceKind,
    pub path: Arc<str>,
    pub line: u32,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Place {
    pub path: Arc<str>,
    pub line: u32,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Audit {
    pub files_scanned: usize,
    pub sources: SourceCounts,
    pub collected: usize,
    pub resolved: usize,
    pub duplicates_merged: usize,
    pub open: usize,
    pub shown: usize,
    pub overflow: usize,
    /// Open items deferred to a later date: `open = shown + overflow + deferred + blocked`.
    pub deferred: usize,
    /// Open items waiting for another open item (`⛔`).
    pub blocked: usize,
    /// Open items in review: `open = shown + overflow + deferred + blocked + review`.
    pub review: usize,
    /// Items with a decoration mark (`[i]`, `["]`, `[*]` …) where items are
    /// collected: not tasks, not in `collected`.
    pub non_task: usize,
    /// Files skipped because their front matter says `active_status: exclude`.
    pub excluded_files: usize,
    /// Files read whole because they have no next section.
    pub read_whole: Vec<Arc<str>>,
    pub untagged_warnings: Vec<UntaggedWarning>,
    pub potentially_lost: Vec<Lost>,
    pub warnings: Vec<Warning>,
    /// What the cache did (absent when it is off): files reused and re-read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<crate::cache::CacheUse>,
}

/// Collected open items per source kind, in FORMAT.md order.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct SourceCounts {
    pub journal_next: usize,
    pub captured: usize,
    pub active_todos: usize,
    pub project_todos: usize,
    pub progress: usize,
}

impl SourceCounts {
    pub fn add(&mut self, kind: SourceKind) {
        let slot = match kind {
            SourceKind::JournalNext => &mut self.journal_next,
            SourceKind::Captured => &mut self.captured,
            SourceKind::ActiveTodos => &mut self.active_todos,
            SourceKind::ProjectTodos => &mut self.project_todos,
            SourceKind::Progress => &mut self.progress,
        };
        *slot += 1;
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UntaggedWarning {
    pub path: Arc<str>,
    pub line: u32,
    pub text: String,
    pub reason: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Lost {
    pub path: Arc<str>,
    pub line: u32,
    pub text: String,
    pub project: Option<String>,
}

/// Days from `from` to `to`.
fn days_between(from: Date, to: Date) -> Option<i32> {
    from.until(to).ok().map(|span| span.get_days())
}

/// The date an item becomes actionable when that is after `horizon`: its
/// start or scheduled date, or the date of the (future-dated) note it is in.
fn deferral(item: &Item, horizon: Option<Date>) -> Option<Date> {
    let h = horizon?;
    let meta = item.meta.as_deref();
    [
        meta.and_then(|m| m.start),
        meta.and_then(|m| m.scheduled),
        item.date,
    ]
    .into_iter()
    .flatten()
    .filter(|d| *d > h)
    .max()
}

/// Builds the report items of every cluster, in rank order. `as_of` dates
/// the tiers, ages and overdue marks; deferral is judged against `as_of`
/// (or `today` when the vault has no dated note).
pub fn report_items(merged: &Merged, as_of: Option<Date>) -> Vec<ReportItem> {
    report_items_at(merged, as_of, None)
}

/// [`report_items`] with today's date for vaults without dated notes.
pub fn report_items_at(
    merged: &Merged,
    as_of: Option<Date>,
    today: Option<Date>,
) -> Vec<ReportItem> {
    let horizon = as_of.or(today);
    let open_ids: std::collections::HashSet<&str> = merged
        .items
        .iter()
        .filter_map(|i| i.meta.as_deref()?.task_id.as_deref())
        .collect();
    let ids = crate::item_id::assign(
        merged
            .clusters
            .iter()
            .map(|c| (c.project.as_deref(), &*merged.items[c.members[0]].norm)),
    );
    // Each item on its own: on both cores, in order.
    merged
        .clusters
        .par_iter()
        .zip(ids)
        .enumerate()
        .map(|(n, (c, id))| {
            let rep = &merged.items[c.members[0]];
            let meta = rep.meta.as_deref().cloned().unwrap_or_default();
            // Deferred only when every copy is: one actionable copy shows.
            let deferred_until = c
                .members
                .iter()
                .map(|&m| deferral(&merged.items[m], horizon))
                .collect::<Option<Vec<Date>>>()
                .and_then(|v| v.into_iter().min());
            let blocked_by = meta
                .depends_on
                .iter()
                .filter(|d| open_ids.contains(d.as_str()) && meta.task_id.as_ref() != Some(*d))
                .cloned()
                .collect();
            ReportItem {
                id,
                text: rep.text.clone(),
                project: c.project.clone(),
                tier: tier(rep, as_of),
                source: SourceRef {
                    kind: rep.kind,
                    path: rep.loc.path.clone(),
                    line: rep.loc.line,
                },
                first_seen: c.first_seen,
                last_seen: c.last_seen,
                age_days: match (as_of, c.first_seen) {
                    (Some(a), Some(f)) => days_between(f, a),
                    _ => None,
                },
                seen_in: crate::trail::members(merged, n),
                status: rep.status,
                due: meta.due,
                scheduled: meta.scheduled,
                start: meta.start,
                priority: meta.priority,
                overdue: overdue(rep, as_of),
                tags: meta.tags,
                task_id: meta.task_id,
                depends_on: meta.depends_on,
                done_on: meta.done_on,
                deferred_until,
                blocked_by,
            }
        })
        .collect()
}

/// The item an ID (or the start of one, case-insensitively) names among
/// `items`, which must be the whole list of [`report_items`] for the IDs to
/// mean what `list` and the dashboard showed.
pub fn find_item(items: &[ReportItem], query: &str) -> crate::item_id::Found {
    crate::item_id::find(items.iter().map(|i| i.id.as_str()), query)
}

/// The latest goal per project (by date, then path and line); a project whose
/// latest goal is checked off has no current goal.
pub fn current_goals(goals: &[Goal]) -> Vec<Goal> {
    let mut latest: BTreeMap<Option<String>, &Goal> = BTreeMap::new();
    for g in goals {
        let newer = latest
            .get(&g.project)
            .is_none_or(|cur| (g.date, &g.path, g.line) > (cur.date, &cur.path, cur.line));
        if newer {
            latest.insert(g.project.clone(), g);
        }
    }
    let mut out: Vec<Goal> = latest.into_values().filter(|g| !g.done).cloned().collect();
    out.sort_by(|a, b| (a.project.is_none(), &a.project).cmp(&(b.project.is_none(), &b.project)));
    out
}

/// Per-kind counts and untagged warnings of the collected items, taken
/// before the merge consumes them.
pub fn collected_stats(items: &[Item]) -> (SourceCounts, Vec<UntaggedWarning>) {
    let mut sources = SourceCounts::default();
    let mut untagged = Vec::new();
    for i in items {
        sources.add(i.kind);
        if let Some(r) = i.untagged {
            untagged.push(UntaggedWarning {
                path: i.loc.path.clone(),
                line: i.loc.line,
                text: i.text.clone(),
                reason: r.as_str(),
            });
        }
    }
    (sources, untagged)
}

/// Everything one run derives from the vault.
#[derive(Debug)]
pub struct Analysis {
    pub vault: Vault,
    pub merged: Merged,
    pub sources: SourceCounts,
    pub untagged: Vec<UntaggedWarning>,
    /// Wall time of the scan (discovery, reading, parsing) and of the merge.
    pub timings: [std::time::Duration; 2],
}

/// Whether a report lists every resolved item with what closed it
/// (`resolutions`). The JSON report and `audit -v` show that list; the
/// dashboard, the plain audit and the session-start summary never read it,
/// and building it is a copy of every resolved item (25,910 on the L
/// benchmark vault).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trail {
    /// `resolutions` lists every resolved item.
    Listed,
    /// `resolutions` is left empty; `audit.resolved` still counts them.
    Counted,
}

/// Assembles the whole report. `written`/`changed` are filled in by the caller.
pub fn build(analysis: &Analysis, cfg: &Config) -> Report {
    build_with(analysis, cfg, Trail::Listed)
}

/// [`build`], listing the resolved items only when `trail` says so.
pub fn build_with(analysis: &Analysis, cfg: &Config, trail: Trail) -> Report {
    let Analysis {
        vault,
        merged,
        sources,
        untagged,
        ..
    } = analysis;
    // The few deferred and blocked items move out of the list, and the
    // shown ones off its head: the thousands left over stay in place as
    // the overflow (partitioning and splitting copied every item into
    // fresh memory, twice).
    let mut overflow = report_items_at(merged, vault.as_of, vault.today);
    let deferred: Vec<_> = overflow
        .extract_if(.., |i| i.deferred_until.is_some())
        .collect();
    let blocked: Vec<_> = overflow
        .extract_if(.., |i| !i.blocked_by.is_empty())
        .collect();
    let review = review::take(
        &mut overflow,
        &review::Context {
            merged,
            signals: &vault.signals,
            today: vault.as_of.or(vault.today),
            stale_days: cfg.review_stale_days,
            inbox_dir: &cfg.inbox_dir,
            session_log: &|path| matches!(cfg.extra_kind_of(path), Some("session-log" | "handoff")),
        },
    );
    let all: Vec<_> = overflow.drain(..cfg.cap.min(overflow.len())).collect();
    let mut warnings = vault.warnings.clone();
    for loc in &merged.forwarded_open {
        warnings.push(Warning::new(
            loc.path.to_string(),
            format!(
                "line {}: forwarded item ([>]) with no matching open item elsewhere; kept open",
                loc.line
            ),
        ));
    }
    warnings.sort();
    let potentially_lost = vault
        .skips
        .iter()
        .filter(|s| s.date.is_some() && s.date == vault.as_of)
        .map(|s| Lost {
            path: s.loc.path.clone(),
            line: s.loc.line,
            text: s.text.clone(),
            project: s.project.clone(),
        })
        .collect();
    Report {
        schema: 1,
        as_of: vault.as_of,
        output: cfg.output.clone(),
        written: false,
        changed: false,
        goals: current_goals(&vault.goals),
        audit: Audit {
            files_scanned: vault.files_scanned,
            sources: *sources,
            collected: merged.collected,
            resolved: merged.resolved,
            duplicates_merged: merged.duplicates_merged,
            open: merged.clusters.len(),
            shown: all.len(),
            overflow: overflow.len(),
            deferred: deferred.len(),
            blocked: blocked.len(),
            review: review.len(),
            non_task: vault.non_task,
            excluded_files: vault.excluded,
            read_whole: vault.read_whole.clone(),
            untagged_warnings: untagged.clone(),
            potentially_lost,
            warnings,
            cache: vault.cache.clone(),
        },
        priorities: all,
        overflow,
        deferred,
        blocked,
        review,
        active_tasks: vault.active_tasks.clone(),
        resolutions: match trail {
            Trail::Listed => crate::trail::resolutions(merged, &vault.signals),
            Trail::Counted => Vec::new(),
        },
    }
}
