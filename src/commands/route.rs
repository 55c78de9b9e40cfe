//! `route`: validate every entry, then write them all under the lock.

use super::{Ctx, print_json};
use crate::cli::{Format, RouteArgs};
use crate::error::{Error, Result, exit};
use crate::lock::with_lock;
use crate::report::Trail;
use crate::route::{RouteEntry, Status, dest_name, route_batch, validate};
use crate::vault_fs::VaultDir;
use std::io::Read;

fn read_entries(from: &str, quiet: bool) -> Result<Vec<RouteEntry>> {
    let raw = if from == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|source| Error::RouteStdin { source })?;
        s
    } else {
        std::fs::read_to_string(from).map_err(|e| Error::read(from, e))?
    };
    let (entries, skipped) =
        crate::route::parse_batch(&raw).map_err(|(at, message)| Error::RouteInput {
            from: from.to_string(),
            at,
            message,
        })?;
    if skipped > 0 && !quiet {
        eprintln!(
            "route --from {from}: {skipped} candidate{} marked \"persisted\": true left out (already in the vault)",
            if skipped == 1 { "" } else { "s" }
        );
    }
    Ok(entries)
}

pub(super) fn route(ctx: &Ctx, args: &RouteArgs) -> Result<i32> {
    let today = ctx.cfg.today();
    let default_date = args.date.unwrap_or(today);
    let entries = match (&args.from, args.to) {
        (Some(from), _) => read_entries(from, ctx.quiet)?,
        (None, Some(to)) => vec![RouteEntry {
            replaces: None,
            text: args.text.join(" "),
            to,
            project: args.project.clone(),
            task: args.task.clone(),
            date: None,
        }],
        (None, None) => {
            return Err(Error::MissingArgument {
                needed: "route needs --to and TEXT, or --from FILE|-",
            });
        }
    };
    let checked = validate(&entries, default_date)?;
    let replaces: Vec<Option<String>> = entries.iter().map(|e| e.replaces.clone()).collect();
    let opts = ctx.lock_options(&args.lock);
    let template = if args.regen {
        let t = crate::render::template_source(&ctx.root, &ctx.cfg)?;
        crate::render::check_template(&t)?;
        Some(t)
    } else {
        None
    };
    let (results, regen) = with_lock(&opts, || {
        let vault = VaultDir::open(&ctx.root)?;
        // The vault is discovered once for the whole batch.
        let view = crate::route::VaultView::discover(&ctx.root, &ctx.cfg)?;
        // Planned in memory from fresh reads (each entry checked to parse
        // back as the item it should be), then written compare-and-swap:
        // a refused entry leaves every file as it was.
        let results = if replaces.iter().any(Option::is_some) {
            // Entries that replace a captured inbox item retire it in the same step.
            crate::act::route_replacing(&vault, &ctx.cfg, &view, &checked, &replaces, today)?
        } else {
            route_batch(&vault, &ctx.cfg, &view, &checked)?
        };
        let regen = template
            .as_ref()
            .map(|t| crate::pipeline::regenerate(&ctx.root, &ctx.cfg, t, Trail::Counted));
        Ok((results, regen))
    })?;
    match args.output.format {
        Format::Json => print_json(&results)?,
        Format::Text if !ctx.quiet => {
            for r in &results {
                let status = match r.status {
                    Status::Added => "added",
                    Status::AlreadyPresent => "already present",
                };
                println!(
                    "{status}: {}:{} ({}) {}",
                    r.path,
                    r.line,
                    dest_name(r.to),
                    crate::output::escape_controls(&r.text)
                );
            }
        }
        Format::Text => {}
    }
    let written = format!("route: the {} entries above were written", results.len());
    super::finish_regen(ctx, regen, &written)?;
    Ok(exit::OK)
}
