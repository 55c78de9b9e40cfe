//! End-to-end tests of `route` (docs/FORMAT.md §9): every destination with the exact
//! resulting file, section creation, idempotence, byte preservation (CRLF,
//! BOM), batch all-or-nothing, refused input, symbolic links, `--regen`, the
//! JSON output, what the merge then sees, and concurrent processes.

use crate::common::assert_has;
use crate::common::{Vault, texts};
use crate::common::{stderr, stdout};

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Output, Stdio};

const DAY: &str = "journal/2026-05-06.md";

/// Runs `route ARGS` against `v` and returns the raw output.
fn route(v: &Vault, args: &[&str]) -> Output {
    v.cmd()
        .arg("route")
        .args(args)
        .output()
        .expect("run binary")
}

/// Runs `route ARGS --format json`, which must succeed, and parses it.
fn route_json(v: &Vault, args: &[&str]) -> Value {
    let mut all = vec!["route"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    v.json(&all)
}

/// `route FLAGS TEXT` (FLAGS split at spaces), which must succeed, as JSON.
fn routed(v: &Vault, flags: &str, text: &str) -> Value {
    let mut all: Vec<&str> = flags.split_whitespace().collect();
    all.push(text);
    route_json(v, &all)
}

/// `route FLAGS TEXT` (FLAGS split at spaces): the raw output.
fn route_to(v: &Vault, flags: &str, text: &str) -> Output {
    let mut all: Vec<&str> = flags.split_whitespace().collect();
    all.push(text);
    route(v, &all)
}

/// The flags of the most common destinations.
const JOURNAL_WRAP: &str = "--to journal --project wrap-cli --date 2026-05-06";
const JOURNAL_P: &str = "--to journal --project p --date 2026-05-06";
const PROJECT_WRAP: &str = "--to project --project wrap-cli";
const PROJECT_P: &str = "--to project --project p";

/// Runs `route --from -` with `input` on stdin.
fn route_from(v: &Vault, input: &str) -> Output {
    v.cmd()
        .args(["route", "--from", "-", "--format", "json"])
        .write_stdin(input)
        .output()
        .expect("run binary")
}

/// The one result of a single-entry route.
fn single(results: &Value) -> &Value {
    let a = results.as_array().expect("array of results");
    assert_eq!(a.len(), 1, "{results}");
    &a[0]
}

/// Every file (and symbolic link) below `root`, with its bytes.
fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read_dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .into_owned();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).expect("read_link");
                out.insert(
                    format!("{rel} -> symlink"),
                    target.to_string_lossy().into_owned().into_bytes(),
                );
            } else if meta.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(root, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// `new` is `old` with `inserted` put in at one place, every other byte unchanged.
fn assert_pure_insertion(old: &[u8], new: &[u8], inserted: &[u8]) {
    assert_eq!(
        new.len(),
        old.len() + inserted.len(),
        "old:\n{:?}\nnew:\n{:?}",
        String::from_utf8_lossy(old),
        String::from_utf8_lossy(new)
    );
    let at = new
        .windows(inserted.len())
        .position(|w| w == inserted)
        .unwrap_or_else(|| {
            panic!(
                "{:?} not found in {:?}",
                String::from_utf8_lossy(inserted),
                String::from_utf8_lossy(new)
            )
        });
    assert_eq!(&new[..at], &old[..at], "bytes before the insertion changed");
    assert_eq!(
        &new[at + inserted.len()..],
        &old[at..],
        "bytes after the insertion changed"
    );
}

/// Every line break of `bytes` is CRLF.
fn assert_all_crlf(bytes: &[u8]) {
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            assert!(i > 0 && bytes[i - 1] == b'\r', "bare LF at byte {i}");
        }
    }
}

// ---------------------------------------------------------------- journal

#[test]
fn journal_creates_file_session_and_next_list() {
    let v = Vault::new().project("wrap-cli");
    let r = route_json(
        &v,
        &[
            "--to",
            "journal",
            "--project",
            "wrap-cli",
            "--date",
            "2026-05-06",
            "retry",
            "flaky",
            "test",
        ],
    );
    assert_eq!(
        r,
        json!([{"text": "retry flaky test", "to": "journal", "path": DAY, "line": 7, "status": "added"}])
    );
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: follow-ups (wrap-cli)\n\n### Next\n\n- retry flaky test\n"
    );
}

#[test]
fn journal_default_date_is_today() {
    let v = Vault::new().project("p");
    #[allow(clippy::disallowed_methods)] // the test runs with the caller's TZ, like the binary
    let today = jiff::Zoned::now().date().to_string();
    let r = routed(&v, "--to journal --project p", "today item");
    let path = format!("journal/{today}.md");
    assert_eq!(single(&r)["path"], path.as_str());
    assert_eq!(
        v.read(&path),
        format!("# {today}\n\n## Session: follow-ups (p)\n\n### Next\n\n- today item\n")
    );
}

#[test]
fn journal_appends_a_session_when_the_project_has_none() {
    let v = Vault::new().project("wrap-cli").project("docs").file(
        DAY,
        "# 2026-05-06\n\n## Session: docs day (docs)\n\n### Next\n- [ ] write guide\n\n\n",
    );
    let r = routed(&v, JOURNAL_WRAP, "add lock timeout");
    assert_eq!(single(&r)["line"], 12);
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: docs day (docs)\n\n### Next\n- [ ] write guide\n\
         \n## Session: follow-ups (wrap-cli)\n\n### Next\n\n- add lock timeout\n\n\n"
    );
}

#[test]
fn journal_creates_next_in_the_last_session_of_the_project() {
    let before = "# 2026-05-06\n\n## Session: morning (wrap-cli)\n\n### Next\n- [ ] old item\n\n\
                  ## Session: lock work (wrap-cli)\n\nSome prose about the session.\n\n\
                  ## Session: docs (docs)\n- note\n\n## Notes\nfree text\n";
    let v = Vault::new()
        .project("wrap-cli")
        .project("docs")
        .file(DAY, before);
    let r = routed(&v, JOURNAL_WRAP, "add lock timeout");
    assert_eq!(single(&r)["line"], 14);
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: morning (wrap-cli)\n\n### Next\n- [ ] old item\n\n\
         ## Session: lock work (wrap-cli)\n\nSome prose about the session.\n\n\
         ### Next\n\n- add lock timeout\n\n\
         ## Session: docs (docs)\n- note\n\n## Notes\nfree text\n"
    );
}

#[test]
fn journal_appends_after_the_last_item_of_an_existing_next_list_with_its_checkbox() {
    let v = Vault::new().project("wrap-cli").file(
        DAY,
        "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Next\n\
         - [ ] (wrap-cli) add lock timeout\n- [ ] write docs\n\n### Done\n- fix lock race\n\n\
         ## Notes\nfree text\n",
    );
    let r = routed(&v, JOURNAL_WRAP, "retry flaky test");
    assert_eq!(single(&r)["line"], 8);
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Next\n\
         - [ ] (wrap-cli) add lock timeout\n- [ ] write docs\n- [ ] retry flaky test\n\n\
         ### Done\n- fix lock race\n\n## Notes\nfree text\n"
    );
}

#[test]
fn journal_session_named_by_a_known_slug_counts() {
    // Rule 3 of the project of an item: a known slug as a whole word names the session.
    let v = Vault::new()
        .project("wrap-cli")
        .file(DAY, "## Session: polish wrap-cli\n### Next\n- a\n");
    routed(&v, JOURNAL_WRAP, "b");
    assert_eq!(
        v.read(DAY),
        "## Session: polish wrap-cli\n### Next\n- a\n- b\n"
    );
}

#[test]
fn journal_without_project_is_untagged_and_warned() {
    let v = Vault::new();
    let r = routed(&v, "--to journal --date 2026-05-06", "untagged idea");
    assert_eq!(single(&r)["line"], 7);
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: follow-ups\n\n### Next\n\n- untagged idea\n"
    );
    let report = v.report();
    assert_eq!(
        report["audit"]["untagged_warnings"],
        json!([{"path": DAY, "line": 7, "text": "untagged idea", "reason": "session-without-project"}])
    );
}

#[test]
fn date_picks_an_existing_journal_file_in_a_nested_folder() {
    let nested = "journal/2026/05/2026-05-06-retro.md";
    let v = Vault::new()
        .project("wrap-cli")
        .file(nested, "# Retro\n\n## Session: retro (wrap-cli)\n")
        .file("journal/2026/05/2026-05-05.md", "# 2026-05-05\n");
    let r = routed(&v, JOURNAL_WRAP, "retry flaky test");
    assert_eq!(
        r,
        json!([{"text": "retry flaky test", "to": "journal", "path": nested, "line": 7, "status": "added"}])
    );
    assert_eq!(
        v.read(nested),
        "# Retro\n\n## Session: retro (wrap-cli)\n\n### Next\n\n- retry flaky test\n"
    );
    assert!(!v.exists(DAY), "no new journal file may be created");
    assert_eq!(v.read("journal/2026/05/2026-05-05.md"), "# 2026-05-05\n");
}

// ---------------------------------------------------------------- skip, goal

#[test]
fn skip_creates_skipped_follow_ups_and_feeds_potentially_lost() {
    let v = Vault::new().project("wrap-cli");
    let r = routed(
        &v,
        "--to skip --project wrap-cli --date 2026-05-06",
        "rewrite in go",
    );
    assert_eq!(
        r,
        json!([{"text": "rewrite in go", "to": "skip", "path": DAY, "line": 7, "status": "added"}])
    );
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: follow-ups (wrap-cli)\n\n### Skipped follow-ups\n\n- rewrite in go\n"
    );
    let report = v.report();
    assert_eq!(report["as_of"], "2026-05-06");
    assert_eq!(
        report["audit"]["potentially_lost"],
        json!([{"path": DAY, "line": 7, "text": "rewrite in go", "project": "wrap-cli"}])
    );
    // A skip is a record, not an open item.
    assert!(v.open_texts().is_empty());
}

#[test]
fn skip_of_an_earlier_day_is_not_potentially_lost() {
    let v = Vault::new().project("wrap-cli").file(DAY, "# 2026-05-06\n");
    routed(
        &v,
        "--to skip --project wrap-cli --date 2026-05-05",
        "old skip",
    );
    let report = v.report();
    assert_eq!(report["as_of"], "2026-05-06");
    assert_eq!(report["audit"]["potentially_lost"], json!([]));
}

#[test]
fn skip_and_goal_go_into_the_existing_session() {
    let v = Vault::new().project("wrap-cli").file(
        DAY,
        "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Next\n- [ ] a\n\n## Notes\n",
    );
    routed(
        &v,
        "--to goal --project wrap-cli --date 2026-05-06",
        "ship the lock",
    );
    routed(
        &v,
        "--to skip --project wrap-cli --date 2026-05-06",
        "rewrite in go",
    );
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Next\n- [ ] a\n\n\
         ### Goal\n\n- ship the lock\n\n\
         ### Skipped follow-ups\n\n- rewrite in go\n\n## Notes\n"
    );
}

#[test]
fn goal_creates_goal_section_and_becomes_the_current_goal() {
    let v = Vault::new().project("wrap-cli");
    let r = routed(
        &v,
        "--to goal --project wrap-cli --date 2026-05-06",
        "ship the lock",
    );
    assert_eq!(
        r,
        json!([{"text": "ship the lock", "to": "goal", "path": DAY, "line": 7, "status": "added"}])
    );
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: follow-ups (wrap-cli)\n\n### Goal\n\n- ship the lock\n"
    );
    let goals = &v.report()["goals"];
    assert_eq!(
        goals,
        &json!([{"project": "wrap-cli", "text": "ship the lock", "date": "2026-05-06", "path": DAY, "line": 7}])
    );
}

// ---------------------------------------------------------------- project, active

#[test]
fn project_creates_todos_with_next_session() {
    let v = Vault::new();
    let r = routed(&v, "--to project --project Wrap-CLI", "add lock timeout");
    assert_eq!(
        r,
        json!([{"text": "add lock timeout", "to": "project", "path": "projects/wrap-cli/todos.md", "line": 5, "status": "added"}])
    );
    assert_eq!(
        v.read("projects/wrap-cli/todos.md"),
        "# wrap-cli\n\n## Next Session\n\n- [ ] add lock timeout\n"
    );
    let list = v.json(&["list", "--format", "json"]);
    assert_eq!(list["items"][0]["project"], "wrap-cli");
    assert_eq!(list["items"][0]["source"]["kind"], "project_todos");
}

#[test]
fn project_appends_next_session_section_to_an_existing_file() {
    let v = Vault::new().file(
        "projects/wrap-cli/todos.md",
        "# wrap-cli\n\n## Backlog\n- [ ] someday\n",
    );
    let r = routed(&v, PROJECT_WRAP, "add lock timeout");
    assert_eq!(single(&r)["line"], 8);
    assert_eq!(
        v.read("projects/wrap-cli/todos.md"),
        "# wrap-cli\n\n## Backlog\n- [ ] someday\n\n## Next Session\n\n- [ ] add lock timeout\n"
    );
}

#[test]
fn project_appends_at_the_end_of_its_next_session_section() {
    let v = Vault::new().file(
        "projects/wrap-cli/todos.md",
        "# wrap-cli\n\n## Next Session\n- [ ] a\n- [ ] b\n\n## Done\n- [x] c\n",
    );
    let r = routed(&v, PROJECT_WRAP, "add lock timeout");
    assert_eq!(single(&r)["line"], 6);
    assert_eq!(
        v.read("projects/wrap-cli/todos.md"),
        "# wrap-cli\n\n## Next Session\n- [ ] a\n- [ ] b\n- [ ] add lock timeout\n\n## Done\n- [x] c\n"
    );
}

#[test]
fn active_creates_the_task_file() {
    let v = Vault::new();
    let r = routed(
        &v,
        "--to active --project wrap-cli --task lock",
        "test flock",
    );
    let path = "projects/wrap-cli/actives/lock/todos.md";
    assert_eq!(
        r,
        json!([{"text": "test flock", "to": "active", "path": path, "line": 3, "status": "added"}])
    );
    // The created file is `# <task>`; the item follows after one blank line.
    assert_eq!(v.read(path), "# lock\n\n- [ ] test flock\n");
    let report = v.report();
    assert_eq!(
        report["active_tasks"],
        json!([{"project": "wrap-cli", "task": "lock", "path": path, "open": 1, "done": 0}])
    );
}

#[test]
fn active_appends_at_the_end_of_an_existing_file() {
    let path = "projects/wrap-cli/actives/lock/todos.md";
    let v = Vault::new().file(path, "# lock\n\n- [ ] a\n- [x] b\n\n\n");
    let r = routed(
        &v,
        "--to active --project wrap-cli --task lock",
        "test flock",
    );
    assert_eq!(single(&r)["line"], 5);
    assert_eq!(
        v.read(path),
        "# lock\n\n- [ ] a\n- [x] b\n- [ ] test flock\n\n\n"
    );
}

// ---------------------------------------------------------------- idempotence

#[test]
fn every_destination_is_idempotent() {
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["--to", "journal", "--project", "p"],
            DAY,
            "retry flaky test",
        ),
        (&["--to", "skip", "--project", "p"], DAY, "rewrite it in go"),
        (&["--to", "goal", "--project", "p"], DAY, "ship the lock"),
        (
            &["--to", "project", "--project", "p"],
            "projects/p/todos.md",
            "add lock timeout",
        ),
        (
            &["--to", "active", "--project", "p", "--task", "t"],
            "projects/p/actives/t/todos.md",
            "test flock",
        ),
    ];
    for (args, path, text) in cases {
        let v = Vault::new().project("p");
        let mut all = args.to_vec();
        all.extend_from_slice(&["--date", "2026-05-06", text]);
        let first = route_json(&v, &all);
        assert_eq!(single(&first)["status"], "added", "{args:?}");
        let before = snapshot(v.path());
        let bytes = std::fs::read(v.join(path)).expect("read");
        let second = route_json(&v, &all);
        assert_eq!(
            second,
            json!([{"text": text, "to": args[1], "path": path, "line": single(&first)["line"], "status": "already_present"}]),
            "{args:?}"
        );
        assert_eq!(std::fs::read(v.join(path)).expect("read"), bytes);
        assert_eq!(snapshot(v.path()), before, "{args:?}: nothing may change");
    }
}

#[test]
fn a_fuzzy_near_duplicate_is_already_present() {
    let v = Vault::new().project("wrap-cli").file(
        DAY,
        "# 2026-05-06\n\n## Session: lock work (wrap-cli)\n\n### Next\n- [ ] retry flaky test\n",
    );
    let before = v.read(DAY);
    // Case, emphasis, a trailing `.` and a plural: similarity above 0.85.
    let r = routed(&v, JOURNAL_WRAP, "Retry *flaky* tests.");
    assert_eq!(
        r,
        json!([{"text": "Retry *flaky* tests.", "to": "journal", "path": DAY, "line": 6, "status": "already_present"}])
    );
    assert_eq!(v.read(DAY), before);
    // The same in a project file.
    let v = Vault::new().file(
        "projects/wrap-cli/todos.md",
        "## Next Session\n- [ ] Add `lock` timeout\n",
    );
    let r = routed(&v, PROJECT_WRAP, "add lock timeout.");
    assert_eq!(single(&r)["status"], "already_present");
    assert_eq!(single(&r)["line"], 2);
}

#[test]
fn done_or_other_project_items_do_not_count_as_present() {
    let v = Vault::new().project("wrap-cli").project("docs").file(
        DAY,
        "## Session: a (docs)\n### Next\n- [ ] retry flaky test\n\
         ## Session: b (wrap-cli)\n### Next\n- [x] retry flaky test\n",
    );
    let r = routed(&v, JOURNAL_WRAP, "retry flaky test");
    assert_eq!(single(&r)["status"], "added");
    assert_eq!(single(&r)["line"], 7);
}

#[test]
fn text_output_names_status_path_and_line() {
    let v = Vault::new().project("p");
    let args = [
        "--to",
        "journal",
        "--project",
        "p",
        "--date",
        "2026-05-06",
        "first item",
    ];
    let out = route(&v, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("added: {DAY}:7 (journal) first item\n")
    );
    let out = route(&v, &args);
    assert_eq!(
        stdout(&out),
        format!("already present: {DAY}:7 (journal) first item\n")
    );
}

// ---------------------------------------------------------------- bytes

#[test]
fn crlf_files_stay_crlf_and_nothing_else_changes() {
    let todos = "projects/p/todos.md";
    let old_todos = b"# p\r\n\r\n## Next Session\r\n- [ ] a\r\n\r\n## Done\r\n- [x] b\r\n".to_vec();
    // No final line break: the insertion supplies one before the new block.
    let old_day = b"# 2026-05-06\r\n\r\n## Notes\r\nprose".to_vec();
    let v = Vault::new()
        .project("p")
        .file(todos, &old_todos)
        .file(DAY, &old_day);
    routed(&v, PROJECT_P, "new one");
    let new_todos = std::fs::read(v.join(todos)).expect("read");
    assert_pure_insertion(&old_todos, &new_todos, b"- [ ] new one\r\n");
    assert_all_crlf(&new_todos);

    routed(&v, JOURNAL_P, "j");
    let new_day = std::fs::read(v.join(DAY)).expect("read");
    assert_pure_insertion(
        &old_day,
        &new_day,
        b"\r\n\r\n## Session: follow-ups (p)\r\n\r\n### Next\r\n\r\n- j\r\n",
    );
    assert_all_crlf(&new_day);

    // Into an existing CRLF Next list, in the middle of the file.
    let before = new_day.clone();
    routed(&v, JOURNAL_P, "k");
    let after = std::fs::read(v.join(DAY)).expect("read");
    assert_pure_insertion(&before, &after, b"- k\r\n");
    assert_eq!(
        String::from_utf8(after).expect("utf8"),
        "# 2026-05-06\r\n\r\n## Notes\r\nprose\r\n\r\n## Session: follow-ups (p)\r\n\r\n### Next\r\n\r\n- j\r\n- k\r\n"
    );
}

#[test]
fn a_utf8_bom_is_kept() {
    let old_day = "\u{feff}# 2026-05-06\n\n## Session: s (p)\n### Next\n- one\n\n## Notes\n";
    let todos = "projects/p/todos.md";
    let old_todos = "\u{feff}## Next Session\n- [ ] a\n";
    let v = Vault::new()
        .project("p")
        .file(DAY, old_day)
        .file(todos, old_todos);
    let r = routed(&v, JOURNAL_P, "two");
    assert_eq!(single(&r)["line"], 6);
    let new_day = std::fs::read(v.join(DAY)).expect("read");
    assert!(new_day.starts_with("\u{feff}".as_bytes()));
    assert_pure_insertion(old_day.as_bytes(), &new_day, b"- two\n");

    let r = routed(&v, PROJECT_P, "b");
    assert_eq!(single(&r)["line"], 3);
    assert_eq!(v.read(todos), "\u{feff}## Next Session\n- [ ] a\n- [ ] b\n");
    // The BOM does not hide the first heading from the idempotence check.
    let r = routed(&v, PROJECT_P, "a");
    assert_eq!(single(&r)["status"], "already_present");
}

// ---------------------------------------------------------------- --from

#[test]
fn from_routes_a_batch_in_order() {
    let v = Vault::new().project("wrap-cli");
    let out = route_from(
        &v,
        r#"[
          {"text": "retry flaky test", "to": "journal", "project": "wrap-cli", "date": "2026-05-06"},
          {"text": "add lock timeout", "to": "project", "project": "wrap-cli", "task": null},
          {"text": "test flock", "to": "active", "project": "wrap-cli", "task": "lock"},
          {"text": "rewrite in go", "to": "skip", "project": "wrap-cli", "date": "2026-05-06"},
          {"text": "retry flaky test", "to": "journal", "project": "wrap-cli", "date": "2026-05-06"}
        ]"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let results: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        results,
        json!([
            {"text": "retry flaky test", "to": "journal", "path": DAY, "line": 7, "status": "added"},
            {"text": "add lock timeout", "to": "project", "path": "projects/wrap-cli/todos.md", "line": 5, "status": "added"},
            {"text": "test flock", "to": "active", "path": "projects/wrap-cli/actives/lock/todos.md", "line": 3, "status": "added"},
            {"text": "rewrite in go", "to": "skip", "path": DAY, "line": 11, "status": "added"},
            {"text": "retry flaky test", "to": "journal", "path": DAY, "line": 7, "status": "already_present"}
        ])
    );
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: follow-ups (wrap-cli)\n\n### Next\n\n- retry flaky test\n\
         \n### Skipped follow-ups\n\n- rewrite in go\n"
    );
}

#[test]
fn from_a_file_works_too() {
    let v = Vault::new().project("p");
    let input = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(
        input.path(),
        r#"[{"text": "x", "to": "project", "project": "p"}]"#,
    )
    .expect("write");
    v.test()
        .args(["route", "--format", "json", "--from"])
        .arg(input.path())
        .run();
    assert_eq!(
        v.read("projects/p/todos.md"),
        "# p\n\n## Next Session\n\n- [ ] x\n"
    );
}

#[test]
fn a_batch_with_one_bad_entry_writes_nothing() {
    let v = Vault::new().project("p").file(DAY, "# 2026-05-06\n");
    let before = snapshot(v.path());
    let out = route_from(
        &v,
        r#"[
          {"text": "fine", "to": "journal", "project": "p", "date": "2026-05-06"},
          {"text": "also fine", "to": "project", "project": "p"},
          {"text": "bad", "to": "project", "project": "../x"}
        ]"#,
    );
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("entry 3"), "{}", stderr(&out));
    assert_eq!(snapshot(v.path()), before, "nothing may be written");
    assert!(!v.join("../x").exists());
}

#[test]
fn a_batch_with_a_symlink_escape_writes_nothing() {
    let outside = tempfile::tempdir().expect("tempdir");
    let v = Vault::new().project("p");
    std::os::unix::fs::symlink(outside.path(), v.join("projects/evil")).expect("symlink");
    let before = snapshot(v.path());
    let out = route_from(
        &v,
        r#"[
          {"text": "fine", "to": "project", "project": "p"},
          {"text": "bad", "to": "project", "project": "evil"}
        ]"#,
    );
    assert_eq!(out.status.code(), Some(73), "{}", stderr(&out));
    assert_eq!(snapshot(outside.path()), BTreeMap::new());
    let mut after = snapshot(v.path());
    after.retain(|k, _| !k.starts_with(".agents/locks"));
    assert_eq!(after, before, "the first entry must not be written either");
}

// ---------------------------------------------------------------- refusals

#[test]
fn refused_command_line_input_exits_65_and_writes_nothing() {
    let cases: &[&[&str]] = &[
        &["--to", "project", "--project", "..", "x"],
        &["--to", "project", "--project", "a/b", "x"],
        &["--to", "project", "--project", "/abs", "x"],
        &["--to", "project", "--project", "/tmp", "x"],
        &["--to", "project", "--project", "p", "--task", "..", "x"],
        &["--to", "active", "--project", "p", "--task", "a/b", "x"],
        &["--to", "active", "--project", "..", "--task", "t", "x"],
        &["--to", "journal", "--project", "../p", "x"],
        &["--to", "journal", "--date", "2026-05-06", ""],
        &["--to", "journal", "--date", "2026-05-06", "   "],
        &["--to", "project", "--project", "p", " \t "],
        &[
            "--to",
            "journal",
            "--date",
            "2026-05-06",
            "line one\nline two",
        ],
        &["--to", "project", "--project", "p", "a\r\nb"],
        &["--to", "project", "x"],
        &["--to", "active", "--task", "t", "x"],
        &["--to", "active", "--project", "p", "x"],
    ];
    for args in cases {
        let v = Vault::new().project("p").file(DAY, "# 2026-05-06\n");
        let before = snapshot(v.path());
        let out = route(&v, args);
        assert_eq!(
            out.status.code(),
            Some(65),
            "{args:?}: stderr {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!stderr(&out).trim().is_empty(), "{args:?}: no message");
        assert_eq!(snapshot(v.path()), before, "{args:?} wrote something");
    }
}

#[test]
fn a_bad_date_flag_is_a_usage_error_and_writes_nothing() {
    for date in ["2026-13-01", "yesterday"] {
        let v = Vault::new().project("p").file(DAY, "# 2026-05-06\n");
        let before = snapshot(v.path());
        let out = route(&v, &["--to", "journal", "--date", date, "x"]);
        assert_eq!(out.status.code(), Some(2), "{date}: {}", stderr(&out));
        assert_eq!(snapshot(v.path()), before, "{date} wrote something");
    }
}

#[test]
fn refused_batch_input_exits_65_and_writes_nothing() {
    let cases = [
        "not json",
        r#"[{"text": "x", "to": "journal""#,
        r#"{"text": "x", "to": "journal"}"#,
        r#"[{"text": "x", "to": "nowhere"}]"#,
        r#"[{"to": "journal"}]"#,
        r#"[{"text": "", "to": "journal"}]"#,
        r#"[{"text": "  ", "to": "journal"}]"#,
        r#"[{"text": "a\nb", "to": "journal"}]"#,
        r#"[{"text": "x", "to": "project", "project": ".."}]"#,
        r#"[{"text": "x", "to": "project", "project": "a/b"}]"#,
        r#"[{"text": "x", "to": "project", "project": "/abs"}]"#,
        r#"[{"text": "x", "to": "project"}]"#,
        r#"[{"text": "x", "to": "active", "project": "p"}]"#,
        r#"[{"text": "x", "to": "active", "project": "p", "task": "../t"}]"#,
        r#"[{"text": "x", "to": "journal", "date": "2026-02-30"}]"#,
    ];
    for input in cases {
        let v = Vault::new().project("p").file(DAY, "# 2026-05-06\n");
        let before = snapshot(v.path());
        let out = route_from(&v, input);
        assert_eq!(
            out.status.code(),
            Some(65),
            "{input}: stderr {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{input}");
        assert_eq!(snapshot(v.path()), before, "{input} wrote something");
    }
}

#[test]
fn symbolic_links_never_lead_outside_the_vault() {
    // A project folder, the journal folder, and a target file that are links out.
    let cases: [(&str, &[&str]); 3] = [
        (
            "projects/evil",
            &["--to", "project", "--project", "evil", "x"],
        ),
        ("journal", &["--to", "journal", "--date", "2026-05-06", "x"]),
        (
            "projects/p/actives/t",
            &["--to", "active", "--project", "p", "--task", "t", "x"],
        ),
    ];
    for (link, args) in cases {
        let outside = tempfile::tempdir().expect("tempdir");
        let v = Vault::new().project("p");
        std::fs::create_dir_all(v.join(link).parent().expect("parent")).expect("mkdir");
        std::os::unix::fs::symlink(outside.path(), v.join(link)).expect("symlink");
        let before = snapshot(v.path());
        let out = route(&v, args);
        assert_eq!(out.status.code(), Some(73), "{link}: {}", stderr(&out));
        assert_eq!(
            snapshot(outside.path()),
            BTreeMap::new(),
            "{link}: wrote outside the vault"
        );
        let mut after = snapshot(v.path());
        after.retain(|k, _| !k.starts_with(".agents/locks"));
        assert_eq!(after, before, "{link}");
    }
    // A todos.md that is itself a link to a file outside.
    let (_outside, target) = crate::common::outside_file("todos.md", "## Next Session\n");
    let v = Vault::new().project("p");
    std::os::unix::fs::symlink(&target, v.join("projects/p/todos.md")).expect("symlink");
    let out = route_to(&v, PROJECT_P, "x");
    assert_eq!(out.status.code(), Some(73), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "## Next Session\n"
    );
    assert!(
        std::fs::symlink_metadata(v.join("projects/p/todos.md"))
            .expect("meta")
            .file_type()
            .is_symlink()
    );
}

// ---------------------------------------------------------------- merge

#[test]
fn regen_writes_the_dashboard_with_the_routed_item() {
    let v = Vault::new().project("wrap-cli");
    assert!(!v.exists("ACTIVE-STATUS.md"));
    let out = route_to(
        &v,
        "--to journal --project wrap-cli --date 2026-05-06 --regen",
        "retry flaky test",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dash = v.read("ACTIVE-STATUS.md");
    assert_has(
        &dash,
        &["retry flaky test", "wrap-cli", "journal/2026-05-06.md:7"],
    );
    // The dashboard is current: regen --check agrees.
    v.test().args(["regen", "--check"]).run();
}

#[test]
fn json_output_has_the_documented_shape() {
    let v = Vault::new().project("p");
    let r = routed(&v, PROJECT_P, "x");
    let entry = single(&r).as_object().expect("object");
    let mut keys: Vec<&str> = entry.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["line", "path", "status", "text", "to"]);
    assert!(entry["line"].is_u64());
    assert!(entry["path"].is_string());
}

#[test]
fn routed_items_show_in_list_with_their_project() {
    let v = Vault::new()
        .project("wrap-cli")
        .project("docs")
        .file("journal/2026-05-05.md", "# 2026-05-05\n");
    let r = routed(&v, JOURNAL_WRAP, "retry flaky test");
    routed(
        &v,
        "--to skip --project docs --date 2026-05-06",
        "rewrite the guide",
    );
    let list = v.json(&["list", "--format", "json"]);
    assert_eq!(list["as_of"], "2026-05-06");
    assert_eq!(texts(&list["items"]), ["retry flaky test"]);
    let item = &list["items"][0];
    assert_eq!(item["project"], "wrap-cli");
    assert_eq!(item["tier"], "today");
    assert_eq!(
        item["source"],
        json!({"kind": "journal_next", "path": single(&r)["path"], "line": single(&r)["line"]})
    );
    let only = v.json(&["list", "--project", "wrap-cli", "--format", "json"]);
    assert_eq!(texts(&only["items"]), ["retry flaky test"]);
    let none = v.json(&["list", "--project", "docs", "--format", "json"]);
    assert_eq!(none["items"], json!([]));
    let report = v.report();
    assert_eq!(
        report["audit"]["potentially_lost"],
        json!([{"path": DAY, "line": 13, "text": "rewrite the guide", "project": "docs"}])
    );
    assert_eq!(report["audit"]["untagged_warnings"], json!([]));
}

// ---------------------------------------------------------------- concurrency

/// Distinct texts: "item 1" and "item 10" would be fuzzy duplicates (0.86 ≥ 0.85).
const WORDS: [&str; 24] = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray",
];

fn phrase(i: usize) -> String {
    let w = WORDS[i];
    format!("{w} {w} {w}")
}

#[test]
fn concurrent_routes_each_land_exactly_once() {
    let v = Vault::new().project("p");
    let home = tempfile::tempdir().expect("tempdir");
    let bin = assert_cmd::cargo::cargo_bin("active-status");
    let spawn = |args: Vec<String>| {
        let mut cmd = std::process::Command::new(&bin);
        for (k, _) in std::env::vars() {
            if k.starts_with("ACTIVE_STATUS_") {
                cmd.env_remove(k);
            }
        }
        cmd.env("XDG_CONFIG_HOME", home.path())
            .env("HOME", home.path())
            .arg("--root")
            .arg(v.path())
            .arg("route")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let mut children = Vec::new();
    for i in 0..16 {
        children.push(spawn(vec![
            "--to".into(),
            "project".into(),
            "--project".into(),
            "p".into(),
            phrase(i),
        ]));
    }
    for i in 16..24 {
        children.push(spawn(vec![
            "--to".into(),
            "journal".into(),
            "--date".into(),
            "2026-05-06".into(),
            "--project".into(),
            "p".into(),
            phrase(i),
        ]));
    }
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).starts_with("added: "), "{}", stdout(&out));
    }
    let todos = v.read("projects/p/todos.md");
    for i in 0..16 {
        let line = format!("- [ ] {}", phrase(i));
        assert_eq!(
            todos.lines().filter(|l| *l == line).count(),
            1,
            "{line}\n{todos}"
        );
    }
    assert_eq!(todos.matches("## Next Session").count(), 1, "{todos}");
    assert_eq!(todos.lines().filter(|l| l.starts_with("- [ ]")).count(), 16);
    let day = v.read(DAY);
    for i in 16..24 {
        let line = format!("- {}", phrase(i));
        assert_eq!(
            day.lines().filter(|l| *l == line).count(),
            1,
            "{line}\n{day}"
        );
    }
    assert_eq!(
        day.matches("## Session: follow-ups (p)").count(),
        1,
        "{day}"
    );
    assert_eq!(day.matches("### Next").count(), 1, "{day}");
    assert_eq!(
        day.lines()
            .filter(|l| l.starts_with("- ") && !l.starts_with("- ["))
            .count(),
        8
    );
    // And the merge sees all 24.
    assert_eq!(v.open_texts().len(), 24);
}

#[test]
fn a_line_that_would_not_parse_back_is_refused_and_nothing_written() {
    // Behind an unclosed fence the routed line would be code, not an item.
    let original = "# p\n\n## Next Session\n\n```\n- [ ] inside the fence\n";
    let v = Vault::new()
        .project("p")
        .file("projects/p/todos.md", original);
    let out = route_to(&v, PROJECT_P, "new follow-up");
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("would not be read back"),
        "{}",
        stderr(&out)
    );
    assert_eq!(v.read("projects/p/todos.md"), original);
}

#[test]
fn the_item_goes_under_its_heading_before_sub_headings() {
    let original = "# p\n\n## Next Session\n- [ ] first\n\n### Done\n- [x] old\n";
    let v = Vault::new()
        .project("p")
        .file("projects/p/todos.md", original);
    let r = routed(&v, PROJECT_P, "second follow-up");
    assert_eq!(r[0]["line"], 5);
    assert_eq!(
        v.read("projects/p/todos.md"),
        "# p\n\n## Next Session\n- [ ] first\n- [ ] second follow-up\n\n### Done\n- [x] old\n"
    );
    // Routing it again finds it where it went.
    let again = routed(&v, PROJECT_P, "second follow-up");
    assert_eq!(again[0]["status"], "already_present");
}

#[test]
fn text_after_the_insertion_point_is_kept_apart_by_a_blank_line() {
    // Without the blank line, `Title` would continue the new item and the
    // `===` underline would make both a heading.
    let original = "## Session: s (p)\n### Next\n- [ ] a\nTitle\n===\n";
    let v = Vault::new()
        .project("p")
        .file("journal/2026-05-06.md", original);
    let out = route_to(&v, JOURNAL_P, "new one");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let texts = v.open_texts();
    assert!(texts.contains(&"new one".to_string()), "{texts:?}");
}

// ---------------------------------------------------------------- rough edges

#[test]
fn from_accepts_extract_candidates_with_a_destination() {
    let v = Vault::new().project("wrap-cli");
    // The shape `extract --format json` prints, with a "to" added.
    let out = route_from(
        &v,
        r#"{"schema": 1, "transcript": "s.jsonl", "candidates": [
          {"text": "wire the timeout", "keyword": "TODO:", "origin": "phrase",
           "role": "assistant", "line": 11, "persisted": false, "persisted_at": null,
           "to": "project", "project": "wrap-cli"}
        ]}"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        v.read("projects/wrap-cli/todos.md")
            .contains("- [ ] wire the timeout\n")
    );
    // An array of candidates works the same way.
    let out = route_from(
        &v,
        r#"[{"text": "second one", "keyword": "defer", "line": 3, "to": "project", "project": "wrap-cli"}]"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn from_errors_name_the_place_once() {
    let v = Vault::new();
    let out = route_from(&v, r#"[{"text": "no destination", "keyword": "TODO:"}]"#);
    assert_eq!(out.status.code(), Some(65));
    let err = stderr(&out);
    assert!(
        err.contains("route --from -: entry 1: missing field `to`; nothing was written"),
        "{err}"
    );
    let out = route_from(&v, "[\n  {\"text\": }\n]");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(65));
    assert!(err.contains("route --from -: line 2, column 12: "), "{err}");
    assert_eq!(err.matches("line").count(), 1, "{err}");
}

#[test]
fn active_lands_in_the_open_list_not_after_trailing_notes() {
    let path = "projects/p/actives/t/todos.md";
    let v = Vault::new().project("p").file(
        path,
        "# t\n\n- [ ] first\n- [x] done one\n\nNotes:\n- a remark\n- another\n",
    );
    let r = routed(&v, "--to active --project p --task t", "new step");
    assert_eq!(single(&r)["line"], 5);
    assert_eq!(
        v.read(path),
        "# t\n\n- [ ] first\n- [x] done one\n- [ ] new step\n\nNotes:\n- a remark\n- another\n"
    );
}

#[test]
fn journal_keeps_plain_bullets_where_the_list_has_no_checkboxes() {
    let v = Vault::new().file(
        DAY,
        "# 2026-05-06\n\n## Session: work\n\n### Next\n- plain one\n",
    );
    routed(&v, "--to journal --date 2026-05-06", "plain two");
    assert_eq!(
        v.read(DAY),
        "# 2026-05-06\n\n## Session: work\n\n### Next\n- plain one\n- plain two\n"
    );
}

#[test]
fn date_follows_the_vaults_journal_layout() {
    let v = Vault::new().file(
        "journal/2026/05/2026-05-06.md",
        "# 2026-05-06\n\n## Session: x\n### Next\n- [ ] a\n",
    );
    let r = routed(&v, "--to journal --date 2026-06-02", "new month");
    assert_eq!(single(&r)["path"], "journal/2026/06/2026-06-02.md");
    assert!(v.exists("journal/2026/06/2026-06-02.md"));
    assert!(!v.exists("journal/2026-06-02.md"));
    // A flat vault stays flat.
    let flat = Vault::new().file("journal/2026-05-06.md", "## Next\n- [ ] a\n");
    let r = route_json(&flat, &["--to", "journal", "--date", "2026-06-02", "x"]);
    assert_eq!(single(&r)["path"], "journal/2026-06-02.md");
}

#[test]
fn route_to_journal_files_the_entry_under_the_given_today() {
    let v = Vault::new().project("p");
    let out = v
        .test()
        .args([
            "--today",
            "2026-06-01",
            "route",
            "--to",
            "journal",
            "--project",
            "p",
            "check the backups",
        ])
        .run()
        .output;
    assert_eq!(
        stdout(&out),
        "added: journal/2026-06-01.md:7 (journal) check the backups\n"
    );
    // Filed on that day, the item is today's, not deferred.
    let list = v.json(&["--today", "2026-06-01", "list", "--format", "json"]);
    assert_eq!(list["items"][0]["tier"], "today", "{list}");
    v.test()
        .env("ACTIVE_STATUS_TODAY", "2026-06-02")
        .args([
            "route",
            "--to",
            "journal",
            "--project",
            "p",
            "rotate the keys",
        ])
        .run();
    assert!(v.exists("journal/2026-06-02.md"));
}

#[test]
fn extract_output_piped_to_route_leaves_out_persisted_candidates() {
    let v = Vault::new()
        .project("p")
        .file(
            "projects/p/todos.md",
            "## Next Session\n\n- [ ] add lock timeout\n",
        )
        .file(
            "notes.txt",
            "TODO: add lock timeout\nnext session: benchmark the parser\n",
        );
    let mut report = v
        .test()
        .args(["extract", "--transcript"])
        .arg(v.join("notes.txt"))
        .args(["--format", "json"])
        .run()
        .json();
    for c in report["candidates"].as_array_mut().unwrap() {
        c["to"] = json!("journal");
        c["project"] = json!("p");
    }
    v.test()
        .args(["--today", "2026-05-06", "route", "--from", "-"])
        .stdin(report.to_string())
        .stdout("added: journal/2026-05-06.md:7 (journal) benchmark the parser\n")
        .stderr(
            "route --from -: 1 candidate marked \"persisted\": true left out (already in the vault)\n",
        )
        .run();
}
