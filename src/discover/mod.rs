//! Finding the vault root and its source files (docs/FORMAT.md §1).

use crate::config::Config;
use crate::error::{Error, Result};
use crate::item::{Warning, is_slug};
use jiff::civil::Date;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use walkdir::WalkDir;

/// What a source file is, with what its path tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FileRole {
    /// `project`: given by a `sources.extra` declaration, for items nothing
    /// else gives one.
    Journal {
        date: Date,
        project: Option<String>,
    },
    Inbox {
        date: Option<Date>,
    },
    ProjectTodos {
        project: String,
    },
    Progress {
        project: String,
    },
    Active {
        project: String,
        task: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceFile {
    /// Root-relative path with `/` separators.
    pub rel: Arc<str>,
    pub abs: PathBuf,
    pub role: FileRole,
}

#[derive(Debug, Default)]
pub(crate) struct Discovery {
    /// Sorted by `rel`, so nothing depends on directory listing order.
    pub files: Vec<SourceFile>,
    /// Known project slugs, lower-cased and sorted.
    pub projects: Vec<String>,
    pub warnings: Vec<Warning>,
}

impl Discovery {
    /// What the result cache checks a stored result against.
    pub(crate) fn found(&self) -> crate::cache::result::Found<'_> {
        crate::cache::result::Found {
            rels: self.files.iter().map(|f| &*f.rel).collect(),
            projects: &self.projects,
            discovered: crate::cache::result::discovered(&self.warnings),
        }
    }
}

/// Root discovery: `--root`, else `$ACTIVE_STATUS_ROOT`, else the nearest
/// ancestor of `start` holding `.agents/` or `journal/`.
pub(crate) fn find_root(explicit: Option<&Path>, start: &Path) -> Result<PathBuf> {
    if let Some(root) = given_root(explicit) {
        return if root.is_dir() {
            Ok(root)
        } else {
            Err(Error::NoVaultAt { root })
        };
    }
    start
        .ancestors()
        .find(|dir| is_vault(dir))
        .map(Path::to_path_buf)
        .ok_or_else(|| Error::NoVault {
            start: start.to_path_buf(),
        })
}

/// The root named by `--root`, else by a non-empty `$ACTIVE_STATUS_ROOT`
/// (`ACTIVE_STATUS_ROOT= cmd` means unset).
pub(crate) fn given_root(explicit: Option<&Path>) -> Option<PathBuf> {
    explicit.map(Path::to_path_buf).or_else(|| {
        std::env::var_os("ACTIVE_STATUS_ROOT")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// Whether `dir` looks like a vault root (holds `.agents/`, `journal/` or `journals/`).
pub(crate) fn is_vault(dir: &Path) -> bool {
    dir.join(".agents").is_dir() || dir.join("journal").is_dir() || dir.join("journals").is_dir()
}

/// The first date in a file name: `YYYY-MM-DD`, `YYYY_MM_DD` (Logseq),
/// `YYYY.MM.DD` (Dendron) or `YYYYMMDD`, not touching other digits.
pub(crate) fn date_in_name(name: &str) -> Option<Date> {
    let b = name.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let num = |r: std::ops::Range<usize>| std::str::from_utf8(&b[r]).ok()?.parse::<i32>().ok();
    let date = |y: Option<i32>, m: Option<i32>, d: Option<i32>| {
        Date::new(y? as i16, m? as i8, d? as i8).ok()
    };
    (0..b.len()).find_map(|i| {
        if (i > 0 && digit(i - 1)) || !(0..4).all(|j| digit(i + j)) {
            return None;
        }
        let sep = *b.get(i + 4)?;
        if matches!(sep, b'-' | b'_' | b'.')
            && digit(i + 5)
            && digit(i + 6)
            && b.get(i + 7) == Some(&sep)
            && digit(i + 8)
            && digit(i + 9)
            && !digit(i + 10)
        {
            return date(num(i..i + 4), num(i + 5..i + 7), num(i + 8..i + 10));
        }
        if (4..8).all(|j| digit(i + j)) && !digit(i + 8) {
            return date(num(i..i + 4), num(i + 4..i + 6), num(i + 6..i + 8));
        }
        None
    })
}

/// Markdown file names: `.md` and `.markdown`, any case.
fn is_markdown(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (lower.len() > 3 && lower.ends_with(".md")) || (lower.len() > 9 && lower.ends_with(".markdown"))
}

/// A dated name that ends in `md` without the dot (`2025.09.14md`).
fn missing_dot(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    !is_markdown(name) && lower.ends_with("md") && date_in_name(name).is_some()
}

pub(crate) fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

struct Walk<'a> {
    root: &'a Path,
    cfg: &'a Config,
    out: Discovery,
}

impl Walk<'_> {
    /// Markdown files below `dir` (recursively unless `flat`), hidden entries skipped.
    fn markdown_files(&mut self, dir: &Path, flat: bool) -> Result<Vec<PathBuf>> {
        let mut found = Vec::new();
        if !dir.exists() {
            return Ok(found);
        }
        let mut walker = WalkDir::new(dir)
            .follow_links(self.cfg.follow_symlinks)
            .max_depth(if flat { 1 } else { usize::MAX })
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
        // The vault's real path, needed only when a followed link to a
        // folder is met.
        let real_root = std::cell::OnceCell::new();
        while let Some(entry) = walker.next() {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    let path = err
                        .path()
                        .map(Path::to_path_buf)
                        .unwrap_or_else(|| dir.to_path_buf());
                    if err.loop_ancestor().is_some() {
                        let rel = rel_path(self.root, &path);
                        self.out
                            .warnings
                            .push(Warning::new(rel, "symbolic link loop; not followed"));
                        continue;
                    }
                    // A dangling or self-referencing link to a folder (or to a
                    // non-Markdown name) is the link's problem: warn and go
                    // on. One named like a source is a source we cannot read.
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    if !is_markdown(&name)
                        && std::fs::symlink_metadata(&path)
                            .is_ok_and(|m| m.file_type().is_symlink())
                    {
                        let rel = rel_path(self.root, &path);
                        self.out.warnings.push(Warning::new(
                            rel,
                            format!("broken or looping symbolic link; skipped ({err})"),
                        ));
                        continue;
                    }
                    let io = err
                        .into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("walk failed"));
                    return Err(Error::read(path, io));
                }
            };
            let name = entry.file_name().to_string_lossy();
            if entry.path_is_symlink() && !self.cfg.follow_symlinks {
                if entry.depth() > 0 {
                    let rel = rel_path(self.root, entry.path());
                    self.out.warnings.push(Warning::new(
                        rel,
                        "symbolic link not followed (set follow_symlinks = true to read it)",
                    ));
                }
                continue;
            }
            if entry.path_is_symlink() && entry.file_type().is_dir() {
                // Following a link to a folder that holds the vault would
                // read the vault again (or the whole disk): refuse it.
                let target = entry.path().canonicalize().ok();
                let real_root = real_root.get_or_init(|| self.root.canonicalize().ok());
                if let (Some(t), Some(r)) = (&target, real_root)
                    && r.starts_with(t)
                {
                    let rel = rel_path(self.root, entry.path());
                    self.out.warnings.push(Warning::new(
                        rel,
                        "symbolic link to a folder containing the vault; not followed",
                    ));
                    walker.skip_current_dir();
                    continue;
                }
                // A link to a folder outside the vault (`/proc`, a home
                // folder) is never walked: nothing there is read, and no
                // name from there reaches a warning.
                if !matches!((&target, real_root), (Some(t), Some(r)) if t.starts_with(r)) {
                    let rel = rel_path(self.root, entry.path());
                    self.out.warnings.push(Warning::new(
                        rel,
                        "symbolic link to a folder outside the vault; not followed",
                    ));
                    walker.skip_current_dir();
                    continue;
                }
            }
            if missing_dot(&name) && entry.file_type().is_file() {
                let rel = rel_path(self.root, entry.path());
                self.out.warnings.push(Warning::new(
                    rel,
                    "dated file name without a dot before `md`; skipped (rename it to end in `.md`)",
                ));
            }
            if is_markdown(&name) {
                if entry.file_type().is_file() {
                    found.push(entry.into_path());
                } else if !entry.file_type().is_dir() {
                    let rel = rel_path(self.root, entry.path());
                    self.out
                        .warnings
                        .push(Warning::new(rel, "not a regular file; skipped"));
                }
            }
        }
        Ok(found)
    }

    fn push(&mut self, abs: PathBuf, role: FileRole) {
        let rel = rel_path(self.root, &abs);
        if rel == self.cfg.output {
            return;
        }
        self.out.files.push(SourceFile {
            rel: rel.into(),
            abs,
            role,
        });
    }

    /// The journal folders: `sources.journal` when configured, else both
    /// `journal/` and `journals/` (Logseq) when they exist.
    fn journal_dirs(&self) -> Vec<String> {
        if self.cfg.origin("sources.journal") == &crate::config::Origin::Default
            && self.cfg.journal_dir == "journal"
        {
            vec!["journal".into(), "journals".into()]
        } else {
            vec![self.cfg.journal_dir.clone()]
        }
    }

    fn journal(&mut self) -> Result<()> {
        for dir in self.journal_dirs() {
            self.journal_dir(&dir)?;
        }
        Ok(())
    }

    fn journal_dir(&mut self, dir: &str) -> Result<()> {
        for path in self.markdown_files(&self.root.join(dir), false)? {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match date_in_name(&name) {
                Some(date) if crate::clock::check_year(date).is_err() => {
                    self.out.warnings.push(Warning::new(
                        rel_path(self.root, &path),
                        format!(
                            "journal file dated {date}, outside the years {}–{}; skipped",
                            crate::clock::YEARS.start(),
                            crate::clock::YEARS.end()
                        ),
                    ));
                }
                Some(date) => self.push(
                    path,
                    FileRole::Journal {
                        date,
                        project: None,
                    },
                ),
                None => {
                    let rel = rel_path(self.root, &path);
                    if rel != self.cfg.output {
                        self.out.warnings.push(Warning::new(
                            rel,
                            "journal file without a date (YYYY-MM-DD, YYYY_MM_DD, YYYY.MM.DD or YYYYMMDD) in its name; skipped",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The sources of `sources.extra`: dated notes read as journals, and
    /// todo / progress files.
    fn extra(&mut self) -> Result<()> {
        let decls = self.cfg.extra_sources.clone();
        for decl in decls {
            let abs = self.root.join(&decl.path);
            let files = if abs.is_dir() {
                self.markdown_files(&abs, false)?
            } else if self.regular_file(&abs) {
                vec![abs.clone()]
            } else {
                self.out.warnings.push(Warning::new(
                    decl.path.clone(),
                    format!(
                        "configured source (sources.extra, kind {}) does not exist",
                        decl.kind
                    ),
                ));
                continue;
            };
            let project = decl
                .project
                .clone()
                .or_else(|| (!decl.is_dated()).then(|| root_slug(self.root)).flatten());
            if let Some(p) = &project {
                self.out.projects.push(p.clone());
            }
            for path in files {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let role = match decl.kind.as_str() {
                    "todo" | "progress" => {
                        let Some(project) = project.clone() else {
                            self.out.warnings.push(Warning::new(
                                rel_path(self.root, &path),
                                "no project for this source (give sources.extra a project); skipped",
                            ));
                            continue;
                        };
                        if decl.kind == "todo" {
                            FileRole::ProjectTodos { project }
                        } else {
                            FileRole::Progress { project }
                        }
                    }
                    _ => match date_in_name(&name) {
                        Some(date) if crate::clock::check_year(date).is_ok() => FileRole::Journal {
                            date,
                            project: project.clone(),
                        },
                        _ => {
                            self.out.warnings.push(Warning::new(
                                rel_path(self.root, &path),
                                format!(
                                    "{} file without a usable date (YYYY-MM-DD, YYYY_MM_DD, YYYY.MM.DD or YYYYMMDD) in its name; skipped",
                                    decl.kind
                                ),
                            ));
                            continue;
                        }
                    },
                };
                self.push(path, role);
            }
        }
        Ok(())
    }

    /// Warnings for source folders configured away from their defaults that
    /// do not exist (a default folder that is absent is just unused).
    fn missing_sources(&mut self) {
        let defaults = Config::default();
        let keys = [
            (
                "sources.journal",
                &self.cfg.journal_dir,
                &defaults.journal_dir,
            ),
            (
                "sources.projects",
                &self.cfg.projects_dir,
                &defaults.projects_dir,
            ),
            ("sources.inbox", &self.cfg.inbox_dir, &defaults.inbox_dir),
        ];
        let mut missing = Vec::new();
        for (key, dir, default) in keys {
            if dir != default && !self.root.join(dir).is_dir() {
                missing.push(Warning::new(
                    dir.clone(),
                    format!("configured source folder ({key}) does not exist"),
                ));
            }
        }
        self.out.warnings.extend(missing);
    }

    fn inbox(&mut self) -> Result<()> {
        for path in self.markdown_files(&self.root.join(&self.cfg.inbox_dir), true)? {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            self.push(
                path,
                FileRole::Inbox {
                    date: date_in_name(&name),
                },
            );
        }
        Ok(())
    }

    /// A regular file at `path`, or a warning when it is a symbolic link we may not follow.
    fn regular_file(&mut self, path: &Path) -> bool {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() && !self.cfg.follow_symlinks => {
                let rel = rel_path(self.root, path);
                self.out.warnings.push(Warning::new(
                    rel,
                    "symbolic link not followed (set follow_symlinks = true to read it)",
                ));
                false
            }
            // A link (followed) is what it leads to; anything else is
            // what `lstat` said, without a second `stat`.
            Ok(m) if m.file_type().is_symlink() => path.is_file(),
            Ok(m) => m.is_file(),
            Err(_) => false,
        }
    }

    fn subdirs(&mut self, dir: &Path) -> Result<Vec<(String, PathBuf)>> {
        let mut dirs = Vec::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(dirs),
            Err(e) => return Err(Error::read(dir, e)),
        };
        for entry in entries {
            let entry = entry.map_err(|e| Error::read(dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            let ft = entry.file_type().map_err(|e| Error::read(&path, e))?;
            if ft.is_symlink() && !self.cfg.follow_symlinks {
                if path.is_dir() {
                    let rel = rel_path(self.root, &path);
                    self.out.warnings.push(Warning::new(
                        rel,
                        "symbolic link not followed (set follow_symlinks = true to read it)",
                    ));
                }
                continue;
            }
            // The entry's own type, unless it is a link to follow.
            if (ft.is_symlink() && path.is_dir()) || ft.is_dir() {
                dirs.push((name, path));
            }
        }
        dirs.sort();
        Ok(dirs)
    }

    fn projects(&mut self) -> Result<()> {
        let projects_dir = self.root.join(&self.cfg.projects_dir);
        for (name, dir) in self.subdirs(&projects_dir)? {
            if !is_slug(&name) {
                let rel = rel_path(self.root, &dir);
                self.out.warnings.push(Warning::new(
                    rel,
                    "project folder name is not a slug ([A-Za-z0-9][A-Za-z0-9._-]*); its files were not read",
                ));
                continue;
            }
            let project = name.to_ascii_lowercase();
            self.out.projects.push(project.clone());
            let todos = dir.join(&self.cfg.project_todos);
            if self.regular_file(&todos) {
                self.push(
                    todos,
                    FileRole::ProjectTodos {
                        project: project.clone(),
                    },
                );
            }
            let progress = dir.join(&self.cfg.progress);
            if self.regular_file(&progress) {
                self.push(
                    progress,
                    FileRole::Progress {
                        project: project.clone(),
                    },
                );
            }
            for (task, task_dir) in self.subdirs(&dir.join(&self.cfg.actives_dir))? {
                let todos = task_dir.join(&self.cfg.project_todos);
                if self.regular_file(&todos) {
                    self.push(
                        todos,
                        FileRole::Active {
                            project: project.clone(),
                            task,
                        },
                    );
                }
            }
        }
        Ok(())
    }
}

/// The vault root folder's name as a project slug (other characters
/// become `-`), for sources that name no project.
pub(crate) fn root_slug(root: &Path) -> Option<String> {
    let abs = std::path::absolute(root).ok()?;
    let name = abs.file_name()?.to_string_lossy().to_ascii_lowercase();
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    is_slug(slug).then(|| slug.to_string())
}

/// A warning for each dated note far out of sequence with the others of its
/// folder (a session log named with last year's date): more than 90 days,
/// and more than 20 times the folder's usual gap, from the nearest other
/// dated note. Folders of fewer than four dated notes are not judged.
fn out_of_sequence(files: &[SourceFile]) -> Vec<Warning> {
    let mut by_dir: std::collections::BTreeMap<&str, Vec<(Date, &str)>> = Default::default();
    for f in files {
        if let FileRole::Journal { date, .. } = &f.role {
            let dir = f.rel.rsplit_once('/').map_or("", |(d, _)| d);
            by_dir.entry(dir).or_default().push((*date, &f.rel));
        }
    }
    let mut out = Vec::new();
    for (_, mut notes) in by_dir {
        if notes.len() < 4 {
            continue;
        }
        notes.sort();
        let days = |a: Date, b: Date| (b - a).get_days().abs() as i64;
        let mut gaps: Vec<i64> = notes.windows(2).map(|w| days(w[0].0, w[1].0)).collect();
        gaps.sort_unstable();
        let usual = gaps[gaps.len() / 2].max(1);
        let limit = (usual * 20).max(90);
        for (i, (date, rel)) in notes.iter().enumerate() {
            let before = i.checked_sub(1).map(|j| days(notes[j].0, *date));
            let after = notes.get(i + 1).map(|n| days(*date, n.0));
            let nearest = before.into_iter().chain(after).min().unwrap_or(0);
            if nearest > limit {
                out.push(Warning::new(
                    rel.to_string(),
                    format!(
                        "dated {date}, {nearest} days from the nearest other dated note of its folder; is the date in its name right?"
                    ),
                ));
            }
        }
    }
    out
}

/// Lists every source file of the vault, sorted by path.
pub(crate) fn discover(root: &Path, cfg: &Config) -> Result<Discovery> {
    let mut walk = Walk {
        root,
        cfg,
        out: Discovery::default(),
    };
    walk.journal()?;
    walk.projects()?;
    walk.inbox()?;
    walk.extra()?;
    walk.missing_sources();
    let mut out = walk.out;
    if out.files.is_empty() {
        out.warnings.push(Warning::new(
            ".",
            "no source files found (journal/, journals/, projects/*/todos.md, PROGRESS.md, actives, inbox)",
        ));
    }
    out.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    out.files.dedup_by(|a, b| a.rel == b.rel);
    let late = out_of_sequence(&out.files);
    out.warnings.extend(late);
    if cfg.follow_symlinks {
        // Two paths through links to one file: read it once, under the first path.
        let mut seen = std::collections::HashSet::new();
        let mut kept = Vec::with_capacity(out.files.len());
        for f in out.files {
            let real = f.abs.canonicalize().unwrap_or_else(|_| f.abs.clone());
            if seen.insert(real) {
                kept.push(f);
            } else {
                out.warnings.push(Warning::new(
                    f.rel.to_string(),
                    "same file as another path (through a symbolic link); read once",
                ));
            }
        }
        out.files = kept;
    }
    out.projects.sort();
    out.projects.dedup();
    out.warnings.sort();
    Ok(out)
}

#[cfg(test)]
mod tests;
