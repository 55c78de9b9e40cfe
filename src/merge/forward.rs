//! Forwarded items (`[>]`): a forwarded copy is resolved when a matching open
//! item (same text by the similarity rule, compatible project) that is not
//! itself forwarded exists anywhere; otherwise it stays open and is reported.

use super::{Key, similar};
use crate::item::{Item, ItemStatus, Location};
use rayon::prelude::*;

/// Splits off the forwarded items that have a live twin. Returns the items
/// kept open, the items resolved this way, and the places of forwarded
/// items that stay open because nothing matches them.
pub(super) fn settle(items: Vec<Item>, threshold: f64) -> (Vec<Item>, Vec<Item>, Vec<Location>) {
    if !items.iter().any(|i| i.status == ItemStatus::Forwarded) {
        return (items, Vec::new(), Vec::new());
    }
    let live: Vec<(Key<'_>, &Option<std::sync::Arc<str>>)> = items
        .par_iter()
        .filter(|i| i.status != ItemStatus::Forwarded)
        .map(|i| (Key::with_private(&i.norm, i.private), &i.project))
        .collect();
    let has_twin: Vec<bool> = items
        .iter()
        .map(|i| {
            if i.status != ItemStatus::Forwarded {
                return false;
            }
            let q = Key::with_private(&i.norm, i.private);
            live.iter().any(|(k, p)| {
                let same_project = match (p, &i.project) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                };
                same_project && similar(&q, k, threshold)
            })
        })
        .collect();
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
