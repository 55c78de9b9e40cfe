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
    if signals.is_empty() {
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
        all.sort_by(|a, b| {
            (!a.1.0.undated, std::cmp::Reverse(a.1.0.latest), a.0).cmp(&(
                !b.1.0.undated,
                std::cmp::Reverse(b.1.0.latest),
                b.0,
            ))
        });
        all.into_iter().map(|(k, (m, l))| ((k, m), l)).unzip()
    };
    let keys: Vec<Key<'_>> = entries
        .iter()
        .map(|((n, _, private), _)| Key::with_private(n, *private))
        .collect();
    let mut index = SimIndex::default();
    let mut exact: HashMap<&str, Vec<u32>> = HashMap::default();
    for (id, (((n, p, _), _), k)) in entries.iter().zip(&keys).enumerate() {
        index.insert(*p, k, id as u32);
        exact.entry(n).or_default().push(id as u32);
    }
    // Each distinct (text, project) with what its items need: a match dated
    // at least as late as the latest of them (or undated) settles all; none
    // older than the earliest can resolve any (unless one is undated).
    let mut needs: HashMap<TextKey<'_>, Need> = HashMap::default();
    for i in &items {
        let need = needs
            .entry(text_key(&i.norm, i.project.as_deref(), i.private))
            .or_insert(Need {
                latest: i.date,
                earliest: i.date,
            });
        need.latest = need.latest.max(i.date);
        need.earliest = need.earliest.min(i.date);
    }
    let mut queries: Vec<(TextKey<'_>, Need)> = needs.into_iter().collect();
    queries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let answers: HashMap<TextKey<'_>, Matches> = queries
        .par_iter()
        .map(|&(tk, Need { latest, earliest })| {
            let (norm, project, private) = tk;
            let q = Key::with_private(norm, private);
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
                let ((_, p, _), m) = &entries[id as usize];
                if compatible(*p) && similar(&q, &keys[id as usize], threshold) {
                    acc.any = true;
                    acc.undated |= m.undated;
                    acc.latest = acc.latest.max(m.latest);
                }
            }
            if settled(&acc) {
                return (tk, acc);
            }
            index.candidates(project, &q, threshold, |bucket| {
                bucket.scan(&q, threshold, below, |id| {
                    let ((_, p, _), m) = &entries[id as usize];
                    let adds = !acc.undated && (m.undated || m.latest > acc.latest || !acc.any);
                    if compatible(*p) && adds && similar(&q, &keys[id as usize], threshold) {
                        acc.any = true;
                        acc.undated |= m.undated;
                        acc.latest = acc.latest.max(m.latest);
                    }
                    !settled(&acc)
                })
            });
            (tk, acc)
        })
        .collect();
    let keep: Vec<bool> = items
        .iter()
        .map(|i| {
            let m = answers
                .get(&text_key(&i.norm, i.project.as_deref(), i.private))
                .copied()
                .unwrap_or_default();
            !m.resolves(i.date)
        })
        .collect();
    // The trail: every matching entry of each resolved (key, project, mark),
    // most similar first.
    let mut resolved_keys: Vec<TextKey<'_>> = items
        .iter()
        .zip(&keep)
        .filter(|(_, k)| !**k)
        .map(|(i, _)| text_key(&i.norm, i.project.as_deref(), i.private))
        .collect();
    resolved_keys.sort_unstable();
    resolved_keys.dedup();
    let matching: HashMap<TextKey<'_>, Vec<(u32, f64)>> = resolved_keys
        .par_iter()
        .map(|&tk| {
            let (norm, project, private) = tk;
            let q = Key::with_private(norm, private);
            let compatible = |p: Option<&str>| project.is_none() || p.is_none() || p == project;
            let mut found: Vec<(u32, f64)> = Vec::new();
            index.candidates(project, &q, threshold, |bucket| {
                bucket.scan(&q, threshold, u32::MAX, |id| {
                    let ((n, p, _), _) = &entries[id as usize];
                    if compatible(*p) && similar(&q, &keys[id as usize], threshold) {
                        found.push((id, crate::normalize::similarity(norm, n)));
                    }
                    true
                })
            });
            found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            (tk, found)
        })
        .collect();
    let closers: Vec<Option<(usize, f64)>> = items
        .iter()
        .zip(&keep)
        .map(|(item, &k)| {
            if k {
                return None;
            }
            let tk = text_key(&item.norm, item.project.as_deref(), item.private);
            let in_time = |s: usize| match (signals[s].date, item.date) {
                (Some(sd), Some(id)) => id <= sd,
                _ => true,
            };
            matching.get(&tk).and_then(|found| {
                found.iter().find_map(|&(id, sim)| {
                    lists[id as usize]
                        .iter()
                        .copied()
                        .find(|&s| in_time(s))
                        .map(|s| (s, sim))
                })
            })
        })
        .collect();
    let mut open = Vec::with_capacity(items.len());
    let mut closed = Vec::new();
    for ((item, k), closer) in items.into_iter().zip(keep).zip(closers) {
        match closer {
            Some((signal, similarity)) if !k => closed.push(Resolution {
                item,
                signal: Some(signal),
                similarity,
            }),
            // Unreachable for a resolved item (a matching entry resolved
            // it); kept open rather than lost.
            _ => open.push(item),
        }
    }
    (open, closed)
}
