//! Acting on one open item without opening its files: `done`, `cancel` and
//! `defer`. Every open member of the item's cluster is edited in place
//! (byte-preserving, each edit parsed back before anything is written) and
//! the edits go through route's plan, so they are written the same way as
//! routes, under the same lock.
//!
//! - done: a checkbox becomes `[x]` (plus ` ✅ DATE` when the file already
//!   uses Tasks metadata); a member without a checkbox gets a Done entry in
//!   the journal of DATE under the item's project session (it resolves the
//!   item by the dated rule).
//! - cancel: `[-]` (plus ` ❌ DATE` with Tasks metadata), or a Skipped entry.
//! - defer: a start date, `🛫 DATE` (Dataview `[start:: DATE]` when the file
//!   uses Dataview fields), set on every member.

mod line;
mod replace;

pub(crate) use line::{MetaStyle, style_of};
pub(crate) use replace::route_replacing;

use crate::cas::Change as FileChange;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::merge::Merged;
use crate::normalize::key;
use crate::parse::{Check, HeadingMatcher, ParsedDoc, parse_document};
use crate::route::{Dest, Plan, RouteEntry, Status, validate};
use crate::vault_fs::VaultDir;
use jiff::civil::Date;
use serde::Serialize;

/// What to do with the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Done,
    Cancel,
    Defer { until: Date },
}

impl Action {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Action::Done => "done",
            Action::Cancel => "cancel",
            Action::Defer { .. } => "defer",
        }
    }
}

/// The warning for a deferral date that is not after today (a mistyped
/// year, a stale script): the start date is written all the same.
pub(crate) fn past_until(until: Date, today: Date) -> Option<String> {
    (until <= today).then(|| {
        format!(
            "deferred until {until}, which is not after today ({today}); was a later date meant?"
        )
    })
}

/// One change made (or, with a dry run, to be made).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct Change {
    pub path: String,
    pub line: u32,
    /// `ticked`, `cancelled`, `start_date`, `done_entry`, `skip_entry`, or
    /// `already_present` for an entry that was there already.
    pub change: &'static str,
}

/// The outcome of `done`, `cancel` or `defer` (`--format json`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Acted {
    pub schema: u32,
    pub action: &'static str,
    pub id: String,
    pub text: String,
    pub project: Option<String>,
    /// The deferral date (`defer` only).
    pub until: Option<Date>,
    pub changes: Vec<Change>,
    /// False with `--dry-run`.
    pub written: bool,
}

fn body_of(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

pub(crate) fn refuse(path: &str, line: u32, why: impl Into<String>) -> Error {
    Error::EditRefused {
        path: path.to_string(),
        line,
        why: why.into(),
    }
}

/// The open entry starting on `line` of `doc`, checked to still be the item.
fn entry_at<'d>(
    doc: &'d ParsedDoc,
    line: u32,
    norm: &str,
    path: &str,
) -> Result<&'d crate::parse::Entry> {
    doc.entries
        .iter()
        .find(|e| e.line == line && !e.check.is_done() && key(&e.text) == norm)
        .ok_or_else(|| {
            refuse(
                path,
                line,
                "the item is no longer on this line (the file changed?); run the command again",
            )
        })
}

/// Plans the action on the open cluster `cluster` of `merged`. `date` is
/// the day written into Done/Skipped entries and ✅/❌ fields.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare(
    vault: &VaultDir,
    cfg: &Config,
    known: &[String],
    merged: &Merged,
    ids: &[String],
    cluster: usize,
    action: Action,
    date: Date,
) -> Result<(Acted, Vec<FileChange>)> {
    let headings = HeadingMatcher::from_config(cfg);
    let c = &merged.clusters[cluster];
    let rep = &merged.items[c.members[0]];
    let mut plan = Plan::default();
    let mut changes = Vec::new();
    let mut needs_entry = false;
    for &m in &c.members {
        let item = &merged.items[m];
        match edit_member(&mut plan, vault, &headings, item, action, date)? {
            Some(what) => changes.push(Change {
                path: item.loc.path.to_string(),
                line: item.loc.line,
                change: what,
            }),
            None => needs_entry = true,
        }
    }
    // A ticked capture is triaged, not done (docs/FORMAT.md §2.3): an item
    // found only in the inbox is closed by a journal entry as well.
    let only_captured = c
        .members
        .iter()
        .all(|&m| merged.items[m].kind == crate::item::SourceKind::Captured);
    if only_captured && matches!(action, Action::Done | Action::Cancel) {
        needs_entry = true;
    }
    if needs_entry {
        let to = if action == Action::Done {
            Dest::Done
        } else {
            Dest::Skip
        };
        let entry = RouteEntry {
            replaces: None,
            text: rep.text.clone(),
            to,
            project: c.project.clone(),
            task: None,
            date: None,
        };
        let checked = validate(&[entry], date)?;
        let r = plan.add(vault, cfg, known, &checked[0])?;
        changes.push(Change {
            path: r.path,
            line: r.line,
            change: match (r.status, to) {
                (Status::AlreadyPresent, _) => "already_present",
                (_, Dest::Done) => "done_entry",
                _ => "skip_entry",
            },
        });
    }
    Ok((
        Acted {
            schema: 1,
            action: action.name(),
            id: ids[cluster].clone(),
            text: rep.text.clone(),
            project: c.project.clone(),
            until: match action {
                Action::Defer { until } => Some(until),
                _ => None,
            },
            changes,
            written: false,
        },
        plan.into_changes(),
    ))
}

/// Edits one open member of a cluster in `plan`: the checkbox (done,
/// cancel) or the start date (defer). Returns the change made, or `None`
/// for a done/cancel of an item without a checkbox (it needs a journal entry).
pub(crate) fn edit_member(
    plan: &mut Plan,
    vault: &VaultDir,
    headings: &HeadingMatcher,
    item: &crate::item::Item,
    action: Action,
    date: Date,
) -> Result<Option<&'static str>> {
    let rel = item.loc.path.to_string();
    let line = item.loc.line;
    let mut change = None;
    let mut needs_entry = false;
    plan.edit(vault, &rel, |snap, text| {
        if snap.mode & 0o222 == 0 {
            return Err(Error::ReadOnly { path: rel.clone() });
        }
        let doc = parse_document(body_of(text), headings);
        let entry = entry_at(&doc, line, &item.norm, &rel)?;
        // The item's own line decides first, then the file.
        let own = text
            .lines()
            .nth((line as usize).saturating_sub(1))
            .unwrap_or_default();
        let style = style_of(own).or_else(|| style_of(text));
        let edited = match action {
            Action::Done | Action::Cancel if !entry.check.has_box() => {
                needs_entry = true;
                return Ok(text.to_string());
            }
            Action::Done | Action::Cancel => {
                let (mark, emoji, key, what) = if action == Action::Done {
                    ('x', "✅", "completion", "ticked")
                } else {
                    ('-', "❌", "cancelled", "cancelled")
                };
                change = Some(what);
                let ticked = line::set_mark(text, line, mark)
                    .ok_or_else(|| refuse(&rel, line, "no checkbox found on the line"))?;
                match style {
                    Some(MetaStyle::Tasks) => {
                        line::set_date_field(&ticked, line, MetaStyle::Tasks, emoji, key, date)
                            .ok_or_else(|| refuse(&rel, line, "cannot add the date"))?
                    }
                    _ => ticked,
                }
            }
            Action::Defer { until } => {
                change = Some("start_date");
                let style = style.unwrap_or(MetaStyle::Tasks);
                line::set_date_field(text, line, style, "🛫", "start", until)
                    .ok_or_else(|| refuse(&rel, line, "cannot add the start date"))?
            }
        };
        check_edit(&edited, headings, line, &item.norm, action, &rel)?;
        Ok(edited)
    })?;
    Ok(if needs_entry { None } else { change })
}

/// The edited line must parse back as the same item, now done, cancelled
/// or deferred; otherwise the edit would not do what it says.
fn check_edit(
    text: &str,
    headings: &HeadingMatcher,
    line: u32,
    norm: &str,
    action: Action,
    rel: &str,
) -> Result<()> {
    let doc = parse_document(body_of(text), headings);
    let ok = doc.entries.iter().any(|e| {
        e.line == line
            && key(&e.text) == norm
            && match action {
                Action::Done => e.check == Check::Done,
                Action::Cancel => e.check == Check::Cancelled,
                Action::Defer { until } => {
                    !e.check.is_done() && e.meta.as_ref().and_then(|m| m.start) == Some(until)
                }
            }
    });
    if ok {
        Ok(())
    } else {
        Err(refuse(
            rel,
            line,
            "the edited line would not read back as intended",
        ))
    }
}

/// A unified diff of planned file changes.
pub(crate) fn diff(changes: &[FileChange]) -> String {
    let mut out = String::new();
    for c in changes {
        let old = c
            .before
            .as_ref()
            .map(|b| String::from_utf8_lossy(&b.bytes).into_owned())
            .unwrap_or_default();
        let new = String::from_utf8_lossy(&c.after);
        if old == new {
            continue;
        }
        // Like every other output: private spans redacted, over each whole
        // file (a span may run across lines; line breaks are kept).
        let old = crate::privacy::redact(&old);
        let new = crate::privacy::redact(&new);
        let diff = similar::TextDiff::from_lines(&*old, &*new);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(2)
                .header(&format!("a/{}", c.rel), &format!("b/{}", c.rel))
                .to_string(),
        );
    }
    out
}

/// Looks the item up and plans the action from fresh reads: the whole step
/// `done`, `cancel` and `defer` share.
pub(crate) fn plan_action(
    vault: &VaultDir,
    cfg: &Config,
    query: &str,
    action: Action,
    date: Date,
) -> Result<(Acted, Vec<FileChange>)> {
    let analysis = crate::pipeline::analyze(vault.root(), cfg)?;
    let merged = &analysis.merged;
    let cluster = crate::find::find_open(merged, query, cfg.dedup_threshold)?;
    let ids = crate::find::ids(merged);
    prepare(
        vault,
        cfg,
        &analysis.vault.projects,
        merged,
        &ids,
        cluster,
        action,
        date,
    )
}

/// Plans and writes the action compare-and-swap ([`crate::cas::edit`]):
/// planned again from fresh reads when a file changes meanwhile. Call with
/// the lock held.
pub(crate) fn run_action(
    vault: &VaultDir,
    cfg: &Config,
    query: &str,
    action: Action,
    date: Date,
) -> Result<Acted> {
    let mut acted = crate::cas::edit(vault, |v| plan_action(v, cfg, query, action, date))?;
    acted.written = true;
    Ok(acted)
}

/// One line per change, for the text output.
pub(crate) fn text(a: &Acted) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let verb = match (a.action, a.written) {
        (_, false) => format!("{} (dry run)", a.action),
        ("done", _) => "done".into(),
        ("cancel", _) => "cancelled".into(),
        _ => "deferred".into(),
    };
    let until = a.until.map_or(String::new(), |d| format!(" until {d}"));
    let _ = writeln!(
        o,
        "{verb}{until}: {} [{}] {}",
        a.id,
        a.project.as_deref().unwrap_or("untagged"),
        crate::output::escape_controls(&a.text)
    );
    for c in &a.changes {
        let _ = writeln!(o, "  {} {}:{}", c.change.replace('_', " "), c.path, c.line);
    }
    o
}
