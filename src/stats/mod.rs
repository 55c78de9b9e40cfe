//! Vault statistics computed from the sources alone, with no stored state:
//! created vs done per week, open items by age, the oldest carried items
//! ("zombies"), stuck projects and per-project counts.
//!
//! "Created" is the week of a task's first appearance: every collected item
//! (open or resolved) is clustered with the merge's own clustering, and a
//! cluster is created on its earliest date. "Done" counts the dated done
//! entries (resolution signals) written that week.

mod render;

pub(crate) use render::text;

use crate::config::Config;
use crate::error::Result;
use crate::item::Item;
use crate::merge::{Merged, cluster, compare, merge};
use crate::report::report_items;
use jiff::ToSpan;
use jiff::civil::{Date, Weekday};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The whole statistics report (`stats --format json`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Stats {
    pub schema: u32,
    pub as_of: Option<Date>,
    /// The N of "zombies" and of the stuck-project window (`stats.zombie_days`).
    pub zombie_days: u32,
    pub totals: Totals,
    /// Every ISO week from the earliest dated item or done entry to `as_of`.
    pub weeks: Vec<Week>,
    pub age_buckets: Vec<AgeBucket>,
    /// Open items older than `zombie_days`, oldest first.
    pub zombies: Vec<Zombie>,
    pub stuck_projects: Vec<Stuck>,
    /// Per project, projects by name, untagged (`project: null`) last.
    pub projects: Vec<ProjectStats>,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Default)]
pub(crate) struct Totals {
    pub collected: usize,
    pub resolved: usize,
    pub open: usize,
    /// Tasks (clusters of every collected item, open or resolved).
    pub tasks: usize,
    /// Tasks with no dated appearance (project todos, actives, PROGRESS only).
    pub undated_tasks: usize,
    /// Done entries (resolution signals) in the sources, dated or not.
    pub done_entries: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct Week {
    /// ISO week, `2026-W19`.
    pub week: String,
    /// Its Monday.
    pub start: Date,
    pub created: usize,
    pub done: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct AgeBucket {
    pub label: &'static str,
    /// Inclusive day range; `max_days` null for the last bucket; both null for undated.
    pub min_days: Option<i32>,
    pub max_days: Option<i32>,
    pub open: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Zombie {
    pub text: String,
    pub project: Option<String>,
    pub age_days: i32,
    pub first_seen: Option<Date>,
    pub last_seen: Option<Date>,
    /// Distinct days the item was written on.
    pub days_seen: usize,
    pub path: Arc<str>,
    pub line: u32,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum StuckReason {
    /// Activity in the window but nothing open: work without a next step.
    NoOpenItems,
    /// Open items but no dated activity in the window: stalled.
    NoActivity,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct Stuck {
    pub project: String,
    pub reason: StuckReason,
    pub open: usize,
    pub last_activity: Option<Date>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, Default)]
pub(crate) struct ProjectStats {
    pub project: Option<String>,
    pub open: usize,
    pub zombies: usize,
    pub created: usize,
    pub done_entries: usize,
    pub last_activity: Option<Date>,
}

const BUCKETS: [(&str, i32, Option<i32>); 6] = [
    ("0-1 d", 0, Some(1)),
    ("2-7 d", 2, Some(7)),
    ("8-14 d", 8, Some(14)),
    ("15-30 d", 15, Some(30)),
    ("31-90 d", 31, Some(90)),
    ("> 90 d", 91, None),
];

/// The Monday of `d`'s ISO week.
pub(crate) fn week_start(d: Date) -> Date {
    let back = i64::from(d.weekday().since(Weekday::Monday));
    d.checked_sub(back.days()).unwrap_or(d)
}

fn week_label(monday: Date) -> String {
    let iso = monday.iso_week_date();
    format!("{:04}-W{:02}", iso.year(), iso.week())
}

/// The largest zombie age in days (a hundred years): beyond it dates
/// cannot be computed.
pub(crate) const MAX_ZOMBIE_DAYS: u32 = 36_500;

/// Scans the vault at `root` and computes its statistics.
pub(crate) fn compute(root: &std::path::Path, cfg: &Config, zombie_days: u32) -> Result<Stats> {
    check_days(zombie_days)?;
    let vault = crate::scan::scan_vault(root, cfg)?;
    let merged = merge(
        vault.items.clone(),
        &vault.signals,
        vault.as_of,
        cfg.dedup_threshold,
    );
    Ok(of_parts(
        &vault,
        vault.items.clone(),
        &vault.signals,
        &merged,
        cfg.dedup_threshold,
        zombie_days,
    ))
}

/// The statistics of a run's analysis (the report's own scan and merge,
/// read from the cache where it holds): no second scan. The open items are
/// the settled ones, as the report counts them.
pub(crate) fn of_analysis(
    analysis: &crate::report::Analysis,
    cfg: &Config,
    zombie_days: u32,
) -> Result<Stats> {
    check_days(zombie_days)?;
    let merged = &analysis.merged;
    let all: Vec<Item> = merged
        .items
        .iter()
        .chain(merged.resolutions.iter().map(|r| &r.item))
        .cloned()
        .collect();
    // The done entries of the sources, not those settling added.
    let signals = &analysis.vault.signals;
    let signals = &signals[..merged.settled.scanned_signals.min(signals.len())];
    Ok(of_parts(
        &analysis.vault,
        all,
        signals,
        merged,
        cfg.dedup_threshold,
        zombie_days,
    ))
}

fn check_days(zombie_days: u32) -> Result<()> {
    if zombie_days > MAX_ZOMBIE_DAYS {
        return Err(crate::error::Error::Config {
            origin: "stats".into(),
            message: format!(
                "zombie_days {zombie_days} is out of range: at most {MAX_ZOMBIE_DAYS} (a hundred years)"
            ),
        });
    }
    Ok(())
}

/// The statistics from every collected item (`all`, in any order), the
/// done entries and the merge of the vault's open items.
fn of_parts(
    vault: &crate::scan::Vault,
    mut all: Vec<Item>,
    signals: &[crate::item::Signal],
    merged: &Merged,
    threshold: f64,
    zombie_days: u32,
) -> Stats {
    // `compare` is a total order (path and line break ties): the order
    // `all` came in does not matter.
    all.sort_by(|a, b| compare(a, b, vault.as_of));
    let tasks = cluster(&all, threshold);
    let mut activity: BTreeMap<Option<String>, Date> = BTreeMap::new();
    let mut note = |p: &Option<String>, d: Option<Date>| {
        if let Some(d) = d {
            let e = activity.entry(p.clone()).or_insert(d);
            *e = (*e).max(d);
        }
    };
    for i in &all {
        note(&i.project_owned(), i.date);
    }
    for s in signals {
        note(&s.project_owned(), s.date);
    }
    for g in &vault.goals {
        note(&g.project, g.date);
    }
    for s in &vault.skips {
        note(&s.project, s.date);
    }
    let input = Input {
        as_of: vault.as_of,
        zombie_days,
        merged,
        tasks: &tasks,
        all: &all,
        signals,
        known: &vault.projects,
        activity: &activity,
    };
    input.stats()
}

struct Input<'a> {
    as_of: Option<Date>,
    zombie_days: u32,
    merged: &'a Merged,
    tasks: &'a [crate::merge::Cluster],
    all: &'a [Item],
    signals: &'a [crate::item::Signal],
    known: &'a [String],
    activity: &'a BTreeMap<Option<String>, Date>,
}

impl Input<'_> {
    fn stats(&self) -> Stats {
        let open = report_items(self.merged, self.as_of);
        let weeks = self.weeks();
        let mut buckets: Vec<AgeBucket> = BUCKETS
            .iter()
            .map(|&(label, min, max)| AgeBucket {
                label,
                min_days: Some(min),
                max_days: max,
                open: 0,
            })
            .collect();
        let mut undated = 0;
        for item in &open {
            match item.age_days {
                Some(age) => {
                    // Buckets ascend: the first whose top is at least the age
                    // (a future date, age < 0, counts as fresh).
                    let slot = buckets
                        .iter_mut()
                        .find(|b| b.max_days.is_none_or(|m| age <= m));
                    if let Some(b) = slot {
                        b.open += 1;
                    }
                }
                None => undated += 1,
            }
        }
        buckets.push(AgeBucket {
            label: "undated",
            min_days: None,
            max_days: None,
            open: undated,
        });
        let mut zombies: Vec<Zombie> = open
            .iter()
            .zip(&self.merged.clusters)
            .filter(|(i, _)| i.age_days.is_some_and(|a| a > self.zombie_days as i32))
            .map(|(i, c)| {
                let mut days: Vec<Date> = c
                    .members
                    .iter()
                    .filter_map(|&m| self.merged.items[m].date)
                    .collect();
                days.sort();
                days.dedup();
                Zombie {
                    text: i.text.clone(),
                    project: i.project.clone(),
                    age_days: i.age_days.unwrap_or_default(),
                    first_seen: i.first_seen,
                    last_seen: i.last_seen,
                    days_seen: days.len(),
                    path: i.source.path.clone(),
                    line: i.source.line,
                }
            })
            .collect();
        // Oldest first; the merge's rank order breaks ties (stable sort).
        zombies.sort_by_key(|z| std::cmp::Reverse(z.age_days));
        let projects = self.projects(&open, &zombies);
        let stuck = self.stuck(&projects);
        Stats {
            schema: 1,
            as_of: self.as_of,
            zombie_days: self.zombie_days,
            totals: Totals {
                collected: self.all.len(),
                resolved: self.merged.resolved,
                open: self.merged.clusters.len(),
                tasks: self.tasks.len(),
                undated_tasks: self.tasks.iter().filter(|t| t.first_seen.is_none()).count(),
                done_entries: self.signals.len(),
            },
            weeks,
            age_buckets: buckets,
            zombies,
            stuck_projects: stuck,
            projects,
        }
    }

    fn weeks(&self) -> Vec<Week> {
        let created = self.tasks.iter().filter_map(|t| t.first_seen);
        let done: Vec<Date> = self.signals.iter().filter_map(|s| s.date).collect();
        let Some(first) = created.clone().chain(done.iter().copied()).min() else {
            return Vec::new();
        };
        let last = self
            .as_of
            .into_iter()
            .chain(created.clone())
            .chain(done.iter().copied())
            .max()
            .unwrap_or(first);
        let mut weeks: BTreeMap<Date, Week> = BTreeMap::new();
        let mut monday = week_start(first);
        while monday <= last {
            weeks.insert(
                monday,
                Week {
                    week: week_label(monday),
                    start: monday,
                    created: 0,
                    done: 0,
                },
            );
            match monday.checked_add(7.days()) {
                Ok(next) => monday = next,
                Err(_) => break,
            }
        }
        for d in created {
            if let Some(w) = weeks.get_mut(&week_start(d)) {
                w.created += 1;
            }
        }
        for d in done {
            if let Some(w) = weeks.get_mut(&week_start(d)) {
                w.done += 1;
            }
        }
        weeks.into_values().collect()
    }

    fn projects(
        &self,
        open: &[crate::report::ReportItem],
        zombies: &[Zombie],
    ) -> Vec<ProjectStats> {
        let mut by: BTreeMap<(bool, Option<String>), ProjectStats> = BTreeMap::new();
        fn slot<'m>(
            by: &'m mut BTreeMap<(bool, Option<String>), ProjectStats>,
            p: &Option<String>,
        ) -> &'m mut ProjectStats {
            by.entry((p.is_none(), p.clone()))
                .or_insert_with(|| ProjectStats {
                    project: p.clone(),
                    ..ProjectStats::default()
                })
        }
        for k in self.known {
            slot(&mut by, &Some(k.clone()));
        }
        for i in open {
            slot(&mut by, &i.project).open += 1;
        }
        for z in zombies {
            slot(&mut by, &z.project).zombies += 1;
        }
        for t in self.tasks {
            slot(&mut by, &t.project).created += 1;
        }
        for s in self.signals {
            slot(&mut by, &s.project_owned()).done_entries += 1;
        }
        for (p, d) in self.activity {
            slot(&mut by, p).last_activity = Some(*d);
        }
        by.into_values().collect()
    }

    fn stuck(&self, projects: &[ProjectStats]) -> Vec<Stuck> {
        let Some(as_of) = self.as_of else {
            return Vec::new();
        };
        let since = as_of
            .checked_sub(i64::from(self.zombie_days).days())
            .unwrap_or(Date::MIN);
        projects
            .iter()
            .filter_map(|p| {
                let name = p.project.clone()?;
                let recent = p.last_activity.is_some_and(|d| d > since);
                let reason = match (recent, p.open) {
                    (true, 0) => StuckReason::NoOpenItems,
                    (false, n) if n > 0 => StuckReason::NoActivity,
                    _ => return None,
                };
                Some(Stuck {
                    project: name,
                    reason,
                    open: p.open,
                    last_activity: p.last_activity,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_start_on_monday() {
        let d: Date = "2026-05-07".parse().unwrap(); // a Thursday
        assert_eq!(week_start(d), "2026-05-04".parse::<Date>().unwrap());
        assert_eq!(
            week_start("2026-05-04".parse().unwrap()).to_string(),
            "2026-05-04"
        );
        assert_eq!(week_label(week_start(d)), "2026-W19");
        // ISO year differs from the calendar year around New Year.
        let d: Date = "2027-01-01".parse().unwrap();
        assert_eq!(week_label(week_start(d)), "2026-W53");
    }
}
