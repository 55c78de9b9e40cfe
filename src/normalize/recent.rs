//! A small per-thread memo of recent keys: the same text comes back often
//! while a vault is read (an open item carried from day to day is written
//! again in every daily note until it is done), and its key costs far more
//! than a lookup.
//!
//! Direct-mapped: a text's hash picks one slot, which holds the last text
//! seen there with its key; a hit needs the whole text equal, so an answer
//! is always the key of exactly that text (`key` is a pure function of its
//! text). Memory is bounded: `SLOTS` slots per thread, texts of at most
//! `MAX_TEXT` bytes.

use std::cell::RefCell;
use std::hash::BuildHasher;

/// Slots per thread. On the L bench vault a sequential read finds a third
/// of all list texts in 16,384 slots (a fifth in 4,096; measured on its
/// 95,670 list lines); at most `SLOTS * 2 * MAX_TEXT` bytes of text,
/// about 2 MB for usual texts, and given back by [`forget`] once the
/// vault is read.
const SLOTS: usize = 16384;

/// Longer texts are not remembered (rare, and they would hold memory).
pub(super) const MAX_TEXT: usize = 160;

/// The slots of one thread: a text and its key.
pub(super) struct Recent {
    /// Empty until the first key is remembered (and after `clear`).
    slots: Vec<Option<(Box<str>, Box<str>)>>,
    /// The number of slots, a power of two.
    size: usize,
}

impl Recent {
    pub(super) fn with_slots(n: usize) -> Self {
        Recent {
            slots: Vec::new(),
            size: n.next_power_of_two(),
        }
    }

    fn slot(&self, text: &str) -> usize {
        let h = rustc_hash::FxBuildHasher.hash_one(text);
        // The high bits of an Fx hash are the well-mixed ones.
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// The remembered key of `text`, if its slot holds exactly `text`.
    pub(super) fn get(&self, text: &str) -> Option<String> {
        if self.slots.is_empty() {
            return None;
        }
        match &self.slots[self.slot(text)] {
            Some((t, k)) if **t == *text => Some(String::from(&**k)),
            _ => None,
        }
    }

    fn clear(&mut self) {
        // Empty slots, and no slot table either until the next key.
        self.slots = Vec::new();
    }

    /// Remembers `key` as the key of `text` (replacing the slot's text).
    pub(super) fn put(&mut self, text: &str, key: &str) {
        if text.len() <= MAX_TEXT {
            if self.slots.is_empty() {
                self.slots = vec![None; self.size];
            }
            let at = self.slot(text);
            self.slots[at] = Some((text.into(), key.into()));
        }
    }
}

thread_local! {
    static RECENT: RefCell<Recent> = RefCell::new(Recent::with_slots(SLOTS));
}

/// Empties the memo of this thread and of every thread of rayon's pool
/// (where the vault is read): called when reading is over, so the memory
/// goes to what comes next.
pub fn forget() {
    let clear = || RECENT.with(|r| r.borrow_mut().clear());
    rayon::broadcast(|_| clear());
    clear();
}

/// `compute(text)`, answered from this thread's recent keys when `text`
/// was keyed lately. `compute` must be a pure function of the text.
pub(super) fn remembered(text: &str, compute: impl FnOnce(&str) -> String) -> String {
    if text.len() > MAX_TEXT {
        return compute(text);
    }
    // The borrow is released before `compute` runs (it may key texts too).
    if let Some(k) = RECENT.with(|r| r.borrow().get(text)) {
        return k;
    }
    let k = compute(text);
    RECENT.with(|r| r.borrow_mut().put(text, &k));
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Over any sequence of texts (with repeats and slot collisions:
        /// two slots), each answer is the key computed afresh.
        #[test]
        fn answers_are_the_keys_of_the_same_texts(
            texts in proptest::collection::vec("(Fix|fixed|the|a|TODO:|v0.1|#12|x) ?(lock|logs|É|다음 세션|)( now)?", 1..60),
            slots in prop_oneof![Just(1usize), Just(2), Just(8)],
        ) {
            let mut recent = Recent::with_slots(slots);
            for t in &texts {
                let fresh = super::super::key_afresh(t);
                match recent.get(t) {
                    Some(k) => prop_assert_eq!(&k, &fresh),
                    None => recent.put(t, &fresh),
                }
                prop_assert_eq!(&super::super::key(t), &fresh);
            }
        }
    }

    #[test]
    fn a_hit_needs_the_same_text() {
        let mut recent = Recent::with_slots(1);
        recent.put("Fix the lock", "fix lock");
        assert_eq!(recent.get("Fix the lock").as_deref(), Some("fix lock"));
        // One slot: every text lands there, and only the same text hits.
        assert_eq!(recent.get("Fix the locks"), None);
        let long = "x".repeat(MAX_TEXT + 1);
        recent.put(&long, "x");
        assert_eq!(recent.get(&long), None);
        assert_eq!(recent.get("Fix the lock").as_deref(), Some("fix lock"));
        recent.clear();
        assert_eq!(recent.get("Fix the lock"), None);
        recent.put("Fix the lock", "fix lock");
        assert_eq!(recent.get("Fix the lock").as_deref(), Some("fix lock"));
    }
}
