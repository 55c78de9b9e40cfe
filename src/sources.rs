//! Reading one source file and applying its kind's rules (docs/FORMAT.md §2
//! "What each source yields" and "Project of an item").

use crate::discover::{FileRole, SourceFile};
use crate::error::{Error, Result};
use crate::item::{
    ActiveTask, Goal, Item, Location, Signal, SkipRecord, SourceKind, UntaggedReason, Warning,
};
use crate::normalize::normalize;
use crate::parse::{
    HeadingMatcher, ParsedDoc, Role, SessionProject, parse_document, session_project,
};
use jiff::civil::Date;

/// Everything one file contributes.
#[derive(Debug, Default)]
pub struct FileScan {
    pub items: Vec<Item>,
    pub signals: Vec<Signal>,
    pub goals: Vec<Goal>,
    pub skips: Vec<SkipRecord>,
    pub active: Option<ActiveTask>,
    pub warnings: Vec<Warning>,
}

/// Reads a file as text: NUL bytes skip it (returns `None` with a warning),
/// invalid UTF-8 is decoded lossily with a warning, a BOM is dropped.
pub fn read_text(
    abs: &std::path::Path,
    rel: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Option<String>> {
    let bytes = std::fs::read(abs).map_err(|e| Error::read(abs, e))?;
    if memchr_nul(&bytes) {
        warnings.push(Warning::new(
            rel,
            "file contains NUL bytes (binary?); skipped",
        ));
        return Ok(None);
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            warnings.push(Warning::new(
                rel,
                "invalid UTF-8; decoded with replacement characters",
            ));
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    Ok(Some(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }))
}

fn memchr_nul(bytes: &[u8]) -> bool {
    bytes.contains(&0)
}

/// The `<!-- project: slug -->` marker of an inbox file (the first one).
fn inbox_project(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        let body = &rest[start + 4..];
        let end = body.find("-->")?;
        if let Some(slug) = body[..end].trim().strip_prefix("project:") {
            let slug = slug.trim();
            return crate::item::is_slug(slug).then(|| slug.to_ascii_lowercase());
        }
        rest = &body[end + 3..];
    }
    None
}

/// Reads and scans one file.
pub fn scan_file(
    file: &SourceFile,
    headings: &HeadingMatcher,
    known: &[String],
) -> Result<FileScan> {
    let mut scan = FileScan::default();
    let Some(text) = read_text(&file.abs, &file.rel, &mut scan.warnings)? else {
        return Ok(scan);
    };
    let doc = parse_document(&text, headings);
    let file_project = match &file.role {
        FileRole::Inbox { .. } => inbox_project(&text),
        _ => None,
    };
    apply_rules(file, &doc, known, file_project, &mut scan);
    Ok(scan)
}

fn apply_rules(
    file: &SourceFile,
    doc: &ParsedDoc,
    known: &[String],
    file_project: Option<String>,
    scan: &mut FileScan,
) {
    let sessions: Vec<SessionProject> = doc
        .sessions
        .iter()
        .map(|s| session_project(&s.text, known))
        .collect();
    let (kind, date, path_project) = match &file.role {
        FileRole::Journal { date } => (SourceKind::JournalNext, Some(*date), None),
        FileRole::Inbox { date } => (SourceKind::Captured, *date, None),
        FileRole::ProjectTodos { project } => {
            (SourceKind::ProjectTodos, None, Some(project.clone()))
        }
        FileRole::Progress { project } => (SourceKind::Progress, None, Some(project.clone())),
        FileRole::Active { project, .. } => (SourceKind::ActiveTodos, None, Some(project.clone())),
    };
    let (mut open_count, mut done_count) = (0, 0);
    for entry in &doc.entries {
        let (project, untagged) = match (&entry.tag, &path_project) {
            (Some(tag), _) => (Some(tag.clone()), None),
            (None, Some(p)) => (Some(p.clone()), None),
            (None, None) => match entry.session.map(|i| &sessions[i]) {
                Some(SessionProject::Project(p)) => (Some(p.clone()), None),
                Some(SessionProject::Ambiguous) => {
                    (file_project.clone(), Some(UntaggedReason::AmbiguousSession))
                }
                Some(SessionProject::NoProject) => (
                    file_project.clone(),
                    Some(UntaggedReason::SessionWithoutProject),
                ),
                None => (file_project.clone(), Some(UntaggedReason::NoSession)),
            },
        };
        let untagged = if project.is_some() { None } else { untagged };
        let done = entry.check.is_done();
        let loc = Location {
            path: file.rel.clone(),
            line: entry.line,
        };
        let collects = match kind {
            SourceKind::ActiveTodos => entry.check.has_box(),
            _ => entry.role == Some(Role::Next),
        };
        let resolves = match kind {
            // A skip record closes the follow-up it names, like a done entry
            // (`cancel` writes one for items without a checkbox).
            SourceKind::JournalNext => {
                (entry.role == Some(Role::Next) && done)
                    || matches!(entry.role, Some(Role::Done | Role::Skipped))
            }
            SourceKind::ActiveTodos => entry.check.has_box() && done,
            _ => done,
        };
        if kind == SourceKind::ActiveTodos && entry.check.has_box() {
            if done {
                done_count += 1;
            } else {
                open_count += 1;
            }
        }
        if resolves {
            scan.signals.push(Signal {
                norm: normalize(&entry.text),
                project: project.clone(),
                date,
                loc: loc.clone(),
            });
        } else if collects && !done {
            scan.items.push(Item {
                norm: normalize(&entry.text),
                text: entry.text.clone(),
                project: project.clone(),
                kind,
                loc: loc.clone(),
                date,
                untagged,
                meta: entry.meta.clone(),
            });
        }
        if kind == SourceKind::JournalNext {
            journal_extras(entry.role, done, &entry.text, &project, date, loc, scan);
        }
    }
    if let FileRole::Active { project, task } = &file.role {
        scan.active = Some(ActiveTask {
            project: project.clone(),
            task: task.clone(),
            path: file.rel.clone(),
            open: open_count,
            done: done_count,
        });
    }
}

fn journal_extras(
    role: Option<Role>,
    done: bool,
    text: &str,
    project: &Option<String>,
    date: Option<Date>,
    loc: Location,
    scan: &mut FileScan,
) {
    match role {
        Some(Role::Goal) => scan.goals.push(Goal {
            project: project.clone(),
            text: text.to_string(),
            date,
            path: loc.path,
            line: loc.line,
            done,
        }),
        Some(Role::Skipped) => scan.skips.push(SkipRecord {
            text: text.to_string(),
            project: project.clone(),
            date,
            loc,
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inbox_marker() {
        assert_eq!(
            inbox_project("x\n<!-- project: Wrap-CLI -->\n"),
            Some("wrap-cli".into())
        );
        assert_eq!(inbox_project("<!-- other -->"), None);
        assert_eq!(
            inbox_project("<!-- a -->\n<!-- project: kb -->"),
            Some("kb".into())
        );
        assert_eq!(inbox_project("none"), None);
    }
}
