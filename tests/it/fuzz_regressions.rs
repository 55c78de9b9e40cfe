//! Replays the fuzz corpora and crash inputs through the same invariant
//! checks as the fuzz targets (see `fuzz/README.md`), as an ordinary test:
//! every file of `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/`.
//!
//! Inputs of bugs not fixed yet are listed in `OPEN_BUGS`: the directory
//! tests skip them and an `#[ignore]`d test per bug replays them. When the
//! bug is fixed, drop its entry and its `#[ignore]`.

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// `(target, file name under fuzz/regressions/<target>/)` of unfixed bugs.
/// (Fixed: `parse/normalize-nested-wikilinks-20.md` and `parse/crash-1fa7…`,
/// normalize not a fixed point on deeply nested brackets, fixed in 9a96d83.)
const OPEN_BUGS: &[(&str, &str)] = &[];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn inputs(target: &str) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for kind in ["corpus", "regressions"] {
        let dir = fuzz_dir().join(kind).join(target);
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in read {
            let path = entry.expect("read fuzz directory").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !path.is_file() || name.starts_with('.') {
                continue;
            }
            let open =
                kind == "regressions" && OPEN_BUGS.iter().any(|&(t, f)| t == target && f == name);
            if !open {
                all.push(path);
            }
        }
    }
    all.sort();
    all
}

/// Runs `check` on every input, then fails listing each input that panicked.
fn replay(target: &str, check: fn(&[u8])) {
    let files = inputs(target);
    assert!(
        target == "route_insert" || !files.is_empty(),
        "no inputs for {target}: fuzz/corpus/{target}/ is missing"
    );
    let mut failed = Vec::new();
    for path in &files {
        let data = std::fs::read(path).expect("read fuzz input");
        if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} {target} inputs broke an invariant (panic messages above):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}

fn replay_one(target: &str, name: &str, check: fn(&[u8])) {
    let path = fuzz_dir().join("regressions").join(target).join(name);
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    check(&data);
}

/// The template check with this package's binary as the renderer.
fn check_template(data: &[u8]) {
    checks::check_template(data, Path::new(env!("CARGO_BIN_EXE_active-status")));
}

/// One test per fuzz target: `test_name: "target" => check;` replays every
/// corpus and regression input of the target through its check.
macro_rules! replays {
    ($($name:ident: $target:literal => $check:expr;)*) => {
        $(
            #[test]
            fn $name() {
                replay($target, $check);
            }
        )*
    };
}

replays! {
    parse_inputs: "parse" => checks::check_parse;
    transcript_inputs: "transcript" => checks::check_transcript;
    config_inputs: "config" => checks::check_config;
    config_values_inputs: "config_values" => checks::check_config_values;
    private_inputs: "private" => checks::check_private;
    oplog_inputs: "oplog" => checks::check_oplog;
    decisions_inputs: "decisions" => checks::check_decisions;
    mcp_request_inputs: "mcp_request" => checks::check_mcp_request;
    template_inputs: "template" => check_template;
    route_insert_inputs: "route_insert" => checks::check_route_idempotent;
}

#[test]
fn open_bug_normalize_link_inside_wikilink() {
    for name in [
        "normalize-link-inside-wikilink.md",
        "normalize-link-after-wikilink.md",
        "crash-018b2874e75ac3cb85e1f1da39cff9c4d4b55d95",
    ] {
        replay_one("parse", name, checks::check_parse);
    }
}

/// Inputs on which routing the same entry twice adds it twice (the first
/// route itself keeps every byte, so `route_idempotent_inputs_keep_bytes`
/// runs them through the byte check and passes).
fn route_idempotent_inputs() -> Vec<PathBuf> {
    let dir = fuzz_dir().join("regressions").join("route_idempotent");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|r| r.map(|e| e.expect("read dir").path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn route_idempotent_inputs_keep_bytes() {
    for path in route_idempotent_inputs() {
        checks::check_route_insert(&std::fs::read(&path).expect("read input"));
    }
}

#[test]
fn open_bug_route_not_idempotent() {
    let mut failed = Vec::new();
    for path in route_idempotent_inputs() {
        let data = std::fs::read(&path).expect("read input");
        if catch_unwind(AssertUnwindSafe(|| checks::check_route_idempotent(&data))).is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "not idempotent:\n{}", failed.join("\n"));
}

#[test]
fn private_marker_never_leaks() {
    // The invariant the parse target checks, on hand-made cases.
    for doc in [
        "- [ ] call <private>ZQXSECRET</private> now\n",
        "- a <private> ZQXSECRET\n- b\n",
        "> - q <private>ZQXSECRET\n>   more</private> tail\n",
        "## Next\r\n- [ ] x <PRIVATE>ZQXSECRET</Private>\r\n",
    ] {
        checks::check_parse(doc.as_bytes());
    }
}

#[test]
fn open_bug_list_points_at_files() {
    for &(target, name) in OPEN_BUGS {
        let path = fuzz_dir().join("regressions").join(target).join(name);
        assert!(
            path.is_file(),
            "OPEN_BUGS names a missing file: {}",
            path.display()
        );
    }
}
