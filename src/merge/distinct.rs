//! Numbering the distinct texts of a list (resolution's entries and
//! queries, clustering's open items): the keys are tuples of borrowed
//! strings spread over the heap, so the reads are arranged to overlap.

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::FxBuildHasher;
use std::hash::{BuildHasher, Hash};

/// Numbers the distinct keys of `keys` in the order of their first
/// appearance: each key's number, and the position of each number's first
/// key. The hashes are computed first, in a loop of their own, so the
/// reads of the scattered key texts overlap; numbering then reads a text
/// only to confirm a repeat.
pub(super) fn number_distinct<K: Hash + Eq>(keys: &[K]) -> (Vec<u32>, Vec<u32>) {
    let hashes: Vec<u64> = keys.iter().map(|k| FxBuildHasher.hash_one(k)).collect();
    let mut table: HashTable<(u64, u32)> = HashTable::with_capacity(keys.len());
    let mut firsts: Vec<u32> = Vec::new();
    let numbers = keys
        .iter()
        .zip(&hashes)
        .enumerate()
        .map(|(i, (k, &h))| {
            let same = |&(g, n): &(u64, u32)| g == h && keys[firsts[n as usize] as usize] == *k;
            match table.entry(h, same, |&(g, _)| g) {
                Entry::Occupied(e) => e.get().1,
                Entry::Vacant(e) => {
                    let n = firsts.len() as u32;
                    e.insert((h, n));
                    firsts.push(i as u32);
                    n
                }
            }
        })
        .collect();
    (numbers, firsts)
}

#[cfg(test)]
mod tests {
    use super::number_distinct;
    use proptest::prelude::*;

    /// A key as resolution and clustering number them: a text, a project,
    /// a private mark.
    type Key = (&'static str, Option<&'static str>, Option<u64>);

    fn keys() -> impl Strategy<Value = Vec<Key>> {
        proptest::collection::vec(
            (
                proptest::sample::select(&["", "a", "ab", "fix the lock", "été"][..]),
                proptest::option::of(proptest::sample::select(&["p", "q"][..])),
                proptest::option::of(0u64..2),
            ),
            0..24,
        )
    }

    proptest! {
        /// Keys are numbered in the order they first come, equal keys alike,
        /// and each number's first key is where it first came.
        #[test]
        fn distinct_keys_are_numbered_in_order(keys in keys()) {
            let (numbers, firsts) = number_distinct(&keys);
            let mut seen: Vec<Key> = Vec::new();
            for (i, k) in keys.iter().enumerate() {
                let n = match seen.iter().position(|s| s == k) {
                    Some(n) => n,
                    None => {
                        seen.push(*k);
                        prop_assert_eq!(firsts[seen.len() - 1] as usize, i);
                        seen.len() - 1
                    }
                };
                prop_assert_eq!(numbers[i] as usize, n);
            }
            prop_assert_eq!(firsts.len(), seen.len());
        }
    }
}
