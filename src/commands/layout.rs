//! `init` in an existing folder: the layouts of other tools it recognises
//! (Obsidian daily notes, Logseq journals, a vimwiki diary, Dendron daily
//! journals, and the files of AI-assisted development repositories: a root
//! `TODO.md` / `PROGRESS.md`, session logs, handoffs), written into the
//! configuration it creates, each with a comment saying what was found.

use crate::config::ExtraSource;
use std::collections::BTreeMap;
use std::path::Path;
use walkdir::WalkDir;

/// Folders never searched: tools' own folders and dependencies.
const SKIP: &[&str] = &["node_modules", "target", "vendor", "dist", "build", ".git"];

/// Folder names of daily notes, by tool (searched at any depth, first match).
const JOURNAL_NAMES: &[&str] = &[
    "daily notes",
    "daily",
    "dailies",
    "daily-notes",
    "diary",
    "journal",
    "journals",
    "calendar",
];

/// Folders of decision records: dated by name, but not journals.
const NOT_JOURNALS: &[&str] = &["decisions", "adr", "adrs", "rfcs", "changelog"];

/// Names of folders of session logs and of hand-offs, as words (see
/// [`folder_words`]): `_session_logs`, `Session Notes`, `docs/sessions`,
/// `hand-offs`.
const SESSION_NAMES: &[&str] = &[
    "sessions",
    "session logs",
    "session log",
    "sessionlogs",
    "session notes",
    "session history",
    "session summaries",
    "session reports",
    "dev log",
    "dev logs",
    "devlog",
    "devlogs",
];
const HANDOFF_NAMES: &[&str] = &[
    "handoffs",
    "handoff",
    "hand offs",
    "hand off",
    "handovers",
    "handover",
    "session handoffs",
    "session handoff",
];

/// How deep below the root a session-log or hand-off folder is looked for
/// (`docs/ai/sessions` is at depth 3).
const SESSION_DEPTH: usize = 3;

/// A folder name as lower-case words: a leading `_` or `.` dropped, `-`,
/// `_` and spaces read as one separator.
fn folder_words(name: &str) -> String {
    name.trim_start_matches(['_', '.'])
        .to_lowercase()
        .split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What `init` found, as configuration values with their comments.
#[derive(Debug, Default)]
pub(super) struct Layout {
    /// `(key, TOML value, comment)`.
    pub set: Vec<(&'static str, String, String)>,
    /// One line per finding, printed by `init`.
    pub found: Vec<String>,
}

/// Markdown files dated by name, per root-relative folder (`""` for the root).
fn dated_notes(root: &Path) -> BTreeMap<String, usize> {
    let mut per_dir: BTreeMap<String, usize> = BTreeMap::new();
    let walker = WalkDir::new(root)
        .max_depth(7)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let n = e.file_name().to_string_lossy();
            e.depth() == 0 || !(n.starts_with('.') || SKIP.contains(&n.as_ref()))
        });
    for entry in walker.filter_map(Result::ok).take(200_000) {
        let name = entry.file_name().to_string_lossy();
        if !entry.file_type().is_file() || !name.to_ascii_lowercase().ends_with(".md") {
            continue;
        }
        if crate::discover::date_in_name(&name).is_none() {
            continue;
        }
        let rel = crate::discover::rel_path(root, entry.path());
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        *per_dir.entry(dir).or_default() += 1;
    }
    per_dir
}

/// The longest common folder of `dirs` (`""` for the root).
fn common_dir<'a>(dirs: impl Iterator<Item = &'a String>) -> String {
    let mut common: Option<Vec<&str>> = None;
    for d in dirs {
        let parts: Vec<&str> = d.split('/').filter(|p| !p.is_empty()).collect();
        common = Some(match common {
            None => parts,
            Some(c) => c
                .iter()
                .zip(&parts)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    common.unwrap_or_default().join("/")
}

fn under(dir: &str, base: &str) -> bool {
    dir == base || dir.starts_with(&format!("{base}/"))
}

/// The Markdown notes in `dir` and its folders (not hidden ones), up to
/// three levels down (`Session Logs/2026/05/…`).
fn md_count(dir: &Path) -> usize {
    WalkDir::new(dir)
        .max_depth(4)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.file_name()
                    .to_string_lossy()
                    .to_ascii_lowercase()
                    .ends_with(".md")
        })
        .take(100_000)
        .count()
}

/// The folders of session logs and of hand-offs under `root`, by name, with
/// their kind and number of notes, in path order; a folder inside one
/// already found is not another source.
fn session_folders(root: &Path) -> Vec<(String, &'static str, usize)> {
    let walker = WalkDir::new(root)
        .min_depth(1)
        .max_depth(SESSION_DEPTH)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let n = e.file_name().to_string_lossy();
            e.file_type().is_dir() && !(n.starts_with('.') || SKIP.contains(&n.as_ref()))
        });
    let mut found: Vec<(String, &'static str, usize)> = Vec::new();
    for entry in walker.filter_map(Result::ok).take(20_000) {
        let words = folder_words(&entry.file_name().to_string_lossy());
        let kind = if SESSION_NAMES.contains(&words.as_str()) {
            "session-log"
        } else if HANDOFF_NAMES.contains(&words.as_str()) {
            "handoff"
        } else {
            continue;
        };
        let rel = crate::discover::rel_path(root, entry.path());
        if found.iter().any(|(d, _, _)| under(&rel, d)) {
            continue;
        }
        let n = md_count(entry.path());
        if n > 0 {
            found.push((rel, kind, n));
        }
    }
    found
}

/// The layouts found under `root`.
pub(super) fn detect(root: &Path) -> Layout {
    let mut layout = Layout::default();
    let project = crate::discover::root_slug(root);
    let mut extra: Vec<ExtraSource> = Vec::new();
    let mut claimed: Vec<String> = Vec::new();
    let mut folders = session_folders(root);
    // Session logs first, then hand-offs (each in path order).
    folders.sort_by_key(|(_, kind, _)| *kind != "session-log");
    for (d, kind, n) in folders {
        layout.found.push(format!(
            "found    {d}/ ({n} note{}): {kind} source",
            if n == 1 { "" } else { "s" }
        ));
        extra.push(ExtraSource {
            path: d.clone(),
            kind: kind.to_string(),
            project: project.clone(),
        });
        claimed.push(d);
    }
    for (names, kind) in [
        (&["TODO.md", "todo.md", "TODOS.md", "todos.md"][..], "todo"),
        (&["PROGRESS.md", "progress.md"][..], "progress"),
    ] {
        if let Some(name) = names.iter().find(|n| root.join(n).is_file()) {
            layout.found.push(format!("found    {name}: {kind} source"));
            extra.push(ExtraSource {
                path: (*name).to_string(),
                kind: kind.to_string(),
                project: project.clone(),
            });
        }
    }
    let journal_default = root.join("journal").is_dir() || root.join("journals").is_dir();
    if journal_default {
        let which = if root.join("journals").is_dir() {
            "journals/ (Logseq)"
        } else {
            "journal/"
        };
        layout
            .found
            .push(format!("found    {which}: read by default"));
    } else if let Some((dir, n, how)) = journal_dir(root, &claimed) {
        let shown = if dir.is_empty() { "." } else { dir.as_str() };
        layout.found.push(format!(
            "found    {shown}/ ({n} dated notes, {how}): sources.journal"
        ));
        layout.set.push((
            "sources.journal",
            toml::Value::String(shown.to_string()).to_string(),
            format!("found by init: {n} notes dated by name ({how})"),
        ));
    }
    if !extra.is_empty() {
        let value = <Vec<ExtraSource> as crate::config::declare::Value>::to_toml(&extra)
            .unwrap_or_default();
        let what: Vec<String> = extra
            .iter()
            .map(|e| format!("{} ({})", e.path, e.kind))
            .collect();
        layout.set.push((
            "sources.extra",
            value,
            format!("found by init: {}", what.join(", ")),
        ));
    }
    layout
}

/// The folder of the vault's daily notes: a folder named as a notes tool
/// names it, else the common folder of every note dated by name (outside
/// session logs, handoffs and decision records), when there are three or more.
fn journal_dir(root: &Path, claimed: &[String]) -> Option<(String, usize, &'static str)> {
    let per_dir = dated_notes(root);
    let per_dir: BTreeMap<&String, &usize> = per_dir
        .iter()
        .filter(|(d, _)| !claimed.iter().any(|c| under(d, c)))
        .filter(|(d, _)| {
            !d.split('/')
                .any(|p| NOT_JOURNALS.contains(&p.to_ascii_lowercase().as_str()))
        })
        .collect();
    for name in JOURNAL_NAMES {
        let hit = per_dir.keys().find_map(|d| {
            let parts: Vec<&str> = d.split('/').collect();
            let i = parts.iter().position(|p| p.to_ascii_lowercase() == *name)?;
            Some(parts[..=i].join("/"))
        });
        if let Some(dir) = hit {
            let n = per_dir
                .iter()
                .filter(|(d, _)| under(d, &dir))
                .map(|(_, n)| **n)
                .sum();
            return Some((dir, n, "a daily-notes folder"));
        }
    }
    let total: usize = per_dir.values().map(|n| **n).sum();
    if total < 3 {
        return None;
    }
    let dir = common_dir(per_dir.keys().copied());
    // Notes spread over the root and its folders: the root only when they
    // sit directly in it (Dendron's `daily.journal.*.md`).
    if dir.is_empty() && !per_dir.contains_key(&String::new()) {
        return None;
    }
    Some((dir, total, "their common folder"))
}
