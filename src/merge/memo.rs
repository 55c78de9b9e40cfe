//! The pairwise-answer memo of the merge: what resolution found in one run,
//! so that the next run compares only what changed.
//!
//! Resolution compares every distinct open-item text (matching key, project,
//! private mark) with every distinct Done-entry text. The memo remembers,
//! for the run that built it, the identities of all Done-entry texts it
//! compared against and, for each open-item text, the complete list of those
//! that matched it. A later run ([`super::merge_with`]) then answers a
//! known item text from its list (for the entries still present) and
//! compares it with the *new* entry texts only; an unknown item text is
//! compared with every entry its dates allow. The memo is rebuilt after every run.
//!
//! Texts are identified by 128 bits of BLAKE3 of (key, project, private
//! mark) keyed by a random salt kept in the memo, never by the text itself,
//! so the memo holds no vault text. Beside each identity it keeps the cheap
//! bounds of the text's key (token class, length, bigram mask): a run with
//! few new texts (src/merge/resolve_warm/) finds their candidates from
//! these and builds no key or index for the texts the memo knows. The identity also covers the dates that
//! bound the comparison: an entry's latest date (and whether one of its
//! signals is undated), an item text's earliest date. A run compares an item
//! text only with entries not older than its earliest item (older ones can
//! resolve none of them), and the memo's lists are complete for exactly
//! those; an entry or item text whose dates moved is a new text to the memo
//! and is compared afresh.
//!
//! Trust: the memo comes from the vault's cache directory, which is vault
//! content. Every remembered *match* is re-checked with the real comparison
//! before use, so no memo, however crafted, can make two texts match that
//! do not. A memo's *non*-matches cannot be checked cheaply (that is the
//! work it saves): a hand-edited memo could leave an item open that a fresh
//! run would resolve. The caller must therefore only hand in a memo it
//! wrote itself, checked by a keyed checksum whose key lives outside the
//! vault (the cache layer's job); anything else is dropped, never trusted.
//! A memo with another format version or threshold, or one whose lists
//! point outside its entry table, is ignored as a whole.

use super::cluster_memo::Bounds;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// Version of the memo's meaning: bump it whenever the comparison
/// (similarity, guards, key) changes, so old answers are not reused.
pub const MEMO_VERSION: u32 = 4;

/// The identity of one distinct (matching key, project, private mark).
pub(super) type TextId = [u64; 2];

/// BLAKE3 keyed with a memo's random salt, as a `Hasher`: the identities
/// of texts are unguessable without the salt, so text a vault controls
/// cannot be made to collide with another.
pub(super) struct SaltedHasher(blake3::Hasher);

impl SaltedHasher {
    pub(super) fn new(salt: [u64; 2]) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&salt[0].to_le_bytes());
        key[8..16].copy_from_slice(&salt[1].to_le_bytes());
        SaltedHasher(blake3::Hasher::new_keyed(&key))
    }

    /// The first 128 bits of the hash.
    pub(super) fn finish128(&self) -> TextId {
        let out = self.0.finalize();
        let b = out.as_bytes();
        [
            u64::from_le_bytes(b[..8].try_into().unwrap_or_default()),
            u64::from_le_bytes(b[8..16].try_into().unwrap_or_default()),
        ]
    }
}

impl Hasher for SaltedHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        self.finish128()[0]
    }
}

/// Pairwise answers of one merge run, for the next (see the module docs).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PairMemo {
    version: u32,
    /// `f64::to_bits` of the dedup threshold the answers hold for.
    threshold: u64,
    salt: [u64; 2],
    /// Every distinct Done-entry text compared against, ascending.
    #[serde(with = "super::wire::ids")]
    entries: Vec<TextId>,
    /// The cheap bounds of each entry's key, as `entries`.
    #[serde(with = "super::wire::bounds")]
    entry_bounds: Vec<Bounds>,
    /// Every distinct open-item text, ascending by identity, with the
    /// bounds of its key and the indices into `entries` of all entries
    /// that matched it, ascending.
    #[serde(with = "super::wire::lists")]
    queries: Vec<(TextId, Bounds, Vec<u32>)>,
    /// Texts of the last run that filled the memo that it did not know
    /// (not kept in the file).
    #[serde(skip)]
    unknown: usize,
    /// The most texts the memo may not know for the caller to keep it as it
    /// was (`None`: never kept; not kept in the file).
    #[serde(skip)]
    keep_up_to: Option<usize>,
    /// Whether the last run left the memo as it was (see `keep_up_to`).
    #[serde(skip)]
    kept: bool,
}

/// Most texts (Done entries and open items) a run may meet that a memo did
/// not know for the memo to be kept as it was when its caller asks so
/// ([`PairMemo::keep_if_few`]); well under the number of new texts the
/// merge answers from a memo without comparing everything (`resolve_warm`).
pub const KEEP_UNKNOWN: usize = 64;

/// Memos are equal when they hold the same answers (what the last run
/// did not know is a note about that run, not an answer).
impl PartialEq for PairMemo {
    fn eq(&self, other: &Self) -> bool {
        (
            self.version,
            self.threshold,
            self.salt,
            &self.entries,
            &self.entry_bounds,
            &self.queries,
        ) == (
            other.version,
            other.threshold,
            other.salt,
            &other.entries,
            &other.entry_bounds,
            &other.queries,
        )
    }
}

impl Eq for PairMemo {}

impl Default for PairMemo {
    fn default() -> Self {
        PairMemo::new()
    }
}

impl PairMemo {
    /// An empty memo with a fresh random salt: it knows nothing, so the
    /// first run with it compares everything (and fills it).
    pub fn new() -> Self {
        use std::hash::BuildHasher;
        let rs = std::collections::hash_map::RandomState::new();
        PairMemo::with_salt([rs.hash_one(1u8), rs.hash_one(2u8)])
    }

    /// An empty memo with a given salt (for tests and reproducible files).
    pub fn with_salt(salt: [u64; 2]) -> Self {
        PairMemo {
            version: MEMO_VERSION,
            threshold: 0,
            salt,
            entries: Vec::new(),
            entry_bounds: Vec::new(),
            queries: Vec::new(),
            unknown: 0,
            keep_up_to: None,
            kept: false,
        }
    }

    /// Distinct Done-entry texts remembered.
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    /// Distinct open-item texts whose answers are remembered.
    pub fn queries(&self) -> usize {
        self.queries.len()
    }

    /// Whether the answers can serve a run at `threshold`: same version and
    /// threshold, tables sorted and every list inside the entry table.
    pub(super) fn usable(&self, threshold: f64) -> bool {
        let n = self.entries.len();
        self.version == MEMO_VERSION
            && self.threshold == threshold.to_bits()
            && self.entries.windows(2).all(|w| w[0] < w[1])
            && self.entry_bounds.len() == n
            && self.queries.windows(2).all(|w| w[0].0 < w[1].0)
            && self.queries.iter().all(|(_, _, l)| {
                l.windows(2).all(|w| w[0] < w[1]) && l.iter().all(|&i| (i as usize) < n)
            })
    }

    /// Forgets every answer (keeping the salt) and makes the memo one for `threshold`.
    pub(super) fn clear(&mut self, threshold: f64) {
        *self = PairMemo {
            threshold: threshold.to_bits(),
            ..PairMemo::with_salt(self.salt)
        };
    }

    /// The identity of a text under this memo's salt, with `stamp`: the
    /// dates that bound which pairs a run compared (an entry's undated flag
    /// and latest date, a query's earliest item date), so that a text whose
    /// dates moved is a new text to the memo.
    pub(super) fn id(
        &self,
        norm: &str,
        project: Option<&str>,
        private: Option<u64>,
        stamp: impl Hash,
    ) -> TextId {
        let mut h = SaltedHasher::new(self.salt);
        stamp.hash(&mut h);
        h.write(norm.as_bytes());
        h.write_u8(0xff);
        match project {
            Some(p) => {
                h.write_u8(1);
                h.write(p.as_bytes());
                h.write_u8(0xff);
            }
            None => h.write_u8(0),
        }
        match private {
            Some(m) => {
                h.write_u8(1);
                h.write_u64(m);
            }
            None => h.write_u8(0),
        }
        h.finish128()
    }

    /// Replaces the answers with those of a run at `threshold`: `entries`
    /// are the run's Done-entry identities (by entry number) with the
    /// bounds of their keys, `queries` the item identities with their
    /// bounds and the entry numbers matching each.
    pub(super) fn record(
        &mut self,
        threshold: f64,
        entries: &[TextId],
        entry_bounds: &[Bounds],
        queries: impl Iterator<Item = (TextId, Bounds, Vec<u32>)>,
    ) {
        let mut order: Vec<u32> = (0..entries.len() as u32).collect();
        order.sort_unstable_by_key(|&i| entries[i as usize]);
        order.dedup_by_key(|i| entries[*i as usize]);
        // Entry number in the run → position in the sorted table.
        let mut pos = vec![0u32; entries.len()];
        for (p, &i) in order.iter().enumerate() {
            pos[i as usize] = p as u32;
        }
        let mut table: Vec<(TextId, Bounds, Vec<u32>)> = queries
            .map(|(q, b, found)| {
                let mut list: Vec<u32> = found.iter().map(|&e| pos[e as usize]).collect();
                list.sort_unstable();
                list.dedup();
                (q, b, list)
            })
            .collect();
        table.sort_unstable_by_key(|e| e.0);
        table.dedup_by(|a, b| a.0 == b.0);
        *self = PairMemo {
            version: MEMO_VERSION,
            threshold: threshold.to_bits(),
            salt: self.salt,
            entries: order.iter().map(|&i| entries[i as usize]).collect(),
            entry_bounds: order.iter().map(|&i| entry_bounds[i as usize]).collect(),
            queries: table,
            unknown: 0,
            keep_up_to: None,
            kept: false,
        };
    }

    /// How many of the texts of the run that last filled the memo (Done
    /// entries and open items) it did not know before.
    pub fn unknown(&self) -> usize {
        self.unknown
    }

    pub(super) fn set_unknown(&mut self, n: usize) {
        self.unknown = n;
    }

    /// Asks the next run to leave the memo as it is (answers, bounds and
    /// lists: no new table is built) when it meets at most
    /// [`KEEP_UNKNOWN`] texts the memo does not know; the caller then does
    /// not write it, and the run after compares those few texts again.
    pub fn keep_if_few(&mut self) {
        self.keep_up_to = Some(KEEP_UNKNOWN);
    }

    /// Asks the next run to leave the memo as it is whatever it meets: for
    /// a caller that never writes it (a read-only command), a new table
    /// would be work thrown away.
    pub fn keep_always(&mut self) {
        self.keep_up_to = Some(usize::MAX);
    }

    /// Whether the last run left the memo as it was (see [`Self::keep_if_few`]).
    pub fn kept(&self) -> bool {
        self.kept
    }

    /// Leaves the answers as they are, after a run that met `unknown`
    /// texts the memo did not know, when the caller asked so (and, with
    /// [`Self::keep_if_few`], they are few); returns whether it did.
    pub(super) fn keep(&mut self, unknown: usize) -> bool {
        self.unknown = unknown;
        self.kept = self.keep_up_to.is_some_and(|most| unknown <= most);
        self.kept
    }
}

/// A usable memo laid over the Done entries of the current run.
pub(super) struct Reuse<'m> {
    memo: &'m PairMemo,
    /// Memo entry position → the current entry number holding that text.
    current: Vec<Option<u32>>,
    /// Current entry number → whether the memo compared against its text.
    pub(super) known: Vec<bool>,
    /// Current entry number → the memo's position for its text.
    at: Vec<Option<u32>>,
}

impl<'m> Reuse<'m> {
    /// `ids` are the identities of the current run's entries, by entry number.
    pub(super) fn new(memo: &'m PairMemo, ids: &[TextId]) -> Self {
        let mut current = vec![None; memo.entries.len()];
        let at: Vec<Option<u32>> = ids
            .iter()
            .enumerate()
            .map(|(n, id)| {
                let p = memo.entries.binary_search(id).ok()?;
                current[p] = Some(n as u32);
                Some(p as u32)
            })
            .collect();
        Reuse {
            memo,
            current,
            known: at.iter().map(Option::is_some).collect(),
            at,
        }
    }

    /// The remembered bounds of current entry `id`'s key, if remembered.
    pub(super) fn entry_bounds(&self, id: usize) -> Option<Bounds> {
        self.at[id].map(|p| self.memo.entry_bounds[p as usize])
    }

    /// The remembered bounds of the item text `q` and the current entry
    /// numbers that match it, or `None` when `q` is not remembered.
    #[cfg(test)]
    pub(super) fn query(&self, q: &TextId) -> Option<(Bounds, impl Iterator<Item = u32> + '_)> {
        let at = self.position(q)?;
        Some((self.query_bounds(at), self.listed(at)))
    }

    /// Where the memo keeps the item text `q`, when it remembers it.
    pub(super) fn position(&self, q: &TextId) -> Option<usize> {
        self.memo
            .queries
            .binary_search_by(|(id, _, _)| id.cmp(q))
            .ok()
    }

    /// The remembered bounds of the item text at memo position `at`.
    pub(super) fn query_bounds(&self, at: usize) -> Bounds {
        self.memo.queries[at].1
    }

    /// The current entry numbers that matched the item text at memo
    /// position `at` (only entries still present), ascending by the
    /// memo's order.
    pub(super) fn listed(&self, at: usize) -> impl Iterator<Item = u32> + '_ {
        self.memo.queries[at]
            .2
            .iter()
            .filter_map(|&p| self.current[p as usize])
    }

    /// The current entry numbers the memo says match the item text `q`
    /// (only entries still present), or `None` when `q` is not remembered.
    #[cfg(test)]
    pub(super) fn matches(&self, q: &TextId) -> Option<impl Iterator<Item = u32> + '_> {
        self.query(q).map(|(_, list)| list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bounds standing for key `n`.
    fn bd(n: u64) -> Bounds {
        Bounds::of(&super::super::Key::new(
            ["fix login", "add log", "x"][n as usize % 3],
        ))
    }

    #[test]
    fn identities_depend_on_every_part_and_the_salt() {
        let m = PairMemo::with_salt([1, 2]);
        let base = m.id("fix login", Some("p"), None, 0u8);
        assert_eq!(base, m.id("fix login", Some("p"), None, 0u8));
        assert_ne!(base, m.id("fix login", None, None, 0u8));
        assert_ne!(base, m.id("fix login", Some("q"), None, 0u8));
        assert_ne!(base, m.id("fix login", Some("p"), Some(7), 0u8));
        assert_ne!(base, m.id("fix logi", Some("np"), None, 0u8));
        assert_ne!(base, m.id("fix login", Some("p"), None, 1u8));
        assert_ne!(
            base,
            PairMemo::with_salt([1, 3]).id("fix login", Some("p"), None, 0u8)
        );
    }

    #[test]
    fn record_then_reuse_maps_to_current_entries() {
        let mut m = PairMemo::with_salt([5, 6]);
        let (a, b, c) = ([1, 0], [2, 0], [3, 0]);
        m.record(
            0.85,
            &[c, a, b],
            &[bd(0), bd(1), bd(2)],
            [([9, 9], bd(1), vec![0, 2])].into_iter(),
        );
        assert!(m.usable(0.85));
        assert!(!m.usable(0.9));
        // The next run has b and a new text d, in another order.
        let d = [4, 0];
        let r = Reuse::new(&m, &[d, b]);
        assert_eq!(r.known, vec![false, true]);
        let got: Vec<u32> = r.matches(&[9, 9]).unwrap().collect();
        assert_eq!(got, vec![1]);
        assert_eq!(r.query(&[9, 9]).unwrap().0, bd(1));
        // b was the third entry recorded.
        assert_eq!(r.entry_bounds(1), Some(bd(2)));
        assert_eq!(r.entry_bounds(0), None);
        assert!(r.matches(&[8, 8]).is_none());
    }

    #[test]
    fn malformed_memos_are_unusable() {
        let mut m = PairMemo::with_salt([0, 0]);
        m.record(
            0.85,
            &[[1, 0]],
            &[bd(0)],
            [([9, 9], bd(0), vec![0])].into_iter(),
        );
        let mut bad = m.clone();
        bad.queries[0].2 = vec![5];
        assert!(!bad.usable(0.85));
        let mut bad = m.clone();
        bad.entry_bounds.clear();
        assert!(!bad.usable(0.85));
        let mut bad = m.clone();
        bad.version += 1;
        assert!(!bad.usable(0.85));
        let mut bad = m.clone();
        bad.entries = vec![[2, 0], [1, 0]];
        assert!(!bad.usable(0.85));
        let json = serde_json::to_string(&m).unwrap();
        let back: PairMemo = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
    }
}
