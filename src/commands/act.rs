//! `done`, `cancel` and `defer`: find the item, plan the edits, write them
//! under the lock (or print them as a diff with `--dry-run`).

use super::{Ctx, print_json};
use crate::act::{Action, plan_action, run_action};
use crate::cli::{ActArgs, Format};
use crate::error::{Result, exit};
use crate::lock::with_lock;
use crate::report::Trail;
use crate::vault_fs::VaultDir;

pub(super) fn act(ctx: &Ctx, args: &ActArgs, action: Action) -> Result<i32> {
    let query = args.item.join(" ");
    let date = args.date.unwrap_or_else(|| ctx.cfg.today());
    let vault = VaultDir::open(&ctx.root)?;
    if args.dry_run {
        let (acted, changes) = plan_action(&vault, &ctx.cfg, &query, action, date)?;
        match args.output.format {
            Format::Json => print_json(&acted)?,
            Format::Text if !ctx.quiet => {
                print!("{}", crate::act::text(&acted));
                print!("{}", crate::act::diff(&changes));
            }
            Format::Text => {}
        }
        return Ok(exit::OK);
    }
    let opts = ctx.lock_options(&args.lock);
    let template = if args.regen {
        Some(crate::render::template_source(&ctx.root, &ctx.cfg)?)
    } else {
        None
    };
    let (acted, regen) = with_lock(&opts, || {
        let acted = run_action(&vault, &ctx.cfg, &query, action, date)?;
        let regen = template
            .as_ref()
            .map(|t| crate::pipeline::regenerate(&ctx.root, &ctx.cfg, t, Trail::Counted));
        Ok((acted, regen))
    })?;
    match args.output.format {
        Format::Json => print_json(&acted)?,
        Format::Text if !ctx.quiet => print!("{}", crate::act::text(&acted)),
        Format::Text => {}
    }
    let written = format!("{}: the changes above were written", acted.action);
    super::finish_regen(ctx, regen, &written)?;
    Ok(exit::OK)
}
