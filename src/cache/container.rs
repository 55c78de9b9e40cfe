//! The frame every cache file has: a fixed header, then a payload, signed
//! with the user's key (kept outside the vault, [`super::secret`]). Anything
//! that does not fit exactly, or whose signature fails, is refused with a
//! reason, never trusted and never a panic: the cache is vault content.
//!
//! Layout (integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `ASTCACHE` |
//! | 4 | kind (`SCAN`, `PAIR`) |
//! | 4 | format version |
//! | 16 | key: hash of the program, the configuration and the project list |
//! | 16 | start of the run that wrote it, ns since the epoch (signed) |
//! | 1 + n | program version (length, then UTF-8) |
//! | 8 | payload length |
//! | 32 | signature: keyed BLAKE3 of every byte before it and the payload |
//! | … | payload |

use super::secret;

const MAGIC: &[u8; 8] = b"ASTCACHE";
/// Bumped whenever any payload's layout changes.
pub(crate) const FORMAT: u32 = 4;

/// What a header says about its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub kind: [u8; 4],
    pub key: [u8; 16],
    pub started_ns: i128,
}

/// The program's version, as written in every header.
pub(crate) fn program_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The signature of a frame: its bytes before the signature, then the payload.
fn sign(key: &[u8; secret::LEN], head: &[u8], payload: &[u8]) -> blake3::Hash {
    let mut h = blake3::Hasher::new_keyed(key);
    h.update(head);
    h.update(payload);
    h.finalize()
}

/// Frames `payload` with `header`, signed with `key`.
pub(crate) fn encode(header: &Header, payload: &[u8], key: &[u8; secret::LEN]) -> Vec<u8> {
    encode_with(header, key, payload.len(), |out| {
        out.extend_from_slice(payload);
        Some(())
    })
    .unwrap_or_default()
}

/// Frames the payload `fill` appends to the buffer (about `size` bytes),
/// signed with `key`: the payload is written in place, never copied;
/// `None` when `fill` fails.
pub(crate) fn encode_with(
    header: &Header,
    key: &[u8; secret::LEN],
    size: usize,
    fill: impl FnOnce(&mut Vec<u8>) -> Option<()>,
) -> Option<Vec<u8>> {
    let version = program_version().as_bytes();
    let mut out = Vec::with_capacity(size + 120);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&header.kind);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&header.key);
    out.extend_from_slice(&header.started_ns.to_le_bytes());
    out.push(version.len() as u8);
    out.extend_from_slice(version);
    // The payload length and the signature, filled in once the payload is written.
    out.extend_from_slice(&[0u8; 8]);
    let head = out.len();
    out.extend_from_slice(&[0u8; 32]);
    fill(&mut out)?;
    let payload_len = (out.len() - head - 32) as u64;
    out[head - 8..head].copy_from_slice(&payload_len.to_le_bytes());
    let signature = sign(key, &out[..head], &out[head + 32..]);
    out[head..head + 32].copy_from_slice(signature.as_bytes());
    Some(out)
}

/// A cursor that never reads past the end.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.rest.len() < n {
            return Err(format!("truncated ({what} missing)"));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }
}

/// Checks the frame of `bytes` against what this run expects (`kind`,
/// `key`, signed with `secret`) and returns the header and the payload;
/// `Err` names the first thing that is wrong.
pub(crate) fn decode<'a>(
    bytes: &'a [u8],
    kind: &[u8; 4],
    key: &[u8; 16],
    secret: &[u8; secret::LEN],
) -> Result<(Header, &'a [u8]), String> {
    let mut r = Reader { rest: bytes };
    if &r.array::<8>("magic")? != MAGIC {
        return Err("not a cache file (wrong magic)".into());
    }
    let got_kind = r.array::<4>("kind")?;
    if &got_kind != kind {
        return Err("a cache file of another kind".into());
    }
    let format = u32::from_le_bytes(r.array("format")?);
    if format != FORMAT {
        return Err(format!("format {format}, this program reads {FORMAT}"));
    }
    let got_key = r.array::<16>("key")?;
    let started_ns = i128::from_le_bytes(r.array("time")?);
    let len = r.array::<1>("version")?[0] as usize;
    let version = r.take(len, "version")?;
    if version != program_version().as_bytes() {
        return Err(format!(
            "written by version {}",
            String::from_utf8_lossy(version)
        ));
    }
    if &got_key != key {
        return Err(
            "written by another build or configuration, or before the projects changed".into(),
        );
    }
    let payload_len = u64::from_le_bytes(r.array("length")?);
    let head = &bytes[..bytes.len() - r.rest.len()];
    let signature = blake3::Hash::from_bytes(r.array("signature")?);
    if payload_len != r.rest.len() as u64 {
        return Err(format!(
            "payload of {} bytes where the header says {payload_len}",
            r.rest.len()
        ));
    }
    // `Hash` compares in constant time.
    if sign(secret, head, r.rest) != signature {
        return Err("bad signature (corrupted, or not written by this user's runs)".into());
    }
    let header = Header {
        kind: got_kind,
        key: got_key,
        started_ns,
    };
    Ok((header, r.rest))
}
