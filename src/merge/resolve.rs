//! Step 2 of the merge: resolution by done items (docs/FORMAT.md §5).

use super::{Key, SimIndex, similar};
use crate::item::{Item, Signal};
use jiff::civil::Date;
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

/// The dates of the items sharing one (text, project); `None` is undated,
/// which sorts first, so `earliest` is `None` when any item is undated.
#[derive(Clone, Copy)]
struct Need {
    latest: Option<Date>,
    earliest: Option<Date>,
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
    let mut distinct: HashMap<(&str, Option<&str>), Matches> = HashMap::default();
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
    // Entries with an undated signal first, then newest first: a query whose
    // items are all dated on or after D never needs an entry older than D,
    // so its scan stops at a binary-searched id.
    let mut entries: Vec<(TextKey<'_>, Matches)> = distinct.into_iter().collect();
    entries.sort_by(|a, b| {
        (!a.1.undated, std::cmp::Reverse(a.1.latest), a.0).cmp(&(
            !b.1.undated,
            std::cmp::Reverse(b.1.latest),
            b.0,
        ))
    });
    let keys: Vec<Key<'_>> = entries.iter().map(|((n, _), _)| Key::new(n)).collect();
    let mut index = SimIndex::default();
    let mut exact: HashMap<&str, Vec<u32>> = HashMap::default();
    for (id, (((n, p), _), k)) in entries.iter().zip(&keys).enumerate() {
        index.insert(*p, k, id as u32);
        exact.entry(n).or_default().push(id as u32);
    }
    // Each distinct (text, project) with what its items need: a match dated
    // at least as late as the latest of them (or undated) settles all; none
    // older than the earliest can resolve any (unless one is undated).
    let mut needs: HashMap<TextKey<'_>, Need> = HashMap::default();
    for i in &items {
        let need = needs
            .entry((i.norm.as_str(), i.project.as_deref()))
            .or_insert(Need {
                latest: i.date,
                earliest: i.date,
            });
        need.latest = need.latest.max(i.date);
        need.earliest = need.earliest.min(i.date);
    }
    let mut queries: Vec<(TextKey<'_>, Need)> = needs.into_iter().collect();
    queries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let answers: HashMap<(&str, Option<&str>), Matches> = queries
        .par_iter()
        .map(|&((norm, project), Need { latest, earliest })| {
            let q = Key::new(norm);
            let settled = |acc: &Matches| {
                acc.undated
                    || (acc.any && latest.is_none_or(|n| acc.latest.is_some_and(|l| l >= n)))
            };
            let below = match earliest {
                Some(d) => {
                    entries.partition_point(|(_, m)| m.undated || m.latest >= Some(d)) as u32
                }
                None => u32::MAX,
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
            index.candidates(project, q.len, threshold, |bucket| {
                bucket.scan(&q, threshold, below, |id| {
                    let ((_, p), m) = &entries[id as usize];
                    let adds = !acc.undated && (m.undated || m.latest > acc.latest || !acc.any);
                    if compatible(*p) && adds && similar(&q, &keys[id as usize], threshold) {
                        acc.any = true;
                        acc.undated |= m.undated;
                        acc.latest = acc.latest.max(m.latest);
                    }
                    !settled(&acc)
                })
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
