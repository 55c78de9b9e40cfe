//! `log` and `undo`: the operation log (docs/FORMAT.md §12.2).

use super::{Ctx, print_json};
use crate::cli::{Format, LogArgs, UndoArgs};
use crate::error::{Result, exit};
use crate::lock::with_lock;
use crate::oplog::{Entry, Revert};
use crate::output::escape_controls;
use crate::report::Trail;
use crate::vault_fs::VaultDir;
use serde::Serialize;

#[derive(Serialize)]
struct FileRow<'a> {
    path: &'a str,
    before: Option<&'a str>,
    after: Option<&'a str>,
    added: usize,
    removed: usize,
    private: bool,
    binary: bool,
}

#[derive(Serialize)]
struct OpRow<'a> {
    op: &'a str,
    time: &'a str,
    command: &'a str,
    undoes: Option<&'a str>,
    undone_by: Option<String>,
    line: u32,
    files: Vec<FileRow<'a>>,
}

#[derive(Serialize)]
struct LogOut<'a> {
    schema: u32,
    operations: Vec<OpRow<'a>>,
    warnings: &'a [String],
}

fn warn_all(ctx: &Ctx, warnings: &[String]) {
    if ctx.quiet {
        return;
    }
    for w in warnings {
        eprintln!("warning: {}", escape_controls(w));
    }
    if !warnings.is_empty() {
        eprintln!(
            "warning: {} line(s) of {} ignored",
            warnings.len(),
            crate::oplog::FILE
        );
    }
}

fn row<'a>(entries: &[Entry], e: &'a Entry) -> OpRow<'a> {
    OpRow {
        op: &e.op,
        time: &e.time,
        command: &e.command,
        undoes: e.undoes.as_deref(),
        undone_by: crate::oplog::is_undone(entries, &e.op),
        line: e.line,
        files: e
            .files
            .iter()
            .map(|f| FileRow {
                path: &f.path,
                before: f.before.as_deref(),
                after: f.after.as_deref(),
                added: f.hunks.iter().map(|h| h.add.len()).sum(),
                removed: f.hunks.iter().map(|h| h.del.len()).sum(),
                private: f.private,
                binary: f.binary,
            })
            .collect(),
    }
}

pub(super) fn log(ctx: &Ctx, args: &LogArgs) -> Result<i32> {
    let vault = VaultDir::open(&ctx.root)?;
    let (entries, warnings) = crate::oplog::read(&vault)?;
    warn_all(ctx, &warnings);
    let newest = crate::oplog::newest_first(&entries);
    let shown = newest.into_iter().take(args.limit.unwrap_or(usize::MAX));
    let rows: Vec<OpRow<'_>> = shown.map(|e| row(&entries, e)).collect();
    match args.output.format {
        Format::Json => print_json(&LogOut {
            schema: 1,
            operations: rows,
            warnings: &warnings,
        })?,
        Format::Text if ctx.quiet => {}
        Format::Text => {
            let mut o = String::new();
            for r in &rows {
                let mut note = String::new();
                if let Some(u) = r.undoes {
                    note.push_str(&format!(" (undoes {u})"));
                }
                if let Some(by) = &r.undone_by {
                    note.push_str(&format!(" [undone by {by}]"));
                }
                o.push_str(&format!("{} {} {}{note}\n", r.op, r.time, r.command));
                for f in &r.files {
                    let kind = match (f.before, f.after) {
                        (None, _) => "created",
                        (_, None) => "removed",
                        _ => "changed",
                    };
                    let mut flags = String::new();
                    if f.private {
                        flags.push_str(", private: not revertible");
                    }
                    if f.binary {
                        flags.push_str(", not text: not revertible");
                    }
                    o.push_str(&format!(
                        "  {} {kind} (+{} -{}{flags})\n",
                        f.path, f.added, f.removed
                    ));
                }
            }
            if rows.is_empty() {
                o.push_str("no operations logged\n");
            }
            print!("{}", escape_controls(&o));
        }
    }
    Ok(exit::OK)
}

#[derive(Serialize)]
struct Undone<'a> {
    schema: u32,
    op: &'a str,
    command: &'a str,
    files: &'a [Revert],
    written: bool,
    /// The unified diff (private text redacted).
    diff: String,
}

pub(super) fn undo(ctx: &Ctx, args: &UndoArgs) -> Result<i32> {
    let vault = VaultDir::open(&ctx.root)?;
    let print = |e: &Entry, plan: &[Revert], written: bool| -> Result<()> {
        let diff = crate::oplog::undo_diff(plan);
        match args.output.format {
            Format::Json => print_json(&Undone {
                schema: 1,
                op: &e.op,
                command: &e.command,
                files: plan,
                written,
                diff,
            }),
            Format::Text if ctx.quiet => Ok(()),
            Format::Text => {
                let mut o = String::new();
                let verb = if written { "undone" } else { "would undo" };
                o.push_str(&format!("{verb}: {} {} {}\n", e.op, e.time, e.command));
                for r in plan {
                    o.push_str(&format!("  {} {}\n", r.action, r.path));
                }
                if !written {
                    o.push_str(&diff);
                    o.push_str("(dry run: nothing written)\n");
                }
                print!("{}", escape_controls(&o));
                Ok(())
            }
        }
    };
    if args.dry_run {
        let (entries, warnings) = crate::oplog::read(&vault)?;
        warn_all(ctx, &warnings);
        let e = crate::oplog::choose(&entries, args.op.as_deref())?;
        let plan = crate::oplog::plan_undo(&vault, e)?;
        print(e, &plan, false)?;
        return Ok(exit::OK);
    }
    let template = if args.regen {
        Some(crate::render::template_source(&ctx.root, &ctx.cfg)?)
    } else {
        None
    };
    let opts = ctx.lock_options(&args.lock);
    let (e, plan, regen) = with_lock(&opts, || {
        let (entries, warnings) = crate::oplog::read(&vault)?;
        warn_all(ctx, &warnings);
        let e = crate::oplog::choose(&entries, args.op.as_deref())?.clone();
        let plan = crate::oplog::plan_undo(&vault, &e)?;
        crate::oplog::apply_undo(&vault, &e, &plan)?;
        let regen = template
            .as_ref()
            .map(|t| crate::pipeline::regenerate(&ctx.root, &ctx.cfg, t, Trail::Counted));
        Ok((e, plan, regen))
    })?;
    print(&e, &plan, true)?;
    super::finish_regen(ctx, regen, "undo: the files above were reverted")?;
    Ok(exit::OK)
}
