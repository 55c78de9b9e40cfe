//! The write lock across processes (docs/FORMAT.md §12, §7 exit 75).
//!
//! A helper process (python3 with `fcntl.flock`, the same `flock(2)` lock
//! fd-lock takes) holds `.agents/locks/active-status.lock` and writes a
//! holder record into it, as a real run does. Timing is only ever asserted
//! with generous upper bounds.

use crate::common::Vault;
use crate::common::stderr;

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub(crate) const LOCK: &str = ".agents/locks/active-status.lock";
const DASH: &str = "ACTIVE-STATUS.md";
/// Generous bound for anything that should be "at once" or "within a few seconds".
const SOON: Duration = Duration::from_secs(20);
/// Safety net: no binary run in this file may hang the suite.
const KILL_AFTER: Duration = Duration::from_secs(90);

const HOLDER: &str = r#"
import fcntl, os, sys
path = sys.argv[1]
os.makedirs(os.path.dirname(path), exist_ok=True)
f = open(path, "a+")
fcntl.flock(f.fileno(), fcntl.LOCK_EX)
f.seek(0)
f.truncate()
f.write("pid=%d\ncommand=test-holder --hold\nsince=2026-05-06T10:00:00Z\n" % os.getpid())
f.flush()
print("locked %d" % os.getpid(), flush=True)
sys.stdin.read()
"#;

/// The real python3 interpreter (not a shim that might fork), or `None`.
fn python() -> Option<&'static PathBuf> {
    static PY: OnceLock<Option<PathBuf>> = OnceLock::new();
    PY.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()?;
        let exe = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !exe.is_empty()).then(|| PathBuf::from(exe))
    })
    .as_ref()
}

/// A process holding the vault's lock until released, killed or dropped
/// (also used by the MCP tests).
pub(crate) struct Holder {
    child: Child,
    pub(crate) pid: u32,
}

impl Holder {
    /// Starts the holder and waits until it owns the lock. `None` (with a
    /// note) when python3 is unavailable.
    pub(crate) fn start(lock: &Path) -> Option<Holder> {
        let Some(py) = python() else {
            eprintln!("note: python3 not found; lock test skipped");
            return None;
        };
        let mut child = Command::new(py)
            .arg("-c")
            .arg(HOLDER)
            .arg(lock)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn lock holder");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("holder output");
        let pid: u32 = line
            .trim()
            .strip_prefix("locked ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("holder did not report the lock: {line:?}"));
        assert_eq!(pid, child.id(), "the holder is the spawned process");
        Some(Holder { child, pid })
    }

    /// Lets the holder exit normally (closing its stdin) and waits for it.
    pub(crate) fn release(mut self) {
        drop(self.child.stdin.take());
        self.child.wait().expect("holder exits");
    }

    /// SIGKILL, then reap.
    fn kill(mut self) {
        self.child.kill().expect("SIGKILL the holder");
        self.child.wait().expect("reap holder");
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn vault() -> Vault {
    Vault::new().project("wrap-cli").file(
        "journal/2026-05-06.md",
        "## Session: x (wrap-cli)\n### Next\n- [ ] add lock timeout\n- [ ] write docs\n",
    )
}

/// Runs the binary with a hard time limit; returns the output and how long it took.
fn timed(v: &Vault, args: &[&str]) -> (std::process::Output, Duration) {
    let start = Instant::now();
    let out = v
        .cmd()
        .args(args)
        .timeout(KILL_AFTER)
        .output()
        .expect("run binary");
    (out, start.elapsed())
}

#[test]
fn held_lock_times_out_with_75_naming_the_holder() {
    let v = vault();
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let (out, took) = timed(&v, &["regen", "--lock-timeout", "0.5"]);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(took < SOON, "gave up after {took:?}");
    let err = stderr(&out);
    assert!(err.contains(&format!("pid {}", holder.pid)), "pid: {err}");
    assert!(err.contains("test-holder"), "command: {err}");
    assert!(err.contains("2026-05-06T10:00:00Z"), "since: {err}");
    let lower = err.to_lowercase();
    assert!(
        lower.contains("blocking") || lower.contains("waiting") || lower.contains("waited"),
        "says it waited: {err}"
    );
    assert!(!v.exists(DASH), "no write without the lock");
    assert!(
        v.read(LOCK).contains(&format!("pid={}", holder.pid)),
        "the loser must not touch the holder record"
    );
    holder.release();
}

#[test]
fn no_wait_fails_at_once_with_75() {
    let v = vault();
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    // Without --no-wait this would wait the default 30 s.
    let (out, took) = timed(&v, &["regen", "--no-wait"]);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(took < Duration::from_secs(10), "--no-wait took {took:?}");
    assert!(
        stderr(&out).contains(&format!("pid {}", holder.pid)),
        "{}",
        stderr(&out)
    );
    assert!(!v.exists(DASH));
    holder.release();
}

#[test]
fn regen_succeeds_after_the_holder_exits() {
    let v = vault();
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let (out, _) = timed(&v, &["regen", "--no-wait"]);
    assert_eq!(out.status.code(), Some(75));
    holder.release();
    let (out, took) = timed(&v, &["regen", "--no-wait"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(took < SOON);
    assert!(v.read(DASH).contains("add lock timeout"));
}

#[test]
fn waiting_regen_gets_the_lock_when_it_is_released() {
    let v = vault();
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        holder.release();
    });
    let (out, took) = timed(&v, &["regen", "--lock-timeout", "60"]);
    releaser.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(took < Duration::from_secs(50), "took {took:?}");
    assert!(
        stderr(&out).to_lowercase().contains("waiting"),
        "announces that it waits: {}",
        stderr(&out)
    );
    assert!(v.exists(DASH));
}

#[test]
fn a_lock_wait_over_the_maximum_is_refused_naming_the_file_and_key() {
    for value in ["1e308", "301", "nan", "inf", "-1"] {
        let v = vault().user_config(&format!("[lock]\ntimeout_secs = {value}\n"));
        let out = v.cmd().arg("regen").output().unwrap();
        assert_eq!(out.status.code(), Some(65), "{value}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("active-status/config.toml")
                && err
                    .contains("key `lock.timeout_secs`: must be a number of seconds from 0 to 300"),
            "{value}: {err}"
        );
        assert!(!v.exists(DASH), "{value}: nothing written");
    }
    // The vault's own file may only lower the wait: a raise is undone with
    // a warning (the default 30 s stays), a non-number or a negative one is
    // refused naming the vault file.
    let v = vault().file(
        ".agents/active-status.toml",
        "[lock]\ntimeout_secs = 1e308\n",
    );
    let out = v.cmd().arg("regen").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown = v.cmd().arg("config").output().unwrap();
    assert!(
        crate::common::stdout(&shown).contains("lock.timeout_secs = 30"),
        "{}",
        crate::common::stdout(&shown)
    );
    for value in ["nan", "-1"] {
        let v = vault().file(
            ".agents/active-status.toml",
            format!("[lock]\ntimeout_secs = {value}\n"),
        );
        let out = v.cmd().arg("regen").output().unwrap();
        assert_eq!(out.status.code(), Some(65), "{value}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(".agents/active-status.toml") && err.contains("key `lock.timeout_secs`"),
            "{value}: {err}"
        );
    }
}

#[test]
fn lock_timeout_flag_beats_env_and_env_beats_vault_file() {
    let v = vault().file(".agents/active-status.toml", "[lock]\ntimeout_secs = 60\n");
    // The vault file says 60 s, the environment 0.3 s: environment wins.
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let start = Instant::now();
    let out = v
        .cmd()
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "0.3")
        .arg("regen")
        .timeout(KILL_AFTER)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(start.elapsed() < SOON, "env timeout ignored");

    // The environment says 0 s, the flag 60 s: the flag wins, so the run
    // outlasts the holder.
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        holder.release();
    });
    let out = v
        .cmd()
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "0")
        .args(["regen", "--lock-timeout", "60"])
        .timeout(KILL_AFTER)
        .output()
        .unwrap();
    releaser.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn read_only_commands_take_no_lock() {
    let v = vault();
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    for args in [
        &["regen", "--dry-run"][..],
        &["regen", "--dry-run", "--format", "json"][..],
        &["audit"][..],
        &["list"][..],
    ] {
        let (out, took) = timed(&v, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(took < SOON, "{args:?} took {took:?}");
        assert!(!stderr(&out).to_lowercase().contains("waiting"), "{args:?}");
    }
    assert!(!v.exists(DASH));
    assert!(v.read(LOCK).contains(&format!("pid={}", holder.pid)));
    holder.release();
}

#[test]
fn sigkilled_holder_frees_the_lock_at_once() {
    let v = vault();
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let (out, _) = timed(&v, &["regen", "--no-wait"]);
    assert_eq!(out.status.code(), Some(75), "held before the kill");
    holder.kill();
    let (out, took) = timed(&v, &["regen", "--no-wait"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(took < SOON);
    assert!(v.exists(DASH));
}

#[test]
fn a_regen_releases_the_lock_when_done() {
    let v = vault();
    for _ in 0..3 {
        let (out, _) = timed(&v, &["regen", "--no-wait"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    assert!(v.exists(LOCK), "the lock file lives on");
    // The helper can take it at once afterwards.
    if let Some(h) = Holder::start(&v.join(LOCK)) {
        h.release();
    }
}

#[test]
fn concurrent_regens_all_succeed_and_agree() {
    let mut journal = String::from("## Session: many (wrap-cli)\n### Next\n");
    for w in [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    ] {
        journal.push_str(&format!("- [ ] {w} follow-up for the release\n"));
    }
    let v = Vault::new()
        .project("wrap-cli")
        .file("journal/2026-05-06.md", &journal)
        .file(
            "projects/wrap-cli/todos.md",
            "## Next Session\n- [ ] project item\n",
        );
    let outs: Vec<std::process::Output> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    v.cmd()
                        .args(["regen", "--format", "json", "--lock-timeout", "60"])
                        .timeout(KILL_AFTER)
                        .output()
                        .expect("run regen")
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut written = 0;
    for out in &outs {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        let r: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        if r["written"] == true {
            written += 1;
        }
    }
    assert_eq!(
        written, 1,
        "exactly one run writes; the others find it current"
    );
    v.cmd().args(["regen", "--check"]).assert().code(0);
    // No temporary files are left beside the dashboard.
    let leftovers: Vec<String> = std::fs::read_dir(v.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn concurrent_regens_after_a_source_change_converge() {
    // Half the runs see the old dashboard and half find it current; all must
    // finish with the file equal to a fresh rendering.
    let v = vault();
    v.cmd().arg("regen").assert().success();
    v.write(
        "journal/2026-05-06.md",
        "## Session: x (wrap-cli)\n### Next\n- [ ] add lock timeout\n- [ ] changed item\n",
    );
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    v.cmd()
                        .args(["-q", "regen", "--lock-timeout", "60"])
                        .timeout(KILL_AFTER)
                        .output()
                        .expect("run regen")
                })
            })
            .collect();
        for h in handles {
            let out = h.join().unwrap();
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        }
    });
    v.cmd().args(["regen", "--check"]).assert().code(0);
    assert!(v.read(DASH).contains("changed item"));
}
