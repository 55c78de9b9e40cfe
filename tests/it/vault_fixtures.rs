//! The real-shaped vaults in fixtures/vaults/ (written after the shapes of
//! public vaults: Obsidian daily notes with Tasks emoji and Dataview fields,
//! Logseq journals, Dendron dot-dated notes, a session knowledge base, a
//! project todos.md without a next section). Every figure below was counted
//! by hand from the fixture files; see fixtures/vaults/README.md.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

/// `audit --format json` on a fixture vault (read only), today 2026-05-06.
fn audit_fixture(name: &str) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/vaults")
        .join(name);
    let home = tempfile::tempdir().expect("tempdir");
    let out = bare_cmd()
        .env("XDG_CONFIG_HOME", home.path())
        .env("HOME", home.path())
        .arg("--root")
        .arg(&root)
        .args(["--today", "2026-05-06", "audit", "--format", "json"])
        .output()
        .expect("run");
    assert_status(&out, 0, name);
    let r: Value = serde_json::from_slice(&out.stdout).expect("json");
    check_accounting(&r);
    r
}

/// Hand-counted expectations of one fixture.
struct Expect<'a> {
    collected: u64,
    open: u64,
    resolved: u64,
    merged: u64,
    deferred: u64,
    blocked: u64,
    non_task: u64,
    shown: &'a [&'a str],
    deferred_texts: &'a [&'a str],
    blocked_texts: &'a [&'a str],
}

fn check(r: &Value, e: &Expect<'_>) {
    let a = &r["audit"];
    let got = (
        a["collected"].as_u64().unwrap(),
        a["open"].as_u64().unwrap(),
        a["resolved"].as_u64().unwrap(),
        a["duplicates_merged"].as_u64().unwrap(),
        a["deferred"].as_u64().unwrap(),
        a["blocked"].as_u64().unwrap(),
        a["non_task"].as_u64().unwrap(),
    );
    assert_eq!(
        got,
        (
            e.collected,
            e.open,
            e.resolved,
            e.merged,
            e.deferred,
            e.blocked,
            e.non_task
        ),
        "(collected, open, resolved, merged, deferred, blocked, non_task): {a}"
    );
    assert_eq!(prio(r), e.shown);
    assert_eq!(texts(&r["deferred"]), e.deferred_texts);
    assert_eq!(texts(&r["blocked"]), e.blocked_texts);
}

#[test]
fn obsidian_daily_notes_with_tasks_emoji_and_dataview_fields() {
    let r = audit_fixture("obsidian-daily");
    check(
        &r,
        &Expect {
            collected: 10,
            open: 7,
            resolved: 2, // the dentist (Done section), the forwarded plumber call
            merged: 1,   // the car insurance, written on both days
            deferred: 1,
            blocked: 1,
            non_task: 1, // [*]; the [i] under Notes is outside any task section
            shown: &[
                "Write the budget summary",        // [/] in progress
                "Renew the car insurance",         // overdue (due 05-04)
                "Call the plumber about the leak", // 🔼 medium
                "Pour the garden soil",
                "Order new running shoes",
            ],
            deferred_texts: &["Plan the garden beds"],
            blocked_texts: &["Plant the tomatoes"],
        },
    );
    assert_eq!(r["as_of"], "2026-05-06");
    assert_eq!(r["goals"][0]["text"], "Finish the quarterly budget draft");
    assert_eq!(r["deferred"][0]["deferred_until"], "2026-05-20");
    assert_eq!(r["blocked"][0]["blocked_by"], serde_json::json!(["soil1"]));
    let renew = &r["priorities"][1];
    assert_eq!(
        (&renew["due"], &renew["priority"], &renew["overdue"]),
        (
            &Value::from("2026-05-04"),
            &Value::from("high"),
            &Value::from(true)
        )
    );
    assert_eq!(r["priorities"][4]["tags"], serde_json::json!(["shopping"]));
}

#[test]
fn logseq_journals_are_outlines_read_whole() {
    let r = audit_fixture("logseq");
    check(
        &r,
        &Expect {
            collected: 8,
            open: 5,
            resolved: 2, // DONE postmortem, CANCELED runner migration
            merged: 1,   // the staging password, on both days
            deferred: 1,
            blocked: 0,
            non_task: 0,
            shown: &[
                "Draft the capacity plan",                // NOW
                "Renew the TLS certificates",             // DEADLINE 05-05: overdue
                "Rotate the staging database password",   // today
                "Vendor reply about the license renewal", // carried from 05-05
            ],
            deferred_texts: &["Patch the VPN gateway"], // SCHEDULED 05-08
            blocked_texts: &[],
        },
    );
    assert_eq!(
        r["audit"]["read_whole"],
        serde_json::json!(["journals/2026_05_05.md", "journals/2026_05_06.md"])
    );
    assert_eq!(r["priorities"][0]["status"], "in_progress");
    assert_eq!(
        r["priorities"][0]["task_id"],
        "6639a1f2-8c1e-4b7a-9d2e-1f0a2b3c4d5e"
    );
    assert_eq!(r["deferred"][0]["priority"], "high");
}

#[test]
fn dendron_dot_dated_notes() {
    let r = audit_fixture("dendron");
    check(
        &r,
        &Expect {
            collected: 5,
            open: 3,
            resolved: 1, // the slow search query, done on 05-06
            merged: 1,   // the importer tests
            deferred: 1, // written ahead in the 05-07 note
            blocked: 0,
            non_task: 0,
            shown: &[
                "Write the importer tests",
                "Add an index on the events table",
            ],
            deferred_texts: &["Demo the importer to the team"],
            blocked_texts: &[],
        },
    );
    // The note of 05-07 is after today: not "today".
    assert_eq!(r["as_of"], "2026-05-06");
    assert_eq!(r["audit"]["excluded_files"], 1);
    assert_eq!(
        r["audit"]["warnings"],
        serde_json::json!([{
            "path": "notes/proj.importer.md",
            "message": "journal file without a date (YYYY-MM-DD, YYYY_MM_DD, YYYY.MM.DD or YYYYMMDD) in its name; skipped"
        }])
    );
}

#[test]
fn a_session_knowledge_base_with_open_work_and_follow_up_sections() {
    let r = audit_fixture("session-kb");
    check(
        &r,
        &Expect {
            collected: 8,
            open: 6,
            resolved: 1, // Dana's review, Done on 05-06
            merged: 1,   // the retry budget (a checkbox, then a numbered item)
            deferred: 0,
            blocked: 0,
            non_task: 0, // "Definition of Done" has no role: its item is not collected
            shown: &[
                "Cap the retry budget per host",
                "Add a timeout histogram to the metrics",
                "Check whether the CDN caches the 404 page",
                "Move the blog to the new theme",
                "Log the final failure with the request id",
                "(Optional) Try a darker hero image",
            ],
            deferred_texts: &[],
            blocked_texts: &[],
        },
    );
    assert_eq!(
        rows(&r),
        vec![
            row("Cap the retry budget per host", Some("ingest"), "today", 6),
            row(
                "Add a timeout histogram to the metrics",
                Some("ingest"),
                "today",
                7
            ),
            row(
                "Check whether the CDN caches the 404 page",
                Some("ingest"),
                "today",
                10
            ),
            row("Move the blog to the new theme", Some("site"), "today", 21),
            row(
                "Log the final failure with the request id",
                Some("ingest"),
                "carried",
                10
            ),
            row(
                "(Optional) Try a darker hero image",
                Some("site"),
                "carried",
                19
            ),
        ]
    );
}

#[test]
fn a_project_todos_with_status_markers_and_no_next_section() {
    let r = audit_fixture("project-todos");
    check(
        &r,
        &Expect {
            collected: 9,
            open: 8,
            resolved: 1, // the forwarded troubleshooting page, open in PROGRESS.md
            merged: 0,
            deferred: 0,
            blocked: 0,
            non_task: 1, // [i]
            shown: &[
                "Port the transcript reader to the streaming parser", // [~]
                "Handle transcripts without a session id",
                "Stop the hook from blocking on a slow disk", // [!]
                "Explain the inbox layout in the guide",
                "Decide whether the man page ships in the crate", // [?]
                "Export the dashboard as HTML",
                "Add a troubleshooting page", // PROGRESS.md, Next Session Plan
                "Benchmark the scanner on the L vault",
            ],
            deferred_texts: &[],
            blocked_texts: &[],
        },
    );
    assert_eq!(
        r["audit"]["read_whole"],
        serde_json::json!(["projects/wrap/todos.md"])
    );
    assert_eq!(r["priorities"][2]["status"], "flagged");
    assert_eq!(r["audit"]["sources"]["project_todos"], 7);
    assert_eq!(r["audit"]["sources"]["progress"], 2);
}
