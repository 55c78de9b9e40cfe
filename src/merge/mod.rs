//! The merge (SPEC §4): collect → resolve → rank → deduplicate → cap.

mod index;
mod rank;
mod similar;

pub use index::{SimIndex, Slot};
pub use rank::{compare, tier};
pub use similar::{Key, similar};

use crate::item::{Item, Signal};
use jiff::civil::Date;
use rayon::prelude::*;
use std::collections::HashMap;

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

/// A normalized text with its project.
type TextKey<'a> = (&'a str, Option<&'a str>);

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
/// reduced to their distinct (text, project) pairs.
pub fn resolve(items: Vec<Item>, signals: &[Signal], threshold: f64) -> Vec<Item> {
    if signals.is_empty() {
        return items;
    }
    let mut distinct: HashMap<(&str, Option<&str>), Matches> = HashMap::new();
    for s in signals {
        let m = distinct
            .entry((s.norm.as_str(), s.project.as_deref()))
            .or_default();
        m.any = true;
        match s.date {
            None => m.undated = true,
            Some(d) => m.latest = Some(m.latest.map_or(d, |l| l.max(d))),
        }
    }
    let mut entries: Vec<((&str, Option<&str>), Matches)> = distinct.into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let keys: Vec<Key<'_>> = entries.iter().map(|((n, _), _)| Key::new(n)).collect();
    let mut index = SimIndex::default();
    let mut exact: HashMap<&str, Vec<u32>> = HashMap::new();
    for (id, (((n, p), _), k)) in entries.iter().zip(&keys).enumerate() {
        index.insert(*p, k, id as u32);
        exact.entry(n).or_default().push(id as u32);
    }
    // Each distinct (text, project) with the latest date among its items: a
    // match dated at least that late (or undated) settles all of them.
    let mut needs: HashMap<(&str, Option<&str>), Option<Date>> = HashMap::new();
    for i in &items {
        let need = needs
            .entry((i.norm.as_str(), i.project.as_deref()))
            .or_insert(i.date);
        *need = (*need).max(i.date);
    }
    let mut queries: Vec<(TextKey<'_>, Option<Date>)> = needs.into_iter().collect();
    queries.sort_unstable();
    let answers: HashMap<(&str, Option<&str>), Matches> = queries
        .par_iter()
        .map(|&((norm, project), need)| {
            let q = Key::new(norm);
            let settled = |acc: &Matches| {
                acc.undated || (acc.any && need.is_none_or(|n| acc.latest.is_some_and(|l| l >= n)))
            };
            let mut acc = Matches::default();
            let compatible = |p: Option<&str>| project.is_none() || p.is_none() || p == project;
            for &id in exact.get(norm).map_or(&[][..], Vec::as_slice) {
                let ((_, p), m) = &entries[id as usize];
                if compatible(*p) {
                    acc.any = true;
                    acc.undated |= m.undated;
                    acc.latest = acc.latest.max(m.latest);
                }
            }
            if settled(&acc) {
                return ((norm, project), acc);
            }
            index.candidates(project, q.len, threshold, |slots| {
                for slot in slots {
                    if !slot.may_match(&q, threshold) {
                        continue;
                    }
                    let id = slot.id;
                    let ((_, p), m) = &entries[id as usize];
                    if !compatible(*p) {
                        continue;
                    }
                    let adds = !acc.undated && (m.undated || m.latest > acc.latest || !acc.any);
                    if adds && similar(&q, &keys[id as usize], threshold) {
                        acc.any = true;
                        acc.undated |= m.undated;
                        acc.latest = acc.latest.max(m.latest);
                        if settled(&acc) {
                            return false;
                        }
                    }
                }
                true
            });
            ((norm, project), acc)
        })
        .collect();
    let keep: Vec<bool> = items
        .iter()
        .map(|i| {
            let m = answers
                .get(&(i.norm.as_str(), i.project.as_deref()))
                .copied()
                .unwrap_or_default();
            !m.resolves(i.date)
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
    // Representatives by exact normalized text: an exact match bounds the
    // search to older clusters.
    let mut exact: HashMap<&str, Vec<u32>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let q = &keys[i];
        let mut best: Option<u32> = exact.get(q.norm).and_then(|ids: &Vec<u32>| {
            ids.iter().copied().find(|&cid| {
                match (&clusters[cid as usize].project, &item.project) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                }
            })
        });
        index.candidates(item.project.as_deref(), q.len, threshold, |slots| {
            for slot in slots {
                let cid = slot.id;
                if best.is_some_and(|b| cid >= b) {
                    break;
                }
                if slot.may_match(q, threshold)
                    && similar(q, &keys[rep_of[cid as usize]], threshold)
                {
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
                    let rep = &keys[rep_of[cid as usize]];
                    index.remove(None, rep.len, cid);
                    c.project = item.project.clone();
                    index.insert(c.project.as_deref(), rep, cid);
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
                index.insert(item.project.as_deref(), q, cid);
                exact.entry(q.norm).or_default().push(cid);
            }
        }
    }
    clusters
}
