//! The per-user key that signs cache files. It is kept outside the vault
//! (`$XDG_CACHE_HOME/active-status/key`, else `~/.cache/active-status/key`),
//! so a cache file someone else wrote (a synced or shared vault, a hand
//! edit) fails its signature and is ignored.

use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

#[cfg(test)]
thread_local! {
    /// Where this thread keeps the key in unit tests (never the user's own).
    pub(crate) static KEY_DIR: std::cell::RefCell<Option<PathBuf>> =
        const { std::cell::RefCell::new(None) };
}

/// Length of the key, in bytes.
pub(crate) const LEN: usize = 32;

/// The key of the private-span fingerprints (`guards::mark_of`), fixed for
/// the process at its first use: the cache key when there is one then,
/// else a random key of this process. Fingerprints are stored in the
/// cache, so they are keyed like its signature: whoever holds a cache file
/// (a synced vault) cannot confirm a guessed secret with them.
pub(crate) fn mark_key() -> [u8; LEN] {
    #[cfg(test)]
    {
        // Unit tests point threads at different cache keys: one fixed key.
        [0x5a; LEN]
    }
    #[cfg(not(test))]
    {
        static KEY: std::sync::OnceLock<[u8; LEN]> = std::sync::OnceLock::new();
        *KEY.get_or_init(|| {
            key(false).unwrap_or_else(|_| {
                let mut k = [0u8; LEN];
                // Without random bytes the key stays zero: fingerprints are
                // then never stored (no cache key matches it).
                let _ = getrandom::fill(&mut k);
                k
            })
        })
    }
}

/// Whether this run's private-span fingerprints were made with `secret`,
/// the cache key: else (the key was made during the run) they may neither
/// be stored under it nor compared with the ones stored under it.
pub(crate) fn marks_match(secret: &[u8; LEN]) -> bool {
    cfg!(test) || mark_key() == *secret
}

/// Where the key lives.
fn key_path() -> Option<PathBuf> {
    #[cfg(test)]
    if let Some(dir) = KEY_DIR.with(|d| d.borrow().clone()) {
        return Some(dir.join("key"));
    }
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let base = std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".cache"))
        })?;
    Some(base.join("active-status").join("key"))
}

/// The key, made first when `create` and there is none. `Err` says why
/// there is no usable key (then no cache file is trusted or written).
pub(crate) fn key(create: bool) -> Result<[u8; LEN], String> {
    let path = key_path().ok_or("no HOME or XDG_CACHE_HOME to keep the cache key in")?;
    match read_key(&path)? {
        Some(k) => Ok(k),
        None if create => make_key(&path),
        None => Err(format!(
            "no cache key at {} yet (the next regen makes one)",
            path.display()
        )),
    }
}

/// Reads the key: a regular file (not a link) of exactly [`LEN`] bytes,
/// owned by this user and not readable by others.
fn read_key(path: &Path) -> Result<Option<[u8; LEN]>, String> {
    let shown = path.display();
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(
            crate::platform::O_NOFOLLOW | crate::platform::O_NONBLOCK | crate::platform::O_CLOEXEC,
        )
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cache key {shown}: {e}")),
    };
    let meta = file
        .metadata()
        .map_err(|e| format!("cache key {shown}: {e}"))?;
    let me = crate::platform::effective_uid();
    if !meta.is_file() || meta.uid() != me || meta.mode() & 0o077 != 0 || meta.len() != LEN as u64 {
        return Err(format!(
            "cache key {shown} is not a {LEN}-byte file of this user with mode 0600"
        ));
    }
    let mut key = [0u8; LEN];
    (&file)
        .read_exact(&mut key)
        .map_err(|e| format!("cache key {shown}: {e}"))?;
    Ok(Some(key))
}

/// Makes a new random key at `path` (mode 0600, folder 0700). When another
/// run made one meanwhile, that one is used.
fn make_key(path: &Path) -> Result<[u8; LEN], String> {
    let shown = path.display();
    let dir = path.parent().ok_or("the cache key path has no folder")?;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("cache key folder {}: {e}", dir.display()))?;
    let mut key = [0u8; LEN];
    getrandom::fill(&mut key).map_err(|e| format!("cache key: no random bytes: {e}"))?;
    // A temporary file (mode 0600) published without replacing anything: a
    // key another run made first wins, and is read back.
    let published = tempfile::Builder::new()
        .prefix(".key.")
        .tempfile_in(dir)
        .and_then(|mut tmp| {
            tmp.write_all(&key)?;
            tmp.as_file().sync_all()?;
            tmp.persist_noclobber(path).map_err(|e| e.error)
        });
    match published {
        Ok(_) => Ok(key),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read_key(path)?.ok_or_else(|| format!("cache key {shown} vanished"))
        }
        Err(e) => Err(format!("cache key {shown}: {e}")),
    }
}
