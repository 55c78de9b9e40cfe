//! Writes that must not lose, leak or escape. Route edits are
//! compare-and-swap (no line another program appends is lost), keep owner
//! and mode, leave no temporary files; batches are whole; the lock file is
//! never a hard link; a link swapped during runs never leads a write out of
//! the vault; a bad TZ never hangs a run; control characters are shown, not
//! sent to the terminal.

use crate::common::{Vault, run_limited};
use crate::common::{stderr, stdout};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

const DEADLINE: Duration = crate::common::HANG_GUARD;
const DAY: &str = "journal/2026-05-06.md";
const HEAD: &str = "# 2026-05-06\n\n## Session: s (p)\n\n### Next\n\n- [ ] first\n\n## Log\n\n";

fn route_day(v: &Vault, text: &str) -> Output {
    v.output(&["route", "--to", "journal", "--date", "2026-05-06", text])
}

/// Every file under `dir` (relative path → bytes).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir(dir) {
        out.push((
            e.strip_prefix(dir).unwrap().to_string_lossy().into_owned(),
            std::fs::read(&e).unwrap_or_default(),
        ));
    }
    out.sort();
    out
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn lines_appended_while_routing_are_never_lost() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    let path = v.join(DAY);
    let appender = std::thread::spawn(move || {
        for n in 0..200 {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .expect("open for append");
            std::io::Write::write_all(&mut f, format!("log line {n}\n").as_bytes())
                .expect("append");
            drop(f);
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    // Texts different enough never to count as duplicates of each other.
    let words = [
        "amber", "basil", "cedar", "delta", "ember", "fjord", "gusto", "hazel", "igloo", "jolly",
    ];
    let text = |n: usize| {
        format!(
            "{} {} {}",
            words[n % 10],
            words[(n / 10) % 10],
            "z".repeat(n / 100 + 1)
        )
    };
    let mut added = Vec::new();
    let mut n = 0;
    while !appender.is_finished() || n < 10 {
        let t = text(n);
        let o = route_day(&v, &t);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        if stdout(&o).starts_with("added:") {
            added.push(t);
        }
        n += 1;
    }
    appender.join().expect("appender");
    let content = v.read(DAY);
    for n in 0..200 {
        assert!(
            content.contains(&format!("log line {n}\n")),
            "log line {n} lost:\n{content}"
        );
    }
    assert!(!added.is_empty());
    for t in &added {
        assert!(
            content.contains(&format!("- {t}\n")),
            "{t} was reported added but is lost"
        );
    }
}

#[test]
fn route_keeps_owner_and_mode_and_leaves_no_temp_files() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    let path = v.join(DAY);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let root = std::fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false);
    if root {
        // Run as root on a user's file: the file stays the user's.
        std::os::unix::fs::chown(&path, Some(12345), Some(12345)).unwrap();
    }
    let before = std::fs::metadata(&path).unwrap();
    let o = route_day(&v, "keep my owner");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = std::fs::metadata(&path).unwrap();
    assert_eq!(after.mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_ne!(
        after.ino(),
        before.ino(),
        "replaced by rename, not rewritten in place"
    );
    let names: Vec<_> = std::fs::read_dir(v.join("journal"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["2026-05-06.md"]);
}

#[test]
fn temp_files_of_a_killed_run_are_removed_by_the_next() {
    let v = Vault::new()
        .project("p")
        .file(DAY, HEAD)
        .file("journal/.2026-05-06.md.aB3xYz.tmp", vec![b'x'; 4096])
        .file("journal/.2026-05-01.md.active-status-77-1f.tmp", "partial")
        .file("journal/.notes.tmp", "not ours");
    let o = route_day(&v, "after a crash");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!v.exists("journal/.2026-05-06.md.aB3xYz.tmp"));
    assert!(!v.exists("journal/.2026-05-01.md.active-status-77-1f.tmp"));
    assert!(
        v.exists("journal/.notes.tmp"),
        "a file that is not ours stays"
    );
    // The dashboard's folder too, by regen.
    v.write(".ACTIVE-STATUS.md.active-status-9-9.tmp", "old");
    assert_eq!(v.output(&["regen"]).status.code(), Some(0));
    assert!(!v.exists(".ACTIVE-STATUS.md.active-status-9-9.tmp"));
}

#[test]
fn a_batch_whose_second_file_cannot_be_written_writes_nothing() {
    let v = Vault::new().project("p").project("q").file(DAY, HEAD);
    // The second destination is a folder where a file must go.
    std::fs::create_dir_all(v.join("projects/q/todos.md")).unwrap();
    let before = files(v.path());
    let mut cmd = v.cmd();
    cmd.args(["route", "--from", "-"]).write_stdin(
        r#"[{"text": "one", "to": "project", "project": "p"},
            {"text": "two", "to": "project", "project": "q"}]"#,
    );
    let o = cmd.output().expect("run");
    assert_ne!(o.status.code(), Some(0));
    let mut after = files(v.path());
    after.retain(|(k, _)| !k.starts_with(".agents/locks"));
    let mut before = before;
    before.retain(|(k, _)| !k.starts_with(".agents/locks"));
    assert_eq!(after, before, "the first entry was written: {}", stderr(&o));
}

#[test]
fn route_regen_with_a_broken_template_reports_what_it_did() {
    // A template that does not compile: refused before anything is written.
    let v = Vault::new().project("p").file(DAY, HEAD);
    let flags = [
        "route",
        "--regen",
        "--to",
        "journal",
        "--date",
        "2026-05-06",
    ];
    v.test()
        .file("t.tera", "{% if %}\n")
        .file(".agents/active-status.toml", "template = \"t.tera\"\n")
        .args(flags)
        .arg("x")
        .status(65)
        .expect_file(DAY, HEAD)
        .run();
    // One that compiles but fails while rendering: the route is written and
    // reported, then the render failure.
    v.test()
        .file("t.tera", "{{ no_such_value }}\n")
        .args(flags)
        .arg("y")
        .status(65)
        .stdout_has("added: journal/2026-05-06.md")
        .stderr_has("entries above were written")
        .expect_file_has(DAY, "- y\n")
        .run();
}

#[test]
fn a_hard_linked_lock_file_is_never_truncated() {
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    let v = Vault::new().project("p").file(DAY, HEAD);
    std::fs::create_dir_all(v.join(".agents/locks")).unwrap();
    std::fs::hard_link(&victim, v.join(".agents/locks/active-status.lock")).unwrap();
    for args in [
        &["regen"][..],
        &["route", "--to", "journal", "--date", "2026-05-06", "z"][..],
    ] {
        let o = v.output(args);
        assert_eq!(o.status.code(), Some(65), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("hard links"), "{}", stderr(&o));
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

#[test]
fn an_escape_through_a_link_is_the_same_error_for_route_and_regen() {
    let outside = tempfile::tempdir().unwrap();
    let v = Vault::new()
        .file(
            ".agents/active-status.toml",
            "output = \"out/ACTIVE-STATUS.md\"\n",
        )
        .file("projects/.keep", "");
    std::os::unix::fs::symlink(outside.path(), v.join("out")).unwrap();
    std::os::unix::fs::symlink(outside.path(), v.join("projects/p")).unwrap();
    for args in [
        &["regen"][..],
        &["route", "--to", "project", "--project", "p", "x"][..],
    ] {
        let ran = v.test().args(args).status(73).run();
        assert!(ran.stderr().starts_with("error: refusing"), "{args:?}");
    }
    assert!(files(outside.path()).is_empty());
}

/// Swaps two directory entries atomically (Linux and macOS).
fn exchange(a: &Path, b: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).is_ok()
}

#[test]
fn a_link_swapped_during_runs_never_leads_a_write_outside() {
    let outside = tempfile::tempdir().unwrap();
    let v = Vault::new()
        .project("p")
        .file(DAY, HEAD)
        .file(
            ".agents/active-status.toml",
            "output = \"out/ACTIVE-STATUS.md\"\n",
        )
        .file("out/.keep", "")
        .file("projects/p/todos.md", "# p\n\n## Next Session\n\n");
    std::os::unix::fs::symlink(outside.path(), v.join("evil")).unwrap();
    std::os::unix::fs::symlink(outside.path(), v.join("projects/evil")).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (a, b) = (v.join("out"), v.join("evil"));
    let (c, d) = (v.join("projects/p"), v.join("projects/evil"));
    let flag = stop.clone();
    let swapper = std::thread::spawn(move || {
        let mut swaps = 0u64;
        while !flag.load(std::sync::atomic::Ordering::Relaxed) {
            swaps += u64::from(exchange(&a, &b));
            swaps += u64::from(exchange(&c, &d));
        }
        swaps
    });
    let mut codes = std::collections::BTreeMap::new();
    for n in 0..40 {
        for args in [
            vec!["regen".to_string()],
            vec![
                "route".into(),
                "--to".into(),
                "project".into(),
                "--project".into(),
                "p".into(),
                format!("item {n}"),
            ],
        ] {
            let mut cmd = v.process();
            cmd.args(&args);
            let (o, _) = run_limited(cmd, b"", DEADLINE, "swap race");
            *codes.entry(o.status.code()).or_insert(0) += 1;
            assert!(
                matches!(o.status.code(), Some(0 | 73 | 74)),
                "{args:?}: {:?} {}",
                o.status.code(),
                stderr(&o)
            );
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(swaps > 0);
    assert!(
        files(outside.path()).is_empty(),
        "written outside: {:?} (exit codes {codes:?})",
        files(outside.path())
    );
}

#[test]
fn a_bad_tz_falls_back_to_utc_without_hanging() {
    let v = Vault::new().project("p").file(DAY, HEAD);
    for tz in ["/dev/zero", "../../../../dev/zero", "/proc/self/environ"] {
        let mut cmd = v.process();
        cmd.env("TZ", tz).args(["route", "--to", "journal", "x"]);
        let (o, _) = run_limited(cmd, b"", DEADLINE, "TZ route");
        assert_eq!(o.status.code(), Some(0), "{tz}: {}", stderr(&o));
        assert!(stderr(&o).contains("using UTC"), "{tz}: {}", stderr(&o));
    }
    let transcript = v.join("t.txt");
    std::fs::write(
        &transcript,
        "Assistant: TODO: check the tz fallback later\n",
    )
    .unwrap();
    let mut cmd = v.process();
    cmd.env("TZ", "/dev/zero").args(["hook", "pre-compact"]);
    let input = format!(
        "{{\"transcript_path\": {:?}, \"cwd\": {:?}, \"session_id\": \"s1\"}}",
        transcript,
        v.path()
    );
    let (o, _) = run_limited(cmd, input.as_bytes(), DEADLINE, "TZ hook");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn terminal_control_characters_are_shown_not_sent() {
    let v = Vault::new().project("p").file(
        DAY,
        "## Session: s (p)\n### Next\n- [ ] retitle \u{1b}]0;pwned\u{7} and \u{1b}[2J clear\n",
    );
    for args in [
        &["list"][..],
        &["audit", "-v"][..],
        &["regen", "--check"][..],
    ] {
        let o = v.output(args);
        let out = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{7}'),
            "{args:?}: {out:?}"
        );
        if args[0] != "regen" {
            assert!(
                out.contains("retitle \u{241b}]0;pwned\u{2407}"),
                "{args:?}: {out}"
            );
        }
    }
    assert_eq!(v.output(&["regen"]).status.code(), Some(0));
    assert!(!v.read("ACTIVE-STATUS.md").contains('\u{1b}'));
    let t = v.join("t.txt");
    std::fs::write(&t, "Assistant: TODO: next session \u{1b}[31mred\u{1b}[0m\n").unwrap();
    let o = v.output(&["extract", "--transcript", t.to_str().unwrap()]);
    assert!(!stdout(&o).contains('\u{1b}'), "{}", stdout(&o));
    // A candidate's text carries no control character at all: the escape
    // sequence is removed.
    assert!(stdout(&o).contains("next session red"), "{}", stdout(&o));
}
