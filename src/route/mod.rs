//! `route`: persists follow-ups into durable sources (SPEC §8). Every entry
//! is validated before anything is written; writes happen under the lock,
//! insert lines without touching any other byte, and are idempotent.

mod insert;
mod target;

pub use insert::{Insertion, eol_of};
pub use target::{journal_file_for, safe_target};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::item::is_slug;
use crate::merge::{Key, similar};
use crate::normalize::normalize;
use crate::parse::{
    HeadingMatcher, ParsedDoc, Role, SessionProject, parse_document, session_project,
};
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where a follow-up goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Dest {
    Journal,
    Project,
    Active,
    Skip,
    Goal,
}

/// One entry of `route --from` (or the single-entry command line form).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteEntry {
    pub text: String,
    pub to: Dest,
    #[serde(default)]
    pub project: Option<String>,
    #[serde(default)]
    pub task: Option<String>,
    /// Journal date (YYYY-MM-DD) for journal, skip and goal; default `--date` or today.
    #[serde(default)]
    pub date: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Added,
    AlreadyPresent,
}

#[derive(Debug, Clone, Serialize)]
pub struct RouteResult {
    pub text: String,
    pub to: Dest,
    pub path: String,
    pub line: u32,
    pub status: Status,
    /// Lines inserted by this entry: (first line, count). Earlier results in
    /// the same file at or after that line move down by the count.
    #[serde(skip)]
    pub shift: Option<(u32, u32)>,
}

/// Keeps the line numbers of a batch's results true after later entries
/// inserted lines above them in the same file.
pub fn settle_lines(results: &mut [RouteResult]) {
    for i in 0..results.len() {
        let Some((first, count)) = results[i].shift else {
            continue;
        };
        let (earlier, rest) = results.split_at_mut(i);
        let path = &rest[0].path;
        for r in earlier
            .iter_mut()
            .filter(|r| &r.path == path && r.line >= first)
        {
            r.line += count;
        }
    }
}

/// A validated entry.
#[derive(Debug, Clone)]
pub struct Checked {
    pub text: String,
    pub to: Dest,
    pub project: Option<String>,
    pub task: Option<String>,
    pub date: Date,
}

fn bad(i: usize, total: usize, msg: String) -> Error {
    if total > 1 {
        Error::Data(format!("route entry {}: {msg}; nothing was written", i + 1))
    } else {
        Error::Data(format!("route: {msg}; nothing was written"))
    }
}

fn check_slug(what: &str, v: &str) -> std::result::Result<String, String> {
    if is_slug(v) {
        Ok(v.to_ascii_lowercase())
    } else {
        Err(format!(
            "{what} {v:?} is not a slug ([A-Za-z0-9][A-Za-z0-9._-]*: no `/`, `..`, spaces or absolute paths)"
        ))
    }
}

/// Validates every entry; the first problem refuses the whole batch.
pub fn validate(entries: &[RouteEntry], default_date: Date) -> Result<Vec<Checked>> {
    let total = entries.len();
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let text = e.text.trim();
            if text.is_empty() {
                return Err(bad(i, total, "text is empty".into()));
            }
            if text.contains(['\n', '\r']) {
                return Err(bad(
                    i,
                    total,
                    "text spans several lines; route one line per entry".into(),
                ));
            }
            let project = e
                .project
                .as_deref()
                .map(|p| check_slug("project", p))
                .transpose()
                .map_err(|m| bad(i, total, m))?;
            let task = e
                .task
                .as_deref()
                .map(|t| check_slug("task", t))
                .transpose()
                .map_err(|m| bad(i, total, m))?;
            if matches!(e.to, Dest::Project | Dest::Active) && project.is_none() {
                return Err(bad(
                    i,
                    total,
                    format!("--to {} needs a project", dest_name(e.to)),
                ));
            }
            if e.to == Dest::Active && task.is_none() {
                return Err(bad(i, total, "--to active needs a task".into()));
            }
            let date = match &e.date {
                Some(d) => d
                    .parse::<Date>()
                    .map_err(|err| bad(i, total, format!("date {d:?}: {err}")))?,
                None => default_date,
            };
            Ok(Checked {
                text: text.to_string(),
                to: e.to,
                project,
                task,
                date,
            })
        })
        .collect()
}

pub fn dest_name(d: Dest) -> &'static str {
    match d {
        Dest::Journal => "journal",
        Dest::Project => "project",
        Dest::Active => "active",
        Dest::Skip => "skip",
        Dest::Goal => "goal",
    }
}

/// The role, sub-heading and item line for a journal-type destination.
fn journal_shape(cfg: &Config, to: Dest) -> (Role, String) {
    let first = |l: &[String], d: &str| l.first().cloned().unwrap_or_else(|| d.to_string());
    match to {
        Dest::Skip => (
            Role::Skipped,
            first(&cfg.skipped_headings, "Skipped follow-ups"),
        ),
        Dest::Goal => (Role::Goal, first(&cfg.goal_headings, "Goal")),
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
        Dest::Active => None,
        Dest::Journal | Dest::Project => Some(Role::Next),
    };
    let norm = normalize(&crate::privacy::redact(&e.text));
    let q = Key::new(&norm);
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
        let en = normalize(&entry.text);
        (compatible && similar(&q, &Key::new(&en), threshold)).then_some(entry.line)
    })
}

/// Where an entry goes: its root-relative path, the checked absolute path,
/// the content of a new file, and the current content when the file exists.
struct Located {
    rel: String,
    path: std::path::PathBuf,
    fresh: String,
    original: Option<String>,
}

fn locate(root: &Path, cfg: &Config, e: &Checked) -> Result<Located> {
    let (rel, fresh) = match e.to {
        Dest::Journal | Dest::Skip | Dest::Goal => journal_file_for(root, cfg, e.date)?,
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
    };
    let path = safe_target(root, &rel)?;
    let original = match std::fs::read(&path) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| {
            Error::Data(format!(
                "{rel}: not valid UTF-8; refusing to route into it (it would be rewritten lossily); nothing was written"
            ))
        })?),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(Error::read(&path, err)),
    };
    Ok(Located {
        rel,
        path,
        fresh,
        original,
    })
}

/// Checks that every entry's destination can be written (inside the root,
/// not a symbolic link, valid UTF-8) before any of them is.
pub fn preflight(root: &Path, cfg: &Config, entries: &[Checked]) -> Result<()> {
    for e in entries {
        locate(root, cfg, e)?;
    }
    Ok(())
}

/// Routes one validated entry. Call with the lock held, after `preflight`.
pub fn apply(root: &Path, cfg: &Config, known: &[String], e: &Checked) -> Result<RouteResult> {
    let Located {
        rel,
        path,
        fresh,
        original,
    } = locate(root, cfg, e)?;
    let text = original.unwrap_or(fresh);
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text.as_str()),
    };
    let headings = HeadingMatcher::from_config(cfg);
    let doc = parse_document(body, &headings);
    let path_project = matches!(e.to, Dest::Project | Dest::Active);
    if let Some(line) = already_present(&doc, e, known, cfg.dedup_threshold, path_project) {
        return Ok(RouteResult {
            text: e.text.clone(),
            to: e.to,
            path: rel,
            line,
            status: Status::AlreadyPresent,
            shift: None,
        });
    }
    let ins = match e.to {
        Dest::Journal | Dest::Skip | Dest::Goal => {
            let (role, sub) = journal_shape(cfg, e.to);
            let line = match &e.project {
                Some(p) => format!("- ({p}) {}", e.text),
                None => format!("- {}", e.text),
            };
            insert::journal(body, &doc, known, e.project.as_deref(), role, &sub, &line)
        }
        Dest::Project => insert::project(body, &doc, &format!("- [ ] {}", e.text)),
        Dest::Active => insert::end_of_file(body, &format!("- [ ] {}", e.text)),
    };
    let new = format!("{bom}{}", ins.apply(body));
    crate::write::write_atomic(root, &path, new.as_bytes())?;
    Ok(RouteResult {
        text: e.text.clone(),
        to: e.to,
        path: rel,
        line: ins.line,
        status: Status::Added,
        shift: Some((ins.first_line, ins.added_lines)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(path: &str, line: u32, shift: Option<(u32, u32)>) -> RouteResult {
        RouteResult {
            text: "t".into(),
            to: Dest::Journal,
            path: path.into(),
            line,
            status: Status::Added,
            shift,
        }
    }

    #[test]
    fn later_insertions_above_move_earlier_results_down() {
        let mut r = vec![
            result("a.md", 19, Some((19, 1))),
            result("b.md", 30, Some((30, 1))),
            result("a.md", 10, Some((9, 3))),
        ];
        settle_lines(&mut r);
        assert_eq!(
            r.iter().map(|x| x.line).collect::<Vec<_>>(),
            vec![22, 30, 10]
        );
    }
}
