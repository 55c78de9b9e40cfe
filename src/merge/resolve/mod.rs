//! Step 2 of the merge: resolution by done items (docs/FORMAT.md §5).

mod compare;

use super::distinct::number_distinct;
use crate::item::{Item, Signal};
use jiff::civil::Date;
use rayon::prelude::*;

/// A matching key with its project and private mark.
pub(super) type TextKey<'a> = (&'a str, Option<&'a str>, Option<u64>);

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
    /// The certain rule that closed it when it was not the matching key:
    /// `identifier #12`, or the decision (`decision DATE not-task …`).
    pub rule: Option<std::sync::Arc<str>>,
}

/// What the signals matching one (text, project) say: whether an undated
/// signal matched, and the latest date of a dated one.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct Matches {
    pub(super) any: bool,
    pub(super) undated: bool,
    pub(super) latest: Option<Date>,
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
    // The two lists are independent: built side by side.
    let ((entries, lists), (queries, query_of)) =
        rayon::join(|| distinct_entries(signals), || distinct_queries(&items));
    // Between steps, the last one's scratch memory goes back to the system
    // (see `crate::memory`).
    crate::memory::purge();
    // The first entry too old for a query whose earliest item is `earliest`.
    let too_old = |earliest: Option<Date>| {
        earliest.map_or(u32::MAX, |d| {
            entries.partition_point(|(_, m)| m.undated || m.latest >= Some(d)) as u32
        })
    };
    // A query needs only the matches that decide its items (see
    // `compare::compare_all`): the latest date of each.
    let mut latest = vec![None; queries.len()];
    for (item, &q) in items.iter().zip(&query_of) {
        let l = &mut latest[q as usize];
        *l = (*l).max(item.date);
    }
    let found = compare::compare_all(&entries, &queries, threshold, too_old, &latest);
    drop(latest);
    crate::memory::purge();
    let closers: Vec<Option<(usize, f64)>> = items
        .par_iter()
        .zip(&query_of)
        .map(|(item, &q)| {
            let found = found[q as usize].as_slice();
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
                lists
                    .of(id)
                    .iter()
                    .map(|&s| s as usize)
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
                rule: None,
            }),
    );
    (open, closed)
}

/// The signal numbers of each distinct entry, ascending, laid out back to
/// back (one buffer, not a vector per entry).
struct Lists {
    /// Where entry `id`'s numbers start in `signals`; one more at the end.
    starts: Vec<u32>,
    signals: Vec<u32>,
}

impl Lists {
    /// The signal numbers of entry `id`, ascending.
    fn of(&self, id: u32) -> &[u32] {
        let id = id as usize;
        &self.signals[self.starts[id] as usize..self.starts[id + 1] as usize]
    }
}

/// Each distinct signal text (with project and private mark) with what its
/// signals say and their numbers: entries with an undated signal first,
/// then newest first, so that a query whose items are all dated on or after
/// D never needs an entry older than D and its scan stops at a
/// binary-searched id.
fn distinct_entries(signals: &[Signal]) -> (Vec<(TextKey<'_>, Matches)>, Lists) {
    let keys: Vec<TextKey<'_>> = signals
        .iter()
        .map(|s| text_key(&s.norm, s.project.as_deref(), s.private))
        .collect();
    let (entry_of, firsts) = number_distinct(&keys);
    let mut found: Vec<(TextKey<'_>, Matches)> = firsts
        .iter()
        .map(|&f| (keys[f as usize], Matches::default()))
        .collect();
    for (s, &n) in signals.iter().zip(&entry_of) {
        let m = &mut found[n as usize].1;
        m.any = true;
        match s.date {
            None => m.undated = true,
            Some(d) => m.latest = Some(m.latest.map_or(d, |l| l.max(d))),
        }
    }
    drop(keys);
    // Keys are distinct, so the order is total (an unstable sort is exact).
    // The order is (undated first, newest first, text key); the first two
    // and the text's first eight bytes are packed into two integers that
    // order alike, so most comparisons read no text.
    // Each packed key sits beside its number, so most comparisons read
    // neither another array nor a text.
    let mut order: Vec<((u64, u64), u32)> = found
        .iter()
        .enumerate()
        .map(|(f, (tk, m))| (order_key(tk.0, m), f as u32))
        .collect();
    order.par_sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| found[a.1 as usize].0.cmp(&found[b.1 as usize].0))
    });
    let order: Vec<u32> = order.into_iter().map(|(_, f)| f).collect();
    // Found number -> entry id (its place in the order).
    let mut id_of = vec![0u32; found.len()];
    for (id, &f) in order.iter().enumerate() {
        id_of[f as usize] = id as u32;
    }
    let mut starts = vec![0u32; found.len() + 1];
    for &f in &entry_of {
        starts[id_of[f as usize] as usize + 1] += 1;
    }
    for id in 0..found.len() {
        starts[id + 1] += starts[id];
    }
    let mut next = starts.clone();
    let mut numbers = vec![0u32; signals.len()];
    for (n, &f) in entry_of.iter().enumerate() {
        let slot = &mut next[id_of[f as usize] as usize];
        numbers[*slot as usize] = n as u32;
        *slot += 1;
    }
    let entries = order.iter().map(|&f| found[f as usize]).collect();
    (
        entries,
        Lists {
            starts,
            signals: numbers,
        },
    )
}

/// Two integers whose order is the entry order's (undated first, then
/// newest first) and then that of the text's first eight bytes: when they
/// differ they decide, when they are equal the whole keys do.
fn order_key(norm: &str, m: &Matches) -> (u64, u64) {
    let day = m.latest.map_or(0, |d| {
        // A date's fields in order, shifted into non-negative integers.
        let year = (i32::from(d.year()) + 10_000) as u32;
        1 + (year << 9 | (d.month() as u32) << 5 | d.day() as u32)
    });
    let high = u64::from(!m.undated) << 32 | u64::from(u32::MAX - day);
    // Shorter texts pad with zero bytes, the smallest: a strictly smaller
    // prefix means a strictly smaller text.
    let mut first = [0u8; 8];
    let n = norm.len().min(8);
    first[..n].copy_from_slice(&norm.as_bytes()[..n]);
    (high, u64::from_be_bytes(first))
}

/// Each distinct item text (with project and private mark) with the
/// earliest date of its items: no entry older than that can resolve any of
/// them (unless one is undated); in the order their first item comes (each
/// query's answer depends on the query alone). Also the number of each
/// item's query.
#[allow(clippy::type_complexity)]
fn distinct_queries(items: &[Item]) -> (Vec<(TextKey<'_>, Option<Date>)>, Vec<u32>) {
    let keys: Vec<TextKey<'_>> = items
        .iter()
        .map(|i| text_key(&i.norm, i.project.as_deref(), i.private))
        .collect();
    let (query_of, firsts) = number_distinct(&keys);
    let mut queries: Vec<(TextKey<'_>, Option<Date>)> = firsts
        .iter()
        .map(|&f| (keys[f as usize], items[f as usize].date))
        .collect();
    for (i, &n) in items.iter().zip(&query_of) {
        let earliest = &mut queries[n as usize].1;
        *earliest = (*earliest).min(i.date);
    }
    (queries, query_of)
}

#[cfg(test)]
mod tests;
