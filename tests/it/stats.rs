//! `stats` and `history`: computed from the sources alone.

use crate::common::assert_has;
use crate::common::{Vault, count, each, find, string};
use serde_json::{Value, json};

/// Three weeks of a small vault: wrap-cli is worked on and has open items,
/// docs has activity but nothing open, infra has an old open item only.
fn weeks_vault() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .project("docs")
        .project("infra")
        .file(
            "journal/2026-04-20.md",
            "# 2026-04-20\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- add lock timeout\n- write the README\n\n## Session: ops (infra)\n\n### Next\n\n- rotate the backup keys\n",
        )
        .file(
            "journal/2026-04-28.md",
            "# 2026-04-28\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- add lock timeout\n\n### Done\n\n- write the README\n",
        )
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- add lock timeout\n- publish the crate\n\n## Session: pages (docs)\n\n### Done\n\n- fix the broken links\n",
        )
        .file(
            "projects/wrap-cli/todos.md",
            "# wrap-cli\n\n## Next Session\n\n- [ ] port to Windows\n- [x] fix the CI badge\n",
        )
}

#[test]
fn stats_json_counts_weeks_ages_zombies_and_stuck_projects() {
    let v = weeks_vault();
    let s = v.json(&["stats", "--format", "json"]);
    assert_eq!(s["schema"], 1);
    assert_eq!(s["as_of"], "2026-05-06");
    assert_eq!(s["zombie_days"], 14);
    assert_eq!(
        s["totals"],
        json!({"collected": 7, "resolved": 1, "open": 4, "tasks": 5, "undated_tasks": 1, "done_entries": 3})
    );
    // Weeks from the Monday of 2026-04-20 to the week of as_of.
    let weeks = each(&s["weeks"], |w| {
        (string(&w["week"]), count(&w["created"]), count(&w["done"]))
    });
    assert_eq!(
        weeks,
        [
            ("2026-W17".to_string(), 3, 0),
            ("2026-W18".to_string(), 0, 1),
            ("2026-W19".to_string(), 1, 1),
        ]
    );
    assert_eq!(s["weeks"][0]["start"], "2026-04-20");
    let buckets: Vec<(String, u64)> = each(&s["age_buckets"], |b| {
        (string(&b["label"]), count(&b["open"]))
    });
    assert_eq!(
        buckets,
        vec![
            ("0-1 d".into(), 1),
            ("2-7 d".into(), 0),
            ("8-14 d".into(), 0),
            ("15-30 d".into(), 2),
            ("31-90 d".into(), 0),
            ("> 90 d".into(), 0),
            ("undated".into(), 1),
        ]
    );
    let zombies = each(&s["zombies"], |z| {
        (
            string(&z["text"]),
            count(&z["age_days"]),
            count(&z["days_seen"]),
        )
    });
    assert_eq!(
        zombies,
        [
            ("add lock timeout".to_string(), 16, 3),
            ("rotate the backup keys".to_string(), 16, 1)
        ]
    );
    assert_eq!(
        s["stuck_projects"],
        json!([
            {"project": "docs", "reason": "no-open-items", "open": 0, "last_activity": "2026-05-06"},
            {"project": "infra", "reason": "no-activity", "open": 1, "last_activity": "2026-04-20"}
        ])
    );
    assert_eq!(
        find(&s["projects"], "project", "wrap-cli"),
        &json!({"project": "wrap-cli", "open": 3, "zombies": 1, "created": 4, "done_entries": 2, "last_activity": "2026-05-06"})
    );
}

#[test]
fn stats_zombie_days_from_flag_and_config() {
    let v = weeks_vault().file(".agents/active-status.toml", "[stats]\nzombie_days = 20\n");
    let s = v.json(&["stats", "--format", "json"]);
    assert_eq!(s["zombie_days"], 20);
    assert_eq!(s["zombies"], json!([]));
    let s = v.json(&["stats", "--format", "json", "--zombie-days", "3"]);
    assert_eq!(s["zombies"].as_array().unwrap().len(), 2);
}

#[test]
fn stats_text_has_sparklines_and_tables() {
    let v = weeks_vault();
    let text = v.ok(&["stats"]);
    assert!(
        text.starts_with("stats as of 2026-05-06: 4 open, 1 resolved of 7 collected; 5 tasks (1 undated), 3 done entries\n"),
        "{text}"
    );
    assert_has(
        &text,
        &[
            "per week, 2026-W17 .. 2026-W19",
            "  created █·▃  4\n",
            "  done    ·▃▃  2\n",
            "zombies (open longer than 14 days): 2\n",
            "    16 d  [wrap-cli] add lock timeout (journal/2026-05-06.md:7; written on 3 days)",
            "  docs: activity in the last 14 days but no open item\n",
            "  infra: 1 open but no activity in the last 14 days (last: 2026-04-20)\n",
        ],
    );
}

#[test]
fn stats_of_an_empty_vault() {
    let v = Vault::new();
    let s = v.json(&["stats", "--format", "json"]);
    assert_eq!(s["as_of"], Value::Null);
    assert_eq!(s["weeks"], json!([]));
    assert_eq!(s["zombies"], json!([]));
    assert_eq!(s["stuck_projects"], json!([]));
    assert_eq!(s["totals"]["collected"], 0);
}

#[test]
fn history_of_an_open_item_lists_days_places_and_merges() {
    let v = weeks_vault();
    let h = v.json(&["history", "--format", "json", "add", "lock", "timeout"]);
    assert_eq!(h["text"], "add lock timeout");
    assert_eq!(h["project"], "wrap-cli");
    assert_eq!(h["status"], "open");
    assert_eq!(h["days"], json!(["2026-04-20", "2026-04-28", "2026-05-06"]));
    let places = each(&h["appearances"], |a| {
        format!(
            "{}:{} {}",
            string(&a["path"]),
            a["line"],
            string(&a["state"])
        )
    });
    assert_eq!(
        places,
        [
            "journal/2026-04-20.md:7 open",
            "journal/2026-04-28.md:7 open",
            "journal/2026-05-06.md:7 open"
        ]
    );
    assert_eq!(h["merged"].as_array().unwrap().len(), 3);
    assert_eq!(h["done_entries"], json!([]));
}

#[test]
fn history_of_a_resolved_item_names_its_done_entry() {
    let v = weeks_vault();
    let h = v.json(&["history", "--format", "json", "write the README"]);
    assert_eq!(h["status"], "resolved");
    assert_eq!(h["appearances"][0]["state"], "resolved");
    assert_eq!(
        h["done_entries"],
        json!([{"date": "2026-04-28", "path": "journal/2026-04-28.md", "line": 11, "project": "wrap-cli"}])
    );
    assert_eq!(h["merged"], json!([]));
    v.test().args(["history", "write the README"]).stdout(
        "[wrap-cli] write the README (resolved; written on 1 day)\n  2026-04-20  resolved  journal/2026-04-20.md:8 (journal_next)\n  done entry 2026-04-28  journal/2026-04-28.md:11\n",
    ).run();
}

#[test]
fn history_by_place_and_unknown_or_ambiguous_items() {
    let v = weeks_vault();
    let h = v.json(&[
        "history",
        "--format",
        "json",
        "projects/wrap-cli/todos.md:5",
    ]);
    assert_eq!(h["text"], "port to Windows");
    assert_eq!(h["days"], json!([]));
    v.test()
        .args(["history", "no such thing at all"])
        .status(65)
        .stderr_has("no open item matches \"no such thing at all\"")
        .run();
    let v = weeks_vault().file(
        "projects/wrap-cli/actives/docs/todos.md",
        "- [ ] update the docs for route\n- [ ] update the docs for regen\n",
    );
    v.test()
        .args(["history", "update the docs"])
        .status(65)
        .stderr_has("\"update the docs\" matches 2 open items")
        .stderr_has(
            "[wrap-cli] update the docs for route (projects/wrap-cli/actives/docs/todos.md:1)",
        )
        .run();
}

#[test]
fn history_by_id_and_vanished_id() {
    let v = weeks_vault();
    let list = v.json(&["list", "--format", "json"]);
    let id = list["items"][0]["id"].as_str().unwrap().to_string();
    let h = v.json(&["history", "--format", "json", &id]);
    assert_eq!(h["text"], list["items"][0]["text"]);
    v.test()
        .args(["history", "zz22zz"])
        .status(65)
        .stderr_has("no open item has that ID")
        .run();
}

#[test]
fn an_out_of_range_zombie_days_is_a_data_error_not_a_panic() {
    let v = weeks_vault();
    for days in ["36501", "4294967295"] {
        v.test()
            .args(["stats", "--zombie-days", days])
            .status(65)
            .stderr_has("out of range: at most 36500")
            .run();
    }
    v.test().args(["stats", "--zombie-days", "36500"]).run();
}
