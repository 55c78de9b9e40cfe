//! `stats`: vault statistics from the sources alone.

use super::{Ctx, print_json};
use crate::cli::{Format, StatsArgs};
use crate::error::{Result, exit};

pub(super) fn stats(ctx: &Ctx, args: &StatsArgs) -> Result<i32> {
    let days = args.zombie_days.unwrap_or(ctx.cfg.stats_zombie_days);
    let s = crate::stats::compute(&ctx.root, &ctx.cfg, days)?;
    match args.output.format {
        Format::Json => print_json(&s)?,
        Format::Text if !ctx.quiet => print!("{}", crate::stats::text(&s)),
        Format::Text => {}
    }
    Ok(exit::OK)
}
