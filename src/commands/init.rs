//! `init`: the vault config and folders, git hooks with a merge rule, and the
//! Claude Code / Codex setup.

use super::Ctx;
use crate::cli::InitArgs;
use crate::error::{Error, Result, exit};
use crate::vault_fs::VaultDir;
use std::path::{Path, PathBuf};
use std::process::Command;

const GIT_HOOK: &str = include_str!("../../templates/git-hook.sh");
const WRAP_SKILL: &str = include_str!("../../templates/wrap-skill.md");
const MARKER: &str = ">>> active-status";

/// Writes `content` to `rel` under the vault handle unless it exists with
/// content (a 0-byte file left by a failed run is replaced); a symbolic
/// link there is refused, never followed.
fn write_new(vault: &VaultDir, rel: &str, content: &str, quiet: bool) -> Result<()> {
    let path = vault.display(rel);
    if vault.create_if_missing(rel, content.as_bytes())? {
        if !quiet {
            println!("created  {}", path.display());
        }
    } else if !quiet {
        println!("kept     {} (exists; not overwritten)", path.display());
    }
    Ok(())
}

/// The `hooks` block for Claude Code's settings.json.
pub(super) fn claude_hooks() -> serde_json::Value {
    serde_json::json!({
        "hooks": {
            "SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": "active-status hook session-start"}]}],
            "PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "active-status hook pre-compact"}]}],
            "SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "active-status hook session-end"}]}]
        }
    })
}

pub(super) fn init(cli: &crate::cli::Cli, args: &InitArgs) -> Result<i32> {
    let root = match crate::discover::given_root(cli.root.as_deref()) {
        Some(r) => r,
        None => std::env::current_dir().map_err(|source| Error::WorkingDir { source })?,
    };
    refuse_nested(&root, args.here)?;
    // Outside a git work tree `--git-hooks` fails: fail before writing anything.
    if args.git_hooks {
        git(&root, &["rev-parse", "--show-toplevel"])?;
    }
    let vault = VaultDir::open(&root)?;
    vault.create_dir_all(".agents")?;
    let ctx = Ctx::for_root(cli, root.clone(), None)?;
    let quiet = ctx.quiet;
    let layout = super::layout::detect(&root);
    if !quiet {
        for line in &layout.found {
            println!("{line}");
        }
    }
    write_new(
        &vault,
        ".agents/active-status.toml",
        &crate::config::commented_template_with(&layout.set),
        quiet,
    )?;
    if let Some(dir) = Path::new(&ctx.cfg.lock_path).parent()
        && !dir.as_os_str().is_empty()
    {
        vault.create_dir_all(&dir.to_string_lossy())?;
    }
    vault.create_dir_all(&ctx.cfg.inbox_dir)?;
    if args.git_hooks {
        git_hooks(&ctx)?;
    }
    if args.claude {
        write_new(&vault, ".claude/skills/wrap/SKILL.md", WRAP_SKILL, quiet)?;
        register_mcp(&vault, quiet)?;
        println!("Add this to .claude/settings.json (or ~/.claude/settings.json):");
        println!(
            "{}",
            serde_json::to_string_pretty(&claude_hooks()).unwrap_or_default()
        );
    }
    if args.codex {
        write_new(&vault, ".codex/skills/wrap/SKILL.md", WRAP_SKILL, quiet)?;
        super::codex::register_hooks(&vault, quiet)?;
        println!("Add this to ~/.codex/config.toml to give Codex the MCP tools:");
        print!("{}", crate::mcp::register::codex_block());
    }
    Ok(exit::OK)
}

/// Adds the MCP server to the project's `.mcp.json` (Claude Code), keeping
/// every other server; an entry already there is kept.
fn register_mcp(vault: &VaultDir, quiet: bool) -> Result<()> {
    use crate::mcp::register::{Merged, merge_mcp_json};
    let rel = ".mcp.json";
    let existing = vault.read_string(rel)?;
    let merged = merge_mcp_json(existing.as_deref()).map_err(|why| Error::McpJson {
        path: vault.display(rel).display().to_string(),
        why,
    })?;
    let path = vault.display(rel);
    match merged {
        Merged::Write(text) => {
            vault.replace(rel, text.as_bytes())?;
            if !quiet {
                let verb = if existing.is_some() {
                    "updated"
                } else {
                    "created"
                };
                println!("{verb}  {} (MCP server `active-status`)", path.display());
            }
        }
        Merged::Kept if !quiet => {
            println!(
                "kept     {} (already registers `active-status`)",
                path.display()
            )
        }
        Merged::Kept => {}
    }
    Ok(())
}

/// A new vault inside another vault's folder is almost always a mistake
/// (its captures would land where the real vault never reads): refuse
/// unless `--here`. Re-running init in an existing vault is fine.
fn refuse_nested(root: &Path, here: bool) -> Result<()> {
    if here || crate::discover::is_vault(root) {
        return Ok(());
    }
    let absolute = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    match absolute
        .ancestors()
        .skip(1)
        .find(|d| crate::discover::is_vault(d))
    {
        Some(outer) => Err(Error::InsideVault {
            root: root.to_path_buf(),
            vault: outer.to_path_buf(),
        }),
        None => Ok(()),
    }
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
    let in_repo = |rel: &str| {
        if vault_rel.is_empty() {
            rel.to_string()
        } else {
            format!("{vault_rel}/{rel}")
        }
    };
    let output_in_repo = in_repo(&ctx.cfg.output);
    let hooks_dir = PathBuf::from(git(root, &["rev-parse", "--git-path", "hooks"])?);
    let hooks_dir = if hooks_dir.is_absolute() {
        hooks_dir
    } else {
        root.join(hooks_dir)
    };
    std::fs::create_dir_all(&hooks_dir).map_err(|e| Error::write(&hooks_dir, e))?;
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "active-status".into());
    let scripts = hook_scripts(&vault_rel, &ctx.cfg.output)?;
    let hooks_vault = VaultDir::open(&hooks_dir)?;
    for (name, body) in scripts {
        install_hook(&hooks_vault, name, &exe, &body, ctx.quiet)?;
    }
    let repo = VaultDir::open(&top)?;
    let rule = format!("{} merge=active-status", git_pattern(&output_in_repo)?);
    replace_rule(&repo, ".gitattributes", " merge=active-status", &rule)?;
    // The decisions file is appended to by every clone: git merges it as
    // the union of both sides' lines.
    let decisions_rel = in_repo(crate::decisions::FILE);
    append_line(
        &repo,
        ".gitattributes",
        &format!("{} merge=union", git_pattern(&decisions_rel)?),
    )?;
    // So is the operation log.
    let oplog_rel = in_repo(crate::oplog::FILE);
    append_line(
        &repo,
        ".gitattributes",
        &format!("{} merge=union", git_pattern(&oplog_rel)?),
    )?;
    let lock_rel = in_repo(&ctx.cfg.lock_path);
    append_line(&repo, ".gitignore", &git_pattern(&lock_rel)?)?;
    let cache_rel = in_repo(&format!("{}/", crate::cache::DIR));
    append_line(&repo, ".gitignore", &git_pattern(&cache_rel)?)?;
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

/// The body of each hook. The commit hooks regenerate from the index (what
/// is being committed), in a temporary checkout, and stage that dashboard;
/// the others regenerate in the working tree.
fn hook_scripts(vault_rel: &str, output: &str) -> Result<Vec<(&'static str, String)>> {
    let repo_out = sh_quote(&if vault_rel.is_empty() {
        output.to_string()
    } else {
        format!("{vault_rel}/{output}")
    })?;
    // `"$root"'/vault/sub'`: the variable expanded, the rest one quoted word.
    let under = |var: &str, rel: &str| -> Result<String> {
        let rel = [vault_rel, rel]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/");
        if rel.is_empty() {
            Ok(format!("\"${var}\""))
        } else {
            Ok(format!("\"${var}\"{}", sh_quote(&format!("/{rel}"))?))
        }
    };
    let vault = under("root", "")?;
    let in_tmp = under("tmp", "")?;
    let tmp_out = under("tmp", output)?;
    let regen = format!("\"$bin\" --root {vault} regen -q");
    let from_index = format!(
        "tmp=\"$(mktemp -d)\" || exit 1\n\
         trap 'rm -rf \"$tmp\"' EXIT\n\
         git checkout-index --all --prefix=\"$tmp/\" || exit 1\n\
         \"$bin\" --root {in_tmp} regen -q || exit $?\n\
         blob=\"$(git hash-object -w -- {tmp_out})\" || exit 1\n\
         git update-index --add --cacheinfo 100644,\"$blob\",{repo_out} || exit 1\n\
         {regen} || true"
    );
    Ok(vec![
        ("pre-commit", from_index.clone()),
        ("pre-merge-commit", from_index),
        ("post-merge", format!("{regen} || true")),
        ("post-rewrite", format!("{regen} || true")),
        ("post-checkout", format!("{regen} || true")),
    ])
}

/// `s` as one single-quoted shell word; refuses control characters.
pub(super) fn sh_quote(s: &str) -> Result<String> {
    if let Some(c) = s.chars().find(|c| c.is_control()) {
        return Err(Error::UnsafeName {
            value: s.into(),
            target: "a git hook",
            ch: c as u32,
        });
    }
    Ok(format!("'{}'", s.replace('\'', "'\\''")))
}

/// `path` as a gitattributes / gitignore pattern matching exactly that
/// file: glob characters escaped, C-quoted when it holds spaces or quotes;
/// control characters refused.
pub(super) fn git_pattern(path: &str) -> Result<String> {
    if let Some(c) = path.chars().find(|c| c.is_control()) {
        return Err(Error::UnsafeName {
            value: path.into(),
            target: "a git rule",
            ch: c as u32,
        });
    }
    let mut p = String::with_capacity(path.len() + 2);
    for (i, c) in path.chars().enumerate() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') || (i == 0 && matches!(c, '!' | '#')) {
            p.push('\\');
        }
        p.push(c);
    }
    if p.contains([' ', '"']) {
        Ok(format!(
            "\"{}\"",
            p.replace('\\', "\\\\").replace('"', "\\\"")
        ))
    } else {
        Ok(p)
    }
}

/// Puts `line` in a text file under `dir` in place of the lines ending with
/// `ours` (the rule an earlier init wrote for another `output`), or appends
/// it; never through a symbolic link.
fn replace_rule(dir: &VaultDir, rel: &str, ours: &str, line: &str) -> Result<()> {
    let Some(snap) = dir.snapshot(rel)? else {
        return append_line(dir, rel, line);
    };
    let text = String::from_utf8_lossy(&snap.bytes).into_owned();
    let stale = |l: &str| l.trim_end().ends_with(ours) && l.trim() != line;
    if !text.lines().any(stale) {
        return append_line(dir, rel, line);
    }
    let mut out = String::with_capacity(text.len());
    let mut placed = text.lines().any(|l| l.trim() == line);
    for l in text.split_inclusive('\n') {
        if stale(l) {
            if !placed {
                out.push_str(line);
                out.push('\n');
                placed = true;
            }
        } else {
            out.push_str(l);
        }
    }
    dir.replace(rel, out.as_bytes()).map(drop)
}

/// Appends `line` to a text file under `dir` unless it is already there;
/// never through a symbolic link.
fn append_line(dir: &VaultDir, rel: &str, line: &str) -> Result<()> {
    let mut text = match dir.snapshot(rel)? {
        Some(s) => String::from_utf8_lossy(&s.bytes).into_owned(),
        None => String::new(),
    };
    if text.lines().any(|l| l.trim() == line) {
        return Ok(());
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
    text.push('\n');
    dir.replace(rel, text.as_bytes()).map(drop)
}

fn install_hook(dir: &VaultDir, name: &str, exe: &str, body: &str, quiet: bool) -> Result<()> {
    let path = dir.display(name);
    let script = GIT_HOOK
        .replace("{{NAME}}", name)
        .replace("{{EXE}}", &sh_quote(exe)?)
        .replace("{{BODY}}", body);
    if let Some(old) = dir.snapshot(name)? {
        if String::from_utf8_lossy(&old.bytes).contains(MARKER) {
            // Ours: bring it up to date (a changed `output`, a moved binary).
            if old.bytes == script.as_bytes() {
                if !quiet {
                    println!("kept     {} (up to date)", path.display());
                }
                return Ok(());
            }
            dir.replace(name, script.as_bytes())?;
            if !quiet {
                println!("updated  {}", path.display());
            }
            return dir.set_mode(name, 0o755);
        }
        let kept = format!("{name}.pre-active-status");
        dir.rename_new(name, &kept)?;
        if !quiet {
            println!(
                "chained  {} (the previous hook now runs first from {})",
                path.display(),
                dir.display(&kept).display()
            );
        }
    }
    dir.replace(name, script.as_bytes())?;
    dir.set_mode(name, 0o755)
}
