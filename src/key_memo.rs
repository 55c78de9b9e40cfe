//! The matching keys of one scan, computed once per distinct text.
//!
//! A vault repeats its follow-ups: a journal carries the same open item
//! from day to day, and a done entry repeats the item it closes. On the L
//! benchmark vault 55 k of 96 k list item texts are distinct. The key
//! (`normalize::key`) is most of the scan's instructions, so the files
//! scanned in one run share this memo: each distinct text is keyed once,
//! whichever thread meets it first. Two threads meeting a new text at once
//! may both key it; the key is a pure function of the text, so either
//! answer is the same.
//!
//! The memo lives as long as the scan (it is dropped before the merge).
//! The same memo, with other answers, holds the role of each distinct
//! heading text (`parse::headings`): journals repeat their headings in
//! every file.

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

/// Shards (locks) of the memo: the scanning threads rarely wait for each other.
const SHARDS: usize = 16;

/// Text → an answer computed from the text alone (a pure function), shared
/// by the threads of one scan.
///
/// Each shard keeps its texts back to back in one buffer and indexes them
/// by position: a few large allocations, not one small one per text, so
/// the memory goes back whole when the scan ends.
pub(crate) struct TextMemo<V> {
    shards: Vec<Mutex<Shard<V>>>,
}

/// Text → matching key. Each key is one shared string (`Arc<str>`): the
/// items and signals of every repeat of a text hold the same key, not a
/// copy each (on the L benchmark vault 41 k of 96 k list item texts are
/// repeats).
pub(crate) type KeyMemo = TextMemo<Arc<str>>;

struct Shard<V> {
    /// Each entry's text.
    bytes: String,
    /// Entries by their text's hash.
    table: HashTable<Entry<V>>,
}

impl<V> Default for Shard<V> {
    fn default() -> Self {
        Shard {
            bytes: String::new(),
            table: HashTable::new(),
        }
    }
}

/// An entry: its text's place in its shard's buffer, and its answer.
struct Entry<V> {
    start: u32,
    text_len: u32,
    key: V,
}

impl<V: Clone> Shard<V> {
    fn text(&self, e: &Entry<V>) -> &str {
        &self.bytes[e.start as usize..(e.start + e.text_len) as usize]
    }

    fn find(&self, hash: u64, text: &str) -> Option<&Entry<V>> {
        self.table.find(hash, |e| self.text(e) == text)
    }

    fn insert(&mut self, hash: u64, text: &str, key: &V) {
        if self.find(hash, text).is_some() {
            return;
        }
        // Positions are `u32`: a shard that would outgrow them keys the
        // rest of its texts without the memo.
        let end = self.bytes.len() + text.len();
        let (Ok(start), Ok(text_len), true) = (
            u32::try_from(self.bytes.len()),
            u32::try_from(text.len()),
            end <= u32::MAX as usize,
        ) else {
            return;
        };
        self.bytes.push_str(text);
        let entry = Entry {
            start,
            text_len,
            key: key.clone(),
        };
        let Shard { bytes, table } = self;
        table.insert_unique(hash, entry, |e| {
            FxBuildHasher.hash_one(&bytes[e.start as usize..(e.start + e.text_len) as usize])
        });
    }
}

impl<V> Default for TextMemo<V> {
    fn default() -> Self {
        TextMemo {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
        }
    }
}

/// A copy starts empty (a memo holds nothing a copy needs).
impl<V> Clone for TextMemo<V> {
    fn clone(&self) -> Self {
        TextMemo::default()
    }
}

impl<V> std::fmt::Debug for TextMemo<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextMemo").finish_non_exhaustive()
    }
}

impl KeyMemo {
    /// The matching key of `text` (`normalize::key`), shared with every
    /// other text of the scan that is the same.
    pub(crate) fn key(&self, text: &str) -> Arc<str> {
        // Not through `normalize::key`'s own per-thread memo of recent
        // texts: every repeat is found here, so that memo would only hold
        // memory during the scan.
        self.get(text, |t| crate::normalize::key_afresh(t).into())
    }
}

impl<V: Clone> TextMemo<V> {
    /// `answer(text)`, computed once for each distinct text (two threads
    /// meeting a new text at once may both compute it: `answer` must give
    /// the same for the same text).
    pub(crate) fn get(&self, text: &str, answer: impl FnOnce(&str) -> V) -> V {
        let hash = FxBuildHasher.hash_one(text);
        // Bits the table itself uses neither for the bucket (the low ones)
        // nor for its control bytes (the top seven).
        let shard = &self.shards[(hash >> 32) as usize % SHARDS];
        // A poisoned lock only means another thread panicked while holding
        // it; the shard's entries are whole (each is added in one step).
        {
            let shard = shard.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = shard.find(hash, text) {
                return e.key.clone();
            }
        }
        let key = answer(text);
        shard
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(hash, text, &key);
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every repeat of a text gets the very same key, not a copy; a
    /// different text gets its own.
    #[test]
    fn repeats_share_one_key() {
        let memo = KeyMemo::default();
        let first = memo.key("Ship the **index**");
        assert!(Arc::ptr_eq(&first, &memo.key("Ship the **index**")));
        assert!(!Arc::ptr_eq(&first, &memo.key("Ship the index")));
    }

    proptest! {
        /// Memoised or not, a text gets `normalize::key`'s answer, however
        /// often it repeats.
        #[test]
        fn the_memo_gives_the_key(texts in prop::collection::vec("[ a-zA-Z0-9#*_.`é-]{0,24}", 0..40)) {
            let memo = KeyMemo::default();
            for t in texts.iter().chain(texts.iter()) {
                prop_assert_eq!(memo.key(t).to_string(), crate::normalize::key(t));
            }
        }
    }
}
