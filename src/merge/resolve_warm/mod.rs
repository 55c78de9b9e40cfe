//! Resolution's answers from a usable pairwise memo when few texts are new
//! (see [`super::PairMemo`]): no key and no index is built for a text the
//! memo knows. A known item text keeps the entries the memo lists for it
//! and gains the new entries that match it; a new item text is compared with
//! every entry its dates allow. Candidates are found from the bounds the
//! memo keeps for every text (token class, length, bigram mask), and keys
//! are built only for the few pairs that pass them. A remembered match is
//! re-checked without keys: its similarity is computed anyway (for the
//! ranking of closers), and the match rule is that similarity at least the
//! threshold and no guard (`similar` agrees, property-tested), so no memo
//! can make two texts match. The answers are those of the full comparison
//! (property-tested through `merge_with`).

use super::cluster_memo::Bounds;
use super::index::window;
use super::memo::Reuse;
use super::resolve::TextKey;
use super::{Key, similar};
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

/// Most new item texts, and most new entry texts, answered this way; with
/// more, the full comparison (one similarity index) is cheaper.
const MOST_NEW: usize = 256;

/// Whether a run with `new_entries` entry texts and `new_queries` item
/// texts the memo does not know is answered here.
pub(super) fn worth_it(new_entries: usize, new_queries: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = tests::FORCE.with(std::cell::Cell::get) {
        return forced;
    }
    new_entries <= MOST_NEW && new_queries <= MOST_NEW
}

/// What [`answer`] found: for each query, every matching entry with its
/// similarity, most similar first; the bounds of every entry and query.
pub(super) struct Answers {
    pub(super) found: Vec<Vec<(u32, f64)>>,
    pub(super) entry_bounds: Vec<Bounds>,
    pub(super) query_bounds: Vec<Bounds>,
}

/// Texts of one token class, by length then number.
type ByClass = HashMap<u64, Vec<(u32, u32)>>;

fn by_class(bounds: impl Iterator<Item = (usize, Bounds)>) -> ByClass {
    let mut map: ByClass = HashMap::default();
    for (n, b) in bounds {
        map.entry(b.class).or_default().push((b.len, n as u32));
    }
    for list in map.values_mut() {
        list.sort_unstable();
    }
    map
}

/// The numbers of the texts in `map` of `class` whose length is in `lo..=hi`.
fn in_window(map: &ByClass, class: u64, lo: usize, hi: usize) -> impl Iterator<Item = u32> + '_ {
    let list = map.get(&class).map_or(&[][..], Vec::as_slice);
    let from = list.partition_point(|e| (e.0 as usize) < lo);
    let to = list.partition_point(|e| (e.0 as usize) <= hi);
    list[from..to].iter().map(|e| e.1)
}

/// Whether an item of project `item` may be closed by an entry of `entry`.
fn compatible(item: Option<&str>, entry: Option<&str>) -> bool {
    item.is_none() || entry.is_none() || item == entry
}

/// Keys built on first use, for the few texts a warm run compares: a
/// table of chunks allocated when first touched, so a run that builds a
/// handful of keys does not allocate (and fault in) a slot for every text.
struct LazyKeys<'a, 't> {
    texts: &'t [TextKey<'a>],
    chunks: Vec<OnceLock<Box<[OnceLock<Key<'a>>]>>>,
}

/// Texts per chunk of [`LazyKeys`].
const CHUNK: usize = 256;

impl<'a, 't> LazyKeys<'a, 't> {
    fn new(texts: &'t [TextKey<'a>]) -> Self {
        LazyKeys {
            texts,
            chunks: (0..texts.len().div_ceil(CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    /// The key of text `n`, built on first use.
    fn get(&self, n: usize) -> &Key<'a> {
        let chunk =
            self.chunks[n / CHUNK].get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        chunk[n % CHUNK].get_or_init(|| {
            let (norm, _, private) = self.texts[n];
            Key::with_private(norm, private)
        })
    }
}

/// Every matching entry of each query: `at[n]` is query `n`'s place in the
/// memo when the memo knows it, and `below(n)` the first entry number too
/// old for it when the memo does not.
pub(super) fn answer(
    entries: &[TextKey<'_>],
    queries: &[TextKey<'_>],
    at: &[Option<usize>],
    below: impl Fn(usize) -> u32 + Sync,
    reuse: &Reuse<'_>,
    threshold: f64,
) -> Answers {
    let entry_keys = LazyKeys::new(entries);
    let query_keys = LazyKeys::new(queries);
    let entry_bounds: Vec<Bounds> = (0..entries.len())
        .into_par_iter()
        .map(|id| {
            reuse
                .entry_bounds(id)
                .unwrap_or_else(|| Bounds::of(entry_keys.get(id)))
        })
        .collect();
    let query_bounds: Vec<Bounds> = (0..queries.len())
        .into_par_iter()
        .map(|n| match at[n] {
            Some(p) => reuse.query_bounds(p),
            None => Bounds::of(query_keys.get(n)),
        })
        .collect();
    // Whether query `n` matches entry `id` (both bounds checked first).
    let matches = |n: usize, id: usize| {
        let (q, e) = (&query_bounds[n], &entry_bounds[id]);
        let (lo, hi) = window(q.len as usize, threshold);
        compatible(queries[n].1, entries[id].1)
            && q.class == e.class
            && (lo..=hi).contains(&(e.len as usize))
            && q.bigrams_close(e, threshold)
            && similar(query_keys.get(n), entry_keys.get(id), threshold)
    };
    // New entries against the known queries, from the entries' side (a
    // window one wider each way: the exact window is checked in `matches`).
    let known = by_class((0..queries.len()).filter_map(|n| at[n].map(|_| (n, query_bounds[n]))));
    let mut gained: Vec<(u32, u32)> = (0..entries.len())
        .into_par_iter()
        .filter(|&id| !reuse.known[id])
        .flat_map_iter(|id| {
            let e = &entry_bounds[id];
            let (lo, hi) = window(e.len as usize, threshold);
            in_window(&known, e.class, lo.saturating_sub(1), hi + 1)
                .filter(|&n| matches(n as usize, id))
                .map(|n| (n, id as u32))
                .collect::<Vec<_>>()
        })
        .collect();
    // By query, in entry order: each query's gained entries are one run.
    gained.sort_unstable();
    // New queries against every entry their dates allow.
    let all = if at.iter().any(Option::is_none) {
        by_class(entry_bounds.iter().copied().enumerate())
    } else {
        ByClass::default()
    };
    // Each query's answer: the remembered matches, re-checked (see the
    // module docs), then the gained ones, or for a new query every entry
    // that matches; most similar first.
    let found = (0..queries.len())
        .into_par_iter()
        .map(|n| {
            let q = &queries[n];
            let from = gained.partition_point(|&(m, _)| (m as usize) < n);
            let to = gained.partition_point(|&(m, _)| (m as usize) <= n);
            let score = |id: u32| {
                let e = &entries[id as usize];
                (id, crate::normalize::similarity(q.0, e.0))
            };
            let mut scored: Vec<(u32, f64)> = match at[n] {
                Some(p) => reuse
                    .listed(p)
                    .map(score)
                    .filter(|&(id, sim)| {
                        let e = &entries[id as usize];
                        compatible(q.1, e.1)
                            && sim >= threshold
                            && crate::guards::check(q.0, e.0, q.2, e.2).is_none()
                    })
                    .chain(gained[from..to].iter().map(|&(_, id)| score(id)))
                    .collect(),
                None => {
                    let qb = &query_bounds[n];
                    let (lo, hi) = window(qb.len as usize, threshold);
                    let end = below(n);
                    in_window(&all, qb.class, lo, hi)
                        .filter(|&id| id < end && matches(n, id as usize))
                        .map(score)
                        .collect()
                }
            };
            scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            scored
        })
        .collect();
    Answers {
        found,
        entry_bounds,
        query_bounds,
    }
}

#[cfg(test)]
mod tests;
