//! Every read and write of a vault file goes through a [`VaultDir`]: a
//! handle on the root folder (cap-std's `Dir`) under which paths are
//! resolved one component at a time, so no `..`, absolute path or symbolic
//! link can lead outside the root, even when a link is swapped while a run
//! is in progress. Files with more than one hard link are never written or
//! truncated. Any such attempt is one error, [`Error::OutsideVault`] (exit 73).

pub(crate) mod journal;
mod openers;
mod replace;
mod stamp;

pub(crate) use openers::wait_until_closed;
pub(crate) use replace::{
    clean_temps_locked, rename_noreplace as rename_noreplace_in, snapshot_held,
    sync_dir as sync_dir_of, write_temp as write_temp_in,
};
pub(crate) use stamp::FileStamp;

use crate::error::{Error, Result};
use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

/// Largest vault file read whole (configuration, templates, destinations).
pub(crate) const MAX_READ: u64 = 64 * 1024 * 1024;

/// A handle on the vault root.
#[derive(Debug)]
pub struct VaultDir {
    root: PathBuf,
    dir: Dir,
}

/// A file as read: its bytes and the identity they were read from, so a
/// later write can tell whether it changed meanwhile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub bytes: Vec<u8>,
    pub(crate) mode: u32,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
}

/// Checks a root-relative path taken from configuration or input: not
/// empty, relative, plain components only (no `..`, `.`, or leading `/`),
/// and no control characters. Returns it as a `Path`.
pub(crate) fn check_rel(rel: &str) -> std::result::Result<&Path, String> {
    if rel.is_empty() {
        return Err("the path is empty".into());
    }
    if let Some(c) = rel.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the path holds the control character U+{:04X}",
            c as u32
        ));
    }
    let p = Path::new(rel);
    if p.is_absolute() {
        return Err("the path is absolute; it must be relative to the vault root".into());
    }
    if p.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err("the path holds `..` or `.`; it must stay inside the vault".into());
    }
    Ok(p)
}

/// A failure to read a file about to be written is a write failure.
pub(crate) fn as_write(e: Error) -> Error {
    match e {
        Error::Read { path, source } => Error::Write { path, source },
        e => e,
    }
}

/// Whether an I/O error is cap-std's refusal to leave the root.
fn is_escape(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::PermissionDenied
        && e.to_string().contains("outside of the filesystem")
}

impl VaultDir {
    /// Opens the vault root.
    pub fn open(root: &Path) -> Result<VaultDir> {
        let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority())
            .map_err(|e| Error::read(root, e))?;
        Ok(VaultDir {
            root: root.to_path_buf(),
            dir,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The absolute path of `rel`, for messages.
    pub fn display(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub(crate) fn escape(&self, rel: &str, why: impl Into<String>) -> Error {
        Error::OutsideVault {
            path: self.display(rel),
            why: why.into(),
        }
    }

    fn checked<'a>(&self, rel: &'a str) -> Result<&'a Path> {
        check_rel(rel).map_err(|why| self.escape(rel, why))
    }

    /// Maps an I/O error on `rel`: an escape becomes [`Error::OutsideVault`].
    pub(crate) fn io_err(&self, rel: &str, e: std::io::Error, writing: bool) -> Error {
        if is_escape(&e) {
            self.escape(
                rel,
                "it resolves outside the vault root (symbolic link or `..`)",
            )
        } else if crate::platform::is_link_loop(&e) {
            self.escape(rel, "it is a symbolic link")
        } else if writing {
            Error::write(self.display(rel), e)
        } else {
            Error::read(self.display(rel), e)
        }
    }

    /// Reads a regular file under the root, following links only while they
    /// stay inside it. `Ok(None)` when it does not exist. FIFOs, devices and
    /// folders are refused without blocking; files over [`MAX_READ`] too.
    pub fn read(&self, rel: &str) -> Result<Option<Vec<u8>>> {
        Ok(self.read_meta(rel)?.map(|(bytes, _)| bytes))
    }

    /// [`VaultDir::read`], with the metadata of the file read.
    fn read_meta(&self, rel: &str) -> Result<Option<(Vec<u8>, std::fs::Metadata)>> {
        let path = self.checked(rel)?;
        let mut opts = OpenOptions::new();
        opts.read(true).custom_flags(
            crate::platform::O_NONBLOCK | crate::platform::O_NOCTTY | crate::platform::O_CLOEXEC,
        );
        let file = match self.dir.open_with(path, &opts) {
            Ok(f) => f.into_std(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.io_err(rel, e, false)),
        };
        let meta = file.metadata().map_err(|e| self.io_err(rel, e, false))?;
        if !meta.is_file() {
            return Err(Error::read(
                self.display(rel),
                std::io::Error::other("not a regular file"),
            ));
        }
        if meta.len() > MAX_READ {
            return Err(Error::read(
                self.display(rel),
                std::io::Error::other(format!(
                    "{} bytes, over the {MAX_READ}-byte limit",
                    meta.len()
                )),
            ));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.take(MAX_READ + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| self.io_err(rel, e, false))?;
        Ok(Some((bytes, meta)))
    }

    /// Reads a UTF-8 text file; `Ok(None)` when it does not exist.
    pub fn read_string(&self, rel: &str) -> Result<Option<String>> {
        match self.read(rel)? {
            None => Ok(None),
            Some(b) => String::from_utf8(b).map(Some).map_err(|_| {
                Error::read(self.display(rel), std::io::Error::other("not valid UTF-8"))
            }),
        }
    }

    /// Reads the file at `rel` for an edit: not through a symbolic link at
    /// the last component, a regular file with one link. `Ok(None)` when it
    /// does not exist (its folder may not either).
    pub fn snapshot(&self, rel: &str) -> Result<Option<Snapshot>> {
        let Some((dir, name)) = self.parent(rel, false)? else {
            return Ok(None);
        };
        replace::snapshot_in(self, &dir, &name, rel)
    }

    /// Opens the folder holding `rel` (created when `create`) and returns it
    /// with the file name. `Ok(None)` when it does not exist and `create` is
    /// false.
    pub(crate) fn parent(&self, rel: &str, create: bool) -> Result<Option<(Dir, OsString)>> {
        let path = self.checked(rel)?;
        let name = path
            .file_name()
            .map(|n| n.to_os_string())
            .ok_or_else(|| self.escape(rel, "the path names no file"))?;
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let Some(parent) = parent else {
            let d = self
                .dir
                .try_clone()
                .map_err(|e| self.io_err(rel, e, false))?;
            return Ok(Some((d, name)));
        };
        if create {
            // Before creating anything: the deepest folder that exists.
            if let Some(existing) = parent.ancestors().find_map(|a| {
                if a.as_os_str().is_empty() {
                    return None;
                }
                self.dir.open_dir(a).ok()
            }) {
                self.refuse_git(rel, &existing)?;
            }
            self.create_dir_all_path(rel, parent)?;
        }
        match self.dir.open_dir(parent) {
            Ok(d) => {
                if create {
                    self.refuse_git(rel, &d)?;
                }
                Ok(Some((d, name)))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !create => Ok(None),
            Err(e) => Err(self.io_err(rel, e, create)),
        }
    }

    /// Refuses a write under `dir` when its resolved location is git's own
    /// folder or inside one (a committed link `gd -> .git` leads there while
    /// every name on the way looks harmless): the root's `.git`, or any
    /// folder below the root holding `HEAD`, `objects/` and `refs/`.
    fn refuse_git(&self, rel: &str, dir: &Dir) -> Result<()> {
        let inside = self
            .in_git_dir(dir)
            .map_err(|e| self.io_err(rel, e, true))?;
        if inside {
            return Err(self.escape(
                rel,
                "it resolves into git's own folder (.git) through a symbolic link",
            ));
        }
        Ok(())
    }

    /// Whether `dir`, walked up through `..` to the root, meets a git folder.
    fn in_git_dir(&self, dir: &Dir) -> std::io::Result<bool> {
        use cap_std::fs::MetadataExt as _;
        let id = |m: &cap_std::fs::Metadata| (m.dev(), m.ino());
        let root = id(&self.dir.dir_metadata()?);
        let dot_git = self.dir.metadata(".git").ok().map(|m| id(&m));
        let mut cur = dir.try_clone()?;
        // A folder depth bound; a walk that never meets the root is not
        // under it (cap-std already refused such a path).
        for _ in 0..4096 {
            let here = id(&cur.dir_metadata()?);
            if here == root {
                return Ok(false);
            }
            if Some(here) == dot_git || is_git_dir(&cur) {
                return Ok(true);
            }
            let up = cur.open_parent_dir(cap_std::ambient_authority())?;
            if id(&up.dir_metadata()?) == here {
                return Ok(false);
            }
            cur = up;
        }
        Ok(false)
    }

    /// Creates `rel` and its missing parents as folders under the root.
    pub fn create_dir_all(&self, rel: &str) -> Result<()> {
        let path = self.checked(rel)?;
        self.create_dir_all_path(rel, path)
    }

    fn create_dir_all_path(&self, rel: &str, path: &Path) -> Result<()> {
        self.dir
            .create_dir_all(path)
            .map_err(|e| self.io_err(rel, e, true))
    }

    /// Atomically replaces `rel` with `bytes` unless it already holds them
    /// (temporary file beside it, fsync, rename). Mode and owner are kept.
    /// Returns whether anything was written.
    pub fn replace(&self, rel: &str, bytes: &[u8]) -> Result<bool> {
        let old = self.snapshot(rel).map_err(as_write)?;
        if old.as_ref().is_some_and(|s| s.bytes == bytes) {
            return Ok(false);
        }
        let (dir, name) = self
            .parent(rel, true)?
            .ok_or_else(|| self.escape(rel, "its folder cannot be opened"))?;
        replace::clean_temps(&dir);
        let tmp = replace::write_temp(self, &dir, &name, rel, bytes, old.as_ref())?;
        let written = replace::rename_into(self, &dir, &tmp, &name, rel)?;
        journal::record(rel, old.as_ref().map(|s| s.bytes.as_slice()), Some(bytes));
        Ok(written)
    }

    /// Creates `rel` with `bytes` when it does not exist or is empty (a
    /// 0-byte file left by a failed earlier run). Nothing is left behind when
    /// the write fails. Returns whether it was written.
    pub fn create_if_missing(&self, rel: &str, bytes: &[u8]) -> Result<bool> {
        match self.snapshot(rel)? {
            Some(s) if !s.bytes.is_empty() => Ok(false),
            _ => self.replace(rel, bytes),
        }
    }

    /// Writes a new file in folder `dir_rel` under the first of `names` that
    /// does not exist yet; the file appears whole or not at all. Returns the
    /// root-relative path written.
    pub fn create_new(
        &self,
        dir_rel: &str,
        names: impl IntoIterator<Item = String>,
        bytes: &[u8],
    ) -> Result<String> {
        self.create_dir_all(dir_rel)?;
        let probe = format!("{dir_rel}/x");
        let (dir, _) = self
            .parent(&probe, true)?
            .ok_or_else(|| self.escape(dir_rel, "the folder cannot be opened"))?;
        replace::clean_temps(&dir);
        let tmp = replace::write_temp(self, &dir, "new".as_ref(), dir_rel, bytes, None)?;
        for name in names {
            let rel = format!("{dir_rel}/{name}");
            self.checked(&rel)?;
            match replace::rename_noreplace(&dir, &tmp, name.as_ref()) {
                Ok(()) => {
                    replace::sync_dir(&dir);
                    journal::record(&rel, None, Some(bytes));
                    return Ok(rel);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    let _ = dir.remove_file(&tmp);
                    return Err(self.io_err(&rel, e, true));
                }
            }
        }
        let _ = dir.remove_file(&tmp);
        Err(Error::write(
            self.display(dir_rel),
            std::io::Error::other("every candidate file name is taken"),
        ))
    }

    /// Opens (creating) the lock file: no symbolic link at any step, a
    /// regular file with exactly one link, mode 0600 when created.
    pub fn open_lock(&self, rel: &str) -> Result<std::fs::File> {
        let (dir, name) = self
            .parent(rel, true)?
            .ok_or_else(|| self.escape(rel, "its folder cannot be opened"))?;
        let mut opts = OpenOptions::new();
        opts.read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(
                crate::platform::O_NOFOLLOW
                    | crate::platform::O_CLOEXEC
                    | crate::platform::O_NONBLOCK,
            );
        self.open_single(rel, &dir, &name, &opts)
            .map(|(file, _)| file)
    }

    /// Opens `name` in `dir` (the folder of `rel`) with `opts` for writing:
    /// it must be a regular file with exactly one link, so a write never
    /// changes another file through a hard link.
    pub(crate) fn open_single(
        &self,
        rel: &str,
        dir: &cap_std::fs::Dir,
        name: &std::ffi::OsStr,
        opts: &OpenOptions,
    ) -> Result<(std::fs::File, std::fs::Metadata)> {
        let file = dir
            .open_with(name, opts)
            .map_err(|e| self.io_err(rel, e, true))?
            .into_std();
        let meta = file.metadata().map_err(|e| self.io_err(rel, e, true))?;
        if !meta.is_file() {
            return Err(self.escape(rel, "it is not a regular file"));
        }
        if meta.nlink() != 1 {
            return Err(self.escape(
                rel,
                format!(
                    "it has {} hard links; writing it would change another file",
                    meta.nlink()
                ),
            ));
        }
        Ok((file, meta))
    }

    /// Renames `from` to `to` (both in the same folder) unless `to` exists.
    pub fn rename_new(&self, from: &str, to: &str) -> Result<()> {
        let (dir, from_name) = self
            .parent(from, false)?
            .ok_or_else(|| self.escape(from, "its folder cannot be opened"))?;
        let (_, to_name) = self
            .parent(to, false)?
            .ok_or_else(|| self.escape(to, "its folder cannot be opened"))?;
        replace::rename_noreplace(&dir, &from_name, &to_name).map_err(|e| self.io_err(to, e, true))
    }

    /// Sets the permission bits of the regular file `rel` (no link followed).
    pub fn set_mode(&self, rel: &str, mode: u32) -> Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let (dir, name) = self
            .parent(rel, false)?
            .ok_or_else(|| self.escape(rel, "its folder cannot be opened"))?;
        let mut opts = OpenOptions::new();
        opts.read(true).custom_flags(
            crate::platform::O_NOFOLLOW | crate::platform::O_NONBLOCK | crate::platform::O_CLOEXEC,
        );
        let file = dir
            .open_with(&name, &opts)
            .map_err(|e| self.io_err(rel, e, true))?
            .into_std();
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(|e| self.io_err(rel, e, true))
    }

    /// Whether `rel` exists (without following a link at its last step).
    pub fn exists(&self, rel: &str) -> bool {
        check_rel(rel).is_ok_and(|p| self.dir.symlink_metadata(p).is_ok())
    }
}

/// A folder git owns: `HEAD` and the `objects/` and `refs/` folders.
fn is_git_dir(dir: &Dir) -> bool {
    let kind = |name: &str| dir.symlink_metadata(name).ok().map(|m| m.is_dir());
    kind("HEAD") == Some(false) && kind("objects") == Some(true) && kind("refs") == Some(true)
}

#[cfg(test)]
mod tests;
