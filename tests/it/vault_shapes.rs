//! Shapes found in real vaults (Obsidian, Logseq, vimwiki, AI-assisted
//! development repositories): front matter only at the top, Logseq drawers
//! and date lines, lazy paragraph lines, heading roles, heading items, bold
//! lead-ins, done markers and checkbox state (docs/FORMAT.md §2).

use crate::common::*;
use serde_json::Value;

const J: &str = "journal/2026-05-06.md";

/// `list --format json` items of a vault holding one journal file.
fn items_of(body: &[&str]) -> Vec<Value> {
    let v = Vault::new().file(J, md(body));
    v.json(&["list", "--format", "json"])["items"]
        .as_array()
        .unwrap()
        .clone()
}

fn texts_of(body: &[&str]) -> Vec<String> {
    items_of(body)
        .iter()
        .map(|i| i["text"].as_str().unwrap().to_string())
        .collect()
}

// ------------------------------------------------------------------ bugs

#[test]
fn a_dash_line_in_the_middle_of_a_note_is_not_front_matter() {
    assert_eq!(
        texts_of(&[
            "## Next",
            "- [ ] first follow-up",
            "",
            "---",
            "## Next",
            "- [ ] second follow-up",
            "---",
            "- [ ] third follow-up",
        ]),
        vec!["first follow-up", "second follow-up", "third follow-up"]
    );
}

#[test]
fn front_matter_at_the_top_is_still_skipped() {
    assert_eq!(
        texts_of(&["---", "tags: daily", "---", "## Next", "- [ ] only this",]),
        vec!["only this"]
    );
}

#[test]
fn logseq_drawers_and_date_lines_are_not_task_text() {
    let items = items_of(&[
        "- TODO Book the venue",
        "  :AGENDA:",
        "  estimate: 2h",
        "  :END:",
        "  SCHEDULED: <2026-05-09 Sat>",
        "- TODO Book the venue",
        "  :LOGBOOK:",
        "  CLOCK: [2026-05-01 Fri 10:00]--[2026-05-01 Fri 11:00] =>  01:00:00",
        "  :END:",
        "  DEADLINE: <2026-05-20 Wed>",
    ]);
    let got: Vec<(String, Value, Value)> = items
        .iter()
        .map(|i| {
            (
                i["text"].as_str().unwrap().to_string(),
                i["scheduled"].clone(),
                i["due"].clone(),
            )
        })
        .collect();
    // One cluster: the same task written twice; its dates kept as metadata.
    assert_eq!(got.len(), 1, "{items:?}");
    assert_eq!(got[0].0, "Book the venue");
    let seen: Vec<&Value> = items[0]["seen_in"].as_array().unwrap().iter().collect();
    assert_eq!(seen.len(), 2);
}

#[test]
fn a_logged_state_line_in_a_drawer_does_not_split_the_task() {
    let items = items_of(&[
        "- LATER Water the ferns",
        "  :LOGBOOK:",
        "  * State \"DONE\" from \"LATER\" [2026-05-01 Fri 09:00]",
        "  - a stray dash line",
        "  CLOCK: [2026-05-01 Fri 09:00]--[2026-05-01 Fri 09:05] =>  00:05:00",
        "  :END:",
        "  SCHEDULED: <2026-05-04 Mon .+1w>",
        "- TODO Oil the hinges",
    ]);
    let mut got: Vec<(String, Value)> = items
        .iter()
        .map(|i| {
            (
                i["text"].as_str().unwrap().to_string(),
                i["scheduled"].clone(),
            )
        })
        .collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        got,
        vec![
            ("Oil the hinges".to_string(), Value::Null),
            ("Water the ferns".to_string(), Value::from("2026-05-04")),
        ]
    );
}

#[test]
fn an_empty_logseq_block_does_not_make_the_task_above_a_heading() {
    assert_eq!(
        texts_of(&[
            "- LATER Sharpen the chisels",
            "\t-",
            "\t- # Notes on steel",
            "- TODO Sweep the workshop",
            "  -",
        ]),
        vec!["Sharpen the chisels", "Sweep the workshop"]
    );
}

#[test]
fn logseq_date_lines_become_dates() {
    let items = items_of(&[
        "- TODO Renew the passport",
        "  SCHEDULED: <2026-05-04 Mon>",
        "  DEADLINE: <2026-05-20 Wed 10:00>",
    ]);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["text"], "Renew the passport");
    assert_eq!(items[0]["scheduled"], "2026-05-04");
    assert_eq!(items[0]["due"], "2026-05-20");
}

#[test]
fn a_plain_line_after_a_list_item_is_not_part_of_it() {
    assert_eq!(
        texts_of(&[
            "## Next",
            "- [ ] Call the plumber",
            "He said Tuesday works best.",
            "- [ ] Pay the invoice",
            "  before Friday",
        ]),
        vec!["Call the plumber", "Pay the invoice before Friday"]
    );
}

// ----------------------------------------------------------- heading roles

#[test]
fn headings_that_name_open_work_collect_their_items() {
    assert_eq!(
        texts_of(&[
            "## Open questions",
            "- Why does the sync stall at night?",
            "## Blockers",
            "- [ ] Staging certificate expired",
            "## Recommendations",
            "- Split the importer in two",
            "## Waiting on Dana",
            "- Signed contract",
            "## Urgent",
            "- [ ] Renew the domain",
            "## 열린 질문",
            "- 캐시를 언제 비울까?",
            "## 未解決の質問",
            "- 再試行の回数は？",
            "## Notes",
            "- the office was cold",
        ]),
        vec![
            "Why does the sync stall at night?",
            "Staging certificate expired",
            "Split the importer in two",
            "Signed contract",
            "Renew the domain",
            "캐시를 언제 비울까?",
            "再試行の回数は？",
        ]
    );
}

#[test]
fn headings_that_name_unfinished_or_broken_work_collect_their_items() {
    assert_eq!(
        texts_of(&[
            "## Not done yet",
            "- The export still skips hidden layers.",
            "## What looked broken and was not",
            "- The warning in the log is harmless.",
            "## Carried forward",
            "- Ask the designer for the dark palette.",
            "## What is not working",
            "- Login fails on the second tablet.",
            "## Loose ends",
            "- Branch `tidy-menus` is not merged yet.",
            "## Session metrics",
            "- Files touched: 4",
            "## 미완료",
            "- 백업 스크립트 권한 확인",
            "## 持ち越し",
            "- 請求書のテンプレートを直す",
        ]),
        vec![
            "The export still skips hidden layers.",
            "Ask the designer for the dark palette.",
            "Login fails on the second tablet.",
            "Branch `tidy-menus` is not merged yet.",
            "백업 스크립트 권한 확인",
            "請求書のテンプレートを直す",
        ]
    );
}

#[test]
fn icon_shortcodes_do_not_hide_a_heading_role() {
    assert_eq!(
        texts_of(&[
            "# :LiListTodo: Do",
            "- Ask for the access key",
            "# :LiTimer: Log",
            "- 09:00 standup"
        ]),
        vec!["Ask for the access key"]
    );
}

#[test]
fn an_item_of_nothing_but_tags_is_a_placeholder() {
    let v = Vault::new().file(
        J,
        md(&[
            "## Next actions",
            "- [ ] #project/[name]",
            "- [ ] #waiting #someday",
            "- [ ] #42",
            "- [ ] Mend the fence #garden",
        ]),
    );
    assert_eq!(v.open_texts(), vec!["#42", "Mend the fence"]);
    assert_eq!(v.report()["audit"]["non_task"], 2);
}

#[test]
fn a_heading_can_be_a_follow_up() {
    assert_eq!(
        texts_of(&[
            "## Notes",
            "- the backup ran twice",
            "## TODO: rotate the backup keys",
            "### [ ] 1. Try a real session",
            "### [x] 2. Write the migration",
            "## TODO",
            "# TODO: a title is never an item",
        ]),
        vec!["rotate the backup keys", "1. Try a real session"]
    );
}

#[test]
fn a_bold_next_lead_in_makes_the_list_after_it_follow_ups() {
    assert_eq!(
        texts_of(&[
            "## Notes",
            "**For Monday:**",
            "- call the bank",
            "- buy stamps",
            "",
            "**Cause:**",
            "- the disk filled up",
            "",
            "**Next steps**:",
            "1. rerun the import",
            "",
            "A plain paragraph.",
            "",
            "- not a follow-up",
        ]),
        vec!["call the bank", "buy stamps", "rerun the import"]
    );
}

#[test]
fn plain_sub_bullets_are_details_of_their_item() {
    assert_eq!(
        texts_of(&[
            "## Next",
            "1. **Write the importer**",
            "   - read the CSV export",
            "   - skip the header row",
            "     - and blank lines",
            "2. [ ] Ship the release",
            "   - tag it",
        ]),
        vec![
            "**Write the importer** — read the CSV export; skip the header row; and blank lines",
            "Ship the release — tag it",
        ]
    );
}

#[test]
fn nested_boxes_and_items_under_a_label_stay_items() {
    assert_eq!(
        texts_of(&[
            "## Next",
            "- Release prep",
            "  - [ ] update the changelog",
            "  - TODO tag the version",
            "- Frontend:",
            "  - fix the button",
            "  - add the dark mode",
        ]),
        vec![
            "Release prep",
            "update the changelog",
            "tag the version",
            "Frontend:",
            "fix the button",
            "add the dark mode",
        ]
    );
}

#[test]
fn a_plain_sub_bullet_of_a_done_item_is_not_open() {
    assert_eq!(
        texts_of(&[
            "## Next",
            "- [x] migrate the database",
            "  - the backup is in the usual place",
            "- [ ] rotate the keys",
        ]),
        vec!["rotate the keys"]
    );
}

#[test]
fn lists_under_a_bold_lead_in_without_a_role_are_not_follow_ups() {
    assert_eq!(
        texts_of(&[
            "## Next",
            "### [ ] Migration runner",
            "**Features**:",
            "- apply the pending migrations",
            "- keep a schema version",
            "",
            "**Files to create:**",
            "- `state/migrate.py`",
            "",
            "**What to check:**",
            "- [ ] the version table exists",
            "- TODO backups are written",
            "",
            "A paragraph ends the lead-in.",
            "",
            "- a follow-up again",
        ]),
        vec![
            "Migration runner",
            "the version table exists",
            "backups are written",
            "a follow-up again",
        ]
    );
}

#[test]
fn a_plain_item_under_a_lead_in_in_a_done_section_still_closes() {
    let v = Vault::new().file(
        J,
        md(&[
            "## Next",
            "- rerun the import",
            "",
            "## Done",
            "**Backend:**",
            "- rerun the import",
        ]),
    );
    let r = v.json(&["audit", "--format", "json"]);
    assert_eq!(r["audit"]["resolved"], 1, "{r}");
    assert_eq!(r["audit"]["open"], 0, "{r}");
}

#[test]
fn an_unticked_box_under_a_done_heading_is_open() {
    assert_eq!(
        texts_of(&[
            "## Done — website copy",
            "- [ ] write the pricing page",
            "- [x] write the about page",
            "- a plain done note",
        ]),
        vec!["write the pricing page"]
    );
}

#[test]
fn done_markers_of_real_vaults_close_items() {
    let items = items_of(&[
        "## Next",
        "- ✅ Pull the latest changes",
        "- Check the logs ✅",
        "- ~~Flaky upload test~~ — resolved by the retry fix",
        "- ~~Old idea~~ kept for reference",
        "- [X] Capital done",
        "- [D] Deleted in taskwiki",
        "- [o] Half done in vimwiki",
    ]);
    let got: Vec<(&str, &str)> = items
        .iter()
        .map(|i| (i["text"].as_str().unwrap(), i["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Half done in vimwiki", "in_progress"),
            ("~~Old idea~~ kept for reference", "open"),
        ]
    );
}

// ------------------------------------------------------- configuration

#[test]
fn an_extra_list_adds_to_the_default_phrases() {
    let parking = md(&[
        "## Parking lot",
        "- [ ] tidy the garage",
        "## Next",
        "- [ ] call the bank",
    ]);
    let v = Vault::new()
        .file(
            ".agents/active-status.toml",
            "[headings]\nnext_extra = [\"Parking lot\"]\n",
        )
        .file(J, &parking);
    assert_eq!(v.open_texts(), vec!["tidy the garage", "call the bank"]);
    let v = Vault::new()
        .file(
            ".agents/active-status.toml",
            "[headings]\nnext = [\"Parking lot\"]\n",
        )
        .file(J, &parking);
    assert_eq!(v.open_texts(), vec!["tidy the garage"]);
}

// ----------------------------------------------------------------- layouts

/// Runs `init`, then returns its stdout and the configuration it wrote.
fn init(v: &Vault) -> (String, String) {
    let out = v.cmd().arg("init").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (stdout(&out), v.read(".agents/active-status.toml"))
}

#[test]
fn init_finds_the_layout_of_an_ai_assisted_repository() {
    let v = Vault::new()
        .file(
            "TODO.md",
            md(&["# Plan", "## Next", "- [ ] add the export button"]),
        )
        .file(
            "docs/sessions/2026-05-01-login.md",
            md(&[
                "# Login",
                "## Next steps",
                "- [ ] rate-limit the login form",
            ]),
        )
        .file(
            "docs/handoffs/2026-05-02.md",
            md(&["## Recommended next step", "1. Run the device test"]),
        );
    let (printed, config) = init(&v);
    assert!(
        printed.contains("found    docs/sessions/ (1 note): session-log source"),
        "{printed}"
    );
    assert!(
        printed.contains("found    docs/handoffs/ (1 note): handoff source"),
        "{printed}"
    );
    assert!(
        printed.contains("found    TODO.md: todo source"),
        "{printed}"
    );
    assert!(
        config.contains("# found by init: docs/sessions (session-log)"),
        "{config}"
    );
    assert!(config.contains("kind = \"session-log\""), "{config}");
    let items = v.json(&["list", "--format", "json"]);
    let mut got: Vec<(String, String)> = items["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["text"].as_str().unwrap().to_string(),
                i["source"]["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            (
                "Run the device test".to_string(),
                "journal_next".to_string()
            ),
            (
                "add the export button".to_string(),
                "project_todos".to_string()
            ),
            (
                "rate-limit the login form".to_string(),
                "journal_next".to_string()
            ),
        ]
    );
    // Every item has the repository's project: none is untagged.
    for i in items["items"].as_array().unwrap() {
        assert!(i["project"].as_str().unwrap().starts_with("vault-"), "{i}");
    }
}

#[test]
fn init_finds_session_log_and_handoff_folders_by_name() {
    let note = |next: &str| md(&["# Work", "## Next steps", &format!("- [ ] {next}")]);
    let v = Vault::new()
        .file(
            "_session_logs/2026-05-01-1-search.md",
            note("index the tags"),
        )
        .file("_session_logs/2026-05-02-1-search.md", note("rank by date"))
        .file(
            "notes/Session Notes/2026/05/2026-05-03.md",
            note("trim logs"),
        )
        .file("docs/hand-offs/2026-05-04.md", note("run the backup"))
        .file("docs/hand-offs/sessions/2026-05-04.md", note("inner note"))
        .file(".claude/sessions/2026-05-05.md", note("hidden, not read"));
    let (printed, config) = init(&v);
    for line in [
        "found    _session_logs/ (2 notes): session-log source",
        "found    notes/Session Notes/ (1 note): session-log source",
        "found    docs/hand-offs/ (2 notes): handoff source",
    ] {
        assert!(printed.contains(line), "{line}\n{printed}");
    }
    assert!(!printed.contains("hand-offs/sessions"), "{printed}");
    assert!(!printed.contains(".claude"), "{printed}");
    assert!(
        config.contains("{ path = \"_session_logs\", kind = \"session-log\""),
        "{config}"
    );
    // Read as session logs: the earlier notes' lists are superseded by the
    // latest one, which neither restates nor closes them.
    let r = v.json(&["--today", "2026-05-06", "audit", "--format", "json"]);
    let mut review = str_pairs(&r["review"], "text", "reason");
    review.sort();
    assert_eq!(
        review,
        [
            ("index the tags", "superseded"),
            ("rank by date", "superseded"),
            ("trim logs", "superseded"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
}

#[test]
fn init_finds_daily_notes_folders() {
    for (files, want) in [
        (
            vec!["Daily Notes/2026-05-01.md", "Daily Notes/2026-05-02.md"],
            "journal = \"Daily Notes\"",
        ),
        (
            vec!["diary/2026-05-01.md", "diary/diary.md"],
            "journal = \"diary\"",
        ),
        (
            vec![
                "Archive/Calendar 2026/05/2026-05-01.md",
                "Archive/Calendar 2026/05/2026-05-02.md",
                "Archive/Calendar 2026/04/2026-04-30.md",
            ],
            "journal = \"Archive/Calendar 2026\"",
        ),
        (
            vec![
                "daily.journal.2026.05.01.md",
                "daily.journal.2026.05.02.md",
                "daily.journal.2026.05.03.md",
            ],
            "journal = \".\"",
        ),
    ] {
        let mut v = Vault::new();
        for f in &files {
            v = v.file(f, md(&["## Todo", &format!("- [ ] from {f}")]));
        }
        let (_, config) = init(&v);
        assert!(config.contains(want), "{files:?}\n{config}");
        let n = files
            .iter()
            .filter(|f| f.contains("20") && !f.ends_with("diary.md"))
            .count();
        assert_eq!(v.open_texts().len(), n, "{files:?}");
    }
}

#[test]
fn init_leaves_journals_folders_to_the_default() {
    let v = Vault::new().file("journals/2026_05_01.md", "- TODO call back\n");
    let (printed, config) = init(&v);
    assert!(
        printed.contains("found    journals/ (Logseq): read by default"),
        "{printed}"
    );
    assert!(!config.contains("\njournal = "), "{config}");
    assert_eq!(v.open_texts(), vec!["call back"]);
}

#[test]
fn extra_sources_are_checked() {
    let v = Vault::new().file(
        ".agents/active-status.toml",
        "[sources]\nextra = [{ path = \"notes\", kind = \"diary\" }]\n",
    );
    let out = v.cmd().args(["list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("key `sources.extra`"),
        "{}",
        stderr(&out)
    );
    let v = Vault::new().file(
        ".agents/active-status.toml",
        "[sources]\nextra = [{ path = \"../notes\", kind = \"journal\" }]\n",
    );
    let out = v.cmd().args(["list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
}

#[test]
fn a_dated_note_far_out_of_sequence_is_warned() {
    let mut v = Vault::new();
    for d in [
        "2026-05-01",
        "2026-05-02",
        "2026-05-04",
        "2026-05-05",
        "2025-05-03",
    ] {
        v = v.file(
            &format!("journal/{d}.md"),
            md(&["## Next", &format!("- [ ] item {d}")]),
        );
    }
    let r = v.report();
    let warned: Vec<String> = r["audit"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| {
            w["message"]
                .as_str()
                .unwrap()
                .contains("nearest other dated note")
        })
        .map(|w| w["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(warned, vec!["journal/2025-05-03.md"]);
    // Still read.
    assert_eq!(v.open_texts().len(), 5);
}

#[test]
fn a_lower_case_tag_names_its_project_without_a_folder() {
    let v = Vault::new().project("webapp").file(
        J,
        md(&[
            "## Session: login page (webapp)",
            "### Next",
            "- [ ] (infra) renew the certificate",
            "- [ ] (WIP) try the new layout",
            "- [ ] (Webapp) fix the footer",
        ]),
    );
    let items = v.json(&["list", "--format", "json"]);
    let got: Vec<(String, String)> = items["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["text"].as_str().unwrap().to_string(),
                i["project"].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("renew the certificate".to_string(), "infra".to_string()),
            ("(WIP) try the new layout".to_string(), "webapp".to_string()),
            ("fix the footer".to_string(), "webapp".to_string()),
        ]
    );
}
