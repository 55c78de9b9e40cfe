//! The validated cache in `.agents/cache/` (docs/FORMAT.md "The cache"):
//! written only under the lock, read by every scanning command, turned off
//! by `--no-cache` or `cache = false`, ignored (with a note in `audit -v`)
//! when damaged, and never changing the output.

use crate::common::assert_has;
use crate::common::{Vault, bare_cmd, stdout};

const SCAN: &str = ".agents/cache/scan.bin";
const DASH: &str = "ACTIVE-STATUS.md";
const RESULT: &str = ".agents/cache/result.bin";
const TODOS: &str = "projects/wrap-cli/todos.md";

fn vault() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .md(TODOS, &["## Next", "- [ ] tidy the flags"])
        .md(
            "journal/2026-05-06.md",
            &[
                "## Session: lock work (wrap-cli)",
                "",
                "### Next",
                "- [ ] add lock timeout test",
                "- [ ] write the guide",
            ],
        )
}

#[test]
fn only_commands_holding_the_lock_write_the_cache() {
    let v = vault();
    v.ok(&["audit"]);
    v.ok(&["list"]);
    v.ok(&["regen", "--dry-run"]);
    let _ = v.cmd().args(["regen", "--check"]).output().expect("run");
    let input = serde_json::json!({"cwd": v.path(), "source": "startup"}).to_string();
    let hook = bare_cmd()
        .env("HOME", v.join(".agents/no-home"))
        .env("XDG_CONFIG_HOME", v.join(".agents/no-home"))
        .args(["hook", "session-start"])
        .write_stdin(input)
        .output()
        .expect("run");
    assert!(hook.status.success());
    assert!(!v.exists(".agents/cache"), "a read-only command wrote it");
    v.ok(&["regen"]);
    assert!(v.exists(SCAN));
    assert!(v.read(".agents/cache/.gitignore").lines().any(|l| l == "*"));
    assert!(
        !v.exists(".agents/cache/pairs.bin"),
        "the merge keeps no memo"
    );
    assert!(v.exists(RESULT));
    let before = std::fs::read(v.join(SCAN)).expect("cache");
    v.write("journal/2026-05-07.md", "### Next\n- [ ] a new day\n");
    v.ok(&["audit"]);
    v.ok(&["list"]);
    assert_eq!(std::fs::read(v.join(SCAN)).expect("cache"), before);
}

#[test]
fn audit_reports_files_reused_and_reread() {
    let v = vault();
    v.ok(&["regen"]);
    let r = v.report();
    assert_eq!(
        r["audit"]["cache"],
        serde_json::json!({"reused": 2, "reread": 0, "written": false,
                           "pairs_reused": false, "ignored": []})
    );
    v.write(TODOS, "## Next\n- [ ] tidy the options\n");
    let text = v.ok(&["audit", "-v"]);
    assert!(text.contains("cache: 1 file reused, 1 re-read\n"), "{text}");
    assert!(!v.ok(&["audit"]).contains("cache:"));
}

#[test]
fn no_cache_flag_config_key_and_variable_turn_it_off() {
    let v = vault();
    v.ok(&["--no-cache", "regen"]);
    v.ok(&["regen", "--no-cache"]);
    assert!(!v.exists(".agents/cache"));
    let r = v.json(&["audit", "--no-cache", "--format", "json"]);
    assert!(r["audit"].get("cache").is_none(), "{}", r["audit"]);
    v.test()
        .env("ACTIVE_STATUS_CACHE", "false")
        .args(["regen"])
        .run();
    assert!(!v.exists(".agents/cache"));
    v.write(".agents/active-status.toml", "cache = false\n");
    v.ok(&["regen"]);
    assert!(!v.exists(".agents/cache"));
    assert!(v.ok(&["config"]).contains("cache = false"));
}

#[test]
fn a_damaged_cache_is_ignored_with_a_note_and_replaced() {
    let v = vault();
    v.ok(&["regen"]);
    let clean = v.read(DASH);
    for damage in [&b"not a cache"[..], &[][..]] {
        std::fs::write(v.join(SCAN), damage).expect("write");
        let text = v.ok(&["audit", "-v"]);
        assert_has(
            &text,
            &[
                "cache: 0 files reused, 2 re-read\n",
                ".agents/cache/scan.bin ignored:",
            ],
        );
        assert!(!v.ok(&["audit"]).contains("ignored"));
        std::fs::remove_file(v.join(DASH)).expect("rm");
        v.ok(&["regen"]);
        assert_eq!(v.read(DASH), clean);
        let r = v.report();
        assert_eq!(r["audit"]["cache"]["reused"], 2, "{}", r["audit"]["cache"]);
    }
}

#[test]
fn an_edit_after_regen_shows_in_the_next_regen() {
    let v = vault();
    v.ok(&["regen"]);
    // Same size, and the modification time put back.
    let path = v.join(TODOS);
    let mtime = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    v.write(TODOS, "## Next\n- [ ] tidy the flagz\n");
    let f = std::fs::File::options()
        .write(true)
        .open(&path)
        .expect("open");
    f.set_modified(mtime).expect("set mtime");
    v.ok(&["regen"]);
    assert!(v.read(DASH).contains("tidy the flagz"));
    let cached = v.read(DASH);
    v.ok(&["--no-cache", "regen"]);
    assert_eq!(v.read(DASH), cached);
}

/// `hook session-start` on the vault (extra global flags first).
fn session_start(v: &Vault, flags: &[&str]) -> String {
    session_start_noted(v, flags).0
}

/// `hook session-start -v`: its stdout, and whether its stderr notes that
/// the view came from the result cache (`Some(true)`), from a scan
/// (`Some(false)`), or neither.
fn session_start_noted(v: &Vault, flags: &[&str]) -> (String, Option<bool>) {
    let input = serde_json::json!({"cwd": v.path(), "source": "startup"}).to_string();
    let out = v
        .test()
        .args(flags)
        .args(["-v", "hook", "session-start"])
        .stdin(input)
        .run()
        .output;
    let err = String::from_utf8_lossy(&out.stderr);
    let hit = if err.contains("active-status hook: result cache: hit") {
        Some(true)
    } else if err.contains("active-status hook: result cache: miss") {
        Some(false)
    } else {
        None
    };
    (stdout(&out), hit)
}

#[test]
fn session_start_uses_the_last_result_only_while_the_vault_is_unchanged() {
    let v = vault();
    let (cold, hit) = session_start_noted(&v, &[]);
    assert!(cold.contains("tidy the flags"), "{cold}");
    assert_eq!(hit, Some(false), "no result yet");
    v.ok(&["regen"]);
    let result = std::fs::read(v.join(RESULT)).expect("result");
    assert_eq!(session_start_noted(&v, &[]), (cold.clone(), Some(true)));
    // A second regen with nothing changed leaves it as it is.
    v.ok(&["regen"]);
    assert_eq!(std::fs::read(v.join(RESULT)).expect("result"), result);
    assert_eq!(session_start_noted(&v, &[]), (cold, Some(true)));
    v.write(
        TODOS,
        "## Next\n- [ ] tidy the flags\n- [ ] count the hooks\n",
    );
    let (edited, hit) = session_start_noted(&v, &[]);
    assert!(edited.contains("count the hooks"), "{edited}");
    assert_eq!(hit, Some(false), "an edited file is a miss");
    assert_eq!(edited, session_start(&v, &["--no-cache"]));
    // Damaged: ignored (noted by audit -v), and the output is the same.
    std::fs::write(v.join(RESULT), b"ASTCACHE damaged").expect("write");
    assert_eq!(session_start_noted(&v, &[]), (edited.clone(), Some(false)));
    let text = v.ok(&["audit", "-v"]);
    assert!(text.contains(".agents/cache/result.bin ignored:"), "{text}");
    v.ok(&["regen"]);
    assert_eq!(session_start_noted(&v, &[]), (edited.clone(), Some(true)));
    assert!(!v.ok(&["audit", "-v"]).contains("ignored"));
}

#[test]
fn the_cache_holds_no_unkeyed_fingerprint_of_a_private_span() {
    use std::hash::{Hash, Hasher};
    let v = vault().file(
        "journal/2026-05-07.md",
        "### Next\n- [ ] call the bank <private>hunter2</private>\n",
    );
    v.ok(&["regen"]);
    // A warm run still reuses every file: the fingerprints are keyed with
    // the key the cache is signed with.
    let r = v.report();
    assert_eq!(r["audit"]["cache"]["reused"], 3, "{}", r["audit"]["cache"]);
    assert_eq!(r["audit"]["cache"]["reread"], 0, "{}", r["audit"]["cache"]);
    // The unkeyed 64-bit hash of the span (FxHash of its normalized text, as
    // the cache once stored it) appears nowhere in the file, in any encoding.
    let mut h = rustc_hash::FxHasher::default();
    "hunter2".hash(&mut h);
    0xffu8.hash(&mut h);
    let unkeyed = h.finish();
    let scan = std::fs::read(v.join(SCAN)).expect("cache");
    for needle in [
        unkeyed.to_le_bytes().to_vec(),
        unkeyed.to_be_bytes().to_vec(),
        postcard::to_allocvec(&Some(unkeyed)).expect("varint"),
    ] {
        assert!(
            !scan.windows(needle.len()).any(|w| w == needle.as_slice()),
            "the unkeyed fingerprint is in {SCAN}"
        );
    }
    assert!(!scan.windows(7).any(|w| w == b"hunter2"));
}
