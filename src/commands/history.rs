//! `history`: one item's days, places, merges and resolution.

use super::{Ctx, print_json};
use crate::cli::{Format, HistoryArgs};
use crate::error::{Result, exit};

pub(super) fn history(ctx: &Ctx, args: &HistoryArgs) -> Result<i32> {
    let query = args.item.join(" ");
    let h = crate::history::history(&ctx.root, &ctx.cfg, &query)?;
    match args.output.format {
        Format::Json => print_json(&h)?,
        Format::Text if !ctx.quiet => print!("{}", crate::history::text(&h)),
        Format::Text => {}
    }
    Ok(exit::OK)
}
