//! Step 3 of the merge with a memo of the last run's match graph
//! ([`cluster_with`]), so a run where few texts changed compares only those.
//!
//! Greedy clustering (see `cluster`) gives each item, in rank order, the
//! first cluster whose representative's text matches the item's and whose
//! project admits it. Which cluster that is depends only on which pairs of
//! texts match, so the memo keeps the match graph of the run that built it:
//! every distinct text (matching key and private mark) with every other
//! text it matches as a query. A later run drops the texts that are gone,
//! compares each new text with every text, old and new, both ways, and runs
//! the greedy rule over the graph: a text seen before is compared with
//! nothing. The clusters are exactly those of `cluster` (property-tested
//! below and, through the cache, over random edit sequences).
//!
//! Texts are identified by 128 bits of BLAKE3 of (key, private mark)
//! under a random salt kept in the memo, never by the text itself. Beside
//! each identity the memo keeps the cheap bounds of the text's key (token
//! class, compared length, bigram mask), so a new text finds its few
//! candidates without building the key of any other text.
//!
//! Trust: the memo is vault content, and its answers, matches and
//! non-matches alike, are used unchecked (checking them is the work it
//! saves), so the caller hands in only a memo it signed itself with a key
//! kept outside the vault, as for the per-file scan results and
//! [`super::PairMemo`]. A memo of another version or threshold, or one
//! whose lists point outside its table, is ignored whole.

#[cfg(test)]
use super::cluster::cluster;
use super::cluster::cluster_counted;
use super::index::window;
use super::memo::SaltedHasher;
use super::visible;
use super::{Cluster, Key, SimIndex, similar};
use crate::item::Item;
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Version of the memo's meaning: bump it whenever the comparison
/// (similarity, guards, key) or the layout changes.
pub(crate) const CLUSTER_MEMO_VERSION: u32 = 2;

/// Most matching pairs a run looks for beyond one per text: a vault of
/// near-identical texts (every pair matching) has far more, and is
/// clustered the plain way (which stops at the first match) with no memo.
const SPARE_EDGES: usize = 4096;

/// Most matching texts one new text may find before the run gives up the
/// graph: near-identical lines match nearly all their kind, and the budget
/// below would be spent one comparison at a time.
const MAX_FOUND: usize = 64;

/// Most texts one new text is compared with in full before the run gives
/// up the graph: the one-by-one clustering it falls back to stops its
/// search there too ([`super::MAX_COMPARED`]), so a graph is kept only where
/// that search would not have stopped.
const MAX_COMPARED: usize = super::MAX_COMPARED;

/// The pairs a run of `texts` distinct texts may find before it gives up
/// the graph.
fn edge_budget(texts: usize) -> usize {
    8 * texts + SPARE_EDGES
}

type TextId = [u64; 2];

/// The cheap bounds of a text's key: texts of different classes never
/// match, nor texts outside each other's length window, nor texts whose
/// bigram sets differ by more than four per allowed edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Bounds {
    pub(super) class: u64,
    pub(super) len: u32,
    bigrams: [u64; 4],
}

impl Bounds {
    /// Bytes of [`Self::put`].
    pub(super) const BYTES: usize = 44;

    /// Appends the bounds, little-endian (see `wire`).
    pub(super) fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.class.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        for w in &self.bigrams {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }

    /// The bounds [`Self::put`] wrote into `b` (`BYTES` long).
    pub(super) fn get(b: &[u8]) -> Bounds {
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let mut len = [0u8; 4];
        len.copy_from_slice(&b[8..12]);
        Bounds {
            class: word(0),
            len: u32::from_le_bytes(len),
            bigrams: [word(12), word(20), word(28), word(36)],
        }
    }

    pub(super) fn of(k: &Key<'_>) -> Bounds {
        Bounds {
            class: k.class,
            len: k.len as u32,
            bigrams: k.bigrams.0,
        }
    }

    /// The bounds of a key, from its shape.
    pub(super) fn of_shape(s: &super::similarity::Shape) -> Bounds {
        Bounds {
            class: s.class,
            len: s.len,
            bigrams: s.bigrams.0,
        }
    }

    /// Whether the bigram sets of a pair, both inside each other's length
    /// window, are close enough for `threshold` (never false for a pair
    /// `close` accepts: one edit changes at most four bigrams of the set).
    pub(super) fn bigrams_close(&self, other: &Bounds, threshold: f64) -> bool {
        let max = self.len.max(other.len) as f64;
        let budget = 4 * ((1.0 - threshold) * max + 1e-9) as u32;
        let differing: u32 = self
            .bigrams
            .iter()
            .zip(other.bigrams.iter())
            .map(|(a, b)| (a ^ b).count_ones())
            .sum();
        differing <= budget
    }
}

/// The match graph of one clustering run, for the next (module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterMemo {
    version: u32,
    /// `f64::to_bits` of the threshold the graph holds for.
    threshold: u64,
    salt: [u64; 2],
    /// Every distinct text, ascending by identity, with its bounds.
    #[serde(with = "super::wire::texts")]
    texts: Vec<(TextId, Bounds)>,
    /// Text `n`'s matches are `edges[starts[n]..starts[n + 1]]` (positions
    /// in `texts`; the text itself, which always matches, left out).
    starts: Vec<u32>,
    edges: Vec<u32>,
}

impl Default for ClusterMemo {
    fn default() -> Self {
        ClusterMemo::new()
    }
}

impl ClusterMemo {
    /// An empty memo with a fresh random salt.
    pub fn new() -> Self {
        use std::hash::BuildHasher;
        let rs = std::collections::hash_map::RandomState::new();
        ClusterMemo::with_salt([rs.hash_one(3u8), rs.hash_one(4u8)])
    }

    /// An empty memo with a given salt (tests, reproducible files).
    pub fn with_salt(salt: [u64; 2]) -> Self {
        ClusterMemo {
            version: CLUSTER_MEMO_VERSION,
            threshold: 0,
            salt,
            texts: Vec::new(),
            starts: vec![0],
            edges: Vec::new(),
        }
    }

    /// Distinct texts remembered.
    pub fn texts(&self) -> usize {
        self.texts.len()
    }

    /// Matching pairs remembered.
    pub fn edges(&self) -> usize {
        self.edges.len()
    }

    /// Same version and threshold, identities ascending, lists in range.
    fn usable(&self, threshold: f64) -> bool {
        let n = self.texts.len();
        self.version == CLUSTER_MEMO_VERSION
            && self.threshold == threshold.to_bits()
            && self.texts.windows(2).all(|w| w[0].0 < w[1].0)
            && self.starts.len() == n + 1
            && self.starts.first() == Some(&0)
            && self.starts.windows(2).all(|w| w[0] <= w[1])
            && self.starts.last().map(|&e| e as usize) == Some(self.edges.len())
            && self.edges.iter().all(|&e| (e as usize) < n)
    }

    fn clear(&mut self, threshold: f64) {
        *self = ClusterMemo {
            threshold: threshold.to_bits(),
            ..ClusterMemo::with_salt(self.salt)
        };
    }

    fn id(&self, item: &Item) -> TextId {
        let mut h = SaltedHasher::new(self.salt);
        h.write(item.norm.as_bytes());
        h.write_u8(0xff);
        match item.private {
            Some(m) => {
                h.write_u8(1);
                h.write_u64(m);
            }
            None => h.write_u8(0),
        }
        h.finish128()
    }
}

/// [`cluster`] with a match-graph memo from an earlier run: the same
/// clusters; afterwards the memo holds this run's graph, for the next.
/// `None` is plain [`cluster`].
#[cfg(test)]
pub(crate) fn cluster_with(
    items: &[Item],
    threshold: f64,
    memo: Option<&mut ClusterMemo>,
) -> Vec<Cluster> {
    cluster_recording(items, threshold, memo, true).0
}

/// [`cluster_with`]; the memo keeps this run's graph only when `record`
/// (a caller that will not write the memo leaves it as it was).
pub(crate) fn cluster_recording(
    items: &[Item],
    threshold: f64,
    memo: Option<&mut ClusterMemo>,
    record: bool,
) -> (Vec<Cluster>, usize) {
    let Some(memo) = memo else {
        return cluster_counted(items, threshold);
    };
    if !memo.usable(threshold) {
        memo.clear(threshold);
    }
    match Graph::build(items, threshold, memo) {
        Some(graph) => {
            let clusters = graph.greedy(items);
            if record {
                graph.record(memo, threshold);
            }
            (clusters, 0)
        }
        None => {
            memo.clear(threshold);
            cluster_counted(items, threshold)
        }
    }
}

/// This run's distinct texts and the match graph over them.
struct Graph<'a> {
    ids: Vec<TextId>,
    bounds: Vec<Bounds>,
    /// An item holding each text.
    holder: Vec<u32>,
    /// Each item's text.
    text_of: Vec<u32>,
    /// Whether the memo did not know the text (its edges are computed now).
    fresh: Vec<bool>,
    /// The texts each text matches as a query (itself left out).
    adj: Vec<Vec<u32>>,
    items: &'a [Item],
}

impl<'a> Graph<'a> {
    /// `None` when the texts match in more pairs than [`edge_budget`].
    fn build(items: &'a [Item], threshold: f64, memo: &ClusterMemo) -> Option<Graph<'a>> {
        let item_ids: Vec<TextId> = items.par_iter().map(|i| memo.id(i)).collect();
        let mut local: HashMap<TextId, u32> = HashMap::default();
        let mut g = Graph {
            ids: Vec::new(),
            bounds: Vec::new(),
            holder: Vec::new(),
            text_of: Vec::with_capacity(items.len()),
            fresh: Vec::new(),
            adj: Vec::new(),
            items,
        };
        let mut old_pos: Vec<Option<usize>> = Vec::new();
        for (n, id) in item_ids.iter().enumerate() {
            let t = *local.entry(*id).or_insert_with(|| {
                g.ids.push(*id);
                g.holder.push(n as u32);
                old_pos.push(memo.texts.binary_search_by(|e| e.0.cmp(id)).ok());
                g.ids.len() as u32 - 1
            });
            g.text_of.push(t);
        }
        let n = g.ids.len();
        let mut local_of_old = vec![u32::MAX; memo.texts.len()];
        for (t, p) in old_pos.iter().enumerate() {
            if let Some(p) = *p {
                local_of_old[p] = t as u32;
            }
        }
        g.fresh = old_pos.iter().map(Option::is_none).collect();
        let keys: Vec<Option<Key<'a>>> = (0..n)
            .into_par_iter()
            .map(|t| g.fresh[t].then(|| g.key(t)))
            .collect();
        g.bounds = (0..n)
            .map(|t| match (old_pos[t], &keys[t]) {
                (Some(p), _) => memo.texts[p].1,
                (None, Some(k)) => Bounds::of(k),
                (None, None) => Bounds::of(&g.key(t)),
            })
            .collect();
        g.adj = (0..n)
            .map(|t| match old_pos[t] {
                Some(p) => memo.edges[memo.starts[p] as usize..memo.starts[p + 1] as usize]
                    .iter()
                    .map(|&e| local_of_old[e as usize])
                    .filter(|&e| e != u32::MAX)
                    .collect(),
                None => Vec::new(),
            })
            .collect();
        let budget = edge_budget(n).checked_sub(g.adj.iter().map(Vec::len).sum())?;
        let found = g.compare_fresh(&keys, threshold, &AtomicUsize::new(budget))?;
        for (q, x, q_to_x, x_to_q) in found {
            if q_to_x {
                g.adj[q as usize].push(x);
            }
            if x_to_q {
                g.adj[x as usize].push(q);
            }
        }
        Some(g)
    }

    /// The key of text `t`, from an item holding it.
    fn key(&self, t: usize) -> Key<'a> {
        let item = &self.items[self.holder[t] as usize];
        Key::with_private(&item.norm, item.private)
    }

    /// Every pair with a fresh side (each once, a text never with itself),
    /// compared both ways: (fresh text, other, fresh matches other, other
    /// matches fresh), for the pairs where either holds; `None` when there
    /// are more of them than `budget` holds.
    fn compare_fresh(
        &self,
        keys: &[Option<Key<'a>>],
        threshold: f64,
        budget: &AtomicUsize,
    ) -> Option<Vec<(u32, u32, bool, bool)>> {
        let n = self.ids.len();
        let fresh: Vec<u32> = (0..n as u32).filter(|&t| self.fresh[t as usize]).collect();
        let found = if fresh.len() > 64 && fresh.len() * 8 > n {
            self.compare_indexed(keys, &fresh, threshold, budget)
        } else {
            self.compare_listed(keys, &fresh, threshold, budget)
        };
        (budget.load(Ordering::Relaxed) != SPENT).then_some(found)
    }

    /// [`Self::compare_fresh`] for many fresh texts (a first run): every
    /// text's key in a similarity index, scanned for each fresh text.
    fn compare_indexed(
        &self,
        keys: &[Option<Key<'a>>],
        fresh: &[u32],
        threshold: f64,
        budget: &AtomicUsize,
    ) -> Vec<(u32, u32, bool, bool)> {
        let all: Vec<Key<'a>> = (0..self.ids.len())
            .into_par_iter()
            .map(|t| keys[t].clone().unwrap_or_else(|| self.key(t)))
            .collect();
        let mut index = SimIndex::default();
        for (t, k) in all.iter().enumerate() {
            index.insert(None, k, t as u32);
        }
        // When every text is fresh, each pair is taken from its larger side.
        let every = fresh.len() == all.len();
        fresh
            .par_iter()
            .flat_map_iter(|&q| {
                let kq = &all[q as usize];
                let below = if every { q } else { u32::MAX };
                let (mut found, mut compared) = (Vec::new(), 0);
                index.candidates(None, kq, threshold, |bucket| {
                    bucket.scan(kq, threshold, below, |x| {
                        if x != q && (!self.fresh[x as usize] || x < q) {
                            compared += 1;
                            if compared > MAX_COMPARED {
                                budget.store(SPENT, Ordering::Relaxed);
                            }
                            found.extend(judge(q, kq, x, &all[x as usize], threshold, budget));
                            if found.len() > MAX_FOUND {
                                budget.store(SPENT, Ordering::Relaxed);
                            }
                        }
                        budget.load(Ordering::Relaxed) != SPENT
                    })
                });
                found
            })
            .collect()
    }

    /// [`Self::compare_fresh`] for a few fresh texts (an everyday run): the
    /// texts of the fresh one's class inside its length window, by their
    /// remembered bounds; keys are built for the few that pass.
    fn compare_listed(
        &self,
        keys: &[Option<Key<'a>>],
        fresh: &[u32],
        threshold: f64,
        budget: &AtomicUsize,
    ) -> Vec<(u32, u32, bool, bool)> {
        if fresh.is_empty() {
            return Vec::new();
        }
        let mut by_class: HashMap<u64, Vec<(u32, u32)>> = HashMap::default();
        for (t, b) in self.bounds.iter().enumerate() {
            by_class.entry(b.class).or_default().push((b.len, t as u32));
        }
        for list in by_class.values_mut() {
            list.sort_unstable();
        }
        let key = |t: u32| {
            keys[t as usize]
                .clone()
                .unwrap_or_else(|| self.key(t as usize))
        };
        fresh
            .par_iter()
            .flat_map_iter(|&q| {
                let qb = &self.bounds[q as usize];
                let kq = key(q);
                let (lo, hi) = window(qb.len as usize, threshold);
                let list = by_class.get(&qb.class).map_or(&[][..], Vec::as_slice);
                let from = list.partition_point(|e| (e.0 as usize) < lo);
                let to = list.partition_point(|e| (e.0 as usize) <= hi);
                list[from..to]
                    .iter()
                    .map(|&(_, x)| x)
                    // A pair of fresh texts is compared from its larger side.
                    .filter(|&x| x != q && (!self.fresh[x as usize] || x < q))
                    .filter(|&x| qb.bigrams_close(&self.bounds[x as usize], threshold))
                    .take_while(|_| budget.load(Ordering::Relaxed) != SPENT)
                    .enumerate()
                    .filter_map(|(k, x)| {
                        if k == MAX_COMPARED {
                            budget.store(SPENT, Ordering::Relaxed);
                        }
                        judge(q, &kq, x, &key(x), threshold, budget)
                    })
                    .enumerate()
                    .map(|(k, pair)| {
                        if k == MAX_FOUND {
                            budget.store(SPENT, Ordering::Relaxed);
                        }
                        pair
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The greedy rule over the graph.
    fn greedy(&self, items: &[Item]) -> Vec<Cluster> {
        let mut clusters: Vec<Cluster> = Vec::new();
        // The clusters whose representative holds each text, ascending.
        let mut led: Vec<Vec<u32>> = vec![Vec::new(); self.ids.len()];
        for (i, item) in items.iter().enumerate() {
            let t = self.text_of[i] as usize;
            let project = item.project.as_deref();
            let mut best = u32::MAX;
            for y in std::iter::once(t as u32).chain(self.adj[t].iter().copied()) {
                let first = led[y as usize]
                    .iter()
                    .copied()
                    .take_while(|&c| c < best)
                    .find(|&c| visible(clusters[c as usize].project.as_deref(), project));
                if let Some(c) = first {
                    best = c;
                }
            }
            if best == u32::MAX {
                led[t].push(clusters.len() as u32);
                clusters.push(Cluster::start(i, item));
                continue;
            }
            clusters[best as usize].join(i, item);
        }
        clusters
    }

    /// Makes `memo` hold this graph (or nothing, when it is too large).
    fn record(&self, memo: &mut ClusterMemo, threshold: f64) {
        let total: usize = self.adj.iter().map(Vec::len).sum();
        memo.clear(threshold);
        let mut order: Vec<u32> = (0..self.ids.len() as u32).collect();
        order.sort_unstable_by_key(|&t| self.ids[t as usize]);
        let mut pos = vec![0u32; order.len()];
        for (p, &t) in order.iter().enumerate() {
            pos[t as usize] = p as u32;
        }
        memo.texts = order
            .iter()
            .map(|&t| (self.ids[t as usize], self.bounds[t as usize]))
            .collect();
        memo.starts = Vec::with_capacity(order.len() + 1);
        memo.starts.push(0);
        memo.edges = Vec::with_capacity(total);
        for &t in &order {
            let from = memo.edges.len();
            memo.edges
                .extend(self.adj[t as usize].iter().map(|&e| pos[e as usize]));
            memo.edges[from..].sort_unstable();
            memo.starts.push(memo.edges.len() as u32);
        }
    }
}

/// `budget` once a run found more matching pairs than it held.
const SPENT: usize = usize::MAX;

/// The pair (`q`, `x`) compared both ways, when either way matches; each
/// such pair takes one from `budget` (which becomes [`SPENT`] when empty).
fn judge(
    q: u32,
    kq: &Key<'_>,
    x: u32,
    kx: &Key<'_>,
    threshold: f64,
    budget: &AtomicUsize,
) -> Option<(u32, u32, bool, bool)> {
    let (there, back) = (similar(kq, kx, threshold), similar(kx, kq, threshold));
    if !(there || back) {
        return None;
    }
    let took = budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| match left {
        SPENT => None,
        0 => Some(SPENT),
        n => Some(n - 1),
    });
    matches!(took, Ok(n) if n != 0).then_some((q, x, there, back))
}

#[cfg(test)]
mod tests;
