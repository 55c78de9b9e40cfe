//! Tests of `markers`.

use super::*;

fn m() -> Matcher {
    let kws = [
        "next session",
        "next steps",
        "follow-up",
        "follow up",
        "todo",
        "defer",
        "park",
        "come back to",
        "still uncommitted",
        "다음 세션",
    ];
    Matcher::new(&kws.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

fn f(line: &str) -> Option<Found> {
    find(&m(), line).map(|(_, f)| f)
}

fn s(t: &str) -> Option<Found> {
    Some(Found::Sentence(t.into()))
}

#[test]
fn sentences_strip_boilerplate() {
    assert_eq!(
        f("Next session we should add a retry policy."),
        s("Add a retry policy")
    );
    assert_eq!(
        f("In the next session, let's wire the CLI"),
        s("Wire the CLI")
    );
    assert_eq!(
        f("Tests pass. Follow up: bump the MSRV"),
        Some(Found::Colon("bump the MSRV".into()))
    );
    assert_eq!(
        f("- TODO: wire --lock-timeout"),
        Some(Found::Colon("wire --lock-timeout".into()))
    );
    assert_eq!(
        f("**Still uncommitted:** `docs/a.md` — want me to commit it?"),
        Some(Found::Colon("`docs/a.md`".into()))
    );
}

#[test]
fn nouns_are_not_markers() {
    assert_eq!(f("We offer a 30-day follow-up window."), None);
    assert_eq!(f("Follow-up questions are welcome."), None);
    assert_eq!(f("The refactor was deferred already."), None);
    assert_eq!(f("I can park the car there."), s("Park the car there"));
    assert_eq!(f("She sent a follow-up after lunch."), None);
    assert_eq!(f("Nothing to follow up on"), None);
    assert_eq!(
        f("We should follow up on the flaky CI job."),
        s("Follow up on the flaky CI job")
    );
}

#[test]
fn deferral_forms() {
    assert_eq!(
        f("Let's leave the i18n pass for the next session."),
        s("The i18n pass")
    );
    assert_eq!(
        f("I'd defer the config migration for now."),
        s("Defer the config migration")
    );
    assert_eq!(
        f("We can come back to the flaky login test later."),
        s("Come back to the flaky login test")
    );
    assert_eq!(f("Park the CSV export."), s("Park the CSV export"));
    assert_eq!(f("다음 세션에 테스트 추가"), s("다음 세션에 테스트 추가"));
}

#[test]
fn lead_ins() {
    let m = m();
    assert!(lead_in(&m, "### Next Steps (manual)").is_some());
    assert!(
        lead_in(
            &m,
            "If you agree, the follow-up I'd run as a single small pass:"
        )
        .is_some()
    );
    assert!(lead_in(&m, "**Still uncommitted:**").is_some());
    assert!(lead_in(&m, "## Findings").is_none());
    assert!(lead_in(&m, "Next steps are below").is_none());
    assert!(lead_in(&m, "1. Ask whether a follow-up is needed:").is_none());
    assert!(lead_in(&m, "- Next steps:").is_some());
    // A lead-in that reports its work finished introduces a done report.
    let m = Matcher::new(&["pending".to_string(), "todo".to_string()]);
    assert!(lead_in(&m, "All pending tasks for ticket #42 are now complete:").is_none());
    assert!(lead_in(&m, "**The todo items are done:**").is_none());
    assert!(lead_in(&m, "Pending tasks:").is_some());
    assert!(lead_in(&m, "Phase 1 is done. Pending tasks:").is_some());
}
