use super::*;

fn d(s: &str) -> Date {
    s.parse().unwrap()
}

#[test]
fn recency_gain_halves_every_year_and_undated_gets_none() {
    let today = d("2026-05-06");
    assert_eq!(recency(None, today), 1.0);
    assert!((recency(Some(today), today) - 1.1).abs() < 1e-12);
    assert!((recency(Some(d("2025-05-06")), today) - 1.05).abs() < 1e-12);
    // A date after the as-of day counts as the as-of day.
    assert!((recency(Some(d("2026-06-01")), today) - 1.1).abs() < 1e-12);
}

#[test]
fn places_are_dated_first_oldest_first() {
    let p = |path: &str, date: Option<&str>| Place {
        path: Arc::from(path),
        line: 1,
        date: date.map(d),
    };
    let mut v = vec![
        p("b", None),
        p("c", Some("2026-01-02")),
        p("a", Some("2026-01-01")),
    ];
    sort_places(&mut v);
    let order: Vec<&str> = v.iter().map(|x| &*x.path).collect();
    assert_eq!(order, ["a", "c", "b"]);
}
