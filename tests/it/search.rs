//! `search`: ranking (identifiers, recency), filters, Korean and Japanese
//! queries, private spans, the JSON shape and the refusals.

use crate::common::{Vault, check_cases, fields_like, md, same, stdout};
use serde_json::{Value, json};

/// `search QUERY… --format json` with a fixed today.
fn search(v: &Vault, args: &[&str]) -> Value {
    let mut all = vec!["--today", "2026-05-06", "search", "--format", "json"];
    all.extend_from_slice(args);
    v.json(&all)
}

fn hit_texts(r: &Value) -> Vec<String> {
    r["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["text"].as_str().unwrap().to_string())
        .collect()
}

/// Open, resolved and cancelled items and entries of two projects.
fn history_vault() -> Vault {
    Vault::new()
        .project("app")
        .project("site")
        .file(
            "projects/app/todos.md",
            md(&[
                "# app",
                "",
                "## Next",
                "",
                "- [ ] parse the config file twice",
                "- [ ] fix `parse_config` on empty input",
                "- [ ] look at ticket 12 again",
                "- [ ] close #12 after the release",
                "- [x] add the CSV export button",
            ]),
        )
        .file(
            "journal/2026-01-10.md",
            md(&[
                "# 2026-01-10",
                "",
                "## Session: export (app)",
                "",
                "### Next",
                "",
                "- add the CSV export button",
                "- rewrite the exporter in Go",
                "",
                "### Skipped follow-ups",
                "",
                "- rewrite the exporter in Go",
            ]),
        )
        .file(
            "journal/2026-04-20.md",
            md(&[
                "# 2026-04-20",
                "",
                "## Session: site (site)",
                "",
                "### Next",
                "",
                "- redesign the landing page",
                "",
                "### Done",
                "",
                "- migrated the DNS records to the new host",
            ]),
        )
}

#[test]
fn an_exact_identifier_beats_a_word_match() {
    let v = history_vault();
    let r = search(&v, &["parse_config"]);
    assert_eq!(
        hit_texts(&r)[..2],
        [
            "fix `parse_config` on empty input",
            "parse the config file twice"
        ]
    );
    let r = search(&v, &["#12"]);
    assert_eq!(
        hit_texts(&r)[..2],
        ["close #12 after the release", "look at ticket 12 again"]
    );
}

#[test]
fn recent_beats_old_at_equal_relevance() {
    // The same text in two projects (never merged); the older file sorts
    // first by path, so only the date can put the newer one first.
    let v = Vault::new()
        .project("alpha")
        .project("beta")
        .file(
            "journal/2025-02-01.md",
            md(&[
                "## Session: a (alpha)",
                "",
                "### Next",
                "",
                "- write the migration guide",
            ]),
        )
        .file(
            "journal/2026-05-01.md",
            md(&[
                "## Session: b (beta)",
                "",
                "### Next",
                "",
                "- write the migration guide",
            ]),
        );
    let r = search(&v, &["migration", "guide"]);
    let hits = r["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 2, "{r}");
    assert_eq!(hits[0]["project"], "beta");
    assert_eq!(hits[1]["project"], "alpha");
    assert!(hits[0]["score"].as_f64() > hits[1]["score"].as_f64(), "{r}");
}

#[test]
fn a_resolved_item_shows_what_resolved_it() {
    let v = history_vault();
    let r = search(&v, &["csv", "export"]);
    let want = json!({"status": "resolved", "kind": "item", "text": "add the CSV export button",
                      "path": "journal/2026-01-10.md", "line": 7, "first_seen": "2026-01-10",
                      "resolved_by.kind": "done", "resolved_by.path": "projects/app/todos.md",
                      "resolved_by.line": 9});
    assert_eq!(fields_like(&r["hits"][0], &want), want, "{r}");
    assert_eq!(r["matched"], 1, "{r}");
}

#[test]
fn a_skipped_item_is_cancelled_and_a_lone_done_entry_is_found() {
    let v = history_vault();
    let r = search(&v, &["exporter"]);
    let want =
        json!({"status": "cancelled", "resolved_by.kind": "skipped", "resolved_by.line": 12});
    assert_eq!(fields_like(&r["hits"][0], &want), want, "{r}");
    let r = search(&v, &["DNS"]);
    let want = json!({"kind": "done", "status": "resolved",
                      "text": "migrated the DNS records to the new host",
                      "path": "journal/2026-04-20.md"});
    assert_eq!(fields_like(&r["hits"][0], &want), want, "{r}");
}

/// `(filter, query and options split at spaces, the texts of every hit,
/// sorted)` on `history_vault`.
const FILTERS: &[(&str, &str, &[&str])] = &[
    (
        "only resolved",
        "export DNS Go --status resolved",
        &[
            "add the CSV export button",
            "migrated the DNS records to the new host",
        ],
    ),
    (
        "only cancelled",
        "export DNS Go --status cancelled",
        &["rewrite the exporter in Go"],
    ),
    (
        "a project, in any case",
        "page config DNS --project SITE",
        &[
            "migrated the DNS records to the new host",
            "redesign the landing page",
        ],
    ),
    (
        "since a date",
        "export page config --since 2026-04-01",
        &["redesign the landing page"],
    ),
];

#[test]
fn status_project_since_and_limit_filter_the_hits() {
    let v = history_vault();
    let all = search(&v, &["the", "export", "page", "config", "DNS", "Go"]);
    assert_eq!(all["matched"], 6, "{all}");
    let open = search(&v, &["export", "page", "config", "--status", "open"]);
    assert!(
        open["hits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["status"] == "open" && h["id"].is_string()),
        "{open}"
    );
    check_cases(
        FILTERS,
        |c| c.0,
        |&(_, query, want)| {
            let mut texts = hit_texts(&search(&v, &query.split(' ').collect::<Vec<_>>()));
            texts.sort();
            same(texts, want.iter().map(|t| t.to_string()).collect())
        },
    );
    let one = search(&v, &["export", "page", "config", "--limit", "1"]);
    assert_eq!(one["hits"].as_array().unwrap().len(), 1);
    assert!(one["matched"].as_u64().unwrap() > 1, "{one}");
}

/// `(language, session heading, Next heading, [(item, a query that finds
/// that item alone)])`: a journal of the two items, searched in its language.
type CjkCase = (
    &'static str,
    &'static str,
    &'static str,
    [(&'static str, &'static str); 2],
);

const CJK: &[CjkCase] = &[
    (
        "Korean",
        "## 세션: 내보내기 (app)",
        "### 다음 세션",
        [
            ("CSV 내보내기 버그를 고치자", "내보내기"),
            ("로그인 화면 디자인 정리", "로그인 화면"),
        ],
    ),
    (
        "Japanese",
        "## Session: 設定 (app)",
        "### 次のステップ",
        [
            ("設定画面の保存ボタンを直す", "設定画面"),
            ("ログイン処理のテストを書く", "テスト"),
        ],
    ),
];

#[test]
fn korean_and_japanese_queries_find_their_items() {
    check_cases(
        CJK,
        |c| c.0,
        |&(_, session, next, items)| {
            let v = Vault::new().project("app").file(
                "journal/2026-05-01.md",
                md(&[
                    session,
                    "",
                    next,
                    "",
                    &format!("- {}", items[0].0),
                    &format!("- {}", items[1].0),
                ]),
            );
            for (item, query) in items {
                let found = hit_texts(&search(&v, &query.split(' ').collect::<Vec<_>>()));
                same(found, vec![item.to_string()]).map_err(|e| format!("{query}: {e}"))?;
            }
            Ok(())
        },
    );
}

#[test]
fn private_spans_are_neither_found_nor_shown() {
    let v = Vault::new().project("app").file(
        "projects/app/todos.md",
        md(&[
            "## Next",
            "",
            "- [ ] call <private>Dr. Hernandez about the biopsy</private> tomorrow",
            "- [ ] ask <private>",
            "  zanzibar_secret.rs and #77",
            "  </private> later",
        ]),
    );
    for q in [
        "Hernandez",
        "biopsy",
        "zanzibar_secret.rs",
        "#77",
        "private",
    ] {
        let r = search(&v, &[q]);
        assert_eq!(r["matched"], 0, "{q}: {r}");
    }
    let out = v
        .test()
        .args(["search", "call", "tomorrow", "ask", "later"])
        .run()
        .output;
    let text = stdout(&out);
    assert!(text.contains("call [private] tomorrow"), "{text}");
    for secret in ["Hernandez", "biopsy", "zanzibar", "77"] {
        assert!(!text.contains(secret), "{text}");
    }
}

#[test]
fn the_json_hit_has_every_documented_field() {
    let v = history_vault();
    let r = search(&v, &["landing", "page"]);
    let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["as_of", "hits", "matched", "query", "schema"]);
    assert_eq!(r["schema"], 1);
    assert_eq!(r["query"], "landing page");
    assert_eq!(r["as_of"], "2026-04-20");
    let h = &r["hits"][0];
    let mut keys: Vec<&str> = h.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "first_seen",
            "id",
            "kind",
            "last_seen",
            "line",
            "path",
            "places",
            "project",
            "rank",
            "resolved_by",
            "score",
            "source",
            "status",
            "text"
        ]
    );
    assert_eq!(h["rank"], 1);
    assert_eq!(h["status"], "open");
    assert_eq!(h["source"], "journal_next");
    assert_eq!(h["project"], "site");
    assert!(h["id"].as_str().unwrap().len() >= 6, "{h}");
    assert_eq!(
        h["places"],
        serde_json::json!([{"path": "journal/2026-04-20.md", "line": 7, "date": "2026-04-20"}])
    );
    // The ID is the one `list` shows, and `done` takes it.
    let list = v.json(&["--today", "2026-05-06", "list", "--format", "json"]);
    let ids: Vec<&Value> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["id"])
        .collect();
    assert!(ids.contains(&&h["id"]), "{list}");
}

#[test]
fn text_output_names_status_id_place_and_resolution() {
    let v = history_vault();
    let out = v
        .test()
        .args(["--today", "2026-05-06", "search", "csv", "export"])
        .run()
        .output;
    assert_eq!(
        stdout(&out),
        "1 of 1 matches for \"csv export\"\n 1. [resolved] (app) add the CSV export button\n    journal/2026-01-10.md:7  2026-01-10  done by projects/app/todos.md:9: add the CSV export button\n"
    );
}

#[test]
fn no_match_is_not_an_error() {
    let v = history_vault();
    let out = v.test().args(["search", "kubernetes"]).run().output;
    assert_eq!(stdout(&out), "no match for \"kubernetes\"\n");
}

#[test]
fn a_query_without_a_word_or_an_unknown_project_is_refused() {
    let v = history_vault();
    v.test()
        .args(["search", "--", "...", "!!"])
        .status(2)
        .stderr_has("QUERY with at least one letter or digit")
        .run();
    v.test()
        .args(["search", "export", "--project", "nosuch"])
        .status(65)
        .run();
    v.test()
        .args(["search", "export", "--since", "May 1"])
        .status(2)
        .run();
}

/// Runs `search` with a fixed today: stdout and stderr (with `-v`, which
/// says whether the index answered).
fn search_out(v: &Vault, cache: bool, args: &[&str]) -> (String, String) {
    let mut all = vec!["--today", "2026-05-06", "-v"];
    if !cache {
        all.push("--no-cache");
    }
    all.push("search");
    all.extend_from_slice(args);
    let out = v.output(&all);
    crate::common::assert_status(&out, 0, "search");
    (stdout(&out), crate::common::stderr(&out))
}

/// `history_vault` after a `regen` on 2026-05-06, which writes the search
/// index.
fn indexed_vault() -> Vault {
    let v = history_vault();
    v.test()
        .args(["--today", "2026-05-06", "-q", "regen"])
        .run();
    v
}

/// The queries and options the index must answer as the scan does, each a
/// command line split at spaces.
const SAME_ANSWERS: &[&str] = &[
    "export --format json --limit 0",
    "parse_config --format json",
    "#12 --format json",
    "rewrite the exporter --format json",
    "export --status open --format json",
    "export --status cancelled --format json",
    "dns --status resolved --format json",
    "the --project site --format json --limit 0",
    "page --since 2026-03-01 --format json",
    "config --limit 1 --format json",
    "export",
    "kubernetes --format json",
];

/// A run that keeps the cache (`regen`) writes the search index; a search
/// that finds the vault unchanged answers from it, with the same output as
/// a search that scans (`--no-cache`), filters and limits included.
#[test]
fn the_index_answers_as_the_scan_does() {
    let v = indexed_vault();
    assert!(v.exists(".agents/cache/search.bin"));
    for line in SAME_ANSWERS {
        let args: Vec<&str> = line.split_whitespace().collect();
        let args = args.as_slice();
        let (indexed, how) = search_out(&v, true, args);
        assert!(how.contains("index: hit"), "{args:?}: {how}");
        let (scanned, how) = search_out(&v, false, args);
        assert!(how.contains("index: miss"), "{args:?}: {how}");
        assert_eq!(indexed, scanned, "{args:?}");
    }
    // The refusals are the same too.
    for cache in [true, false] {
        let mut all = vec!["--today", "2026-05-06"];
        if !cache {
            all.push("--no-cache");
        }
        all.extend(["search", "export", "--project", "nosuch"]);
        crate::common::assert_status(&v.output(&all), 65, "unknown project");
    }
}

/// An index made for another state of the vault (a file edited since, or
/// another day) is not used: the search scans and finds the new item.
#[test]
fn a_stale_index_is_not_used() {
    let v = indexed_vault();
    v.write(
        "projects/site/todos.md",
        md(&[
            "# site",
            "",
            "## Next",
            "",
            "- [ ] paint the zebra crossing",
        ]),
    );
    let (indexed, how) = search_out(&v, true, &["zebra", "--format", "json"]);
    assert!(how.contains("index: miss"), "{how}");
    assert_eq!(
        indexed,
        search_out(&v, false, &["zebra", "--format", "json"]).0
    );
    assert!(indexed.contains("paint the zebra crossing"), "{indexed}");
    let out = v.output(&["--today", "2026-05-07", "-v", "search", "export"]);
    assert!(crate::common::stderr(&out).contains("index: miss"));
}

/// The index is vault content: one changed byte anywhere (or a cut file)
/// fails its signature, and the search answers from the scan, as without
/// the index, with a note under `-v`.
#[test]
fn a_tampered_index_is_ignored() {
    let v = indexed_vault();
    let good = std::fs::read(v.join(".agents/cache/search.bin")).unwrap();
    let args = ["export", "--format", "json", "--limit", "0"];
    let (expected, _) = search_out(&v, false, &args);
    for at in [good.len() / 2, good.len() - 1, 40] {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        v.write(".agents/cache/search.bin", &bad);
        let (out, how) = search_out(&v, true, &args);
        assert!(how.contains("index: miss"), "byte {at}: {how}");
        assert!(how.contains("search.bin ignored"), "byte {at}: {how}");
        assert_eq!(out, expected, "byte {at}");
    }
    v.write(".agents/cache/search.bin", &good[..good.len() - 7]);
    let (out, how) = search_out(&v, true, &args);
    assert!(how.contains("search.bin ignored: "), "{how}");
    assert_eq!(out, expected);
}
