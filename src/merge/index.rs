//! A similarity index: finds texts within `threshold` of a query without
//! comparing against everything. Entries are grouped by project and bucketed
//! by character count; only buckets inside the length window the threshold
//! allows are visited. Each bucket stores the entries' bigram masks inline,
//! so the first (and most selective) bound is checked on contiguous memory
//! before any text is touched.

use super::similar::{Bigrams, Key};
use std::collections::{BTreeMap, HashMap};

/// One indexed entry: its id, character count and bigram mask.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    pub id: u32,
    pub len: u32,
    pub bigrams: Bigrams,
}

impl Slot {
    /// The bigram bound against a query: false when the pair cannot reach
    /// `threshold` (one edit changes at most four bigrams of the set).
    #[inline]
    pub fn may_match(&self, q: &Key<'_>, threshold: f64) -> bool {
        let max = (self.len as usize).max(q.len);
        let allowed = ((1.0 - threshold) * max as f64 + 1e-9) as u32;
        q.bigrams.differing(&self.bigrams) <= 4 * allowed
    }
}

/// Entries (by id) grouped by project and bucketed by length; ids within a
/// bucket are kept ascending.
#[derive(Default, Debug)]
pub struct SimIndex {
    groups: HashMap<Option<String>, BTreeMap<usize, Vec<Slot>>>,
    /// Every entry regardless of project, for untagged queries.
    all: BTreeMap<usize, Vec<Slot>>,
}

impl SimIndex {
    pub fn insert(&mut self, project: Option<&str>, key: &Key<'_>, id: u32) {
        let len = key.len;
        let slot = Slot {
            id,
            len: len as u32,
            bigrams: key.bigrams,
        };
        let everything = self.all.entry(len).or_default();
        if !everything.iter().rev().take(1).any(|x| x.id == id) {
            let pos = everything.partition_point(|x| x.id < id);
            if everything.get(pos).is_none_or(|x| x.id != id) {
                everything.insert(pos, slot);
            }
        }
        let bucket = self
            .groups
            .entry(project.map(str::to_string))
            .or_default()
            .entry(len)
            .or_default();
        let pos = bucket.partition_point(|x| x.id < id);
        bucket.insert(pos, slot);
    }

    pub fn remove(&mut self, project: Option<&str>, len: usize, id: u32) {
        if let Some(group) = self.groups.get_mut(&project.map(str::to_string))
            && let Some(bucket) = group.get_mut(&len)
            && let Ok(pos) = bucket.binary_search_by_key(&id, |x| x.id)
        {
            bucket.remove(pos);
        }
    }

    /// Calls `visit` with the slots of candidate buckets for a query of `len`
    /// characters in `project`: the project's own group and the untagged group,
    /// or every entry for an untagged query. `visit` returns false to stop.
    /// `remove` only moves an entry between project groups, so an untagged
    /// query still sees each entry once.
    pub fn candidates(
        &self,
        project: Option<&str>,
        len: usize,
        threshold: f64,
        mut visit: impl FnMut(&[Slot]) -> bool,
    ) {
        let lo = (threshold * len as f64 - 1e-9).ceil().max(0.0) as usize;
        let hi = if threshold > 0.0 {
            (len as f64 / threshold + 1e-9).floor() as usize
        } else {
            usize::MAX
        };
        let mut scan = |group: &BTreeMap<usize, Vec<Slot>>| -> bool {
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
                scan(&self.all);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(idx: &SimIndex, project: Option<&str>, len: usize) -> Vec<u32> {
        let mut seen = Vec::new();
        idx.candidates(project, len, 0.85, |slots| {
            seen.extend(slots.iter().map(|s| s.id));
            true
        });
        seen.sort();
        seen
    }

    #[test]
    fn candidates_respect_project_and_length() {
        let ten = Key::new("abcdefghij");
        let thirty = Key::new("abcdefghijabcdefghijabcdefghij");
        let mut idx = SimIndex::default();
        idx.insert(Some("a"), &ten, 0);
        idx.insert(Some("b"), &ten, 1);
        idx.insert(None, &ten, 2);
        idx.insert(Some("a"), &thirty, 3);
        assert_eq!(ids(&idx, Some("a"), 10), vec![0, 2]);
        assert_eq!(ids(&idx, None, 10), vec![0, 1, 2]);
        idx.remove(Some("a"), 10, 0);
        assert_eq!(ids(&idx, Some("a"), 10), vec![2]);
    }
}
