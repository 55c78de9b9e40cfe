//! `route --from` entries that replace a captured inbox item: the capture is
//! ticked in the same plan as the routes, so it is retired in the same
//! locked, compare-and-swap step.

use super::{Action, edit_member, refuse};
use crate::cas::Change as FileChange;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::parse::HeadingMatcher;
use crate::route::Plan;
use crate::vault_fs::VaultDir;
use jiff::civil::Date;

/// Plans a route batch whose entries may name a captured inbox item they
/// replace (`replaces[i]` for entry `i`: an ID, `path:line` or text): every
/// open captured member of that item is ticked `[x]` in the same plan as the
/// routes, so the capture is retired in the same locked, compare-and-swap
/// step. An item without a captured member is refused (nothing written).
pub(crate) fn plan_routes_replacing(
    vault: &VaultDir,
    cfg: &Config,
    view: &crate::route::VaultView,
    entries: &[crate::route::Checked],
    replaces: &[Option<String>],
    date: Date,
) -> Result<(Vec<crate::route::RouteResult>, Vec<FileChange>)> {
    let analysis = crate::pipeline::analyze(vault.root(), cfg)?;
    let merged = &analysis.merged;
    let headings = HeadingMatcher::from_config(cfg);
    let mut plan = Plan::with_view(view.clone());
    let mut retired: Vec<Vec<String>> = vec![Vec::new(); entries.len()];
    for (i, query) in replaces.iter().enumerate() {
        let Some(query) = query else { continue };
        let cluster = crate::find::find_open(merged, query, cfg.dedup_threshold)?;
        let captured: Vec<&crate::item::Item> = merged.clusters[cluster]
            .members
            .iter()
            .map(|&m| &merged.items[m])
            .filter(|it| it.kind == crate::item::SourceKind::Captured)
            .collect();
        if captured.is_empty() {
            return Err(Error::NotCaptured {
                entry: i + 1,
                query: query.clone(),
            });
        }
        for item in captured {
            if edit_member(&mut plan, vault, &headings, item, Action::Done, date)?.is_none() {
                return Err(refuse(
                    &item.loc.path,
                    item.loc.line,
                    "the captured item has no checkbox to tick",
                ));
            }
            retired[i].push(format!("{}:{}", item.loc.path, item.loc.line));
        }
    }
    let mut results = entries
        .iter()
        .map(|e| plan.add(vault, cfg, &view.projects, e))
        .collect::<Result<Vec<_>>>()?;
    crate::route::settle_lines(&mut results);
    for (r, places) in results.iter_mut().zip(retired) {
        r.replaced = places;
    }
    Ok((results, plan.into_changes()))
}

/// Routes and retires the replaced captures, compare-and-swap. Call with the
/// lock held.
pub(crate) fn route_replacing(
    vault: &VaultDir,
    cfg: &Config,
    view: &crate::route::VaultView,
    entries: &[crate::route::Checked],
    replaces: &[Option<String>],
    date: Date,
) -> Result<Vec<crate::route::RouteResult>> {
    crate::cas::edit(vault, |v| {
        plan_routes_replacing(v, cfg, view, entries, replaces, date)
    })
}
