//! After the merge, the certain rules (docs/FORMAT.md §5.1): a later done
//! entry that names the same task identifier (`#12`, `PR #12`, `T-091`, an
//! issue URL) resolves an open item, and the recorded decisions (`same`,
//! `not-task`; `keep` is noted for the review) are applied.

use super::similarity::Shape;
use super::{FrozenIndex, Key, Merged, Resolution};
use crate::decisions::{Decision, Verb};
use crate::item::{Item, Location, Signal};
use jiff::civil::Date;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Prefixes of `WORD-123` that name a standard or an encoding, not a task.
const NOT_TASK_PREFIXES: &[&str] = &[
    "UTF", "SHA", "ISO", "RFC", "MD", "AES", "RSA", "IPV", "HTTP", "TLS", "ES", "X", "V", "P",
];

/// The task identifiers `text` names, normalized: `#12` (from `#12`,
/// `PR #12`, `bug #12` or an `…/issues/12`, `…/pull/12`,
/// `…/merge_requests/12` URL) and `ABC-12` keys (upper-cased).
pub fn identifiers(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let b = text.as_bytes();
    let digits_from = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let word_before = |i: usize| i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'&');
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && !word_before(i) {
            let n = digits_from(i + 1);
            let after = b.get(i + 1 + n);
            if n > 0 && !after.is_some_and(|a| a.is_ascii_alphabetic() || *a == b'_') {
                out.push(format!("#{}", &text[i + 1..i + 1 + n]));
            }
        }
    }
    for seg in ["/issues/", "/pull/", "/pulls/", "/merge_requests/"] {
        for (i, _) in text.match_indices(seg) {
            let start = i + seg.len();
            let n = digits_from(start);
            if n > 0 && text[..i].contains("://") {
                out.push(format!("#{}", &text[start..start + n]));
            }
        }
    }
    // ABC-12: upper-case letters (and digits after the first), a dash, digits.
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_uppercase() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let head = b[i..]
                .iter()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                .count();
            let dash = i + head;
            if head <= 10 && b.get(dash) == Some(&b'-') {
                let n = digits_from(dash + 1);
                let end = dash + 1 + n;
                let clean_end = !b.get(end).is_some_and(|a| a.is_ascii_alphanumeric());
                let prefix = &text[i..dash];
                if n > 0 && clean_end && !NOT_TASK_PREFIXES.contains(&prefix) {
                    out.push(text[i..end].to_string());
                }
                i = end.max(i + 1);
                continue;
            }
            i += head.max(1);
            continue;
        }
        i += 1;
    }
    out.sort();
    out.dedup();
    out
}

/// Whether `text` reads as a record of work done rather than a task: it
/// starts with ✅/✔/☑ or with done/fixed/merged/completed/closed/shipped,
/// or ends with "done", "(done)", "— done".
pub fn is_done_line(text: &str) -> bool {
    let t = text.trim().trim_start_matches(['*', '_', '~', ' ']);
    if t.starts_with(['✅', '✔', '☑']) {
        return true;
    }
    let lower = t.to_lowercase();
    let first: String = lower.chars().take_while(|c| c.is_alphanumeric()).collect();
    let next = lower[first.len()..].chars().next();
    let verb = matches!(
        first.as_str(),
        "fixed" | "merged" | "completed" | "closed" | "shipped" | "resolved"
    );
    if (verb && next.is_none_or(|c| matches!(c, ' ' | ':' | ',')))
        || (first == "done" && next.is_none_or(|c| matches!(c, ':' | ',' | '.' | '!')))
    {
        return true;
    }
    let end = lower.trim_end_matches(['.', '!', ' ', '*', '_']);
    if end.ends_with("(done)") {
        return true;
    }
    let Some(head) = end.strip_suffix("done") else {
        return false;
    };
    let head = head.trim_end();
    // `… (done)`, `…: done`, `… — done`, `… -> done`, or `#7 done`.
    head.ends_with('(')
        || head.ends_with([':', '—', '–', '-', '>', '→'])
        || (head.len() < 40
            && !identifiers(head).is_empty()
            && head.split_whitespace().count() <= 2)
}

/// What the settling noted: items a `keep` decision holds out of review
/// (by the representative's place, with the decision's date), and each
/// decision that touched an open item (by its representative's place).
#[derive(Debug, Default, Clone)]
pub struct Settled {
    pub kept: Vec<(Location, Date)>,
    pub notes: Vec<(Location, String)>,
    /// Decision lines that named no open item (line, why).
    pub unmatched: Vec<(u32, String)>,
    /// The done entries of the sources: the signals before settling added
    /// the open items that read as done lines.
    pub scanned_signals: usize,
}

/// Finds the cluster a decision's item names now (see [`Finder::find`]),
/// from lookups built once for every decision: a file of many decisions
/// costs a lookup each, never a pass over every cluster.
struct Finder<'m> {
    merged: &'m Merged,
    /// (cluster project, a member's matching key) → the clusters, ascending.
    by_key: FxHashMap<(Option<&'m str>, &'m str), Vec<usize>>,
    /// Item ID → the clusters carrying it, ascending.
    by_id: FxHashMap<&'m str, Vec<usize>>,
    /// The representatives' keys and their similarity index, built when a
    /// decision first needs the rewording rule.
    reps: std::cell::OnceCell<(Vec<Key<'m>>, FrozenIndex<'m>)>,
}

impl<'m> Finder<'m> {
    fn new(merged: &'m Merged, ids: &'m [String]) -> Self {
        let mut by_key: FxHashMap<(Option<&str>, &str), Vec<usize>> = FxHashMap::default();
        for (n, c) in merged.clusters.iter().enumerate() {
            for &m in &c.members {
                let list = by_key
                    .entry((c.project.as_deref(), &*merged.items[m].norm))
                    .or_default();
                if list.last() != Some(&n) {
                    list.push(n);
                }
            }
        }
        let mut by_id: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        for (n, id) in ids.iter().enumerate() {
            by_id.entry(id.as_str()).or_default().push(n);
        }
        Finder {
            merged,
            by_key,
            by_id,
            reps: std::cell::OnceCell::new(),
        }
    }

    /// The cluster a decision's item names now: the same matching key in
    /// the same project, else the same ID, else (a rewording) the one open
    /// item whose key the matching rule calls the same.
    fn find(
        &self,
        project: Option<&str>,
        id: &str,
        text: &str,
        threshold: f64,
        alive: &[bool],
    ) -> Option<usize> {
        let key = crate::normalize::key(text);
        let first_alive =
            |list: Option<&Vec<usize>>| list.and_then(|l| l.iter().copied().find(|&n| alive[n]));
        first_alive(self.by_key.get(&(project, &*key)))
            .or_else(|| first_alive(self.by_id.get(id)))
            .or_else(|| self.reworded(project, &key, threshold, alive))
    }

    /// The one live cluster of `project` whose representative matches
    /// `key` (a key without private spans), if exactly one does.
    fn reworded(
        &self,
        project: Option<&str>,
        key: &str,
        threshold: f64,
        alive: &[bool],
    ) -> Option<usize> {
        let merged = self.merged;
        let (keys, index) = self.reps.get_or_init(|| {
            let keys: Vec<Key<'m>> = merged
                .clusters
                .iter()
                .map(|c| {
                    let rep = &merged.items[c.members[0]];
                    Key::with_private(&rep.norm, rep.private)
                })
                .collect();
            let shapes: Vec<Shape> = keys.iter().map(Shape::of).collect();
            let index = FrozenIndex::build(
                &shapes,
                merged
                    .clusters
                    .iter()
                    .enumerate()
                    .map(|(n, c)| (c.project.as_deref(), n as u32)),
            );
            (keys, index)
        });
        let q = Key::new(key);
        let mut hits: Vec<usize> = Vec::new();
        // The index gives the clusters of the project and the untagged
        // ones (every one for an untagged query) that the cheap bounds
        // let through; the rule wants the project's own, exactly.
        index.candidates(project, &q, threshold, |rows| {
            rows.scan(&q, threshold, u32::MAX, |n| {
                let n = n as usize;
                if alive[n]
                    && merged.clusters[n].project.as_deref() == project
                    && super::similar(&q, &keys[n], threshold)
                {
                    hits.push(n);
                }
                hits.len() < 2
            })
        });
        (hits.len() == 1).then(|| hits[0])
    }
}

/// Applies the certain rules and `decisions` to `merged`. Open items that
/// read as done lines are added to `signals` as done entries (they name
/// identifiers too); the items themselves stay open (the review asks).
pub fn settle(
    merged: &mut Merged,
    signals: &mut Vec<Signal>,
    decisions: &[Decision],
    threshold: f64,
) {
    merged.settled = settle_inner(merged, signals, decisions, threshold);
}

fn settle_inner(
    merged: &mut Merged,
    signals: &mut Vec<Signal>,
    decisions: &[Decision],
    threshold: f64,
) -> Settled {
    let mut settled = Settled {
        scanned_signals: signals.len(),
        ..Settled::default()
    };
    for c in &merged.clusters {
        let rep = &merged.items[c.members[0]];
        if is_done_line(&rep.text) && !identifiers(&rep.text).is_empty() {
            signals.push(Signal {
                text: rep.text.clone(),
                norm: rep.norm.clone(),
                private: rep.private,
                project: rep.project.clone(),
                date: rep.date,
                loc: rep.loc.clone(),
            });
        }
    }
    let named: Vec<(usize, Vec<String>)> = signals
        .iter()
        .enumerate()
        .map(|(n, s)| (n, identifiers(&s.text)))
        .filter(|(_, ids)| !ids.is_empty())
        .collect();
    let n = merged.clusters.len();
    let mut alive = vec![true; n];
    // (cluster, signal, identifiers) resolved by identifier.
    let mut closed: Vec<(usize, Option<usize>, Arc<str>)> = Vec::new();
    if !named.is_empty() {
        // The signals naming each identifier: an item is compared only with
        // the signals that name its first identifier (every one must match).
        let mut by_id: rustc_hash::FxHashMap<&str, Vec<usize>> = Default::default();
        for (k, (_, sids)) in named.iter().enumerate() {
            for i in sids {
                by_id.entry(i.as_str()).or_default().push(k);
            }
        }
        for (ci, c) in merged.clusters.iter().enumerate() {
            let rep = &merged.items[c.members[0]];
            if is_done_line(&rep.text) {
                continue;
            }
            let ids = identifiers(&rep.text);
            let Some(candidates) = ids.first().and_then(|i| by_id.get(i.as_str())) else {
                continue;
            };
            let best = candidates
                .iter()
                .map(|&k| &named[k])
                .filter(|(sn, sids)| {
                    let s = &signals[*sn];
                    s.loc != rep.loc
                        && s.project.as_deref() == c.project.as_deref()
                        && match (s.date, c.last_seen) {
                            (Some(sd), Some(last)) => sd >= last,
                            _ => true,
                        }
                        && ids.iter().all(|i| sids.contains(i))
                })
                .max_by_key(|(sn, _)| (signals[*sn].date, std::cmp::Reverse(*sn)));
            if let Some((sn, _)) = best {
                alive[ci] = false;
                closed.push((
                    ci,
                    Some(*sn),
                    format!("identifier {}", ids.join(" ")).into(),
                ));
            }
        }
    }
    let ids: Vec<String> = crate::item_id::assign(
        merged
            .clusters
            .iter()
            .map(|c| (c.project.as_deref(), &*merged.items[c.members[0]].norm)),
    );
    // `same`: (into, from) pairs, applied after the search.
    let mut joins: Vec<(usize, usize)> = Vec::new();
    let finder = Finder::new(merged, &ids);
    for d in decisions {
        let project = d.project.as_deref();
        let found = finder.find(project, &d.id, &d.text, threshold, &alive);
        let Some(ci) = found else {
            if d.verb != Verb::Keep {
                settled.unmatched.push((
                    d.line,
                    format!("{} {}: no open item", d.verb.as_str(), d.id),
                ));
            }
            continue;
        };
        let rep_loc = merged.items[merged.clusters[ci].members[0]].loc.clone();
        let note = format!("{} {} (decisions line {})", d.date, d.verb.as_str(), d.line);
        match d.verb {
            Verb::Keep => {
                settled.kept.push((rep_loc.clone(), d.date));
                settled.notes.push((rep_loc, note));
            }
            Verb::NotTask => {
                alive[ci] = false;
                closed.push((ci, None, format!("decision {note}").into()));
            }
            Verb::Same => {
                let Some((oid, otext)) = &d.other else {
                    continue;
                };
                let other = finder.find(project, oid, otext, threshold, &alive);
                match other {
                    Some(o) if o != ci => {
                        alive[o] = false;
                        joins.push((ci, o));
                        settled.notes.push((rep_loc, note));
                    }
                    Some(_) => settled.notes.push((rep_loc, note)),
                    None => settled
                        .unmatched
                        .push((d.line, format!("same {oid}: no open item"))),
                }
            }
        }
    }
    drop(finder);
    if closed.is_empty() && joins.is_empty() {
        return settled;
    }
    // Joined clusters: the members of the second go to the first.
    for &(into, from) in &joins {
        let moved = std::mem::take(&mut merged.clusters[from].members);
        let (first, last) = (
            merged.clusters[from].first_seen,
            merged.clusters[from].last_seen,
        );
        let c = &mut merged.clusters[into];
        c.members.extend(moved);
        c.first_seen = c.first_seen.min(first).or(c.first_seen).or(first);
        c.last_seen = c.last_seen.max(last);
        merged.duplicates_merged += 1;
    }
    let mut items: Vec<Option<Item>> = std::mem::take(&mut merged.items)
        .into_iter()
        .map(Some)
        .collect();
    for (ci, signal, rule) in closed {
        let members = std::mem::take(&mut merged.clusters[ci].members);
        merged.resolved += members.len();
        merged.duplicates_merged -= members.len() - 1;
        for m in members {
            if let Some(item) = items[m].take() {
                merged.resolutions.push(Resolution {
                    item,
                    signal,
                    similarity: 1.0,
                    rule: Some(rule.clone()),
                });
            }
        }
    }
    merged
        .resolutions
        .sort_by(|a, b| a.item.loc.cmp(&b.item.loc));
    let mut remap = vec![usize::MAX; items.len()];
    let mut kept_items = Vec::with_capacity(items.len());
    let clusters = std::mem::take(&mut merged.clusters);
    let mut out = Vec::with_capacity(clusters.len());
    for mut c in clusters.into_iter().filter(|c| !c.members.is_empty()) {
        for m in &mut c.members {
            if remap[*m] == usize::MAX {
                remap[*m] = kept_items.len();
                kept_items.push(
                    items[*m]
                        .take()
                        .expect("each member belongs to one cluster"),
                );
            }
            *m = remap[*m];
        }
        out.push(c);
    }
    merged.items = kept_items;
    merged.clusters = out;
    settled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_read_in_their_forms() {
        assert_eq!(identifiers("Begin work on ticket #7: scaffold"), ["#7"]);
        assert_eq!(identifiers("review PR #12 and T-091"), ["#12", "T-091"]);
        assert_eq!(
            identifiers("see https://github.com/o/r/issues/42 now"),
            ["#42"]
        );
        assert!(identifiers("UTF-8 and SHA-256, item#3, #3a, &#39;").is_empty());
        assert_eq!(identifiers("JIRA-12, ABC-3."), ["ABC-3", "JIRA-12"]);
    }

    #[test]
    fn done_lines_are_recognised() {
        for t in [
            "✅ #7 done",
            "Fixed the parser",
            "merged: PR #3",
            "#7 — done",
            "Done: the parser",
            "parser (done)",
            "#7 done",
        ] {
            assert!(is_done_line(t), "{t}");
        }
        for t in [
            "fix the parser",
            "Done criteria for #7",
            "make it done-able",
            "half done",
        ] {
            assert!(!is_done_line(t), "{t}");
        }
    }
}
