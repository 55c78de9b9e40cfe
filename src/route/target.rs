//! Destination files of `route`, and the checks that keep every write inside
//! the vault root.

use crate::config::Config;
use crate::discover::{FileRole, discover};
use crate::error::{Error, Result};
use jiff::civil::Date;
use std::path::{Component, Path, PathBuf};

/// The journal file for `date`: an existing file of that date anywhere under
/// the journal folder (`YYYY-MM-DD.md` preferred, else the first by path), or
/// `journal/YYYY-MM-DD.md` with its initial content when there is none.
pub fn journal_file_for(root: &Path, cfg: &Config, date: Date) -> Result<(String, String)> {
    let found = discover(root, cfg)?;
    let exact = format!("{date}.md");
    let mut same_day: Vec<&str> = found
        .files
        .iter()
        .filter(|f| matches!(f.role, FileRole::Journal { date: d } if d == date))
        .map(|f| &*f.rel)
        .collect();
    same_day.sort_by_key(|rel| (!rel.ends_with(&format!("/{exact}")), rel.to_string()));
    match same_day.first() {
        Some(rel) => Ok((rel.to_string(), String::new())),
        None => Ok((
            format!("{}/{exact}", cfg.journal_dir),
            format!("# {date}\n"),
        )),
    }
}

/// Resolves `rel` under `root` for writing: refuses absolute paths, `..`,
/// symbolic links at the target, and any existing ancestor that resolves
/// outside the root.
pub fn safe_target(root: &Path, rel: &str) -> Result<PathBuf> {
    let refuse = |why: &'static str| Error::OutsideVault {
        path: rel.into(),
        why: why.into(),
    };
    let rel_path = Path::new(rel);
    if rel_path
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(refuse("the path must stay inside the vault"));
    }
    let real_root = root.canonicalize().map_err(|e| Error::read(root, e))?;
    let path = root.join(rel_path);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(refuse("it is a symbolic link"));
    }
    let mut ancestor = path.parent();
    while let Some(dir) = ancestor {
        if dir.exists() {
            let real = dir.canonicalize().map_err(|e| Error::read(dir, e))?;
            if !real.starts_with(&real_root) {
                return Err(refuse(
                    "a folder on the way resolves outside the vault (symbolic link)",
                ));
            }
            break;
        }
        ancestor = dir.parent();
    }
    Ok(path)
}
