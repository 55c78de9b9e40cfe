//! `explain`: for one item, every place it was collected, what merged with
//! it and how similar, what resolved it or why it is open, where it stands
//! (shown, overflow, deferred, blocked), and near misses: texts within 0.10
//! below the threshold, or above it but kept apart by a guard (with the
//! reason). Private contents are never shown.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::guards;
use crate::item::{Item, SourceKind};
use crate::normalize::similarity;
use crate::report::Analysis;
use crate::trail::{ClosedBy, rounded};
use jiff::civil::Date;
use serde::Serialize;
use std::fmt::Write;
use std::sync::Arc;

/// How far below the threshold a text still counts as a near miss.
pub(crate) const NEAR: f64 = 0.10;
/// Near misses listed at most.
const SHOWN: usize = 20;

#[derive(Debug, Serialize)]
pub(crate) struct Explanation {
    pub schema: u32,
    pub query: String,
    /// The open item's ID (null for a resolved item).
    pub id: Option<String>,
    pub text: String,
    pub project: Option<String>,
    /// `shown`, `overflow`, `deferred`, `blocked`, `resolved`, or the
    /// review reason (`possibly-done`, `not-a-task`, …) of an item in review.
    pub state: &'static str,
    /// 1-based place among the priorities when shown.
    pub rank: Option<usize>,
    pub threshold: f64,
    /// Every collected copy, the representative first.
    pub collected: Vec<Copy>,
    pub resolved_by: Option<Resolved>,
    /// The decisions (`keep`, `same`) that touched the open item.
    pub decisions: Vec<String>,
    pub near_misses: Vec<NearMiss>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Copy {
    pub text: String,
    pub kind: SourceKind,
    pub path: Arc<str>,
    pub line: u32,
    pub date: Option<Date>,
    pub similarity: f64,
}

#[derive(Debug, Serialize)]
pub(crate) struct Resolved {
    /// Null for a forwarded item closed by its open twin, or by a decision.
    pub entry: Option<ClosedBy>,
    pub similarity: f64,
    /// The certain rule, when not the matching key (`identifier #12`,
    /// `decision DATE not-task (decisions line N)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Arc<str>>,
}

#[derive(Debug, Serialize)]
pub(crate) struct NearMiss {
    pub text: String,
    /// `open`, `resolved` or `done` (a Done entry).
    pub what: &'static str,
    pub path: Arc<str>,
    pub line: u32,
    pub similarity: f64,
    pub reason: String,
}

/// What is explained: an item's representative, or the done line of an
/// item closed by ticking its only place.
struct Subject<'a> {
    text: &'a str,
    norm: &'a str,
    private: Option<u64>,
    project: &'a Option<Arc<str>>,
}

impl<'a> Subject<'a> {
    fn of(i: &'a Item) -> Self {
        Subject {
            text: &i.text,
            norm: &i.norm,
            private: i.private,
            project: &i.project,
        }
    }
}

/// The item found: representative, members, ID, state, rank, resolution.
type Found<'a> = (
    Subject<'a>,
    Vec<&'a Item>,
    Option<String>,
    &'static str,
    Option<usize>,
    Option<Resolved>,
);

fn copy(i: &Item, rep_key: &str) -> Copy {
    Copy {
        text: i.text.clone(),
        kind: i.kind,
        path: i.loc.path.clone(),
        line: i.loc.line,
        date: i.date,
        similarity: rounded(similarity(rep_key, &i.norm)),
    }
}

/// Explains the item `query` names: an ID, a `path:line` or a text of an
/// open item, else the text of a resolved item.
pub(crate) fn explain(analysis: &Analysis, cfg: &Config, query: &str) -> Result<Explanation> {
    explain_in(analysis, cfg, None, query)
}

/// [`explain`] with the report of `analysis` when the caller has built it
/// already (the view explains several items of one report).
pub(crate) fn explain_in(
    analysis: &Analysis,
    cfg: &Config,
    built: Option<&crate::report::Report>,
    query: &str,
) -> Result<Explanation> {
    let merged = &analysis.merged;
    let t = cfg.dedup_threshold;
    let found: Found<'_> = match crate::find::find_open(merged, query, t) {
        Ok(c) => {
            let fresh;
            let report = match built {
                Some(r) => r,
                None => {
                    fresh = crate::report::build(analysis, cfg);
                    &fresh
                }
            };
            let id = crate::find::ids(merged)[c].clone();
            open_found(merged, report, c, id)
        }
        Err(err @ Error::AmbiguousItem { .. }) => return Err(err),
        Err(err) => {
            // A resolved item: its text matches the query's key exactly or
            // by the matching rule.
            let q = crate::normalize::key(query);
            let r = merged
                .resolutions
                .iter()
                .find(|r| *r.item.norm == *q)
                .or_else(|| {
                    merged.resolutions.iter().find(|r| {
                        crate::merge::matches_by_definition(
                            &q,
                            None,
                            &r.item.norm,
                            r.item.private,
                            t,
                        )
                    })
                });
            let Some(r) = r else {
                // Closed by ticking its only place: its done line is
                // all that is left, and it is its own resolution.
                let s = crate::find::find_done(&analysis.vault.signals, query, t).ok_or(err)?;
                let subject = Subject {
                    text: &s.text,
                    norm: &s.norm,
                    private: s.private,
                    project: &s.project,
                };
                let resolved = Resolved {
                    entry: Some(ClosedBy {
                        text: s.text.clone(),
                        project: s.project.clone(),
                        path: s.loc.path.clone(),
                        line: s.loc.line,
                        date: s.date,
                    }),
                    similarity: 1.0,
                    rule: None,
                };
                return Ok(finish(
                    analysis,
                    cfg,
                    query,
                    (subject, Vec::new(), None, "resolved", None, Some(resolved)),
                ));
            };
            let entry = r
                .signal
                .and_then(|n| analysis.vault.signals.get(n))
                .map(|s| ClosedBy {
                    text: s.text.clone(),
                    project: s.project.clone(),
                    path: s.loc.path.clone(),
                    line: s.loc.line,
                    date: s.date,
                });
            let resolved = Resolved {
                entry,
                similarity: rounded(r.similarity),
                rule: r.rule.clone(),
            };
            (
                Subject::of(&r.item),
                vec![&r.item],
                None,
                "resolved",
                None,
                Some(resolved),
            )
        }
    };
    Ok(finish(analysis, cfg, query, found))
}

/// [`explain_in`] for the open item of cluster `c` of `report`, whose ID
/// (`crate::find::ids`) the caller has: the view explains every priority
/// of one report without computing every ID again for each.
pub(crate) fn explain_open(
    analysis: &Analysis,
    cfg: &Config,
    report: &crate::report::Report,
    c: usize,
    id: &str,
) -> Explanation {
    let found = open_found(&analysis.merged, report, c, id.to_string());
    finish(analysis, cfg, id, found)
}

/// The open item of cluster `c`, ID `id`, with its state in `report`.
fn open_found<'a>(
    merged: &'a crate::merge::Merged,
    report: &crate::report::Report,
    c: usize,
    id: String,
) -> Found<'a> {
    let pos = |list: &[crate::report::ReportItem]| list.iter().position(|i| i.id == id);
    let (state, rank) = if let Some(n) = pos(&report.priorities) {
        ("shown", Some(n + 1))
    } else if pos(&report.overflow).is_some() {
        ("overflow", None)
    } else if pos(&report.deferred).is_some() {
        ("deferred", None)
    } else if let Some(r) = report.review.iter().find(|r| r.item.id == id) {
        (r.reason.as_str(), None)
    } else {
        ("blocked", None)
    };
    let cl = &merged.clusters[c];
    let members: Vec<&Item> = cl.members.iter().map(|&m| &merged.items[m]).collect();
    (
        Subject::of(members[0]),
        members,
        Some(id),
        state,
        rank,
        None,
    )
}

/// The explanation of what was found: its copies and near misses.
fn finish(analysis: &Analysis, cfg: &Config, query: &str, found: Found<'_>) -> Explanation {
    let merged = &analysis.merged;
    let t = cfg.dedup_threshold;
    let (rep, members, id, state, rank, resolved_by) = found;
    let key = rep.norm;
    let collected: Vec<Copy> = members.iter().map(|i| copy(i, key)).collect();
    let is_member = |i: &Item| members.iter().any(|m| m.loc == i.loc);
    let compatible = |p: &Option<std::sync::Arc<str>>| match (p, rep.project) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    let mut near: Vec<NearMiss> = Vec::new();
    // The edit distance is at least the length difference: a text whose
    // length alone keeps it below the near-miss floor is not compared.
    let key_chars = crate::normalize::compared(key).chars().count();
    let mut consider =
        |text: &str, norm: &str, private: Option<u64>, what, path: &Arc<str>, line| {
            let chars = crate::normalize::compared(norm).chars().count();
            if !crate::normalize::lengths_compatible(key_chars, chars, t - NEAR) {
                return;
            }
            let s = similarity(key, norm);
            if s < t - NEAR {
                return;
            }
            let reason = if s < t {
                format!("similarity {:.3} below the threshold {t}", rounded(s))
            } else if let Some(g) = guards::check(key, norm, rep.private, private) {
                g.to_string()
            } else {
                return;
            };
            near.push(NearMiss {
                text: text.to_string(),
                what,
                path: path.clone(),
                line,
                similarity: rounded(s),
                reason,
            });
        };
    for i in merged
        .items
        .iter()
        .filter(|i| !is_member(i) && compatible(&i.project))
    {
        consider(&i.text, &i.norm, i.private, "open", &i.loc.path, i.loc.line);
    }
    for r in &merged.resolutions {
        let i = &r.item;
        if !is_member(i) && compatible(&i.project) {
            consider(
                &i.text,
                &i.norm,
                i.private,
                "resolved",
                &i.loc.path,
                i.loc.line,
            );
        }
    }
    for s in analysis
        .vault
        .signals
        .iter()
        .filter(|s| compatible(&s.project))
    {
        consider(&s.text, &s.norm, s.private, "done", &s.loc.path, s.loc.line);
    }
    near.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then_with(|| (&a.path, a.line).cmp(&(&b.path, b.line)))
    });
    near.truncate(SHOWN);
    Explanation {
        schema: 1,
        query: query.to_string(),
        id,
        text: rep.text.to_string(),
        project: rep.project.as_deref().map(str::to_string),
        state,
        rank,
        threshold: t,
        collected,
        decisions: members
            .first()
            .map(|m| {
                merged
                    .settled
                    .notes
                    .iter()
                    .filter(|(loc, _)| *loc == m.loc)
                    .map(|(_, note)| note.clone())
                    .collect()
            })
            .unwrap_or_default(),
        resolved_by,
        near_misses: near,
    }
}

/// The text form of an explanation.
pub(crate) fn text(e: &Explanation) -> String {
    let mut o = String::new();
    let project = e.project.as_deref().unwrap_or("untagged");
    let _ = writeln!(
        o,
        "{} [{project}] {}",
        e.id.as_deref().unwrap_or("(resolved)"),
        e.text
    );
    let state = match (e.state, e.rank) {
        ("shown", Some(n)) => format!("shown, #{n} of the priorities"),
        ("overflow", _) => "open, in the overflow (beyond the cap)".to_string(),
        ("deferred", _) => "open, deferred (a start or scheduled date after as_of)".to_string(),
        ("blocked", _) => "open, blocked (waits for another open item)".to_string(),
        (
            reason @ ("possibly-done" | "not-a-task" | "possible-duplicate" | "superseded"
            | "unreviewed-capture" | "stale"),
            _,
        ) => format!("open, in review ({reason})"),
        (s, _) => s.to_string(),
    };
    let _ = writeln!(o, "state: {state}");
    let _ = writeln!(o, "collected {}×:", e.collected.len());
    for (n, c) in e.collected.iter().enumerate() {
        let date = c.date.map_or(String::new(), |d| format!(", {d}"));
        let what = if n == 0 {
            "representative".to_string()
        } else {
            format!("merged, similarity {:.3}", c.similarity)
        };
        let _ = writeln!(
            o,
            "  {}:{} ({}{date}) {what}: {}",
            c.path,
            c.line,
            c.kind.as_str(),
            c.text
        );
    }
    match &e.resolved_by {
        Some(Resolved {
            entry: Some(c),
            rule: Some(rule),
            ..
        }) => {
            let _ = writeln!(o, "resolved by {rule}: {} ({}:{})", c.text, c.path, c.line);
        }
        Some(Resolved {
            entry: None,
            rule: Some(rule),
            ..
        }) => {
            let _ = writeln!(o, "resolved by {rule}");
        }
        Some(Resolved {
            entry: Some(c),
            similarity,
            ..
        }) => {
            let _ = writeln!(
                o,
                "resolved by: {} ({}:{}), similarity {similarity:.3}",
                c.text, c.path, c.line
            );
        }
        Some(Resolved { entry: None, .. }) => {
            let _ = writeln!(o, "resolved by: its open twin (a forwarded [>] copy)");
        }
        None => {
            let _ = writeln!(
                o,
                "open: no Done entry matches it (threshold {}, after the guards)",
                e.threshold
            );
        }
    }
    for d in &e.decisions {
        let _ = writeln!(o, "decision: {d}");
    }
    if e.near_misses.is_empty() {
        let _ = writeln!(o, "near misses: none");
    } else {
        let _ = writeln!(o, "near misses:");
        for n in &e.near_misses {
            let _ = writeln!(
                o,
                "  {:.3} {} {}:{} {} — {}",
                n.similarity, n.what, n.path, n.line, n.text, n.reason
            );
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use crate::normalize::{compared, lengths_compatible, similarity};

    proptest::proptest! {
        /// The near-miss scan skips a text on lengths alone: only a pair
        /// whose similarity is below the floor is ever skipped, so the near
        /// misses are the same as when every text is compared.
        #[test]
        fn a_pair_skipped_on_lengths_is_below_the_floor(
            a in "[a-c 가é]{0,300}",
            b in "[a-c 가é]{0,300}",
            floor in 0.0f64..1.0,
        ) {
            let (la, lb) = (compared(&a).chars().count(), compared(&b).chars().count());
            if !lengths_compatible(la, lb, floor) {
                proptest::prop_assert!(similarity(&a, &b) < floor);
            }
        }
    }
}
