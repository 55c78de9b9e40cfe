//! Workflow setup: `init` (config, folders), `init --git-hooks` (hooks that
//! regenerate the dashboard, a merge rule that never conflicts, chaining of an
//! existing hook), `init --claude` / `--codex`, and the shell helpers
//! (`completions`, `man`, `--version`, `--help`).
//!
//! Every git command runs with a temporary HOME, `GIT_CONFIG_NOSYSTEM=1` and a
//! repository-local identity, so the host's git configuration never leaks in;
//! the hooks find `active-status` on PATH (the directory of the test binary).

use crate::common::assert_has;
use crate::common::{Vault, assert_status, bare_cmd, config_line};
use crate::common::{stderr, stdout};
use std::collections::BTreeSet;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use tempfile::TempDir;

const HOOKS: [&str; 4] = ["pre-commit", "post-merge", "post-rewrite", "post-checkout"];
const MARKER: &str = ">>> active-status";

/// A journal file with one session whose Next section holds `item`.
fn journal(item: &str) -> String {
    format!("## Session: work\n### Next\n- [ ] {item}\n")
}

/// A git repository in a temporary folder, with its own HOME.
struct Repo {
    dir: TempDir,
    home: TempDir,
}

impl Repo {
    fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("repo-")
            .tempdir()
            .expect("tempdir");
        let home = tempfile::Builder::new()
            .prefix("home-")
            .tempdir()
            .expect("tempdir");
        let repo = Repo { dir, home };
        repo.git_ok(&["init", "-q", "-b", "main"]);
        repo.git_ok(&["config", "user.name", "Test User"]);
        repo.git_ok(&["config", "user.email", "test@example.com"]);
        repo.git_ok(&["config", "commit.gpgsign", "false"]);
        repo
    }

    fn top(&self) -> &Path {
        self.dir.path()
    }

    fn join(&self, rel: &str) -> PathBuf {
        self.top().join(rel)
    }

    fn hooks_dir(&self) -> PathBuf {
        self.join(".git/hooks")
    }

    fn write(&self, rel: &str, content: &str) {
        let path = self.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    /// PATH with the directory of the binary under test first.
    fn path_env() -> std::ffi::OsString {
        let bin = assert_cmd::cargo::cargo_bin("active-status");
        let dir = bin.parent().expect("binary folder").to_path_buf();
        let rest = std::env::var_os("PATH").unwrap_or_default();
        std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest)))
            .expect("join PATH")
    }

    /// Isolates a command (git or active-status) from the host configuration.
    fn isolate(&self, cmd: &mut std::process::Command) {
        cmd.current_dir(self.top())
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("PATH", Self::path_env())
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_CONFIG_GLOBAL");
        for (k, _) in std::env::vars() {
            if k.starts_with("ACTIVE_STATUS_") {
                cmd.env_remove(k);
            }
        }
    }

    fn git(&self, args: &[&str]) -> Output {
        let mut cmd = std::process::Command::new("git");
        cmd.args(args);
        self.isolate(&mut cmd);
        cmd.output().expect("run git")
    }

    fn git_ok(&self, args: &[&str]) -> String {
        let out = self.git(args);
        assert_status(&out, 0, &format!("git {args:?}"));
        stdout(&out)
    }

    /// The binary run in the top folder, without `--root`.
    fn cmd_here(&self) -> assert_cmd::Command {
        let mut cmd = crate::common::bare_std_cmd();
        self.isolate(&mut cmd);
        assert_cmd::Command::from_std(cmd)
    }

    /// The binary with `--root <top>/<vault_rel>` (the top itself for "").
    fn cmd(&self, vault_rel: &str) -> assert_cmd::Command {
        let mut cmd = self.cmd_here();
        cmd.arg("--root").arg(if vault_rel.is_empty() {
            self.top().to_path_buf()
        } else {
            self.join(vault_rel)
        });
        cmd
    }

    fn init_hooks(&self, vault_rel: &str) -> Output {
        let out = self
            .cmd(vault_rel)
            .args(["init", "--git-hooks"])
            .output()
            .expect("run init");
        assert_status(&out, 0, "init --git-hooks");
        out
    }

    fn check(&self, vault_rel: &str) -> Output {
        self.cmd(vault_rel)
            .args(["regen", "--check"])
            .output()
            .expect("run regen --check")
    }

    /// A file name under the hooks folder → its content, for every file.
    fn hook_files(&self) -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = std::fs::read_dir(self.hooks_dir())
            .expect("hooks dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_none_or(|e| e != "sample"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap_or_default(),
                )
            })
            .collect();
        files.sort();
        files
    }
}

fn count_lines(text: &str, line: &str) -> usize {
    text.lines().filter(|l| l.trim() == line).count()
}

/// `.gitattributes` names the merge driver for the dashboard, and
/// `.gitignore` the lock and the cache, once each (paths under `vault`, the
/// vault's folder in the repository with its `/`, or "").
fn assert_git_files_once(r: &Repo, vault: &str) {
    let attrs = r.read(".gitattributes");
    let line = format!("{vault}ACTIVE-STATUS.md merge=active-status");
    assert_eq!(count_lines(&attrs, &line), 1, "{attrs}");
    let ignore = r.read(".gitignore");
    for line in [".agents/locks/active-status.lock", ".agents/cache/"] {
        let line = format!("{vault}{line}");
        assert_eq!(count_lines(&ignore, &line), 1, "{ignore}");
    }
}

// ---------------------------------------------------------------- init

#[test]
fn init_writes_a_config_that_parses_and_the_lock_and_inbox_folders() {
    let v = Vault::new();
    let out = v.test().arg("init").run().output;
    assert!(v.join(".agents/active-status.toml").is_file());
    assert!(v.join(".agents/locks").is_dir(), "lock folder missing");
    assert!(v.join(".agents/inbox").is_dir(), "inbox folder missing");
    assert!(
        stdout(&out).contains("active-status.toml"),
        "init should say what it created: {}",
        stdout(&out)
    );

    // The template stays commented out: the built-in dashboard is used.
    let text = v.read(".agents/active-status.toml");
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with("template")),
        "template must stay commented out:\n{text}"
    );

    let out = v.test().arg("config").run().output;
    let shown = stdout(&out);
    let mut keys = Vec::new();
    for line in shown.lines().filter(|l| !l.starts_with('#')) {
        let (setting, origin) = line
            .rsplit_once("  # ")
            .unwrap_or_else(|| panic!("no origin on line {line:?}"));
        let key = setting.split(" = ").next().expect("key").trim().to_string();
        // Every default is written commented out, so nothing comes from the file.
        assert_eq!(origin, "default", "{key} should keep its default origin");
        keys.push(key);
    }
    let missing = [
        "output",
        "template",
        "cap",
        "follow_symlinks",
        "dedup.threshold",
        "sources.journal",
        "sources.projects",
        "sources.inbox",
        "sources.project_todos",
        "sources.progress",
        "sources.actives",
        "headings.next",
        "headings.done",
        "headings.skipped",
        "headings.goal",
        "extract.keywords",
        "lock.path",
        "lock.timeout_secs",
        "hook.max_chars",
    ]
    .into_iter()
    .filter(|key| !keys.iter().any(|k| k == key))
    .collect::<Vec<_>>();
    assert!(
        missing.is_empty(),
        "config does not report {missing:?}:\n{shown}"
    );

    // A dashboard can be generated with the written configuration.
    v.cmd().args(["regen", "-q"]).assert().success();
}

#[test]
fn second_init_keeps_the_config_byte_identical() {
    let v = Vault::new();
    v.cmd().arg("init").assert().success();
    let first = std::fs::read(v.join(".agents/active-status.toml")).expect("read");

    v.test().arg("init").stdout_has("kept").run();
    assert_eq!(
        std::fs::read(v.join(".agents/active-status.toml")).expect("read"),
        first
    );

    // A user edit survives another init, byte for byte.
    let edited = String::from_utf8(first)
        .expect("utf-8")
        .replace("# cap = 15", "cap = 7 # mine");
    v.write(".agents/active-status.toml", &edited);
    v.test().arg("init").stdout_has("kept").run();
    assert_eq!(v.read(".agents/active-status.toml"), edited);
    let shown = stdout(&v.cmd().arg("config").output().expect("config"));
    assert!(
        shown.lines().any(|l| l.starts_with("cap = 7")),
        "the edit should be effective:\n{shown}"
    );
}

// ---------------------------------------------------------------- git hooks

#[test]
fn git_hooks_outside_a_repository_fail_with_a_git_init_hint() {
    let v = Vault::new();
    let ceiling = v.path().parent().expect("parent").to_path_buf();
    let out = v
        .cmd()
        .args(["init", "--git-hooks"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", &ceiling)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("run init");
    assert_eq!(out.status.code(), Some(2), "stdout: {}", stdout(&out));
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        all.contains("git init"),
        "the message should mention `git init`: {all}"
    );
    assert!(!v.exists(".git"), "init must not create a repository");
    // It fails before writing anything.
    assert!(!v.exists(".agents/active-status.toml"), "{all}");
    assert!(!v.exists(".agents/inbox"), "{all}");
}

#[test]
fn git_hooks_install_hooks_merge_rule_ignore_and_driver() {
    let r = Repo::new();
    r.init_hooks("");
    for name in HOOKS {
        let path = r.hooks_dir().join(name);
        let meta = std::fs::metadata(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            meta.permissions().mode() & 0o111 != 0,
            "{name} is not executable"
        );
        let text = r.read(&format!(".git/hooks/{name}"));
        assert!(text.starts_with("#!"), "{name} has no shebang");
        assert!(text.contains(MARKER), "{name} has no marker");
        assert!(text.contains("regen"), "{name} does not regenerate");
    }
    assert_git_files_once(&r, "");
    assert!(
        !r.git_ok(&["config", "merge.active-status.driver"])
            .trim()
            .is_empty()
    );
    // The attribute is in effect for the dashboard.
    let attr = r.git_ok(&["check-attr", "merge", "--", "ACTIVE-STATUS.md"]);
    assert!(attr.contains("merge: active-status"), "{attr}");
}

#[test]
fn git_hooks_twice_does_not_duplicate_lines_or_rewrap_hooks() {
    let r = Repo::new();
    r.write(".gitignore", "target/\n");
    r.write(".gitattributes", "*.png binary");
    r.init_hooks("");
    let hooks = r.hook_files();
    let attrs = r.read(".gitattributes");
    let ignore = r.read(".gitignore");
    let out = r.init_hooks("");
    assert!(stdout(&out).contains("kept"), "{}", stdout(&out));

    assert_eq!(r.hook_files(), hooks, "hooks changed on the second run");
    for (name, text) in &hooks {
        assert!(
            !name.ends_with(".pre-active-status"),
            "an own hook was wrapped: {name}"
        );
        assert_eq!(text.matches(MARKER).count(), 1, "{name}:\n{text}");
    }
    assert_eq!(r.read(".gitattributes"), attrs);
    assert_eq!(r.read(".gitignore"), ignore);
    assert_eq!(
        attrs,
        "*.png binary\nACTIVE-STATUS.md merge=active-status\n.agents/decisions.log merge=union\n.agents/oplog.jsonl merge=union\n",
        "existing lines kept, rules appended once"
    );
    assert_eq!(
        ignore,
        "target/\n.agents/locks/active-status.lock\n.agents/cache/\n"
    );
    let drivers = r.git_ok(&["config", "--get-all", "merge.active-status.driver"]);
    assert_eq!(drivers.lines().count(), 1, "{drivers}");
}

#[test]
fn an_existing_pre_commit_hook_is_chained_not_replaced() {
    let r = Repo::new();
    let marker = r.home.path().join("pre-commit-ran");
    let old = format!(
        "#!/bin/sh\necho ran >> '{}'\n",
        marker.display().to_string().replace('\'', "'\\''")
    );
    r.write(".git/hooks/pre-commit", &old);
    std::fs::set_permissions(
        r.hooks_dir().join("pre-commit"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");

    r.init_hooks("");
    assert_eq!(r.read(".git/hooks/pre-commit.pre-active-status"), old);
    assert!(r.read(".git/hooks/pre-commit").contains(MARKER));
    // A second run neither re-wraps nor loses the chained hook.
    r.init_hooks("");
    assert_eq!(r.read(".git/hooks/pre-commit.pre-active-status"), old);
    assert_eq!(r.read(".git/hooks/pre-commit").matches(MARKER).count(), 1);

    r.write("journal/2026-05-01.md", &journal("chained item"));
    r.git_ok(&["add", "journal"]);
    r.git_ok(&["commit", "-q", "-m", "x"]);
    let ran = std::fs::read_to_string(&marker).expect("the previous hook did not run");
    assert_eq!(ran, "ran\n");
    let committed = r.git_ok(&["show", "HEAD:ACTIVE-STATUS.md"]);
    assert!(committed.contains("chained item"), "{committed}");
}

#[test]
fn a_failing_previous_pre_commit_hook_still_blocks_the_commit() {
    let r = Repo::new();
    r.write(".git/hooks/pre-commit", "#!/bin/sh\necho no >&2\nexit 1\n");
    std::fs::set_permissions(
        r.hooks_dir().join("pre-commit"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    r.init_hooks("");
    r.write("journal/2026-05-01.md", &journal("blocked item"));
    r.git_ok(&["add", "journal"]);
    let out = r.git(&["commit", "-q", "-m", "x"]);
    assert!(!out.status.success(), "the commit should be refused");
    assert!(!r.git(&["rev-parse", "--verify", "HEAD"]).status.success());
}

#[test]
fn a_commit_carries_the_regenerated_dashboard() {
    let r = Repo::new();
    r.init_hooks("");
    r.write("journal/2026-05-01.md", &journal("ship the parser"));
    r.git_ok(&["add", "journal"]);
    r.git_ok(&["commit", "-q", "-m", "x"]);
    let committed = r.git_ok(&["show", "HEAD:ACTIVE-STATUS.md"]);
    assert!(committed.contains("ship the parser"), "{committed}");
    let out = r.check("");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    // Nothing is left over: the dashboard in the tree is the committed one.
    let status = r.git_ok(&["status", "--porcelain", "--", "ACTIVE-STATUS.md"]);
    assert!(status.trim().is_empty(), "{status}");

    // A second commit updates it again.
    r.write("journal/2026-05-02.md", &journal("review the lexer"));
    r.git_ok(&["add", "journal"]);
    r.git_ok(&["commit", "-q", "-m", "y"]);
    let committed = r.git_ok(&["show", "HEAD:ACTIVE-STATUS.md"]);
    assert_has(&committed, &["review the lexer", "ship the parser"]);
}

/// Two branches each commit a new Next item (with their own dashboards);
/// `git merge` must not conflict on the dashboard, and the post-merge hook
/// must leave a dashboard with both items.
fn merge_two_branches(r: &Repo, vault: &str, base: (&str, &str), a: (&str, &str), b: (&str, &str)) {
    let p = |rel: &str| {
        if vault.is_empty() {
            rel.to_string()
        } else {
            format!("{vault}/{rel}")
        }
    };
    let dashboard = p("ACTIVE-STATUS.md");
    r.init_hooks(vault);
    r.write(&p(base.0), base.1);
    r.git_ok(&["add", "-A"]);
    r.git_ok(&["commit", "-q", "-m", "base"]);

    r.git_ok(&["checkout", "-q", "-b", "feature"]);
    r.write(&p(a.0), a.1);
    r.git_ok(&["add", "-A"]);
    r.git_ok(&["commit", "-q", "-m", "feature"]);

    r.git_ok(&["checkout", "-q", "main"]);
    r.write(&p(b.0), b.1);
    r.git_ok(&["add", "-A"]);
    r.git_ok(&["commit", "-q", "-m", "main"]);

    let on_feature = r.git_ok(&["show", &format!("feature:{dashboard}")]);
    let on_main = r.git_ok(&["show", &format!("main:{dashboard}")]);
    assert!(on_feature.contains("feature item"), "{on_feature}");
    assert!(!on_feature.contains("main item"), "{on_feature}");
    assert!(on_main.contains("main item"), "{on_main}");
    assert!(!on_main.contains("feature item"), "{on_main}");

    let out = r.git(&["merge", "--no-edit", "feature"]);
    assert!(
        out.status.success(),
        "git merge failed\nstdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    let unmerged = r.git_ok(&["diff", "--name-only", "--diff-filter=U"]);
    assert!(unmerged.trim().is_empty(), "unmerged: {unmerged}");
    let text = r.read(&dashboard);
    assert!(!text.contains("<<<<<<<"), "conflict markers:\n{text}");
    assert_has(&text, &["feature item", "main item"]);
    let out = r.check(vault);
    assert_eq!(
        out.status.code(),
        Some(0),
        "dashboard stale after merge: {}",
        stderr(&out)
    );
}

/// `merge_two_branches` where each side adds a journal of its own day.
fn merge_three_journals(r: &Repo, vault: &str) {
    let (base, a, b) = (
        journal("base item"),
        journal("feature item"),
        journal("main item"),
    );
    merge_two_branches(
        r,
        vault,
        ("journal/2026-05-01.md", &base),
        ("journal/2026-05-02.md", &a),
        ("journal/2026-05-03.md", &b),
    );
}

#[test]
fn merging_branches_that_changed_different_journals_does_not_conflict() {
    let r = Repo::new();
    merge_three_journals(&r, "");
}

#[test]
fn merging_branches_that_changed_the_same_journal_does_not_conflict() {
    let r = Repo::new();
    let base = "## Session: one\n### Next\n- [ ] base one\n\n### Notes\nline 1\nline 2\nline 3\nline 4\n\n## Session: two\n### Next\n- [ ] base two\n";
    let a = base.replace("- [ ] base one\n", "- [ ] base one\n- [ ] feature item\n");
    let b = base.replace("- [ ] base two\n", "- [ ] base two\n- [ ] main item\n");
    merge_two_branches(
        &r,
        "",
        ("journal/2026-05-01.md", base),
        ("journal/2026-05-01.md", &a),
        ("journal/2026-05-01.md", &b),
    );
    assert_has(&r.read("ACTIVE-STATUS.md"), &["base one", "base two"]);
}

#[test]
fn a_vault_in_a_subfolder_uses_paths_relative_to_the_repository() {
    let r = Repo::new();
    std::fs::create_dir_all(r.join("kb")).expect("mkdir kb");
    r.init_hooks("kb");
    assert!(r.join("kb/.agents/active-status.toml").is_file());
    assert!(
        !r.join(".agents").exists(),
        "config written at the repo top"
    );

    assert_git_files_once(&r, "kb/");
    let pre_commit = r.read(".git/hooks/pre-commit");
    assert!(pre_commit.contains("kb/ACTIVE-STATUS.md"), "{pre_commit}");
    for name in HOOKS {
        let text = r.read(&format!(".git/hooks/{name}"));
        assert!(text.contains("/kb"), "{name} does not target kb/:\n{text}");
    }
    let attr = r.git_ok(&["check-attr", "merge", "--", "kb/ACTIVE-STATUS.md"]);
    assert!(attr.contains("merge: active-status"), "{attr}");

    r.write("kb/journal/2026-05-01.md", &journal("subfolder item"));
    r.git_ok(&["add", "kb/journal"]);
    r.git_ok(&["commit", "-q", "-m", "x"]);
    let committed = r.git_ok(&["show", "HEAD:kb/ACTIVE-STATUS.md"]);
    assert!(committed.contains("subfolder item"), "{committed}");
    assert!(
        !r.git(&["cat-file", "-e", "HEAD:ACTIVE-STATUS.md"])
            .status
            .success(),
        "a dashboard was committed at the repository top"
    );
    let out = r.check("kb");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
}

#[test]
fn a_vault_in_a_subfolder_merges_without_conflict() {
    let r = Repo::new();
    std::fs::create_dir_all(r.join("kb")).expect("mkdir kb");
    merge_three_journals(&r, "kb");
}

#[test]
fn a_vault_in_a_subfolder_with_a_space_merges_without_conflict() {
    let r = Repo::new();
    std::fs::create_dir_all(r.join("my kb")).expect("mkdir");
    merge_three_journals(&r, "my kb");
}

// ---------------------------------------------------------------- agents

/// The JSON block printed after the prose: from the first `{` to the end.
fn printed_json(out: &str) -> serde_json::Value {
    let start = out
        .find('{')
        .unwrap_or_else(|| panic!("no JSON in output:\n{out}"));
    // The first JSON value; text may follow it (the Codex MCP block).
    serde_json::Deserializer::from_str(&out[start..])
        .into_iter::<serde_json::Value>()
        .next()
        .expect("a JSON value")
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{}", &out[start..]))
}

fn assert_hooks_block(json: &serde_json::Value) {
    assert_eq!(
        json["hooks"]["SessionStart"][0]["hooks"][0]["command"], "active-status hook session-start",
        "{json:#}"
    );
    assert_eq!(
        json["hooks"]["PreCompact"][0]["hooks"][0]["command"], "active-status hook pre-compact",
        "{json:#}"
    );
    assert_eq!(
        json["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
        "active-status hook session-end"
    );
}

fn assert_wrap_skill(text: &str) {
    // The transcript Claude Code really provides, and every destination.
    assert!(
        text.contains("--session \"${CLAUDE_SESSION_ID}\""),
        "{text}"
    );
    for dest in ["project", "active", "journal", "goal", "done", "skip"] {
        assert!(
            text.contains(&format!("- `{dest}`")),
            "no destination {dest}:\n{text}"
        );
    }
    assert!(text.starts_with("---\n"), "no front matter:\n{text}");
    let front = text[4..].split("\n---").next().expect("front matter");
    assert!(
        front.lines().any(|l| l.trim() == "name: wrap"),
        "front matter lacks `name: wrap`:\n{front}"
    );
    assert!(
        front.lines().any(|l| l.starts_with("description:")),
        "{front}"
    );
    for command in [
        "active-status extract",
        "active-status route --from",
        "active-status done ID",
        "active-status audit",
    ] {
        assert!(text.contains(command), "skill lacks `{command}`:\n{text}");
    }
}

#[test]
fn init_claude_writes_the_wrap_skill_and_prints_the_hooks_block() {
    let v = Vault::new();
    let out = v.test().args(["init", "--claude"]).run().output;
    assert_wrap_skill(&v.read(".claude/skills/wrap/SKILL.md"));
    let json = printed_json(&stdout(&out));
    assert_hooks_block(&json);
    assert_eq!(
        json["hooks"]["SessionStart"][0]["hooks"][0]["type"],
        "command"
    );
}

#[test]
fn init_codex_writes_the_wrap_skill_and_its_hooks_file() {
    let v = Vault::new();
    v.test().args(["init", "--codex"]).run();
    assert_wrap_skill(&v.read(".codex/skills/wrap/SKILL.md"));
    assert!(!v.exists(".claude"), "--codex alone wrote Claude files");
    let command = |event: &str, timeout: u64| serde_json::json!({"type": "command", "command": format!("active-status hook {event}"), "timeout": timeout});
    let ours = serde_json::json!({"hooks": {
        "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [command("session-start", 10)]}],
        "PreCompact": [{"hooks": [command("pre-compact", 30)]}],
        "Stop": [{"hooks": [command("stop", 30)]}]
    }});
    let json: serde_json::Value =
        serde_json::from_str(&v.read(".codex/hooks.json")).expect("hooks.json is JSON");
    assert_eq!(json, ours);
    // Merged into an existing file: other events, groups and keys stay; run
    // twice, kept.
    let theirs = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
                    "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}]}, "x": 1}"#;
    let v = Vault::new().file(".codex/hooks.json", theirs);
    for round in 0..2 {
        let out = v.test().args(["init", "--codex"]).run().output;
        let said = if round == 0 { "updated" } else { "kept" };
        assert!(stdout(&out).contains(said), "{}", stdout(&out));
    }
    let json: serde_json::Value = serde_json::from_str(&v.read(".codex/hooks.json")).unwrap();
    assert_eq!(json["x"], 1);
    assert_eq!(
        json["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "lint"
    );
    assert_eq!(
        json["hooks"]["Stop"],
        serde_json::json!([{"hooks": [{"type": "command", "command": "notify-send done"}]}, ours["hooks"]["Stop"][0]])
    );
    assert_eq!(json["hooks"]["SessionStart"], ours["hooks"]["SessionStart"]);
    // A file that is no hooks object is left alone (65).
    let v = Vault::new().file(".codex/hooks.json", "{\"hooks\": []}\n");
    let out = v.test().args(["init", "--codex"]).status(65).run().output;
    assert!(
        stderr(&out).contains("cannot register the hooks in")
            && stderr(&out).contains("`hooks` is not an object"),
        "{}",
        stderr(&out)
    );
    assert_eq!(v.read(".codex/hooks.json"), "{\"hooks\": []}\n");
}

#[test]
fn init_claude_registers_the_mcp_server_without_clobbering_others() {
    // A fresh .mcp.json.
    let v = Vault::new();
    v.test()
        .args(["init", "--claude"])
        .stdout_has(".mcp.json (MCP server `active-status`)")
        .run();
    let json: serde_json::Value = serde_json::from_str(&v.read(".mcp.json")).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"mcpServers": {"active-status": {"command": "active-status", "args": ["mcp"]}}})
    );
    // Merged into an existing one: other servers and keys stay; run twice, kept.
    let v = Vault::new().file(
        ".mcp.json",
        r#"{"mcpServers": {"db": {"command": "db-mcp", "args": ["--read-only"], "env": {"X": "1"}}}, "other": true}"#,
    );
    for round in 0..2 {
        let out = v.test().args(["init", "--claude"]).run().output;
        if round == 1 {
            assert!(
                stdout(&out).contains("already registers `active-status`"),
                "{}",
                stdout(&out)
            );
        }
    }
    let json: serde_json::Value = serde_json::from_str(&v.read(".mcp.json")).unwrap();
    assert_eq!(
        json["mcpServers"]["db"],
        serde_json::json!({"command": "db-mcp", "args": ["--read-only"], "env": {"X": "1"}})
    );
    assert_eq!(json["other"], true);
    assert_eq!(
        json["mcpServers"]["active-status"]["args"],
        serde_json::json!(["mcp"])
    );
    // A file that is not a JSON object is left alone (65).
    let v = Vault::new().file(".mcp.json", "not json\n");
    v.test()
        .args(["init", "--claude"])
        .status(65)
        .stderr_has("cannot register the MCP server in")
        .run();
    assert_eq!(v.read(".mcp.json"), "not json\n");
}

#[test]
fn init_codex_prints_the_mcp_config_block() {
    let v = Vault::new();
    let out = v.test().args(["init", "--codex"]).run().output;
    let text = stdout(&out);
    assert!(
        text.contains(
            "[mcp_servers.active-status]\ncommand = \"active-status\"\nargs = [\"mcp\"]\n"
        ),
        "{text}"
    );
    assert!(!v.exists(".mcp.json"), "--codex wrote .mcp.json");
}

#[test]
fn init_never_overwrites_an_existing_skill() {
    let v = Vault::new()
        .file(".claude/skills/wrap/SKILL.md", "my own claude wrap\n")
        .file(".codex/skills/wrap/SKILL.md", "my own codex wrap\n");
    for flag in ["--claude", "--codex"] {
        let out = v
            .test()
            .args(["init", flag])
            .stdout_has("kept")
            .run()
            .output;
        // The hooks block is still printed for Claude Code (Codex gets its file).
        if flag == "--claude" {
            assert_hooks_block(&printed_json(&stdout(&out)));
        }
    }
    assert_eq!(
        v.read(".claude/skills/wrap/SKILL.md"),
        "my own claude wrap\n"
    );
    assert_eq!(v.read(".codex/skills/wrap/SKILL.md"), "my own codex wrap\n");
}

#[test]
fn the_skills_route_batch_command_works() {
    // Step 3 of the skill: a JSON batch on stdin with --regen.
    let v = Vault::new().project("wrap-cli");
    v.cmd().arg("init").assert().success();
    v.cmd()
        .args(["route", "--from", "-", "--regen"])
        .write_stdin(r#"[{"text": "add lock timeout", "to": "project", "project": "wrap-cli"}, {"text": "rewrite in Go", "to": "skip"}]"#)
        .assert()
        .success();
    assert!(v.read("ACTIVE-STATUS.md").contains("add lock timeout"));
    v.cmd().arg("audit").assert().success();
}

// ---------------------------------------------------------------- shell helpers

#[test]
fn completions_for_every_shell_mention_regen() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = bare_cmd()
            .args(["completions", shell])
            .output()
            .expect("run completions");
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(!text.trim().is_empty(), "{shell}: empty");
        assert!(text.contains("regen"), "{shell}: no `regen`");
    }
}

#[test]
fn man_prints_a_roff_page() {
    let out = bare_cmd().arg("man").output().expect("run man");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(".TH") || text.starts_with(".ie"),
        "not roff: {}",
        &text[..text.len().min(200)]
    );
    assert!(text.contains(".TH"), "no .TH header");
    assert_has(&text, &["active-status", "regen"]);
}

#[test]
fn version_prints_the_crate_version() {
    let out = bare_cmd().arg("--version").output().expect("run --version");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out).trim(),
        format!("active-status {}", env!("CARGO_PKG_VERSION"))
    );
}

const SUBCOMMANDS: [&str; 10] = [
    "regen",
    "audit",
    "list",
    "config",
    "extract",
    "route",
    "hook",
    "init",
    "completions",
    "man",
];

/// Whether a help text has an examples section (`Examples:`, or `Example:`
/// when it shows a single one).
fn has_examples(help: &str) -> bool {
    help.lines()
        .any(|l| l.trim() == "Examples:" || l.trim() == "Example:")
}

#[test]
fn help_of_every_subcommand_shows_examples() {
    let out = bare_cmd().arg("--help").output().expect("run --help");
    assert_eq!(out.status.code(), Some(0));
    assert!(has_examples(&stdout(&out)), "{}", stdout(&out));
    for sub in SUBCOMMANDS {
        for flag in ["--help", "-h"] {
            let out = bare_cmd().args([sub, flag]).output().expect("run help");
            assert_eq!(out.status.code(), Some(0), "{sub} {flag}: {}", stderr(&out));
            let help = stdout(&out);
            assert!(has_examples(&help), "{sub} {flag} has no examples:\n{help}");
            assert!(help.contains("active-status"), "{sub}: {help}");
        }
        // Also via `help <sub>`.
        bare_cmd().args(["help", sub]).assert().success();
    }
}

#[test]
fn help_of_the_hook_events_shows_examples() {
    for event in ["session-start", "pre-compact"] {
        let out = bare_cmd()
            .args(["hook", event, "--help"])
            .output()
            .expect("run help");
        assert_eq!(out.status.code(), Some(0), "{event}: {}", stderr(&out));
        assert!(
            has_examples(&stdout(&out)),
            "hook {event} --help:\n{}",
            stdout(&out)
        );
    }
}

#[test]
fn init_writes_every_default_commented_out_so_the_user_file_applies() {
    let v = Vault::new();
    let user = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(user.path().join("active-status")).expect("mkdir");
    std::fs::write(user.path().join("active-status/config.toml"), "cap = 3\n").expect("write");
    v.cmd().arg("init").assert().success();
    let text = v.read(".agents/active-status.toml");
    assert!(text.lines().any(|l| l == "# cap = 15"), "{text}");
    assert!(
        text.lines()
            .all(|l| l.is_empty() || l.starts_with('#') || l.starts_with('[')),
        "only comments and table headers:\n{text}"
    );
    let out = v
        .cmd()
        .env("XDG_CONFIG_HOME", user.path())
        .arg("config")
        .output()
        .expect("config");
    let cap = config_line(&stdout(&out), "cap");
    assert!(
        cap.starts_with("cap = 3  # file ") && cap.ends_with("active-status/config.toml"),
        "{cap}"
    );
}

#[test]
fn init_with_an_empty_active_status_root_uses_the_current_folder() {
    // `ACTIVE_STATUS_ROOT= cmd` means unset, for init as for every command.
    let repo = Repo::new();
    let out = repo
        .cmd_here()
        .env("ACTIVE_STATUS_ROOT", "")
        .args(["init", "--git-hooks"])
        .output()
        .expect("run init");
    assert_status(&out, 0, "init with an empty ACTIVE_STATUS_ROOT");
    assert!(repo.join(".agents/active-status.toml").is_file());
    assert!(repo.read(".git/hooks/pre-commit").contains(MARKER));
}

#[test]
fn init_inside_another_vault_refuses_unless_here() {
    let outer = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(outer.path().join(".agents")).expect("mkdir");
    let sub = outer.path().join("projects/p");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let init = |extra: &[&str]| {
        bare_cmd()
            .current_dir(&sub)
            .env("HOME", outer.path())
            .env("XDG_CONFIG_HOME", outer.path().join("cfg"))
            .arg("init")
            .args(extra)
            .output()
            .expect("run init")
    };
    let out = init(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("is inside the vault {}", outer.path().display()))
            && err
                .contains("hint: run `active-status init` in that vault's folder, or pass --here"),
        "{err}"
    );
    assert!(!sub.join(".agents").exists(), "nothing created");
    let out = init(&["--here"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(sub.join(".agents/active-status.toml").is_file());
    // Now a vault itself: init again is fine without --here.
    let out = init(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn man_writes_a_page_for_every_subcommand_with_exit_status_and_environment() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = bare_cmd()
        .args(["man", "--dir"])
        .arg(dir.path())
        .output()
        .expect("run man");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names: BTreeSet<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let main = std::fs::read_to_string(dir.path().join("active-status.1")).expect("main page");
    // Every page the main page refers to exists.
    for sub in SUBCOMMANDS {
        let name = format!("active-status-{sub}.1");
        assert!(names.contains(&name), "no {name} in {names:?}");
        assert!(
            main.contains(&format!("active\\-status\\-{}(1)", sub.replace('-', "\\-"))),
            "{sub}"
        );
    }
    for name in &names {
        let text = std::fs::read_to_string(dir.path().join(name)).expect("page");
        assert!(text.contains(".SH \"EXIT STATUS\""), "{name}");
        assert!(text.contains(".SH ENVIRONMENT"), "{name}");
    }
    let route = bare_cmd()
        .args(["man", "route"])
        .output()
        .expect("man route");
    assert_eq!(
        stdout(&route),
        std::fs::read_to_string(dir.path().join("active-status-route.1")).expect("page")
    );
    let bad = bare_cmd()
        .args(["man", "nosuch"])
        .output()
        .expect("man nosuch");
    assert_eq!(bad.status.code(), Some(2));
}

// ------------------------------------------------- hostile vault content

#[test]
fn an_output_name_with_shell_syntax_never_runs_at_commit() {
    let r = Repo::new();
    let marker = r.join("X");
    r.write(
        ".agents/active-status.toml",
        "output = \"STATUS$(touch X)`touch X`'.md\"\n",
    );
    r.init_hooks("");
    r.write("journal/2026-05-01.md", &journal("quoted item"));
    r.git_ok(&["add", "journal", ".agents"]);
    r.git_ok(&["commit", "-q", "-m", "x"]);
    assert!(!marker.exists(), "the output name was run as shell code");
    let committed = r.git_ok(&["show", "HEAD:STATUS$(touch X)`touch X`'.md"]);
    assert!(committed.contains("quoted item"), "{committed}");
    // The merge rule names exactly that file, no pattern wider than it.
    let attr = r.git_ok(&["check-attr", "merge", "--", "STATUS$(touch X)`touch X`'.md"]);
    assert!(attr.contains("merge: active-status"), "{attr}");
    let other = r.git_ok(&["check-attr", "merge", "--", "journal/2026-05-01.md"]);
    assert!(other.contains("unspecified"), "{other}");
}

#[test]
fn an_output_inside_git_or_with_a_newline_is_refused_before_any_hook_is_written() {
    for output in [".git/hooks/pre-commit", "A.md\n* merge=active-status"] {
        let r = Repo::new();
        r.write(
            ".agents/active-status.toml",
            &format!("output = {}\n", toml::Value::String(output.into())),
        );
        let out = r
            .cmd("")
            .args(["init", "--git-hooks"])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(65), "{output:?}: {}", stderr(&out));
        assert!(!r.join(".git/hooks/pre-commit").exists(), "{output:?}");
        assert!(!r.join(".gitattributes").exists(), "{output:?}");
    }
}

#[test]
fn a_glob_in_the_output_name_matches_only_that_file() {
    let r = Repo::new();
    r.write(".agents/active-status.toml", "output = \"*.md\"\n");
    r.init_hooks("");
    let attrs = r.read(".gitattributes");
    assert_eq!(
        attrs,
        "\\*.md merge=active-status\n.agents/decisions.log merge=union\n.agents/oplog.jsonl merge=union\n"
    );
    let other = r.git_ok(&["check-attr", "merge", "--", "journal/2026-05-01.md"]);
    assert!(other.contains("unspecified"), "{other}");
}

#[test]
fn the_committed_dashboard_is_built_from_what_is_committed() {
    let r = Repo::new();
    r.init_hooks("");
    r.write("journal/2026-05-01.md", &journal("staged item"));
    r.write("journal/2026-05-02.md", &journal("unstaged item"));
    r.git_ok(&["add", "journal/2026-05-01.md"]);
    r.git_ok(&["commit", "-q", "-m", "only one file"]);
    let committed = r.git_ok(&["show", "HEAD:ACTIVE-STATUS.md"]);
    assert!(committed.contains("staged item"), "{committed}");
    assert!(!committed.contains("unstaged item"), "{committed}");
    // The working tree's dashboard still shows everything.
    assert!(r.read("ACTIVE-STATUS.md").contains("unstaged item"));
    // A clean clone of that commit is up to date.
    let clone = tempfile::tempdir().expect("tempdir");
    let dest = clone.path().join("c");
    r.git_ok(&[
        "clone",
        "-q",
        r.top().to_str().unwrap(),
        dest.to_str().unwrap(),
    ]);
    let out = bare_cmd()
        .env("HOME", r.home.path())
        .env("XDG_CONFIG_HOME", r.home.path())
        .arg("--root")
        .arg(&dest)
        .args(["regen", "--check"])
        .output()
        .expect("check");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn init_git_hooks_again_updates_the_hooks_it_installed() {
    let repo = Repo::new();
    repo.init_hooks("");
    let before = repo.read(".git/hooks/pre-commit");
    assert!(before.contains("ACTIVE-STATUS.md"), "{before}");
    // The output moves; a second init must follow it, not keep the old hooks.
    repo.write(".agents/active-status.toml", "output = \"STATUS.md\"\n");
    let out = repo.init_hooks("");
    assert!(stdout(&out).contains("updated"), "{}", stdout(&out));
    let after = repo.read(".git/hooks/pre-commit");
    assert!(
        after.contains("STATUS.md") && !after.contains("ACTIVE-STATUS.md"),
        "{after}"
    );
    assert_eq!(
        count_lines(
            &after,
            &format!("# {MARKER} (installed by `active-status init --git-hooks`) >>>")
        ),
        1
    );
    assert!(
        !repo
            .join(".git/hooks/pre-commit.pre-active-status")
            .exists(),
        "ours is not chained to itself"
    );
    let attrs = repo.read(".gitattributes");
    assert_eq!(
        attrs,
        "STATUS.md merge=active-status\n.agents/decisions.log merge=union\n.agents/oplog.jsonl merge=union\n",
        "{attrs}"
    );
    // Unchanged: kept as is.
    let out = repo.init_hooks("");
    assert!(stdout(&out).contains("(up to date)"), "{}", stdout(&out));
}
