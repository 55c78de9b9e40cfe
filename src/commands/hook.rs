//! `hook session-start`, `hook pre-compact`, `hook session-end` and `hook
//! stop` (docs/FORMAT.md §10). Hooks never fail the host: every problem goes to
//! stderr and the exit status is 0. The hook JSON on stdin is read bounded (1
//! MiB, 10 seconds), up to its end or to the end of the JSON object, whichever
//! comes first.

use super::Ctx;
use crate::cli::{Cli, HookEvent};
use crate::error::{Error, Result, exit};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub(super) fn hook(cli: &Cli, event: HookEvent) -> Result<i32> {
    if let Err(e) = run(cli, event) {
        eprintln!("active-status hook: {e}");
    }
    Ok(exit::OK)
}

fn run(cli: &Cli, event: HookEvent) -> Result<()> {
    let raw = crate::transcript::read::read_stdin_json(1 << 20, std::time::Duration::from_secs(10))
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
        HookEvent::SessionStart => session_start(&ctx, &cwd),
        HookEvent::PreCompact => capture(&ctx, &input, &cwd, "hook pre-compact", false),
        HookEvent::SessionEnd => capture(&ctx, &input, &cwd, "hook session-end", true),
        // Codex has no session end: its Stop, after every turn, captures
        // what is new (captured follow-ups are never captured again).
        HookEvent::Stop => capture(&ctx, &input, &cwd, "hook stop", true),
    }
}

fn session_start(ctx: &Ctx, cwd: &Path) -> Result<()> {
    let (view, projects, hit) = crate::pipeline::summary_view(&ctx.root, &ctx.cfg)?;
    if ctx.verbose > 0 {
        let how = if hit { "hit" } else { "miss" };
        eprintln!("active-status hook: result cache: {how}");
    }
    let focus = crate::start_summary::focus_of(
        &ctx.root,
        &ctx.cfg.projects_dir,
        &projects,
        &ctx.cfg.project_paths,
        cwd,
    );
    let text = crate::start_summary::summary_of(
        &view,
        ctx.cfg.hook_max_chars,
        ctx.cfg.review_max,
        focus.as_deref(),
    );
    let out = serde_json::json!({
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
    });
    println!("{out}");
    Ok(())
}

/// Captures the orphans of the hook's transcript into the inbox (see
/// [`crate::capture`]); `last_request` as there.
fn capture(ctx: &Ctx, input: &Value, cwd: &Path, by: &str, last_request: bool) -> Result<()> {
    if input.get("transcript_path").is_some_and(Value::is_null) {
        // Codex gives `null` when the session has no transcript file.
        eprintln!(
            "active-status {by}: the hook input has no transcript (transcript_path is null); nothing captured"
        );
        return Ok(());
    }
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
    if done.refused > 0 {
        eprintln!(
            "active-status: warning: {} follow-ups not captured: their text holds a control character, is over {} characters or has an unbalanced <private>",
            done.refused,
            crate::route::MAX_TEXT_CHARS
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
