//! `list`: every open cluster after the merge (the deferred ones with `--deferred`).

use super::{Ctx, print_json};
use crate::cli::{Format, ListArgs};
use crate::error::{Error, Result, exit};
use crate::item::SourceKind;
use crate::pipeline::analyze;
use crate::report::{ReportItem, report_items_at};
use serde::Serialize;

#[derive(Serialize)]
struct ListOutput<'a> {
    schema: u32,
    as_of: Option<jiff::civil::Date>,
    items: &'a [ReportItem],
}

pub(super) fn list(ctx: &Ctx, args: &ListArgs) -> Result<i32> {
    let analysis = analyze(&ctx.root, &ctx.cfg)?;
    let as_of = analysis.vault.as_of;
    let project = args.project.as_deref().map(str::to_ascii_lowercase);
    if let Some(p) = &project {
        let known = &analysis.vault.projects;
        let tagged = analysis
            .merged
            .items
            .iter()
            .any(|i| i.project() == Some(p.as_str()));
        if !known.contains(p) && !tagged {
            return Err(Error::UnknownProject {
                project: p.clone(),
                known: known.clone(),
            });
        }
    }
    let kind = args.source.as_deref().and_then(SourceKind::parse);
    let mut items: Vec<ReportItem> = report_items_at(&analysis.merged, as_of, analysis.vault.today)
        .into_iter()
        .filter(|i| i.deferred_until.is_some() == args.deferred)
        .filter(|i| project.is_none() || i.project == project)
        .filter(|i| kind.is_none_or(|k| i.source.kind == k))
        .collect();
    if let Some(limit) = args.limit {
        items.truncate(limit);
    }
    match args.output.format {
        Format::Json => print_json(&ListOutput {
            schema: 1,
            as_of,
            items: &items,
        })?,
        Format::Text if !ctx.quiet => print!("{}", crate::output::list(&items)),
        Format::Text => {}
    }
    Ok(exit::OK)
}
