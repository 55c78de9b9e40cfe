//! Integration tests for the reading rules of docs/FORMAT.md §1–3 and §8: sections,
//! items, checkboxes, skipped blocks, project tags, privacy and file handling.
//! Every audit report fetched here is checked for the accounting identities
//! (see `check_accounting`). The merge rules live in `rules_merge.rs`.

use crate::common::*;
use serde_json::{Value, json};

// ---------------------------------------------------------------- helpers

/// The warnings of the audit whose path is `path`.
fn warnings_for(r: &Value, path: &str) -> Vec<String> {
    r["audit"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["path"] == path)
        .map(|w| w["message"].as_str().unwrap().to_string())
        .collect()
}

const J6: &str = "journal/2026-05-06.md";

// --------------------------------------------------------------- sections

#[test]
fn journal_sections_end_at_same_or_higher_heading_and_span_subheadings() {
    let v = Vault::new().project("p").file(
        J6,
        md(&[
            "# 2026-05-06",        // 1
            "## Session: one (p)", // 2
            "### Next",            // 3
            "- [ ] j1 first",      // 4
            "#### deeper detail",  // 5
            "- [ ] j2 under h4",   // 6
            "### Notes",           // 7
            "- [ ] j3 in notes",   // 8
            "## Session: two (p)", // 9
            "- [ ] j4 in session", // 10
            "### Next",            // 11
            "- [ ] j5 second",     // 12
            "# Appendix",          // 13
            "- [ ] j6 appendix",   // 14
        ]),
    );
    audit_is(
        &v,
        (3, 0, 0, 3),
        &[
            row("j1 first", Some("p"), "today", 4),
            row("j2 under h4", Some("p"), "today", 6),
            row("j5 second", Some("p"), "today", 12),
        ],
    );
}

#[test]
fn level_two_next_section_continues_through_h3_and_ends_at_h2_or_h1() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        md(&[
            "# p",                  // 1
            "## Next Session",      // 2
            "- [ ] n1 top",         // 3
            "### Details",          // 4
            "- [ ] n2 under h3",    // 5
            "## Notes",             // 6
            "- [ ] l1 in notes",    // 7
            "## Next",              // 8
            "- [ ] n3 second next", // 9
            "# Archive",            // 10
            "- [ ] a1 archived",    // 11
        ]),
    );
    let r = audit_rows(
        &v,
        &[
            row("n1 top", Some("p"), "project", 3),
            row("n2 under h3", Some("p"), "project", 5),
            row("n3 second next", Some("p"), "project", 9),
        ],
    );
    assert_eq!(r["audit"]["sources"]["project_todos"], 3);
}

#[test]
fn heading_match_ignores_case_whitespace_punctuation_and_trailing_words() {
    let v = Vault::new().project("p").file(
        J6,
        md(&[
            "## Session: s (p)",       // 1
            "### NEXT STEPS:",         // 2
            "- [ ] upper with colon",  // 3
            "###   next    session  ", // 4
            "- [ ] spaced out",        // 5
            "### Follow-Ups:",         // 6
            "- [ ] follow ups colon",  // 7
            "### Next::",              // 8
            "- [ ] two colons",        // 9
            "### Next steps later",    // 10
            "- [ ] longer heading",    // 11
        ]),
    );
    let r = audit(&v);
    // A heading has a role when its normalized text starts with a phrase of
    // that role on a word boundary ("Next steps later" starts with "next steps").
    assert_eq!(
        prio(&r),
        vec![
            "upper with colon",
            "spaced out",
            "follow ups colon",
            "two colons",
            "longer heading"
        ]
    );
}

#[test]
fn every_default_next_heading_collects() {
    // Distinct texts, so that no two items merge.
    let headings = [
        ("Next", "water the plants"),
        ("Next Session", "book the flights"),
        ("Next Steps", "refactor scanner"),
        ("Follow-ups", "email the auditor"),
        ("Next (captured)", "grep old logs"),
        ("다음", "빌드 고치기"),
        ("다음 세션", "문서 번역"),
    ];
    let mut lines = vec!["## Session: s (p)".to_string()];
    for (h, text) in headings {
        lines.push(format!("### {h}"));
        lines.push(format!("- [ ] {text}"));
    }
    let v = Vault::new().project("p").file(J6, lines.join("\n") + "\n");
    let r = audit(&v);
    let expected: Vec<_> = (0..headings.len())
        .map(|i| row(headings[i].1, Some("p"), "today", 3 + 2 * i as u64))
        .collect();
    assert_eq!(rows(&r), expected);
}

#[test]
fn journal_items_outside_next_headings_are_not_collected() {
    let v = Vault::new().project("p").file(
        J6,
        md(&[
            "- [ ] before any heading",  // 1
            "# 2026-05-06",              // 2
            "- [ ] under title",         // 3
            "## Session: s (p)",         // 4
            "- [ ] directly in session", // 5
            "### Notes",                 // 6
            "- [ ] a note",              // 7
            "### Ideas",                 // 8
            "- [ ] an idea",             // 9
            "### Next",                  // 10
            "- [ ] the only one",        // 11
        ]),
    );
    audit_is(
        &v,
        (1, 0, 0, 1),
        &[row("the only one", Some("p"), "today", 11)],
    );
}

#[test]
fn project_files_collect_only_under_next_but_resolve_from_anywhere() {
    let todos = md(&[
        "# p todos",             // 1
        "- [ ] stray open item", // 2
        "## Next Session",       // 3
        "- [ ] ship the parser", // 4
        "- [ ] write the docs",  // 5
        "## Backlog",            // 6
        "- [ ] someday maybe",   // 7
        "- [x] write the docs",  // 8
    ]);
    let progress = md(&[
        "# progress",                // 1
        "- [x] benchmark the merge", // 2
        "## Next Session",           // 3
        "- [ ] benchmark the merge", // 4
        "- [ ] profile the scanner", // 5
    ]);
    let v = Vault::new()
        .project("p")
        .file("projects/p/todos.md", todos)
        .file("projects/p/PROGRESS.md", progress);
    let r = audit_is(
        &v,
        (4, 2, 0, 2),
        &[
            row("ship the parser", Some("p"), "project", 4),
            row("profile the scanner", Some("p"), "progress", 5),
        ],
    );
    assert_eq!(
        r["audit"]["sources"],
        json!({"journal_next": 0, "captured": 0, "active_todos": 0, "project_todos": 2, "progress": 2})
    );
}

// ------------------------------------------------------------------ items

#[test]
fn nested_ordered_star_and_plus_items_are_items() {
    let v = Vault::new().project("p").file(
        J6,
        md(&[
            "## Session: s (p)",     // 1
            "### Next",              // 2
            "- [ ] parent task",     // 3
            "  - [ ] child task",    // 4
            "    - grandchild note", // 5
            "",                      // 6
            "1. [ ] ordered one",    // 7
            "2. ordered two",        // 8
            "",                      // 9
            "* star bullet",         // 10
            "",                      // 11
            "+ plus bullet",         // 12
        ]),
    );
    audit_rows(
        &v,
        &[
            row("parent task", Some("p"), "today", 3),
            // A plain nested item is a detail of its parent.
            row("child task — grandchild note", Some("p"), "today", 4),
            row("ordered one", Some("p"), "today", 7),
            row("ordered two", Some("p"), "today", 8),
            row("star bullet", Some("p"), "today", 10),
            row("plus bullet", Some("p"), "today", 12),
        ],
    );
}

#[test]
fn text_is_first_paragraph_source_with_soft_breaks_joined() {
    let v = Vault::new().project("p").file(
        J6,
        md(&[
            "## Session: s (p)",                                     // 1
            "### Next",                                              // 2
            "- [ ] a long item that",                                // 3
            "  wraps onto a second line",                            // 4
            "- [ ] loose first paragraph",                           // 5
            "  still the first",                                     // 6
            "",                                                      // 7
            "  second paragraph is not text",                        // 8
            "- [ ] see [the docs](https://x.y) and **this** `code`", // 9
        ]),
    );
    let r = audit(&v);
    assert_eq!(
        prio(&r),
        vec![
            "a long item that wraps onto a second line",
            "loose first paragraph still the first",
            "see [the docs](https://x.y) and **this** `code`",
        ]
    );
    assert_eq!(r["priorities"][1]["source"]["line"], 5);
}

// ------------------------------------------------------------- checkboxes

#[test]
fn checkbox_kinds_in_a_next_section() {
    // The project file holds open copies; the journal's done marks close them.
    let v = Vault::new()
        .project("p")
        .file(
            "projects/p/todos.md",
            md(&[
                "## Next",
                "- [ ] bravo lowercase x",
                "- [ ] charlie capital x",
                "- [ ] delta cancelled",
                "- [ ] echo question",
            ]),
        )
        .file(
            J6,
            md(&[
                "## Session: s (p)",       // 1
                "### Next",                // 2
                "- [ ] alpha open",        // 3
                "- [x] bravo lowercase x", // 4
                "- [X] charlie capital x", // 5
                "- [-] delta cancelled",   // 6
                "- [?] echo question",     // 7
                "- foxtrot no checkbox",   // 8
            ]),
        );
    audit_is(
        &v,
        (7, 3, 1, 3),
        &[
            row("alpha open", Some("p"), "today", 3),
            row("echo question", Some("p"), "today", 7),
            row("foxtrot no checkbox", Some("p"), "today", 8),
        ],
    );
    // 3 journal + 4 project collected; bravo/charlie/delta resolved; the
    // project's "echo question" merges into the journal's.
}

#[test]
fn actives_count_only_checkbox_items() {
    let v = Vault::new().project("p").file(
        "projects/p/actives/t1/todos.md",
        md(&[
            "# Task t1",               // 1
            "- [ ] act open one",      // 2
            "- [x] act done one",      // 3
            "- [X] act done two",      // 4
            "- [-] act cancelled",     // 5
            "- [?] act unsure",        // 6
            "- plain bullet ignored",  // 7
            "## Notes",                // 8
            "- [ ] act open two",      // 9
            "  - [ ] act nested open", // 10
            "  - nested plain detail", // 11
        ]),
    );
    let r = audit_rows(
        &v,
        &[
            row("act open one", Some("p"), "active", 2),
            row("act unsure", Some("p"), "active", 6),
            row("act open two — nested plain detail", Some("p"), "active", 9),
            row("act nested open", Some("p"), "active", 10),
        ],
    );
    assert_eq!(
        r["active_tasks"],
        json!([{"project": "p", "task": "t1", "path": "projects/p/actives/t1/todos.md", "open": 4, "done": 3}])
    );
    assert_eq!(r["audit"]["sources"]["active_todos"], 4);
}

// --------------------------------------------------------- skipped blocks

#[test]
fn front_matter_is_not_scanned() {
    let v = Vault::new()
        .project("p")
        .file(
            "projects/p/actives/t/todos.md",
            md(&[
                "---",
                "title: t",
                "items:",
                "- [ ] fake yaml item",
                "---",
                "- [ ] real active item",
            ]),
        )
        .file(
            J6,
            md(&[
                "---",
                "# Next",
                "- fake",
                "---",
                "## Session: s (p)",
                "### Next",
                "- [ ] real journal item",
            ]),
        );
    let r = audit(&v);
    assert_eq!(prio(&r), vec!["real journal item", "real active item"]);
    assert_eq!(r["active_tasks"][0]["open"], 1);
}

#[test]
fn code_and_html_blocks_are_not_scanned() {
    let body = md(&[
        "- [ ] real one",          // 1
        "",                        // 2
        "```",                     // 3
        "- [ ] fenced fake",       // 4
        "```",                     // 5
        "",                        // 6
        "~~~md",                   // 7
        "- [ ] tilde fake",        // 8
        "~~~",                     // 9
        "",                        // 10
        "A paragraph.",            // 11
        "",                        // 12
        "    - [ ] indented fake", // 13
        "",                        // 14
        "<div>",                   // 15
        "- [ ] html fake",         // 16
        "</div>",                  // 17
        "",                        // 18
        "- [ ] real two",          // 19
    ]);
    let v = Vault::new()
        .project("p")
        .file("projects/p/actives/t/todos.md", &body)
        .file(J6, format!("## Session: s (p)\n### Next\n{body}"));
    let r = audit_is(
        &v,
        (4, 0, 2, 2),
        &[
            row("real one", Some("p"), "today", 3),
            row("real two", Some("p"), "today", 21),
        ],
    );
    // The active copies merge into the journal ones.
    assert_eq!(r["active_tasks"][0]["open"], 2);
}

// ------------------------------------------------------------------- tags

#[test]
fn explicit_tag_beats_path_and_session_and_is_lower_cased() {
    let v = Vault::new()
        .project("a")
        .project("b")
        .md(
            "projects/a/todos.md",
            &["## Next", "- [ ] (b) tagged for b", "- [ ] path gives a"],
        )
        .file(
            J6,
            md(&[
                "## Session: s (a)",
                "### Next",
                "- [ ] (B) shouting tag",
                "- [ ] session gives a",
                "- (b) routed without checkbox", // the form `route --to journal` writes
            ]),
        );
    audit_rows(
        &v,
        &[
            row("shouting tag", Some("b"), "today", 3),
            row("session gives a", Some("a"), "today", 4),
            row("routed without checkbox", Some("b"), "today", 5),
            row("tagged for b", Some("b"), "project", 2),
            row("path gives a", Some("a"), "project", 3),
        ],
    );
}

#[test]
fn session_heading_trailing_slug_tags_its_items() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Session: fix lock race (wrap-cli)", // 1
            "### Next",                             // 2
            "- [ ] add lock timeout",               // 3
            "## 세션: 정리 (notes)",                // 4
            "### 다음",                             // 5
            "- [ ] 링크 고치기",                    // 6
        ]),
    );
    let r = audit_rows(
        &v,
        &[
            row("add lock timeout", Some("wrap-cli"), "today", 3),
            row("링크 고치기", Some("notes"), "today", 6),
        ],
    );
    assert_eq!(r["audit"]["untagged_warnings"], json!([]));
}

#[test]
fn session_heading_names_a_known_project_as_a_whole_word() {
    let v = Vault::new().project("wrap-cli").project("core").file(
        J6,
        md(&[
            "## Session: polishing wrap-cli docs", // 1
            "### Next",                            // 2
            "- [ ] document the flags",            // 3
            "## Session: hardcore mode",           // 4
            "### Next",                            // 5
            "- [ ] not a whole word",              // 6
        ]),
    );
    let r = audit_rows(
        &v,
        &[
            row("document the flags", Some("wrap-cli"), "today", 3),
            row("not a whole word", None, "today", 6),
        ],
    );
    assert_eq!(
        r["audit"]["untagged_warnings"],
        json!([{"path": J6, "line": 6, "text": "not a whole word", "reason": "session-without-project"}])
    );
}

#[test]
fn untagged_reasons_and_untagged_items_still_listed() {
    let v = Vault::new().project("wrap-cli").project("notes").file(
        J6,
        md(&[
            "# 2026-05-06",                   // 1
            "### Next",                       // 2
            "- [ ] before any session",       // 3
            "## Session: wrap-cli and notes", // 4
            "### Next",                       // 5
            "- [ ] both projects named",      // 6
            "## Session: misc",               // 7
            "### Next",                       // 8
            "- [ ] nothing named",            // 9
            "## Planning",                    // 10
            "### Session: deep (wrap-cli)",   // 11
            "#### Next",                      // 12
            "- [ ] level three session",      // 13
        ]),
    );
    let r = audit_rows(
        &v,
        &[
            row("before any session", None, "today", 3),
            row("both projects named", None, "today", 6),
            row("nothing named", None, "today", 9),
            row("level three session", None, "today", 13),
        ],
    );
    let w = |line: u64, text: &str, reason: &str| json!({"path": J6, "line": line, "text": text, "reason": reason});
    assert_eq!(
        r["audit"]["untagged_warnings"],
        json!([
            w(3, "before any session", "no-session"),
            w(6, "both projects named", "ambiguous-session"),
            w(9, "nothing named", "session-without-project"),
            w(13, "level three session", "no-session"),
        ])
    );
}

#[test]
fn level_three_session_does_not_override_enclosing_level_two() {
    let v = Vault::new().file(
        J6,
        md(&[
            "## Session: outer (alpha)",
            "### Session: inner (beta)",
            "#### Next",
            "- [ ] which project",
        ]),
    );
    let r = audit(&v);
    assert_eq!(
        rows(&r),
        vec![row("which project", Some("alpha"), "today", 4)]
    );
}

#[test]
fn inbox_project_comment_tags_captured_items() {
    let v = Vault::new()
        .project("wrap-cli")
        .file(
            ".agents/inbox/2026-05-06T10-00-00-abcd1234.md",
            md(&[
                "<!-- project: wrap-cli -->",
                "### Next (captured)",
                "- [ ] captured thing",
            ]),
        )
        .md(
            ".agents/inbox/2026-05-06T11-00-00-ffff0000.md",
            &["### Next (captured)", "- [ ] untagged capture"],
        );
    let r = audit_rows(
        &v,
        &[
            row("captured thing", Some("wrap-cli"), "captured", 3),
            row("untagged capture", None, "captured", 2),
        ],
    );
    assert_eq!(r["priorities"][0]["source"]["kind"], "captured");
    assert_eq!(r["as_of"], "2026-05-06");
    assert_eq!(
        r["audit"]["untagged_warnings"],
        json!([{"path": ".agents/inbox/2026-05-06T11-00-00-ffff0000.md", "line": 2, "text": "untagged capture", "reason": "no-session"}])
    );
}

// ---------------------------------------------------------------- privacy

#[test]
fn private_spans_are_redacted_in_json_and_dashboard() {
    let v = Vault::new().project("p");
    journal(
        &v,
        "2026-05-06",
        &[
            "### Next",
            "- [ ] call <private>Dr. Smith 555-1234</private> about results",
            "- [ ] token <private>hunter2 and more",
        ],
    );
    v.write(
        "journal/2026-05-05.md",
        md(&["### Next", "- [ ] ask <private>Zelda</private> later"]),
    );
    let r = audit(&v);
    assert_eq!(
        prio(&r),
        vec![
            "call [private] about results",
            "token [private]",
            "ask [private] later"
        ]
    );
    assert_eq!(
        r["audit"]["untagged_warnings"][0]["text"],
        "ask [private] later"
    );
    let json = r.to_string();
    for secret in ["Smith", "555-1234", "hunter2", "Zelda"] {
        assert!(!json.contains(secret), "{secret} leaked into JSON");
    }
    v.cmd().arg("regen").assert().success();
    let dash = v.read("ACTIVE-STATUS.md");
    assert_has(&dash, &["call [private] about results", "token [private]"]);
    for secret in ["Smith", "555-1234", "hunter2", "Zelda"] {
        assert!(!dash.contains(secret), "{secret} leaked into the dashboard");
    }
}

// ------------------------------------------------------- files and dates

#[test]
fn invalid_utf8_is_decoded_lossily_with_a_warning() {
    let mut bytes = b"## Session: s (p)\n### Next\n- [ ] caf".to_vec();
    bytes.extend_from_slice(&[0xff, 0xfe]);
    bytes.extend_from_slice(b" menu\n- [ ] plain item\n");
    let v = Vault::new().project("p").file(J6, bytes);
    let r = audit(&v);
    assert_eq!(prio(&r), vec!["caf\u{FFFD}\u{FFFD} menu", "plain item"]);
    assert_eq!(warnings_for(&r, J6).len(), 1, "{}", r["audit"]["warnings"]);
}

#[test]
fn file_with_nul_byte_is_skipped_with_a_warning() {
    let v = Vault::new()
        .project("p")
        .file("projects/p/todos.md", b"## Next\n- [ ] hidden by nul\0\n")
        .md("projects/p/PROGRESS.md", &["## Next", "- [ ] still read"]);
    let r = audit_counts(&v, (1, 0, 0, 1));
    assert_eq!(prio(&r), vec!["still read"]);
    assert_eq!(
        warnings_for(&r, "projects/p/todos.md").len(),
        1,
        "{}",
        r["audit"]["warnings"]
    );
}

#[test]
fn undated_journal_file_is_skipped_with_a_warning_nested_dated_file_is_read() {
    let v = Vault::new()
        .project("p")
        .md(
            "journal/notes.md",
            &["## Session: s (p)", "### Next", "- [ ] in undated file"],
        )
        .md(
            "journal/2026/05/2026-05-06-standup.md",
            &["## Session: s (p)", "### Next", "- [ ] in nested file"],
        );
    let r = audit_rows(&v, &[row("in nested file", Some("p"), "today", 3)]);
    assert_eq!(
        r["priorities"][0]["source"]["path"],
        "journal/2026/05/2026-05-06-standup.md"
    );
    assert_eq!(r["audit"]["warnings"].as_array().unwrap().len(), 1);
    assert_eq!(
        warnings_for(&r, "journal/notes.md").len(),
        1,
        "{}",
        r["audit"]["warnings"]
    );
    assert_eq!(r["as_of"], "2026-05-06");
}
