//! `search`: ranked full-text search over the vault's memory (docs/FORMAT.md
//! §7.1): every open item, every resolved or cancelled item with what closed
//! it, and every Done and Skipped entry that closed nothing.
//!
//! A search builds a [`Corpus`] of documents from a merge, one function per
//! source ([`add_open`], [`add_closed`]); a document is the texts it is
//! found by and the [`Hit`] it shows. A new source (the review queue,
//! decisions) is one more `add_…` function called from [`corpus`], with its
//! own `kind`. Documents are scored with BM25 ([`bm25`]) over the terms of
//! [`terms`]; filters apply after scoring, so a filter never changes a
//! score.
//!
//! Texts are the redacted ones the scan keeps: no byte of a private span is
//! in them, so none can be found or shown.

mod bm25;
pub(crate) mod index;
mod terms;

use crate::error::{Error, Result};
use crate::item::{Item, Signal, SkipRecord, SourceKind};
use crate::merge::Merged;
use jiff::civil::Date;
use rayon::prelude::*;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use std::sync::Arc;

/// Hits listed when no limit is given.
pub const DEFAULT_LIMIT: usize = 10;
/// How much a hit dated on the as-of day gains over an undated one at the
/// same BM25 score; the gain halves every [`HALF_LIFE_DAYS`].
const RECENCY_GAIN: f64 = 0.1;
const HALF_LIFE_DAYS: f64 = 365.0;

/// `--status`: which hits to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum StatusFilter {
    Open,
    Resolved,
    Cancelled,
    #[default]
    All,
}

/// What to look for and which hits to keep.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub query: String,
    /// A project slug (compared case-insensitively).
    pub project: Option<String>,
    pub status: StatusFilter,
    /// Keep hits whose latest date is on or after this day.
    pub since: Option<Date>,
    /// Hits listed at most (0: all).
    pub limit: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Results {
    pub schema: u32,
    pub query: String,
    pub as_of: Option<Date>,
    /// Hits that matched and passed the filters (before the limit).
    pub matched: usize,
    pub hits: Vec<Hit>,
}

/// One result: an item (open, resolved or cancelled) or an entry.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Hit {
    pub rank: usize,
    /// BM25 with the recency gain, rounded to 3 decimals.
    pub score: f64,
    /// The open item's ID (null otherwise).
    pub id: Option<String>,
    /// `open`, `resolved` or `cancelled`.
    pub status: &'static str,
    /// `item`, `done` (a Done entry that closed no item) or `skipped` (a
    /// Skipped entry that closed no item).
    pub kind: &'static str,
    /// The source kind of an item (null for an entry).
    pub source: Option<SourceKind>,
    pub text: String,
    pub project: Option<Arc<str>>,
    pub path: Arc<str>,
    pub line: u32,
    pub first_seen: Option<Date>,
    pub last_seen: Option<Date>,
    /// The Done or Skipped entry that closed the item.
    pub resolved_by: Option<Entry>,
    /// Every place the item was collected, by date (undated last), path, line.
    pub places: Vec<Place>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Entry {
    /// `done` or `skipped`.
    pub kind: &'static str,
    pub text: String,
    pub project: Option<Arc<str>>,
    pub path: Arc<str>,
    pub line: u32,
    pub date: Option<Date>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Place {
    pub path: Arc<str>,
    pub line: u32,
    pub date: Option<Date>,
}

/// One searchable document: the texts (each with its matching key) it is
/// found by, and what it shows.
pub(crate) struct Doc<'a> {
    pub texts: Vec<(&'a str, Cow<'a, str>)>,
    pub hit: Hit,
}

impl Doc<'_> {
    /// The latest date the document knows: its last appearance or the day
    /// it was closed.
    fn latest(&self) -> Option<Date> {
        let closed = self.hit.resolved_by.as_ref().and_then(|e| e.date);
        self.hit.last_seen.max(closed)
    }
}

/// The documents of one search, or of the index being made.
#[derive(Default)]
pub(crate) struct Corpus<'a> {
    pub docs: Vec<Doc<'a>>,
    /// When set, each document goes to the index instead of `docs`.
    index: Option<index::Builder>,
}

impl<'a> Corpus<'a> {
    /// Adds a document; `texts` repeating a text are kept once.
    pub(crate) fn push(&mut self, mut doc: Doc<'a>) {
        let mut seen = HashSet::new();
        doc.texts.retain(|(t, _)| seen.insert(*t));
        match &mut self.index {
            Some(b) => b.add(&doc),
            None => self.docs.push(doc),
        }
    }
}

fn place(i: &Item) -> Place {
    Place {
        path: i.loc.path.clone(),
        line: i.loc.line,
        date: i.date,
    }
}

/// Dated places first (oldest first), then undated, each by path and line.
fn sort_places(places: &mut [Place]) {
    places.sort_by(|a, b| {
        (a.date.is_none(), a.date, &a.path, a.line).cmp(&(
            b.date.is_none(),
            b.date,
            &b.path,
            b.line,
        ))
    });
}

fn entry_of(s: &Signal, skipped: bool) -> Entry {
    Entry {
        kind: if skipped { "skipped" } else { "done" },
        text: s.text.clone(),
        project: s.project.clone(),
        path: s.loc.path.clone(),
        line: s.loc.line,
        date: s.date,
    }
}

/// Source: every open cluster, found by the texts of all its members.
pub(crate) fn add_open<'a>(corpus: &mut Corpus<'a>, merged: &'a Merged, ids: &[String]) {
    for (c, cl) in merged.clusters.iter().enumerate() {
        let rep = &merged.items[cl.members[0]];
        let members = cl.members.iter().map(|&m| &merged.items[m]);
        let mut places: Vec<Place> = members.clone().map(place).collect();
        sort_places(&mut places);
        corpus.push(Doc {
            texts: members
                .map(|i| (i.text.as_str(), Cow::Borrowed(&*i.norm)))
                .collect(),
            hit: Hit {
                rank: 0,
                score: 0.0,
                id: ids.get(c).cloned(),
                status: "open",
                kind: "item",
                source: Some(rep.kind),
                text: rep.text.clone(),
                project: cl.project.as_deref().map(Arc::from),
                path: rep.loc.path.clone(),
                line: rep.loc.line,
                first_seen: cl.first_seen,
                last_seen: cl.last_seen,
                resolved_by: None,
                places,
            },
        });
    }
}

/// Source: every resolved item, one document per Done or Skipped entry
/// with the items it closed (found by their texts and the entry's); every
/// entry that closed nothing on its own; a forwarded item closed by its
/// open twin on its own.
pub(crate) fn add_closed<'a>(
    corpus: &mut Corpus<'a>,
    merged: &'a Merged,
    signals: &'a [Signal],
    skips: &[SkipRecord],
) {
    let skipped: HashSet<(&str, u32)> = skips.iter().map(|s| (&*s.loc.path, s.loc.line)).collect();
    let is_skip = |s: &Signal| skipped.contains(&(&*s.loc.path, s.loc.line));
    let mut by_signal: BTreeMap<usize, Vec<&'a Item>> = BTreeMap::new();
    for r in &merged.resolutions {
        match r.signal.filter(|&n| n < signals.len()) {
            Some(n) => by_signal.entry(n).or_default().push(&r.item),
            None => corpus.push(closed_doc(&[&r.item], None)),
        }
    }
    for (n, s) in signals.iter().enumerate() {
        let entry = Some((s, is_skip(s)));
        match by_signal.get(&n) {
            Some(items) => corpus.push(closed_doc(items, entry)),
            None => corpus.push(entry_doc(s, is_skip(s))),
        }
    }
}

/// The document of items closed together (by `entry`, with whether it is a
/// skip record), shown by the latest of them.
fn closed_doc<'a>(items: &[&'a Item], entry: Option<(&'a Signal, bool)>) -> Doc<'a> {
    let rep = items
        .iter()
        .copied()
        .max_by(|a, b| {
            (a.date, std::cmp::Reverse(&a.loc)).cmp(&(b.date, std::cmp::Reverse(&b.loc)))
        })
        .unwrap_or(items[0]);
    let mut places: Vec<Place> = items.iter().map(|i| place(i)).collect();
    sort_places(&mut places);
    let mut texts: Vec<(&str, Cow<str>)> = items
        .iter()
        .map(|i| (i.text.as_str(), Cow::Borrowed(&*i.norm)))
        .collect();
    if let Some((s, _)) = entry {
        texts.push((s.text.as_str(), Cow::Borrowed(&*s.norm)));
    }
    let cancelled = entry.is_some_and(|(_, skip)| skip);
    Doc {
        texts,
        hit: Hit {
            rank: 0,
            score: 0.0,
            id: None,
            status: if cancelled { "cancelled" } else { "resolved" },
            kind: "item",
            source: Some(rep.kind),
            text: rep.text.clone(),
            project: rep.project.clone(),
            path: rep.loc.path.clone(),
            line: rep.loc.line,
            first_seen: items.iter().filter_map(|i| i.date).min(),
            last_seen: items.iter().filter_map(|i| i.date).max(),
            resolved_by: entry.map(|(s, skip)| entry_of(s, skip)),
            places,
        },
    }
}

/// The document of a Done or Skipped entry that closed no item.
fn entry_doc(s: &Signal, skipped: bool) -> Doc<'_> {
    Doc {
        texts: vec![(s.text.as_str(), Cow::Borrowed(&*s.norm))],
        hit: Hit {
            rank: 0,
            score: 0.0,
            id: None,
            status: if skipped { "cancelled" } else { "resolved" },
            kind: if skipped { "skipped" } else { "done" },
            source: None,
            text: s.text.clone(),
            project: s.project.clone(),
            path: s.loc.path.clone(),
            line: s.loc.line,
            first_seen: s.date,
            last_seen: s.date,
            resolved_by: None,
            places: vec![Place {
                path: s.loc.path.clone(),
                line: s.loc.line,
                date: s.date,
            }],
        },
    }
}

/// Every document of a merged vault: the sources, in order.
pub(crate) fn corpus<'a>(
    merged: &'a Merged,
    signals: &'a [Signal],
    skips: &[SkipRecord],
) -> Corpus<'a> {
    let mut c = Corpus::default();
    add_all(&mut c, merged, signals, skips);
    c
}

fn add_all<'a>(
    c: &mut Corpus<'a>,
    merged: &'a Merged,
    signals: &'a [Signal],
    skips: &[SkipRecord],
) {
    let ids = crate::find::ids(merged);
    add_open(c, merged, &ids);
    add_closed(c, merged, signals, skips);
}

/// The search index of a merged vault (see [`index`]), made document by
/// document without keeping the documents: the same bytes as
/// an index built from its [`corpus`]. `None` when it does not fit the
/// index's layout.
pub(crate) fn index_of(
    merged: &Merged,
    signals: &[Signal],
    skips: &[SkipRecord],
    as_of: Option<Date>,
) -> Option<Vec<u8>> {
    let mut c = Corpus {
        docs: Vec::new(),
        index: Some(index::Builder::default()),
    };
    add_all(&mut c, merged, signals, skips);
    c.index?.finish(as_of)
}

/// Whether a hit of `status` and `project`, latest dated `latest`, passes
/// the filters (`project` is the `--project` slug, lower-cased).
fn keep(
    status: &str,
    hit_project: Option<&str>,
    latest: Option<Date>,
    o: &Options,
    project: Option<&str>,
) -> bool {
    let status = match o.status {
        StatusFilter::All => true,
        StatusFilter::Open => status == "open",
        StatusFilter::Resolved => status == "resolved",
        StatusFilter::Cancelled => status == "cancelled",
    };
    status
        && project.is_none_or(|p| hit_project == Some(p))
        && o.since.is_none_or(|s| latest.is_some_and(|d| d >= s))
}

/// The recency factor of a document whose latest date is `latest`.
fn recency(latest: Option<Date>, as_of: Date) -> f64 {
    match latest {
        None => 1.0,
        Some(d) => {
            let age = (as_of - d).get_days().max(0) as f64;
            1.0 + RECENCY_GAIN * 0.5f64.powf(age / HALF_LIFE_DAYS)
        }
    }
}

/// The query's terms, refused when it has none.
fn query_of(o: &Options) -> Result<bm25::Query> {
    let query = bm25::Query::new(&o.query);
    if query.is_empty() {
        return Err(Error::MissingArgument {
            needed: "a QUERY with at least one letter or digit",
        });
    }
    Ok(query)
}

/// The `--project` slug, lower-cased; refused when it names neither a
/// known project nor any document's (`on_a_doc` tells).
fn project_of(
    o: &Options,
    projects: &[String],
    on_a_doc: impl FnOnce(&str) -> bool,
) -> Result<Option<String>> {
    let project = o.project.as_deref().map(str::to_ascii_lowercase);
    if let Some(p) = &project
        && !projects.contains(p)
        && !on_a_doc(p)
    {
        return Err(Error::UnknownProject {
            project: p.clone(),
            known: projects.to_vec(),
        });
    }
    Ok(project)
}

/// A hit before ranking: its score (recency included), what orders ties,
/// and the document.
struct Candidate<'p, T> {
    score: f64,
    latest: Option<Date>,
    path: &'p str,
    line: u32,
    doc: T,
}

/// Ranks the candidates (score, then the more recent, then path and line)
/// and keeps `limit` of them: how many there were, and the kept ones.
fn rank<T>(mut found: Vec<Candidate<'_, T>>, limit: usize) -> (usize, Vec<(f64, T)>) {
    found.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| b.latest.cmp(&a.latest))
            .then_with(|| (a.path, a.line).cmp(&(b.path, b.line)))
    });
    let matched = found.len();
    if limit > 0 {
        found.truncate(limit);
    }
    (
        matched,
        found.into_iter().map(|c| (c.score, c.doc)).collect(),
    )
}

/// The results of ranked hits.
fn results(o: &Options, as_of: Option<Date>, matched: usize, hits: Vec<(f64, Hit)>) -> Results {
    let hits = hits
        .into_iter()
        .enumerate()
        .map(|(n, (s, h))| Hit {
            rank: n + 1,
            score: (s * 1000.0).round() / 1000.0,
            ..h
        })
        .collect();
    Results {
        schema: 1,
        query: o.query.clone(),
        as_of,
        matched,
        hits,
    }
}

/// Runs a search over a corpus. `as_of` dates the recency gain; `projects`
/// are the vault's known projects (a `--project` naming none of them and no
/// document's is refused).
pub(crate) fn search(
    corpus: Corpus,
    o: &Options,
    as_of: Option<Date>,
    today: Date,
    projects: &[String],
) -> Result<Results> {
    let query = query_of(o)?;
    let project = project_of(o, projects, |p| {
        corpus
            .docs
            .iter()
            .any(|d| d.hit.project.as_deref() == Some(p))
    })?;
    let counts: Vec<bm25::Counts> = corpus
        .docs
        .par_iter()
        .map(|d| bm25::Counts::of(&query, d.texts.iter().map(|(t, k)| (*t, &**k))))
        .collect();
    let scores = bm25::scores(&query, &counts);
    let day = as_of.unwrap_or(today);
    let found: Vec<Candidate<usize>> = corpus
        .docs
        .iter()
        .enumerate()
        .zip(counts.iter().zip(scores))
        .filter(|((_, d), (c, _))| {
            c.hit()
                && keep(
                    d.hit.status,
                    d.hit.project.as_deref(),
                    d.latest(),
                    o,
                    project.as_deref(),
                )
        })
        .map(|((n, d), (_, s))| {
            let latest = d.latest();
            Candidate {
                score: s * recency(latest, day),
                latest,
                path: &d.hit.path,
                line: d.hit.line,
                doc: n,
            }
        })
        .collect();
    let (matched, kept) = rank(found, o.limit);
    let hits = kept
        .into_iter()
        .map(|(s, n)| (s, corpus.docs[n].hit.clone()))
        .collect();
    Ok(results(o, as_of, matched, hits))
}

/// The hits for people: two lines each.
pub(crate) fn text(r: &Results) -> String {
    let esc = crate::output::escape_controls;
    let mut o = String::new();
    if r.hits.is_empty() {
        let _ = writeln!(o, "no match for {:?}", esc(&r.query));
        return o;
    }
    let _ = writeln!(
        o,
        "{} of {} matches for {:?}",
        r.hits.len(),
        r.matched,
        esc(&r.query)
    );
    for h in &r.hits {
        let id = h.id.as_deref().map(|i| format!(" {i}")).unwrap_or_default();
        let project = h.project.as_deref().unwrap_or("untagged");
        let kind = match h.kind {
            "item" => String::new(),
            k => format!(" ({k} entry)"),
        };
        let _ = writeln!(
            o,
            "{:>2}. [{}]{id} ({project}){kind} {}",
            h.rank,
            h.status,
            esc(&h.text)
        );
        let mut line = format!("    {}:{}", h.path, h.line);
        match (h.first_seen, h.last_seen) {
            (Some(a), Some(b)) if a != b => {
                let _ = write!(line, "  {a} … {b}");
            }
            (Some(a), _) => {
                let _ = write!(line, "  {a}");
            }
            _ => line.push_str("  undated"),
        }
        if h.places.len() > 1 {
            let _ = write!(line, "  {} places", h.places.len());
        }
        if let Some(e) = &h.resolved_by {
            let verb = if e.kind == "skipped" {
                "skipped"
            } else {
                "done"
            };
            let when = e.date.map(|d| format!(" {d}")).unwrap_or_default();
            let _ = write!(
                line,
                "  {verb}{when} by {}:{}: {}",
                e.path,
                e.line,
                esc(&e.text)
            );
        }
        let _ = writeln!(o, "{line}");
    }
    o
}

#[cfg(test)]
mod tests;
