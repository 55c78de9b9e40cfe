//! Stable item IDs: a short name for an open item that stays the same from
//! run to run while the item's text is unchanged, so a person or an agent can
//! refer to it (`explain`, and commands that act on items).
//!
//! An ID is the start of the lower-case base32 form of BLAKE3 over the
//! cluster's project and the matching key of its representative. Six
//! characters normally; when two open items would share a prefix both are
//! lengthened until they differ. Two clusters with the very same project and
//! key (possible only when a guard kept them apart) get `-2`, `-3`, … after
//! the full-length form, in rank order.

use rayon::prelude::*;

/// Characters of an ID when nothing collides.
pub const MIN_LEN: usize = 6;

/// The full-length ID of an item with this project and matching key.
pub fn full(project: Option<&str>, key: &str) -> String {
    let mut h = blake3::Hasher::new();
    // A leading tag keeps "no project" apart from every project name.
    match project {
        Some(p) => {
            h.update(b"p");
            h.update(p.as_bytes());
        }
        None => {
            h.update(b"-");
        }
    }
    h.update(&[0u8]);
    h.update(key.as_bytes());
    data_encoding::BASE32_NOPAD
        .encode(h.finalize().as_bytes())
        .to_ascii_lowercase()
}

/// IDs for items given as (project, matching key) in rank order: the
/// shortest prefix of each full ID, at least [`MIN_LEN`] characters, that no
/// other item's ID starts with.
pub fn assign<'a>(items: impl IntoIterator<Item = (Option<&'a str>, &'a str)>) -> Vec<String> {
    // A hash per item: on both cores (a large vault has thousands).
    let given: Vec<(Option<&str>, &str)> = items.into_iter().collect();
    let fulls: Vec<String> = given.into_par_iter().map(|(p, k)| full(p, k)).collect();
    let mut order: Vec<usize> = (0..fulls.len()).collect();
    // Full IDs first, then the rank: a total order.
    order.par_sort_unstable_by(|&a, &b| (&fulls[a], a).cmp(&(&fulls[b], b)));
    let common = |a: usize, b: usize| {
        fulls[a]
            .bytes()
            .zip(fulls[b].bytes())
            .take_while(|(x, y)| x == y)
            .count()
    };
    let mut ids = vec![String::new(); fulls.len()];
    // Equal full IDs before this one in sorted order (a running count, so
    // many equal keys cost no more than distinct ones).
    let mut twins_before = 0;
    for (pos, &i) in order.iter().enumerate() {
        // In sorted order the longest shared prefix is with a neighbour.
        let before = pos.checked_sub(1).map_or(0, |p| common(order[p], i));
        let after = order.get(pos + 1).map_or(0, |&n| common(n, i));
        let len = (before.max(after) + 1).clamp(MIN_LEN, fulls[i].len());
        let mut id = fulls[i][..len].to_string();
        // Equal full IDs: the first in rank order keeps the plain form.
        twins_before = match pos.checked_sub(1) {
            Some(p) if fulls[order[p]] == fulls[i] => twins_before + 1,
            _ => 0,
        };
        if twins_before > 0 {
            id.push_str(&format!("-{}", twins_before + 1));
        }
        ids[i] = id;
    }
    ids
}

/// What a query names among IDs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Exactly one ID (the index into the list given).
    One(usize),
    /// An ID prefix shared by several items (their indices, in list order).
    Ambiguous(Vec<usize>),
    /// No ID is or starts with the query.
    None,
}

/// Whether `query` has the shape of an ID (base32 letters and digits, an
/// optional `-N` suffix) and at least [`MIN_LEN`] characters.
pub fn looks_like_id(query: &str) -> bool {
    let q = query.trim();
    let base = q.split_once('-').map_or(q, |(b, n)| {
        if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) {
            b
        } else {
            q
        }
    });
    base.len() >= MIN_LEN
        && base
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_uppercase() || (b'2'..=b'7').contains(&c))
}

/// Finds the item `query` names among `ids` (case-insensitively): an exact
/// ID, else the items whose ID starts with it (an ID shown before a collision
/// lengthened it still finds its item, or reports the ambiguity).
pub fn find<'a>(ids: impl IntoIterator<Item = &'a str>, query: &str) -> Found {
    let q = query.trim().to_ascii_lowercase();
    if !looks_like_id(&q) {
        return Found::None;
    }
    let mut prefixed = Vec::new();
    for (n, id) in ids.into_iter().enumerate() {
        if id == q {
            return Found::One(n);
        }
        if id.starts_with(&q) {
            prefixed.push(n);
        }
    }
    match prefixed.len() {
        0 => Found::None,
        1 => Found::One(prefixed[0]),
        _ => Found::Ambiguous(prefixed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_short_stable_and_depend_on_project_and_key() {
        let a = assign([(Some("p"), "add lock timeout")]);
        assert_eq!(a[0].len(), MIN_LEN);
        assert_eq!(a, assign([(Some("p"), "add lock timeout")]));
        assert_eq!(a[0], full(Some("p"), "add lock timeout")[..MIN_LEN]);
        assert_ne!(a[0], assign([(Some("q"), "add lock timeout")])[0]);
        assert_ne!(a[0], assign([(None, "add lock timeout")])[0]);
        assert!(
            a[0].bytes()
                .all(|c| c.is_ascii_lowercase() || (b'2'..=b'7').contains(&c))
        );
        // Known value: the ID is part of the user-visible contract.
        assert_eq!(full(None, "x").len(), 52);
    }

    #[test]
    fn colliding_prefixes_are_lengthened_on_both_sides() {
        // Search for two keys whose full IDs share at least MIN_LEN chars.
        let mut seen: std::collections::HashMap<String, String> = Default::default();
        let (a, b) = (0..2_000_000u32)
            .find_map(|n| {
                let k = format!("task {n}");
                let f = full(None, &k)[..MIN_LEN].to_string();
                seen.insert(f, k.clone()).map(|other| (other, k))
            })
            .expect("a 30-bit prefix collides within two million keys");
        let ids = assign([(None, a.as_str()), (None, b.as_str()), (None, "other")]);
        assert!(ids[0].len() > MIN_LEN && ids[1].len() > MIN_LEN, "{ids:?}");
        assert_eq!(ids[0].len(), ids[1].len());
        assert_ne!(ids[0], ids[1]);
        assert!(!ids[0].starts_with(&ids[1]) && !ids[1].starts_with(&ids[0]));
        assert_eq!(ids[2].len(), MIN_LEN);
        // The short form shown before the collision is now ambiguous.
        let short = &ids[0][..MIN_LEN];
        assert_eq!(
            find(ids.iter().map(String::as_str), short),
            Found::Ambiguous(vec![0, 1])
        );
        assert_eq!(find(ids.iter().map(String::as_str), &ids[1]), Found::One(1));
    }

    #[test]
    fn identical_inputs_get_numbered() {
        let ids = assign([(None, "same"), (Some("p"), "x"), (None, "same")]);
        assert_eq!(ids[0], full(None, "same"));
        assert_eq!(ids[2], format!("{}-2", full(None, "same")));
        assert_eq!(ids[1].len(), MIN_LEN);
        assert_eq!(find(ids.iter().map(String::as_str), &ids[2]), Found::One(2));
    }

    #[test]
    fn find_is_case_insensitive_and_rejects_non_ids() {
        let ids = assign([(None, "a"), (None, "b")]);
        let upper = ids[1].to_ascii_uppercase();
        assert_eq!(find(ids.iter().map(String::as_str), &upper), Found::One(1));
        assert_eq!(
            find(ids.iter().map(String::as_str), &format!(" {} ", ids[0])),
            Found::One(0)
        );
        assert_eq!(find(ids.iter().map(String::as_str), "abc"), Found::None);
        assert_eq!(
            find(ids.iter().map(String::as_str), "add lock"),
            Found::None
        );
        assert!(!looks_like_id("abc"));
        assert!(!looks_like_id("abcde1"));
        assert!(looks_like_id("abcdef"));
        assert!(looks_like_id("abcdef-2"));
        assert!(!looks_like_id("abcdef-x"));
    }
}
