//! The validated cache in `.agents/cache/` (docs/FORMAT.md §12.1):
//! per-file scan results ([`files`]) reused when a file's stamp (size,
//! times, inode) or its bytes show it unchanged, so an everyday run
//! re-parses only what changed, and the last run's summary and search
//! index with what they were made from ([`result`], [`index`]), for runs that find the vault
//! unchanged. It is vault content, so it is never trusted: every file is
//! framed and signed with the user's key kept outside the vault
//! ([`container`], [`secret`]), read through the vault handle with a size
//! cap, and whatever does not fit is ignored with a note for `audit -v`.
//! The output is the same with or without it. It is written only by runs
//! that hold the vault lock.

mod container;
// The per-user key signs every cache file.
use crate::user_key as secret;
mod files;
pub(crate) mod index;
pub(crate) mod page;
pub(crate) mod result;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::carried;

pub(crate) use files::{FileCache, Keep, PerFile};
pub(crate) use result::{Lookup, Marks};

use crate::config::Config;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The cache folder, relative to the vault root.
pub(crate) const DIR: &str = ".agents/cache";
/// Per-file scan results.
pub(crate) const SCAN_FILE: &str = ".agents/cache/scan.bin";
/// The last result, for runs that find the vault unchanged.
pub(crate) const RESULT_FILE: &str = ".agents/cache/result.bin";
/// Largest cache file read or written (a larger one is ignored).
pub(crate) const MAX_BYTES: u64 = crate::vault_fs::MAX_READ;
/// A file changed less than this before the run that cached it is checked
/// by content next time, not by its stamp (the racy-clean rule: a same-size
/// edit inside the file system's timestamp granularity keeps the stamp).
pub(crate) const RACY_NS: i128 = 2_000_000_000;

/// How a run uses the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `--no-cache` or `cache = false`: neither read nor written.
    Off,
    /// Read when valid, never written (commands without the lock).
    Read,
    /// Read when valid, and rewritten when anything changed (under the lock).
    Write,
}

impl Mode {
    /// `Read` (or `Write` when `locked`) unless the configuration turns the
    /// cache off.
    pub fn of(cfg: &Config, locked: bool) -> Mode {
        match (cfg.cache, locked) {
            (false, _) => Mode::Off,
            (true, false) => Mode::Read,
            (true, true) => Mode::Write,
        }
    }
}

/// What the cache did in one run (`audit -v`, the JSON report's
/// `audit.cache`).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct CacheUse {
    /// Source files whose scan came from the cache.
    pub reused: usize,
    /// Source files read and parsed.
    pub reread: usize,
    /// Whether this run rewrote a cache file.
    pub written: bool,
    /// Always false: the merge keeps no memo between runs (the field
    /// stays for JSON schema 1, which never removes a field).
    pub pairs_reused: bool,
    /// Why (part of) the cache was ignored, when it was.
    pub ignored: Vec<String>,
    /// Whether the per-file results were left as they were although some
    /// files changed (few did: see `files::REWRITE_AFTER`); the next run
    /// re-reads those files.
    #[serde(skip)]
    pub deferred: bool,
}

/// The program build: version and the executable's identity, so a rebuilt
/// binary never reuses what an older build cached.
fn program_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        use std::os::unix::fs::MetadataExt;
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .map(|m| format!("{}:{}:{}.{}", m.ino(), m.size(), m.mtime(), m.mtime_nsec()))
            .unwrap_or_default();
        format!("{} {exe}", container::program_version())
    })
}

/// Configuration keys that cannot change what is scanned or merged.
const KEYS_IGNORED: &[&str] = &["cache", "lock.timeout_secs"];

/// The key of a cache of `kind`: program build, every configuration key
/// that can matter (all but [`KEYS_IGNORED`]) and the known projects.
pub(crate) fn key(kind: &str, cfg: &Config, projects: &[String]) -> [u8; 16] {
    let mut h = blake3::Hasher::new();
    let mut field = |s: &str| {
        h.update(&(s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    };
    field(kind);
    field(program_id());
    for k in crate::config::KEYS {
        if !KEYS_IGNORED.contains(k) {
            field(k);
            field(&cfg.toml_of(k).unwrap_or_default());
        }
    }
    for p in projects {
        field(p);
    }
    let mut out = [0u8; 16];
    out.copy_from_slice(&h.finalize().as_bytes()[..16]);
    out
}

/// The hash of a file's bytes (or of other data) the caches record: the
/// first 128 bits of BLAKE3.
pub(crate) fn content_hash(bytes: &[u8]) -> u128 {
    let mut out = [0u8; 16];
    out.copy_from_slice(&blake3::hash(bytes).as_bytes()[..16]);
    u128::from_le_bytes(out)
}

/// Writes the cache file `rel` (creating the folder, with a `.gitignore`
/// that keeps it out of git). Call with the vault lock held.
fn write(vault: &crate::vault_fs::VaultDir, rel: &str, bytes: &[u8]) -> crate::error::Result<()> {
    let ignore = format!("{DIR}/.gitignore");
    if !vault.exists(&ignore) {
        vault.create_dir_all(DIR)?;
        // Disposable: not an operation of the log.
        crate::vault_fs::journal::unrecorded(|| {
            vault.create_if_missing(
                &ignore,
                b"# active-status cache: disposable, never committed\n*\n",
            )
        })?;
    }
    vault.replace_disposable(rel, bytes)
}

/// Now, in nanoseconds since the epoch.
pub(crate) fn now_ns() -> i128 {
    let now = jiff::Timestamp::now().as_nanosecond();
    #[cfg(test)]
    let now = now + tests::CLOCK_SHIFT_NS.with(|s| s.get());
    now
}

/// Serialisation of one value for a payload.
pub(crate) fn to_bytes<T: Serialize>(value: &T) -> Option<Vec<u8>> {
    postcard::to_allocvec(value).ok()
}

/// A payload value; `None` when the bytes do not hold exactly one.
pub(crate) fn from_bytes<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Option<T> {
    match postcard::take_from_bytes(bytes) {
        Ok((value, [])) => Some(value),
        _ => None,
    }
}
