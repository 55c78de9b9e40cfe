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
    let analysis = crate::pipeline::analyze(&ctx.root, &ctx.cfg)?;
    let start = std::time::Instant::now();
    let v = &analysis.vault;
    let corpus = crate::search::corpus(&analysis.merged, &v.signals, &v.skips);
    let today = v.today.unwrap_or_else(|| ctx.cfg.today());
    let results = crate::search::search(corpus, &options, v.as_of, today, &v.projects)?;
    if ctx.verbose >= 2 {
        let [scan, merge] = analysis.timings;
        eprintln!(
            "timings: scan {:.1} ms, merge {:.1} ms, search {:.1} ms",
            scan.as_secs_f64() * 1e3,
            merge.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    match args.output.format {
        Format::Json => print_json(&results)?,
        Format::Text if !ctx.quiet => print!("{}", crate::search::text(&results)),
        Format::Text => {}
    }
    Ok(exit::OK)
}
