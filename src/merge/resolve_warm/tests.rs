use super::super::{PairMemo, resolve_traced, resolve_with};
use crate::item::{Item, Location, Signal, SourceKind};
use proptest::prelude::*;
use std::cell::Cell;

thread_local! {
    /// Forces the choice of [`super::worth_it`] (`None`: by the counts).
    pub(super) static FORCE: Cell<Option<bool>> = const { Cell::new(None) };
}

const TEXTS: &[&str] = &[
    "fix the lock timeout",
    "fix the lock timeouts",
    "fix a lock timeout now",
    "ship the index",
    "ship an index today",
    "rotate the token",
    "add log v1.2",
    "add log v1.3",
    "remove the lock",
    "write the docs",
];
const PROJECTS: &[&str] = &["alpha", "beta"];

/// (text, project, day, private mark)
type Spec = (usize, Option<usize>, Option<i8>, bool);

fn spec() -> impl Strategy<Value = Spec> {
    (
        0..TEXTS.len(),
        proptest::option::of(0..PROJECTS.len()),
        proptest::option::of(1i8..9),
        proptest::bool::weighted(0.1),
    )
}

fn loc(line: usize) -> Location {
    Location {
        path: "journal/2026-05-01.md".into(),
        line: line as u32 + 1,
    }
}

fn item(n: usize, &(t, p, d, private): &Spec) -> Item {
    Item {
        text: TEXTS[t].into(),
        norm: crate::normalize::key(TEXTS[t]).into(),
        private: private.then_some(7),
        project: p.map(|p| PROJECTS[p].into()),
        kind: SourceKind::JournalNext,
        loc: loc(n),
        date: d.map(|d| jiff::civil::date(2026, 5, d)),
        untagged: None,
        meta: None,
        status: Default::default(),
    }
}

fn signal(n: usize, &(t, p, d, private): &Spec) -> Signal {
    Signal {
        text: TEXTS[t].into(),
        norm: crate::normalize::key(TEXTS[t]).into(),
        private: private.then_some(7),
        project: p.map(|p| PROJECTS[p].into()),
        date: d.map(|d| jiff::civil::date(2026, 5, d)),
        loc: loc(100 + n),
    }
}

fn specs() -> impl Strategy<Value = Vec<Spec>> {
    proptest::collection::vec(spec(), 0..14)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    /// After a first run, a second run on edited input gives the same
    /// answers (and leaves the same memo) answered here or by the full
    /// comparison, and both equal a run without a memo.
    #[test]
    fn answers_equal_the_full_comparison(
        (i1, s1, i2, s2) in (specs(), specs(), specs(), specs()),
        t in 0.6f64..0.95,
    ) {
        let items = |s: &[Spec]| s.iter().enumerate().map(|(n, x)| item(n, x)).collect::<Vec<_>>();
        let signals = |s: &[Spec]| s.iter().enumerate().map(|(n, x)| signal(n, x)).collect::<Vec<_>>();
        let mut memo = PairMemo::with_salt([5, 5]);
        resolve_with(items(&i1), &signals(&s1), t, Some(&mut memo));
        let expect = resolve_traced(items(&i2), &signals(&s2), t);
        let mut memos = Vec::new();
        for forced in [true, false] {
            let mut m = memo.clone();
            FORCE.with(|f| f.set(Some(forced)));
            let got = resolve_with(items(&i2), &signals(&s2), t, Some(&mut m));
            FORCE.with(|f| f.set(None));
            prop_assert_eq!(&got, &expect);
            memos.push(m);
        }
        prop_assert_eq!(&memos[0], &memos[1]);
    }
}
