//! Task metadata in item texts (Obsidian Tasks emoji, Dataview fields,
//! todo.txt, tags, block ids, rollover notes): removed from the text shown
//! and from the text matched, so annotated items merge with and resolve their
//! plain twins.

use crate::common::*;

#[test]
fn metadata_is_removed_from_the_shown_text() {
    let v = journals(&[(
        "2026-05-06",
        &[
            "### Next",
            "- [ ] Fix login 📅 2026-05-10 ⏫",
            "- [ ] Review PR [due:: 2026-05-12] #review ^abc123",
            "- [ ] (A) Call the bank due:2026-05-08",
            "- [ ] Email Jo (now in [[2026-05-07]])",
        ],
    )]);
    let r = audit(&v);
    assert_eq!(
        prio(&r),
        // Ranked by due date inside the tier: 05-08, 05-10, 05-12, none.
        vec!["Call the bank", "Fix login", "Review PR", "Email Jo"]
    );
}

#[test]
fn annotated_items_merge_with_and_are_resolved_by_plain_twins() {
    let v = journals(&[
        (
            "2026-05-05",
            &[
                "### Next",
                "- [ ] Fix login 📅 2026-05-10 ⏫",
                "- [ ] Write the changelog [priority:: high]",
            ],
        ),
        (
            "2026-05-06",
            &[
                "### Next",
                "- [ ] Fix login",
                "### Done",
                "- [x] Write the changelog ✅ 2026-05-06",
            ],
        ),
    ]);
    let r = audit_counts(&v, (3, 1, 1, 1));
    // collected 3 = open 1 + resolved 1 + merged 1
    assert_eq!(prio(&r), vec!["Fix login"]);
}
