//! `search`: ranked full-text search over open, resolved and cancelled items
//! and Done/Skipped entries.

use super::{Ctx, print_json};
use crate::cli::{Format, SearchArgs};
use crate::error::{Result, exit};

pub(super) fn search(ctx: &Ctx, args: &SearchArgs) -> Result<i32> {
    let options = crate::search::Options {
        query: args.query.join(" "),
        project: args.project.clone(),
        status: args.status,
        since: args.since,
        limit: args.limit,
    };
    let start = std::time::Instant::now();
    let searched = crate::pipeline::search(&ctx.root, &ctx.cfg, &options)?;
    if ctx.verbose >= 1 {
        let how = if searched.indexed { "hit" } else { "miss" };
        eprintln!("active-status search: index: {how}");
        if let Some(note) = &searched.note {
            eprintln!("active-status search: {note}");
        }
    }
    if ctx.verbose >= 2 {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        match searched.timings {
            Some([scan, merge]) => eprintln!(
                "timings: scan {:.1} ms, merge {:.1} ms, search {:.1} ms",
                ms(scan),
                ms(merge),
                (ms(start.elapsed()) - ms(scan) - ms(merge)).max(0.0)
            ),
            None => eprintln!("timings: indexed search {:.1} ms", ms(start.elapsed())),
        }
    }
    let results = &searched.results;
    match args.output.format {
        Format::Json => print_json(results)?,
        Format::Text if !ctx.quiet => print!("{}", crate::search::text(results)),
        Format::Text => {}
    }
    Ok(exit::OK)
}
