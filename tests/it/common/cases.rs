//! Table-driven tests: one test over a table of named cases that checks
//! every case and fails once, naming each case that did not hold.

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Checks every case of `cases` with `check` (`Err(why)` when the case does
/// not hold; a panic counts as a failure too) and fails once, naming each
/// failed case by `name` with its message, so that one bad case does not
/// hide the others.
#[track_caller]
pub fn check_cases<C>(
    cases: &[C],
    name: impl Fn(&C) -> &str,
    check: impl Fn(&C) -> Result<(), String>,
) {
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let outcome = catch_unwind(AssertUnwindSafe(|| check(c))).unwrap_or_else(|p| {
                Err(p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panicked".to_string()))
            });
            outcome
                .err()
                .map(|why| format!("case {:?}: {why}", name(c)))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} cases failed:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

/// `Ok` when `got` equals `want`, else a message showing both.
pub fn same<T: PartialEq + Debug>(got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("\n   got: {got:?}\n  want: {want:?}"))
    }
}
