//! The compact session-start summary (`hook session-start`, the MCP `status`
//! tool): counts, goals and as many priorities as fit in a character budget.
//! When the session starts inside one project, that project's goal and open
//! items come first and the rest is one line of counts.
//!
//! The summary is made from a [`SummaryView`]: the few parts of the report it
//! reads, small enough to be kept in the cache (`result.bin`, docs/FORMAT.md
//! §12.1) so that a session starting on an unchanged vault needs no scan.

use crate::report::{Report, ReportItem};
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One open item as the summary shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ViewItem {
    pub id: String,
    pub project: Option<String>,
    pub text: String,
    pub path: String,
    pub line: u32,
}

impl ViewItem {
    fn of(i: &ReportItem) -> ViewItem {
        ViewItem {
            id: i.id.clone(),
            project: i.project.clone(),
            text: i.text.clone(),
            path: i.source.path.to_string(),
            line: i.source.line,
        }
    }
}

/// What [`summary`] reads of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SummaryView {
    pub output: String,
    pub as_of: Option<Date>,
    pub open: usize,
    pub shown: usize,
    pub overflow_count: usize,
    pub untagged: usize,
    pub lost: usize,
    pub warnings: usize,
    /// Goals: project and text.
    pub goals: Vec<(Option<String>, String)>,
    pub priorities: Vec<ViewItem>,
    pub overflow: Vec<ViewItem>,
    /// Open items in review (all of them counted).
    pub review_count: usize,
    /// The first [`REVIEW_KEPT`] review items: the item, its reason and its
    /// evidence.
    pub review: Vec<(ViewItem, String, String)>,
}

/// Review items a view keeps (the summary lists at most `review.max`).
const REVIEW_KEPT: usize = 50;

impl SummaryView {
    pub(crate) fn of(r: &Report) -> SummaryView {
        let a = &r.audit;
        SummaryView {
            output: r.output.clone(),
            as_of: r.as_of,
            open: a.open,
            shown: a.shown,
            overflow_count: a.overflow,
            untagged: a.untagged_warnings.len(),
            lost: a.potentially_lost.len(),
            warnings: a.warnings.len(),
            goals: r
                .goals
                .iter()
                .map(|g| (g.project.clone(), g.text.clone()))
                .collect(),
            priorities: r.priorities.iter().map(ViewItem::of).collect(),
            overflow: r.overflow.iter().map(ViewItem::of).collect(),
            review_count: r.review.len(),
            review: r
                .review
                .iter()
                .take(REVIEW_KEPT)
                .map(|i| {
                    (
                        ViewItem::of(&i.item),
                        i.reason.as_str().to_string(),
                        i.evidence.display(),
                    )
                })
                .collect(),
        }
    }
}

fn label(p: &Option<String>) -> &str {
    p.as_deref().unwrap_or("untagged")
}

/// Characters of an item's text the summary shows; a longer text is cut
/// and ends with `…`, so one long item never crowds out the others.
pub(crate) const TEXT_CHARS: usize = 200;

fn shortened(text: &str) -> String {
    if text.chars().count() <= TEXT_CHARS {
        return text.to_string();
    }
    let mut s: String = text.chars().take(TEXT_CHARS - 1).collect();
    s.push('…');
    s
}

fn item_line(n: usize, p: &ViewItem) -> String {
    format!(
        "{}. {} [{}] {} ({}:{})\n",
        n,
        p.id,
        label(&p.project),
        crate::output::escape_controls(&shortened(&p.text)),
        p.path,
        p.line
    )
}

/// The line that counts the items left out for want of room.
fn more_line(n: usize) -> String {
    format!("… {n} more (`active-status list` shows them all).\n")
}

/// A plain summary of at most `max` characters. With `focus`, that
/// project's goal and every open item of it (priorities, then overflow)
/// come first, then one line counting the other projects' open items.
pub(crate) fn summary(r: &Report, max: usize, review_max: usize, focus: Option<&str>) -> String {
    summary_of(&SummaryView::of(r), max, review_max, focus)
}

/// The `Review (N):` block that ends the summary: the first `review_max`
/// items (`ID reason – text – evidence`), the count of the rest, and the
/// one-word actions. Empty when nothing is in review.
fn review_block(r: &SummaryView, review_max: usize) -> String {
    if r.review_count == 0 {
        return String::new();
    }
    let mut o = format!("Review ({}):\n", r.review_count);
    let shown = r.review.iter().take(review_max);
    for (i, reason, evidence) in shown {
        o.push_str(&format!(
            "- {} {reason} – [{}] {} – {}\n",
            i.id,
            label(&i.project),
            crate::output::escape_controls(&i.text),
            crate::output::escape_controls(evidence)
        ));
    }
    let listed = r.review.len().min(review_max);
    if r.review_count > listed {
        o.push_str(&format!(
            "- and {} more (`active-status review`)\n",
            r.review_count - listed
        ));
    }
    o.push_str("Answer: keep ID | same ID ID | not-task ID | done ID | cancel ID (CLI, or the MCP tool `decide` in one batch).\n");
    o
}

/// [`summary`] from a report's [`SummaryView`].
pub(crate) fn summary_of(
    r: &SummaryView,
    max: usize,
    review_max: usize,
    focus: Option<&str>,
) -> String {
    let as_of = r.as_of.map_or("no dated notes".into(), |d| d.to_string());
    let mut head = format!(
        "{} (active-status, as of {as_of}): {} open, {} shown, {} overflow; {} untagged, {} potentially lost, {} warnings.\n",
        r.output, r.open, r.shown, r.overflow_count, r.untagged, r.lost, r.warnings
    );
    let in_focus = |p: &Option<String>| focus.is_some_and(|f| p.as_deref() == Some(f));
    let goals: Vec<_> = r
        .goals
        .iter()
        .filter(|g| focus.is_none() || in_focus(&g.0))
        .collect();
    if let Some(f) = focus {
        head.push_str(&format!(
            "Project {f} (this session's working directory):\n"
        ));
    }
    if !goals.is_empty() {
        head.push_str("Goals:\n");
        for (project, text) in goals {
            head.push_str(&format!(
                "- {}: {}\n",
                label(project),
                crate::output::escape_controls(text)
            ));
        }
    }
    let mut out = String::new();
    push_within(&mut out, &head, max);
    let items: Vec<&ViewItem> = match focus {
        None => r.priorities.iter().collect(),
        Some(_) => r
            .priorities
            .iter()
            .chain(&r.overflow)
            .filter(|i| in_focus(&i.project))
            .collect(),
    };
    // The count of the rest goes last but its room is kept.
    let mut rest = focus.map(|_| rest_line(r, &in_focus)).unwrap_or_default();
    rest.push_str(&review_block(r, review_max));
    let budget = max.saturating_sub(rest.chars().count());
    // Room is kept for the line counting what does not fit.
    let reserve = more_line(items.len()).chars().count();
    let mut shown = 0;
    for (n, p) in items.iter().enumerate() {
        let line = format!(
            "{}{}",
            if n == 0 { "Priorities:\n" } else { "" },
            item_line(n + 1, p)
        );
        let room = if n + 1 == items.len() {
            budget
        } else {
            budget.saturating_sub(reserve)
        };
        if out.is_empty() || !push_within(&mut out, &line, room) {
            break;
        }
        shown += 1;
    }
    if shown < items.len() && !out.is_empty() {
        push_within(&mut out, &more_line(items.len() - shown), budget);
    }
    push_within(&mut out, &rest, max);
    out.trim_end().to_string()
}

/// `Other projects: 7 open (infra 4, kb 2, untagged 1).`
fn rest_line(r: &SummaryView, in_focus: &dyn Fn(&Option<String>) -> bool) -> String {
    let mut counts: BTreeMap<(bool, Option<String>), usize> = BTreeMap::new();
    for i in r.priorities.iter().chain(&r.overflow) {
        if !in_focus(&i.project) {
            *counts
                .entry((i.project.is_none(), i.project.clone()))
                .or_default() += 1;
        }
    }
    let total: usize = counts.values().sum();
    if total == 0 {
        return "Other projects: nothing open.\n".into();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|((_, p), n)| format!("{} {n}", label(p)))
        .collect();
    format!("Other projects: {total} open ({}).\n", parts.join(", "))
}

/// Appends `s` when the result stays within `max` characters; a first piece
/// that does not fit is cut at a character boundary.
fn push_within(out: &mut String, s: &str, max: usize) -> bool {
    let used = out.chars().count();
    let len = s.chars().count();
    if used + len <= max {
        out.push_str(s);
        true
    } else {
        if out.is_empty() {
            out.extend(s.chars().take(max));
        }
        false
    }
}

/// The project a session working in `cwd` is about: `<projects>/<p>/` (or
/// below) inside the vault, or a folder listed in `projects.<p>.paths`.
/// Paths are compared after resolving symbolic links where they exist.
pub(crate) fn focus_of(
    root: &Path,
    projects_dir: &str,
    known: &[String],
    paths: &BTreeMap<String, Vec<String>>,
    cwd: &Path,
) -> Option<String> {
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let cwd = real(cwd);
    let projects = real(&root.join(projects_dir));
    if let Ok(rest) = cwd.strip_prefix(&projects)
        && let Some(first) = rest.components().next()
    {
        let name = first.as_os_str().to_string_lossy().to_ascii_lowercase();
        if let Some(k) = known.iter().find(|k| **k == name) {
            return Some(k.clone());
        }
    }
    // The longest configured path containing the working directory wins.
    paths
        .iter()
        .flat_map(|(p, dirs)| dirs.iter().map(move |d| (p, d)))
        .filter_map(|(p, d)| {
            let dir = real(&expand_home(d, root));
            cwd.starts_with(&dir)
                .then(|| (dir.components().count(), p.to_ascii_lowercase()))
        })
        .max()
        .map(|(_, p)| p)
}

/// `~/x` under `$HOME`; a relative path under the vault root.
fn expand_home(d: &str, root: &Path) -> std::path::PathBuf {
    match d.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME")
            .map(|h| Path::new(&h).join(rest))
            .unwrap_or_else(|| root.join(d)),
        None => root.join(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focus_from_project_folder_and_configured_paths() {
        let root = tempfile::tempdir().unwrap();
        let repo = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("projects/wrap-cli/src")).unwrap();
        std::fs::create_dir_all(repo.path().join("sub")).unwrap();
        let known = vec!["wrap-cli".to_string(), "infra".to_string()];
        let mut paths = BTreeMap::new();
        paths.insert("infra".to_string(), vec![repo.path().display().to_string()]);
        let f = |cwd: &Path| focus_of(root.path(), "projects", &known, &paths, cwd);
        assert_eq!(
            f(&root.path().join("projects/wrap-cli/src")),
            Some("wrap-cli".into())
        );
        assert_eq!(f(&repo.path().join("sub")), Some("infra".into()));
        assert_eq!(f(root.path()), None);
        assert_eq!(f(&root.path().join("projects")), None);
    }
}
