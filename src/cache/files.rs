//! Per-file scan results: each source file's scan (any [`PerFile`] value:
//! the scan's `FileScan`) kept with the file's stamp and a hash of the bytes
//! it was parsed from. The cache never scans: the caller passes the scan.
//!
//! A cached scan is reused when the file's stamp is unchanged and the file
//! had not changed within [`RACY_NS`] before the run that cached it, or else
//! when the file's bytes hash to the same value. Anything else is re-read.

use super::{CacheUse, MAX_BYTES, Mode, RACY_NS, SCAN_FILE, container, from_bytes, secret};
use crate::error::Result;
use crate::vault_fs::{FileStamp, VaultDir};
use rustc_hash::FxHashMap;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Arc;

const KIND: &[u8; 4] = b"SCAN";

/// What the per-file cache keeps of a file: a value that names the file's
/// own path and no other, stored without it (so an entry can name no other
/// file, and is smaller).
pub(crate) trait PerFile: Serialize + DeserializeOwned {
    /// Whether every path in it is `rel`.
    fn all_paths(&self, rel: &str) -> bool;
    /// Sets every path in it to `rel`.
    fn set_paths(&mut self, rel: &Arc<str>);
}

/// Most files a writing run may find changed (re-read, content-checked, or
/// gone) and still leave a valid `scan.bin` as it is: parsing a few files
/// again costs the next run far less than rewriting every file's result
/// (about 24 ms for the 12 MB of the L benchmark vault) costs this one.
pub(crate) const REWRITE_AFTER: usize = 16;

/// One file's record in the payload (a list of these, in path order).
#[derive(Serialize, Deserialize)]
struct Entry<'a> {
    rel: &'a str,
    stamp: FileStamp,
    /// BLAKE3 (first 128 bits) of the bytes the scan was made from.
    hash: u128,
    /// The file's [`PerFile`] value, serialised on its own so it is decoded only when
    /// used and copied as is when kept.
    #[serde(serialize_with = "as_bytes")]
    scan: &'a [u8],
}

/// Writes a byte slice in one piece (serde's default goes byte by byte).
fn as_bytes<S: serde::Serializer>(bytes: &&[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes)
}

#[derive(Debug)]
struct Old {
    stamp: FileStamp,
    hash: u128,
    scan: Range<usize>,
}

/// What happened to one file, for the cache written after the run.
#[derive(Debug)]
pub(crate) enum Keep {
    /// Nothing to keep (the cache is read-only, or the file was unreadable).
    Nothing,
    /// The cached scan was reused; `stamp` is the file's current one.
    Reused { stamp: FileStamp, verified: bool },
    /// Freshly parsed from bytes with `hash`; cached when the run writes
    /// the cache (encoded then, on the writing thread: bytes encoded on the
    /// scanning threads would stay resident in their allocator arenas).
    Fresh { stamp: FileStamp, hash: u128 },
}

/// The per-file cache of one run: what was read, and how to use it.
#[derive(Debug)]
pub(crate) struct FileCache {
    mode: Mode,
    key: [u8; 16],
    /// The user's signing key (`None`: nothing is read or written).
    secret: Option<[u8; secret::LEN]>,
    started_ns: i128,
    /// The payload read, and the validated entries pointing into it.
    buf: Vec<u8>,
    old_started_ns: i128,
    old: FxHashMap<Arc<str>, Old>,
    ignored: Vec<String>,
}

impl FileCache {
    /// Opens the cache of the vault for a run with `key` (see
    /// [`super::key`]); an absent or invalid cache is an empty one.
    pub(crate) fn open(vault: &VaultDir, mode: Mode, key: [u8; 16]) -> FileCache {
        let mut cache = FileCache {
            mode,
            key,
            secret: None,
            started_ns: super::now_ns(),
            buf: Vec::new(),
            old_started_ns: 0,
            old: FxHashMap::default(),
            ignored: Vec::new(),
        };
        if mode == Mode::Off {
            return cache;
        }
        let read = vault.read(SCAN_FILE);
        if mode == Mode::Write || matches!(read, Ok(Some(_))) {
            match secret::key(mode == Mode::Write) {
                Ok(k) if !secret::marks_match(&k) => {
                    cache.ignore(
                        "the cache key was made during this run, after its private-span \
                         fingerprints (the next run uses it)"
                            .into(),
                    );
                    return cache;
                }
                Ok(k) => cache.secret = Some(k),
                Err(why) => {
                    cache.ignore(why);
                    return cache;
                }
            }
        }
        match read {
            Ok(None) => {}
            Ok(Some(bytes)) => {
                if let Err(why) = cache.load(bytes) {
                    cache.ignore(why);
                }
            }
            Err(e) => cache.ignore(e.to_string()),
        }
        cache
    }

    fn ignore(&mut self, why: String) {
        self.old.clear();
        self.ignored.push(format!("{SCAN_FILE} ignored: {why}"));
    }

    fn load(&mut self, bytes: Vec<u8>) -> std::result::Result<(), String> {
        if bytes.len() as u64 > MAX_BYTES {
            return Err(format!("over {MAX_BYTES} bytes"));
        }
        let secret = self.secret.as_ref().ok_or("no cache key")?;
        let (header, payload) = container::decode(&bytes, KIND, &self.key, secret)?;
        if header.started_ns > self.started_ns {
            return Err("written in the future (clock moved back?)".into());
        }
        let entries: Vec<Entry> = from_bytes(payload).ok_or("undecodable payload")?;
        let base = bytes.as_ptr() as usize;
        let mut old = FxHashMap::default();
        let mut strays = 0;
        for e in entries {
            if crate::vault_fs::check_rel(e.rel).is_err() || old.contains_key(e.rel) {
                strays += 1;
                continue;
            }
            let start = e.scan.as_ptr() as usize - base;
            let entry = Old {
                stamp: e.stamp,
                hash: e.hash,
                scan: start..start + e.scan.len(),
            };
            old.insert(Arc::from(e.rel), entry);
        }
        if strays > 0 {
            self.ignored.push(format!(
                "{SCAN_FILE}: {strays} entries with a bad or repeated path ignored"
            ));
        }
        self.old_started_ns = header.started_ns;
        self.old = old;
        self.buf = bytes;
        Ok(())
    }

    /// The cached scan of the file at `rel` when it decodes and every path
    /// in it is empty (as [`encode`] leaves them); the paths become `rel`.
    fn decode<T: PerFile>(&self, old: &Old, rel: &Arc<str>) -> Option<T> {
        let mut scan: T = from_bytes(&self.buf[old.scan.clone()])?;
        if !scan.all_paths("") {
            return None;
        }
        scan.set_paths(rel);
        Some(scan)
    }

    /// Whether a stamp is too close to (or after) the start of the run that
    /// cached it to be trusted without reading the file.
    fn racy(&self, stamp: &FileStamp) -> bool {
        stamp.latest_ns() >= self.old_started_ns.saturating_sub(RACY_NS)
    }

    /// The stamps of the files at `rels` when the cache holds any file (the
    /// scan compares them with the cached ones), taken together (see
    /// [`VaultDir::stamps`]); none otherwise.
    pub(crate) fn stamps(&self, vault: &VaultDir, rels: &[Arc<str>]) -> Vec<Option<FileStamp>> {
        if self.old.is_empty() {
            return Vec::new();
        }
        let rels: Vec<&str> = rels.iter().map(|r| &**r).collect();
        vault.stamps(&rels)
    }

    /// The scan of the file at `rel`, from the cache when it is valid for
    /// it, else `scan` of what [`VaultDir::read`] returned for the file;
    /// `stamp` is the file's from [`FileCache::stamps`].
    pub(crate) fn scan<T: PerFile>(
        &self,
        vault: &VaultDir,
        rel: &Arc<str>,
        stamp: Option<FileStamp>,
        scan: impl FnOnce(Result<Option<Vec<u8>>>) -> Result<T>,
    ) -> Result<(T, Keep)> {
        let old = self.old.get(rel);
        if let Some(old) = old
            && let Some(stamp) = stamp
            && stamp == old.stamp
            && !self.racy(&stamp)
            && let Some(cached) = self.decode(old, rel)
        {
            let keep = Keep::Reused {
                stamp,
                verified: false,
            };
            return Ok((cached, keep));
        }
        if old.is_none() && self.mode != Mode::Write {
            return Ok((scan(vault.read(rel))?, Keep::Nothing));
        }
        let (read, stamped) = match vault.read_stamped(rel) {
            Ok(Some((bytes, stamp))) => {
                let hash = super::content_hash(&bytes);
                (Ok(Some(bytes)), Some((stamp, hash)))
            }
            Ok(None) => (Ok(None), None),
            Err(e) => (Err(e), None),
        };
        if let (Some(old), Some((stamp, hash))) = (old, stamped)
            && hash == old.hash
            && let Some(cached) = self.decode(old, rel)
        {
            let keep = Keep::Reused {
                stamp,
                verified: true,
            };
            return Ok((cached, keep));
        }
        let scan = scan(read)?;
        let keep = match (self.mode, stamped) {
            (Mode::Write, Some((stamp, hash))) => Keep::Fresh { stamp, hash },
            _ => Keep::Nothing,
        };
        Ok((scan, keep))
    }

    /// What the result cache needs of this run's files (at `rels`; see
    /// [`super::result`]): each file's stamp and content hash, when the run
    /// may write the cache and every file has both.
    pub(crate) fn marks(&self, rels: &[Arc<str>], keeps: &[Keep]) -> Option<super::Marks> {
        if self.mode != Mode::Write || self.secret.is_none() {
            return None;
        }
        let marks = rels.iter().zip(keeps).map(|(rel, keep)| match keep {
            Keep::Nothing => None,
            Keep::Reused { stamp, .. } => {
                let old = self.old.get(rel)?;
                Some((rel.clone(), *stamp, old.hash))
            }
            Keep::Fresh { stamp, hash } => Some((rel.clone(), *stamp, *hash)),
        });
        Some(super::Marks {
            started_ns: self.started_ns,
            discovered: 0,
            files: marks.collect::<Option<_>>()?,
        })
    }

    /// Counts what was reused; writes the new cache when the run may write
    /// it and anything differs from what was read, unless few files moved
    /// away from a valid cache ([`REWRITE_AFTER`]: `CacheUse::deferred`). `scans` are the files'
    /// scans, in the order of their paths `rels`.
    pub(crate) fn finish<T: PerFile>(
        self,
        vault: &VaultDir,
        rels: &[Arc<str>],
        keeps: &[Keep],
        scans: &mut [T],
    ) -> CacheUse {
        let reused = keeps
            .iter()
            .filter(|k| matches!(k, Keep::Reused { .. }))
            .count();
        let mut used = CacheUse {
            reused,
            reread: rels.len() - reused,
            written: false,
            pairs_reused: false,
            ignored: self.ignored.clone(),
            deferred: false,
        };
        if self.mode != Mode::Write {
            return used;
        }
        let unchanged = !self.buf.is_empty()
            && self.ignored.is_empty()
            && reused == self.old.len()
            && keeps.iter().all(|k| {
                matches!(
                    k,
                    Keep::Nothing
                        | Keep::Reused {
                            verified: false,
                            ..
                        }
                )
            });
        if unchanged {
            return used;
        }
        // A valid cache that few files moved away from is kept: re-reading
        // those files costs the next run far less than rewriting every
        // file's result costs this one.
        // Files read again (changed, new, or checked by content), and
        // cached files that are sources no more; a changed file counts once.
        let still = rels.iter().filter(|r| self.old.contains_key(*r)).count();
        let moved = keeps
            .iter()
            .filter(|k| matches!(k, Keep::Fresh { .. } | Keep::Reused { verified: true, .. }))
            .count()
            + self.old.len().saturating_sub(still);
        if !self.buf.is_empty() && self.ignored.is_empty() && moved <= REWRITE_AFTER {
            used.deferred = true;
            return used;
        }
        let Some(secret) = self.secret.as_ref() else {
            return used;
        };
        // Which files get an entry: reused ones still in the old cache,
        // fresh ones whose scan names no other path (see [`encode`]).
        let kept: Vec<bool> = rels
            .iter()
            .zip(keeps)
            .zip(scans.iter())
            .map(|((rel, keep), scan)| match keep {
                Keep::Nothing => false,
                Keep::Reused { .. } => self.old.contains_key(rel),
                Keep::Fresh { .. } => scan.all_paths(rel),
            })
            .collect();
        let count = kept.iter().filter(|k| **k).count();
        let header = container::Header {
            kind: *KIND,
            key: self.key,
            started_ns: self.started_ns,
        };
        // The payload is postcard's encoding of a `Vec<Entry>` (its length,
        // then each entry), written entry by entry straight into the frame.
        let fill = |out: &mut Vec<u8>| {
            *out = postcard::to_extend(&count, std::mem::take(out)).ok()?;
            let mut fresh = Vec::new();
            for (((rel, keep), scan), kept) in rels.iter().zip(keeps).zip(scans).zip(&kept) {
                if !kept {
                    continue;
                }
                let entry = match keep {
                    Keep::Nothing => continue,
                    Keep::Reused { stamp, .. } => {
                        let old = self.old.get(rel)?;
                        Entry {
                            rel,
                            stamp: *stamp,
                            hash: old.hash,
                            scan: &self.buf[old.scan.clone()],
                        }
                    }
                    Keep::Fresh { stamp, hash } => {
                        fresh = encode(scan, rel, fresh)?;
                        Entry {
                            rel,
                            stamp: *stamp,
                            hash: *hash,
                            scan: &fresh,
                        }
                    }
                };
                *out = postcard::to_extend(&entry, std::mem::take(out)).ok()?;
            }
            Some(())
        };
        let Some(bytes) = container::encode_with(&header, secret, self.buf.len(), fill) else {
            return used;
        };
        if bytes.len() as u64 > MAX_BYTES {
            used.ignored
                .push(format!("{SCAN_FILE} not written: over {MAX_BYTES} bytes"));
            return used;
        }
        match super::write(vault, SCAN_FILE, &bytes) {
            Ok(()) => used.written = true,
            Err(e) => used.ignored.push(format!("{SCAN_FILE} not written: {e}")),
        }
        used
    }
}

/// The scan of the file at `rel` serialised without its paths (they are
/// all `rel`, so an entry can name no other file, and is smaller) into
/// `buf` (cleared first); `None` when some path is another (such a scan is
/// not cached).
fn encode<T: PerFile>(scan: &mut T, rel: &Arc<str>, mut buf: Vec<u8>) -> Option<Vec<u8>> {
    if !scan.all_paths(rel) {
        return None;
    }
    buf.clear();
    scan.set_paths(&Arc::from(""));
    let bytes = postcard::to_extend(&*scan, buf).ok();
    scan.set_paths(rel);
    bytes
}
