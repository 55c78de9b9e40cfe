//! The write lock across processes (docs/FORMAT.md §12, §7 exit 75).
//!
//! A helper process (python3 with `fcntl.flock`, the same `flock(2)` lock
//! fd-lock takes) holds `.agents/locks/active-status.lock` and writes a
//! holder record into it, as a real run does. No timing is asserted: where a
//! test says "at once", a run that waited would trip the `Test` hang guard.

use crate::common::{Vault, stderr};

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

pub(crate) const LOCK: &str = ".agents/locks/active-status.lock";
const DASH: &str = "ACTIVE-STATUS.md";

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

/// The test vault with its lock held by a `Holder` (`None` without python3).
fn held() -> Option<(Vault, Holder)> {
    let v = vault();
    let holder = Holder::start(&v.join(LOCK))?;
    Some((v, holder))
}

#[test]
fn held_lock_times_out_with_75_naming_the_holder() {
    let Some((v, holder)) = held() else { return };
    let ran = v
        .test()
        .args(["regen", "--lock-timeout", "0.5"])
        .status(75)
        .stderr_has(format!("pid {}", holder.pid))
        .stderr_has("test-holder")
        .stderr_has("2026-05-06T10:00:00Z")
        .expect_no_file(DASH)
        .expect_file_has(LOCK, format!("pid={}", holder.pid))
        .run();
    let lower = ran.stderr().to_lowercase();
    assert!(
        lower.contains("blocking") || lower.contains("waiting") || lower.contains("waited"),
        "says it waited: {lower}"
    );
    holder.release();
}

#[test]
fn no_wait_fails_at_once_with_75() {
    let Some((v, holder)) = held() else { return };
    // Bounded work, not a speed check: with a one-hour timeout from the
    // environment, a run that waited would trip the hang guard.
    v.test()
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "300")
        .args(["regen", "--no-wait"])
        .status(75)
        .stderr_has(format!("pid {}", holder.pid))
        .expect_no_file(DASH)
        .run();
    holder.release();
}

#[test]
fn regen_succeeds_after_the_holder_exits() {
    let Some((v, holder)) = held() else { return };
    free_then_regen(&v, holder, Holder::release);
}

/// A `--no-wait` regen fails with 75 while `holder` holds the lock, and
/// writes the dashboard once `free` has ended the holder.
fn free_then_regen(v: &Vault, holder: Holder, free: fn(Holder)) {
    v.test().args(["regen", "--no-wait"]).status(75).run();
    free(holder);
    v.test()
        .args(["regen", "--no-wait"])
        .expect_file_has(DASH, "add lock timeout")
        .run();
}

#[test]
fn waiting_regen_gets_the_lock_when_it_is_released() {
    let Some((v, holder)) = held() else { return };
    let releaser = release_soon(holder);
    let ran = v
        .test()
        .args(["regen", "--lock-timeout", "60"])
        .expect_file_has(DASH, "add lock timeout")
        .run();
    releaser.join().unwrap();
    assert!(
        ran.stderr().to_lowercase().contains("waiting"),
        "announces that it waits: {}",
        ran.stderr()
    );
}

/// Releases `holder` from a thread after 0.8 s (a run started meanwhile
/// waits for it); join the handle after the run.
fn release_soon(holder: Holder) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        holder.release();
    })
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
    // The vault file lowers the timeout to 0 s, the environment says 60 s:
    // the environment wins, so the run outlasts the holder (with the vault's
    // 0 s it would give up with 75).
    let v = vault().file(".agents/active-status.toml", "[lock]\ntimeout_secs = 0\n");
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let releaser = release_soon(holder);
    v.test()
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "60")
        .arg("regen")
        .run();
    releaser.join().unwrap();

    // The environment says 0 s, the flag 60 s: the flag wins.
    let Some(holder) = Holder::start(&v.join(LOCK)) else {
        return;
    };
    let releaser = release_soon(holder);
    v.test()
        .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "0")
        .args(["regen", "--lock-timeout", "60"])
        .run();
    releaser.join().unwrap();
}

#[test]
fn read_only_commands_take_no_lock() {
    let Some((v, holder)) = held() else { return };
    // Bounded work: with a one-hour lock timeout, a command that waited for
    // the lock would trip the hang guard instead of exiting 0.
    for args in [
        &["regen", "--dry-run"][..],
        &["regen", "--dry-run", "--format", "json"][..],
        &["audit"][..],
        &["list"][..],
    ] {
        v.test()
            .env("ACTIVE_STATUS_LOCK_TIMEOUT_SECS", "300")
            .args(args)
            .stderr_lacks("waiting")
            .stderr_lacks("Waiting")
            .run();
    }
    assert!(!v.exists(DASH));
    assert!(v.read(LOCK).contains(&format!("pid={}", holder.pid)));
    holder.release();
}

#[test]
fn sigkilled_holder_frees_the_lock_at_once() {
    let Some((v, holder)) = held() else { return };
    free_then_regen(&v, holder, Holder::kill);
}

#[test]
fn a_regen_releases_the_lock_when_done() {
    let v = vault();
    for _ in 0..3 {
        v.test().args(["regen", "--no-wait"]).run();
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
    let outs: Vec<Value> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    v.test()
                        .args(["regen", "--format", "json", "--lock-timeout", "60"])
                        .run()
                        .json()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut written = 0;
    for r in &outs {
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
                    v.test().args(["-q", "regen", "--lock-timeout", "60"]).run();
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
    v.cmd().args(["regen", "--check"]).assert().code(0);
    assert!(v.read(DASH).contains("changed item"));
}
