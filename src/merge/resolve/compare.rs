//! Resolution's answers: every item text compared with the Done entries
//! through one similarity index (`FrozenIndex`); a query decided by
//! identical entries is not compared at all.

use super::super::similarity::{Shape, similar_within_bounds};
use super::super::{FrozenIndex, Key};
use super::{Matches, TextKey};
use hashbrown::HashTable;
use jiff::civil::Date;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Every matching entry of each distinct item text not older than its
/// earliest item (the others can resolve none of them; `too_old` gives
/// the first entry number past that), most similar first, by one
/// similarity index of all entries.
///
/// `deciding` holds each query's latest item date: a query whose latest
/// item an identical entry text resolves (one in time, compatible project
/// and private mark) is answered by its identical entries alone, and not
/// compared with anything. Those are the first of its matches (similarity
/// 1, by number; a key shorter than the compared prefix is similar 1 to
/// itself only), and the closer of each of its items is among them, so
/// resolution is the same (property-tested against the definition).
pub(super) fn compare_all(
    entries: &[(TextKey<'_>, Matches)],
    queries: &[(TextKey<'_>, Option<Date>)],
    threshold: f64,
    too_old: impl Fn(Option<Date>) -> u32 + Sync,
    deciding: &[Option<Date>],
) -> Vec<Vec<(u32, f64)>> {
    // What the index reads of each entry's key (a key itself would hold
    // its texts too: 144 bytes against 80).
    let shapes: Vec<Shape> = entries
        .par_iter()
        .map(|((n, _, private), _)| Shape::of(&Key::with_private(n, *private)))
        .collect();
    let numbered = entries
        .iter()
        .enumerate()
        .map(|(id, ((_, p, _), _))| (*p, id as u32));
    // The index and each entry text's first number and the next number
    // with the same text (`u32::MAX`: none): independent, so built side by
    // side.
    let (index, chains) = rayon::join(
        || FrozenIndex::build(&shapes, numbered),
        || TwinChains::of(entries),
    );
    // The index's sorting scratch goes back before the answers grow.
    crate::memory::purge();
    let twins = |n: usize| -> Option<Vec<(u32, f64)>> {
        let latest = deciding[n];
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
    // Query `n`'s matching entries, most similar first.
    let answer = |n: usize, tk: TextKey<'_>, earliest: Option<Date>| {
        if let Some(found) = twins(n) {
            return found;
        }
        let (norm, project, private) = tk;
        let q = Key::with_private(norm, private);
        let compatible = |p: Option<&str>| project.is_none() || p.is_none() || p == project;
        let mut found: Vec<(u32, f64)> = Vec::new();
        // A scan's rows are inside the bounds: the rest of the test needs
        // the entry's text only.
        index.candidates(project, &q, threshold, |bucket| {
            bucket.scan(&q, threshold, too_old(earliest), |id| {
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
        found
    };
    queries
        .par_iter()
        .enumerate()
        .map(|(n, &(tk, earliest))| answer(n, tk, earliest))
        .collect()
}

/// For each distinct entry text, its first entry number, and for each
/// entry the next number with the same text (`u32::MAX`: none): the
/// entries of one text in ascending order.
///
/// The table holds entry numbers only (4 bytes a slot, against 24 for a
/// map from the text): a lookup compares the text asked with the entry's.
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
