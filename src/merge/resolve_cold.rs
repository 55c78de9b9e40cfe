//! Resolution's answers by comparing every item text with the Done
//! entries through one similarity index (`FrozenIndex`), for a run with no
//! memo or with more new texts than the warm path answers (see
//! `resolve_warm`); with no memo to fill, a query decided by identical
//! entries is not compared at all.

use super::cluster_memo::Bounds;
use super::memo::Reuse;
use super::resolve::{Matches, TextKey};
use super::similarity::{Shape, similar_to_shape, similar_within_bounds};
use super::{FrozenIndex, Key};
use hashbrown::HashTable;
use jiff::civil::Date;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Every matching entry of each distinct item text not older than its
/// earliest item (the others can resolve none of them; `too_old` gives
/// the first entry number past that), most similar first, by one
/// similarity index of all entries; with the bounds of every entry's and
/// query's key, for the memo. A memo's known item texts are re-checked
/// against their remembered entries and compared with the new ones only.
///
/// `deciding`, when no memo is filled, holds each query's latest item date:
/// a query whose latest item an identical entry text resolves (one in time,
/// compatible project and private mark) is answered by its identical
/// entries alone, and not compared with anything. Those are the first of
/// its matches (similarity 1, by number; a key shorter than the compared
/// prefix is similar 1 to itself only), and the closer of each of its
/// items is among them, so resolution is the same (property-tested against
/// the definition); its bounds are then not needed, and not returned.
pub(super) fn compare_all(
    entries: &[(TextKey<'_>, Matches)],
    queries: &[(TextKey<'_>, Option<Date>)],
    known_at: &[Option<usize>],
    reuse: Option<&Reuse<'_>>,
    threshold: f64,
    too_old: impl Fn(Option<Date>) -> u32 + Sync,
    deciding: Option<&[Option<Date>]>,
) -> Answered {
    // What the indexes and the bounds read of each entry's key (a key
    // itself would hold its texts too: 144 bytes against 80).
    let shapes: Vec<Shape> = entries
        .par_iter()
        .map(|((n, _, private), _)| Shape::of(&Key::with_private(n, *private)))
        .collect();
    let numbered = || {
        entries
            .iter()
            .enumerate()
            .map(|(id, ((_, p, _), _))| (*p, id as u32))
    };
    // The index and, when queries may be answered by twins, each entry
    // text's first number and the next number with the same text
    // (`u32::MAX`: none): independent, so built side by side.
    let (index, chains) = rayon::join(
        || FrozenIndex::build(&shapes, numbered()),
        || match deciding {
            Some(_) => TwinChains::of(entries),
            None => TwinChains::default(),
        },
    );
    // The index's sorting scratch goes back before the answers grow.
    crate::memory::purge();
    let twins = |n: usize| -> Option<Vec<(u32, f64)>> {
        let latest = deciding?[n];
        let ((norm, project, private), earliest) = queries[n];
        if norm.len() >= crate::normalize::COMPARED_CHARS {
            return None;
        }
        let end = too_old(earliest);
        let mut id = chains.first(entries, norm)?;
        let (mut found, mut decides) = (Vec::new(), false);
        while id != u32::MAX && id < end {
            let ((_, p, x), m) = &entries[id as usize];
            let compatible = project.is_none() || p.is_none() || *p == project;
            let same_mark = private.is_none() || x.is_none() || *x == private;
            if compatible && same_mark {
                found.push((id, 1.0));
                decides |= m.undated || latest.is_none() || m.latest >= latest;
            }
            id = chains.next[id as usize];
        }
        decides.then_some(found)
    };
    // The entries the memo never compared against: known item texts are
    // compared with these only.
    let fresh = match reuse {
        Some(r) => FrozenIndex::build(&shapes, numbered().filter(|&(_, id)| !r.known[id as usize])),
        None => FrozenIndex::default(),
    };
    // Bounds fill a memo; a run with twins answered fills none.
    let entry_bounds: Vec<Bounds> = match deciding {
        Some(_) => Vec::new(),
        None => shapes.iter().map(Bounds::of_shape).collect(),
    };
    // Query `n`'s matching entries, most similar first, and (when a memo
    // is filled) the bounds of its key.
    let answer = |n: usize, tk: TextKey<'_>, earliest: Option<Date>| {
        if let Some(found) = twins(n) {
            return (found, None);
        }
        let (norm, project, private) = tk;
        let q = Key::with_private(norm, private);
        let compatible = |p: Option<&str>| project.is_none() || p.is_none() || p == project;
        let mut found: Vec<(u32, f64)> = Vec::new();
        let known = reuse.and_then(|r| known_at[n].map(|p| r.listed(p)));
        let (scanned, below) = match known {
            Some(listed) => {
                for id in listed {
                    let ((n, p, x), _) = &entries[id as usize];
                    if compatible(*p)
                        && similar_to_shape(&q, &shapes[id as usize], n, *x, threshold)
                    {
                        found.push((id, crate::normalize::similarity(norm, n)));
                    }
                }
                (&fresh, u32::MAX)
            }
            None => (&index, too_old(earliest)),
        };
        // A scan's rows are inside the bounds: the rest of the test needs
        // the entry's text only.
        scanned.candidates(project, &q, threshold, |bucket| {
            bucket.scan(&q, threshold, below, |id| {
                let ((n, p, x), _) = &entries[id as usize];
                if compatible(*p) && similar_within_bounds(&q, n, *x, threshold) {
                    found.push((id, crate::normalize::similarity(norm, n)));
                }
                true
            })
        });
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        // Most lists hold one or two entries: no room kept for four.
        found.shrink_to_fit();
        // Bounds only fill a memo: a run answering by twins keeps none.
        (found, deciding.is_none().then(|| Bounds::of(&q)))
    };
    // Bounds are for the memo, which a run with twins answered fills not.
    if deciding.is_some() {
        let found = queries
            .par_iter()
            .enumerate()
            .map(|(n, &(tk, earliest))| answer(n, tk, earliest).0)
            .collect();
        return (found, Vec::new(), Vec::new());
    }
    #[allow(clippy::type_complexity)]
    let (found, query_bounds): (Vec<Vec<(u32, f64)>>, Vec<Option<Bounds>>) = queries
        .par_iter()
        .enumerate()
        .map(|(n, &(tk, earliest))| answer(n, tk, earliest))
        .unzip();
    (
        found,
        entry_bounds,
        query_bounds.into_iter().flatten().collect(),
    )
}

/// For each distinct entry text, its first entry number, and for each
/// entry the next number with the same text (`u32::MAX`: none): the
/// entries of one text in ascending order.
///
/// The table holds entry numbers only (4 bytes a slot, against 24 for a
/// map from the text): a lookup compares the text asked with the entry's.
#[derive(Default)]
struct TwinChains {
    first: HashTable<u32>,
    next: Vec<u32>,
}

impl TwinChains {
    fn of(entries: &[(TextKey<'_>, Matches)]) -> Self {
        let norm = |id: u32| entries[id as usize].0.0;
        let mut first: HashTable<u32> = HashTable::with_capacity(entries.len());
        let mut next = vec![u32::MAX; entries.len()];
        for id in (0..entries.len() as u32).rev() {
            let text = norm(id);
            let hash = FxBuildHasher.hash_one(text);
            match first.find_mut(hash, |&e| norm(e) == text) {
                Some(slot) => next[id as usize] = std::mem::replace(slot, id),
                None => {
                    first.insert_unique(hash, id, |&e| FxBuildHasher.hash_one(norm(e)));
                }
            }
        }
        TwinChains { first, next }
    }

    /// The first entry whose text is `text`.
    fn first(&self, entries: &[(TextKey<'_>, Matches)], text: &str) -> Option<u32> {
        let hash = FxBuildHasher.hash_one(text);
        self.first
            .find(hash, |&e| entries[e as usize].0.0 == text)
            .copied()
    }
}

/// Each query's matching entries with their similarity, most similar
/// first; the bounds of every entry's and every query's key.
pub(super) type Answered = (Vec<Vec<(u32, f64)>>, Vec<Bounds>, Vec<Bounds>);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text's chain starts at its first entry and visits every entry
    /// of that text in ascending order; a text no entry has has no chain.
    #[test]
    fn twin_chains_list_each_texts_entries_in_order() {
        let texts = ["b", "a", "b", "c", "a", "b"];
        let entries: Vec<(TextKey<'_>, Matches)> = texts
            .iter()
            .map(|&t| ((t, None, None), Matches::default()))
            .collect();
        let chains = TwinChains::of(&entries);
        let chain = |text: &str| {
            let mut ids = Vec::new();
            let mut id = chains.first(&entries, text);
            while let Some(i) = id.filter(|&i| i != u32::MAX) {
                ids.push(i);
                id = Some(chains.next[i as usize]);
            }
            ids
        };
        assert_eq!(chain("b"), [0, 2, 5]);
        assert_eq!(chain("a"), [1, 4]);
        assert_eq!(chain("c"), [3]);
        assert_eq!(chain("d"), Vec::<u32>::new());
    }
}
