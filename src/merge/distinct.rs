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
