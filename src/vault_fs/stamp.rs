//! What the cache keys a source file on (its identity and times), and the
//! cache's own disposable writes.

use super::{VaultDir, replace};
use crate::error::Result;
use cap_std::fs::{OpenOptions, OpenOptionsExt};
use serde::{Deserialize, Serialize};
use std::io::Write;

/// A file's identity and change times, as `stat` gives them. Two equal
/// stamps of a file more than a few seconds old mean its bytes did not
/// change (the cache's rule; docs/FORMAT.md "The cache").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileStamp {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime: i64,
    pub mtime_ns: u32,
    pub ctime: i64,
    pub ctime_ns: u32,
}

impl FileStamp {
    fn of_std(m: &std::fs::Metadata) -> FileStamp {
        use std::os::unix::fs::MetadataExt;
        FileStamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: m.mtime(),
            mtime_ns: m.mtime_nsec() as u32,
            ctime: m.ctime(),
            ctime_ns: m.ctime_nsec() as u32,
        }
    }

    fn of_cap(m: &cap_std::fs::Metadata) -> FileStamp {
        use cap_std::fs::MetadataExt;
        FileStamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: m.mtime(),
            mtime_ns: m.mtime_nsec() as u32,
            ctime: m.ctime(),
            ctime_ns: m.ctime_nsec() as u32,
        }
    }

    /// The later of the change times, in nanoseconds since the epoch.
    pub(crate) fn latest_ns(&self) -> i128 {
        let ns = |s: i64, n: u32| i128::from(s) * 1_000_000_000 + i128::from(n);
        ns(self.mtime, self.mtime_ns).max(ns(self.ctime, self.ctime_ns))
    }
}

impl VaultDir {
    /// The stamp of the regular file `rel`, links followed while they stay
    /// inside the root (as [`VaultDir::read`] does); `None` for anything
    /// else (missing, not a regular file, leading outside).
    pub(crate) fn stamp(&self, rel: &str) -> Option<FileStamp> {
        let path = super::check_rel(rel).ok()?;
        let meta = self.dir.metadata(path).ok()?;
        meta.is_file().then(|| FileStamp::of_cap(&meta))
    }

    /// The stamps of `rels`, each as [`VaultDir::stamp`] gives it, on all
    /// cores. The folder of each run of names in the same folder is opened
    /// once (confined, as `stamp` opens a path): a file's stamp is then one
    /// `fstatat` of its own name there, not an open, an `fstat` and a close
    /// of its whole path. A name that is not a regular file (a link, say) is
    /// stamped by `stamp` itself, which follows links inside the root.
    pub(crate) fn stamps(&self, rels: &[&str]) -> Vec<Option<FileStamp>> {
        use rayon::prelude::*;
        let parent = |rel: &str| std::path::Path::new(rel).parent().map(|p| p.to_owned());
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        for (n, rel) in rels.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if parent(rels[run.start]) == parent(rel) => run.end = n + 1,
                _ => runs.push(n..n + 1),
            }
        }
        runs.par_iter()
            .flat_map_iter(|run| self.stamp_run(&rels[run.clone()]))
            .collect()
    }

    /// [`VaultDir::stamps`] of names in one folder.
    fn stamp_run(&self, rels: &[&str]) -> Vec<Option<FileStamp>> {
        let dir = rels
            .first()
            .and_then(|rel| self.parent(rel, false).ok().flatten())
            .map(|(dir, _)| dir);
        rels.iter()
            .map(|rel| {
                let quick = dir.as_ref().and_then(|dir| {
                    let name = super::check_rel(rel).ok()?.file_name()?;
                    let meta = dir.symlink_metadata(name).ok()?;
                    meta.is_file().then(|| FileStamp::of_cap(&meta))
                });
                quick.or_else(|| self.stamp(rel))
            })
            .collect()
    }

    /// [`VaultDir::read`], with the stamp of the file the bytes came from.
    pub(crate) fn read_stamped(&self, rel: &str) -> Result<Option<(Vec<u8>, FileStamp)>> {
        Ok(self
            .read_meta(rel)?
            .map(|(bytes, meta)| (bytes, FileStamp::of_std(&meta))))
    }

    /// Replaces `rel` (a cache file) with `bytes`: a temporary file beside
    /// it, then a rename. Not synced: the cache is disposable and checks
    /// its own checksum, so a file torn by a crash is ignored, not trusted.
    pub(crate) fn replace_disposable(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        let (dir, name) = self
            .parent(rel, true)?
            .ok_or_else(|| self.escape(rel, "its folder cannot be opened"))?;
        replace::clean_temps(&dir);
        let mut opts = OpenOptions::new();
        opts.write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(crate::platform::O_NOFOLLOW | crate::platform::O_CLOEXEC);
        let tmp = replace::temp_name(&name);
        let mut file = dir
            .open_with(&tmp, &opts)
            .map_err(|e| self.io_err(rel, e, true))?
            .into_std();
        if let Err(e) = file.write_all(bytes) {
            drop(file);
            let _ = dir.remove_file(&tmp);
            return Err(self.io_err(rel, e, true));
        }
        drop(file);
        if let Err(e) = dir.rename(&tmp, &dir, &name) {
            let _ = dir.remove_file(&tmp);
            return Err(self.io_err(rel, e, true));
        }
        Ok(())
    }
}
