//! `hook session-start` and `hook pre-compact` (docs/FORMAT.md §10). Hooks never fail
//! the host: every problem goes to stderr and the exit status is 0.

use super::Ctx;
use crate::cli::{Cli, HookEvent};
use crate::error::{Error, Result, exit};
use crate::report::{Report, analyze, build};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

pub fn hook(cli: &Cli, event: HookEvent) -> Result<i32> {
    if let Err(e) = run(cli, event) {
        eprintln!("active-status hook: {e}");
    }
    Ok(exit::OK)
}

fn run(cli: &Cli, event: HookEvent) -> Result<()> {
    let mut raw = String::new();
    std::io::stdin()
        .read_to_string(&mut raw)
        .map_err(|source| Error::HookStdin { source })?;
    let input: Value = serde_json::from_str(&raw).map_err(|source| Error::HookInput { source })?;
    let cwd = input
        .get("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    let root = match crate::discover::find_root(cli.root.as_deref(), &cwd) {
        Ok(root) => root,
        Err(Error::NoVault { .. }) => return Ok(()),
        Err(e) => return Err(e),
    };
    let ctx = Ctx::for_root(cli, root)?;
    match event {
        HookEvent::SessionStart => session_start(&ctx),
        HookEvent::PreCompact => pre_compact(&ctx, &input, &cwd),
    }
}

fn session_start(ctx: &Ctx) -> Result<()> {
    let analysis = analyze(&ctx.root, &ctx.cfg)?;
    let report = build(&analysis, &ctx.cfg);
    let text = summary(&report, ctx.cfg.hook_max_chars);
    let out = serde_json::json!({
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
    });
    println!("{out}");
    Ok(())
}

/// A compact plain summary of at most `max` characters: counts, goals, then
/// as many priorities as fit.
pub fn summary(r: &Report, max: usize) -> String {
    let a = &r.audit;
    let as_of = r.as_of.map_or("no dated notes".into(), |d| d.to_string());
    let mut head = format!(
        "{} (active-status, as of {as_of}): {} open, {} shown, {} overflow; {} untagged, {} potentially lost, {} warnings.\n",
        r.output,
        a.open,
        a.shown,
        a.overflow,
        a.untagged_warnings.len(),
        a.potentially_lost.len(),
        a.warnings.len()
    );
    if !r.goals.is_empty() {
        head.push_str("Goals:\n");
        for g in &r.goals {
            head.push_str(&format!(
                "- {}: {}\n",
                g.project.as_deref().unwrap_or("untagged"),
                g.text
            ));
        }
    }
    let mut out = String::new();
    push_within(&mut out, &head, max);
    for (n, p) in r.priorities.iter().enumerate() {
        let line = format!(
            "{}{}. [{}] {} ({}:{})\n",
            if n == 0 { "Priorities:\n" } else { "" },
            n + 1,
            p.project.as_deref().unwrap_or("untagged"),
            p.text,
            p.source.path,
            p.source.line
        );
        if out.is_empty() || !push_within(&mut out, &line, max) {
            break;
        }
    }
    out.trim_end().to_string()
}

/// Appends `s` when the result stays within `max` characters; a first piece
/// that does not fit is cut at a character boundary.
fn push_within(out: &mut String, s: &str, max: usize) -> bool {
    let used = out.chars().count();
    let len = s.chars().count();
    if used + len <= max {
        out.push_str(s);
        true
    } else {
        if out.is_empty() {
            out.extend(s.chars().take(max));
        }
        false
    }
}

/// The known project named by the working directory: the nearest path
/// component that is a known project slug.
fn project_of_cwd(cwd: &Path, known: &[String]) -> Option<String> {
    cwd.components().rev().find_map(|c| {
        let name = c.as_os_str().to_string_lossy().to_ascii_lowercase();
        known.iter().find(|k| **k == name).cloned()
    })
}

fn pre_compact(ctx: &Ctx, input: &Value, cwd: &Path) -> Result<()> {
    let transcript =
        input
            .get("transcript_path")
            .and_then(Value::as_str)
            .ok_or(Error::HookField {
                field: "transcript_path",
            })?;
    let session: String = input
        .get("session_id")
        .and_then(Value::as_str)
        .unwrap_or("nosession")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(8)
        .collect();
    let session = if session.is_empty() {
        "nosession".to_string()
    } else {
        session
    };
    let out = super::extract::extract_report(ctx, Path::new(transcript), transcript)?;
    let orphans: Vec<&str> = out
        .candidates
        .iter()
        .filter(|c| !c.persisted)
        .map(|c| c.text.as_str())
        .collect();
    if orphans.is_empty() {
        return Ok(());
    }
    let known = crate::discover::discover(&ctx.root, &ctx.cfg)?.projects;
    let project = project_of_cwd(cwd, &known);
    let now = crate::clock::now();
    let stamp = now.strftime("%Y-%m-%dT%H%M%S").to_string();
    let mut body = format!(
        "# Captured follow-ups {}\n\n",
        now.strftime("%Y-%m-%d %H:%M:%S")
    );
    if let Some(p) = &project {
        body.push_str(&format!("<!-- project: {p} -->\n"));
    }
    body.push_str(&format!(
        "<!-- captured by `active-status hook pre-compact` from session {session}; route or check these off -->\n\n### Next (captured)\n\n"
    ));
    for text in &orphans {
        match &project {
            Some(p) => body.push_str(&format!("- [ ] ({p}) {text}\n")),
            None => body.push_str(&format!("- [ ] {text}\n")),
        }
    }
    // Exclusive creation through the vault handle: concurrent sessions
    // never collide or overwrite, and the file appears whole or not at all.
    let names = (0..=100).map(|n| {
        if n == 0 {
            format!("{stamp}-{session}.md")
        } else {
            format!("{stamp}-{session}-{n}.md")
        }
    });
    let vault = crate::vault_fs::VaultDir::open(&ctx.root)?;
    let rel = vault.create_new(&ctx.cfg.inbox_dir, names, body.as_bytes())?;
    eprintln!(
        "active-status: captured {} follow-ups into {}",
        orphans.len(),
        vault.display(&rel).display()
    );
    Ok(())
}
