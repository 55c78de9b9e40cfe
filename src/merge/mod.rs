//! The merge (SPEC §4): collect → resolve → rank → deduplicate → cap.

mod index;
mod rank;

pub use index::{Key, SimIndex, similar};
pub use rank::{compare, tier};

use crate::item::{Item, Signal};
use jiff::civil::Date;
use rayon::prelude::*;

/// A group of items that say the same thing.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// Indices into `Merged::items`; the representative first, then in rank order.
    pub members: Vec<usize>,
    pub project: Option<String>,
    pub first_seen: Option<Date>,
    pub last_seen: Option<Date>,
}

/// The outcome of a merge.
#[derive(Debug, Default)]
pub struct Merged {
    /// Open, unresolved items in rank order.
    pub items: Vec<Item>,
    /// Clusters in creation (= rank) order.
    pub clusters: Vec<Cluster>,
    pub collected: usize,
    pub resolved: usize,
    pub duplicates_merged: usize,
}

/// Runs the merge over collected items and resolution signals.
pub fn merge(items: Vec<Item>, signals: &[Signal], as_of: Option<Date>, threshold: f64) -> Merged {
    let collected = items.len();
    let open = resolve(items, signals, threshold);
    let resolved = collected - open.len();
    let mut open = open;
    open.par_sort_by(|a, b| compare(a, b, as_of));
    let clusters = cluster(&open, threshold);
    let duplicates_merged = open.len() - clusters.len();
    Merged {
        items: open,
        clusters,
        collected,
        resolved,
        duplicates_merged,
    }
}

/// Step 2: drops every item matched by a signal, except that a dated signal
/// never resolves an item dated after it.
pub fn resolve(items: Vec<Item>, signals: &[Signal], threshold: f64) -> Vec<Item> {
    if signals.is_empty() {
        return items;
    }
    let keys: Vec<Key<'_>> = signals.iter().map(|s| Key::new(&s.norm)).collect();
    let mut index = SimIndex::default();
    for (id, (s, k)) in signals.iter().zip(&keys).enumerate() {
        index.insert(s.project.as_deref(), k.len, id as u32);
    }
    let keep: Vec<bool> = items
        .par_iter()
        .map(|item| {
            let q = Key::new(&item.norm);
            let mut hit = false;
            index.candidates(item.project.as_deref(), q.len, threshold, |ids| {
                hit = ids.iter().any(|&id| {
                    let s = &signals[id as usize];
                    let in_time = match (s.date, item.date) {
                        (Some(sd), Some(id)) => id <= sd,
                        _ => true,
                    };
                    in_time && similar(&q, &keys[id as usize], threshold)
                });
                !hit
            });
            !hit
        })
        .collect();
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(i, k)| k.then_some(i))
        .collect()
}

/// Step 3: greedy clustering of items already in rank order.
pub fn cluster(items: &[Item], threshold: f64) -> Vec<Cluster> {
    let keys: Vec<Key<'_>> = items.iter().map(|i| Key::new(&i.norm)).collect();
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut rep_of: Vec<usize> = Vec::new();
    let mut index = SimIndex::default();
    for (i, item) in items.iter().enumerate() {
        let q = &keys[i];
        let mut best: Option<u32> = None;
        index.candidates(item.project.as_deref(), q.len, threshold, |ids| {
            for &cid in ids {
                if best.is_some_and(|b| cid >= b) {
                    break;
                }
                let c = &clusters[cid as usize];
                let compatible = match (&c.project, &item.project) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                };
                if compatible && similar(q, &keys[rep_of[cid as usize]], threshold) {
                    best = Some(cid);
                    break;
                }
            }
            true
        });
        match best {
            Some(cid) => {
                let c = &mut clusters[cid as usize];
                c.members.push(i);
                if let Some(d) = item.date {
                    c.first_seen = Some(c.first_seen.map_or(d, |f| f.min(d)));
                    c.last_seen = Some(c.last_seen.map_or(d, |l| l.max(d)));
                }
                if c.project.is_none() && item.project.is_some() {
                    let rep_len = keys[rep_of[cid as usize]].len;
                    index.remove(None, rep_len, cid);
                    c.project = item.project.clone();
                    index.insert(c.project.as_deref(), rep_len, cid);
                }
            }
            None => {
                let cid = clusters.len() as u32;
                clusters.push(Cluster {
                    members: vec![i],
                    project: item.project.clone(),
                    first_seen: item.date,
                    last_seen: item.date,
                });
                rep_of.push(i);
                index.insert(item.project.as_deref(), q.len, cid);
            }
        }
    }
    clusters
}
