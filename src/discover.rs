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
pub enum FileRole {
    Journal { date: Date },
    Inbox { date: Option<Date> },
    ProjectTodos { project: String },
    Progress { project: String },
    Active { project: String, task: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Root-relative path with `/` separators.
    pub rel: Arc<str>,
    pub abs: PathBuf,
    pub role: FileRole,
}

#[derive(Debug, Default)]
pub struct Discovery {
    /// Sorted by `rel`, so nothing depends on directory listing order.
    pub files: Vec<SourceFile>,
    /// Known project slugs, lower-cased and sorted.
    pub projects: Vec<String>,
    pub warnings: Vec<Warning>,
}

/// Root discovery: `--root`, else `$ACTIVE_STATUS_ROOT`, else the nearest
/// ancestor of `start` holding `.agents/` or `journal/`.
pub fn find_root(explicit: Option<&Path>, start: &Path) -> Result<PathBuf> {
    let given = explicit.map(Path::to_path_buf).or_else(|| {
        std::env::var_os("ACTIVE_STATUS_ROOT")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    });
    if let Some(root) = given {
        return if root.is_dir() {
            Ok(root)
        } else {
            Err(Error::NoVaultAt { root })
        };
    }
    start
        .ancestors()
        .find(|dir| dir.join(".agents").is_dir() || dir.join("journal").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| Error::NoVault {
            start: start.to_path_buf(),
        })
}

/// The first valid `YYYY-MM-DD` in a file name.
pub fn date_in_name(name: &str) -> Option<Date> {
    let b = name.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let w = &b[i..i + 10];
        let shape = w.iter().enumerate().all(|(j, &c)| {
            if j == 4 || j == 7 {
                c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
        if !shape {
            return None;
        }
        let num = |r: std::ops::Range<usize>| std::str::from_utf8(&w[r]).ok()?.parse::<i32>().ok();
        Date::new(num(0..4)? as i16, num(5..7)? as i8, num(8..10)? as i8).ok()
    })
}

pub(crate) fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

fn is_markdown(name: &str) -> bool {
    name.len() > 3 && name[name.len() - 3..].eq_ignore_ascii_case(".md")
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
        let real_root = self.root.canonicalize().ok();
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
                if let (Some(t), Some(r)) = (&target, &real_root)
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

    fn journal(&mut self) -> Result<()> {
        for path in self.markdown_files(&self.root.join(&self.cfg.journal_dir), false)? {
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
                Some(date) => self.push(path, FileRole::Journal { date }),
                None => {
                    let rel = rel_path(self.root, &path);
                    if rel != self.cfg.output {
                        self.out.warnings.push(Warning::new(
                            rel,
                            "journal file without a YYYY-MM-DD date in its name; skipped",
                        ));
                    }
                }
            }
        }
        Ok(())
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
            Ok(_) => path.is_file(),
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
            if path.is_dir() {
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

/// Lists every source file of the vault, sorted by path.
pub fn discover(root: &Path, cfg: &Config) -> Result<Discovery> {
    let mut walk = Walk {
        root,
        cfg,
        out: Discovery::default(),
    };
    walk.journal()?;
    walk.projects()?;
    walk.inbox()?;
    let mut out = walk.out;
    out.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    out.files.dedup_by(|a, b| a.rel == b.rel);
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
mod tests {
    use super::*;

    #[test]
    fn dates_from_names() {
        assert_eq!(
            date_in_name("2026-05-06.md"),
            Some(jiff::civil::date(2026, 5, 6))
        );
        assert_eq!(
            date_in_name("retro-2026-05-04-x.md"),
            Some(jiff::civil::date(2026, 5, 4))
        );
        assert_eq!(
            date_in_name("2026-13-45 then 2026-01-02.md"),
            Some(jiff::civil::date(2026, 1, 2))
        );
        assert_eq!(date_in_name("notes.md"), None);
        assert_eq!(date_in_name("2026-5-6.md"), None);
    }
}
