//! A similarity index: finds texts within `threshold` of a query without
//! comparing against everything. Entries are grouped by project and bucketed
//! by character count; only buckets inside the length window the threshold
//! allows are visited, and a bag-distance bound (a cheap lower bound on the
//! Levenshtein distance) discards most candidates before the real comparison.

use crate::normalize::similarity;
use std::collections::{BTreeMap, HashMap};

const SIG_BUCKETS: usize = 32;

/// A character histogram folded into 32 buckets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Signature([u16; SIG_BUCKETS]);

impl Signature {
    pub fn of(text: &str) -> (Signature, usize) {
        let mut sig = [0u16; SIG_BUCKETS];
        let mut n = 0;
        for c in text.chars() {
            let slot = &mut sig[(c as u32 as usize) % SIG_BUCKETS];
            *slot = slot.saturating_add(1);
            n += 1;
        }
        (Signature(sig), n)
    }

    /// Bag distance over the folded histogram: never more than the
    /// Levenshtein distance of the two texts.
    fn bag_distance(&self, other: &Signature) -> u32 {
        let (mut more, mut less) = (0u32, 0u32);
        for (a, b) in self.0.iter().zip(other.0.iter()) {
            if a > b {
                more += u32::from(a - b);
            } else {
                less += u32::from(b - a);
            }
        }
        more.max(less)
    }
}

/// A prepared query or entry text.
#[derive(Clone, Debug)]
pub struct Key<'a> {
    pub norm: &'a str,
    pub sig: Signature,
    pub len: usize,
}

impl<'a> Key<'a> {
    pub fn new(norm: &'a str) -> Self {
        let (sig, len) = Signature::of(norm);
        Key { norm, sig, len }
    }
}

/// Whether `a` and `b` are similar enough, using the cheap bounds first.
pub fn similar(a: &Key<'_>, b: &Key<'_>, threshold: f64) -> bool {
    let max = a.len.max(b.len);
    if max == 0 {
        return true;
    }
    let allowed = (1.0 - threshold) * max as f64 + 1e-9;
    if (a.len.abs_diff(b.len) as f64) > allowed {
        return false;
    }
    if f64::from(a.sig.bag_distance(&b.sig)) > allowed {
        return false;
    }
    a.norm == b.norm || similarity(a.norm, b.norm) >= threshold
}

/// Entries (by id) grouped by project and bucketed by length; ids within a
/// bucket are kept ascending.
#[derive(Default, Debug)]
pub struct SimIndex {
    groups: HashMap<Option<String>, BTreeMap<usize, Vec<u32>>>,
}

impl SimIndex {
    pub fn insert(&mut self, project: Option<&str>, len: usize, id: u32) {
        let bucket = self
            .groups
            .entry(project.map(str::to_string))
            .or_default()
            .entry(len)
            .or_default();
        let pos = bucket.partition_point(|&x| x < id);
        bucket.insert(pos, id);
    }

    pub fn remove(&mut self, project: Option<&str>, len: usize, id: u32) {
        if let Some(group) = self.groups.get_mut(&project.map(str::to_string))
            && let Some(bucket) = group.get_mut(&len)
            && let Ok(pos) = bucket.binary_search(&id)
        {
            bucket.remove(pos);
        }
    }

    /// Calls `visit` with the ids of candidate buckets for a query of `len`
    /// characters in `project`: the project's own group and the untagged group,
    /// or every group for an untagged query. `visit` returns false to stop.
    pub fn candidates(
        &self,
        project: Option<&str>,
        len: usize,
        threshold: f64,
        mut visit: impl FnMut(&[u32]) -> bool,
    ) {
        let lo = (threshold * len as f64 - 1e-9).ceil().max(0.0) as usize;
        let hi = if threshold > 0.0 {
            (len as f64 / threshold + 1e-9).floor() as usize
        } else {
            usize::MAX
        };
        let mut scan = |group: &BTreeMap<usize, Vec<u32>>| -> bool {
            for (_, ids) in group.range(lo..=hi) {
                if !visit(ids) {
                    return false;
                }
            }
            true
        };
        match project {
            Some(p) => {
                if let Some(g) = self.groups.get(&Some(p.to_string()))
                    && !scan(g)
                {
                    return;
                }
                if let Some(g) = self.groups.get(&None) {
                    scan(g);
                }
            }
            None => {
                for g in self.groups.values() {
                    if !scan(g) {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bag_distance_bounds_levenshtein() {
        let pairs = [
            ("kitten", "sitting"),
            ("abc", "abc"),
            ("", "abc"),
            ("다음 세션", "다음 세션들"),
        ];
        for (a, b) in pairs {
            let (ka, kb) = (Key::new(a), Key::new(b));
            assert!(ka.sig.bag_distance(&kb.sig) as usize <= strsim::levenshtein(a, b));
        }
    }

    #[test]
    fn similar_agrees_with_strsim() {
        let t = 0.85;
        let texts = [
            "add lock timeout",
            "add lock timeouts",
            "add a lock timeout",
            "remove lock",
            "",
        ];
        for a in texts {
            for b in texts {
                let expect = strsim::normalized_levenshtein(a, b) >= t;
                assert_eq!(
                    similar(&Key::new(a), &Key::new(b), t),
                    expect,
                    "{a:?} vs {b:?}"
                );
            }
        }
    }

    #[test]
    fn candidates_respect_project_and_length() {
        let mut idx = SimIndex::default();
        idx.insert(Some("a"), 10, 0);
        idx.insert(Some("b"), 10, 1);
        idx.insert(None, 10, 2);
        idx.insert(Some("a"), 30, 3);
        let mut seen = Vec::new();
        idx.candidates(Some("a"), 10, 0.85, |ids| {
            seen.extend_from_slice(ids);
            true
        });
        seen.sort();
        assert_eq!(seen, vec![0, 2]);
        let mut all = Vec::new();
        idx.candidates(None, 10, 0.85, |ids| {
            all.extend_from_slice(ids);
            true
        });
        all.sort();
        assert_eq!(all, vec![0, 1, 2]);
        idx.remove(Some("a"), 10, 0);
        let mut after = Vec::new();
        idx.candidates(Some("a"), 10, 0.85, |ids| {
            after.extend_from_slice(ids);
            true
        });
        assert_eq!(after, vec![2]);
    }
}
