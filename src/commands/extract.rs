//! `extract`: a transcript's follow-up candidates and whether each is already
//! persisted in the vault; `--sweep` does it for every recent session.

use super::{Ctx, print_json};
use crate::cli::{ExtractArgs, Format, InputFormat};
use crate::error::{Error, Result, exit};
use crate::followups::{self, ExtractOut};
use serde::Serialize;

fn print_text(out: &ExtractOut) {
    println!(
        "{} ({}): {} candidates, {} orphans, {} malformed lines skipped, {} long lines skipped",
        out.transcript,
        serde_json::to_value(out.format)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        out.candidates.len(),
        out.orphans,
        out.skipped_lines,
        out.long_lines
    );
    if let Some(g) = &out.goal {
        println!(
            "goal (line {}): {}",
            g.line,
            crate::output::escape_controls(&g.text)
        );
    }
    for c in &out.candidates {
        let state = match (&c.persisted_at, &c.captured_at) {
            (Some(p), _) => format!("persisted at {}:{}", p.path, p.line),
            (None, Some(p)) => format!("ORPHAN (captured at {}:{})", p.path, p.line),
            (None, None) => "ORPHAN".to_string(),
        };
        let origin = serde_json::to_value(c.origin)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        println!(
            "  line {:>5} [{origin}: {}] {}  — {state}",
            c.line,
            crate::output::escape_controls(&c.keyword),
            crate::output::escape_controls(&c.text)
        );
    }
}

#[derive(Serialize)]
struct SweepError {
    transcript: String,
    error: String,
}

#[derive(Serialize)]
struct SweepOut {
    schema: u32,
    sessions: Vec<ExtractOut>,
    errors: Vec<SweepError>,
    orphans: usize,
    captured: usize,
}

pub(super) fn extract(ctx: &Ctx, args: &ExtractArgs) -> Result<i32> {
    let force_text = args.input_format == InputFormat::Text;
    let path = match (&args.transcript, &args.session) {
        (Some(p), _) => p.clone(),
        (None, Some(id)) => crate::sweep::find_session(&default_roots(), id)
            .ok_or_else(|| Error::NoSuchSession { id: id.clone() })?,
        (None, None) => return sweep(ctx, args, force_text),
    };
    let path = &path;
    let shown = path.display().to_string();
    let out = followups::report(&ctx.root, &ctx.cfg, path, &shown, force_text)?;
    match args.output.format {
        Format::Json => print_json(&out)?,
        Format::Text if ctx.quiet => {}
        Format::Text => print_text(&out),
    }
    Ok(exit::OK)
}

/// The default transcript folders, from `$HOME` and `$CLAUDE_CONFIG_DIR`.
fn default_roots() -> Vec<(std::path::PathBuf, crate::sweep::Kind)> {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let config_dirs = std::env::var("CLAUDE_CONFIG_DIR").ok();
    crate::sweep::roots(home.as_deref(), config_dirs.as_deref())
}

fn sweep(ctx: &Ctx, args: &ExtractArgs, force_text: bool) -> Result<i32> {
    let now = std::time::SystemTime::now();
    let since = args
        .since
        .as_deref()
        .map(|s| crate::sweep::parse_since(s, now))
        .transpose()?;
    let vault = crate::scan::scan_vault(&ctx.root, &ctx.cfg)?;
    let known = crate::discover::discover(&ctx.root, &ctx.cfg)?.projects;
    // Exports under `.specstory/history/` of the vault, of each project's
    // folder and of its working folders, with the project they belong to.
    let mut folders: Vec<(std::path::PathBuf, Option<String>)> = vec![(ctx.root.clone(), None)];
    for p in &known {
        folders.push((
            ctx.root.join(&ctx.cfg.projects_dir).join(p),
            Some(p.clone()),
        ));
    }
    for (p, paths) in &ctx.cfg.project_paths {
        for dir in paths {
            folders.push((ctx.root.join(dir), Some(p.clone())));
        }
    }
    let mut roots = default_roots();
    roots.extend(crate::sweep::export_roots(
        folders.iter().map(|(f, _)| f.as_path()),
    ));
    // The project of an export: its folder's (the deepest that holds it).
    let project_of_export = |file: &std::path::Path| {
        folders
            .iter()
            .filter(|(f, p)| p.is_some() && file.starts_with(f.join(".specstory/history")))
            .max_by_key(|(f, _)| f.components().count())
            .and_then(|(_, p)| p.clone())
    };
    let opts = followups::options(&ctx.cfg, force_text);
    let mut out = SweepOut {
        schema: 1,
        sessions: Vec::new(),
        errors: Vec::new(),
        orphans: 0,
        captured: 0,
    };
    for file in crate::sweep::files(&roots, since) {
        let shown = file.display().to_string();
        let ex = match followups::read(&file, &opts) {
            Ok(ex) => ex,
            Err(e) => {
                out.errors.push(SweepError {
                    transcript: shown,
                    error: e.to_string(),
                });
                continue;
            }
        };
        let export_project = project_of_export(&file);
        if let Some(p) = &args.project
            && !crate::sweep::cwd_names(ex.cwd.as_deref(), p)
            && export_project.as_deref() != Some(p.as_str())
        {
            continue;
        }
        let session = followups::check(&vault, &ctx.cfg, ex, &shown);
        if args.capture {
            let project = session
                .cwd
                .as_deref()
                .and_then(|c| crate::capture::project_of_cwd(std::path::Path::new(c), &known))
                .or(export_project);
            let tag = crate::sweep::session_of(&file);
            let done = crate::capture::capture(
                &ctx.root,
                &ctx.cfg,
                &session,
                &tag,
                project.as_deref(),
                true,
                "extract --sweep --capture",
            )?;
            out.captured += done.items;
        }
        out.orphans += session.orphans;
        out.sessions.push(session);
    }
    match args.output.format {
        Format::Json => print_json(&out)?,
        Format::Text if ctx.quiet => {}
        Format::Text => {
            for s in &out.sessions {
                print_text(s);
            }
            for e in &out.errors {
                println!(
                    "{}: {}",
                    crate::output::escape_controls(&e.transcript),
                    crate::output::escape_controls(&e.error)
                );
            }
            println!(
                "{} sessions, {} orphans, {} captured, {} unreadable",
                out.sessions.len(),
                out.orphans,
                out.captured,
                out.errors.len()
            );
        }
    }
    Ok(exit::OK)
}
