//! The merge's pairwise-answer memo (`merge::PairMemo`): a run given the
//! memo of an earlier run gives exactly what a fresh run gives, whatever
//! changed in between; a tampered memo can never make texts match.

use crate::props::{items, opt_day, signal, summary, threshold};
use active_status::item::{Item, Location, Signal, SourceKind};
use active_status::merge::{KEEP_UNKNOWN, Merged, PairMemo, merge, merge_with};
use active_status::normalize::key;
use proptest::prelude::*;
use proptest::sample::subsequence;

/// Everything a merge result says, comparable across runs.
fn all(m: &Merged) -> impl PartialEq + std::fmt::Debug + use<> {
    (summary(m), m.resolutions.clone(), m.forwarded_open.clone())
}

/// The second run's input: some items and signals of the first kept, new ones added.
fn edited(
    first: Vec<Item>,
    signals: Vec<Signal>,
) -> impl Strategy<Value = (Vec<Item>, Vec<Signal>)> {
    let (ni, ns) = (first.len(), signals.len());
    (
        subsequence(first, 0..=ni),
        items(),
        subsequence(signals, 0..=ns),
        prop::collection::vec(signal(), 0..4),
    )
        .prop_map(|(mut kept, added, mut kept_signals, added_signals)| {
            let taken: std::collections::BTreeSet<_> = kept.iter().map(|i| i.loc.clone()).collect();
            kept.extend(
                added
                    .into_iter()
                    .filter(|i| !taken.contains(&i.loc))
                    .take(6),
            );
            kept_signals.extend(added_signals);
            (kept, kept_signals)
        })
}

fn two_runs() -> impl Strategy<Value = (Vec<Item>, Vec<Signal>, Vec<Item>, Vec<Signal>)> {
    (items(), prop::collection::vec(signal(), 0..10)).prop_flat_map(|(i1, s1)| {
        (Just(i1.clone()), Just(s1.clone()), edited(i1, s1))
            .prop_map(|(i1, s1, (i2, s2))| (i1, s1, i2, s2))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_memo_from_the_last_run_changes_nothing(
        (i1, s1, i2, s2) in two_runs(),
        as_of in opt_day(),
        t in threshold(),
    ) {
        let mut memo = PairMemo::with_salt([7, 11]);
        let first = merge_with(i1.clone(), &s1, as_of, t, Some(&mut memo));
        prop_assert_eq!(all(&first), all(&merge(i1, &s1, as_of, t)));
        let second = merge_with(i2.clone(), &s2, as_of, t, Some(&mut memo));
        prop_assert_eq!(all(&second), all(&merge(i2.clone(), &s2, as_of, t)));
        // A third run on the same input answers every text from the memo.
        let third = merge_with(i2.clone(), &s2, as_of, t, Some(&mut memo));
        prop_assert_eq!(all(&third), all(&merge(i2, &s2, as_of, t)));
    }

    #[test]
    fn a_memo_kept_as_it_was_changes_nothing(
        (i1, s1, i2, s2) in two_runs(),
        as_of in opt_day(),
        t in threshold(),
    ) {
        let mut memo = PairMemo::with_salt([5, 9]);
        merge_with(i1.clone(), &s1, as_of, t, Some(&mut memo));
        let before = memo.clone();
        memo.keep_if_few();
        let second = merge_with(i2.clone(), &s2, as_of, t, Some(&mut memo));
        prop_assert_eq!(all(&second), all(&merge(i2, &s2, as_of, t)));
        if memo.kept() {
            // Left as it was: the answers of the first run, not the second's.
            prop_assert_eq!(&memo, &before);
            prop_assert!(memo.unknown() <= KEEP_UNKNOWN);
        }
        // A later run given the older memo still agrees with a fresh one.
        let third = merge_with(i1.clone(), &s1, as_of, t, Some(&mut memo));
        prop_assert_eq!(all(&third), all(&merge(i1, &s1, as_of, t)));
    }

    #[test]
    fn a_memo_for_another_threshold_is_not_used(
        (i1, s1, i2, s2) in two_runs(),
        as_of in opt_day(),
    ) {
        let mut memo = PairMemo::new();
        merge_with(i1, &s1, as_of, 0.6, Some(&mut memo));
        let second = merge_with(i2.clone(), &s2, as_of, 0.85, Some(&mut memo));
        prop_assert_eq!(all(&second), all(&merge(i2, &s2, as_of, 0.85)));
    }

    #[test]
    fn remembered_matches_are_checked_before_use(
        (i1, s1, i2, s2) in two_runs(),
        as_of in opt_day(),
        t in threshold(),
    ) {
        let mut memo = PairMemo::with_salt([1, 2]);
        merge_with(i1, &s1, as_of, t, Some(&mut memo));
        // Tamper: claim that every item text matches every entry text.
        let mut v = serde_json::to_value(&memo).unwrap();
        // The entries are one byte string of 16-byte identities.
        let n = v["entries"].as_array().unwrap().len() / 16;
        // The queries are (identities, bounds, lists): every list made "all".
        for list in v["queries"][2].as_array_mut().unwrap() {
            *list = serde_json::json!((0..n).collect::<Vec<_>>());
        }
        let mut forged: PairMemo = serde_json::from_value(v).unwrap();
        let second = merge_with(i2.clone(), &s2, as_of, t, Some(&mut forged));
        prop_assert_eq!(all(&second), all(&merge(i2, &s2, as_of, t)));
    }
}

#[test]
fn a_memo_round_trips_through_json_and_is_refilled() {
    let mut memo = PairMemo::with_salt([3, 4]);
    assert_eq!((memo.entries(), memo.queries()), (0, 0));
    let loc = |line: usize| Location {
        path: "journal/2026-05-01.md".into(),
        line: line as u32,
    };
    let item = |text: &str| Item {
        text: text.into(),
        norm: key(text).into(),
        private: None,
        project: Some("p".into()),
        kind: SourceKind::JournalNext,
        loc: loc(text.len()),
        date: None,
        untagged: None,
        meta: None,
        status: Default::default(),
    };
    let signal = |text: &str| Signal {
        text: text.into(),
        norm: key(text).into(),
        private: None,
        project: Some("p".into()),
        date: None,
        loc: loc(100 + text.len()),
    };
    let items = vec![item("add lock timeout"), item("write docs")];
    let signals = vec![signal("add lock timeouts"), signal("fix race")];
    let m = merge_with(items.clone(), &signals, None, 0.85, Some(&mut memo));
    assert_eq!(m.resolved, 1);
    assert_eq!((memo.entries(), memo.queries()), (2, 2));
    let back: PairMemo = serde_json::from_str(&serde_json::to_string(&memo).unwrap()).unwrap();
    assert_eq!(back, memo);
    let mut memo = back;
    let m2 = merge_with(items, &signals[1..], None, 0.85, Some(&mut memo));
    assert_eq!(m2.resolved, 0);
    assert_eq!((memo.entries(), memo.queries()), (1, 2));
}

#[test]
fn a_memo_is_kept_only_when_few_texts_are_new() {
    let loc = |line: usize| Location {
        path: "journal/2026-05-01.md".into(),
        line: line as u32,
    };
    let item = |n: usize, text: &str| Item {
        text: text.into(),
        norm: key(text).into(),
        private: None,
        project: Some("p".into()),
        kind: SourceKind::JournalNext,
        loc: loc(n),
        date: None,
        untagged: None,
        meta: None,
        status: Default::default(),
    };
    let signals = vec![Signal {
        text: "ship the index".into(),
        norm: key("ship the index").into(),
        private: None,
        project: Some("p".into()),
        date: None,
        loc: loc(1000),
    }];
    let base: Vec<Item> = vec![item(1, "ship the index"), item(2, "write the docs")];
    let mut memo = PairMemo::with_salt([2, 3]);
    merge_with(base.clone(), &signals, None, 0.85, Some(&mut memo));
    let before = memo.clone();
    // A few new texts: kept.
    let mut few = base.clone();
    few.push(item(3, "rotate the token"));
    memo.keep_if_few();
    let m = merge_with(few.clone(), &signals, None, 0.85, Some(&mut memo));
    assert_eq!(all(&m), all(&merge(few, &signals, None, 0.85)));
    assert!(memo.kept());
    assert_eq!((memo.unknown(), &memo), (1, &before));
    // More new texts than KEEP_UNKNOWN: the memo is refilled.
    let mut many = base.clone();
    many.extend(
        (0..=KEEP_UNKNOWN).map(|n| item(10 + n, &format!("task number {n} of a long list"))),
    );
    memo.keep_if_few();
    let m = merge_with(many.clone(), &signals, None, 0.85, Some(&mut memo));
    assert_eq!(all(&m), all(&merge(many.clone(), &signals, None, 0.85)));
    assert!(!memo.kept());
    assert_eq!(memo.unknown(), KEEP_UNKNOWN + 1);
    assert_eq!(memo.queries(), KEEP_UNKNOWN + 3);
    // A read-only caller keeps it whatever the run meets.
    let before = memo.clone();
    let mut more = many;
    more.extend((0..=KEEP_UNKNOWN).map(|n| item(200 + n, &format!("another entry {n} to read"))));
    memo.keep_always();
    let m = merge_with(more.clone(), &signals, None, 0.85, Some(&mut memo));
    assert_eq!(all(&m), all(&merge(more, &signals, None, 0.85)));
    assert!(memo.kept());
    assert_eq!(memo, before);
}
