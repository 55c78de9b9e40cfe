use super::{Matches, TextKey, order_key};
use jiff::civil::Date;
use proptest::prelude::*;

/// Texts that share their first eight bytes, are shorter than eight,
/// hold a NUL byte, or are not ASCII.
const TEXTS: &[&str] = &[
    "",
    "a",
    "ab",
    "ab\0",
    "ab\0x",
    "fix the lock",
    "fix the lock timeout",
    "fix the log",
    "fix thf",
    "été",
    "étés",
    "zzzzzzzz",
    "zzzzzzzzz",
];

fn matches(undated: bool, latest: Option<Date>) -> Matches {
    Matches {
        any: true,
        undated,
        latest,
    }
}

fn entries() -> impl Strategy<Value = Vec<(TextKey<'static>, Matches)>> {
    let date = prop_oneof![
        Just(None),
        (-9999i16..=9999, 1i8..=12, 1i8..=28)
            .prop_map(|(y, m, d)| Some(Date::new(y, m, d).unwrap())),
        (2024i16..=2025, 1i8..=12, 1i8..=28)
            .prop_map(|(y, m, d)| Some(Date::new(y, m, d).unwrap())),
    ];
    proptest::collection::vec(
        (
            proptest::sample::select(TEXTS),
            proptest::option::of(proptest::sample::select(&["p", "q"][..])),
            proptest::option::of(0u64..2),
            any::<bool>(),
            date,
        ),
        0..24,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .map(|(n, p, x, undated, latest)| ((n, p, x), matches(undated, latest)))
            .collect()
    })
}

proptest! {
    /// Sorting by the packed integers, then by the key, gives the order
    /// the rule states: undated first, then newest first, then by key.
    #[test]
    fn the_packed_order_is_the_entry_order(list in entries()) {
        let by_rule = |a: &(TextKey<'_>, Matches), b: &(TextKey<'_>, Matches)| {
            (!a.1.undated, std::cmp::Reverse(a.1.latest), a.0)
                .cmp(&(!b.1.undated, std::cmp::Reverse(b.1.latest), b.0))
        };
        let mut expect = list.clone();
        expect.sort_by(by_rule);
        let mut got = list.clone();
        got.sort_by(|a, b| order_key(a.0.0, &a.1).cmp(&order_key(b.0.0, &b.1)).then_with(|| a.0.cmp(&b.0)));
        // Equal entries may swap: compare what the rule sees.
        for (g, e) in got.iter().zip(&expect) {
            prop_assert_eq!(by_rule(g, e), std::cmp::Ordering::Equal);
        }
    }
}
