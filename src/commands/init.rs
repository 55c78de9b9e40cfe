//! `init`: the vault config and folders, git hooks with a merge rule, and the
//! Claude Code / Codex setup.

use super::Ctx;
use crate::cli::InitArgs;
use crate::error::{Error, Result, exit};
use std::path::{Path, PathBuf};
use std::process::Command;

const CONFIG: &str = include_str!("../../templates/config.toml");
const GIT_HOOK: &str = include_str!("../../templates/git-hook.sh");
const WRAP_SKILL: &str = include_str!("../../templates/wrap-skill.md");
const MARKER: &str = ">>> active-status";

/// Writes `content` to `path` unless it exists; says what happened.
fn write_new(path: &Path, content: &str, quiet: bool) -> Result<()> {
    if path.exists() {
        if !quiet {
            println!("kept     {} (exists; not overwritten)", path.display());
        }
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
    }
    std::fs::write(path, content).map_err(|e| Error::write(path, e))?;
    if !quiet {
        println!("created  {}", path.display());
    }
    Ok(())
}

fn mkdir(path: &Path) -> Result<()> {
    std::fs::create_dir_all(path).map_err(|e| Error::write(path, e))
}

/// The `hooks` block for Claude Code's settings.json.
pub fn claude_hooks() -> serde_json::Value {
    serde_json::json!({
        "hooks": {
            "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "active-status hook session-start"}]}],
            "PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "active-status hook pre-compact"}]}]
        }
    })
}

pub fn init(ctx_root: Option<PathBuf>, cli: &crate::cli::Cli, args: &InitArgs) -> Result<i32> {
    let root = match ctx_root {
        Some(r) => r,
        None => std::env::current_dir().map_err(|source| Error::WorkingDir { source })?,
    };
    mkdir(&root.join(".agents"))?;
    let ctx = Ctx::for_root(cli, root.clone())?;
    let quiet = ctx.quiet;
    write_new(&root.join(".agents/active-status.toml"), CONFIG, quiet)?;
    let lock_dir = root.join(&ctx.cfg.lock_path);
    mkdir(lock_dir.parent().unwrap_or(&root))?;
    mkdir(&root.join(&ctx.cfg.inbox_dir))?;
    if args.git_hooks {
        git_hooks(&ctx)?;
    }
    if args.claude {
        write_new(
            &root.join(".claude/skills/wrap/SKILL.md"),
            WRAP_SKILL,
            quiet,
        )?;
        println!("Add this to .claude/settings.json (or ~/.claude/settings.json):");
        println!(
            "{}",
            serde_json::to_string_pretty(&claude_hooks()).unwrap_or_default()
        );
    }
    if args.codex {
        write_new(&root.join(".codex/skills/wrap/SKILL.md"), WRAP_SKILL, quiet)?;
        println!(
            "Codex hooks use the same hook JSON on stdin; register these commands for its SessionStart and PreCompact events:"
        );
        println!(
            "{}",
            serde_json::to_string_pretty(&claude_hooks()).unwrap_or_default()
        );
    }
    Ok(exit::OK)
}

fn git(root: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|source| Error::GitUnavailable { source })?;
    if !out.status.success() {
        return Err(Error::GitFailed {
            args: args.join(" "),
            dir: root.to_path_buf(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn git_hooks(ctx: &Ctx) -> Result<()> {
    let root = &ctx.root;
    let top = PathBuf::from(git(root, &["rev-parse", "--show-toplevel"])?);
    let real_root = root.canonicalize().map_err(|e| Error::read(root, e))?;
    let real_top = top.canonicalize().map_err(|e| Error::read(&top, e))?;
    let vault_rel = crate::discover::rel_path(&real_top, &real_root);
    let vault_dir = if vault_rel.is_empty() {
        "$root".to_string()
    } else {
        format!("$root/{vault_rel}")
    };
    let output_in_repo = if vault_rel.is_empty() {
        ctx.cfg.output.clone()
    } else {
        format!("{vault_rel}/{}", ctx.cfg.output)
    };
    let hooks_dir = PathBuf::from(git(root, &["rev-parse", "--git-path", "hooks"])?);
    let hooks_dir = if hooks_dir.is_absolute() {
        hooks_dir
    } else {
        root.join(hooks_dir)
    };
    mkdir(&hooks_dir)?;
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "active-status".into());
    let regen = format!("\"$bin\" --root \"{vault_dir}\" regen -q");
    let hooks = [
        (
            "pre-commit",
            format!(
                "{regen} || exit $?\ngit add -- \"{vault_dir}/{}\"",
                ctx.cfg.output
            ),
        ),
        ("post-merge", format!("{regen} || true")),
        ("post-rewrite", format!("{regen} || true")),
        ("post-checkout", format!("{regen} || true")),
    ];
    for (name, body) in hooks {
        install_hook(&hooks_dir, name, &exe, &body, ctx.quiet)?;
    }
    let attributes = top.join(".gitattributes");
    // gitattributes patterns with spaces must be C-style quoted.
    let pattern = if output_in_repo.contains([' ', '\t', '"', '\\']) {
        format!(
            "\"{}\"",
            output_in_repo.replace('\\', "\\\\").replace('"', "\\\"")
        )
    } else {
        output_in_repo.clone()
    };
    let rule = format!("{pattern} merge=active-status");
    append_line(&attributes, &rule)?;
    let lock_rel = if vault_rel.is_empty() {
        ctx.cfg.lock_path.clone()
    } else {
        format!("{vault_rel}/{}", ctx.cfg.lock_path)
    };
    append_line(&top.join(".gitignore"), &lock_rel)?;
    git(
        root,
        &[
            "config",
            "merge.active-status.name",
            "active-status: keep ours, hooks regenerate the derived dashboard",
        ],
    )?;
    git(root, &["config", "merge.active-status.driver", "true"])?;
    if !ctx.quiet {
        println!(
            "git: hooks installed in {}; {rule} in .gitattributes; merge driver configured",
            hooks_dir.display()
        );
    }
    Ok(())
}

/// Appends `line` to a text file unless it is already there.
fn append_line(path: &Path, line: &str) -> Result<()> {
    let mut text = std::fs::read_to_string(path).unwrap_or_default();
    if text.lines().any(|l| l.trim() == line) {
        return Ok(());
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
    text.push('\n');
    std::fs::write(path, text).map_err(|e| Error::write(path, e))
}

fn install_hook(dir: &Path, name: &str, exe: &str, body: &str, quiet: bool) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    if let Ok(old) = std::fs::read_to_string(&path) {
        if old.contains(MARKER) {
            if !quiet {
                println!("kept     {} (already installed)", path.display());
            }
            return Ok(());
        }
        let kept = dir.join(format!("{name}.pre-active-status"));
        std::fs::rename(&path, &kept).map_err(|e| Error::write(&path, e))?;
        if !quiet {
            println!(
                "chained  {} (the previous hook now runs first from {})",
                path.display(),
                kept.display()
            );
        }
    }
    let script = GIT_HOOK
        .replace("{{NAME}}", name)
        .replace("{{EXE}}", exe)
        .replace("{{BODY}}", body);
    std::fs::write(&path, script).map_err(|e| Error::write(&path, e))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::write(&path, e))?;
    Ok(())
}
