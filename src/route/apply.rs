//! Carrying out routes: every entry is planned in memory first (files read
//! once, insertions applied in order, each inserted line parsed back to make
//! sure it became the open item it should be), then the changed files are
//! written atomically. A batch is refused whole before anything is written.

use super::insert;
use super::target::VaultView;
use super::{Checked, Dest, RouteResult, Status};
use crate::cas::Change;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::merge::{Key, similar};
use crate::normalize::normalize;
use crate::parse::{
    HeadingMatcher, ParsedDoc, Role, SessionProject, parse_document, session_project,
};
use crate::vault_fs::{Snapshot, VaultDir};
use std::collections::BTreeMap;
use std::path::Path;

/// The role, sub-heading and item line for a journal-type destination.
fn journal_shape(cfg: &Config, to: Dest) -> (Role, String) {
    let first = |l: &[String], d: &str| l.first().cloned().unwrap_or_else(|| d.to_string());
    match to {
        Dest::Skip => (
            Role::Skipped,
            first(&cfg.skipped_headings, "Skipped follow-ups"),
        ),
        Dest::Goal => (Role::Goal, first(&cfg.goal_headings, "Goal")),
        Dest::Done => (Role::Done, first(&cfg.done_headings, "Done")),
        _ => (Role::Next, first(&cfg.next_headings, "Next")),
    }
}

/// Whether `doc` already holds an open item matching `e` where it would go.
fn already_present(
    doc: &ParsedDoc,
    e: &Checked,
    known: &[String],
    threshold: f64,
    path_project: bool,
) -> Option<u32> {
    let role = match e.to {
        Dest::Skip => Some(Role::Skipped),
        Dest::Goal => Some(Role::Goal),
        Dest::Done => Some(Role::Done),
        Dest::Active => None,
        Dest::Journal | Dest::Project => Some(Role::Next),
    };
    let norm = crate::normalize::key(&e.text);
    let q = Key::with_private(&norm, crate::guards::private_mark(&e.text));
    doc.entries.iter().find_map(|entry| {
        let in_place = match role {
            Some(r) => entry.role == Some(r),
            None => entry.check.has_box(),
        };
        if !in_place || entry.check.is_done() {
            return None;
        }
        let project = if path_project {
            e.project.clone()
        } else {
            entry.tag.clone().or_else(|| {
                match entry
                    .session
                    .map(|i| session_project(&doc.sessions[i].text, known))
                {
                    Some(SessionProject::Project(p)) => Some(p),
                    _ => None,
                }
            })
        };
        let compatible = match (&project, &e.project) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let en = crate::normalize::key(&entry.text);
        (compatible && similar(&q, &Key::with_private(&en, entry.private), threshold))
            .then_some(entry.line)
    })
}

/// Where an entry goes: its root-relative path and the content of a new
/// file there. Reads nothing: the view holds what the vault looks like.
fn destination(cfg: &Config, view: &VaultView, e: &Checked) -> (String, String) {
    match e.to {
        Dest::Journal | Dest::Skip | Dest::Goal | Dest::Done => view.journal_file_for(cfg, e.date),
        Dest::Project => {
            let p = e.project.as_deref().unwrap_or_default();
            let rel = format!("{}/{p}/{}", cfg.projects_dir, cfg.project_todos);
            (rel, format!("# {p}\n"))
        }
        Dest::Active => {
            let p = e.project.as_deref().unwrap_or_default();
            let t = e.task.as_deref().unwrap_or_default();
            let rel = format!(
                "{}/{p}/{}/{t}/{}",
                cfg.projects_dir, cfg.actives_dir, cfg.project_todos
            );
            (rel, format!("# {t}\n"))
        }
    }
}

/// The file `rel` as read through the vault handle (`None`: it does not exist).
fn read_text(vault: &VaultDir, rel: &str) -> Result<Option<(Snapshot, String)>> {
    match vault.snapshot(rel)? {
        Some(snap) => {
            let text = String::from_utf8(snap.bytes.clone()).map_err(|_| Error::NotUtf8 {
                path: rel.to_string(),
            })?;
            // Bare `\r` line ends are planned on as `\n`, as the scanner
            // reads them; [`Plan::into_changes`] puts them back.
            let text = if super::line_ends::has_bare_cr(&text) {
                super::line_ends::as_lines(&text)
            } else {
                text
            };
            Ok(Some((snap, text)))
        }
        None => Ok(None),
    }
}

/// Files as they will be after the planned routes: root-relative path →
/// (the file as read, its planned content). The vault is discovered once,
/// by the first entry that needs it, and each file is read once.
#[derive(Debug, Default)]
pub struct Plan {
    files: BTreeMap<String, (Option<Snapshot>, String)>,
    view: Option<VaultView>,
}

impl Plan {
    /// A plan over a vault already discovered.
    pub fn with_view(view: VaultView) -> Plan {
        Plan {
            files: BTreeMap::new(),
            view: Some(view),
        }
    }

    /// Plans one entry on top of the entries planned before it.
    pub fn add(
        &mut self,
        vault: &VaultDir,
        cfg: &Config,
        known: &[String],
        e: &Checked,
    ) -> Result<RouteResult> {
        let view = match self.view.take() {
            Some(v) => v,
            None => VaultView::discover(vault.root(), cfg)?,
        };
        let (rel, fresh) = destination(cfg, &view, e);
        self.view = Some(view);
        let (before, text) = match self.files.get(&rel) {
            Some((before, content)) => (before.clone(), content.clone()),
            None => match read_text(vault, &rel)? {
                Some((snap, text)) => (Some(snap), text),
                None => (None, fresh),
            },
        };
        let (bom, body) = match text.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest),
            None => ("", text.as_str()),
        };
        let headings = HeadingMatcher::from_config(cfg);
        let doc = parse_document(body, &headings);
        let path_project = matches!(e.to, Dest::Project | Dest::Active);
        if let Some(line) = already_present(&doc, e, known, cfg.dedup_threshold, path_project) {
            return Ok(RouteResult {
                replaced: Vec::new(),
                text: e.text.clone(),
                to: e.to,
                path: rel,
                line,
                status: Status::AlreadyPresent,
                shift: None,
            });
        }
        let ins = match e.to {
            Dest::Journal | Dest::Skip | Dest::Goal | Dest::Done => {
                let (role, sub) = journal_shape(cfg, e.to);
                // The session section names the project, so the line needs
                // no `(project)` tag of its own.
                let line = format!("- {}", e.text);
                insert::journal(body, &doc, known, e.project.as_deref(), role, &sub, &line)
            }
            Dest::Project => insert::project(body, &doc, &format!("- [ ] {}", e.text)),
            Dest::Active => insert::task_list(body, &doc, &format!("- [ ] {}", e.text)),
        };
        let new_body = ins.apply(body);
        verify(&new_body, &headings, ins.line, e, &rel)?;
        self.files
            .insert(rel.clone(), (before, format!("{bom}{new_body}")));
        Ok(RouteResult {
            replaced: Vec::new(),
            text: e.text.clone(),
            to: e.to,
            path: rel,
            line: ins.line,
            status: Status::Added,
            shift: Some((ins.first_line, ins.added_lines)),
        })
    }

    /// Replaces the planned content of the existing file `rel` (read
    /// through the vault handle the first time) with what `edit` makes of
    /// it, given the file's snapshot: the in-place edits of `done`, `cancel`
    /// and `defer`, written with routes through [`crate::cas::edit`].
    pub fn edit(
        &mut self,
        vault: &VaultDir,
        rel: &str,
        edit: impl FnOnce(&Snapshot, &str) -> Result<String>,
    ) -> Result<()> {
        let (snap, text) = match self.files.get(rel) {
            Some((Some(snap), content)) => (snap.clone(), content.clone()),
            _ => read_text(vault, rel)?.ok_or_else(|| {
                Error::read(
                    vault.display(rel),
                    std::io::Error::from(std::io::ErrorKind::NotFound),
                )
            })?,
        };
        let new = edit(&snap, &text)?;
        self.files.insert(rel.to_string(), (Some(snap), new));
        Ok(())
    }

    /// The file changes this plan makes, for [`crate::cas::edit`].
    pub fn into_changes(self) -> Vec<Change> {
        self.files
            .into_iter()
            .map(|(rel, (before, content))| {
                let original = before
                    .as_ref()
                    .and_then(|b| std::str::from_utf8(&b.bytes).ok())
                    .filter(|t| super::line_ends::has_bare_cr(t));
                let after = match original {
                    Some(original) => super::line_ends::restore(original, &content),
                    None => content,
                };
                Change {
                    rel,
                    before,
                    after: after.into_bytes(),
                }
            })
            .collect()
    }
}

/// The routed line must parse back as an open item at `line` with the routed
/// text, in the kind of section it was routed to; otherwise (an unclosed code fence or HTML comment before it, a
/// setext heading swallowing it) routing it would not persist it.
fn verify(
    new_body: &str,
    headings: &HeadingMatcher,
    line: u32,
    e: &Checked,
    rel: &str,
) -> Result<()> {
    let doc = parse_document(new_body, headings);
    let want = normalize(&crate::task_meta::parse_task_meta(&crate::privacy::redact(&e.text)).0);
    let role = match e.to {
        Dest::Skip => Some(Role::Skipped),
        Dest::Goal => Some(Role::Goal),
        Dest::Done => Some(Role::Done),
        Dest::Active => None,
        Dest::Journal | Dest::Project => Some(Role::Next),
    };
    let found = doc.entries.iter().any(|en| {
        en.line == line
            && !en.check.is_done()
            && role.is_none_or(|r| en.role == Some(r))
            && normalize(&en.text) == want
    });
    if found {
        Ok(())
    } else {
        Err(Error::WouldNotParseBack {
            path: rel.to_string(),
            line,
        })
    }
}

/// Plans every entry (in order) from fresh reads and returns the results
/// with the file changes; one refused entry refuses the whole batch.
pub fn plan_batch(
    vault: &VaultDir,
    cfg: &Config,
    view: &VaultView,
    entries: &[Checked],
) -> Result<(Vec<RouteResult>, Vec<Change>)> {
    // Nothing is written before every entry is planned, so a refused entry
    // (a link out of the vault, a file that is not UTF-8) refuses the batch.
    let mut plan = Plan::with_view(view.clone());
    let mut results = entries
        .iter()
        .map(|e| plan.add(vault, cfg, &view.projects, e))
        .collect::<Result<Vec<RouteResult>>>()?;
    super::settle_lines(&mut results);
    Ok((results, plan.into_changes()))
}

/// Routes a batch and writes it compare-and-swap ([`crate::cas::edit`]):
/// planned again from fresh reads when a destination changes meanwhile;
/// written whole or not at all. Call with the lock held.
pub fn route_batch(
    vault: &VaultDir,
    cfg: &Config,
    view: &VaultView,
    entries: &[Checked],
) -> Result<Vec<RouteResult>> {
    crate::cas::edit(vault, |v| plan_batch(v, cfg, view, entries))
}

/// Routes one validated entry and writes it. Call with the lock held.
pub fn apply(root: &Path, cfg: &Config, known: &[String], e: &Checked) -> Result<RouteResult> {
    let vault = VaultDir::open(root)?;
    let view = VaultView {
        projects: known.to_vec(),
        ..VaultView::discover(root, cfg)?
    };
    let mut results = route_batch(&vault, cfg, &view, std::slice::from_ref(e))?;
    Ok(results.remove(0))
}
