//! The merge (docs/FORMAT.md §5): collect → resolve → rank → deduplicate.
//! The cap is applied afterwards, in `report::build`.

mod cluster;
mod cluster_graph;
mod distinct;
mod forward;
mod frozen;
mod index;
mod mask_scan;
mod rank;
mod resolve;
mod settle;
mod similarity;

pub use cluster::cluster;
use frozen::FrozenIndex;
pub use index::{Rows, SimIndex};
pub use rank::{compare, due, overdue, tier};
pub use resolve::{Resolution, resolve, resolve_traced};
pub use settle::{Settled, identifiers, is_done_line, settle};
pub use similarity::{Key, close, matches_by_definition, similar};

use crate::item::{Item, Signal};
use jiff::civil::Date;

/// Most clusters one text is compared with in full (edit distance and
/// guards) when clustering one by one. Only texts that nearly match
/// thousands of others (a generated or hostile vault: the cheap bounds pass
/// and the edit distance or a guard rejects) get there; the search then
/// stops, the text starts a cluster of its own unless one of those matched,
/// and the run counts it in a warning. Without the cap such a vault costs
/// one comparison per pair of clusters.
pub const MAX_COMPARED: usize = 2048;

/// Whether a cluster with project `cluster` accepts an item of `item`.
fn visible(cluster: Option<&str>, item: Option<&str>) -> bool {
    item.is_none() || cluster.is_none() || cluster == item
}

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
    /// Forwarded (`[>]`) items kept open because no open item matches them.
    pub forwarded_open: Vec<crate::item::Location>,
    /// Every resolved item with the signal that closed it, by path and line.
    pub resolutions: Vec<Resolution>,
    /// What [`settle`] noted (decisions, `keep`s).
    pub settled: Settled,
    /// Distinct texts whose search for a cluster stopped at the cap of
    /// full comparisons (a vault of texts that nearly match thousands of
    /// others); each may be listed apart from a cluster it matches.
    pub capped: usize,
}

/// Runs the merge over collected items and resolution signals.
pub fn merge(items: Vec<Item>, signals: &[Signal], as_of: Option<Date>, threshold: f64) -> Merged {
    let collected = items.len();
    let (open, mut resolutions) = resolve_traced(items, signals, threshold);
    crate::memory::purge();
    let (mut open, twinned, forwarded_open) = forward::settle(open, threshold);
    resolutions.extend(twinned.into_iter().map(|item| Resolution {
        item,
        signal: None,
        similarity: 1.0,
        rule: None,
    }));
    let resolved = collected - open.len();
    resolutions.sort_by(|a, b| a.item.loc.cmp(&b.item.loc));
    rank::sort(&mut open, as_of);
    // Between steps, the last one's scratch memory goes back to the system
    // (see `crate::memory`).
    crate::memory::purge();
    let (clusters, capped) = cluster::cluster_counted(&open, threshold);
    crate::memory::purge();
    let duplicates_merged = open.len() - clusters.len();
    Merged {
        items: open,
        clusters,
        collected,
        resolved,
        duplicates_merged,
        forwarded_open,
        resolutions,
        settled: Settled::default(),
        capped,
    }
}
