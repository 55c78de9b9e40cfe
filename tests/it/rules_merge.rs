//! Integration tests for the merge rules of docs/FORMAT.md §5 and §8: resolution,
//! dedup, rank, cap and the dashboard never being an input. Every audit report
//! fetched here is checked for the accounting identities (see
//! `check_accounting`). The reading rules live in `rules_sections.rs`.

use crate::common::*;
use serde_json::{Value, json};

// ---------------------------------------------------------------- helpers

/// `(path, line)` pairs of an item's `seen_in`.
fn seen_in(item: &Value) -> Vec<(String, u64)> {
    each(&item["seen_in"], |s| {
        (string(&s["path"]), count(&s["line"]))
    })
}

fn at(path: &str, line: u64) -> (String, u64) {
    (path.to_string(), line)
}

const J6: &str = "journal/2026-05-06.md";

// ------------------------------------------------------------- resolution

/// `(case, the journal days of project `p` as (date, body), (collected,
/// resolved, duplicates_merged, open), the priorities as (text, tier,
/// line))`.
type DaysCase = (
    &'static str,
    &'static [(&'static str, &'static [&'static str])],
    (u64, u64, u64, u64),
    &'static [(&'static str, &'static str, u64)],
);

/// Resolution within journals: a done signal closes an open item of its
/// day or an earlier one.
#[rustfmt::skip]
const RESOLUTION: &[DaysCase] = &[
    // The signal matches fuzzily (§4), like any other comparison.
    ("a later done resolves an earlier next", &[
        ("2026-05-02", &["### Next", "- [ ] ship release notes"]),
        ("2026-05-03", &["### Done", "- [x] Ship release notes."]),
    ], (1, 1, 0, 0), &[]),
    ("a same-day done resolves next", &[
        ("2026-05-03", &["### Next", "- [ ] ship release notes", "### Done", "- ship release notes"]),
    ], (1, 1, 0, 0), &[]),
    ("an earlier done does not resolve a later next", &[
        ("2026-05-01", &["### Done", "- [x] ship release notes"]),
        ("2026-05-03", &["### Next", "- [ ] ship release notes"]),
    ], (1, 0, 0, 1), &[("ship release notes", "today", 3)]),
    ("a checked item under Next in a journal resolves", &[
        ("2026-05-05", &["### Next", "- [ ] tidy the changelog", "- [ ] keep me"]),
        ("2026-05-06", &["### Next", "- [x] tidy the changelog"]),
    ], (2, 1, 0, 1), &[("keep me", "carried", 4)]),
    // Every item under a done heading resolves, except an unticked box: the
    // box wins over the heading, so `alpha` is open again (and merges).
    ("every item under done headings resolves", &[
        ("2026-05-05", &[
            "### Next",
            "- [ ] alpha unchecked",
            "- [ ] bravo plain",
            "- [ ] charlie checked",
            "- [ ] delta completed",
            "- [ ] echo korean",
            "- [ ] foxtrot stays",
        ]),
        ("2026-05-06", &[
            "### Done",
            "- [ ] alpha unchecked",
            "- bravo plain",
            "- [x] charlie checked",
            "### Completed:",
            "- delta completed",
            "### 완료",
            "- echo korean",
        ]),
    ], (7, 4, 1, 2), &[("alpha unchecked", "today", 3), ("foxtrot stays", "carried", 8)]),
];

#[test]
fn done_signals_in_journals_resolve_open_items() {
    check_cases(
        RESOLUTION,
        |c| c.0,
        |&(_, days, want_counts, want_rows)| {
            let r = audit(&journals(days));
            same(counts(&r), want_counts)?;
            let want: Vec<_> = want_rows
                .iter()
                .map(|&(text, tier, line)| row(text, Some("p"), tier, line))
                .collect();
            same(rows(&r), want)
        },
    );
}

#[test]
fn each_item_is_closed_by_its_best_entry_in_time() {
    // The same text on two days: an identical Done entry between them
    // closes the first, is too old for the second, which a later Done
    // entry with a typo closes instead (the identical one comes first
    // whenever it is in time).
    let v = Vault::new().project("p");
    journal(
        &v,
        "2026-05-03",
        &["### Next", "- [ ] rotate the signing keys"],
    );
    journal(
        &v,
        "2026-05-05",
        &["### Done", "- [x] rotate the signing keys"],
    );
    journal(
        &v,
        "2026-05-08",
        &["### Next", "- [ ] rotate the signing keys"],
    );
    journal(
        &v,
        "2026-05-09",
        &["### Done", "- [x] rotate the signin keys"],
    );
    let r = audit_counts(&v, (2, 2, 0, 0));
    let closers = each(&r["resolutions"], |x| {
        let similarity = x["similarity"].as_f64().expect("similarity");
        (
            string(&x["path"]),
            string(&x["closed_by"]["path"]),
            similarity,
        )
    });
    assert_eq!(closers.len(), 2);
    assert_eq!(
        (closers[0].0.as_str(), closers[0].1.as_str(), closers[0].2),
        ("journal/2026-05-03.md", "journal/2026-05-05.md", 1.0)
    );
    assert_eq!(
        (closers[1].0.as_str(), closers[1].1.as_str()),
        ("journal/2026-05-08.md", "journal/2026-05-09.md")
    );
    assert!(closers[1].2 < 1.0);
}

#[test]
fn undated_checked_item_resolves_dated_journal_item_and_vice_versa() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        md(&[
            "## Backlog",
            "- [x] tidy the changelog",
            "## Next",
            "- [ ] prune stale branches",
        ]),
    );
    journal(&v, "2026-05-06", &["### Next", "- [ ] tidy the changelog"]);
    journal(&v, "2026-05-01", &["### Done", "- prune stale branches"]);
    let r = audit_counts(&v, (2, 2, 0, 0));
    assert_eq!(prio(&r), Vec::<String>::new());
}

#[test]
fn signals_of_another_project_do_not_resolve_untagged_signals_do() {
    let v = Vault::new().project("a").project("b").file(
        "journal/2026-05-05.md",
        md(&[
            "## Session: x (a)",      // 1
            "### Next",               // 2
            "- [ ] fix flaky test",   // 3
            "- [ ] update changelog", // 4
            "## Session: y (b)",      // 5
            "### Next",               // 6
            "- [ ] fix flaky test",   // 7
            "## Session: w (a)",      // 8
            "### Next",               // 9
            "- [ ] prune old tags",   // 10
        ]),
    );
    // The explicit tag makes this signal b's, although it lives under a.
    v.write("projects/a/todos.md", md(&["- [x] (b) prune old tags"]));
    v.write(
        J6,
        md(&[
            "## Session: z (a)",
            "### Done",
            "- fix flaky test",
            "## Session: misc",
            "### Done",
            "- update changelog",
        ]),
    );
    audit_is(
        &v,
        (4, 2, 0, 2),
        &[
            row("fix flaky test", Some("b"), "carried", 7),
            row("prune old tags", Some("a"), "carried", 10),
        ],
    );
}

// ------------------------------------------------------------------ dedup

#[test]
fn fuzzy_duplicates_across_sources_merge_into_one_cluster() {
    let v = Vault::new()
        .project("p")
        .md(
            "projects/p/todos.md",
            &["## Next", "- [ ] add a lock timeout"],
        )
        .md(
            "projects/p/actives/t/todos.md",
            &["# t", "- [ ] add lock timeout!"],
        );
    journal(&v, "2026-05-04", &["### Next", "- [ ] add lock timeout"]);
    journal(
        &v,
        "2026-05-06",
        &["### Next", "- [ ] other work", "- [ ] Add lock timeout."],
    );
    let r = audit_counts(&v, (5, 0, 3, 2));
    assert_eq!(prio(&r), vec!["other work", "Add lock timeout."]);
    assert_eq!(
        r["priorities"][1],
        json!({
            "id": active_status::item_id::full(Some("p"), &active_status::normalize::key("Add lock timeout."))[..6],
            "text": "Add lock timeout.", "project": "p", "tier": "today",
            "source": {"kind": "journal_next", "path": J6, "line": 4},
            "first_seen": "2026-05-04", "last_seen": "2026-05-06", "age_days": 2,
            "seen_in": [
                {"path": J6, "line": 4, "similarity": 1.0},
                {"path": "projects/p/actives/t/todos.md", "line": 2, "similarity": 1.0},
                {"path": "projects/p/todos.md", "line": 2, "similarity": 1.0},
                {"path": "journal/2026-05-04.md", "line": 3, "similarity": 1.0},
            ],
            "status": "open", "due": null, "scheduled": null, "start": null,
            "priority": null, "tags": [], "task_id": null, "depends_on": [],
            "done_on": null, "overdue": false, "deferred_until": null, "blocked_by": [],
        })
    );
}

#[test]
fn same_text_in_two_projects_stays_two_clusters() {
    let v = Vault::new()
        .project("a")
        .project("b")
        .md(
            "projects/a/todos.md",
            &["## Next", "- [ ] bump dependencies"],
        )
        .md(
            "projects/b/todos.md",
            &["## Next", "- [ ] bump dependencies"],
        );
    audit_is(
        &v,
        (2, 0, 0, 2),
        &[
            row("bump dependencies", Some("a"), "project", 2),
            row("bump dependencies", Some("b"), "project", 2),
        ],
    );
}

#[test]
fn untagged_cluster_takes_project_of_first_tagged_member() {
    // Rank order: today (untagged) < active (q) < project (p). The q item joins
    // the untagged cluster, which becomes q; the p item then starts its own.
    let v = Vault::new()
        .project("p")
        .project("q")
        .md(J6, &["### Next", "- [ ] rotate the api keys"])
        .md(
            "projects/q/actives/t/todos.md",
            &["- [ ] rotate the api keys"],
        )
        .md(
            "projects/p/todos.md",
            &["## Next", "- [ ] rotate the api keys"],
        );
    let r = audit_is(
        &v,
        (3, 0, 1, 2),
        &[
            row("rotate the api keys", Some("q"), "today", 2),
            row("rotate the api keys", Some("p"), "project", 2),
        ],
    );
    assert_eq!(
        seen_in(&r["priorities"][0]),
        vec![at(J6, 2), at("projects/q/actives/t/todos.md", 1)]
    );
    assert_eq!(
        seen_in(&r["priorities"][1]),
        vec![at("projects/p/todos.md", 2)]
    );
    // Warnings are per item: the merged untagged member is still reported.
    assert_eq!(
        r["audit"]["untagged_warnings"],
        json!([{"path": J6, "line": 2, "text": "rotate the api keys", "reason": "no-session"}])
    );
}

#[test]
fn texts_below_threshold_stay_separate_above_merge() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        md(&[
            "## Next",
            "- [ ] migrate the database schema", // vs next line: 0.844
            "- [ ] migrate the database schemas now",
            "- [ ] rename the config loader", // vs next line: 0.917
            "- [ ] rename the config reader",
        ]),
    );
    let r = audit_counts(&v, (4, 0, 1, 3));
    // Kept apart by the key, but sharing most content words: the second
    // is asked about in review rather than listed.
    assert_eq!(
        prio(&r),
        vec!["migrate the database schema", "rename the config loader"]
    );
    assert_eq!(r["review"][0]["text"], "migrate the database schemas now");
    assert_eq!(r["review"][0]["reason"], "possible-duplicate");
    assert_eq!(
        seen_in(&r["priorities"][1]),
        vec![at("projects/p/todos.md", 4), at("projects/p/todos.md", 5)]
    );
}

#[test]
fn normalization_makes_marked_up_texts_match() {
    let pairs = [
        ("**Fix** the _parser_ `now`", "fix the parser now"),
        ("~~cargo~~ test flaky", "cargo test flaky"),
        (
            "read [the guide](https://example.com/a/very/long/url)",
            "read the guide",
        ),
        ("see [[notes/wiki-page|wiki links]]", "see wiki links"),
        ("open [[roadmap]]", "open roadmap"),
        ("go!", "go"),
        ("DEPLOY NOW", "deploy now"),
        ("stop;", "stop:"),
    ];
    let journal_lines: Vec<String> = pairs.iter().map(|(a, _)| format!("- [ ] {a}")).collect();
    let project_lines: Vec<String> = pairs.iter().map(|(_, b)| format!("- [ ] {b}")).collect();
    let v = Vault::new()
        .project("p")
        .file(
            J6,
            format!(
                "## Session: s (p)\n### Next\n{}\n",
                journal_lines.join("\n")
            ),
        )
        .file(
            "projects/p/todos.md",
            format!("## Next\n{}\n", project_lines.join("\n")),
        );
    let r = audit_counts(&v, (16, 0, 8, 8));
    let expected: Vec<&str> = pairs.iter().map(|(a, _)| *a).collect();
    assert_eq!(prio(&r), expected);
    for (i, item) in r["priorities"].as_array().unwrap().iter().enumerate() {
        let i = i as u64;
        assert_eq!(
            seen_in(item),
            vec![at(J6, 3 + i), at("projects/p/todos.md", 2 + i)],
            "{item}"
        );
    }
}

// ------------------------------------------------------------------- rank

#[test]
fn rank_order_is_tier_then_date_then_path_then_line() {
    let v = Vault::new()
        .project("p")
        .project("q")
        .md("projects/q/todos.md", &["## Next", "- [ ] project q item"])
        .md("projects/p/todos.md", &["## Next", "- [ ] project p item"])
        .md(
            "projects/p/PROGRESS.md",
            &["## Next Session", "- [ ] progress item"],
        )
        .md("projects/p/actives/b/todos.md", &["- [ ] active b item"])
        .md(
            "projects/p/actives/a/todos.md",
            &["- [ ] active a first", "- [ ] active a second"],
        )
        .md(
            ".agents/inbox/2026-05-06T09-00-00-aaaa0000.md",
            &["### Next (captured)", "- [ ] (p) captured today"],
        )
        .md(
            ".agents/inbox/2026-05-05T09-00-00-bbbb0000.md",
            &["### Next (captured)", "- [ ] (p) captured yesterday"],
        )
        .md(
            ".agents/inbox/2026-05-03T09-00-00-cccc0000.md",
            &["### Next (captured)", "- [ ] (p) captured older"],
        );
    journal(&v, "2026-05-06", &["### Next", "- [ ] today item"]);
    journal(&v, "2026-05-05", &["### Next", "- [ ] yesterday journal"]);
    journal(&v, "2026-05-01", &["### Next", "- [ ] oldest journal"]);
    let r = audit(&v);
    let tiers: Vec<(String, String)> = each(&r["priorities"], |i| {
        (string(&i["text"]), string(&i["tier"]))
    });
    let expected = [
        ("today item", "today"),
        ("captured today", "captured"),
        ("active a first", "active"),
        ("active a second", "active"),
        ("active b item", "active"),
        ("project p item", "project"),
        ("project q item", "project"),
        ("progress item", "progress"),
        ("captured yesterday", "carried"), // 05-05, path .agents/… < journal/…
        ("yesterday journal", "carried"),  // 05-05
        ("captured older", "carried"),     // 05-03
        ("oldest journal", "carried"),     // 05-01
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(tiers, expected);
    assert_eq!(v.open_texts(), prio(&r));
}

// -------------------------------------------------------------------- cap

#[test]
fn cap_splits_priorities_and_overflow() {
    let v = Vault::new()
        .project("p")
        .file(".agents/active-status.toml", "cap = 3\n")
        .file(
            "projects/p/todos.md",
            md(&[
                "## Next",
                "- [ ] one alpha",
                "- [ ] two bravo",
                "- [ ] three charlie",
                "- [ ] four delta",
                "- [ ] five echo",
            ]),
        );
    let r = audit(&v);
    assert_eq!(prio(&r), vec!["one alpha", "two bravo", "three charlie"]);
    assert_eq!(texts(&r["overflow"]), vec!["four delta", "five echo"]);
    let a = &r["audit"];
    assert_eq!(
        (
            a["open"].as_u64(),
            a["shown"].as_u64(),
            a["overflow"].as_u64()
        ),
        (Some(5), Some(3), Some(2))
    );
    assert_eq!(v.open_texts().len(), 5, "list is not capped");
}

// ---------------------------------------------------------- report fields

#[test]
fn as_of_is_the_latest_journal_or_inbox_date() {
    let v = Vault::new()
        .project("p")
        .md("projects/p/todos.md", &["## Next", "- [ ] undated item"]);
    let r = audit(&v);
    assert_eq!(r["as_of"], Value::Null);
    assert_eq!(
        (
            &r["priorities"][0]["first_seen"],
            &r["priorities"][0]["age_days"]
        ),
        (&Value::Null, &Value::Null)
    );

    journal(&v, "2026-05-04", &["### Next", "- [ ] journal item"]);
    v.write(
        ".agents/inbox/2026-05-07T08-00-00-abcdabcd.md",
        md(&["### Next (captured)", "- [ ] (p) inbox item"]),
    );
    let r = audit_rows(
        &v,
        &[
            row("inbox item", Some("p"), "captured", 2),
            row("undated item", Some("p"), "project", 2),
            row("journal item", Some("p"), "carried", 3),
        ],
    );
    assert_eq!(r["as_of"], "2026-05-07");
    assert_eq!(r["priorities"][2]["age_days"], 3);
}

#[test]
fn goals_keep_the_latest_goal_per_project() {
    let v = Vault::new().project("a").project("b");
    v.write(
        "journal/2026-05-04.md",
        md(&["## Session: s (a)", "### Goal", "- old goal of a"]),
    );
    v.write(
        "journal/2026-05-05.md",
        md(&["## Session: s (a)", "### 목표", "- new goal of a"]),
    );
    v.write(
        J6,
        md(&["## Session: s (b)", "### Objective:", "- goal of b"]),
    );
    let r = audit_counts(&v, (0, 0, 0, 0));
    // Ordered by project (the format leaves the order open).
    assert_eq!(
        r["goals"],
        json!([
            {"project": "a", "text": "new goal of a", "date": "2026-05-05", "path": "journal/2026-05-05.md", "line": 3},
            {"project": "b", "text": "goal of b", "date": "2026-05-06", "path": J6, "line": 3},
        ])
    );
}

#[test]
fn potentially_lost_lists_skip_records_of_the_as_of_day_only() {
    let v = Vault::new().project("p");
    journal(&v, "2026-05-05", &["### Skipped", "- older skip"]);
    journal(
        &v,
        "2026-05-06",
        &["### Skipped follow-ups", "- drop the legacy flag"],
    );
    let r = audit_counts(&v, (0, 0, 0, 0));
    assert_eq!(
        r["audit"]["potentially_lost"],
        json!([{"path": J6, "line": 3, "text": "drop the legacy flag", "project": "p"}])
    );
}

// -------------------------------------------------------------- dashboard

#[test]
fn dashboard_is_never_read_as_input() {
    let v = Vault::new().project("p").file(
        "ACTIVE-STATUS.md",
        md(&[
            "<!-- Generated by active-status -->",
            "## Session: s (p)",
            "### Next",
            "- [ ] ghost item",
            "## Next Session",
            "- [ ] (p) another ghost",
        ]),
    );
    journal(&v, "2026-05-06", &["### Next", "- [ ] real item"]);
    let before = audit(&v);
    assert_eq!(prio(&before), vec!["real item"]);
    v.cmd().arg("regen").assert().success();
    let dash = v.read("ACTIVE-STATUS.md");
    assert!(
        dash.contains("real item") && !dash.contains("ghost"),
        "{dash}"
    );
    let after = audit(&v);
    assert_eq!(prio(&after), vec!["real item"]);
    assert_eq!(
        after["audit"]["files_scanned"],
        before["audit"]["files_scanned"]
    );
    assert_eq!(counts(&after), (1, 0, 0, 1));
}
