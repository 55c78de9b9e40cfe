//! Naming one open item on the command line (or in an MCP call): by its ID
//! (or a unique start of it), by its place `path:line` (any member of its
//! cluster), or by a text that matches exactly one open item. Several
//! matches are an error that lists them.

use crate::error::{Error, Result};
use crate::merge::{Key, Merged, similar};
use crate::normalize::key as match_key;

/// How many candidates an ambiguity error lists.
const SHOWN_CANDIDATES: usize = 10;

/// Shortest text looked up as a part of an item's text.
const MIN_PART: usize = 4;

/// Whether `part` occurs in `text` starting and ending on word boundaries.
fn contains_words(text: &str, part: &str) -> bool {
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    text.match_indices(part).any(|(at, _)| {
        boundary(text[..at].chars().next_back()) && boundary(text[at + part.len()..].chars().next())
    })
}

/// `path:line` when the query has that shape.
fn as_place(query: &str) -> Option<(&str, u32)> {
    let (path, line) = query.rsplit_once(':')?;
    let line: u32 = line.parse().ok()?;
    (!path.is_empty() && !path.contains(char::is_whitespace) && path.contains(['/', '.']))
        .then_some((path, line))
}

/// Whether `query` names an item by reference (an ID with a digit, or a
/// `path:line`) rather than by text.
pub(crate) fn is_reference(query: &str) -> bool {
    let q = query.trim();
    as_place(q).is_some()
        || (crate::item_id::looks_like_id(q) && q.bytes().any(|b| b.is_ascii_digit()))
}

/// The IDs of the open clusters, as `list` and the dashboard show them.
pub(crate) fn ids(merged: &Merged) -> Vec<String> {
    crate::item_id::assign(
        merged
            .clusters
            .iter()
            .map(|c| (c.project.as_deref(), &*merged.items[c.members[0]].norm)),
    )
}

/// One line describing a cluster, for candidate lists.
pub(crate) fn describe(merged: &Merged, ids: &[String], cluster: usize) -> String {
    let c = &merged.clusters[cluster];
    let rep = &merged.items[c.members[0]];
    format!(
        "{} [{}] {} ({}:{})",
        ids[cluster],
        c.project.as_deref().unwrap_or("untagged"),
        crate::output::escape_controls(&rep.text),
        rep.loc.path,
        rep.loc.line
    )
}

fn pick(merged: &Merged, ids: &[String], query: &str, hits: Vec<usize>) -> Result<Option<usize>> {
    match hits.len() {
        0 => Ok(None),
        1 => Ok(Some(hits[0])),
        n => Err(Error::AmbiguousItem {
            query: query.to_string(),
            count: n,
            candidates: hits
                .iter()
                .take(SHOWN_CANDIDATES)
                .map(|&c| describe(merged, ids, c))
                .collect(),
        }),
    }
}

/// The index of the open cluster `query` names (see the module comment).
/// A text may start with a `(project)` tag to narrow the search.
pub(crate) fn find_open(merged: &Merged, query: &str, threshold: f64) -> Result<usize> {
    let query = query.trim();
    if query.is_empty() {
        return Err(Error::MissingArgument {
            needed: "an item: its ID, its path:line or its text",
        });
    }
    let ids = ids(merged);
    if crate::item_id::looks_like_id(query) {
        match crate::item_id::find(ids.iter().map(String::as_str), query) {
            crate::item_id::Found::One(i) => return Ok(i),
            crate::item_id::Found::Ambiguous(hits) => {
                pick(merged, &ids, query, hits)?;
            }
            // A vanished ID: done already, or its text changed. An ID-shaped
            // word ("timeout") may still be a text, so only a query with a
            // digit is taken as an ID for sure.
            crate::item_id::Found::None => {
                if query.bytes().any(|b| b.is_ascii_digit()) {
                    return Err(Error::NoSuchItem {
                        query: query.to_string(),
                        why: "no open item has that ID (done already, or its text changed?)",
                    });
                }
            }
        }
    }
    if let Some((path, line)) = as_place(query) {
        let hit = merged.clusters.iter().position(|c| {
            c.members.iter().any(|&m| {
                let loc = &merged.items[m].loc;
                &*loc.path == path && loc.line == line
            })
        });
        return hit.ok_or_else(|| Error::NoSuchItem {
            query: query.to_string(),
            why: "no open item starts on that line (it may be done already, or the file changed)",
        });
    }
    let (tag, text) = crate::parse::split_tag(query);
    let norm = match_key(text);
    let key = Key::with_private(&norm, crate::guards::private_mark(text));
    let compatible = |c: &crate::merge::Cluster| match (&tag, &c.project) {
        (Some(t), Some(p)) => t == p,
        _ => true,
    };
    let similar_hits: Vec<usize> = merged
        .clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| compatible(c))
        .filter(|(_, c)| {
            c.members.iter().any(|&m| {
                let i = &merged.items[m];
                similar(&key, &Key::with_private(&i.norm, i.private), threshold)
            })
        })
        .map(|(i, _)| i)
        .collect();
    // An exact text settles a tie between near-duplicates.
    let exact: Vec<usize> = similar_hits
        .iter()
        .copied()
        .filter(|&i| {
            merged.clusters[i]
                .members
                .iter()
                .any(|&m| *merged.items[m].norm == *norm)
        })
        .collect();
    let hits = if exact.len() == 1 {
        exact
    } else {
        similar_hits
    };
    if let Some(found) = pick(merged, &ids, query, hits)? {
        return Ok(found);
    }
    // Then a part of the text, whole words of at least 4 characters in all:
    // "lock timeout" for "add lock timeout to route" (never "the").
    if norm.chars().count() >= MIN_PART {
        let part: Vec<usize> = merged
            .clusters
            .iter()
            .enumerate()
            .filter(|(_, c)| compatible(c))
            .filter(|(_, c)| {
                c.members
                    .iter()
                    .any(|&m| contains_words(&merged.items[m].norm, &norm))
            })
            .map(|(i, _)| i)
            .collect();
        if let Some(found) = pick(merged, &ids, query, part)? {
            return Ok(found);
        }
    }
    Err(Error::NoSuchItem {
        query: query.to_string(),
        why: "no open item has that text",
    })
}

/// The done item (a ticked checkbox, a Done or Skipped entry) `query`
/// names when no open or resolved item does: an item closed by ticking its
/// only place is no longer collected, only its done line is. Found by the
/// ID it had while open, by its `path:line`, or by its text (exact first,
/// then by the match rule; several different texts are no answer). The
/// latest dated one is returned.
pub(crate) fn find_done<'a>(
    signals: &'a [crate::item::Signal],
    query: &str,
    threshold: f64,
) -> Option<&'a crate::item::Signal> {
    use crate::item::Signal;
    let query = query.trim();
    let latest = |hits: Vec<&'a Signal>| -> Option<&'a Signal> {
        let first = hits.first()?;
        if hits.iter().any(|s| s.norm != first.norm) {
            return None;
        }
        hits.into_iter().max_by_key(|s| s.date)
    };
    if crate::item_id::looks_like_id(query) {
        let q = query.to_ascii_lowercase();
        let hits: Vec<&Signal> = signals
            .iter()
            .filter(|s| crate::item_id::full(s.project(), &s.norm).starts_with(&q))
            .collect();
        if !hits.is_empty() {
            return latest(hits);
        }
    }
    if let Some((path, line)) = as_place(query) {
        return signals
            .iter()
            .find(|s| &*s.loc.path == path && s.loc.line == line);
    }
    let (tag, text) = crate::parse::split_tag(query);
    let norm = match_key(text);
    if norm.is_empty() {
        return None;
    }
    let key = Key::with_private(&norm, crate::guards::private_mark(text));
    let candidates = signals.iter().filter(|s| match (&tag, s.project()) {
        (Some(t), Some(p)) => t == p,
        _ => true,
    });
    let (exact, similar_hits): (Vec<&Signal>, Vec<&Signal>) = candidates
        .filter(|s| similar(&key, &Key::with_private(&s.norm, s.private), threshold))
        .partition(|s| *s.norm == *norm);
    latest(if exact.is_empty() {
        similar_hits
    } else {
        exact
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_whole_words() {
        assert!(contains_words("add lock timeout to route", "lock timeout"));
        assert!(contains_words("add lock timeout", "add"));
        assert!(!contains_words("add lock timeouts", "lock timeout"));
        assert!(!contains_words("unlock it", "lock"));
    }

    #[test]
    fn places() {
        assert_eq!(
            as_place("journal/2026-05-06.md:12"),
            Some(("journal/2026-05-06.md", 12))
        );
        assert_eq!(as_place("todos.md:3"), Some(("todos.md", 3)));
        assert_eq!(as_place("note: 12"), None);
        assert_eq!(as_place("fix bug:12"), None);
        assert_eq!(as_place("ratio 3:2"), None);
    }
}
