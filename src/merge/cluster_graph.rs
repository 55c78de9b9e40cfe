//! Greedy clustering from the matches of every distinct text with the
//! earlier ones, found on all cores: the same clusters as the one-by-one
//! search of `cluster::assign`, which must wait for each item's decision
//! before it can search for the next.
//!
//! The greedy rule gives item `i` the lowest-numbered cluster whose
//! representative matches it and whose project it may join. Clusters are
//! numbered in the order their representatives come, so that is the first
//! representative `j < i`, in item order, that matches `i` and whose
//! cluster is open to `i` when `i` is decided. Which earlier texts match
//! `i` does not depend on any decision: it is found first, for every text
//! at once (in parallel), among the texts whose project can ever share a
//! cluster with `i`'s (the same project, or either untagged: the
//! similarity index's own candidate rule). The decisions then walk the
//! texts in order, reading those lists.
//!
//! Texts that nearly all match each other (thousands of copies of one line
//! with a changing word) would make the lists quadratic; past a budget of
//! matches the search gives up and the caller clusters one by one.

use super::similarity::Shape;
use super::visible;
use super::{FrozenIndex, Key, similar};
use crate::item::Item;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The matches `texts` distinct texts may find before the graph is given up.
pub(super) fn match_budget(texts: usize) -> usize {
    8 * texts + 4096
}

/// Most earlier matching texts one text may find before the graph is given
/// up: near-identical lines match nearly all their kind, and the budget
/// above would be spent one costly comparison at a time.
const MAX_PER_TEXT: usize = 64;

/// Most earlier texts one text is compared with in full before the graph is
/// given up: the one-by-one search stops there too ([`super::MAX_COMPARED`]).
const MAX_COMPARED: usize = super::MAX_COMPARED;

/// The cluster number of each item (distinct texts, in rank order), or
/// `None` when the texts match in more than `budget` pairs, one text
/// matches more than `MAX_PER_TEXT` earlier ones, or is compared with more
/// than `MAX_COMPARED`.
pub(super) fn assign(
    items: &[&Item],
    keys: &[Key<'_>],
    threshold: f64,
    budget: usize,
) -> Option<Vec<u32>> {
    let shapes: Vec<Shape> = keys.par_iter().map(Shape::of).collect();
    let index = FrozenIndex::build(
        &shapes,
        items
            .iter()
            .enumerate()
            .map(|(n, item)| (item.project.as_deref(), n as u32)),
    );
    let found = AtomicUsize::new(0);
    let spent = AtomicBool::new(false);
    // Each text's earlier matching texts, ascending.
    let earlier: Vec<Vec<u32>> = (0..items.len())
        .into_par_iter()
        .map(|i| {
            let (mut list, mut compared) = (Vec::new(), 0);
            if spent.load(Ordering::Relaxed) {
                return list;
            }
            let q = &keys[i];
            index.candidates(items[i].project.as_deref(), q, threshold, |rows| {
                rows.scan(q, threshold, i as u32, |j| {
                    compared += 1;
                    if compared > MAX_COMPARED {
                        spent.store(true, Ordering::Relaxed);
                    }
                    if similar(q, &keys[j as usize], threshold) {
                        list.push(j);
                        if found.fetch_add(1, Ordering::Relaxed) >= budget
                            || list.len() > MAX_PER_TEXT
                        {
                            spent.store(true, Ordering::Relaxed);
                        }
                    }
                    !spent.load(Ordering::Relaxed)
                })
            });
            list.sort_unstable();
            list
        })
        .collect();
    if spent.into_inner() {
        return None;
    }
    drop(index);
    // Per cluster: its project. Per text: the cluster it started, if any.
    let mut projects: Vec<Option<&str>> = Vec::new();
    let mut started: Vec<u32> = vec![u32::MAX; items.len()];
    let mut assigned: Vec<u32> = Vec::with_capacity(items.len());
    for (i, list) in earlier.iter().enumerate() {
        let project = items[i].project.as_deref();
        let best = list.iter().find_map(|&j| {
            let cid = started[j as usize];
            (cid != u32::MAX && visible(projects[cid as usize], project)).then_some(cid)
        });
        match best {
            Some(cid) => {
                let c = &mut projects[cid as usize];
                if c.is_none() {
                    *c = project;
                }
                assigned.push(cid);
            }
            None => {
                let cid = projects.len() as u32;
                started[i] = cid;
                projects.push(project);
                assigned.push(cid);
            }
        }
    }
    Some(assigned)
}
