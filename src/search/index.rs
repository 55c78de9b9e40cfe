//! The inverted index of a corpus (docs/FORMAT.md §7.1, §12.1): what a
//! search needs of every document, its terms' postings, and each hit as it
//! is shown, written once by a run that keeps the cache and read by a
//! search that finds the vault unchanged, so that search neither scans,
//! merges nor reads the terms of every text again.
//!
//! A search over the index gives the same answer as one over the corpus it
//! was made from: the same documents in the same order, the same lengths
//! and term frequencies, the same scoring ([`bm25::Stats`]), filters and
//! order ([`super::rank`]). The bytes come from the cache, signed by this
//! user's runs, but are still read defensively: every count, offset and
//! reference is checked, and an index that does not fit is not used (the
//! search then runs over the scanned vault).
//!
//! Layout (postcard): the as-of date, the table of projects and of paths,
//! one [`Meta`] per document, the terms sorted by class and text (each
//! with the end of its postings and its document frequency), the postings
//! (per term, ascending document numbers as LEB128 deltas, each with its
//! term frequency), and the hits ([`StoredHit`], one after another).

#[cfg(test)]
use super::Corpus;
use super::bm25::{self, Counts};
use super::terms::{Class, terms};
use super::{Candidate, Doc, Entry, Hit, Options, Place, Results};
use crate::error::Result;
use crate::item::SourceKind;
use jiff::civil::Date;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize, Serializer};
use std::sync::Arc;

const STATUS: [&str; 3] = ["open", "resolved", "cancelled"];
const KIND: [&str; 3] = ["item", "done", "skipped"];

#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    as_of: Option<Date>,
    #[serde(borrow)]
    projects: Vec<&'a str>,
    #[serde(borrow)]
    paths: Vec<&'a str>,
    docs: Vec<Meta>,
    #[serde(borrow)]
    terms: Vec<Term<'a>>,
    #[serde(borrow, serialize_with = "bytes")]
    postings: &'a [u8],
    #[serde(borrow, serialize_with = "bytes")]
    hits: &'a [u8],
}

fn bytes<S: Serializer>(b: &&[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_bytes(b)
}

/// What ranking and filtering need of one document.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Meta {
    /// Terms in all its texts.
    len: u32,
    /// Index in [`STATUS`].
    status: u8,
    /// 0 for none, else 1 + index in the projects.
    project: u32,
    latest: Option<Date>,
    /// Index in the paths.
    path: u32,
    line: u32,
    /// End of its hit in the hits.
    hit_end: u32,
}

#[derive(Debug, Serialize, Deserialize)]
struct Term<'a> {
    ident: bool,
    text: &'a str,
    /// End of its postings.
    end: u32,
    /// Documents holding it.
    df: u32,
}

/// A hit as it is shown, less what [`Meta`] holds.
#[derive(Serialize, Deserialize)]
struct StoredHit<'a> {
    id: Option<&'a str>,
    /// Index in [`KIND`].
    kind: u8,
    source: Option<SourceKind>,
    text: &'a str,
    first_seen: Option<Date>,
    last_seen: Option<Date>,
    #[serde(borrow)]
    resolved_by: Option<StoredEntry<'a>>,
    /// Path index, line, date.
    places: Vec<(u32, u32, Option<Date>)>,
}

#[derive(Serialize, Deserialize)]
struct StoredEntry<'a> {
    skipped: bool,
    text: &'a str,
    project: u32,
    path: u32,
    line: u32,
    date: Option<Date>,
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut v: u32 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u32::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return (shift < 28 || b < 0x10).then_some(v);
        }
    }
    None
}

/// Distinct strings, numbered in order of first use.
#[derive(Default)]
struct Table {
    names: Vec<Arc<str>>,
    at: FxHashMap<Arc<str>, u32>,
}

impl Table {
    fn id(&mut self, s: &Arc<str>) -> u32 {
        if let Some(&n) = self.at.get(s) {
            return n;
        }
        let n = self.names.len() as u32;
        self.names.push(s.clone());
        self.at.insert(s.clone(), n);
        n
    }

    /// 0 for none, else 1 + the string's number.
    fn opt(&mut self, s: &Option<Arc<str>>) -> u32 {
        s.as_ref().map_or(0, |s| self.id(s) + 1)
    }

    fn names(&self) -> Vec<&str> {
        self.names.iter().map(|n| &**n).collect()
    }
}

fn code(names: &[&str], s: &str) -> Option<u8> {
    names.iter().position(|n| *n == s).map(|p| p as u8)
}

/// The index made document by document ([`Builder::add`]): each
/// document's terms are counted and its hit stored as it comes, so the
/// documents themselves need not all be kept until the index is written.
#[derive(Default)]
pub(crate) struct Builder {
    /// Per word, then per identifier: (document, term frequency), in
    /// document order.
    words: FxHashMap<Box<str>, Vec<(u32, u32)>>,
    idents: FxHashMap<Box<str>, Vec<(u32, u32)>>,
    projects: Table,
    paths: Table,
    hits: Vec<u8>,
    docs: Vec<Meta>,
    /// Set when something did not fit the layout (over 4 Gi of anything).
    failed: bool,
}

impl Builder {
    /// Adds the next document.
    pub(crate) fn add(&mut self, d: &Doc<'_>) {
        if self.failed || self.try_add(d).is_none() {
            self.failed = true;
        }
    }

    fn try_add(&mut self, d: &Doc<'_>) -> Option<()> {
        let n = u32::try_from(self.docs.len()).ok()?;
        let mut len = 0u32;
        let mut tf: FxHashMap<(bool, String), u32> = FxHashMap::default();
        for (text, key) in &d.texts {
            terms(text, key, &mut |class, t| {
                len += 1;
                *tf.entry((class == Class::Ident, t.to_string()))
                    .or_default() += 1;
            });
        }
        for ((ident, t), f) in tf {
            let postings = if ident {
                &mut self.idents
            } else {
                &mut self.words
            };
            match postings.get_mut(t.as_str()) {
                Some(list) => list.push((n, f)),
                None => {
                    postings.insert(t.into_boxed_str(), vec![(n, f)]);
                }
            }
        }
        let h = &d.hit;
        let (projects, paths) = (&mut self.projects, &mut self.paths);
        let stored = StoredHit {
            id: h.id.as_deref(),
            kind: code(&KIND, h.kind)?,
            source: h.source,
            text: &h.text,
            first_seen: h.first_seen,
            last_seen: h.last_seen,
            resolved_by: h.resolved_by.as_ref().map(|e| StoredEntry {
                skipped: e.kind == "skipped",
                text: &e.text,
                project: projects.opt(&e.project),
                path: paths.id(&e.path),
                line: e.line,
                date: e.date,
            }),
            places: h
                .places
                .iter()
                .map(|p| (paths.id(&p.path), p.line, p.date))
                .collect(),
        };
        let project = projects.opt(&h.project);
        self.hits.extend(postcard::to_allocvec(&stored).ok()?);
        self.docs.push(Meta {
            len,
            status: code(&STATUS, h.status)?,
            project,
            latest: d.latest(),
            path: paths.id(&h.path),
            line: h.line,
            hit_end: u32::try_from(self.hits.len()).ok()?,
        });
        Some(())
    }

    /// The index of the documents added (whose hits are dated by `as_of`);
    /// `None` when it does not fit the layout.
    pub(crate) fn finish(self, as_of: Option<Date>) -> Option<Vec<u8>> {
        if self.failed {
            return None;
        }
        // Terms sorted by class (words first), then text.
        fn sorted(m: &FxHashMap<Box<str>, Vec<(u32, u32)>>) -> Vec<&str> {
            let mut keys: Vec<&str> = m.keys().map(|k| &**k).collect();
            keys.sort_unstable();
            keys
        }
        let keys = sorted(&self.words)
            .into_iter()
            .map(|t| (false, t))
            .chain(sorted(&self.idents).into_iter().map(|t| (true, t)));
        let mut blob = Vec::new();
        let mut table = Vec::with_capacity(self.words.len() + self.idents.len());
        for k in keys {
            let list = if k.0 {
                &self.idents[k.1]
            } else {
                &self.words[k.1]
            };
            let mut prev = 0u32;
            for (i, &(doc, f)) in list.iter().enumerate() {
                put_varint(&mut blob, if i == 0 { doc } else { doc - prev });
                put_varint(&mut blob, f);
                prev = doc;
            }
            table.push(Term {
                ident: k.0,
                text: k.1,
                end: u32::try_from(blob.len()).ok()?,
                df: list.len() as u32,
            });
        }
        let stored = Stored {
            as_of,
            projects: self.projects.names(),
            paths: self.paths.names(),
            docs: self.docs,
            terms: table,
            postings: &blob,
            hits: &self.hits,
        };
        postcard::to_allocvec(&stored).ok()
    }
}

/// The index of `corpus` (whose hits are dated by `as_of`); `None` when it
/// does not fit the layout (over 4 Gi of anything).
#[cfg(test)]
pub(crate) fn build(corpus: &Corpus, as_of: Option<Date>) -> Option<Vec<u8>> {
    let mut b = Builder::default();
    for d in &corpus.docs {
        b.add(d);
    }
    b.finish(as_of)
}

/// A decoded index whose tables were checked.
struct Read<'a>(Stored<'a>);

impl<'a> Read<'a> {
    /// The index of `bytes`, when every reference in it holds.
    fn of(bytes: &'a [u8]) -> Option<Read<'a>> {
        let s: Stored = crate::cache::from_bytes(bytes)?;
        let (projects, paths) = (s.projects.len() as u64, s.paths.len() as u64);
        let mut hit_end = 0u64;
        for m in &s.docs {
            let end = u64::from(m.hit_end);
            let fits = usize::from(m.status) < STATUS.len()
                && u64::from(m.project) <= projects
                && u64::from(m.path) < paths
                && end >= hit_end
                && end <= s.hits.len() as u64;
            if !fits {
                return None;
            }
            hit_end = end;
        }
        let mut end = 0u64;
        for (n, t) in s.terms.iter().enumerate() {
            let sorted = n == 0 || (s.terms[n - 1].ident, s.terms[n - 1].text) < (t.ident, t.text);
            let fits = sorted
                && u64::from(t.end) >= end
                && u64::from(t.end) <= s.postings.len() as u64
                && (t.df as usize) <= s.docs.len();
            if !fits {
                return None;
            }
            end = u64::from(t.end);
        }
        Some(Read(s))
    }

    /// The postings of a term: (document, term frequency), checked.
    fn postings(&self, n: usize) -> Option<Vec<(u32, u32)>> {
        let s = &self.0;
        let start = if n == 0 { 0 } else { s.terms[n - 1].end } as usize;
        let bytes = &s.postings[start..s.terms[n].end as usize];
        let mut out = Vec::with_capacity(s.terms[n].df as usize);
        let (mut at, mut doc) = (0usize, 0u32);
        while at < bytes.len() {
            let delta = get_varint(bytes, &mut at)?;
            let tf = get_varint(bytes, &mut at)?;
            doc = if out.is_empty() {
                delta
            } else {
                (delta > 0).then(|| doc.checked_add(delta))??
            };
            if doc as usize >= s.docs.len() || tf == 0 {
                return None;
            }
            out.push((doc, tf));
        }
        (out.len() == s.terms[n].df as usize).then_some(out)
    }

    fn term(&self, class: Class, text: &str) -> Option<usize> {
        let want = (class == Class::Ident, text);
        self.0
            .terms
            .binary_search_by(|t| (t.ident, t.text).cmp(&want))
            .ok()
    }

    fn project(&self, n: u32) -> Option<Option<&'a str>> {
        match n {
            0 => Some(None),
            n => self.0.projects.get(n as usize - 1).map(|p| Some(*p)),
        }
    }

    fn path(&self, n: u32) -> Option<&'a str> {
        self.0.paths.get(n as usize).copied()
    }

    /// The hit of document `n`, as the corpus showed it (rank and score
    /// unset).
    fn hit(&self, n: usize) -> Option<Hit> {
        let s = &self.0;
        let m = &s.docs[n];
        let start = if n == 0 { 0 } else { s.docs[n - 1].hit_end } as usize;
        let h: StoredHit = crate::cache::from_bytes(&s.hits[start..m.hit_end as usize])?;
        let resolved_by = match h.resolved_by {
            None => None,
            Some(e) => Some(Entry {
                kind: if e.skipped { "skipped" } else { "done" },
                text: e.text.to_string(),
                project: self.project(e.project)?.map(Arc::from),
                path: Arc::from(self.path(e.path)?),
                line: e.line,
                date: e.date,
            }),
        };
        let places = h
            .places
            .iter()
            .map(|&(p, line, date)| {
                Some(Place {
                    path: Arc::from(self.path(p)?),
                    line,
                    date,
                })
            })
            .collect::<Option<Vec<Place>>>()?;
        Some(Hit {
            rank: 0,
            score: 0.0,
            id: h.id.map(str::to_string),
            status: STATUS[usize::from(m.status)],
            kind: KIND.get(usize::from(h.kind))?,
            source: h.source,
            text: h.text.to_string(),
            project: self.project(m.project)?.map(Arc::from),
            path: Arc::from(self.path(m.path)?),
            line: m.line,
            first_seen: h.first_seen,
            last_seen: h.last_seen,
            resolved_by,
            places,
        })
    }
}

/// Runs a search over the index `bytes`, as [`super::search`] does over
/// the corpus it was made from; `Ok(None)` when the index does not fit (a
/// reference out of range, an undecodable hit): the caller then searches
/// the scanned vault. Errors (an empty query, an unknown project) are the
/// same as the corpus search's.
pub(crate) fn search(
    bytes: &[u8],
    o: &Options,
    today: Date,
    projects: &[String],
) -> Result<Option<Results>> {
    let query = super::query_of(o)?;
    let Some(index) = Read::of(bytes) else {
        return Ok(None);
    };
    let s = &index.0;
    let project = super::project_of(o, projects, |p| {
        s.docs
            .iter()
            .any(|m| index.project(m.project) == Some(Some(p)))
    })?;
    // Each query term's postings (none when the index lacks the term).
    let mut lists = Vec::new();
    for (class, text) in query.terms() {
        lists.push(match index.term(class, text) {
            Some(n) => match index.postings(n) {
                Some(list) => list,
                None => return Ok(None),
            },
            None => Vec::new(),
        });
    }
    let total = s.docs.iter().map(|m| u64::from(m.len)).sum();
    let stats = bm25::Stats::new(&query, s.docs.len(), total, |t| lists[t].len());
    // The documents holding a query term, with their term frequencies, in
    // document order (the corpus's: ranking keeps it among equals).
    let mut tf: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (t, list) in lists.iter().enumerate() {
        for &(doc, f) in list {
            tf.entry(doc).or_insert_with(|| vec![0; lists.len()])[t] = f;
        }
    }
    let mut tf: Vec<(u32, Vec<u32>)> = tf.into_iter().collect();
    tf.sort_unstable_by_key(|(doc, _)| *doc);
    let day = s.as_of.unwrap_or(today);
    let mut found = Vec::with_capacity(tf.len());
    for (doc, f) in tf {
        let m = &s.docs[doc as usize];
        let Some(hit_project) = index.project(m.project) else {
            return Ok(None);
        };
        let status = STATUS[usize::from(m.status)];
        if !super::keep(status, hit_project, m.latest, o, project.as_deref()) {
            continue;
        }
        let score = stats.score(&query, &Counts::new(m.len, f));
        found.push(Candidate {
            score: score * super::recency(m.latest, day),
            latest: m.latest,
            path: s.paths[m.path as usize],
            line: m.line,
            doc: doc as usize,
        });
    }
    let (matched, kept) = super::rank(found, o.limit);
    let mut hits = Vec::with_capacity(kept.len());
    for (score, doc) in kept {
        match index.hit(doc) {
            Some(h) => hits.push((score, h)),
            None => return Ok(None),
        }
    }
    Ok(Some(super::results(o, s.as_of, matched, hits)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_refuse_overflow() {
        let mut out = Vec::new();
        for v in [0, 1, 127, 128, 16_383, 16_384, u32::MAX] {
            put_varint(&mut out, v);
        }
        let mut at = 0;
        let back: Vec<u32> = (0..7).map(|_| get_varint(&out, &mut at).unwrap()).collect();
        assert_eq!(back, [0, 1, 127, 128, 16_383, 16_384, u32::MAX]);
        assert_eq!(at, out.len());
        // Five bytes whose last holds more than 32 bits, and a cut varint.
        assert_eq!(get_varint(&[0xff, 0xff, 0xff, 0xff, 0x1f], &mut 0), None);
        assert_eq!(get_varint(&[0x80], &mut 0), None);
    }

    #[test]
    fn an_index_that_is_not_one_is_not_read() {
        assert!(Read::of(b"").is_none());
        assert!(Read::of(&[0xff; 64]).is_none());
    }
}
