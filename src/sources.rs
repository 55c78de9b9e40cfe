//! Reading one source file and applying its kind's rules (docs/FORMAT.md §2
//! "What each source yields" and "Project of an item").

use crate::discover::{FileRole, SourceFile};
use crate::error::{Error, Result};
use crate::item::{
    ActiveTask, Goal, Item, ItemStatus, Location, Signal, SkipRecord, SourceKind, UntaggedReason,
    Warning,
};
use crate::parse::{
    Check, HeadingMatcher, ParsedDoc, Role, SessionProject, parse_document, session_project_in,
};
use crate::vault_fs::VaultDir;
use jiff::civil::Date;
use std::sync::Arc;

/// Everything one file contributes (serialisable: the cache keeps it per
/// file, src/cache/files.rs).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct FileScan {
    pub items: Vec<Item>,
    pub signals: Vec<Signal>,
    #[serde(with = "goals")]
    pub goals: Vec<Goal>,
    pub skips: Vec<SkipRecord>,
    pub active: Option<ActiveTask>,
    pub warnings: Vec<Warning>,
    /// Items with a decoration mark (`[i]`, `["]` …) where items are collected.
    pub non_task: usize,
    /// The file was read whole (no next section: every open task collected).
    pub read_whole: bool,
    /// The file's front matter excludes it (`active_status: exclude`).
    pub excluded: bool,
}

impl crate::cache::PerFile for FileScan {
    fn all_paths(&self, rel: &str) -> bool {
        self.items.iter().all(|i| *i.loc.path == *rel)
            && self.signals.iter().all(|s| *s.loc.path == *rel)
            && self.skips.iter().all(|s| *s.loc.path == *rel)
            && self.goals.iter().all(|g| *g.path == *rel)
            && self.active.iter().all(|a| *a.path == *rel)
            && self.warnings.iter().all(|w| w.path == rel)
    }

    fn set_paths(&mut self, rel: &Arc<str>) {
        self.items.iter_mut().for_each(|i| i.loc.path = rel.clone());
        self.signals
            .iter_mut()
            .for_each(|s| s.loc.path = rel.clone());
        self.skips.iter_mut().for_each(|s| s.loc.path = rel.clone());
        self.goals.iter_mut().for_each(|g| g.path = rel.clone());
        self.active.iter_mut().for_each(|a| a.path = rel.clone());
        self.warnings
            .iter_mut()
            .for_each(|w| w.path = rel.to_string());
    }
}

/// Serialises a file's goals with their `done` flag (which the report's
/// JSON leaves out).
mod goals {
    use crate::item::Goal;
    use jiff::civil::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    #[derive(Serialize, Deserialize)]
    struct Wire {
        project: Option<String>,
        text: String,
        date: Option<Date>,
        path: Arc<str>,
        line: u32,
        done: bool,
    }

    pub(crate) fn serialize<S: Serializer>(goals: &[Goal], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(goals.iter().map(|g| Wire {
            project: g.project.clone(),
            text: g.text.clone(),
            date: g.date,
            path: g.path.clone(),
            line: g.line,
            done: g.done,
        }))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Goal>, D::Error> {
        let wires = Vec::<Wire>::deserialize(d)?;
        Ok(wires
            .into_iter()
            .map(|w| Goal {
                project: w.project,
                text: w.text,
                date: w.date,
                path: w.path,
                line: w.line,
                done: w.done,
            })
            .collect())
    }
}

/// A leading tag written in lower case names its project whether or not a
/// folder for it exists (git keeps no empty folder, so a fresh clone must
/// read the tag the same way): at least two characters, a letter among
/// them, not ending in `.` (`(e.g.)`). A tag with capitals (`(WIP)`, `(A)`)
/// names a project only when the project is known.
fn is_lower_tag(raw: &str) -> bool {
    raw.len() >= 2
        && !raw.ends_with('.')
        && raw.bytes().any(|b| b.is_ascii_lowercase())
        && !raw.bytes().any(|b| b.is_ascii_uppercase())
}

/// Reads a file as text: NUL bytes skip it (returns `None` with a warning),
/// invalid UTF-8 is decoded lossily with a warning, a BOM is dropped.
///
/// The file is read through the vault handle, so a symbolic link (or a link
/// swapped in after discovery) that leads outside the root is never read:
/// such a file is skipped with a warning, whatever `follow_symlinks` says.
/// `read` is what [`VaultDir::read`] returned for `rel`.
pub(crate) fn read_text(
    vault: &VaultDir,
    rel: &str,
    read: Result<Option<Vec<u8>>>,
    warnings: &mut Vec<Warning>,
) -> Result<Option<String>> {
    let bytes = match read {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Err(Error::read(
                vault.display(rel),
                std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        }
        Err(Error::OutsideVault { why, .. }) => {
            warnings.push(Warning::new(
                rel,
                format!("leads outside the vault ({why}); not read"),
            ));
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    if has_nul(&bytes) {
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
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    Ok(Some(lines_from_bare_cr(text)))
}

/// A file written with bare `\r` line ends (classic Mac) read as lines: each
/// `\r` not followed by `\n` becomes `\n`.
fn lines_from_bare_cr(text: String) -> String {
    let b = text.as_bytes();
    // A memchr: the common file has no `\r` at all.
    let bare = memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'));
    if !bare {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether the leading front matter opts the file out
/// (`active_status: exclude` or `todo_exclude: true`).
fn excluded_by_front_matter(text: &str) -> bool {
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return false;
    }
    for line in lines {
        let t = line.trim();
        if t == "---" || t == "..." {
            break;
        }
        if let Some((k, v)) = t.split_once(':') {
            let v = v.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
            match k.trim() {
                "active_status" if v == "exclude" => return true,
                "todo_exclude" if v == "true" => return true,
                _ => {}
            }
        }
    }
    false
}

/// Blanks git conflict marker lines (`<<<<<<<`, `=======`, `>>>>>>>`) so they
/// never become item text or setext headings; returns the 1-based lines.
fn blank_conflict_markers(text: &mut String) -> Vec<u32> {
    let b = text.as_bytes();
    if memchr::memmem::find(b, b"<<<<<<<").is_none()
        && memchr::memmem::find(b, b">>>>>>>").is_none()
    {
        return Vec::new();
    }
    let mut lines = Vec::new();
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        let marker = ["<<<<<<<", ">>>>>>>", "|||||||"]
            .iter()
            .any(|m| content.starts_with(m))
            || content == "=======";
        if marker {
            lines.push(i as u32 + 1);
            out.push_str(&line[content.len()..]);
        } else {
            out.push_str(line);
        }
    }
    *text = out;
    lines
}

/// Whether `bytes` hold a NUL (a binary file, skipped with a warning).
fn has_nul(bytes: &[u8]) -> bool {
    memchr::memchr(0, bytes).is_some()
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

/// `A`..`E` written as a todo.txt priority `(A)`.
fn todo_txt_priority(raw: &str) -> Option<crate::task_meta::Priority> {
    use crate::task_meta::Priority;
    match raw {
        "A" => Some(Priority::Highest),
        "B" => Some(Priority::High),
        "C" => Some(Priority::Medium),
        "D" => Some(Priority::Low),
        r if r.len() == 1 && r.as_bytes()[0].is_ascii_uppercase() => Some(Priority::Lowest),
        _ => None,
    }
}

/// Scans one file from what [`VaultDir::read`] returned for it (the cache
/// keeps a hash of the very bytes scanned).
pub(crate) fn scan_read(
    vault: &VaultDir,
    file: &SourceFile,
    read: Result<Option<Vec<u8>>>,
    headings: &HeadingMatcher,
    known: &[String],
) -> Result<FileScan> {
    let mut scan = FileScan::default();
    let Some(mut text) = read_text(vault, &file.rel, read, &mut scan.warnings)? else {
        return Ok(scan);
    };
    if excluded_by_front_matter(&text) {
        scan.excluded = true;
        return Ok(scan);
    }
    let conflicts = blank_conflict_markers(&mut text);
    if !conflicts.is_empty() {
        let lines: Vec<String> = conflicts.iter().map(u32::to_string).collect();
        scan.warnings.push(Warning::new(
            file.rel.to_string(),
            format!(
                "git conflict markers at lines {}; those lines were not read",
                lines.join(", ")
            ),
        ));
    }
    let doc = parse_document(&text, headings);
    let file_project = match &file.role {
        FileRole::Inbox { .. } => inbox_project(&text),
        FileRole::Journal { project, .. } => project.clone(),
        _ => None,
    };
    apply_rules(file, doc, known, file_project, &mut scan);
    Ok(scan)
}

/// `known` is the discovered project list (strictly sorted slugs), looked
/// up by binary search. The entries' texts move into the items and signals.
fn apply_rules(
    file: &SourceFile,
    doc: ParsedDoc,
    known: &[String],
    file_project: Option<String>,
    scan: &mut FileScan,
) {
    let sessions: Vec<SessionProject> = doc
        .sessions
        .iter()
        .map(|s| session_project_in(&s.text, known))
        .collect();
    let (kind, date, path_project) = match &file.role {
        FileRole::Journal { date, .. } => (SourceKind::JournalNext, Some(*date), None),
        FileRole::Inbox { date } => (SourceKind::Captured, *date, None),
        FileRole::ProjectTodos { project } => (SourceKind::ProjectTodos, None, Some(project)),
        FileRole::Progress { project } => (SourceKind::Progress, None, Some(project)),
        FileRole::Active { project, .. } => (SourceKind::ActiveTodos, None, Some(project)),
    };
    // A project todos.md / PROGRESS.md or a journal without a next section
    // (a bold lead-in or a heading item counts as one) is read whole.
    let has_next = doc.headings.iter().any(|h| h.role == Some(Role::Next))
        || doc.entries.iter().any(|e| e.role == Some(Role::Next));
    let whole = match kind {
        SourceKind::ProjectTodos | SourceKind::Progress | SourceKind::JournalNext => !has_next,
        SourceKind::Captured | SourceKind::ActiveTodos => false,
    };
    scan.read_whole = whole && !doc.entries.is_empty();
    // Known projects: project folders and slugs named by this file's sessions.
    let is_known = |tag: &str| {
        crate::parse::find_project(known, tag).is_some()
            || sessions
                .iter()
                .any(|s| matches!(s, SessionProject::Project(p) if p == tag))
    };
    let (mut open_count, mut done_count) = (0, 0);
    let mut shared = SharedProjects::default();
    for mut entry in doc.entries {
        // The box wins over the heading: an unticked item under a done
        // heading ("## Done — website copy") is open.
        if entry.role == Some(Role::Done)
            && matches!(
                entry.check,
                Check::Open | Check::InProgress | Check::Flagged
            )
        {
            entry.role = Some(Role::Next);
        }
        // A leading `(Tag)` naming no known project stays in the text.
        // A leading `(A)` (one capital letter) naming no project is a
        // todo.txt priority.
        let mut meta = entry.meta.take();
        let entry_text = std::mem::take(&mut entry.text);
        let (tag, text) = match (entry.tag.take(), &entry.tag_raw) {
            (Some(t), Some(raw)) if is_known(&t) || is_lower_tag(raw) => (Some(t), entry_text),
            (Some(t), None) if is_known(&t) => (Some(t), entry_text),
            (Some(_), Some(raw)) if todo_txt_priority(raw).is_some() => {
                meta.get_or_insert_default().priority = todo_txt_priority(raw);
                (None, entry_text)
            }
            (Some(_), Some(raw)) => (None, format!("({raw}) {entry_text}")),
            _ => (None, entry_text),
        };
        // A goal or skip record keeps the text too (journal_extras).
        let extras = kind == SourceKind::JournalNext
            && matches!(entry.role, Some(Role::Goal | Role::Skipped));
        let mut text = text;
        let own = |text: &mut String| {
            if extras {
                text.clone()
            } else {
                std::mem::take(text)
            }
        };
        let file_project = file_project.as_deref();
        let (project, untagged) = match (&tag, &path_project) {
            (Some(tag), _) => (Some(tag.as_str()), None),
            (None, Some(p)) => (Some(p.as_str()), None),
            (None, None) => match entry.session.map(|i| &sessions[i]) {
                Some(SessionProject::Project(p)) => (Some(p.as_str()), None),
                Some(SessionProject::Ambiguous) => {
                    (file_project, Some(UntaggedReason::AmbiguousSession))
                }
                Some(SessionProject::NoProject) => {
                    (file_project, Some(UntaggedReason::SessionWithoutProject))
                }
                None => (file_project, Some(UntaggedReason::NoSession)),
            },
        };
        let untagged = if project.is_some() { None } else { untagged };
        let project = project.map(|p| shared.get(p));
        let check = entry.check;
        let done = check.is_done();
        let loc = Location {
            path: file.rel.clone(),
            line: entry.line,
        };
        let outside_closed = !matches!(entry.role, Some(Role::Done | Role::Skipped | Role::Goal));
        // Where this source collects items (a decoration mark there is a
        // non-task, counted).
        let collecting_place = match kind {
            SourceKind::ActiveTodos => check.has_box(),
            _ if whole => outside_closed,
            _ => entry.role == Some(Role::Next),
        };
        let collects = collecting_place && (!whole || check.is_open_task());
        let resolves = match kind {
            // A skip record closes the follow-up it names, like a done entry
            // (`cancel` writes one for items without a checkbox); a journal
            // read whole also resolves with its done items anywhere.
            SourceKind::JournalNext => {
                ((entry.role == Some(Role::Next) || whole) && done)
                    || matches!(entry.role, Some(Role::Done | Role::Skipped))
            }
            SourceKind::ActiveTodos => done,
            // A ticked or cancelled capture was triaged (routed elsewhere, or
            // dropped): it leaves the inbox and closes nothing, or the item
            // it was routed as would be resolved by its own capture.
            SourceKind::Captured => false,
            _ => done,
        };
        if check == Check::NonTask {
            if collecting_place {
                scan.non_task += 1;
            }
            continue;
        }
        if kind == SourceKind::ActiveTodos && check.has_box() {
            if done {
                done_count += 1;
            } else {
                open_count += 1;
            }
        }
        if resolves {
            scan.signals.push(Signal {
                norm: crate::normalize::key(&text).into(),
                text: own(&mut text),
                private: entry.private,
                project: project.clone(),
                date,
                loc: loc.clone(),
            });
        } else if collects && !done {
            scan.items.push(Item {
                norm: crate::normalize::key(&text).into(),
                private: entry.private,
                text: own(&mut text),
                project: project.clone(),
                kind,
                loc: loc.clone(),
                date,
                untagged,
                meta,
                status: match check {
                    Check::InProgress => ItemStatus::InProgress,
                    Check::Flagged => ItemStatus::Flagged,
                    Check::Forwarded => ItemStatus::Forwarded,
                    _ => ItemStatus::Open,
                },
            });
        }
        if kind == SourceKind::JournalNext {
            journal_extras(entry.role, done, &text, &project, date, loc, scan);
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

/// One shared copy of each project name a file's items and signals carry
/// (a file names few projects: a list search).
#[derive(Default)]
struct SharedProjects(Vec<Arc<str>>);

impl SharedProjects {
    fn get(&mut self, project: &str) -> Arc<str> {
        if let Some(p) = self.0.iter().find(|p| &***p == project) {
            return p.clone();
        }
        let p: Arc<str> = project.into();
        self.0.push(p.clone());
        p
    }
}

fn journal_extras(
    role: Option<Role>,
    done: bool,
    text: &str,
    project: &Option<Arc<str>>,
    date: Option<Date>,
    loc: Location,
    scan: &mut FileScan,
) {
    match role {
        Some(Role::Goal) => scan.goals.push(Goal {
            project: project.as_deref().map(str::to_string),
            text: text.to_string(),
            date,
            path: loc.path,
            line: loc.line,
            done,
        }),
        Some(Role::Skipped) => scan.skips.push(SkipRecord {
            text: text.to_string(),
            project: project.as_deref().map(str::to_string),
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
