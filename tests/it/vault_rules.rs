//! Reading the vaults people keep: heading variants, status markers, task
//! metadata in the JSON, ranking inside a tier, deferred and blocked items,
//! journal layouts, files read whole, and the rough edges of real notes.
//! Every report fetched here is checked for the accounting identities.

use crate::common::*;
use serde_json::Value;

const J6: &str = "journal/2026-05-06.md";

/// `audit --format json` with a fixed today, checked for the identities.
fn audit_on(v: &Vault, today: &str) -> Value {
    let r = v.json(&["--today", today, "audit", "--format", "json"]);
    check_accounting(&r);
    r
}

/// `audit_on(v, today)`, checked to list exactly `expected` as its
/// priorities (`row(..)` each).
#[track_caller]
fn rows_on(v: &Vault, today: &str, expected: &[(String, Option<String>, String, u64)]) -> Value {
    let r = audit_on(v, today);
    assert_eq!(rows(&r), expected, "{}", r["priorities"]);
    r
}

fn field<'a>(r: &'a Value, list: &str, text: &str) -> &'a Value {
    r[list]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["text"] == text)
        .unwrap_or_else(|| panic!("{text:?} not in {list}: {r}"))
}

// ---------------------------------------------------------------- headings

#[test]
fn heading_variants_with_emoji_qualifiers_and_other_languages_collect() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## 🚀 Next Steps",                     // 1
            "- [ ] a rocket",                       // 2
            "## Next Steps (Phase 2b & 2c)",        // 3
            "- [ ] b phase",                        // 4
            "## 🔮 Tomorrow's Plan",                // 5
            "- [ ] c tomorrow",                     // 6
            "### Deferred to Later — after launch", // 7
            "- [ ] d deferred",                     // 8
            "## Next Session Plan",                 // 9
            "- [ ] e plan",                         // 10
            "## 다음 세션 — Phase B",               // 11
            "- [ ] f korean",                       // 12
            "## **Next** steps: cleanup",           // 13
            "- [ ] g emphasis",                     // 14
            "## 次回",                              // 15
            "- [ ] h japanese",                     // 16
            "## ＮＥＸＴ",                          // 17
            "- [ ] i full width",                   // 18
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(
        prio(&r),
        vec![
            "a rocket",
            "b phase",
            "c tomorrow",
            "d deferred",
            "e plan",
            "f korean",
            "g emphasis",
            "h japanese",
            "i full width"
        ]
    );
}

#[test]
fn a_heading_role_needs_its_phrase_at_the_start_except_a_few_next_phrases() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Definition of Done", // 1: "done" not at the start: no role
            "- [ ] not collected 1",
            "## Live follow-ups", // 3: follow-ups anywhere
            "- [ ] live one",
            "## Technical Todos for Future Sessions", // 5
            "- [ ] technical one",
            "## Backlog", // 7: stays out by default
            "- [ ] not collected 2",
            "## Nextcloud setup", // 9: no word boundary after "next"
            "- [ ] not collected 3",
            "## Open work", // 11
            "- [ ] open work one",
            "## Open follow-ups", // 13
            "- [ ] open follow-up one",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(
        prio(&r),
        vec![
            "live one",
            "technical one",
            "open work one",
            "open follow-up one"
        ]
    );
}

#[test]
fn a_document_title_never_gives_a_role_by_a_phrase_inside_it() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        md(&[
            "# p todos",
            "## Backlog",
            "- [ ] someday",
            "## Next",
            "- [ ] soon",
        ]),
    );
    assert_eq!(prio(&audit_on(&v, "2026-05-06")), vec!["soon"]);
}

#[test]
fn done_and_skipped_heading_variants() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] ship it",
            "- [ ] drop it",
            "- [ ] keep it",
            "## ✅ Shipped (v1)",
            "- ship it",
            "## Won't do",
            "- drop it",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    // Both the done and the skip record close their follow-ups.
    assert_eq!(counts(&r), (3, 2, 0, 1));
    assert_eq!(prio(&r), vec!["keep it"]);
    assert_eq!(r["audit"]["potentially_lost"][0]["text"], "drop it");
}

// ---------------------------------------------------------- status markers

#[test]
fn status_markers_in_progress_flagged_and_open_variants() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] plain",    // 2
            "- [?] question", // 3
            "- [<] scheduled mark",
            "- [!] flagged one",
            "- [/] half done",
            "- [~] partly",
            "- [^] raised",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    // In progress first inside the tier, then the rest in written order.
    assert_eq!(
        prio(&r),
        vec![
            "half done",
            "partly",
            "raised",
            "plain",
            "question",
            "scheduled mark",
            "flagged one"
        ]
    );
    let status = |t: &str| field(&r, "priorities", t)["status"].clone();
    assert_eq!(status("half done"), "in_progress");
    assert_eq!(status("flagged one"), "flagged");
    assert_eq!(status("question"), "open");
    v.test()
        .args(["--today", "2026-05-06", "regen", "-q"])
        .run();
    let text = v.read("ACTIVE-STATUS.md");
    assert_has(
        &text,
        &["half done · *in progress*", "flagged one · ⚑ flagged"],
    );
}

#[test]
fn decoration_marks_are_not_items_and_are_counted_as_non_task() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] real task",
            "- [i] an idea",
            "- [\"] a quote",
            "- [*] a star",
            "- [b] a bookmark",
            "## Notes",
            "- [i] outside any next section",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["real task"]);
    assert_eq!(r["audit"]["collected"], 1);
    assert_eq!(r["audit"]["non_task"], 4);
}

#[test]
fn cancelled_marks_keywords_todo_txt_and_strikethrough_resolve() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] alpha",
            "- [ ] beta",
            "- [ ] gamma",
            "- [ ] delta",
            "- [ ] epsilon",
            "- [-] alpha",
            "- DONE beta",
            "- x 2026-05-06 gamma",
            "- [ ] ~~delta~~",
            "- CANCELED epsilon",
            "- TODO zeta",
            "- DOING eta",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["eta", "zeta"]);
    assert_eq!(counts(&r), (7, 5, 0, 2));
    assert_eq!(field(&r, "priorities", "eta")["status"], "in_progress");
}

#[test]
fn forwarded_items_resolve_when_a_twin_is_open_elsewhere() {
    let v = Vault::new()
        .file(
            "journal/2026-05-05.md",
            md(&[
                "## Next",
                "- [>] move the server",
                "- [>] call the landlord",
            ]),
        )
        .md(J6, &["## Next", "- [ ] move the server"]);
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["move the server", "call the landlord"]);
    // collected 3 = open 2 + resolved 1 (the forwarded copy) + merged 0
    assert_eq!(counts(&r), (3, 1, 0, 2));
    assert_eq!(
        field(&r, "priorities", "call the landlord")["status"],
        "forwarded"
    );
    assert_eq!(
        warnings(&r),
        vec![(
            "journal/2026-05-05.md".to_string(),
            "line 3: forwarded item ([>]) with no matching open item elsewhere; kept open"
                .to_string()
        )]
    );
}

// ---------------------------------------------------------------- metadata

#[test]
fn json_items_carry_the_task_fields() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] pay rent 📅 2026-05-10 🔼 #home #money 🆔 rent1",
            "- [ ] buy milk",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    let i = field(&r, "priorities", "pay rent");
    assert_eq!(i["due"], "2026-05-10");
    assert_eq!(i["priority"], "medium");
    assert_eq!(i["tags"], serde_json::json!(["home", "money"]));
    assert_eq!(i["task_id"], "rent1");
    assert_eq!(i["overdue"], false);
    assert_eq!(i["scheduled"], Value::Null);
    let plain = field(&r, "priorities", "buy milk");
    assert_eq!(plain["due"], Value::Null);
    assert_eq!(plain["tags"], serde_json::json!([]));
}

// ----------------------------------------------------------------- ranking

#[test]
fn overdue_then_due_then_priority_inside_a_tier() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] no date",
            "- [ ] low one 🔽",
            "- [ ] high one ⏫",
            "- [ ] due later 📅 2026-06-01",
            "- [ ] overdue one 📅 2026-05-01",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(
        prio(&r),
        vec!["overdue one", "due later", "high one", "no date", "low one"]
    );
    assert_eq!(field(&r, "priorities", "overdue one")["overdue"], true);
    v.cmd()
        .args(["--today", "2026-05-06", "regen", "-q"])
        .assert()
        .success();
    assert!(
        v.read("ACTIVE-STATUS.md")
            .contains("overdue one · **overdue** (due 2026-05-01)")
    );
}

#[test]
fn items_starting_later_are_deferred_and_listed_with_list_deferred() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] now",
            "- [ ] later start 🛫 2026-05-20",
            "- [ ] later scheduled [scheduled:: 2026-05-09]",
            "- [ ] started already 🛫 2026-05-01",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["now", "started already"]);
    assert_eq!(r["audit"]["deferred"], 2);
    assert_eq!(r["audit"]["open"], 4);
    assert_eq!(
        texts(&r["deferred"]),
        vec!["later start", "later scheduled"]
    );
    assert_eq!(
        field(&r, "deferred", "later start")["deferred_until"],
        "2026-05-20"
    );
    let l = v.json(&[
        "--today",
        "2026-05-06",
        "list",
        "--deferred",
        "--format",
        "json",
    ]);
    assert_eq!(texts(&l["items"]), vec!["later start", "later scheduled"]);
    let l = v.json(&["--today", "2026-05-06", "list", "--format", "json"]);
    assert_eq!(texts(&l["items"]), vec!["now", "started already"]);
}

#[test]
fn items_waiting_for_an_open_item_are_blocked() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "- [ ] pour the foundation 🆔 found",
            "- [ ] build the walls ⛔ found",
            "- [ ] paint ⛔ gone",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["pour the foundation", "paint"]);
    assert_eq!(texts(&r["blocked"]), vec!["build the walls"]);
    assert_eq!(r["audit"]["blocked"], 1);
    let b = field(&r, "blocked", "build the walls");
    assert_eq!(b["blocked_by"], serde_json::json!(["found"]));
    v.cmd()
        .args(["--today", "2026-05-06", "regen", "-q"])
        .assert()
        .success();
    let dash = v.read("ACTIVE-STATUS.md");
    assert_has(
        &dash,
        &["**Blocked**: build the walls (", "waits for found)"],
    );
}

/// An item both deferred and blocked is set aside once, as deferred; the
/// cap counts only what is left after both are set aside.
#[test]
fn an_item_deferred_and_blocked_counts_as_deferred_and_the_cap_comes_after() {
    let v = Vault::new()
        .file(
            J6,
            md(&[
                "## Next",
                "- [ ] first 🆔 one",
                "- [ ] waits and starts later ⛔ one 🛫 2026-05-20",
                "- [ ] waits ⛔ one",
                "- [ ] starts later 🛫 2026-05-21",
                "- [ ] second",
                "- [ ] third",
            ]),
        )
        .file(".agents/active-status.toml", "cap = 2\n");
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(
        texts(&r["deferred"]),
        vec!["waits and starts later", "starts later"]
    );
    assert_eq!(texts(&r["blocked"]), vec!["waits"]);
    assert_eq!(prio(&r), vec!["first", "second"]);
    assert_eq!(texts(&r["overflow"]), vec!["third"]);
    let a = &r["audit"];
    assert_eq!(
        (a["deferred"].as_u64(), a["blocked"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        (a["shown"].as_u64(), a["overflow"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(a["open"], 6);
}

// ---------------------------------------------------------- journal layouts

#[test]
fn journals_folders_and_dated_name_styles() {
    let v = Vault::new()
        .md("journal/2026-05-01.md", &["## Next", "- [ ] dashed"])
        .md("journals/2026_05_02.md", &["## Next", "- [ ] logseq"])
        .md(
            "journal/daily.journal.2026.05.03.md",
            &["## Next", "- [ ] dendron"],
        )
        .md("journal/20260504.markdown", &["## Next", "- [ ] compact"])
        .md("journal/2026.05.05md", &["## Next", "- [ ] no dot"]);
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(r["as_of"], "2026-05-04");
    assert_eq!(prio(&r), vec!["compact", "dendron", "logseq", "dashed"]);
    assert_eq!(
        warnings(&r),
        vec![(
            "journal/2026.05.05md".to_string(),
            "dated file name without a dot before `md`; skipped (rename it to end in `.md`)"
                .to_string()
        )]
    );
}

#[test]
fn a_journal_outline_without_headings_is_read_whole() {
    let v = Vault::new().file(
        "journals/2026_05_06.md",
        md(&[
            "- Met with the team",
            "\t- TODO send the notes",
            "\t- DONE book the room",
            "- [ ] review the draft",
            "- plain note",
        ]),
    );
    let r = rows_on(
        &v,
        "2026-05-06",
        &[
            row("send the notes", None, "today", 2),
            row("review the draft", None, "today", 4),
        ],
    );
    assert_eq!(
        r["audit"]["read_whole"],
        serde_json::json!(["journals/2026_05_06.md"])
    );
}

#[test]
fn a_project_todos_without_a_next_section_is_read_whole() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        md(&[
            "# p",
            "- [ ] open one",
            "- [~] doing one",
            "- [!] urgent one",
            "- [-] dropped one",
            "- [x] finished one",
            "- a plain note",
            "## Done",
            "- [ ] left in done",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    // The unticked box under `## Done` is open: the box wins over the heading.
    assert_eq!(
        prio(&r),
        vec!["doing one", "open one", "urgent one", "left in done"]
    );
    assert_eq!(
        r["audit"]["read_whole"],
        serde_json::json!(["projects/p/todos.md"])
    );
}

#[test]
fn front_matter_can_exclude_a_file() {
    let v = Vault::new()
        .file(
            J6,
            "---\nactive_status: exclude\n---\n## Next\n- [ ] hidden\n",
        )
        .file(
            "journal/2026-05-05.md",
            "---\ntodo_exclude: true\n---\n## Next\n- [ ] hidden too\n",
        )
        .md("journal/2026-05-04.md", &["## Next", "- [ ] shown"]);
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["shown"]);
    assert_eq!(r["audit"]["excluded_files"], 2);
}

// ------------------------------------------------------------- rough edges

#[test]
fn a_leading_parenthesis_is_a_tag_only_when_it_names_a_known_project() {
    let v = Vault::new().project("api").file(
        J6,
        md(&[
            "## Session: s (web)",
            "### Next",
            "- [ ] (Optional) add dark mode",
            "- [ ] (WIP) refactor",
            "- [ ] (api) known folder",
            "- [ ] (web) known from the session heading",
        ]),
    );
    rows_on(
        &v,
        "2026-05-06",
        &[
            row("(Optional) add dark mode", Some("web"), "today", 3),
            row("(WIP) refactor", Some("web"), "today", 4),
            row("known folder", Some("api"), "today", 5),
            row("known from the session heading", Some("web"), "today", 6),
        ],
    );
}

#[test]
fn tab_indented_items_get_their_own_lines() {
    let v = Vault::new().file(
        J6,
        "## Next\n- [ ] parent\n\t- [ ] child\n\t\t- [ ] grandchild\n",
    );
    rows_on(
        &v,
        "2026-05-06",
        &[
            row("parent", None, "today", 2),
            row("child", None, "today", 3),
            row("grandchild", None, "today", 4),
        ],
    );
}

#[test]
fn git_conflict_markers_never_become_items_and_are_warned() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Next",
            "<<<<<<< HEAD",
            "- [ ] ours",
            "=======",
            "- [ ] theirs",
            ">>>>>>> branch",
        ]),
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["ours", "theirs"]);
    assert_eq!(
        warnings(&r),
        vec![(
            J6.to_string(),
            "git conflict markers at lines 2, 4, 6; those lines were not read".to_string()
        )]
    );
}

#[test]
fn missing_configured_folders_and_an_empty_vault_are_warned() {
    let v = Vault::new().file(
        ".agents/active-status.toml",
        "[sources]\njournal = \"daily\"\n",
    );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(
        warnings(&r),
        vec![
            (
                ".".to_string(),
                "no source files found (journal/, journals/, projects/*/todos.md, PROGRESS.md, actives, inbox)".to_string()
            ),
            (
                "daily".to_string(),
                "configured source folder (sources.journal) does not exist".to_string()
            ),
        ]
    );
}

#[test]
fn a_future_journal_is_not_today_and_its_items_are_deferred() {
    let v = Vault::new()
        .md("journal/2026-05-06.md", &["## Next", "- [ ] today's"])
        .md("journal/2026-05-09.md", &["## Next", "- [ ] written ahead"]);
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(r["as_of"], "2026-05-06");
    assert_eq!(prio(&r), vec!["today's"]);
    assert_eq!(
        field(&r, "deferred", "written ahead")["deferred_until"],
        "2026-05-09"
    );
    // The environment variable works like the flag.
    let out = v
        .cmd()
        .env("ACTIVE_STATUS_TODAY", "2026-05-10")
        .args(["audit", "--format", "json"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["as_of"], "2026-05-09");
    assert_eq!(r["audit"]["deferred"], 0);
}

#[test]
fn bare_cr_files_are_read_as_lines() {
    let v = Vault::new().file(J6, "## Next\r- [ ] first\r- [ ] second\r");
    rows_on(
        &v,
        "2026-05-06",
        &[
            row("first", None, "today", 2),
            row("second", None, "today", 3),
        ],
    );
}

#[test]
fn the_status_map_is_configurable() {
    let v = Vault::new()
        .file(
            ".agents/active-status.toml",
            "[status]\nopen = \" ?<b\"\ndone = \"xXv\"\n",
        )
        .file(
            J6,
            md(&[
                "## Next",
                "- [b] now a task",
                "- [v] finished",
                "- [i] still a decoration",
            ]),
        );
    let r = audit_on(&v, "2026-05-06");
    assert_eq!(prio(&r), vec!["now a task"]);
    assert_eq!(counts(&r), (1, 0, 0, 1));
    assert_eq!(r["audit"]["non_task"], 1);
    let out = v.cmd().arg("config").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_has(
        &text,
        &["status.open = \" ?<b\"", "status.in_progress = \"/~^.oO\""],
    );
}
