//! The search index of the last run that wrote the cache, for a `search`
//! that finds the vault unchanged (`.agents/cache/search.bin`,
//! docs/FORMAT.md §12.1). The index itself is plain bytes made and read by
//! `search` (the cache stores plain data); this file keeps it with what it
//! was made from, and hands it back only when that still holds, under the
//! same rule as the whole result ([`super::result`]): the frame's key
//! (configuration, program build, projects), today's date, discovery's
//! warnings and the decisions file are the same, the source files are
//! exactly the recorded paths, and each is unchanged (its stamp settled
//! before the writing run started, or its bytes hash to the recorded hash).
//! It is framed and signed like every cache file, so only this user's runs
//! can have written it; anything else is ignored, never trusted.

use super::result::{Found, Lookup, Mark, Marks, decided, fits, read_checked, settles};
use super::{MAX_BYTES, Mode, container, from_bytes, secret};
use crate::config::Config;
use crate::vault_fs::VaultDir;
use jiff::civil::Date;
use serde::{Deserialize, Serialize, Serializer};
use std::ops::Range;

/// The index file, relative to the vault root.
pub(crate) const FILE: &str = ".agents/cache/search.bin";
const KIND: &[u8; 4] = b"SRCH";

#[derive(Serialize, Deserialize)]
struct Payload<'a> {
    today: Date,
    /// Hash of discovery's warnings, with the decisions file's.
    discovered: u128,
    #[serde(borrow)]
    files: Vec<Mark<'a>>,
    /// The index, as `search` wrote it.
    #[serde(borrow, serialize_with = "bytes")]
    index: &'a [u8],
}

fn bytes<S: Serializer>(b: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(b)
}

/// A valid index: the file read, and where the index lies in it.
#[derive(Debug)]
pub(crate) struct Index {
    file: Vec<u8>,
    at: Range<usize>,
}

impl Index {
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.file[self.at.clone()]
    }
}

fn key(cfg: &Config, projects: &[String]) -> [u8; 16] {
    super::key("search", cfg, projects)
}

/// Looks up a valid index for the vault as discovery `found` it.
pub(crate) fn lookup(vault: &VaultDir, cfg: &Config, mode: Mode, found: &Found) -> Lookup<Index> {
    if mode == Mode::Off {
        return Lookup::Miss;
    }
    let signed = match read_checked(vault, FILE, KIND, &key(cfg, found.projects)) {
        Ok(Some(signed)) => signed,
        Ok(None) => return Lookup::Miss,
        Err(note) => return Lookup::Bad(note),
    };
    let (started_ns, payload) = (signed.started_ns, signed.payload());
    let (decoded, stamps) = rayon::join(
        || from_bytes::<Payload>(payload),
        || vault.stamps(&found.rels),
    );
    let Some(p) = decoded else {
        return Lookup::Bad(format!("{FILE} ignored: undecodable payload"));
    };
    let same = fits(
        vault,
        cfg,
        found,
        (p.today, p.discovered, &p.files),
        stamps,
        started_ns,
    );
    if !same {
        return Lookup::Miss;
    }
    // The index borrows from the file: where it starts in it.
    let start = p.index.as_ptr() as usize - signed.file.as_ptr() as usize;
    let at = start..start + p.index.len();
    Lookup::Hit(Index {
        file: signed.file,
        at,
    })
}

/// Keeps the search index of a run that may write the cache (call with the
/// lock held): `build` makes it, and is called only when the index present
/// was made from other contents; an index made from the same contents is
/// left as it is, or framed again with this run's marks when a file it
/// records settles (see [`super::result`]). Whether it wrote, or why not.
pub(crate) fn keep(
    vault: &VaultDir,
    cfg: &Config,
    projects: &[String],
    today: Date,
    marks: &Marks,
    build: impl FnOnce() -> Option<Vec<u8>>,
) -> Result<bool, String> {
    let discovered = marks.discovered ^ decided(vault);
    let old = read_checked(vault, FILE, KIND, &key(cfg, projects))
        .ok()
        .flatten();
    let old = old
        .as_ref()
        .and_then(|s| Some((s.started_ns, from_bytes::<Payload>(s.payload())?)));
    let same_contents = |p: &Payload| {
        p.today == today
            && p.discovered == discovered
            && p.files.len() == marks.files.len()
            && p.files
                .iter()
                .zip(&marks.files)
                .all(|(m, (rel, _, hash))| m.rel == &**rel && m.hash == *hash)
    };
    let built;
    let index: &[u8] = match &old {
        Some((started_ns, p)) if same_contents(p) => {
            let same_stamps = p
                .files
                .iter()
                .zip(&marks.files)
                .all(|(m, (_, stamp, _))| m.stamp == *stamp);
            if same_stamps && !settles(marks, *started_ns) {
                return Ok(false);
            }
            p.index
        }
        _ => {
            built = build().ok_or("the index could not be made")?;
            &built
        }
    };
    let payload = Payload {
        today,
        discovered,
        files: marks
            .files
            .iter()
            .map(|(rel, stamp, hash)| Mark {
                rel,
                stamp: *stamp,
                hash: *hash,
            })
            .collect(),
        index,
    };
    let secret = secret::key(true)?;
    let header = container::Header {
        kind: *KIND,
        key: key(cfg, projects),
        started_ns: marks.started_ns,
    };
    // Serialised straight into the frame: one copy of the index, not two.
    let size = index.len() + 64 * payload.files.len();
    let bytes = container::encode_with(&header, &secret, size, |out| {
        *out = postcard::to_extend(&payload, std::mem::take(out)).ok()?;
        Some(())
    })
    .ok_or("unserialisable")?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("over {MAX_BYTES} bytes"));
    }
    super::write(vault, FILE, &bytes).map_err(|e| e.to_string())?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::to_bytes;
    use super::*;

    /// The index travels as raw bytes and comes back where it was put.
    #[test]
    fn the_index_bytes_round_trip() {
        let index: Vec<u8> = (0..=255u8).collect();
        let p = Payload {
            today: jiff::civil::date(2026, 5, 6),
            discovered: 7,
            files: Vec::new(),
            index: &index,
        };
        let bytes = to_bytes(&p).expect("serialisable");
        let back: Payload = from_bytes(&bytes).expect("decodable");
        assert_eq!(back.index, &index[..]);
        assert_eq!(back.discovered, 7);
    }
}
