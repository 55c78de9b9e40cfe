//! Temporary files beside their target, and the renames that publish them.
//!
//! A temporary file is named `.<target>.active-status-<pid>-<n>.tmp`, so a
//! later run recognises (and removes) what a killed run left behind.

use super::{MAX_READ, Snapshot, VaultDir};
use crate::error::Result;
use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// The part of a temporary file name that marks it as ours.
pub(crate) const TEMP_MARK: &str = ".active-status-";
const TEMP_SUFFIX: &str = ".tmp";

/// Temporary files at least this old are removed by any run; younger ones
/// only by a run holding the vault lock (which no live writer can hold).
const STALE_AFTER: Duration = Duration::from_secs(600);

/// Whether a file name is a temporary file of ours, or one of the
/// `.<name>.XXXXXX.tmp` files earlier versions left.
pub(crate) fn is_temp_name(name: &str) -> bool {
    if !name.starts_with('.') || !name.ends_with(TEMP_SUFFIX) {
        return false;
    }
    if name.contains(TEMP_MARK) {
        return true;
    }
    let stem = &name[..name.len() - TEMP_SUFFIX.len()];
    stem.rsplit_once('.').is_some_and(|(head, rand)| {
        head.len() > 1 && rand.len() == 6 && rand.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// Removes temporary files of ours in `dir`: all of them when `all` (the
/// caller holds the lock), else only those older than ten minutes.
pub(crate) fn clean_temps_in(dir: &Dir, all: bool) {
    let Ok(entries) = dir.entries() else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !is_temp_name(&name.to_string_lossy()) {
            continue;
        }
        let Ok(meta) = dir.symlink_metadata(&name) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m.into_std()).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if meta.is_file() && (all || old) {
            let _ = dir.remove_file(&name);
        }
    }
}

pub(crate) fn clean_temps(dir: &Dir) {
    clean_temps_in(dir, false);
}

/// Removes every temporary file of ours in `dir`; the caller holds the lock.
pub(crate) fn clean_temps_locked(dir: &Dir) {
    clean_temps_in(dir, true);
}

impl VaultDir {
    /// Removes every temporary file of ours in the folder holding `rel`.
    /// Call only while holding the vault lock.
    pub fn clean_temps_beside(&self, rel: &str) {
        if let Ok(Some((dir, _))) = self.parent(rel, false) {
            clean_temps_in(&dir, true);
        }
    }
}

pub(crate) fn snapshot_in(
    v: &VaultDir,
    dir: &Dir,
    name: &OsStr,
    rel: &str,
) -> Result<Option<Snapshot>> {
    Ok(snapshot_held(v, dir, name, rel)?.0)
}

/// Like [`snapshot_in`], also returning the open file.
pub(crate) fn snapshot_held(
    v: &VaultDir,
    dir: &Dir,
    name: &OsStr,
    rel: &str,
) -> Result<(Option<Snapshot>, Option<std::fs::File>)> {
    let mut opts = OpenOptions::new();
    opts.read(true).custom_flags(
        crate::platform::O_NOFOLLOW
            | crate::platform::O_NONBLOCK
            | crate::platform::O_NOCTTY
            | crate::platform::O_CLOEXEC,
    );
    let file = match dir.open_with(name, &opts) {
        Ok(f) => f.into_std(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((None, None)),
        Err(e) => return Err(v.io_err(rel, e, false)),
    };
    let meta = file.metadata().map_err(|e| v.io_err(rel, e, false))?;
    if !meta.is_file() {
        return Err(v.escape(rel, "it is not a regular file"));
    }
    if meta.nlink() != 1 {
        return Err(v.escape(
            rel,
            format!(
                "it has {} hard links; writing it would change another file",
                meta.nlink()
            ),
        ));
    }
    if meta.len() > MAX_READ {
        return Err(crate::error::Error::read(
            v.display(rel),
            std::io::Error::other(format!("over the {MAX_READ}-byte limit")),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&file)
        .take(MAX_READ + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| v.io_err(rel, e, false))?;
    let snap = Snapshot {
        bytes,
        mode: meta.mode() & 0o7777,
        uid: meta.uid(),
        gid: meta.gid(),
    };
    Ok((Some(snap), Some(file)))
}

pub(super) fn temp_name(target: &OsStr) -> OsString {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut s = OsString::from(".");
    s.push(target);
    s.push(format!(
        "{TEMP_MARK}{}-{nanos:x}{n}{TEMP_SUFFIX}",
        std::process::id()
    ));
    s
}

/// Writes `bytes` to a new temporary file beside `name` in `dir`, with the
/// mode and owner of `old` when given, and syncs it. Nothing is left behind
/// on failure. Returns the temporary file's name.
pub(crate) fn write_temp(
    v: &VaultDir,
    dir: &Dir,
    name: &OsStr,
    rel: &str,
    bytes: &[u8],
    old: Option<&Snapshot>,
) -> Result<OsString> {
    let mut opts = OpenOptions::new();
    opts.write(true)
        .create_new(true)
        .mode(0o666)
        .custom_flags(crate::platform::O_NOFOLLOW | crate::platform::O_CLOEXEC);
    let mut tries = 0;
    let (tmp, mut file) = loop {
        let tmp = temp_name(name);
        match dir.open_with(&tmp, &opts) {
            Ok(f) => break (tmp, f.into_std()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
            Err(e) => return Err(v.io_err(rel, e, true)),
        }
    };
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(old) = old {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(std::fs::Permissions::from_mode(old.mode))?;
            let meta = file.metadata()?;
            if meta.uid() != old.uid || meta.gid() != old.gid {
                std::os::unix::fs::fchown(&file, Some(old.uid), Some(old.gid))?;
            }
        }
        file.sync_all()
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            drop(file);
            let _ = dir.remove_file(&tmp);
            Err(v.io_err(rel, e, true))
        }
    }
}

pub(crate) fn sync_dir(dir: &Dir) {
    if let Ok(d) = dir.try_clone() {
        let _ = d.into_std_file().sync_all();
    }
}

/// Renames temporary file `tmp` over `name` in `dir` and syncs the folder;
/// the temporary file is removed when the rename fails.
pub(crate) fn rename_into(
    v: &VaultDir,
    dir: &Dir,
    tmp: &OsStr,
    name: &OsStr,
    rel: &str,
) -> Result<bool> {
    if let Err(e) = dir.rename(tmp, dir, name) {
        let _ = dir.remove_file(tmp);
        return Err(v.io_err(rel, e, true));
    }
    sync_dir(dir);
    Ok(true)
}

/// Renames `tmp` to `name` in `dir` only when `name` does not exist
/// (`AlreadyExists` otherwise).
pub(crate) fn rename_noreplace(dir: &Dir, tmp: &OsStr, name: &OsStr) -> std::io::Result<()> {
    crate::platform::rename_noreplace(dir, tmp, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_are_recognised() {
        let t = temp_name(OsStr::new("2026-05-06.md"));
        assert!(is_temp_name(&t.to_string_lossy()), "{t:?}");
        assert!(is_temp_name(".2026-05-06.md.aB3xYz.tmp"));
        assert!(!is_temp_name("2026-05-06.md"));
        assert!(!is_temp_name(".notes.tmp"));
        assert!(!is_temp_name("a.active-status-1.tmp"));
    }
}
