//! The merge's memos kept between runs in `.agents/cache/pairs.bin`, framed
//! and signed like the per-file results: the pairwise answers of resolution
//! ([`PairMemo`], src/merge/memo.rs) and the match graph of clustering
//! ([`ClusterMemo`], src/merge/cluster_memo/). The pairwise memo re-checks
//! every remembered match it relies on and trusts its remembered non-matches;
//! the clustering memo trusts its match graph both ways. That trust is why
//! only memos signed with the user's key are handed to the merge.

use super::{CacheUse, MAX_BYTES, Mode, PAIRS_FILE, container, from_bytes, secret, to_bytes};
use crate::merge::{ClusterMemo, PairMemo};
use crate::vault_fs::VaultDir;
use serde::{Deserialize, Serialize};

/// `PAI2`: the payload holds both memos (`PAIR` held the pairwise one only).
const KIND: &[u8; 4] = b"PAI2";

/// The payload of `pairs.bin`.
#[derive(Serialize, Deserialize)]
struct Memos {
    pairs: PairMemo,
    clusters: ClusterMemo,
}

/// The payload of `pairs.bin`, borrowed for writing.
#[derive(Serialize)]
struct MemosRef<'a> {
    pairs: &'a PairMemo,
    clusters: &'a ClusterMemo,
}

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
    /// The clustering memo for the merge (`None` when `memo` is).
    pub clusters: Option<ClusterMemo>,
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
            clusters: None,
            reused: false,
            ignored: Vec::new(),
        };
        if mode == Mode::Off {
            return pairs;
        }
        pairs.memo = Some(PairMemo::new());
        pairs.clusters = Some(ClusterMemo::new());
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
                Ok(memos) => {
                    pairs.memo = Some(memos.pairs);
                    pairs.clusters = Some(memos.clusters);
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
            pairs.clusters = None;
        }
        pairs
    }

    fn ignore(&mut self, why: String) {
        self.ignored.push(format!("{PAIRS_FILE} ignored: {why}"));
    }

    /// Tells the memo read from the cache when the merge may leave it as it
    /// was, since it will not be written: always in a read-only run; in a
    /// writing run whose per-file results are left as they were
    /// (`deferred`), when the merge meets few texts it does not know
    /// ([`PairMemo::keep_if_few`]).
    pub(crate) fn choose_keeping(&mut self, deferred: bool) {
        let mode = self.mode;
        let Some(m) = self.memo.as_mut().filter(|_| self.reused) else {
            return;
        };
        if mode == Mode::Read {
            m.keep_always();
        } else if deferred {
            m.keep_if_few();
        }
    }

    fn load(&mut self, bytes: &[u8]) -> Result<Memos, String> {
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
        let (Mode::Write, Some(secret), Some(pairs), Some(clusters)) =
            (self.mode, &self.secret, &self.memo, &self.clusters)
        else {
            return;
        };
        // The per-file results were left as they were (few files changed),
        // and so was a memo that knew nearly every text of this run (see
        // `keep_if_few`): the next run compares the few texts it lacks
        // again, as this one did.
        if pairs.kept() {
            return;
        }
        let Some(payload) = to_bytes(&MemosRef { pairs, clusters }) else {
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
