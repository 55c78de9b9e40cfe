//! The last page `view` wrote, for a `view` that finds the vault unchanged
//! (`.agents/cache/view.bin`, docs/FORMAT.md §12.1). It holds no vault
//! text: the state of the vault the page was made from (the hash of what
//! the valid result cache records: today's date, discovery's warnings and
//! decisions, every source file's path and content hash), the page's path
//! and name, the hash of its bytes and its count of open items. A `view`
//! whose result cache is valid, whose state and page path are the ones
//! recorded, and whose page file still hashes to the recorded hash leaves
//! the page as it is. It is framed and signed like every cache file, so
//! only this user's runs can have written it; anything else is ignored.

use super::{MAX_BYTES, container, from_bytes, secret, to_bytes};
use crate::config::Config;
use crate::vault_fs::VaultDir;
use serde::{Deserialize, Serialize};

/// The record file, relative to the vault root.
pub(crate) const FILE: &str = ".agents/cache/view.bin";
const KIND: &[u8; 4] = b"VIEW";

#[derive(Serialize, Deserialize)]
struct Payload<'a> {
    /// The vault state the page was made from ([`super::result::state`]).
    state: u128,
    /// The page's path, relative to the vault root.
    out: &'a str,
    /// The vault's name, shown in the page.
    name: &'a str,
    /// BLAKE3 (first 128 bits) of the page's bytes.
    page: u128,
    /// Open items, as `view` prints them.
    open: u64,
}

fn key(cfg: &Config, projects: &[String]) -> [u8; 16] {
    super::key("view", cfg, projects)
}

/// The page one `view` is about: where it goes, the vault's name in it,
/// and the state of the vault it shows.
pub(crate) struct Page<'a> {
    pub out: &'a str,
    pub name: &'a str,
    pub state: u128,
}

/// The open-item count of the page at `page.out` when it is the one made
/// from the vault state `page.state` (and still holds the bytes written);
/// `Ok(None)` when it is not or there is no record, `Err` the note when
/// the record does not fit.
pub(crate) fn kept(
    vault: &VaultDir,
    cfg: &Config,
    projects: &[String],
    page: &Page<'_>,
) -> Result<Option<usize>, String> {
    let Some(signed) = super::result::read_checked(vault, FILE, KIND, &key(cfg, projects))? else {
        return Ok(None);
    };
    let p: Payload =
        from_bytes(signed.payload()).ok_or(format!("{FILE} ignored: undecodable payload"))?;
    if p.state != page.state || p.out != page.out || p.name != page.name {
        return Ok(None);
    }
    let same = match vault.read(page.out) {
        Ok(Some(written)) => super::content_hash(&written) == p.page,
        _ => false,
    };
    Ok(same.then_some(p.open as usize))
}

/// Records the page just written (call with the lock held); why not, when
/// it could not be.
pub(crate) fn keep(
    vault: &VaultDir,
    cfg: &Config,
    projects: &[String],
    page: &Page<'_>,
    bytes: &[u8],
    open: usize,
) -> Result<(), String> {
    let payload = to_bytes(&Payload {
        state: page.state,
        out: page.out,
        name: page.name,
        page: super::content_hash(bytes),
        open: open as u64,
    })
    .ok_or("unserialisable")?;
    let secret = secret::key(true)?;
    let header = container::Header {
        kind: *KIND,
        key: key(cfg, projects),
        started_ns: super::now_ns(),
    };
    let framed = container::encode(&header, &payload, &secret);
    if framed.len() as u64 > MAX_BYTES {
        return Err(format!("over {MAX_BYTES} bytes"));
    }
    super::write(vault, FILE, &framed).map_err(|e| e.to_string())
}
