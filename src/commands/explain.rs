//! `explain`: why one item is where it is (see `crate::explain`).

use super::{Ctx, print_json};
use crate::cli::{ExplainArgs, Format};
use crate::error::{Result, exit};

pub(super) fn explain(ctx: &Ctx, args: &ExplainArgs) -> Result<i32> {
    let query = args.item.join(" ");
    let analysis = crate::pipeline::analyze(&ctx.root, &ctx.cfg)?;
    let e = crate::explain::explain(&analysis, &ctx.cfg, &query)?;
    match args.output.format {
        Format::Json => print_json(&e)?,
        Format::Text if !ctx.quiet => print!(
            "{}",
            crate::output::escape_controls(&crate::explain::text(&e))
        ),
        Format::Text => {}
    }
    Ok(exit::OK)
}
