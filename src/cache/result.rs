//! The whole result of the last run that wrote the cache, for a run that
//! finds the vault unchanged (`.agents/cache/result.bin`, docs/FORMAT.md
//! §12.1). It holds the session-start summary's view of the report (a
//! value of the caller's type: the cache stores plain data) with what it
//! was made from: the date, a hash of what
//! discovery reported, and every source file's path, stamp and content
//! hash. `hook session-start` then costs a walk, a stat per file and one
//! small read instead of a scan and a merge.
//!
//! Valid only when the configuration, program build and projects (the
//! frame's key), today's date and discovery's warnings are the same, the
//! source files are exactly the same paths, and each file is unchanged:
//! its stamp is the recorded one and older than the racy window before the
//! writing run's start (as for per-file results), or else its bytes hash to
//! the recorded hash. It is framed and signed like every cache file, so
//! only this user's runs can have written it.

use super::{MAX_BYTES, Mode, RACY_NS, RESULT_FILE, container, from_bytes, secret, to_bytes};
use crate::config::Config;
use crate::vault_fs::{FileStamp, VaultDir};
use jiff::civil::Date;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

const KIND: &[u8; 4] = b"RSLT";

/// One source file as the run that wrote the result saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Mark<'a> {
    pub rel: &'a str,
    pub stamp: FileStamp,
    /// BLAKE3 (first 128 bits) of the bytes the file's scan was made from.
    pub hash: u128,
}

#[derive(Serialize, Deserialize)]
struct Payload<'a, V: Clone> {
    today: Date,
    /// Hash of discovery's warnings.
    discovered: u128,
    #[serde(borrow)]
    files: Vec<Mark<'a>>,
    view: Cow<'a, V>,
}

/// What a run that may write the cache knows of its sources: enough to
/// write a result later runs can validate.
#[derive(Debug, Default)]
pub(crate) struct Marks {
    /// Start of the run (before any file was read), ns since the epoch.
    pub started_ns: i128,
    /// Hash of discovery's warnings ([`discovered`]).
    pub discovered: u128,
    /// Every source file in path order: path, stamp, content hash.
    pub files: Vec<(Arc<str>, FileStamp, u128)>,
}

/// The hash of discovery's warnings.
pub(crate) fn discovered<W: Serialize>(warnings: &[W]) -> u128 {
    super::content_hash(&to_bytes(&warnings).unwrap_or_default())
}

/// What looking up the result found.
#[derive(Debug)]
pub(crate) enum Lookup<V> {
    /// A valid result for this vault as it is now.
    Hit(V),
    /// None, or one for another state of the vault (the normal case after
    /// an edit): nothing to note.
    Miss,
    /// A result file that does not fit (truncated, bad signature, …).
    Bad(String),
}

fn key(cfg: &Config, projects: &[String]) -> [u8; 16] {
    super::key("result", cfg, projects)
}

/// A signed cache file's frame checked (its size, kind, key and signature,
/// a start not in the future): the writing run's start and the payload.
pub(super) fn checked_frame<'b>(
    bytes: &'b [u8],
    kind: &[u8; 4],
    key: &[u8; 16],
) -> Result<(i128, &'b [u8]), String> {
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("over {MAX_BYTES} bytes"));
    }
    let secret = secret::key(false)?;
    let (header, payload) = container::decode(bytes, kind, key, &secret)?;
    if header.started_ns > super::now_ns() {
        return Err("written in the future (clock moved back?)".into());
    }
    Ok((header.started_ns, payload))
}

/// The signed cache file `rel` of `kind`, read and its frame checked
/// ([`checked_frame`]): the file's bytes, the writing run's start and where
/// the payload lies in the bytes; `Ok(None)` when there is no such file,
/// `Err` the note for `audit -v` when it cannot be read or does not fit.
pub(super) fn read_checked(
    vault: &VaultDir,
    rel: &str,
    kind: &[u8; 4],
    key: &[u8; 16],
) -> Result<Option<Signed>, String> {
    let file = match vault.read(rel) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(e) => return Err(format!("{rel} ignored: {e}")),
    };
    let (started_ns, payload) =
        checked_frame(&file, kind, key).map_err(|why| format!("{rel} ignored: {why}"))?;
    let start = payload.as_ptr() as usize - file.as_ptr() as usize;
    let at = start..start + payload.len();
    Ok(Some(Signed {
        file,
        started_ns,
        at,
    }))
}

/// A signed cache file whose frame fits ([`read_checked`]).
pub(super) struct Signed {
    pub file: Vec<u8>,
    /// The start of the run that wrote it.
    pub started_ns: i128,
    /// Where the payload lies in `file`.
    pub at: std::ops::Range<usize>,
}

impl Signed {
    pub(super) fn payload(&self) -> &[u8] {
        &self.file[self.at.clone()]
    }
}

/// The hash of the decisions file (`.agents/decisions.log`; 0 when it is
/// absent or unreadable): a result holds only for the decisions it was
/// made with.
pub(super) fn decided(vault: &VaultDir) -> u128 {
    match vault.read(crate::decisions::FILE) {
        Ok(Some(bytes)) => super::content_hash(&bytes) | 1,
        _ => 0,
    }
}

/// What discovery found: the source files' paths in path order, the known
/// projects, and the hash of its warnings ([`discovered`]).
pub(crate) struct Found<'a> {
    pub rels: Vec<&'a str>,
    pub projects: &'a [String],
    pub discovered: u128,
}

/// Looks up a valid result for the vault as discovery `found` it.
pub(crate) fn lookup<V: Clone + DeserializeOwned + Send + Sync>(
    vault: &VaultDir,
    cfg: &Config,
    mode: Mode,
    found: &Found,
) -> Lookup<V> {
    match lookup_state(vault, cfg, mode, found) {
        Lookup::Hit((view, _)) => Lookup::Hit(view),
        Lookup::Miss => Lookup::Miss,
        Lookup::Bad(note) => Lookup::Bad(note),
    }
}

/// [`lookup`], with the state of the vault the result was made from: a
/// hash of today's date, discovery's warnings and decisions, and every
/// source file's path and content hash (not their stamps, which a result
/// written again for the same contents changes).
pub(crate) fn lookup_state<V: Clone + DeserializeOwned + Send + Sync>(
    vault: &VaultDir,
    cfg: &Config,
    mode: Mode,
    found: &Found,
) -> Lookup<(V, u128)> {
    if mode == Mode::Off {
        return Lookup::Miss;
    }
    let signed = match read_checked(vault, RESULT_FILE, KIND, &key(cfg, found.projects)) {
        Ok(Some(signed)) => signed,
        Ok(None) => return Lookup::Miss,
        Err(note) => return Lookup::Bad(note),
    };
    let (started_ns, payload) = (signed.started_ns, signed.payload());
    // The files discovery found are stamped while the result is decoded:
    // a result for this vault lists the same files.
    let (decoded, stamps) = rayon::join(
        || from_bytes::<Payload<V>>(payload).ok_or("undecodable payload"),
        || vault.stamps(&found.rels),
    );
    let payload = match decoded {
        Ok(p) => p,
        Err(why) => return Lookup::Bad(format!("{RESULT_FILE} ignored: {why}")),
    };
    let same = fits(
        vault,
        cfg,
        found,
        (payload.today, payload.discovered, &payload.files),
        stamps,
        started_ns,
    );
    if same {
        let contents: Vec<(&str, u128)> = payload.files.iter().map(|m| (m.rel, m.hash)).collect();
        let state = to_bytes(&(payload.today, payload.discovered, contents))
            .map_or(0, |bytes| super::content_hash(&bytes));
        Lookup::Hit((payload.view.into_owned(), state))
    } else {
        Lookup::Miss
    }
}

/// The trust rule every signed cache file shares: written today, for the
/// same discovery warnings and decisions, listing the files discovery found
/// now, each unchanged since the writing run (started at `started_ns`).
pub(super) fn fits(
    vault: &VaultDir,
    cfg: &Config,
    found: &Found,
    (today, discovered, files): (Date, u128, &[Mark<'_>]),
    stamps: Vec<Option<FileStamp>>,
    started_ns: i128,
) -> bool {
    today == cfg.today()
        && discovered == found.discovered ^ decided(vault)
        && files.len() == found.rels.len()
        && files.iter().zip(&found.rels).all(|(m, rel)| m.rel == *rel)
        && files
            .iter()
            .zip(stamps)
            .all(|(m, stamp)| unchanged(vault, m, stamp, started_ns))
}

/// Whether the file of `m` (whose stamp now is `stamp`) is as the writing
/// run (started at `started_ns`) saw it.
pub(super) fn unchanged(
    vault: &VaultDir,
    m: &Mark<'_>,
    stamp: Option<FileStamp>,
    started_ns: i128,
) -> bool {
    if let Some(stamp) = stamp
        && stamp == m.stamp
        && stamp.latest_ns() < started_ns.saturating_sub(RACY_NS)
    {
        return true;
    }
    matches!(vault.read(m.rel), Ok(Some(bytes)) if super::content_hash(&bytes) == m.hash)
}

/// The result file present, when its frame fits (whether or not it is
/// stale): the start of the run that wrote it and its payload; `Err` is the
/// note for `audit -v` when it does not fit.
pub(crate) fn current(
    vault: &VaultDir,
    cfg: &Config,
    projects: &[String],
) -> Result<Option<(i128, Vec<u8>)>, String> {
    Ok(read_checked(vault, RESULT_FILE, KIND, &key(cfg, projects))?
        .map(|signed| (signed.started_ns, signed.payload().to_vec())))
}

/// Writes the result of a run (call with the lock held) unless `old` (the
/// file present: the start of the run that wrote it, and its payload)
/// already says the same and is as quick to check (see [`settles`]);
/// whether it wrote, or why it could not. `today` is the date the run's report was made with
/// (the scan's), not the date at the time of writing: a run that spans
/// midnight keeps the day its view belongs to.
pub(crate) fn store(
    vault: &VaultDir,
    cfg: &Config,
    projects: &[String],
    today: Date,
    marks: &Marks,
    view: &(impl Clone + Serialize),
    old: Option<(i128, &[u8])>,
) -> Result<bool, String> {
    let payload = record(today, marks, view, decided(vault)).ok_or("unserialisable")?;
    if let Some((old_started_ns, old)) = old
        && old == &payload[..]
        && !settles(marks, old_started_ns)
    {
        return Ok(false);
    }
    let secret = secret::key(true)?;
    let header = container::Header {
        kind: *KIND,
        key: key(cfg, projects),
        started_ns: marks.started_ns,
    };
    let bytes = container::encode(&header, &payload, &secret);
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("over {MAX_BYTES} bytes"));
    }
    super::write(vault, RESULT_FILE, &bytes).map_err(|e| e.to_string())?;
    Ok(true)
}

/// Whether writing the same payload again, with this run's start, lets
/// later lookups trust the stamp of a file they would otherwise read and
/// hash: one changed too shortly before the old result's run started (see
/// [`unchanged`]), and no longer before this run's. Without the rewrite, a
/// result written just after its files were (a `/wrap` that edits, then
/// regenerates) would make every `hook session-start` read them again
/// until the vault changed.
pub(super) fn settles(marks: &Marks, old_started_ns: i128) -> bool {
    marks.files.iter().any(|(_, stamp, _)| {
        let changed = stamp.latest_ns();
        changed >= old_started_ns.saturating_sub(RACY_NS)
            && changed < marks.started_ns.saturating_sub(RACY_NS)
    })
}

/// The stored payload: the view with the date it was made for and the
/// marks it was made from.
fn record<V: Clone + Serialize>(
    today: Date,
    marks: &Marks,
    view: &V,
    decided: u128,
) -> Option<Vec<u8>> {
    let payload = Payload {
        today,
        discovered: marks.discovered ^ decided,
        files: marks
            .files
            .iter()
            .map(|(rel, stamp, hash)| Mark {
                rel,
                stamp: *stamp,
                hash: *hash,
            })
            .collect(),
        view: Cow::Borrowed(view),
    };
    to_bytes(&payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::start_summary::SummaryView;
    use jiff::civil::date;

    /// The record keeps the date it is given (the scan's), whatever the
    /// clock says when it is written.
    #[test]
    fn the_record_holds_the_date_the_view_was_made_for() {
        let marks = Marks::default();
        let view = SummaryView {
            output: "# Active status\n".into(),
            as_of: Some(date(2026, 5, 6)),
            open: 0,
            shown: 0,
            overflow_count: 0,
            untagged: 0,
            lost: 0,
            warnings: 0,
            goals: Vec::new(),
            priorities: Vec::new(),
            overflow: Vec::new(),
            review_count: 0,
            review: Vec::new(),
        };
        let bytes = record(date(2026, 5, 6), &marks, &view, 0).expect("serialisable");
        let back: Payload<SummaryView> = from_bytes(&bytes).expect("decodable");
        assert_eq!(back.today, date(2026, 5, 6));
        let next = record(date(2026, 5, 7), &marks, &view, 0).expect("serialisable");
        assert_ne!(bytes, next);
    }

    /// A file changed inside the old result's racy window and outside this
    /// run's settles; one outside both, or inside both, does not.
    #[test]
    fn a_file_settles_between_the_two_windows() {
        let stamp = |at_ns: i128| FileStamp {
            dev: 1,
            ino: 2,
            size: 3,
            mtime: (at_ns / 1_000_000_000) as i64,
            mtime_ns: (at_ns % 1_000_000_000) as u32,
            ctime: (at_ns / 1_000_000_000) as i64,
            ctime_ns: (at_ns % 1_000_000_000) as u32,
        };
        let s = 1_000_000_000i128;
        let marks = |changed: i128, started: i128| Marks {
            started_ns: started,
            discovered: 0,
            files: vec![(Arc::from("a.md"), stamp(changed), 0)],
        };
        // Written one second after the change; now an hour later.
        assert!(settles(&marks(100 * s, 3700 * s), 101 * s));
        // Already settled when written.
        assert!(!settles(&marks(100 * s, 3700 * s), 200 * s));
        // Still inside this run's window.
        assert!(!settles(&marks(100 * s, 101 * s), 101 * s));
    }
}
