//! The merge's pairwise answers ([`PairMemo`], src/merge/memo.rs) kept
//! between runs in `.agents/cache/pairs.bin`, framed and signed like the
//! per-file results. The memo re-checks every remembered match itself; its
//! remembered non-matches are trusted, which is why only a memo signed with
//! the user's key is handed to the merge.

use super::{CacheUse, MAX_BYTES, Mode, PAIRS_FILE, container, from_bytes, secret, to_bytes};
use crate::merge::PairMemo;
use crate::vault_fs::VaultDir;

const KIND: &[u8; 4] = b"PAIR";

/// The memo of one run: what was read, and the memo the merge fills.
#[derive(Debug)]
pub(crate) struct Pairs {
    mode: Mode,
    key: [u8; 16],
    secret: Option<[u8; secret::LEN]>,
    /// The payload read, to leave an unchanged memo unwritten.
    old: Option<Vec<u8>>,
    /// The memo for the merge (`None` when the cache is off).
    pub memo: Option<PairMemo>,
    reused: bool,
    ignored: Vec<String>,
}

impl Pairs {
    /// Loads the memo for a run with `key`; an absent or invalid one is a
    /// fresh memo.
    pub(crate) fn open(vault: &VaultDir, mode: Mode, key: [u8; 16]) -> Pairs {
        let mut pairs = Pairs {
            mode,
            key,
            secret: None,
            old: None,
            memo: None,
            reused: false,
            ignored: Vec::new(),
        };
        if mode == Mode::Off {
            return pairs;
        }
        pairs.memo = Some(PairMemo::new());
        let read = vault.read(PAIRS_FILE);
        if mode == Mode::Write || matches!(read, Ok(Some(_))) {
            match secret::key(mode == Mode::Write) {
                Ok(k) => pairs.secret = Some(k),
                Err(why) => {
                    pairs.ignore(why);
                    return pairs;
                }
            }
        }
        match read {
            Ok(None) => {}
            Ok(Some(bytes)) => match pairs.load(&bytes) {
                Ok(memo) => {
                    pairs.memo = Some(memo);
                    pairs.reused = true;
                }
                Err(why) => pairs.ignore(why),
            },
            Err(e) => pairs.ignore(e.to_string()),
        }
        if mode == Mode::Read && !pairs.reused {
            // Nothing to answer from, and what the merge would fill is
            // never written: no memo at all.
            pairs.memo = None;
        }
        pairs
    }

    fn ignore(&mut self, why: String) {
        self.ignored.push(format!("{PAIRS_FILE} ignored: {why}"));
    }

    fn load(&mut self, bytes: &[u8]) -> Result<PairMemo, String> {
        if bytes.len() as u64 > MAX_BYTES {
            return Err(format!("over {MAX_BYTES} bytes"));
        }
        let secret = self.secret.as_ref().ok_or("no cache key")?;
        let (_, payload) = container::decode(bytes, KIND, &self.key, secret)?;
        let memo = from_bytes(payload).ok_or("undecodable payload")?;
        self.old = Some(payload.to_vec());
        Ok(memo)
    }

    /// Adds what happened to `used`; writes the memo the merge left when
    /// the run may write and it differs from the one read.
    pub(crate) fn finish(self, vault: &VaultDir, used: &mut CacheUse) {
        used.pairs_reused = self.reused;
        used.ignored.extend(self.ignored);
        let (Mode::Write, Some(secret), Some(memo)) = (self.mode, &self.secret, &self.memo) else {
            return;
        };
        let Some(payload) = to_bytes(memo) else {
            return;
        };
        if self.old.as_ref() == Some(&payload) {
            return;
        }
        let header = container::Header {
            kind: *KIND,
            key: self.key,
            started_ns: super::now_ns(),
        };
        let bytes = container::encode(&header, &payload, secret);
        if bytes.len() as u64 > MAX_BYTES {
            used.ignored
                .push(format!("{PAIRS_FILE} not written: over {MAX_BYTES} bytes"));
            return;
        }
        match super::write(vault, PAIRS_FILE, &bytes) {
            Ok(()) => used.written = true,
            Err(e) => used.ignored.push(format!("{PAIRS_FILE} not written: {e}")),
        }
    }
}
