//! Step 3 of the merge: greedy clustering of open items already in rank
//! order (docs/FORMAT.md §5). Item `i` joins the first cluster (lowest
//! number) whose representative it matches and whose project it may join,
//! or starts a new one.
//!
//! Only distinct texts are clustered: an item with the same (matching key,
//! private mark, project) as an earlier one joins the earlier one's cluster
//! and changes nothing else (see `distinct`).
//!
//! Candidates are found a batch of items at a time (in parallel when the
//! batch holds more than one), and the batch is then decided in order, so
//! the result never depends on threads:
//! - against the clusters that exist when the batch starts (found with the
//!   similarity index, see `older_candidates`): inside a batch a cluster's
//!   project only goes from none to one, so what an item may join only
//!   shrinks, and the first listed cluster still open to the item when it
//!   is decided is its first matching cluster among them;
//! - against the earlier items of the same batch: those of the same token
//!   class, inside the index's length window, whose own project does not
//!   exclude the item. At decision time the first of them that started a
//!   cluster still open to the item and matches it is the candidate; these
//!   clusters are numbered after every older one.

use super::{Cluster, Key, SimIndex, similar};
use super::{MAX_COMPARED, visible};
use crate::item::Item;
use rayon::prelude::*;

/// Items decided per step: the earlier items of the batch are compared
/// pairwise, so the batch stays small. One, measured on a quiet 2-core
/// machine (docs/PERFORMANCE.md, "Clustering batch size"): batches of 64
/// made clustering 100k items 466 ms against 354 ms, because each batch's
/// fork and join cost more than the second core saved. A batch of one runs
/// on the calling thread; the batched path stays (property-tested for
/// every size) for machines with more cores.
const BATCH: usize = 1;

/// Step 3: greedy clustering of items already in rank order: from the
/// matches of every distinct text, found on all cores (`cluster_graph`),
/// or one item at a time when the texts match in too many pairs.
pub fn cluster(items: &[Item], threshold: f64) -> Vec<Cluster> {
    cluster_counted(items, threshold).0
}

/// [`cluster`], with the number of distinct texts whose search stopped at
/// [`MAX_COMPARED`] comparisons (each may have missed a later cluster).
pub(super) fn cluster_counted(items: &[Item], threshold: f64) -> (Vec<Cluster>, usize) {
    let (firsts, of) = distinct(items);
    let firsts: Vec<&Item> = firsts.into_iter().map(|i| &items[i]).collect();
    let keys = keys_of(&firsts);
    let budget = super::cluster_graph::match_budget(firsts.len());
    let (assigned, capped) = match super::cluster_graph::assign(&firsts, &keys, threshold, budget) {
        Some(assigned) => (assigned, 0),
        None => assign(&firsts, &keys, threshold, BATCH, MAX_COMPARED),
    };
    (gather(items, &of, &assigned), capped)
}

/// The matching keys of `items`, on all cores.
fn keys_of<'a>(items: &[&'a Item]) -> Vec<Key<'a>> {
    items
        .par_iter()
        .map(|i| Key::with_private(&i.norm, i.private))
        .collect()
}

/// The first item of each distinct (matching key, private mark, project),
/// in item order, and for every item the number of its text in that list.
///
/// Clustering the first items alone gives every item its cluster: a later
/// item `y` with the text of an earlier `x` joins `x`'s cluster. The
/// clusters before that one did not take `x`: each either did not match
/// it (and matches `y` no more: same key and mark, and a representative
/// never changes) or was closed to its project (and stays closed: a
/// cluster's project only goes from none to one). That cluster itself
/// matches `y` as it matched `x` (a key always matches itself) and is
/// still open to `y`: `x` joined or started it, so its project is none,
/// or `x`'s which is `y`'s, or `x` had none and neither has `y`. And `y`
/// changes nothing: its project is already the cluster's or none.
fn distinct(items: &[Item]) -> (Vec<usize>, Vec<u32>) {
    let texts: Vec<(&str, Option<u64>, Option<&str>)> = items
        .iter()
        .map(|item| (&*item.norm, item.private, item.project.as_deref()))
        .collect();
    let (of, firsts) = super::distinct::number_distinct(&texts);
    (firsts.into_iter().map(|f| f as usize).collect(), of)
}

/// [`cluster`] deciding `batch` items at a time, never from the graph (the
/// tests hold both to the definition).
#[cfg(test)]
pub(super) fn cluster_batched(items: &[Item], threshold: f64, batch: usize) -> Vec<Cluster> {
    let (firsts, of) = distinct(items);
    let firsts: Vec<&Item> = firsts.into_iter().map(|i| &items[i]).collect();
    let (assigned, _) = assign(&firsts, &keys_of(&firsts), threshold, batch, MAX_COMPARED);
    gather(items, &of, &assigned)
}

/// The clusters of every item, from the cluster number of each distinct
/// text (`assigned`) and each item's text (`of`).
fn gather(items: &[Item], of: &[u32], assigned: &[u32]) -> Vec<Cluster> {
    let mut clusters: Vec<Cluster> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let cid = assigned[of[i] as usize] as usize;
        if cid == clusters.len() {
            // Clusters are numbered in the order their first item comes.
            clusters.push(Cluster::start(i, item));
            continue;
        }
        clusters[cid].join(i, item);
    }
    clusters
}

impl Cluster {
    /// The cluster item `i` starts.
    pub(super) fn start(i: usize, item: &Item) -> Cluster {
        Cluster {
            members: vec![i],
            project: item.project_owned(),
            first_seen: item.date,
            last_seen: item.date,
        }
    }

    /// Item `i` joins: the dates widen, and a cluster without a project takes
    /// the item's.
    pub(super) fn join(&mut self, i: usize, item: &Item) {
        self.members.push(i);
        if let Some(d) = item.date {
            self.first_seen = Some(self.first_seen.map_or(d, |f| f.min(d)));
            self.last_seen = Some(self.last_seen.map_or(d, |l| l.max(d)));
        }
        if self.project.is_none() && item.project.is_some() {
            self.project = item.project_owned();
        }
    }
}

/// What the search of one item found: the older clusters it may join (and
/// whether the search stopped at the cap), and the earlier items of its batch.
type Found = ((Vec<u32>, bool), Vec<usize>);

/// The cluster number of each item (distinct texts, in rank order): the
/// greedy definition, decided a batch at a time; and the number of texts
/// whose search stopped at `cap` comparisons ([`MAX_COMPARED`]).
fn assign(
    items: &[&Item],
    keys: &[Key<'_>],
    threshold: f64,
    batch: usize,
    cap: usize,
) -> (Vec<u32>, usize) {
    // Per cluster: its project and its representative (first item).
    let mut projects: Vec<Option<&str>> = Vec::new();
    let mut rep_of: Vec<usize> = Vec::new();
    let mut assigned: Vec<u32> = Vec::with_capacity(items.len());
    // The cluster an item started, if it did.
    let mut started: Vec<Option<u32>> = vec![None; items.len()];
    let mut index = SimIndex::default();
    let mut capped = 0;
    let mut from = 0;
    while from < items.len() {
        let to = (from + batch.max(1)).min(items.len());
        let find = |i: usize| {
            let (q, project) = (&keys[i], items[i].project.as_deref());
            let older = older_candidates(&index, keys, &rep_of, q, project, threshold, cap);
            let (lo, hi) = super::index::window(q.len, threshold);
            // Cheap conditions only: `similar` runs at decision time, on
            // the few that started a cluster.
            let earlier: Vec<usize> = (from..i)
                .filter(|&j| {
                    let k = &keys[j];
                    k.class == q.class
                        && (lo..=hi).contains(&k.len)
                        && visible(items[j].project.as_deref(), project)
                })
                .collect();
            (older, earlier)
        };
        // One item: no fork and join (each costs more than its search).
        let found: Vec<Found> = if to - from == 1 {
            vec![find(from)]
        } else {
            (from..to).into_par_iter().map(find).collect()
        };
        for (i, ((older, stopped), earlier)) in (from..to).zip(found) {
            capped += usize::from(stopped);
            let project = items[i].project.as_deref();
            let open = |cid: u32| visible(projects[cid as usize], project);
            let best = older.iter().copied().find(|&cid| open(cid)).or_else(|| {
                earlier.iter().find_map(|&j| {
                    started[j].filter(|&cid| {
                        open(cid) && similar(&keys[i], &keys[rep_of[cid as usize]], threshold)
                    })
                })
            });
            match best {
                Some(cid) => {
                    assigned.push(cid);
                    let c = &mut projects[cid as usize];
                    if c.is_none() && project.is_some() {
                        let rep = &keys[rep_of[cid as usize]];
                        index.remove(None, rep, cid);
                        *c = project;
                        index.insert(project, rep, cid);
                    }
                }
                None => {
                    let cid = projects.len() as u32;
                    assigned.push(cid);
                    projects.push(project);
                    rep_of.push(i);
                    started[i] = Some(cid);
                    index.insert(project, &keys[i], cid);
                }
            }
        }
        from = to;
    }
    (assigned, capped)
}

/// The clusters existing at the start of a batch that the query may join,
/// ascending; the first one still open to it at decision time is its
/// cluster among them. An untagged query sees every cluster for good: only
/// the first match is needed. A query of project `p` keeps seeing the
/// clusters of `p`: the first match there, after every untagged cluster
/// below it that matches (one of those may take another project first).
/// True beside them when the search stopped at `cap` comparisons.
fn older_candidates(
    index: &SimIndex,
    keys: &[Key<'_>],
    rep_of: &[usize],
    q: &Key<'_>,
    project: Option<&str>,
    threshold: f64,
    cap: usize,
) -> (Vec<u32>, bool) {
    // Comparisons made, and whether a candidate was left for the cap.
    let (compared, stopped) = (std::cell::Cell::new(0usize), std::cell::Cell::new(false));
    let over = || {
        let over = compared.get() >= cap;
        stopped.set(stopped.get() || over);
        over
    };
    let matches = |cid: u32| {
        compared.set(compared.get() + 1);
        similar(q, &keys[rep_of[cid as usize]], threshold)
    };
    let mut first = u32::MAX;
    let mut first_match = |bucket: super::Rows<'_>| {
        bucket.scan(q, threshold, first, |cid| {
            if over() {
                return false;
            }
            if matches(cid) {
                first = cid;
                return false;
            }
            true
        });
        !stopped.get()
    };
    let mut found = Vec::new();
    match project {
        None => index.candidates(None, q, threshold, &mut first_match),
        Some(_) => {
            index.group_candidates(project, q, threshold, &mut first_match);
            if !stopped.get() {
                index.group_candidates(None, q, threshold, |bucket| {
                    bucket.scan(q, threshold, first, |cid| {
                        if over() {
                            return false;
                        }
                        if matches(cid) {
                            found.push(cid);
                        }
                        true
                    })
                });
            }
            found.sort_unstable();
        }
    }
    if first != u32::MAX {
        found.push(first);
    }
    (found, stopped.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::{Location, SourceKind};
    use proptest::prelude::*;

    /// The definition: the first cluster (in creation order) whose
    /// representative matches and whose project the item may join.
    fn brute_force(items: &[Item], t: f64) -> Vec<Cluster> {
        let mut clusters: Vec<Cluster> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let q = Key::with_private(&item.norm, item.private);
            let found = clusters.iter().position(|c| {
                let rep = &items[c.members[0]];
                visible(c.project.as_deref(), item.project.as_deref())
                    && similar(&q, &Key::with_private(&rep.norm, rep.private), t)
            });
            match found {
                Some(n) => {
                    let c = &mut clusters[n];
                    c.members.push(i);
                    if let Some(d) = item.date {
                        c.first_seen = Some(c.first_seen.map_or(d, |f| f.min(d)));
                        c.last_seen = Some(c.last_seen.map_or(d, |l| l.max(d)));
                    }
                    if c.project.is_none() {
                        c.project = item.project_owned();
                    }
                }
                None => clusters.push(Cluster {
                    members: vec![i],
                    project: item.project_owned(),
                    first_seen: item.date,
                    last_seen: item.date,
                }),
            }
        }
        clusters
    }

    fn item(n: usize, norm: String, project: Option<&str>, day: Option<i8>) -> Item {
        Item {
            text: norm.clone(),
            norm: norm.into(),
            private: None,
            project: project.map(Into::into),
            kind: SourceKind::ProjectTodos,
            loc: Location {
                path: "projects/p/todos.md".into(),
                line: n as u32 + 1,
            },
            date: day.map(|d| jiff::civil::date(2026, 1, d)),
            untagged: None,
            meta: None,
            status: Default::default(),
        }
    }

    #[test]
    fn the_search_stops_at_the_cap_and_counts_it() {
        // Different verbs keep these apart (a guard), after the edit
        // distance passed: each is compared in full with every cluster
        // before it. The last matches the fourth cluster only.
        let texts = [
            "fix the lock timeout",
            "add the lock timeout",
            "update the lock timeout",
            "review the lock timeout",
            "review the lock timeouts",
        ];
        let items: Vec<Item> = texts
            .iter()
            .enumerate()
            .map(|(n, t)| item(n, crate::normalize::key(t), Some("p"), None))
            .collect();
        let refs: Vec<&Item> = items.iter().collect();
        let keys = keys_of(&refs);
        let t = 0.5;
        assert_eq!(
            assign(&refs, &keys, t, 1, MAX_COMPARED),
            (vec![0, 1, 2, 3, 3], 0)
        );
        // Two comparisons each: the fourth text stops before the third
        // cluster (it matches none, as before), and the last stops before
        // the fourth and starts a cluster of its own.
        assert_eq!(assign(&refs, &keys, t, 1, 2), (vec![0, 1, 2, 3, 4], 2));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn every_batch_size_gives_the_definition(
            texts in proptest::collection::vec(
                (
                    "(fix|add|fixes|ad) (lock|log|lock timeout|x1|x2|v0.1.0|a.rs) ?(now|later|)",
                    proptest::option::of(0..3usize),
                    proptest::option::of(1i8..28),
                    // Mostly none: a mark keeps equal keys apart.
                    proptest::sample::select(vec![None, None, None, Some(1u64), Some(2)]),
                ),
                0..40,
            ),
            t in 0.6f64..0.95,
            batch in 1usize..9,
        ) {
            // Repeated texts (the pattern has few) take the shortcut of
            // `distinct`; the definition clusters every item.
            let projects = ["a", "b", "c"];
            let items: Vec<Item> = texts
                .into_iter()
                .enumerate()
                .map(|(n, (text, p, day, private))| Item {
                    private,
                    ..item(n, crate::normalize::key(&text), p.map(|p| projects[p]), day)
                })
                .collect();
            let expect = brute_force(&items, t);
            prop_assert_eq!(&cluster_batched(&items, t, batch), &expect);
            prop_assert_eq!(&cluster(&items, t), &expect);
            // The graph alone, with room for every match and with almost
            // none: the definition, or nothing (the caller then clusters
            // one by one).
            let (firsts, of) = distinct(&items);
            let firsts: Vec<&Item> = firsts.into_iter().map(|i| &items[i]).collect();
            let keys = keys_of(&firsts);
            let graph = super::super::cluster_graph::assign(&firsts, &keys, t, usize::MAX);
            prop_assert_eq!(graph.map(|a| gather(&items, &of, &a)), Some(expect.clone()));
            if let Some(a) = super::super::cluster_graph::assign(&firsts, &keys, t, batch - 1) {
                prop_assert_eq!(gather(&items, &of, &a), expect);
            }
        }
    }
}
