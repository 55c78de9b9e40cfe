//! A similarity index built once over a fixed list of entries (resolution's
//! Done entries) and never changed: the same candidates as [`SimIndex`]
//! filled by `insert`, laid out flat. Every group's buckets are runs of
//! rows in one array of ids and one set of mask columns, so the index is a
//! handful of allocations whatever the number of projects and lengths (the
//! `SimIndex` of the L benchmark vault held about 11 MB in boxed buckets,
//! tree leaves and half-empty vectors for 36 k entries; this layout holds
//! 52 bytes per entry and group: its id, its bigram mask and its clamped
//! character counts).
//!
//! [`SimIndex`]: super::SimIndex

use super::index::{Rows, window};
use super::similarity::{Key, Nibbles, Shape};
use rayon::slice::ParallelSliceMut;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;

/// One run of rows: the entries of a group with one character count.
#[derive(Clone, Copy, Debug)]
struct Run {
    len: u32,
    /// The run's first row; it ends where the next run starts.
    start: u32,
}

/// Entries grouped by (project, token class) and, for untagged queries, by
/// token class alone; each group's runs sorted by character count, each
/// run's rows by id.
#[derive(Default, Debug)]
pub(super) struct FrozenIndex<'k> {
    /// Project name → its number (untagged is 0).
    projects: HashMap<&'k str, u32>,
    /// (project, token class) → its runs.
    groups: HashMap<(u32, u64), Range<u32>>,
    /// Token class → its runs over every project.
    all: HashMap<u64, Range<u32>>,
    runs: Vec<Run>,
    ids: Vec<u32>,
    cols: [Vec<u64>; 4],
    sigs: Vec<Nibbles>,
}

/// An entry of the index: its project's number (untagged is 0), its
/// key's character count and token class, its id.
struct Row {
    project: u32,
    len: u32,
    class: u64,
    id: u32,
}

/// The part of the index's arrays one layout fills.
struct Slots<'s> {
    ids: &'s mut [u32],
    cols: [&'s mut [u64]; 4],
    sigs: &'s mut [Nibbles],
}

impl<'s> Slots<'s> {
    /// Splits the arrays at `at`: the first layout's slots and the second's.
    fn split(
        ids: &'s mut [u32],
        cols: &'s mut [Vec<u64>; 4],
        sigs: &'s mut [Nibbles],
        at: usize,
    ) -> (Self, Self) {
        let (i0, i1) = ids.split_at_mut(at);
        let (s0, s1) = sigs.split_at_mut(at);
        let [c0, c1, c2, c3] = cols;
        let (c0a, c0b) = c0.split_at_mut(at);
        let (c1a, c1b) = c1.split_at_mut(at);
        let (c2a, c2b) = c2.split_at_mut(at);
        let (c3a, c3b) = c3.split_at_mut(at);
        (
            Slots {
                ids: i0,
                cols: [c0a, c1a, c2a, c3a],
                sigs: s0,
            },
            Slots {
                ids: i1,
                cols: [c0b, c1b, c2b, c3b],
                sigs: s1,
            },
        )
    }
}

impl<'k> FrozenIndex<'k> {
    /// The index of `entries`, each `(project, id)` with the shape
    /// `shapes[id]`: the same as inserting each `(project, key, id)` into a
    /// [`super::SimIndex`] (ids are distinct). The shapes are read while it
    /// is built only: the index holds what the scan's bounds need.
    pub(super) fn build(
        shapes: &[Shape],
        entries: impl Iterator<Item = (Option<&'k str>, u32)>,
    ) -> Self {
        let mut projects: HashMap<&'k str, u32> = HashMap::default();
        let rows: Vec<Row> = entries
            .map(|(project, id)| {
                let p = project.map_or(0, |p| {
                    let next = projects.len() as u32 + 1;
                    *projects.entry(p).or_insert(next)
                });
                let s = &shapes[id as usize];
                Row {
                    project: p,
                    len: s.len,
                    class: s.class,
                    id,
                }
            })
            .collect();
        // The two layouts (by project group, and across projects) are
        // independent: each sorts its own order of the rows and is laid out
        // on its own core, into its own half of the arrays. Ids are
        // distinct, so both orders are total (and an unstable sort exact).
        let n = rows.len();
        let order = || (0..n as u32).collect::<Vec<u32>>();
        let (mut by_group, mut by_class) = (order(), order());
        let mut ids = vec![0u32; 2 * n];
        let mut cols: [Vec<u64>; 4] = std::array::from_fn(|_| vec![0u64; 2 * n]);
        let mut sigs = vec![Nibbles::default(); 2 * n];
        let (first, second) = Slots::split(&mut ids, &mut cols, &mut sigs, n);
        let row = |r: &u32| &rows[*r as usize];
        let ((mut runs, groups), (more_runs, all)) = rayon::join(
            || {
                by_group.par_sort_unstable_by_key(|r| {
                    let r = row(r);
                    (r.project, r.class, r.len, r.id)
                });
                lay_out(by_group.iter().map(row), shapes, first, 0, |r| {
                    (r.project, r.class)
                })
            },
            || {
                by_class.par_sort_unstable_by_key(|r| {
                    let r = row(r);
                    (r.class, r.len, r.id)
                });
                lay_out(by_class.iter().map(row), shapes, second, n as u32, |r| {
                    r.class
                })
            },
        );
        // The second layout's runs follow the first's.
        let shift = runs.len() as u32;
        runs.extend(more_runs);
        let all = all
            .into_iter()
            .map(|(class, r)| (class, r.start + shift..r.end + shift))
            .collect();
        FrozenIndex {
            projects,
            groups,
            all,
            runs,
            ids,
            cols,
            sigs,
        }
    }

    /// The rows of run `r`.
    fn rows(&self, r: usize) -> Rows<'_> {
        let start = self.runs[r].start as usize;
        let end = self
            .runs
            .get(r + 1)
            .map_or(self.ids.len(), |next| next.start as usize);
        let [c0, c1, c2, c3] = &self.cols;
        Rows {
            len: self.runs[r].len as usize,
            ids: &self.ids[start..end],
            sigs: &self.sigs[start..end],
            cols: [
                &c0[start..end],
                &c1[start..end],
                &c2[start..end],
                &c3[start..end],
            ],
        }
    }

    /// Visits the runs of `group` inside the length window of `q`; false
    /// when `visit` asked to stop.
    fn scan_group(
        &self,
        group: &Range<u32>,
        q: &Key<'_>,
        threshold: f64,
        visit: &mut impl FnMut(Rows<'_>) -> bool,
    ) -> bool {
        let (lo, hi) = window(q.len, threshold);
        let runs = &self.runs[group.start as usize..group.end as usize];
        let first = runs.partition_point(|r| (r.len as usize) < lo);
        for (k, run) in runs[first..].iter().enumerate() {
            if run.len as usize > hi {
                break;
            }
            if !visit(self.rows(group.start as usize + first + k)) {
                return false;
            }
        }
        true
    }

    /// Calls `visit` with every candidate bucket for the query `q` in
    /// `project`, exactly as [`super::SimIndex::candidates`]: of its token
    /// class, the project's own group and the untagged group, or every
    /// entry for an untagged query. `visit` returns false to stop.
    pub(super) fn candidates(
        &self,
        project: Option<&str>,
        q: &Key<'_>,
        threshold: f64,
        mut visit: impl FnMut(Rows<'_>) -> bool,
    ) {
        match project {
            Some(p) => {
                let own = self
                    .projects
                    .get(p)
                    .and_then(|&n| self.groups.get(&(n, q.class)))
                    .is_none_or(|g| self.scan_group(g, q, threshold, &mut visit));
                if own && let Some(g) = self.groups.get(&(0, q.class)) {
                    self.scan_group(g, q, threshold, &mut visit);
                }
            }
            None => {
                if let Some(g) = self.all.get(&q.class) {
                    self.scan_group(g, q, threshold, &mut visit);
                }
            }
        }
    }
}

/// Writes `rows` (sorted by group, then length, then id; each with the
/// shape `shapes[id]`) into `slots`, whose first row is row `first` of the
/// index; returns the runs (each with its first row) and each group's
/// range of runs (counted from the first run returned).
fn lay_out<'r, G: std::hash::Hash + Eq + Copy>(
    rows: impl Iterator<Item = &'r Row>,
    shapes: &[Shape],
    slots: Slots<'_>,
    first: u32,
    group_of: impl Fn(&Row) -> G,
) -> (Vec<Run>, HashMap<G, Range<u32>>) {
    let mut runs: Vec<Run> = Vec::new();
    let mut groups: HashMap<G, Range<u32>> = HashMap::default();
    let mut last: Option<(G, u32)> = None;
    let Slots {
        ids,
        mut cols,
        sigs,
    } = slots;
    for (at, row) in rows.enumerate() {
        let g = group_of(row);
        let len = row.len;
        if last != Some((g, len)) {
            let run = runs.len() as u32;
            groups
                .entry(g)
                .and_modify(|r| r.end = run + 1)
                .or_insert(run..run + 1);
            runs.push(Run {
                len,
                start: first + at as u32,
            });
            last = Some((g, len));
        }
        ids[at] = row.id;
        let shape = &shapes[row.id as usize];
        for (col, word) in cols.iter_mut().zip(shape.bigrams.0) {
            col[at] = word;
        }
        sigs[at] = Nibbles::of(&shape.sig);
    }
    (runs, groups)
}

#[cfg(test)]
mod tests {
    use super::super::SimIndex;
    use super::*;

    /// Every id an index offers for a query, in visiting order, with
    /// `stop` ending the visit (to check that stopping stops both alike);
    /// `candidates` is the index's own search.
    fn offered(
        candidates: impl FnOnce(&mut dyn FnMut(Rows<'_>) -> bool),
        q: &Key<'_>,
        below: u32,
        stop: Option<u32>,
    ) -> Vec<u32> {
        let mut seen = Vec::new();
        candidates(&mut |rows| {
            rows.scan(q, 0.85, below, |id| {
                seen.push(id);
                Some(id) != stop
            })
        });
        seen
    }

    fn by_frozen(
        idx: &FrozenIndex<'_>,
        project: Option<&str>,
        q: &Key<'_>,
        below: u32,
        stop: Option<u32>,
    ) -> Vec<u32> {
        offered(
            |visit| idx.candidates(project, q, 0.85, visit),
            q,
            below,
            stop,
        )
    }

    #[test]
    fn an_empty_index_offers_nothing() {
        let idx = FrozenIndex::default();
        let q = Key::new("abc");
        assert!(by_frozen(&idx, None, &q, u32::MAX, None).is_empty());
        assert!(by_frozen(&idx, Some("a"), &q, u32::MAX, None).is_empty());
    }

    #[test]
    fn candidates_respect_project_and_length() {
        let ten = Key::new("abcdefghij");
        let thirty = Key::new("abcdefghijabcdefghijabcdefghij");
        let shapes = [&ten, &ten, &ten, &thirty].map(Shape::of);
        let rows = [(Some("a"), 0), (Some("b"), 1), (None, 2), (Some("a"), 3)];
        let idx = FrozenIndex::build(&shapes, rows.into_iter());
        let q = Key::new("abcdefghij");
        assert_eq!(by_frozen(&idx, Some("a"), &q, u32::MAX, None), vec![0, 2]);
        assert_eq!(by_frozen(&idx, Some("zz"), &q, u32::MAX, None), vec![2]);
        assert_eq!(by_frozen(&idx, None, &q, u32::MAX, None), vec![0, 1, 2]);
        assert_eq!(by_frozen(&idx, None, &q, 2, None), vec![0, 1]);
        let far = Key::new("zzzzzzzzzz");
        assert!(by_frozen(&idx, None, &far, u32::MAX, None).is_empty());
    }

    proptest::proptest! {
        /// Building at once offers the same ids in the same order as
        /// inserting one by one into a `SimIndex`, for every query, cut-off
        /// and stopping point.
        #[test]
        fn frozen_equals_inserts(
            rows in proptest::collection::vec(("(ab|abc|abd|x1|x2|bca|abcdefgh|abcdefgi) ?(cd|dc|)", proptest::option::of(0..3usize)), 0..40),
            queries in proptest::collection::vec(("(ab|abc|abd|x1|x2|bca|abcdefgh) ?(cd|dc|)", proptest::option::of(0..4usize)), 1..6),
            below in proptest::option::of(0u32..45),
            stop in proptest::option::of(0u32..45),
        ) {
            let keys: Vec<Key<'_>> = rows.iter().map(|(t, _)| Key::new(t)).collect();
            // Project 3 is one no entry has.
            let project = |p: &Option<usize>| p.map(|p| ["a", "b", "c", "d"][p]);
            let mut dynamic = SimIndex::default();
            for (id, ((_, p), k)) in rows.iter().zip(&keys).enumerate() {
                dynamic.insert(project(p), k, id as u32);
            }
            let shapes: Vec<Shape> = keys.iter().map(Shape::of).collect();
            let frozen = FrozenIndex::build(
                &shapes,
                rows.iter().enumerate().map(|(id, (_, p))| (project(p), id as u32)),
            );
            let below = below.unwrap_or(u32::MAX);
            for (text, p) in &queries {
                let q = Key::new(text);
                let dynamic = offered(|visit| dynamic.candidates(project(p), &q, 0.85, visit), &q, below, stop);
                proptest::prop_assert_eq!(by_frozen(&frozen, project(p), &q, below, stop), dynamic);
            }
        }
    }
}
