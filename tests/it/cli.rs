//! End-to-end tests of the command line (docs/FORMAT.md §5–8, §11): what `regen`,
//! `audit`, `list` and `config` print, write and exit with.

use crate::common::{Test, Vault, texts};
use crate::common::{stderr, stdout};

use serde_json::Value;
use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

const DASH: &str = "ACTIVE-STATUS.md";
const LOCKS: &str = ".agents/locks";

/// A vault that exercises every part of the JSON report: goals, duplicates
/// across sources, a resolved item, every source kind, an untagged item, a
/// skip record of the `as_of` day, a warning, and (with `cap = 3`) overflow.
fn rich_vault() -> Vault {
    Vault::new()
        .file(".agents/active-status.toml", "cap = 3\n")
        .project("wrap-cli")
        .project("docs")
        .file(
            "journal/2026-05-05.md",
            "# 2026-05-05\n## Session: old (wrap-cli)\n### Next\n- [ ] write docs\n\
             ### Skipped follow-ups\n- old skip\n",
        )
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n## Session: lock work (wrap-cli)\n### Goal\n- ship the lock\n\
             ### Next\n- [ ] add lock timeout\n- [ ] write docs.\n\
             ### Skipped follow-ups\n- maybe rewrite in go\n### Done\n- fix lock race\n\
             ## Notes\n### Next\n- [ ] untagged idea\n",
        )
        .file("journal/notes.md", "no date in this name\n")
        .file(
            "projects/wrap-cli/todos.md",
            "## Next Session\n- [ ] add lock timeouts\n- [ ] release 0.2\n- [ ] fix lock race\n",
        )
        .file(
            "projects/wrap-cli/PROGRESS.md",
            "## Next Session\n- [ ] legacy item\n",
        )
        .file(
            "projects/wrap-cli/actives/lock/todos.md",
            "- [ ] test flock\n- [x] read docs\n",
        )
        .file(
            "projects/docs/todos.md",
            "## Next Session\n- [ ] write the guide\n",
        )
        .file(
            ".agents/inbox/2026-05-06T10-00-00-abcd1234.md",
            "<!-- project: wrap-cli -->\n### Next (captured)\n- [ ] captured follow-up\n",
        )
}

/// A small vault with two open items.
fn small_vault() -> Vault {
    Vault::new().project("wrap-cli").file(
        "journal/2026-05-06.md",
        "## Session: x (wrap-cli)\n### Next\n- [ ] add lock timeout\n- [ ] write docs\n",
    )
}

fn parse(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{}", stdout(out)))
}

// ---------------------------------------------------------------------------
// JSON shape helpers

fn assert_keys(v: &Value, expected: &[&str], what: &str) {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{what} is not an object: {v}"));
    let got: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
    let want: BTreeSet<&str> = expected.iter().copied().collect();
    assert_eq!(got, want, "keys of {what}: {v}");
}

fn is_date(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        let b = s.as_bytes();
        b.len() == 10
            && b.iter().enumerate().all(|(i, c)| match i {
                4 | 7 => *c == b'-',
                _ => c.is_ascii_digit(),
            })
    })
}

fn is_date_or_null(v: &Value) -> bool {
    v.is_null() || is_date(v)
}

fn is_str_or_null(v: &Value) -> bool {
    v.is_null() || v.is_string()
}

/// A root-relative path with `/` separators.
fn assert_rel_path(v: &Value, what: &str) {
    let p = v
        .as_str()
        .unwrap_or_else(|| panic!("{what}: path not a string"));
    assert!(
        !p.is_empty() && !p.starts_with('/') && !p.contains('\\'),
        "{what}: path {p:?} is not root-relative with `/` separators"
    );
}

fn assert_line(v: &Value, what: &str) {
    let n = v
        .as_u64()
        .unwrap_or_else(|| panic!("{what}: line is not an integer: {v}"));
    assert!(n >= 1, "{what}: lines are 1-based, got {n}");
}

const KINDS: [&str; 5] = [
    "journal_next",
    "captured",
    "active_todos",
    "project_todos",
    "progress",
];
const TIERS: [&str; 6] = [
    "today", "captured", "active", "project", "progress", "carried",
];

/// docs/FORMAT.md §8 `ITEM`.
fn assert_item(item: &Value) {
    assert_keys(
        item,
        &[
            "id",
            "text",
            "project",
            "tier",
            "source",
            "first_seen",
            "last_seen",
            "age_days",
            "seen_in",
            "status",
            "due",
            "scheduled",
            "start",
            "priority",
            "tags",
            "task_id",
            "depends_on",
            "done_on",
            "overdue",
            "deferred_until",
            "blocked_by",
        ],
        "ITEM",
    );
    assert!(
        ["open", "in_progress", "flagged", "forwarded"]
            .contains(&item["status"].as_str().unwrap_or("")),
        "status: {item}"
    );
    for k in ["due", "scheduled", "start", "done_on", "deferred_until"] {
        assert!(is_date_or_null(&item[k]), "{k}: {item}");
    }
    assert!(is_str_or_null(&item["priority"]) && is_str_or_null(&item["task_id"]));
    for k in ["tags", "depends_on", "blocked_by"] {
        assert!(
            item[k]
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            "{k}: {item}"
        );
    }
    assert!(item["overdue"].is_boolean());
    let id = item["id"].as_str().expect("id string");
    assert!(
        id.len() >= 6
            && id
                .bytes()
                .all(|c| c.is_ascii_lowercase() || (b'2'..=b'7').contains(&c) || c == b'-'),
        "id: {item}"
    );
    assert!(item["text"].is_string(), "{item}");
    assert!(is_str_or_null(&item["project"]), "{item}");
    assert!(
        TIERS.contains(&item["tier"].as_str().unwrap_or("")),
        "tier: {item}"
    );
    let src = &item["source"];
    assert_keys(src, &["kind", "path", "line"], "ITEM.source");
    assert!(
        KINDS.contains(&src["kind"].as_str().unwrap_or("")),
        "kind: {item}"
    );
    assert_rel_path(&src["path"], "ITEM.source");
    assert_line(&src["line"], "ITEM.source");
    assert!(is_date_or_null(&item["first_seen"]), "{item}");
    assert!(is_date_or_null(&item["last_seen"]), "{item}");
    assert!(
        item["age_days"].is_null() || item["age_days"].is_i64(),
        "{item}"
    );
    let seen = item["seen_in"].as_array().expect("seen_in array");
    assert!(
        !seen.is_empty(),
        "seen_in lists at least the representative"
    );
    for s in seen {
        assert_keys(s, &["path", "line", "similarity"], "ITEM.seen_in[]");
        let sim = s["similarity"].as_f64().expect("similarity");
        assert!((0.0..=1.0).contains(&sim), "{item}");
        assert_rel_path(&s["path"], "seen_in");
        assert_line(&s["line"], "seen_in");
    }
    assert_eq!(seen[0]["path"], src["path"], "representative first: {item}");
    assert_eq!(seen[0]["line"], src["line"], "representative first: {item}");
}

/// docs/FORMAT.md §8, the whole report.
fn assert_report_shape(r: &Value) {
    assert_keys(
        r,
        &[
            "schema",
            "as_of",
            "output",
            "written",
            "changed",
            "goals",
            "priorities",
            "overflow",
            "deferred",
            "blocked",
            "review",
            "active_tasks",
            "resolutions",
            "audit",
        ],
        "report",
    );
    for res in r["resolutions"].as_array().expect("resolutions") {
        assert_keys(
            res,
            &[
                "text",
                "project",
                "kind",
                "path",
                "line",
                "date",
                "closed_by",
                "similarity",
            ],
            "resolution",
        );
        if !res["closed_by"].is_null() {
            assert_keys(
                &res["closed_by"],
                &["text", "project", "path", "line", "date"],
                "resolution.closed_by",
            );
        }
    }
    assert_eq!(r["schema"], 1);
    assert!(is_date_or_null(&r["as_of"]));
    assert!(r["output"].is_string());
    assert!(r["written"].is_boolean());
    assert!(r["changed"].is_boolean());
    for g in r["goals"].as_array().expect("goals array") {
        assert_keys(g, &["project", "text", "date", "path", "line"], "goal");
        assert!(is_str_or_null(&g["project"]) && g["text"].is_string());
        assert!(is_date_or_null(&g["date"]));
        assert_rel_path(&g["path"], "goal");
        assert_line(&g["line"], "goal");
    }
    for key in ["priorities", "overflow", "deferred", "blocked"] {
        for i in r[key].as_array().expect("item array") {
            assert_item(i);
        }
    }
    for t in r["active_tasks"].as_array().expect("active_tasks array") {
        assert_keys(t, &["project", "task", "path", "open", "done"], "task");
        assert!(t["project"].is_string() && t["task"].is_string());
        assert_rel_path(&t["path"], "task");
        assert!(t["open"].is_u64() && t["done"].is_u64());
    }
    let a = &r["audit"];
    // The counts every report has, then the other keys of `audit`.
    let counts = [
        "files_scanned",
        "collected",
        "resolved",
        "duplicates_merged",
        "open",
        "shown",
        "overflow",
    ];
    assert_keys(
        a,
        &[
            &counts[..],
            &[
                "sources",
                "deferred",
                "blocked",
                "review",
                "non_task",
                "excluded_files",
                "read_whole",
                "untagged_warnings",
                "potentially_lost",
                "warnings",
                "cache",
            ],
        ]
        .concat(),
        "audit",
    );
    assert_keys(
        &a["cache"],
        &["reused", "reread", "written", "pairs_reused", "ignored"],
        "audit.cache",
    );
    assert_keys(&a["sources"], &KINDS, "audit.sources");
    for k in KINDS {
        assert!(a["sources"][k].is_u64(), "audit.sources.{k}");
    }
    for k in counts {
        assert!(a[k].is_u64(), "audit.{k} is a count");
    }
    for u in a["untagged_warnings"].as_array().expect("array") {
        assert_keys(u, &["path", "line", "text", "reason"], "untagged warning");
        assert_rel_path(&u["path"], "untagged");
        assert_line(&u["line"], "untagged");
        assert!(u["text"].is_string());
        assert!(
            ["no-session", "session-without-project", "ambiguous-session"]
                .contains(&u["reason"].as_str().unwrap_or("")),
            "{u}"
        );
    }
    for l in a["potentially_lost"].as_array().expect("array") {
        assert_keys(l, &["path", "line", "text", "project"], "potentially lost");
        assert_rel_path(&l["path"], "lost");
        assert_line(&l["line"], "lost");
        assert!(l["text"].is_string() && is_str_or_null(&l["project"]));
    }
    for w in a["warnings"].as_array().expect("array") {
        assert_keys(w, &["path", "message"], "warning");
        assert!(w["path"].is_string() && w["message"].is_string());
    }
    // The accounting identities (docs/FORMAT.md §5).
    let n = |k: &str| a[k].as_u64().unwrap();
    assert_eq!(
        n("collected"),
        n("open") + n("resolved") + n("duplicates_merged")
    );
    assert_eq!(n("open"), n("shown") + n("overflow"));
    let by_kind: u64 = KINDS
        .iter()
        .map(|k| a["sources"][k].as_u64().unwrap())
        .sum();
    assert_eq!(by_kind, n("collected"));
    assert_eq!(r["priorities"].as_array().unwrap().len() as u64, n("shown"));
    assert_eq!(
        r["overflow"].as_array().unwrap().len() as u64,
        n("overflow")
    );
}

fn mtime_and_inode(p: &Path) -> (std::time::SystemTime, u64) {
    let m = std::fs::metadata(p).expect("metadata");
    (m.modified().expect("mtime"), m.ino())
}

// ---------------------------------------------------------------------------
// regen

#[test]
fn dry_run_writes_nothing_and_prints_the_audit() {
    let v = small_vault();
    let out = v.output(&["regen", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("collected 2"), "audit on stdout:\n{text}");
    assert!(!v.exists(DASH), "--dry-run must not write the dashboard");
    assert!(!v.exists(LOCKS), "--dry-run must take no lock");

    let json = v.json(&["regen", "--dry-run", "--format", "json"]);
    assert_eq!(json["written"], false);
    assert_eq!(json["changed"], true);
    assert!(!v.exists(DASH));
    assert!(!v.exists(LOCKS));
}

#[test]
fn dry_run_leaves_a_stale_dashboard_alone() {
    let v = small_vault().file(DASH, "old content\n");
    let before = mtime_and_inode(&v.join(DASH));
    v.cmd().args(["regen", "--dry-run"]).assert().success();
    assert_eq!(v.read(DASH), "old content\n");
    assert_eq!(mtime_and_inode(&v.join(DASH)), before);
}

#[test]
fn regen_writes_then_second_run_changes_nothing() {
    let v = small_vault();
    let first = v.json(&["regen", "--format", "json"]);
    assert_eq!(first["written"], true);
    assert_eq!(first["changed"], true);
    let dash = v.read(DASH);
    assert!(dash.contains("add lock timeout") && dash.contains("write docs"));
    let before = mtime_and_inode(&v.join(DASH));
    std::thread::sleep(std::time::Duration::from_millis(20));

    let second = v.json(&["regen", "--format", "json"]);
    assert_eq!(second["written"], false);
    assert_eq!(second["changed"], false);
    assert_eq!(v.read(DASH), dash);
    assert_eq!(
        mtime_and_inode(&v.join(DASH)),
        before,
        "an unchanged dashboard must not be rewritten"
    );
}

#[test]
fn check_reports_missing_current_and_stale() {
    let v = small_vault();
    let out = v.output(&["regen", "--check"]);
    assert_eq!(out.status.code(), Some(1), "missing dashboard is stale");
    assert!(
        stderr(&out).to_lowercase().contains("missing"),
        "stderr says the dashboard is missing:\n{}",
        stderr(&out)
    );
    assert!(!v.exists(DASH), "--check writes nothing");
    assert!(!v.exists(LOCKS), "--check writes nothing");

    v.cmd().arg("regen").assert().success();
    let out = v.output(&["regen", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let dash = v.read(DASH);
    let before = mtime_and_inode(&v.join(DASH));
    v.write(
        "journal/2026-05-06.md",
        "## Session: x (wrap-cli)\n### Next\n- [ ] add lock timeout\n- [ ] ship the release\n",
    );
    let out = v.output(&["regen", "--check"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a changed source makes it stale"
    );
    let err = stderr(&out);
    let diff_line = err.lines().any(|l| {
        (l.starts_with('+') && !l.starts_with("+++"))
            || (l.starts_with('-') && !l.starts_with("---"))
    });
    assert!(diff_line, "stderr carries a diff:\n{err}");
    assert!(err.contains("ship the release"), "{err}");
    assert_eq!(v.read(DASH), dash, "--check writes nothing");
    assert_eq!(mtime_and_inode(&v.join(DASH)), before);
}

#[test]
fn written_and_changed_semantics() {
    let v = small_vault();
    let flags = |args: &[&str]| -> (Option<i32>, Value) {
        let out = v.output(args);
        (out.status.code(), parse(&out))
    };
    let (code, r) = flags(&["regen", "--check", "--format", "json"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        (&r["written"], &r["changed"]),
        (&false.into(), &true.into())
    );

    let (code, r) = flags(&["audit", "--format", "json"]);
    assert_eq!(code, Some(0));
    assert_eq!(r["written"], false);

    let (_, r) = flags(&["regen", "--format", "json"]);
    assert_eq!((&r["written"], &r["changed"]), (&true.into(), &true.into()));

    for args in [
        &["regen", "--format", "json"][..],
        &["regen", "--dry-run", "--format", "json"][..],
        &["audit", "--format", "json"][..],
    ] {
        let (code, r) = flags(args);
        assert_eq!(code, Some(0), "{args:?}");
        assert_eq!(r["written"], false, "{args:?}");
        assert_eq!(r["changed"], false, "{args:?}");
    }
    let (code, r) = flags(&["regen", "--check", "--format", "json"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        (&r["written"], &r["changed"]),
        (&false.into(), &false.into())
    );
}

#[test]
fn json_report_has_the_spec_shape() {
    let v = rich_vault();
    let r = v.json(&["regen", "--dry-run", "--format", "json"]);
    assert_report_shape(&r);
    // The fixture fills every array, so every nested shape was checked.
    for key in ["goals", "priorities", "overflow", "active_tasks"] {
        assert!(!r[key].as_array().unwrap().is_empty(), "{key} empty");
    }
    for key in ["untagged_warnings", "potentially_lost", "warnings"] {
        assert!(
            !r["audit"][key].as_array().unwrap().is_empty(),
            "audit.{key} empty"
        );
    }
    assert_eq!(r["as_of"], "2026-05-06");
    assert_eq!(r["output"], DASH);
    let a = &r["audit"];
    assert_eq!(
        a["sources"],
        serde_json::json!({"journal_next": 4, "captured": 1, "active_todos": 1,
                           "project_todos": 4, "progress": 1})
    );
    assert_eq!(a["collected"], 11);
    assert_eq!(a["resolved"], 1);
    assert_eq!(a["duplicates_merged"], 2);
    assert_eq!(a["open"], 8);
    assert_eq!(a["shown"], 3);
    assert_eq!(a["overflow"], 5);
    assert_eq!(a["files_scanned"], 7);
    assert_eq!(a["untagged_warnings"][0]["reason"], "no-session");
    assert_eq!(a["potentially_lost"][0]["text"], "maybe rewrite in go");
    assert_eq!(a["warnings"][0]["path"], "journal/notes.md");
    assert_eq!(
        r["goals"][0],
        serde_json::json!({"project": "wrap-cli", "text": "ship the lock",
                           "date": "2026-05-06", "path": "journal/2026-05-06.md", "line": 4})
    );
    assert_eq!(
        r["active_tasks"][0],
        serde_json::json!({"project": "wrap-cli", "task": "lock",
                           "path": "projects/wrap-cli/actives/lock/todos.md", "open": 1, "done": 1})
    );
    // A cluster merged across dates and sources.
    let first = &r["priorities"][0];
    assert_eq!(first["text"], "add lock timeout");
    assert_eq!(first["tier"], "today");
    assert_eq!(first["seen_in"].as_array().unwrap().len(), 2);
    let docs = &r["priorities"][1];
    assert_eq!(docs["first_seen"], "2026-05-05");
    assert_eq!(docs["last_seen"], "2026-05-06");
    assert_eq!(docs["age_days"], 1);
    // Undated sources have null dates and ages.
    let active = r["overflow"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["source"]["kind"] == "active_todos")
        .expect("active item in overflow");
    assert!(active["first_seen"].is_null() && active["age_days"].is_null());

    // The shape is the same from audit and from a real regen.
    assert_report_shape(&v.report());
    let written = v.json(&["regen", "--format", "json"]);
    assert_report_shape(&written);
    assert_eq!(written["written"], true);
}

#[test]
fn json_of_an_empty_vault() {
    let v = Vault::new();
    let r = v.json(&["regen", "--dry-run", "--format", "json"]);
    assert_report_shape(&r);
    assert!(r["as_of"].is_null());
    assert_eq!(r["audit"]["collected"], 0);
}

// ---------------------------------------------------------------------------
// list

#[test]
fn list_shape_is_schema_as_of_items_without_cap() {
    let v = rich_vault();
    let l = v.json(&["list", "--format", "json"]);
    assert_keys(&l, &["schema", "as_of", "items"], "list");
    assert_eq!(l["schema"], 1);
    assert_eq!(l["as_of"], "2026-05-06");
    let items = l["items"].as_array().unwrap();
    for i in items {
        assert_item(i);
    }
    // cap = 3 in the vault config, but list shows every open cluster.
    let r = v.report();
    assert_eq!(items.len() as u64, r["audit"]["open"].as_u64().unwrap());
    let mut all = texts(&r["priorities"]);
    all.extend(texts(&r["overflow"]));
    assert_eq!(texts(&l["items"]), all, "same clusters in rank order");
}

#[test]
fn list_filters_by_project_source_and_limit() {
    let v = rich_vault();
    let all = v.json(&["list", "--format", "json"]);
    let all_items = all["items"].as_array().unwrap().clone();

    let docs = v.json(&["list", "--project", "docs", "--format", "json"]);
    assert_eq!(texts(&docs["items"]), vec!["write the guide"]);
    let upper = v.json(&["list", "--project", "DOCS", "--format", "json"]);
    assert_eq!(
        upper["items"], docs["items"],
        "project compared case-insensitively"
    );

    let wrap = v.json(&["list", "--project", "wrap-cli", "--format", "json"]);
    let expected: Vec<&Value> = all_items
        .iter()
        .filter(|i| i["project"] == "wrap-cli")
        .collect();
    assert_eq!(
        wrap["items"].as_array().unwrap().iter().collect::<Vec<_>>(),
        expected
    );
    assert!(!expected.is_empty());

    for kind in KINDS {
        let l = v.json(&["list", "--source", kind, "--format", "json"]);
        let got = l["items"].as_array().unwrap();
        let expected: Vec<&Value> = all_items
            .iter()
            .filter(|i| i["source"]["kind"] == kind)
            .collect();
        assert_eq!(got.iter().collect::<Vec<_>>(), expected, "--source {kind}");
        assert!(!got.is_empty(), "fixture has a {kind} item");
    }

    let two = v.json(&["list", "--limit", "2", "--format", "json"]);
    assert_eq!(two["items"].as_array().unwrap()[..], all_items[..2]);
    let zero = v.json(&["list", "--limit", "0", "--format", "json"]);
    assert_eq!(zero["items"], serde_json::json!([]));

    let combo = v.json(&[
        "list",
        "--project",
        "wrap-cli",
        "--source",
        "project_todos",
        "--limit",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(texts(&combo["items"]), vec!["release 0.2"]);

    let none = v.output(&["list", "--project", "nobody", "--format", "json"]);
    assert_eq!(none.status.code(), Some(65), "{}", stderr(&none));

    let text = stdout(&v.output(&["list", "--project", "docs"]));
    assert!(text.contains("write the guide"), "{text}");
    assert!(!text.contains("release 0.2"), "{text}");
}

#[test]
fn list_rejects_an_unknown_source_kind() {
    let v = rich_vault();
    v.cmd()
        .args(["list", "--source", "nonsense"])
        .assert()
        .code(2);
}

// ---------------------------------------------------------------------------
// config

/// `config` output as `key -> (value, origin)`.
fn config_map(out: &std::process::Output) -> std::collections::BTreeMap<String, (String, String)> {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    stdout(out)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (kv, origin) = l
                .rsplit_once("  # ")
                .unwrap_or_else(|| panic!("no origin on config line {l:?}"));
            let (k, val) = kv
                .split_once(" = ")
                .unwrap_or_else(|| panic!("no `=` on {l:?}"));
            (k.to_string(), (val.to_string(), origin.to_string()))
        })
        .collect()
}

/// The keys docs/FORMAT.md §11 names.
const FORMAT_KEYS: &[&str] = &[
    "output",
    "template",
    "cap",
    "dedup.threshold",
    "extract.keywords",
    "lock.path",
    "lock.timeout_secs",
    "hook.max_chars",
    "follow_symlinks",
];

#[test]
fn config_prints_every_key_with_default_origin() {
    let v = Vault::new();
    let map = config_map(&v.output(&["config"]));
    for key in FORMAT_KEYS.iter().chain(active_status::config::KEYS) {
        let (_, origin) = map
            .get(*key)
            .unwrap_or_else(|| panic!("config does not print `{key}`"));
        assert_eq!(origin, "default", "{key}");
    }
    assert!(map.keys().any(|k| k.starts_with("headings.")));
    assert!(map.keys().any(|k| k.starts_with("sources.")));
    assert_eq!(map["cap"].0, "15");
    assert_eq!(map["dedup.threshold"].0, "0.85");
    assert_eq!(map["lock.timeout_secs"].0, "30");
    assert_eq!(map["hook.max_chars"].0, "4000");
    assert_eq!(map["output"].0, "\"ACTIVE-STATUS.md\"");
}

#[test]
fn config_shows_env_origin() {
    let ran = Test::new()
        .env("ACTIVE_STATUS_CAP", "4")
        .env("ACTIVE_STATUS_DEDUP_THRESHOLD", "0.9")
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "2.5")
        .arg("config")
        .run();
    let map = config_map(&ran.output);
    assert_eq!(map["cap"], ("4".into(), "env ACTIVE_STATUS_CAP".into()));
    assert_eq!(
        map["dedup.threshold"],
        ("0.9".into(), "env ACTIVE_STATUS_DEDUP_THRESHOLD".into())
    );
    assert_eq!(
        map["lock.timeout_secs"],
        ("2.5".into(), "env ACTIVE_STATUS_LOCK_TIMEOUT_SECS".into())
    );
    assert_eq!(map["output"].1, "default");
}

#[test]
fn lock_flags_are_offered_only_where_the_lock_is_taken() {
    let v = Vault::new().file("journal/2026-05-06.md", "## Next\n- [ ] x\n");
    for sub in ["config", "audit", "list", "stats", "extract", "history"] {
        for flag in [&["--lock-timeout", "3"][..], &["--no-wait"][..]] {
            v.test()
                .arg(sub)
                .args(flag)
                .status(2)
                .stderr_has(format!("unexpected argument '{}'", flag[0]))
                .run();
        }
        let help = stdout(&v.cmd().args([sub, "--help"]).output().unwrap());
        assert!(!help.contains("--lock-timeout"), "{sub} --help offers it");
    }
    for sub in ["regen", "route", "done", "cancel", "defer"] {
        let help = stdout(&v.cmd().args([sub, "--help"]).output().unwrap());
        assert!(
            help.contains("--lock-timeout") && help.contains("--no-wait"),
            "{sub} --help lacks the lock flags:\n{help}"
        );
    }
    v.cmd()
        .args(["regen", "--lock-timeout", "3", "--no-wait", "-q"])
        .assert()
        .success();
}

#[test]
fn subcommand_help_lists_its_own_options_before_the_global_ones() {
    let v = Vault::new();
    let help = stdout(&v.cmd().args(["regen", "--help"]).output().unwrap());
    let own = help.find("--dry-run").expect("own option");
    let heading = help.find("Global options:").expect("global heading");
    let global = help.find("--root").expect("global option");
    assert!(own < heading && heading < global, "{help}");
}

#[test]
fn config_precedence_user_vault_env() {
    let user = tempfile::tempdir().unwrap();
    let user_file = user.path().join("active-status/config.toml");
    std::fs::create_dir_all(user_file.parent().unwrap()).unwrap();
    std::fs::write(
        &user_file,
        "cap = 5\nhook = { max_chars = 100 }\n[dedup]\nthreshold = 0.9\n",
    )
    .unwrap();
    let v = Vault::new().file(
        ".agents/active-status.toml",
        "cap = 7\n[dedup]\nthreshold = 0.8\n",
    );
    let vault_file = v.join(".agents/active-status.toml");
    let out = v
        .cmd()
        .env("XDG_CONFIG_HOME", user.path())
        .env("ACTIVE_STATUS_CAP", "4")
        .arg("config")
        .output()
        .unwrap();
    let map = config_map(&out);
    let file = |p: &Path| format!("file {}", p.display());
    assert_eq!(map["cap"], ("4".into(), "env ACTIVE_STATUS_CAP".into()));
    assert_eq!(map["dedup.threshold"], ("0.8".into(), file(&vault_file)));
    assert_eq!(map["hook.max_chars"], ("100".into(), file(&user_file)));
    assert_eq!(map["output"].1, "default");

    // Without the env layer the vault file wins over the user file.
    let out = v
        .cmd()
        .env("XDG_CONFIG_HOME", user.path())
        .arg("config")
        .output()
        .unwrap();
    assert_eq!(config_map(&out)["cap"], ("7".into(), file(&vault_file)));

    // The effective value is the one used: cap 4 from env shows 4 priorities.
    let many: String = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
        .iter()
        .map(|w| format!("- [ ] {w}\n"))
        .collect();
    v.write(
        "journal/2026-05-06.md",
        format!("## Session: s\n### Next\n{many}"),
    );
    let out = v
        .cmd()
        .env("XDG_CONFIG_HOME", user.path())
        .env("ACTIVE_STATUS_CAP", "4")
        .args(["audit", "--format", "json"])
        .output()
        .unwrap();
    let r = parse(&out);
    assert_eq!(r["audit"]["shown"], 4);
    assert_eq!(r["audit"]["overflow"], 2);
}

#[test]
fn config_file_flag_replaces_the_vault_file() {
    let other = tempfile::tempdir().unwrap();
    let cfg = other.path().join("alt.toml");
    std::fs::write(&cfg, "cap = 2\n").unwrap();
    let v = Vault::new().file(".agents/active-status.toml", "cap = 9\n");
    let out = v
        .cmd()
        .arg("--config")
        .arg(&cfg)
        .arg("config")
        .output()
        .unwrap();
    assert_eq!(
        config_map(&out)["cap"],
        ("2".into(), format!("file {}", cfg.display()))
    );
}

#[test]
fn config_file_flag_missing_is_74() {
    let v = Vault::new();
    let missing = v.join("nope/missing.toml");
    v.test()
        .arg("--config")
        .arg(&missing)
        .arg("regen")
        .status(74)
        .stderr_has("missing.toml")
        .run();
    assert!(!v.exists(DASH));
}

#[test]
fn unknown_key_in_vault_config_names_file_line_and_key() {
    small_vault()
        .file(
            ".agents/active-status.toml",
            "cap = 3\n[dedup]\nthreshhold = 0.9\n",
        )
        .into_test()
        .arg("regen")
        .status(65)
        .stderr_has(".agents/active-status.toml")
        .stderr_has("line 3")
        .stderr_has("threshhold")
        .expect_no_file(DASH)
        .run();
}

#[test]
fn unknown_top_level_key_is_65() {
    small_vault()
        .file(".agents/active-status.toml", "\n\ncolour = \"red\"\n")
        .into_test()
        .arg("audit")
        .status(65)
        .stderr_has("line 3")
        .stderr_has("colour")
        .run();
}

#[test]
fn wrong_type_in_vault_config_names_line_and_key() {
    small_vault()
        .file(".agents/active-status.toml", "\ncap = \"many\"\n")
        .into_test()
        .arg("audit")
        .status(65)
        .stderr_has(".agents/active-status.toml")
        .stderr_has("line 2")
        .stderr_has("cap")
        .run();
}

#[test]
fn bad_user_config_names_the_user_file() {
    let user = tempfile::tempdir().unwrap();
    let user_file = user.path().join("active-status/config.toml");
    std::fs::create_dir_all(user_file.parent().unwrap()).unwrap();
    std::fs::write(&user_file, "[lock]\ntimeout_secs = \"soon\"\n").unwrap();
    small_vault()
        .into_test()
        .env("XDG_CONFIG_HOME", user.path())
        .arg("audit")
        .status(65)
        .stderr_has(user_file.display().to_string())
        .stderr_has("line 2")
        .stderr_has("timeout_secs")
        .run();
}

#[test]
fn bad_env_value_names_the_variable() {
    let v = small_vault();
    for (var, value) in [
        ("ACTIVE_STATUS_CAP", "lots"),
        ("ACTIVE_STATUS_CAP", "-1"),
        ("ACTIVE_STATUS_FOLLOW_SYMLINKS", "maybe"),
        ("ACTIVE_STATUS_DEDUP_THRESHOLD", "2"),
    ] {
        v.test()
            .env(var, value)
            .arg("audit")
            .status(65)
            .stderr_has(var)
            .run();
    }
}

// ---------------------------------------------------------------------------
// vault discovery

/// A temporary directory none of whose ancestors looks like a vault, or
/// `None` (with a note) when the machine has such an ancestor.
fn vault_free_dir() -> Option<tempfile::TempDir> {
    let dir = tempfile::tempdir().unwrap();
    let polluted = dir
        .path()
        .ancestors()
        .any(|a| a.join(".agents").is_dir() || a.join("journal").is_dir());
    if polluted {
        eprintln!("note: an ancestor of the temp dir holds .agents/ or journal/; skipped");
        return None;
    }
    Some(dir)
}

#[test]
fn no_vault_found_is_66_with_a_hint() {
    let Some(dir) = vault_free_dir() else { return };
    // The hint says how to point at a vault.
    Test::new()
        .no_root()
        .current_dir(dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .env("HOME", dir.path())
        .arg("audit")
        .status(66)
        .stderr_has("--root")
        .stderr_has("ACTIVE_STATUS_ROOT")
        .run();
}

#[test]
fn root_at_a_missing_dir_is_66() {
    let v = Vault::new();
    let missing = v.join("does/not/exist");
    v.test()
        .no_root()
        .arg("--root")
        .arg(&missing)
        .arg("audit")
        .status(66)
        .run();
    assert!(!missing.exists());
    // A missing ACTIVE_STATUS_ROOT.
    v.test()
        .no_root()
        .env("ACTIVE_STATUS_ROOT", &missing)
        .current_dir(v.path())
        .arg("audit")
        .status(66)
        .run();
}

#[test]
fn active_status_root_is_used_without_root_flag() {
    let Some(dir) = vault_free_dir() else { return };
    let v = small_vault();
    let ran = v
        .test()
        .no_root()
        .current_dir(dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .env("ACTIVE_STATUS_ROOT", v.path())
        .args(["list", "--format", "json"]);
    assert_eq!(listed(ran), SMALL);
}

/// The open texts a `list --format json` run prints (it must exit 0).
#[track_caller]
fn listed(list: Test<'_>) -> Vec<String> {
    texts(&list.run().json()["items"])
}

/// What `small_vault` lists.
const SMALL: [&str; 2] = ["add lock timeout", "write docs"];

#[test]
fn root_flag_wins_over_active_status_root() {
    let v = small_vault();
    let other = Vault::new().file("journal/2026-01-01.md", "### Next\n- [ ] elsewhere\n");
    let ran = v
        .test()
        .env("ACTIVE_STATUS_ROOT", other.path())
        .args(["list", "--format", "json"]);
    assert_eq!(listed(ran), SMALL);
}

#[test]
fn discovery_from_a_subdirectory_finds_the_root() {
    let v = small_vault().project("x").file("projects/x/notes.txt", "");
    let sub = v.join("projects/x");
    let from_sub = || {
        v.test()
            .no_root()
            .current_dir(&sub)
            .env("XDG_CONFIG_HOME", v.join("no-such-config"))
    };
    assert_eq!(listed(from_sub().args(["list", "--format", "json"])), SMALL);
    // regen from there writes the dashboard at the root.
    from_sub()
        .arg("regen")
        .expect_file_has(DASH, "add lock timeout")
        .expect_no_file("projects/x/ACTIVE-STATUS.md")
        .run();
}

#[test]
fn discovery_via_journal_dir_only() {
    // A vault with journal/ but no .agents/.
    let Some(dir) = vault_free_dir() else { return };
    let root = dir.path().join("kb");
    std::fs::create_dir_all(root.join("journal/2026")).unwrap();
    std::fs::write(
        root.join("journal/2026/2026-05-06.md"),
        "### Next\n- [ ] nested journal item\n",
    )
    .unwrap();
    let ran = Test::new()
        .no_root()
        .current_dir(root.join("journal/2026"))
        .env("XDG_CONFIG_HOME", dir.path())
        .args(["list", "--format", "json"]);
    assert_eq!(listed(ran), ["nested journal item"]);
}

// ---------------------------------------------------------------------------
// failures and their exit codes

#[test]
fn unreadable_source_is_74_naming_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let v = small_vault().file(
        "projects/wrap-cli/todos.md",
        "## Next Session\n- [ ] secret\n",
    );
    let path = v.join("projects/wrap-cli/todos.md");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&path).is_ok() {
        eprintln!("note: running with privileges that read a mode-000 file; 74 test skipped");
        return;
    }
    // An aborted run writes nothing.
    let ran = v
        .test()
        .arg("regen")
        .any_status()
        .stderr_has("projects/wrap-cli/todos.md")
        .expect_no_file(DASH)
        .run();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(ran.output.status.code(), Some(74), "{}", ran.stderr());
}

#[test]
fn broken_template_is_65() {
    let v = small_vault()
        .file("t.tera", "{% if %}\n")
        .file(".agents/active-status.toml", "template = \"t.tera\"\n");
    for args in [&["regen"][..], &["regen", "--dry-run"][..], &["audit"][..]] {
        let out = v.output(args);
        assert_eq!(out.status.code(), Some(65), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).to_lowercase().contains("template"),
            "{}",
            stderr(&out)
        );
    }
    assert!(!v.exists(DASH));
}

#[test]
fn missing_template_is_74() {
    small_vault()
        .file(".agents/active-status.toml", "template = \"gone.tera\"\n")
        .into_test()
        .arg("regen")
        .status(74)
        .stderr_has("gone.tera")
        .run();
}

#[test]
fn custom_template_is_used() {
    let v = small_vault()
        .file(
            "t.tera",
            "open={{ audit.open }}{% for p in priorities %};{{ p.text }}{% endfor %}\n",
        )
        .file(".agents/active-status.toml", "template = \"t.tera\"\n");
    v.cmd().arg("regen").assert().success();
    // A template without the generated-file notice gets it on top, so the
    // next run recognises the file as its own.
    assert_eq!(
        v.read(DASH),
        "<!-- Generated by active-status. Do not edit: run `active-status regen` to regenerate. -->\n\
         open=2;add lock timeout;write docs\n"
    );
}

#[test]
fn unwritable_output_directory_is_73() {
    let v = small_vault()
        .file("ro", "a regular file, not a directory\n")
        .file(
            ".agents/active-status.toml",
            "output = \"ro/ACTIVE-STATUS.md\"\n",
        );
    v.test()
        .arg("regen")
        .status(73)
        .stderr_has("ro")
        .expect_file("ro", "a regular file, not a directory\n")
        .run();
}

#[test]
fn usage_errors_are_2() {
    let v = small_vault();
    for args in [
        &["regen", "--bogus"][..],
        &["--nope", "audit"][..],
        &["frobnicate"][..],
        &["regen", "--format", "yaml"][..],
        &["regen", "--lock-timeout", "soon"][..],
        &["list", "--limit", "-3"][..],
    ] {
        let out = v.output(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    assert!(!v.exists(DASH));
}

#[test]
fn quiet_prints_nothing_on_stdout() {
    let v = small_vault();
    for args in [
        &["-q", "regen", "--dry-run"][..],
        &["-q", "regen"][..],
        &["-q", "regen"][..],
        &["-q", "audit"][..],
        &["-q", "list"][..],
        &["-q", "regen", "--check"][..],
    ] {
        let out = v.output(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed: {}", stdout(&out));
    }
    assert!(v.exists(DASH), "-q regen still writes");
}

#[test]
fn regen_never_reads_the_dashboard_back() {
    // Loss mode 1: the dashboard is output only.
    let v = small_vault().file(
        DASH,
        "<!-- Generated by active-status -->\n## Session: x (wrap-cli)\n### Next\n- [ ] ghost item from an old dashboard\n",
    );
    let r = v.json(&["regen", "--format", "json"]);
    assert_eq!(r["audit"]["collected"], 2);
    assert!(!v.read(DASH).contains("ghost item"));
}

#[test]
fn closed_stdout_does_not_panic() {
    let v = rich_vault();
    for args in [
        &["config"][..],
        &["list"][..],
        &["audit", "--format", "json"][..],
    ] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_active-status"))
            .env("XDG_CONFIG_HOME", v.join("no-such-config"))
            .env_remove("ACTIVE_STATUS_ROOT")
            .arg("--root")
            .arg(v.path())
            .args(args)
            .stdout(writer)
            .output()
            .expect("run binary");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("panicked"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_huge_lock_timeout_is_a_data_error_naming_where_it_came_from() {
    let v = Vault::new().file("journal/2026-05-06.md", "## Next\n- [ ] x\n");
    v.test()
        .args(["regen", "--lock-timeout", "1e30", "-q"])
        .status(65)
        .stderr_has(
            "configuration (flag --lock-timeout): key `lock.timeout_secs`: must be a number of seconds from 0 to 300",
        )
        .run();
    v.test()
        .args(["regen", "-q"])
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "1e300")
        .status(65)
        .stderr_has("env ACTIVE_STATUS_LOCK_TIMEOUT_SECS")
        .expect_no_file(DASH)
        .run();
}

#[test]
fn list_with_an_unknown_project_exits_65_naming_the_known_ones() {
    let v = Vault::new().project("alpha").project("wrap-cli");
    v.test()
        .file("journal/2026-05-06.md", "## Next\n- [ ] (alpha) x\n")
        .args(["list", "--project", "nosuch"])
        .status(65)
        .stderr_has("no project \"nosuch\" in this vault\nhint: known projects: alpha, wrap-cli")
        .run();
    // A known project with nothing open is not an error.
    v.test().args(["list", "--project", "wrap-cli"]).run();
}

// ---------------------------------------------------------------- dates on the command line

#[test]
fn a_bad_date_on_the_command_line_is_a_usage_error_naming_its_flag() {
    let v = Vault::new().file(
        "journal/2026-05-06.md",
        "# 2026-05-06\n\n### Next\n\n- [ ] add lock timeout\n",
    );
    let cases: [(&[&str], &str); 6] = [
        (
            &["defer", "add lock timeout", "--until", "tomorrow"],
            "error: invalid value 'tomorrow' for '--until <DATE>': expected YYYY-MM-DD\n",
        ),
        (
            &["done", "add lock timeout", "--date", "2026-02-30"],
            "error: invalid value '2026-02-30' for '--date <D>': ",
        ),
        (
            &["route", "--to", "journal", "--date", "May 6", "x y"],
            "error: invalid value 'May 6' for '--date <D>': expected YYYY-MM-DD\n",
        ),
        (
            &["--today", "tomorrow", "list"],
            "error: invalid value 'tomorrow' for '--today <DATE>': expected YYYY-MM-DD\n",
        ),
        (
            &["--today", "1969-12-31", "list"],
            "error: invalid value '1969-12-31' for '--today <DATE>': 1969-12-31 is outside the years 1970–2100\n",
        ),
        (
            &["--today", "2101-01-01", "list"],
            "error: invalid value '2101-01-01' for '--today <DATE>': 2101-01-01 is outside the years 1970–2100\n",
        ),
    ];
    for (args, message) in cases {
        let out = v.test().args(args).status(2).run().output;
        assert!(
            stderr(&out).starts_with(message),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = v
        .test()
        .env("ACTIVE_STATUS_TODAY", "1969-12-31")
        .args(["list"])
        .status(2)
        .run()
        .output;
    assert_eq!(
        stderr(&out),
        "error: ACTIVE_STATUS_TODAY \"1969-12-31\": 1969-12-31 is outside the years 1970–2100\n"
    );
}

#[test]
fn usage_lines_show_what_is_missing_and_not_the_environment() {
    let v = Vault::new();
    v.test()
        .env("ACTIVE_STATUS_TODAY", "2026-05-06")
        .args(["extract"])
        .status(2)
        .stderr_lacks("--today")
        .run();
    let out = v
        .test()
        .args(["extract", "--since", "7d"])
        .status(2)
        .run()
        .output;
    assert!(
        stderr(&out)
            .starts_with("error: the following required arguments were not provided:\n  --sweep\n"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("--transcript"), "{}", stderr(&out));
}

#[test]
fn list_marks_blocked_items_and_the_dashboard_shows_priorities() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        "## Next Session\n\n- [ ] set up the database 🆔 db ⏫\n- [ ] write the migrations ⛔ db\n",
    );
    let out = v
        .cmd()
        .args(["--today", "2026-05-06", "list"])
        .output()
        .unwrap();
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("write the migrations  ⛔ blocked by db  (projects/p/todos.md:4")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("set up the database  (projects/p/todos.md:3")),
        "{text}"
    );
    v.test()
        .args(["--today", "2026-05-06", "regen", "-q"])
        .run();
    let dash = v.read(DASH);
    assert!(
        dash.contains("**p** · set up the database · ⏫ high · ["),
        "{dash}"
    );
}
