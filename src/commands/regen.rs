//! `regen` and `audit`.

use super::{Ctx, print_json};
use crate::cli::{Format, RegenArgs};
use crate::error::{Result, exit};
use crate::lock::with_lock;
use crate::render::template_source;
use crate::report::{Report, Trail};
use crate::vault_fs::VaultDir;
use crate::write::{current, is_current};

/// Whether what `emit` prints in `format` shows the resolved items (the
/// JSON report and `-v` do); other outputs leave the list unbuilt.
fn trail(ctx: &Ctx, format: Format) -> Trail {
    if format == Format::Json || ctx.verbose > 0 {
        Trail::Listed
    } else {
        Trail::Counted
    }
}

/// Scans, merges and renders; returns the report and the dashboard bytes.
fn produce(ctx: &Ctx, template: &str, format: Format) -> Result<(Report, String)> {
    let (report, text, [scan, merge, render]) =
        crate::pipeline::produce(&ctx.root, &ctx.cfg, template, trail(ctx, format))?;
    if ctx.verbose >= 2 {
        eprintln!(
            "timings: scan {:.1} ms, merge {:.1} ms, render {:.1} ms",
            scan.as_secs_f64() * 1e3,
            merge.as_secs_f64() * 1e3,
            render.as_secs_f64() * 1e3
        );
        if cfg!(debug_assertions) {
            let (rows, pairs) = crate::work::counts();
            eprintln!("work: rows scanned {rows}, comparisons {pairs}");
        }
    }
    Ok((report, text))
}

fn emit(ctx: &Ctx, report: &Report, format: Format, status: &str) -> Result<()> {
    match format {
        Format::Json => print_json(report),
        Format::Text if ctx.quiet => Ok(()),
        Format::Text => {
            print!("{}", crate::output::audit(report, status, ctx.verbose));
            Ok(())
        }
    }
}

pub(super) fn regen(ctx: &Ctx, args: &RegenArgs) -> Result<i32> {
    let template = template_source(&ctx.root, &ctx.cfg)?;
    let vault = VaultDir::open(&ctx.root)?;
    if args.check {
        let (mut report, text) = produce(ctx, &template, args.output.format)?;
        let old =
            current(&vault, &ctx.cfg.output)?.map(|b| String::from_utf8_lossy(&b).into_owned());
        let current = old.as_deref() == Some(text.as_str());
        report.changed = !current;
        if !current && !ctx.quiet {
            eprint!(
                "{}",
                crate::output::stale_diff(&ctx.cfg.output, old.as_deref(), &text)
            );
        }
        let status = if current { "up to date" } else { "stale" };
        emit(ctx, &report, args.output.format, status)?;
        return Ok(if current { exit::OK } else { exit::STALE });
    }
    if args.dry_run {
        let (mut report, text) = produce(ctx, &template, args.output.format)?;
        report.changed = !is_current(&vault, &ctx.cfg.output, text.as_bytes())?;
        let status = if report.changed {
            "would change (dry run)"
        } else {
            "up to date (dry run)"
        };
        emit(ctx, &report, args.output.format, status)?;
        return Ok(exit::OK);
    }
    let opts = ctx.lock_options(&args.lock);
    let report = with_lock(&opts, || {
        crate::pipeline::regenerate(
            &ctx.root,
            &ctx.cfg,
            &template,
            trail(ctx, args.output.format),
        )
    })?;
    let status = if report.written {
        "written"
    } else {
        "unchanged"
    };
    emit(ctx, &report, args.output.format, status)?;
    Ok(exit::OK)
}

pub(super) fn audit(ctx: &Ctx, format: Format) -> Result<i32> {
    let template = template_source(&ctx.root, &ctx.cfg)?;
    let vault = VaultDir::open(&ctx.root)?;
    let (mut report, text) = produce(ctx, &template, format)?;
    report.changed = !is_current(&vault, &ctx.cfg.output, text.as_bytes())?;
    let status = if report.changed {
        "stale"
    } else {
        "up to date"
    };
    emit(ctx, &report, format, status)?;
    Ok(exit::OK)
}
