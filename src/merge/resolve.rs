//! Step 2 of the merge: resolution by done items (docs/FORMAT.md §5).

use super::memo::{PairMemo, Reuse, TextId};
use super::{Key, SimIndex, similar};
use crate::item::{Item, Signal};
use jiff::civil::Date;
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

/// A matching key with its project and private mark.
type TextKey<'a> = (&'a str, Option<&'a str>, Option<u64>);

fn text_key<'a>(norm: &'a str, project: Option<&'a str>, private: Option<u64>) -> TextKey<'a> {
    (norm, project, private)
}

/// A resolved item and the Done entry that closed it.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    pub item: Item,
    /// Index into the signals given to `resolve`; `None` for a forwarded
    /// (`[>]`) item closed by its open twin.
    pub signal: Option<usize>,
    /// Similarity of the item's key and the signal's key.
    pub similarity: f64,
}

/// What the signals matching one (text, project) say: whether an undated
/// signal matched, and the latest date of a dated one.
#[derive(Clone, Copy, Default)]
struct Matches {
    any: bool,
    undated: bool,
    latest: Option<Date>,
}

impl Matches {
    /// The date rule: a dated signal never resolves an item dated after it.
    fn resolves(&self, item_date: Option<Date>) -> bool {
        match item_date {
            None => self.any,
            Some(d) => self.undated || self.latest.is_some_and(|l| d <= l),
        }
    }
}

/// Step 2: drops every item matched by a signal, except that a dated signal
/// never resolves an item dated after it. Signals and queries are first
/// reduced to their distinct (key, project, private mark) triples.
pub fn resolve(items: Vec<Item>, signals: &[Signal], threshold: f64) -> Vec<Item> {
    resolve_traced(items, signals, threshold).0
}

/// [`resolve`], also returning each resolved item with the signal that
/// closed it (the most similar one the date rule allows; the first in
/// signal order among equals), in item order.
pub fn resolve_traced(
    items: Vec<Item>,
    signals: &[Signal],
    threshold: f64,
) -> (Vec<Item>, Vec<Resolution>) {
    resolve_with(items, signals, threshold, None)
}

/// [`resolve_traced`] with a pairwise-answer memo (see [`PairMemo`]): a
/// usable memo answers known texts, and the memo is rebuilt from this run.
/// The result is the same with or without it.
pub fn resolve_with(
    items: Vec<Item>,
    signals: &[Signal],
    threshold: f64,
    mut memo: Option<&mut PairMemo>,
) -> (Vec<Item>, Vec<Resolution>) {
    if signals.is_empty() {
        if let Some(m) = memo {
            m.clear(threshold);
        }
        return (items, Vec::new());
    }
    let mut distinct: HashMap<TextKey<'_>, (Matches, Vec<usize>)> = HashMap::default();
    for (n, s) in signals.iter().enumerate() {
        let (m, list) = distinct
            .entry(text_key(&s.norm, s.project.as_deref(), s.private))
            .or_default();
        list.push(n);
        m.any = true;
        match s.date {
            None => m.undated = true,
            Some(d) => m.latest = Some(m.latest.map_or(d, |l| l.max(d))),
        }
    }
    // Entries with an undated signal first, then newest first: a query whose
    // items are all dated on or after D never needs an entry older than D,
    // so its scan stops at a binary-searched id.
    let (entries, lists): (Vec<(TextKey<'_>, Matches)>, Vec<Vec<usize>>) = {
        let mut all: Vec<(TextKey<'_>, (Matches, Vec<usize>))> = distinct.into_iter().collect();
        // Keys are distinct, so the order is total (an unstable sort is exact).
        all.par_sort_unstable_by(|a, b| {
            (!a.1.0.undated, std::cmp::Reverse(a.1.0.latest), a.0).cmp(&(
                !b.1.0.undated,
                std::cmp::Reverse(b.1.0.latest),
                b.0,
            ))
        });
        all.into_iter().map(|(k, (m, l))| ((k, m), l)).unzip()
    };
    let keys: Vec<Key<'_>> = entries
        .par_iter()
        .map(|((n, _, private), _)| Key::with_private(n, *private))
        .collect();
    // Each distinct (text, project) with the earliest date of its items: no
    // entry older than that can resolve any of them (unless one is undated).
    let mut needs: HashMap<TextKey<'_>, Option<Date>> = HashMap::default();
    for i in &items {
        let tk = text_key(&i.norm, i.project.as_deref(), i.private);
        let e = needs.entry(tk).or_insert(i.date);
        *e = (*e).min(i.date);
    }
    // In any order: each query's answer depends on the query alone.
    let queries: Vec<(TextKey<'_>, Option<Date>)> = needs.into_iter().collect();
    if let Some(m) = memo.as_deref_mut()
        && !m.usable(threshold)
    {
        m.clear(threshold);
    }
    let entry_ids: Vec<TextId> = memo.as_deref().map_or_else(Vec::new, |m| {
        entries
            .iter()
            .map(|((n, p, x), d)| m.id(n, *p, *x, (d.undated, d.latest)))
            .collect()
    });
    let query_ids: Vec<TextId> = memo.as_deref().map_or_else(Vec::new, |m| {
        queries
            .iter()
            .map(|((n, p, x), earliest)| m.id(n, *p, *x, earliest))
            .collect()
    });
    // A memo that answers no text (a first run) needs no index of fresh
    // entries: that would be a second copy of the whole index.
    let reuse = memo
        .as_deref()
        .filter(|m| m.queries() > 0)
        .map(|m| Reuse::new(m, &entry_ids));
    let numbered = || {
        entries
            .iter()
            .zip(&keys)
            .enumerate()
            .map(|(id, (((_, p, _), _), k))| (*p, k, id as u32))
    };
    let index = SimIndex::build(numbered());
    // The entries the memo never compared against: known item texts are
    // compared with these only.
    let fresh = match &reuse {
        Some(r) => SimIndex::build(numbered().filter(|&(_, _, id)| !r.known[id as usize])),
        None => SimIndex::default(),
    };
    // Every matching entry of each distinct item text not older than its
    // earliest item (the others can resolve none of them), most similar first.
    let found: Vec<Vec<(u32, f64)>> = queries
        .par_iter()
        .enumerate()
        .map(|(n, &(tk, earliest))| {
            let (norm, project, private) = tk;
            let q = Key::with_private(norm, private);
            let compatible = |p: Option<&str>| project.is_none() || p.is_none() || p == project;
            let mut found: Vec<(u32, f64)> = Vec::new();
            let mut test = |id: u32| {
                let ((n, p, _), _) = &entries[id as usize];
                if compatible(*p) && similar(&q, &keys[id as usize], threshold) {
                    found.push((id, crate::normalize::similarity(norm, n)));
                }
                true
            };
            let known = reuse.as_ref().and_then(|r| r.matches(&query_ids[n]));
            let (scanned, below) = match known {
                Some(listed) => {
                    listed.for_each(|id| {
                        test(id);
                    });
                    (&fresh, u32::MAX)
                }
                None => {
                    let below = earliest.map_or(u32::MAX, |d| {
                        entries.partition_point(|(_, m)| m.undated || m.latest >= Some(d)) as u32
                    });
                    (&index, below)
                }
            };
            scanned.candidates(project, &q, threshold, |bucket| {
                bucket.scan(&q, threshold, below, &mut test)
            });
            found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            found
        })
        .collect();
    // The indexes and comparison keys are done with: freed before the
    // answers are gathered below (kept, they were the run's peak of memory).
    drop((index, fresh, keys, reuse));
    if let Some(m) = memo {
        let pairs = query_ids
            .iter()
            .zip(&found)
            .map(|(q, f)| (*q, f.iter().map(|&(id, _)| id).collect()));
        m.record(threshold, &entry_ids, pairs);
    }
    let matching: HashMap<TextKey<'_>, &[(u32, f64)]> = queries
        .iter()
        .zip(&found)
        .map(|(q, f)| (q.0, f.as_slice()))
        .collect();
    let closers: Vec<Option<(usize, f64)>> = items
        .iter()
        .map(|item| {
            let tk = text_key(&item.norm, item.project.as_deref(), item.private);
            let found = matching.get(&tk).copied().unwrap_or_default();
            let m = found.iter().fold(Matches::default(), |acc, &(id, _)| {
                let m = &entries[id as usize].1;
                Matches {
                    any: true,
                    undated: acc.undated || m.undated,
                    latest: acc.latest.max(m.latest),
                }
            });
            if !m.resolves(item.date) {
                return None;
            }
            let in_time = |s: usize| match (signals[s].date, item.date) {
                (Some(sd), Some(id)) => id <= sd,
                _ => true,
            };
            found.iter().find_map(|&(id, sim)| {
                lists[id as usize]
                    .iter()
                    .copied()
                    .find(|&s| in_time(s))
                    .map(|s| (s, sim))
            })
        })
        .collect();
    // The open items stay in `items`' own buffer (in order) and the closed
    // ones move to a buffer of their exact size: a second buffer the size of
    // all items would be the run's peak of memory.
    // Not resolved (or, unreachably, resolved with no entry in time): kept
    // open rather than lost.
    let mut open = items;
    let mut is_closed = closers.iter().map(Option::is_some);
    let mut closed = Vec::with_capacity(closers.iter().flatten().count());
    closed.extend(
        open.extract_if(.., |_| is_closed.next() == Some(true))
            .zip(closers.iter().flatten())
            .map(|(item, &(signal, similarity))| Resolution {
                item,
                signal: Some(signal),
                similarity,
            }),
    );
    (open, closed)
}
