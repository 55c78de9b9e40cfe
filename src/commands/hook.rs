//! `hook session-start`, `hook pre-compact` and `hook session-end` (docs/FORMAT.md
//! §10). Hooks never fail the host: every problem goes to stderr and the exit
//! status is 0. The hook JSON on stdin is read bounded (1 MiB, 10 seconds).

use super::Ctx;
use crate::cli::{Cli, HookEvent};
use crate::error::{Error, Result, exit};
use crate::pipeline::analyze;
use crate::report::{Report, build};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn hook(cli: &Cli, event: HookEvent) -> Result<i32> {
    if let Err(e) = run(cli, event) {
        eprintln!("active-status hook: {e}");
    }
    Ok(exit::OK)
}

fn run(cli: &Cli, event: HookEvent) -> Result<()> {
    let raw = crate::transcript::read::read_stdin(1 << 20, std::time::Duration::from_secs(10))
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
    let ctx = Ctx::for_root(cli, root, None)?;
    match event {
        HookEvent::SessionStart => session_start(&ctx),
        HookEvent::PreCompact => capture(&ctx, &input, &cwd, "hook pre-compact", false),
        HookEvent::SessionEnd => capture(&ctx, &input, &cwd, "hook session-end", true),
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

/// Captures the orphans of the hook's transcript into the inbox (see
/// [`crate::capture`]); `last_request` as there.
fn capture(ctx: &Ctx, input: &Value, cwd: &Path, by: &str, last_request: bool) -> Result<()> {
    let transcript =
        input
            .get("transcript_path")
            .and_then(Value::as_str)
            .ok_or(Error::HookField {
                field: "transcript_path",
            })?;
    let session = crate::capture::session_tag(input.get("session_id").and_then(Value::as_str));
    let out = crate::followups::report(
        &ctx.root,
        &ctx.cfg,
        Path::new(transcript),
        transcript,
        false,
    )?;
    let known = crate::discover::discover(&ctx.root, &ctx.cfg)?.projects;
    let project = crate::capture::project_of_cwd(cwd, &known);
    let done = crate::capture::capture(
        &ctx.root,
        &ctx.cfg,
        &out,
        &session,
        project.as_deref(),
        last_request,
        by,
    )?;
    if let Some(path) = &done.path {
        eprintln!(
            "active-status: captured {} follow-ups into {}",
            done.items,
            path.display()
        );
    }
    if done.over_cap > 0 {
        eprintln!(
            "active-status: {} more follow-ups not captured: this session reached hook.max_captured ({}); run /wrap",
            done.over_cap, ctx.cfg.hook_max_captured
        );
    }
    Ok(())
}
