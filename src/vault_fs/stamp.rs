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

    pub(super) fn of_cap(m: &cap_std::fs::Metadata) -> FileStamp {
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
    ///
    /// A plain regular file (no link at the end of the path) is stamped by
    /// one `fstatat` on the root's handle, without opening it: on the L
    /// benchmark vault that is 4,089 `openat2` and `close` calls fewer for a
    /// warm run. A stamp only ever lets the cache reuse what an earlier run
    /// read through the confined handle for that path with the same device,
    /// inode, size and times, so a folder on the path swapped for a link
    /// can lead to no read: its file's stamp differs, and the file is then
    /// read through the confined handle, which refuses to leave the root.
    pub(crate) fn stamp(&self, rel: &str) -> Option<FileStamp> {
        let path = super::check_rel(rel).ok()?;
        if let Some(stamp) = self.plain_stamp(path) {
            return Some(stamp);
        }
        let meta = self.dir.metadata(path).ok()?;
        meta.is_file().then(|| FileStamp::of_cap(&meta))
    }

    /// The stamp of `path` when it names a regular file, its last part not
    /// a link (`fstatat` with `AT_SYMLINK_NOFOLLOW`); `None` otherwise, and
    /// on systems other than Linux (where `stat`'s field types differ).
    #[cfg(not(target_os = "linux"))]
    fn plain_stamp(&self, _path: &std::path::Path) -> Option<FileStamp> {
        None
    }

    /// The stamp of `path` when it names a regular file, its last part not
    /// a link (`fstatat` with `AT_SYMLINK_NOFOLLOW`); `None` otherwise.
    #[cfg(target_os = "linux")]
    pub(super) fn plain_stamp(&self, path: &std::path::Path) -> Option<FileStamp> {
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::io::AsRawFd;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: the root's descriptor is open for `self`'s lifetime, `c` is
        // a NUL-terminated path and `st` is written by the call before it is
        // read (only on success).
        let st = unsafe {
            if libc::fstatat(
                self.dir.as_raw_fd(),
                c.as_ptr(),
                st.as_mut_ptr(),
                libc::AT_SYMLINK_NOFOLLOW,
            ) != 0
            {
                return None;
            }
            st.assume_init()
        };
        (st.st_mode & libc::S_IFMT == libc::S_IFREG).then_some(FileStamp {
            dev: st.st_dev,
            ino: st.st_ino,
            size: st.st_size as u64,
            mtime: st.st_mtime,
            mtime_ns: st.st_mtime_nsec as u32,
            ctime: st.st_ctime,
            ctime_ns: st.st_ctime_nsec as u32,
        })
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
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
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
