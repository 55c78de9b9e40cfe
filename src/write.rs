//! Atomic replacement of the dashboard (docs/FORMAT.md §6): temporary file in the same
//! directory, fsync, rename, fsync of the directory. Unchanged bytes are not
//! written at all.

use crate::error::{Error, Result};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn temp_prefix(name: &str) -> String {
    format!(".{name}.")
}

const TEMP_SUFFIX: &str = ".tmp";

/// Checks that `path`'s parent resolves inside `root` (no escape through
/// `..` or symbolic links).
pub fn ensure_inside(root: &Path, path: &Path) -> Result<()> {
    let parent = path.parent().unwrap_or(root);
    let real_root = root.canonicalize().map_err(|e| Error::read(root, e))?;
    let real_parent = parent.canonicalize().map_err(|e| Error::write(parent, e))?;
    if real_parent.starts_with(&real_root) {
        Ok(())
    } else {
        Err(Error::OutsideVault {
            path: path.to_path_buf(),
            why: "it resolves outside the vault root (symbolic link?)",
        })
    }
}

/// Checks, before anything is created, that the nearest existing ancestor
/// of `path` resolves inside `root`, so `create_dir_all` cannot create
/// folders outside the vault through a symbolic link.
pub fn ensure_creatable(root: &Path, path: &Path) -> Result<()> {
    let real_root = root.canonicalize().map_err(|e| Error::read(root, e))?;
    let mut ancestor = path.parent();
    while let Some(dir) = ancestor {
        if std::fs::symlink_metadata(dir).is_ok() {
            let real = dir.canonicalize().map_err(|e| Error::write(dir, e))?;
            if real.starts_with(&real_root) {
                return Ok(());
            }
            return Err(Error::OutsideVault {
                path: path.to_path_buf(),
                why: "a folder on the way resolves outside the vault root (symbolic link?)",
            });
        }
        ancestor = dir.parent();
    }
    Ok(())
}

/// Removes temporary files a killed run left beside `target`. Call only
/// while holding the lock, so no live writer owns them.
pub fn clean_stale_temps(target: &Path) {
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    let prefix = temp_prefix(&name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let n = entry.file_name().to_string_lossy().into_owned();
        if n.starts_with(&prefix) && n.ends_with(TEMP_SUFFIX) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether the file at `target` already holds exactly `bytes`.
pub fn is_current(target: &Path, bytes: &[u8]) -> bool {
    std::fs::read(target).is_ok_and(|old| old == bytes)
}

/// Atomically replaces `target` with `bytes` unless it already holds them.
/// Returns whether anything was written.
pub fn write_atomic(root: &Path, target: &Path, bytes: &[u8]) -> Result<bool> {
    if is_current(target, bytes) {
        return Ok(false);
    }
    let dir = target.parent().unwrap_or(root);
    ensure_creatable(root, target)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
    ensure_inside(root, target)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let mode = std::fs::metadata(target)
        .map(|m| m.permissions().mode() & 0o777)
        .unwrap_or(0o644);
    let mut tmp = tempfile::Builder::new()
        .prefix(&temp_prefix(&name))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
        .map_err(|e| Error::write(dir, e))?;
    tmp.write_all(bytes)
        .map_err(|e| Error::write(tmp.path(), e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::write(tmp.path(), e))?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode))
        .map_err(|e| Error::write(tmp.path(), e))?;
    tmp.persist(target)
        .map_err(|e| Error::write(target, e.error))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(true)
}
