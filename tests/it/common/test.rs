//! `Test`: one chain that states a run of the binary and everything expected
//! of it, in the style of just's tests. The vault files, the arguments, stdin
//! and environment come first; then the exit status (0 unless stated), what
//! stdout and stderr hold (exactly, or fragments they contain or lack) and
//! the files the vault holds afterwards. `run()` runs the binary and checks
//! all of it at once; a failure shows the command, the status, stdout and
//! stderr, and every expectation that did not hold.
//!
//! ```ignore
//! Test::new()
//!     .file("journal/2026-05-06.md", "- [ ] add lock timeout\n")
//!     .args(["list", "--project", "nosuch"])
//!     .status(65)
//!     .stderr_has("unknown project")
//!     .run();
//! ```
//!
//! `v.test()` starts the same chain on a vault a test already holds, to run
//! several commands against it.

use super::{Vault, run_limited};
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

/// A hang guard, not a speed check: a run still going after this long is
/// taken as hung, killed, and fails its test. It is generous because a
/// loaded machine running the suite in parallel slows a debug build down
/// many times (the 10 MB transcript took over 120 s there). Speed is
/// measured by the benchmarks (docs/PERFORMANCE.md), never asserted here.
pub const HANG_GUARD: Duration = Duration::from_secs(300);

enum Held<'v> {
    Owned(Vault),
    Borrowed(&'v Vault),
}

impl Held<'_> {
    fn get(&self) -> &Vault {
        match self {
            Held::Owned(v) => v,
            Held::Borrowed(v) => v,
        }
    }
}

/// What a text (stdout, stderr, a file) must be.
#[derive(Clone, Debug)]
enum Text {
    Exact(String),
    Has(String),
    Lacks(String),
}

impl Text {
    /// `None` when `actual` is as expected, else what is wrong.
    fn check(&self, what: &str, actual: &str) -> Option<String> {
        match self {
            Text::Exact(e) if actual != e => Some(format!("{what} is not exactly {e:?}")),
            Text::Has(e) if !actual.contains(e.as_str()) => {
                Some(format!("{what} does not contain {e:?}"))
            }
            Text::Lacks(e) if actual.contains(e.as_str()) => Some(format!("{what} contains {e:?}")),
            _ => None,
        }
    }
}

/// Makes, for each `name: field Kind;`, a method `name(text)` that adds
/// `Text::Kind(text)` to the expectations on `field` (stdout or stderr).
macro_rules! expect_text {
    ($($(#[$doc:meta])* $name:ident: $field:ident $kind:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, text: impl Into<String>) -> Self {
                self.$field.push(Text::$kind(text.into()));
                self
            }
        )*
    };
}

impl Test<'_> {
    expect_text! {
        /// stdout is exactly `text`.
        stdout: stdout Exact;
        /// stdout contains `text`.
        stdout_has: stdout Has;
        /// stdout does not contain `text`.
        stdout_lacks: stdout Lacks;
        /// stderr is exactly `text`.
        stderr: stderr Exact;
        /// stderr contains `text`.
        stderr_has: stderr Has;
        /// stderr does not contain `text`.
        stderr_lacks: stderr Lacks;
    }
}

/// A run of the binary and what is expected of it (see the module's doc).
#[must_use = "a Test does nothing until `.run()`"]
pub struct Test<'v> {
    vault: Held<'v>,
    args: Vec<OsString>,
    stdin: Vec<u8>,
    env: Vec<(OsString, Option<OsString>)>,
    dir: Option<PathBuf>,
    root: bool,
    status: Option<i32>,
    stdout: Vec<Text>,
    stderr: Vec<Text>,
    files: Vec<(String, Option<Text>)>,
}

impl Default for Test<'static> {
    fn default() -> Self {
        Self::new()
    }
}

impl Test<'static> {
    /// A test on a fresh, empty vault of its own.
    pub fn new() -> Self {
        Test::on(Held::Owned(Vault::new()))
    }
}

impl Vault {
    /// A `Test` against this vault (the vault outlives the run).
    pub fn test(&self) -> Test<'_> {
        Test::on(Held::Borrowed(self))
    }

    /// A `Test` that takes this vault over (one run on a vault built for it).
    pub fn into_test(self) -> Test<'static> {
        Test::on(Held::Owned(self))
    }
}

impl<'v> Test<'v> {
    fn on(vault: Held<'v>) -> Self {
        Test {
            vault,
            args: Vec::new(),
            stdin: Vec::new(),
            env: Vec::new(),
            dir: None,
            root: true,
            status: Some(0),
            stdout: Vec::new(),
            stderr: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Writes a vault file before the run (parent folders are created).
    pub fn file(self, rel: &str, content: impl AsRef<[u8]>) -> Self {
        self.vault.get().write(rel, content);
        self
    }

    /// Creates an empty project folder before the run.
    pub fn project(self, slug: &str) -> Self {
        std::fs::create_dir_all(self.vault.get().join("projects").join(slug))
            .expect("mkdir project");
        self
    }

    /// Writes the user's own configuration file before the run.
    pub fn user_config(self, content: &str) -> Self {
        self.vault.get().write_user_config(content);
        self
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    pub fn stdin(mut self, input: impl AsRef<[u8]>) -> Self {
        self.stdin = input.as_ref().to_vec();
        self
    }

    /// Sets a variable on top of the clean environment of `Vault::cmd`.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .push((key.as_ref().to_owned(), Some(value.as_ref().to_owned())));
        self
    }

    /// Removes a variable of the caller's environment for the run.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Self {
        self.env.push((key.as_ref().to_owned(), None));
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.dir = Some(dir.as_ref().to_owned());
        self
    }

    /// Runs without `--root` (discovery from `current_dir`, or the variables).
    pub fn no_root(mut self) -> Self {
        self.root = false;
        self
    }

    /// The exit status expected (0 unless stated).
    pub fn status(mut self, code: i32) -> Self {
        self.status = Some(code);
        self
    }

    /// Any exit status will do (the test checks something else).
    pub fn any_status(mut self) -> Self {
        self.status = None;
        self
    }

    /// After the run, the vault file `rel` holds exactly `content`.
    pub fn expect_file(mut self, rel: &str, content: impl Into<String>) -> Self {
        self.files
            .push((rel.to_string(), Some(Text::Exact(content.into()))));
        self
    }

    /// After the run, the vault file `rel` exists and contains `fragment`.
    pub fn expect_file_has(mut self, rel: &str, fragment: impl Into<String>) -> Self {
        self.files
            .push((rel.to_string(), Some(Text::Has(fragment.into()))));
        self
    }

    /// After the run, nothing exists at `rel` in the vault.
    pub fn expect_no_file(mut self, rel: &str) -> Self {
        self.files.push((rel.to_string(), None));
        self
    }

    /// Runs the binary under the hang guard and checks every expectation;
    /// panics with the command, status, stdout and stderr if one fails.
    #[track_caller]
    pub fn run(self) -> Ran<'v> {
        let v = self.vault.get();
        let mut cmd = v.std_cmd(self.root);
        cmd.args(&self.args);
        for (k, val) in &self.env {
            match val {
                Some(val) => cmd.env(k, val),
                None => cmd.env_remove(k),
            };
        }
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        let shown = format!("{:?}", cmd);
        let (output, _) = run_limited(cmd, &self.stdin, HANG_GUARD, &shown);
        let out = String::from_utf8_lossy(&output.stdout).into_owned();
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        let mut wrong = Vec::new();
        if output.status.code().is_none() {
            wrong.push("killed by a signal".to_string());
        } else if let Some(code) = self.status
            && output.status.code() != Some(code)
        {
            wrong.push(format!("exit status is not {code}"));
        }
        if err.contains("panicked at") {
            wrong.push("the binary panicked".to_string());
        }
        wrong.extend(self.stdout.iter().filter_map(|t| t.check("stdout", &out)));
        wrong.extend(self.stderr.iter().filter_map(|t| t.check("stderr", &err)));
        for (rel, expected) in &self.files {
            let path = v.join(rel);
            match (expected, std::fs::read(&path)) {
                (None, _) if path.symlink_metadata().is_ok() => {
                    wrong.push(format!("{rel} exists"));
                }
                (None, _) => {}
                (Some(_), Err(e)) => wrong.push(format!("{rel} cannot be read: {e}")),
                (Some(t), Ok(bytes)) => {
                    let text = String::from_utf8_lossy(&bytes);
                    wrong.extend(
                        t.check(rel, &text)
                            .map(|w| format!("{w}; it holds:\n{text}")),
                    );
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{}\ncommand: {shown}\nstatus: {:?}\n--- stdout ---\n{out}\n--- stderr ---\n{err}",
            wrong.join("\n"),
            output.status
        );
        Ran {
            output,
            vault: self.vault,
        }
    }
}

/// A finished run whose expectations held: its output, and its vault for
/// further checks.
pub struct Ran<'v> {
    pub output: Output,
    vault: Held<'v>,
}

impl Ran<'_> {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// stdout parsed as JSON.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.output.stdout)
            .unwrap_or_else(|e| panic!("invalid JSON on stdout: {e}\n{}", self.stdout()))
    }

    pub fn vault(&self) -> &Vault {
        self.vault.get()
    }
}
