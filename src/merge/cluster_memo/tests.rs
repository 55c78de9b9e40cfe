use super::*;
use crate::item::{Location, SourceKind};
use proptest::prelude::*;

fn item(
    line: u32,
    text: &str,
    project: Option<&str>,
    day: Option<i8>,
    private: Option<u64>,
) -> Item {
    Item {
        text: text.to_string(),
        norm: crate::normalize::key(text).into(),
        private,
        project: project.map(Into::into),
        kind: SourceKind::ProjectTodos,
        loc: Location {
            path: "projects/p/todos.md".into(),
            line,
        },
        date: day.map(|d| jiff::civil::date(2026, 1, d)),
        untagged: None,
        meta: None,
        status: Default::default(),
    }
}

type Spec = (String, Option<usize>, Option<i8>, Option<u64>);

fn items(specs: &[Spec]) -> Vec<Item> {
    let projects = ["a", "b", "c"];
    specs
        .iter()
        .enumerate()
        .map(|(n, (text, p, day, private))| {
            item(n as u32 + 1, text, p.map(|p| projects[p]), *day, *private)
        })
        .collect()
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        "(fix|add|fixes|ad|remove) (lock|log|lock timeout|x1|x2|v0.1.0|a.rs) ?(now|later|)",
        proptest::option::of(0..3usize),
        proptest::option::of(1i8..28),
        proptest::option::weighted(0.1, 0..2u64),
    )
}

/// One edit of a run's item list: remove, insert or replace an item, or
/// move one (a rank change).
#[derive(Debug, Clone)]
enum Edit {
    Remove(usize),
    Insert(usize, Spec),
    Replace(usize, Spec),
    Move(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Remove),
        (any::<usize>(), spec()).prop_map(|(n, s)| Edit::Insert(n, s)),
        (any::<usize>(), spec()).prop_map(|(n, s)| Edit::Replace(n, s)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Move(a, b)),
    ]
}

fn apply(specs: &mut Vec<Spec>, e: &Edit) {
    let n = specs.len();
    match e {
        Edit::Remove(at) if n > 0 => {
            specs.remove(at % n);
        }
        Edit::Insert(at, s) => specs.insert(at % (n + 1), s.clone()),
        Edit::Replace(at, s) if n > 0 => specs[at % n] = s.clone(),
        Edit::Move(a, b) if n > 0 => {
            let s = specs.remove(a % n);
            specs.insert(b % n, s);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn runs_after_edits_cluster_like_a_fresh_run(
        start in proptest::collection::vec(spec(), 0..30),
        steps in proptest::collection::vec(proptest::collection::vec(edit(), 0..4), 1..5),
        t in 0.6f64..0.95,
    ) {
        let mut memo = ClusterMemo::with_salt([7, 8]);
        let mut specs = start;
        let first = items(&specs);
        prop_assert_eq!(cluster_with(&first, t, Some(&mut memo)), cluster(&first, t));
        for edits in &steps {
            for e in edits {
                apply(&mut specs, e);
            }
            let now = items(&specs);
            prop_assert_eq!(cluster_with(&now, t, Some(&mut memo)), cluster(&now, t));
            // The memo left is the one a run without a memo would leave.
            let mut cold = ClusterMemo::with_salt([7, 8]);
            cluster_with(&now, t, Some(&mut cold));
            prop_assert_eq!(&memo, &cold);
        }
    }
}

fn sample() -> Vec<Item> {
    items(&[
        ("fix lock timeout quick".into(), None, Some(3), None),
        ("fix lock timeout quickly".into(), Some(0), Some(5), None),
        ("add log".into(), None, None, None),
        ("fix lock timeout".into(), Some(2), Some(1), None),
    ])
}

#[test]
fn malformed_memos_are_unusable() {
    let t = 0.85;
    let mut memo = ClusterMemo::with_salt([2, 2]);
    cluster_with(&sample(), t, Some(&mut memo));
    assert!(memo.usable(t));
    assert!(memo.edges() > 0);
    assert!(!memo.usable(0.9));
    let mut bad = memo.clone();
    bad.edges[0] = 99;
    assert!(!bad.usable(t));
    let mut bad = memo.clone();
    bad.texts.swap(0, 1);
    assert!(!bad.usable(t));
    let mut bad = memo.clone();
    bad.starts.pop();
    assert!(!bad.usable(t));
    let mut bad = memo.clone();
    bad.version += 1;
    assert!(!bad.usable(t));
    // An unusable memo is replaced by this run's graph.
    assert_eq!(
        cluster_with(&sample(), t, Some(&mut bad)),
        cluster(&sample(), t)
    );
    assert_eq!(bad, memo);
    let back: ClusterMemo = serde_json::from_str(&serde_json::to_string(&memo).unwrap()).unwrap();
    assert_eq!(back, memo);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The index (first runs) and the listed bounds (everyday runs) find
    /// the same pairs, whatever part of the texts is fresh.
    #[test]
    fn both_ways_of_comparing_find_the_same_pairs(
        before in proptest::collection::vec(spec(), 0..30),
        now in proptest::collection::vec(spec(), 0..30),
        t in 0.6f64..0.95,
    ) {
        let mut memo = ClusterMemo::with_salt([3, 9]);
        cluster_with(&items(&before), t, Some(&mut memo));
        let now = items(&now);
        for memo in [memo, ClusterMemo::with_salt([3, 9])] {
            let Some(g) = Graph::build(&now, t, &memo) else {
                continue;
            };
            let keys: Vec<Option<Key<'_>>> =
                (0..g.ids.len()).map(|n| g.fresh[n].then(|| g.key(n))).collect();
            let fresh: Vec<u32> = (0..g.ids.len() as u32).filter(|&n| g.fresh[n as usize]).collect();
            let budget = || AtomicUsize::new(usize::MAX - 1);
            let mut a = g.compare_indexed(&keys, &fresh, t, &budget());
            let mut b = g.compare_listed(&keys, &fresh, t, &budget());
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn texts_matching_in_too_many_pairs_are_clustered_without_a_graph() {
    let t = 0.85;
    // Every pair of these matches: far more pairs than the budget allows.
    let specs: Vec<Spec> = (0..300u32)
        .map(|i| {
            let name: String = [i % 26, (i / 26) % 26]
                .iter()
                .map(|&c| char::from(b'a' + c as u8))
                .collect();
            (format!("fix the thing called {name}"), None, None, None)
        })
        .collect();
    let all = items(&specs);
    let mut memo = ClusterMemo::with_salt([4, 4]);
    assert_eq!(cluster_with(&all, t, Some(&mut memo)), cluster(&all, t));
    assert_eq!(memo.texts(), 0);
    // 80 of them: within the whole run's budget, but a text matching more
    // than 64 others gives the graph up as well.
    let some = items(&specs[..80]);
    assert_eq!(cluster_with(&some, t, Some(&mut memo)), cluster(&some, t));
    assert_eq!(memo.texts(), 0);
    // A few of them fit, and are remembered.
    let few = items(&specs[..20]);
    assert_eq!(cluster_with(&few, t, Some(&mut memo)), cluster(&few, t));
    assert_eq!(memo.texts(), 20);
}
