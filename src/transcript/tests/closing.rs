//! Unit tests of the rules read when a session ends (closing proposals).

use super::super::*;
use super::run;

/// A session whose last message is a long proposal list after thousands of
/// other candidates: the list is capped at its first [`runon::MAX_ITEMS`]
/// items, and an item that restates an earlier candidate is not repeated.
#[test]
fn a_long_proposal_list_after_many_candidates() {
    const N: usize = 3000;
    let mut t = String::from("User: start\n\nAssistant: Notes:\n");
    for k in 0..N {
        t.push_str(&format!(
            "TODO: refactor widget number {k} in module alpha{k}\n"
        ));
    }
    t.push_str("\nUser: thanks, anything else?\n\nAssistant: Done. What I'd suggest:\n");
    // The first two restate earlier TODOs.
    t.push_str("- Refactor widget number 5 in module alpha5\n");
    t.push_str("- Refactor widget number 9 in module alpha9\n");
    for k in 0..N {
        t.push_str(&format!("- Tune alpha{k}a beta{k}b gamma{k}c\n"));
    }
    let e = run(t);
    let texts: Vec<&str> = e.candidates.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts.len(), N + runon::MAX_ITEMS - 2);
    assert_eq!(texts[0], "refactor widget number 0 in module alpha0");
    assert_eq!(
        texts[N - 1],
        format!("refactor widget number {} in module alpha{}", N - 1, N - 1)
    );
    let proposed: Vec<String> = (0..runon::MAX_ITEMS - 2)
        .map(|k| format!("Tune alpha{k}a beta{k}b gamma{k}c"))
        .collect();
    assert_eq!(texts[N..], proposed);
    assert!(
        e.candidates[N..]
            .iter()
            .all(|c| c.keyword == "closing proposal")
    );
}
