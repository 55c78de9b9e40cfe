//! The trail of a merge: which Done entry closed each resolved item, and how
//! similar every member of a cluster is to its representative (the JSON
//! report's `resolutions` and `seen_in[].similarity`, `audit -v`, `explain`).

use crate::item::{Signal, SourceKind};
use crate::merge::Merged;
use jiff::civil::Date;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;

/// One member of a cluster: where it was collected and its similarity to
/// the representative (1 for the representative itself).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Member {
    pub path: Arc<str>,
    pub line: u32,
    pub similarity: f64,
}

/// A resolved item and what closed it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ResolutionOut {
    pub text: String,
    pub project: Option<Arc<str>>,
    pub kind: SourceKind,
    pub path: Arc<str>,
    pub line: u32,
    pub date: Option<Date>,
    /// The Done entry (or skip record) that closed it; null for a forwarded
    /// (`[>]`) item closed by its open twin.
    pub closed_by: Option<ClosedBy>,
    /// Similarity of the two matching keys.
    pub similarity: f64,
    /// The certain rule that closed it when not the matching key
    /// (`identifier #12`, `decision DATE not-task …`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Arc<str>>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClosedBy {
    pub text: String,
    pub project: Option<Arc<str>>,
    pub path: Arc<str>,
    pub line: u32,
    pub date: Option<Date>,
}

/// A similarity rounded to three decimals for output.
pub(crate) fn rounded(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

/// The members of cluster `c` of `merged`, representative first.
pub(crate) fn members(merged: &Merged, c: usize) -> Vec<Member> {
    let cluster = &merged.clusters[c];
    let rep = &merged.items[cluster.members[0]];
    cluster
        .members
        .iter()
        .map(|&m| {
            let i = &merged.items[m];
            Member {
                path: i.loc.path.clone(),
                line: i.loc.line,
                similarity: rounded(crate::normalize::similarity(&rep.norm, &i.norm)),
            }
        })
        .collect()
}

/// Every resolution of `merged`, by the resolved item's path and line.
pub(crate) fn resolutions(merged: &Merged, signals: &[Signal]) -> Vec<ResolutionOut> {
    // 25,910 of them on the L benchmark vault: built on both cores, in order.
    merged
        .resolutions
        .par_iter()
        .map(|r| ResolutionOut {
            text: r.item.text.clone(),
            project: r.item.project.clone(),
            kind: r.item.kind,
            path: r.item.loc.path.clone(),
            line: r.item.loc.line,
            date: r.item.date,
            closed_by: r.signal.and_then(|n| signals.get(n)).map(|s| ClosedBy {
                text: s.text.clone(),
                project: s.project.clone(),
                path: s.loc.path.clone(),
                line: s.loc.line,
                date: s.date,
            }),
            similarity: rounded(r.similarity),
            rule: r.rule.clone(),
        })
        .collect()
}
