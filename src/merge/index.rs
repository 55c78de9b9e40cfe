//! A similarity index: finds texts within `threshold` of a query without
//! comparing against everything. Entries are grouped by project and by the
//! set of distinguishing tokens of their key (keys with different sets never
//! match, see `guards`), and bucketed by character count; only buckets
//! inside the length window the threshold allows are visited. A bucket
//! keeps its entries' bigram masks in four contiguous columns
//! (`mask_scan`), so the first (and most selective) bound runs over plain
//! memory, and their clamped character counts beside them for the second,
//! before any text is touched.

use super::mask_scan::{self, Cols, Masks};
use super::similarity::{Bigrams, Key, Nibbles};
use rustc_hash::FxHashMap as HashMap;

/// The entries of one project group with one character count, ids ascending.
#[derive(Debug, Default)]
struct Bucket {
    len: usize,
    ids: Vec<u32>,
    masks: Masks,
}

impl Bucket {
    fn insert(&mut self, id: u32, mask: Bigrams, sig: Nibbles) {
        let pos = self.ids.partition_point(|&x| x < id);
        if self.ids.get(pos) != Some(&id) {
            self.ids.insert(pos, id);
            self.masks.insert(pos, mask, sig);
        }
    }

    fn remove(&mut self, id: u32) {
        if let Ok(pos) = self.ids.binary_search(&id) {
            self.ids.remove(pos);
            self.masks.remove(pos);
        }
    }

    /// The bucket's rows.
    fn rows(&self) -> Rows<'_> {
        Rows {
            len: self.len,
            ids: &self.ids,
            cols: self.masks.cols(),
            sigs: self.masks.sigs(),
        }
    }
}

/// The entries of one group with one character count, ids ascending, with
/// their bigram masks and clamped character counts: a bucket of either
/// index ([`SimIndex`] or `FrozenIndex`).
#[derive(Clone, Copy)]
pub struct Rows<'a> {
    pub(super) len: usize,
    pub(super) ids: &'a [u32],
    pub(super) cols: Cols<'a>,
    /// Row `i`'s clamped character counts, beside its mask.
    pub(super) sigs: &'a [Nibbles],
}

impl Rows<'_> {
    /// Calls `f` with every id below `below` (ascending) whose key passes
    /// the cheap bounds of `similarity::close` for `threshold`: its bigram
    /// set close enough to the query's (one edit changes at most four
    /// bigrams of the set), then its bag distance within the allowed edits
    /// (the length window is the index's). Only pairs `close` rejects are
    /// left out, so a caller that tests `close` or `similar` on what it is
    /// given finds the same matches. The counts lie beside the masks:
    /// the many rows the masks let through and the bag distance rejects
    /// never touch the entry's key. Stops when `f` returns false; returns
    /// false in that case.
    #[inline]
    pub fn scan(
        &self,
        q: &Key<'_>,
        threshold: f64,
        below: u32,
        mut f: impl FnMut(u32) -> bool,
    ) -> bool {
        let end = cut(self.ids, below);
        crate::work::rows(end);
        let max = self.len.max(q.len);
        // Formed exactly as `close` forms it.
        let allowed = (1.0 - threshold) * max as f64 + 1e-9;
        let budget = 4 * allowed as u32;
        let (ids, sigs) = (&self.ids[..end], &self.sigs[..end]);
        mask_scan::scan(self.cols, end, &q.bigrams, budget, |i| {
            f64::from(q.nibbles.bag_distance(&sigs[i])) > allowed || f(ids[i])
        })
    }
}

/// The number of `ids` (ascending) below `below`. Most runs lie wholly on
/// one side of the cut, which their ends show; a run is searched only when
/// the cut falls inside it (a binary search's loads depend on each other,
/// and a scan visits hundreds of thousands of runs).
#[inline]
fn cut(ids: &[u32], below: u32) -> usize {
    match (ids.first(), ids.last()) {
        (Some(&first), Some(&last)) if last >= below => {
            if first >= below {
                0
            } else {
                ids.partition_point(|&x| x < below)
            }
        }
        _ => ids.len(),
    }
}

/// A group's buckets, sorted by character count: a group holds few
/// lengths, so a sorted vector finds the window by binary search and walks
/// it in plain memory (a `BTreeMap` of boxed buckets cost a pointer chase
/// per bucket, and a leaf sized for 11 buckets however few it held).
#[derive(Debug, Default)]
struct Buckets(Vec<Bucket>);

impl Buckets {
    /// The bucket of `len`, made when missing.
    fn entry(&mut self, len: usize) -> &mut Bucket {
        let at = self.0.partition_point(|b| b.len < len);
        if self.0.get(at).is_none_or(|b| b.len != len) {
            self.0.insert(
                at,
                Bucket {
                    len,
                    ..Bucket::default()
                },
            );
        }
        &mut self.0[at]
    }

    fn get_mut(&mut self, len: usize) -> Option<&mut Bucket> {
        let at = self.0.partition_point(|b| b.len < len);
        self.0.get_mut(at).filter(|b| b.len == len)
    }

    /// The buckets of character counts `lo..=hi`, ascending.
    fn range(&self, lo: usize, hi: usize) -> &[Bucket] {
        let from = self.0.partition_point(|b| b.len < lo);
        let to = self.0.partition_point(|b| b.len <= hi);
        &self.0[from..to.max(from)]
    }
}

/// The character counts an entry may have to reach `threshold` with a query
/// of `len` characters (both ends included).
pub(super) fn window(len: usize, threshold: f64) -> (usize, usize) {
    let lo = (threshold * len as f64 - 1e-9).ceil().max(0.0) as usize;
    let hi = (len as f64 / threshold + 1e-9).floor() as usize;
    (lo, hi)
}

/// Entries grouped by project and token class, bucketed by length.
#[derive(Default, Debug)]
pub struct SimIndex {
    /// Project name → its number in `groups` (untagged is 0).
    projects: HashMap<String, u32>,
    groups: HashMap<(u32, u64), Buckets>,
    /// Every entry regardless of project, by token class, for untagged queries.
    all: HashMap<u64, Buckets>,
}

fn bucket(buckets: &mut Buckets, len: usize) -> &mut Bucket {
    buckets.entry(len)
}

impl SimIndex {
    /// The number of a project (None for an unknown one), without allocating.
    fn project(&self, project: Option<&str>) -> Option<u32> {
        match project {
            None => Some(0),
            Some(p) => self.projects.get(p).copied(),
        }
    }

    pub fn insert(&mut self, project: Option<&str>, key: &Key<'_>, id: u32) {
        let p = match project {
            None => 0,
            Some(p) => match self.projects.get(p) {
                Some(&n) => n,
                None => {
                    let n = self.projects.len() as u32 + 1;
                    self.projects.insert(p.to_string(), n);
                    n
                }
            },
        };
        let group = self.groups.entry((p, key.class)).or_default();
        bucket(group, key.len).insert(id, key.bigrams, key.nibbles);
        bucket(self.all.entry(key.class).or_default(), key.len).insert(
            id,
            key.bigrams,
            key.nibbles,
        );
    }

    /// Moves nothing out of the all-projects group: `remove` followed by
    /// `insert` changes an entry's project group only.
    pub fn remove(&mut self, project: Option<&str>, key: &Key<'_>, id: u32) {
        if let Some(p) = self.project(project)
            && let Some(group) = self.groups.get_mut(&(p, key.class))
            && let Some(b) = group.get_mut(key.len)
        {
            b.remove(id);
        }
    }

    /// Calls `visit` with the candidate buckets of one project group only
    /// (`None`: the untagged group, not every entry), of the query's token
    /// class. `visit` returns false to stop.
    pub fn group_candidates(
        &self,
        project: Option<&str>,
        q: &Key<'_>,
        threshold: f64,
        mut visit: impl FnMut(Rows<'_>) -> bool,
    ) {
        let (lo, hi) = window(q.len, threshold);
        if let Some(g) = self
            .project(project)
            .and_then(|p| self.groups.get(&(p, q.class)))
        {
            for b in g.range(lo, hi) {
                if !visit(b.rows()) {
                    return;
                }
            }
        }
    }

    /// Calls `visit` with every candidate bucket for the query `q` in
    /// `project`: of its token class, the project's own group and the
    /// untagged group, or every entry for an untagged query. `visit` returns
    /// false to stop.
    pub fn candidates(
        &self,
        project: Option<&str>,
        q: &Key<'_>,
        threshold: f64,
        mut visit: impl FnMut(Rows<'_>) -> bool,
    ) {
        let (lo, hi) = window(q.len, threshold);
        let mut scan = |group: &Buckets| group.range(lo, hi).iter().all(|b| visit(b.rows()));
        match project {
            Some(_) => {
                let own = self
                    .project(project)
                    .and_then(|p| self.groups.get(&(p, q.class)))
                    .is_none_or(&mut scan);
                if own && let Some(g) = self.groups.get(&(0, q.class)) {
                    scan(g);
                }
            }
            None => {
                if let Some(g) = self.all.get(&q.class) {
                    scan(g);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::similar;
    use super::super::similarity::tests::after_edits;
    use super::*;

    fn ids(idx: &SimIndex, project: Option<&str>, text: &str) -> Vec<u32> {
        let q = Key::new(text);
        let mut seen = Vec::new();
        idx.candidates(project, &q, 0.85, |b| {
            b.scan(&q, 0.85, u32::MAX, |id| {
                seen.push(id);
                true
            })
        });
        seen.sort();
        seen
    }

    #[test]
    fn candidates_respect_project_and_length() {
        let ten = Key::new("abcdefghij");
        let thirty = Key::new("abcdefghijabcdefghijabcdefghij");
        let mut idx = SimIndex::default();
        idx.insert(Some("a"), &ten, 0);
        idx.insert(Some("b"), &ten, 1);
        idx.insert(None, &ten, 2);
        idx.insert(Some("a"), &thirty, 3);
        assert_eq!(ids(&idx, Some("a"), "abcdefghij"), vec![0, 2]);
        assert_eq!(ids(&idx, None, "abcdefghij"), vec![0, 1, 2]);
        idx.remove(Some("a"), &ten, 0);
        assert_eq!(ids(&idx, Some("a"), "abcdefghij"), vec![2]);
        assert_eq!(ids(&idx, None, "zzzzzzzzzz"), Vec::<u32>::new());
    }

    proptest::proptest! {
        /// The cut is the number of ids below it, wherever it falls.
        #[test]
        fn the_cut_counts_the_ids_below_it(
            ids in proptest::collection::btree_set(0u32..60, 0..20),
            below in 0u32..70,
        ) {
            let ids: Vec<u32> = ids.into_iter().collect();
            proptest::prop_assert_eq!(cut(&ids, below), ids.iter().filter(|&&x| x < below).count());
        }

        /// What a scan leaves out (the length window, the masks, the
        /// clamped counts, the cut) is never a pair `similar` accepts: on
        /// texts a few edits apart, the scan's similar entries are exactly
        /// the similar entries of compatible project below the cut.
        #[test]
        fn a_scan_leaves_out_no_similar_entry(
            base in "[a-e ]{4,30}",
            rows in proptest::collection::vec(
                (proptest::collection::vec((0usize..32, "[a-ez ]?"), 0..4), proptest::option::of(0usize..2)),
                1..25,
            ),
            query in proptest::collection::vec((0usize..32, "[a-ez ]?"), 0..4),
            project in proptest::option::of(0usize..3),
            below in proptest::option::of(0u32..30),
            t in 0.7f64..0.95,
        ) {
            let edited = |edits: &[(usize, String)]| after_edits(&base, edits);
            let names = ["p", "q", "r"];
            let texts: Vec<(String, Option<&str>)> =
                rows.iter().map(|(e, p)| (edited(e), p.map(|p| names[p]))).collect();
            let keys: Vec<Key<'_>> = texts.iter().map(|(t, _)| Key::new(t)).collect();
            let mut idx = SimIndex::default();
            for (id, ((_, p), k)) in texts.iter().zip(&keys).enumerate() {
                idx.insert(*p, k, id as u32);
            }
            let qt = edited(&query);
            let q = Key::new(&qt);
            let project = project.map(|p| names[p]);
            let below = below.unwrap_or(u32::MAX);
            let mut offered = Vec::new();
            idx.candidates(project, &q, t, |b| {
                b.scan(&q, t, below, |id| {
                    if similar(&q, &keys[id as usize], t) {
                        offered.push(id);
                    }
                    true
                })
            });
            offered.sort_unstable();
            let expect: Vec<u32> = (0..texts.len() as u32)
                .filter(|&id| {
                    let p = texts[id as usize].1;
                    id < below
                        && (project.is_none() || p.is_none() || p == project)
                        && similar(&q, &keys[id as usize], t)
                })
                .collect();
            proptest::prop_assert_eq!(offered, expect);
        }
    }
}
