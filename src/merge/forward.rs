//! Forwarded items (`[>]`): a forwarded copy is resolved when a matching open
//! item (same text by the similarity rule, compatible project) that is not
//! itself forwarded exists anywhere; otherwise it stays open and is reported.

use super::similarity::Shape;
use super::{FrozenIndex, Key, similar};
use crate::item::{Item, ItemStatus, Location};
use rayon::prelude::*;

/// Splits off the forwarded items that have a live twin. Returns the items
/// kept open, the items resolved this way, and the places of forwarded
/// items that stay open because nothing matches them.
pub(super) fn settle(items: Vec<Item>, threshold: f64) -> (Vec<Item>, Vec<Item>, Vec<Location>) {
    if !items.iter().any(|i| i.status == ItemStatus::Forwarded) {
        return (items, Vec::new(), Vec::new());
    }
    // The live items, through a similarity index: a forwarded item is
    // compared only with the live items of its token class and length
    // window that the cheap bounds let through, in its project or
    // untagged (every project when it is untagged itself), never with all.
    let live: Vec<u32> = (0..items.len() as u32)
        .filter(|&n| items[n as usize].status != ItemStatus::Forwarded)
        .collect();
    let keys: Vec<Key<'_>> = items
        .par_iter()
        .map(|i| Key::with_private(&i.norm, i.private))
        .collect();
    let shapes: Vec<Shape> = keys.iter().map(Shape::of).collect();
    let index = FrozenIndex::build(
        &shapes,
        live.iter()
            .map(|&n| (items[n as usize].project.as_deref(), n)),
    );
    let has_twin: Vec<bool> = items
        .par_iter()
        .enumerate()
        .map(|(n, i)| {
            if i.status != ItemStatus::Forwarded {
                return false;
            }
            let q = &keys[n];
            let mut twin = false;
            index.candidates(i.project.as_deref(), q, threshold, |rows| {
                rows.scan(q, threshold, u32::MAX, |id| {
                    twin = similar(q, &keys[id as usize], threshold);
                    !twin
                })
            });
            twin
        })
        .collect();
    drop(index);
    let mut kept = Vec::with_capacity(items.len());
    let mut resolved = Vec::new();
    let mut unmatched = Vec::new();
    for (item, twin) in items.into_iter().zip(has_twin) {
        if twin {
            resolved.push(item);
        } else {
            if item.status == ItemStatus::Forwarded {
                unmatched.push(item.loc.clone());
            }
            kept.push(item);
        }
    }
    (kept, resolved, unmatched)
}
