//! The history of one item, from the sources alone: every day and file it
//! was written in (open or resolved), the done entries that match it, what
//! merged with it, and whether it is resolved.
//!
//! The item is named as for `done` (`find`): an open item by place or text;
//! a text no open item matches is looked up among resolved items too.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::item::{Item, Signal, SourceKind};
use crate::merge::{Key, Merged, merge, resolve, similar};
use jiff::civil::Date;
use serde::Serialize;
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct History {
    pub schema: u32,
    pub query: String,
    pub text: String,
    pub project: Option<String>,
    /// `open` when the item is still open somewhere, else `resolved`.
    pub status: &'static str,
    /// Distinct days it was written on, oldest first.
    pub days: Vec<Date>,
    /// Every place it was collected, by date (undated last), then path and line.
    pub appearances: Vec<Appearance>,
    /// The open places that merged into one dashboard item, representative first.
    pub merged: Vec<Place>,
    /// Done entries matching it; `resolves` when one closes at least one appearance.
    pub done_entries: Vec<DoneEntry>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Appearance {
    pub date: Option<Date>,
    pub path: Arc<str>,
    pub line: u32,
    pub kind: SourceKind,
    pub text: String,
    pub project: Option<String>,
    /// `open` or `resolved`.
    pub state: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct Place {
    pub path: Arc<str>,
    pub line: u32,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct DoneEntry {
    pub date: Option<Date>,
    pub path: Arc<str>,
    pub line: u32,
    pub project: Option<String>,
}

fn compatible(a: &Option<String>, b: &Option<std::sync::Arc<str>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x.as_str() == &**y,
        _ => true,
    }
}

/// Computes the history of the item `query` names in the vault at `root`.
pub(crate) fn history(root: &std::path::Path, cfg: &Config, query: &str) -> Result<History> {
    let vault = crate::scan::scan_vault(root, cfg)?;
    let merged = merge(
        vault.items.clone(),
        &vault.signals,
        vault.as_of,
        cfg.dedup_threshold,
    );
    let (norm, project) = match crate::find::find_open(&merged, query, cfg.dedup_threshold) {
        Ok(c) => {
            let cl = &merged.clusters[c];
            (
                merged.items[cl.members[0]].norm.to_string(),
                cl.project.clone(),
            )
        }
        Err(err @ Error::NoSuchItem { .. }) => {
            let resolved = if crate::find::is_reference(query) {
                Err(err)
            } else {
                resolved_match(&vault.items, query, cfg.dedup_threshold)
            };
            match resolved {
                Ok(found) => found,
                // Closed by ticking its only place: only its done line is left.
                Err(err @ Error::NoSuchItem { .. }) => {
                    let s = crate::find::find_done(&vault.signals, query, cfg.dedup_threshold)
                        .ok_or(err)?;
                    (s.norm.to_string(), s.project_owned())
                }
                Err(e) => return Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    Ok(build(
        query,
        &norm,
        &project,
        &vault.items,
        &vault.signals,
        &merged,
        cfg.dedup_threshold,
    ))
}

/// The (key, project) of the one collected item a text names when no open
/// item does.
fn resolved_match(items: &[Item], query: &str, threshold: f64) -> Result<(String, Option<String>)> {
    let (tag, text) = crate::parse::split_tag(query.trim());
    let norm = crate::normalize::key(text);
    let key = Key::with_private(&norm, crate::guards::private_mark(text));
    let mut hits: Vec<&Item> = items
        .iter()
        .filter(|i| {
            compatible(&tag, &i.project)
                && similar(&key, &Key::with_private(&i.norm, i.private), threshold)
        })
        .collect();
    hits.sort_by(|a, b| (&a.norm, &a.project).cmp(&(&b.norm, &b.project)));
    hits.dedup_by(|a, b| a.norm == b.norm && a.project == b.project);
    match hits.as_slice() {
        [] => Err(Error::NoSuchItem {
            query: query.to_string(),
            why: "no item, open or resolved, has that text",
        }),
        [one] => Ok((one.norm.to_string(), one.project_owned().or(tag))),
        _ if hits.iter().any(|i| *i.norm == *norm) => Ok((norm, tag)),
        many => Err(Error::AmbiguousItem {
            query: query.to_string(),
            count: many.len(),
            candidates: many
                .iter()
                .take(10)
                .map(|i| format!("{} ({}:{})", i.text, i.loc.path, i.loc.line))
                .collect(),
        }),
    }
}

fn build(
    query: &str,
    norm: &str,
    project: &Option<String>,
    items: &[Item],
    signals: &[Signal],
    merged: &Merged,
    threshold: f64,
) -> History {
    let key = Key::new(norm);
    let matching: Vec<Item> = items
        .iter()
        .filter(|i| {
            compatible(project, &i.project)
                && similar(&key, &Key::with_private(&i.norm, i.private), threshold)
        })
        .cloned()
        .collect();
    let dones: Vec<Signal> = signals
        .iter()
        .filter(|s| {
            compatible(project, &s.project)
                && similar(&key, &Key::with_private(&s.norm, s.private), threshold)
        })
        .cloned()
        .collect();
    // The merge's own resolution rule, applied to this item's appearances.
    let still_open = resolve(matching.clone(), &dones, threshold);
    let is_open = |i: &Item| still_open.iter().any(|o| o.loc == i.loc);
    let mut appearances: Vec<Appearance> = matching
        .iter()
        .map(|i| Appearance {
            date: i.date,
            path: i.loc.path.clone(),
            line: i.loc.line,
            kind: i.kind,
            text: i.text.clone(),
            project: i.project_owned(),
            state: if is_open(i) { "open" } else { "resolved" },
        })
        .collect();
    appearances.sort_by(|a, b| {
        (a.date.is_none(), a.date, &a.path, a.line).cmp(&(
            b.date.is_none(),
            b.date,
            &b.path,
            b.line,
        ))
    });
    let mut days: Vec<Date> = matching.iter().filter_map(|i| i.date).collect();
    days.sort();
    days.dedup();
    let cluster = merged.clusters.iter().find(|c| {
        c.members
            .iter()
            .any(|&m| matching.iter().any(|i| i.loc == merged.items[m].loc))
    });
    let merged_places = cluster.map_or_else(Vec::new, |c| {
        c.members
            .iter()
            .map(|&m| Place {
                path: merged.items[m].loc.path.clone(),
                line: merged.items[m].loc.line,
            })
            .collect()
    });
    let text = cluster
        .map(|c| merged.items[c.members[0]].text.clone())
        .or_else(|| matching.first().map(|i| i.text.clone()))
        .or_else(|| dones.first().map(|s| s.text.clone()))
        .unwrap_or_default();
    let mut done_entries: Vec<DoneEntry> = dones
        .iter()
        .map(|s| DoneEntry {
            date: s.date,
            path: s.loc.path.clone(),
            line: s.loc.line,
            project: s.project_owned(),
        })
        .collect();
    done_entries.sort_by(|a, b| {
        (a.date.is_none(), a.date, &a.path, a.line).cmp(&(
            b.date.is_none(),
            b.date,
            &b.path,
            b.line,
        ))
    });
    History {
        schema: 1,
        query: query.to_string(),
        text,
        project: project.clone(),
        status: if still_open.is_empty() {
            "resolved"
        } else {
            "open"
        },
        days,
        appearances,
        merged: merged_places,
        done_entries,
    }
}

/// The text form.
pub(crate) fn text(h: &History) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "[{}] {} ({}; written on {} day{})",
        h.project.as_deref().unwrap_or("untagged"),
        crate::output::escape_controls(&h.text),
        h.status,
        h.days.len(),
        if h.days.len() == 1 { "" } else { "s" }
    );
    for a in &h.appearances {
        let date = a
            .date
            .map_or_else(|| "undated   ".to_string(), |d| d.to_string());
        let _ = writeln!(
            o,
            "  {date}  {:<8}  {}:{} ({})",
            a.state,
            a.path,
            a.line,
            a.kind.as_str()
        );
    }
    if h.merged.len() > 1 {
        let places: Vec<String> = h
            .merged
            .iter()
            .map(|p| format!("{}:{}", p.path, p.line))
            .collect();
        let _ = writeln!(o, "merged into one item: {}", places.join(", "));
    }
    if h.done_entries.is_empty() {
        let _ = writeln!(o, "no done entry matches it");
    } else {
        for d in &h.done_entries {
            let date = d
                .date
                .map_or_else(|| "undated".to_string(), |d| d.to_string());
            let _ = writeln!(o, "  done entry {date}  {}:{}", d.path, d.line);
        }
    }
    o
}
