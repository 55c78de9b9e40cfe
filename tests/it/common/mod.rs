//! A small builder for fixture vaults, in the spirit of just's test helpers:
//! each test writes exactly the files it needs into a fresh temporary vault
//! and runs the real binary against it.

#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;

mod cases;
pub mod rng;
mod rules;
mod test;
#[allow(unused_imports)]
pub use cases::{check_cases, same};
#[allow(unused_imports)]
pub use rules::*;
use std::path::{Path, PathBuf};
use tempfile::TempDir;
#[allow(unused_imports)]
pub use test::{HANG_GUARD, Ran, Test};

pub struct Vault {
    dir: TempDir,
    home: TempDir,
}

impl Default for Vault {
    fn default() -> Self {
        Self::new()
    }
}

impl Vault {
    /// An empty vault (with `.agents/`, so discovery finds it).
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("vault-")
            .tempdir()
            .expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".agents")).expect("mkdir .agents");
        let home = tempfile::Builder::new()
            .prefix("home-")
            .tempdir()
            .expect("tempdir");
        Vault { dir, home }
    }

    /// Adds (or replaces) a file; parent folders are created.
    pub fn file(self, rel: &str, content: impl AsRef<[u8]>) -> Self {
        self.write(rel, content);
        self
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, content).expect("write fixture file");
    }

    /// Writes the user's own configuration file (under the `XDG_CONFIG_HOME`
    /// of `cmd()`): keys the vault's file may not raise are set here.
    pub fn user_config(self, content: &str) -> Self {
        self.write_user_config(content);
        self
    }

    pub fn write_user_config(&self, content: &str) {
        let dir = self.home.path().join("active-status");
        std::fs::create_dir_all(&dir).expect("mkdir user config");
        std::fs::write(dir.join("config.toml"), content).expect("write user config");
        // `process()` points XDG_CONFIG_HOME inside the vault.
        let nowhere = self.join(".agents/no-such-home/active-status");
        std::fs::create_dir_all(&nowhere).expect("mkdir user config");
        std::fs::write(nowhere.join("config.toml"), content).expect("write user config");
    }

    /// Creates an empty project folder (a known project).
    pub fn project(self, name: &str) -> Self {
        std::fs::create_dir_all(self.dir.path().join("projects").join(name))
            .expect("mkdir project");
        self
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.join(rel)).expect("read vault file")
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.join(rel).exists()
    }

    /// The binary, pointed at this vault, with a clean environment: no user
    /// config, no ACTIVE_STATUS_* variables from the caller.
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd(true))
    }

    /// `cmd()` as a `std::process::Command`, with `--root` or without it.
    pub fn std_cmd(&self, root: bool) -> std::process::Command {
        let mut cmd = bare_std_cmd();
        cmd.env("XDG_CONFIG_HOME", self.home.path())
            .env("HOME", self.home.path())
            .env("XDG_CACHE_HOME", self.home.path().join(".cache"));
        if root {
            cmd.arg("--root").arg(self.dir.path());
        }
        cmd
    }

    /// A `std::process::Command` for the binary against this vault (to spawn
    /// processes concurrently or kill them), with the same clean environment
    /// as `cmd`: no caller ACTIVE_STATUS_*, no user configuration.
    pub fn process(&self) -> std::process::Command {
        let mut cmd = bare_std_cmd();
        let nowhere = self.join(".agents/no-such-home");
        cmd.env("XDG_CONFIG_HOME", &nowhere)
            .env("HOME", &nowhere)
            .env("XDG_CACHE_HOME", self.home.path().join(".cache"))
            .arg("--root")
            .arg(self.path());
        cmd
    }

    /// Runs the binary with `args` (stdin empty, under the `Test` hang guard)
    /// and returns its output, whatever the exit status; check it with
    /// `assert_status`, or state the whole run with `Test`.
    pub fn output(&self, args: &[&str]) -> std::process::Output {
        let mut cmd = self.std_cmd(true);
        cmd.args(args);
        run_limited(cmd, b"", HANG_GUARD, &format!("{args:?}")).0
    }

    /// Runs a command that must succeed (see `Test`) and returns its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        self.test().args(args).run().stdout()
    }

    /// Every file of the vault with its bytes, sorted by path (the lock
    /// folder left out).
    pub fn snapshot(&self) -> Vec<(String, Vec<u8>)> {
        let mut out: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(self.path())
            .into_iter()
            .flatten()
            .filter(|e| {
                e.file_type().is_file() && !e.path().to_string_lossy().contains("/.agents/locks")
            })
            .map(|e| {
                (
                    e.path()
                        .strip_prefix(self.path())
                        .unwrap()
                        .display()
                        .to_string(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        out.sort();
        out
    }

    /// Runs `audit --format json` and parses the report.
    pub fn report(&self) -> Value {
        self.json(&["audit", "--format", "json"])
    }

    /// Runs a command that must succeed and print JSON.
    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.cmd().args(args).output().expect("run binary");
        assert!(
            out.status.success(),
            "{args:?} failed with {:?}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "invalid JSON from {args:?}: {e}\n{}",
                String::from_utf8_lossy(&out.stdout)
            )
        })
    }

    /// The texts of every open cluster (`list --format json`), in rank order.
    pub fn open_texts(&self) -> Vec<String> {
        texts(&self.json(&["list", "--format", "json"])["items"])
    }
}

/// Waits for `child` at most `limit`; kills it and fails the test on timeout.
pub fn wait_deadline(
    child: &mut std::process::Child,
    limit: std::time::Duration,
    what: &str,
) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?} (hang?); killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Runs `cmd` with `stdin` under a deadline (see `wait_deadline`), reading
/// both output pipes on threads so a chatty child cannot block. Returns the
/// output and the wall time.
pub fn run_limited(
    mut cmd: std::process::Command,
    stdin: &[u8],
    limit: std::time::Duration,
    what: &str,
) -> (std::process::Output, std::time::Duration) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let start = std::time::Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let t_in = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut b = Vec::new();
        out.read_to_end(&mut b).ok();
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = Vec::new();
        err.read_to_end(&mut b).ok();
        b
    });
    let status = wait_deadline(&mut child, limit, what);
    let took = start.elapsed();
    let _ = t_in.join();
    let output = std::process::Output {
        status,
        stdout: t_out.join().expect("stdout thread"),
        stderr: t_err.join().expect("stderr thread"),
    };
    (output, took)
}

/// The binary with every ACTIVE_STATUS_* variable of the caller removed,
/// and its cache key kept in a folder of the test run's own (never the
/// caller's `~/.cache`).
pub fn bare_cmd() -> Command {
    Command::from_std(bare_std_cmd())
}

/// `bare_cmd()` as a `std::process::Command`.
pub fn bare_std_cmd() -> std::process::Command {
    static CACHE_HOME: std::sync::OnceLock<TempDir> = std::sync::OnceLock::new();
    let cache_home = CACHE_HOME.get_or_init(|| TempDir::new().expect("temp cache home"));
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("active-status"));
    for (k, _) in std::env::vars() {
        if k.starts_with("ACTIVE_STATUS_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("XDG_CACHE_HOME", cache_home.path());
    cmd
}

/// The `text` fields of a JSON array of items.
pub fn texts(items: &Value) -> Vec<String> {
    items
        .as_array()
        .expect("array")
        .iter()
        .map(|i| i["text"].as_str().expect("text").to_string())
        .collect()
}

/// Fails unless `out` exited with `code` and did not panic, showing `what`,
/// stdout and stderr.
#[track_caller]
pub fn assert_status(out: &std::process::Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: expected exit {code}, got {:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked at"),
        "{what}: panic\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A process's stdout as text (lossy).
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A process's stderr as text (lossy).
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Fails unless `text` contains every one of `fragments`, naming the first
/// missing one and showing the text.
#[track_caller]
pub fn assert_has(text: &str, fragments: &[&str]) {
    for f in fragments {
        assert!(text.contains(f), "{f:?} missing from:\n{text}");
    }
}

/// Fails if `text` contains any of `fragments`, naming it and showing the
/// text.
#[track_caller]
pub fn assert_lacks(text: &str, fragments: &[&str]) {
    for f in fragments {
        assert!(!text.contains(f), "{f:?} present in:\n{text}");
    }
}

/// A file `name` holding `content` in a fresh temporary folder outside any
/// vault: the folder (keep it alive while the file is used) and the file.
pub fn outside_file(name: &str, content: impl AsRef<[u8]>) -> (TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("outside-")
        .tempdir()
        .expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, content).expect("write a file outside the vault");
    (dir, path)
}

/// The line of `config`'s output `shown` that sets `key`
/// (`key = value  # origin`); fails, showing the output, when there is none.
#[track_caller]
pub fn config_line(shown: &str, key: &str) -> String {
    let start = format!("{key} = ");
    shown
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no `{key}` line:\n{shown}"))
        .to_string()
}
