//! The review queue (docs/FORMAT.md §5.3): open items the tool is unsure
//! about leave the priorities for a list the agent (or a person) answers,
//! each with a reason and its evidence. Nothing leaves the count:
//! `open = shown + overflow + deferred + blocked + review`.

use crate::item::{Signal, SourceKind};
use crate::merge::{Merged, identifiers, is_done_line};
use crate::report::{Report, ReportItem};
use jiff::civil::Date;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use std::fmt::Write;
use std::sync::{Arc, LazyLock};

/// Why an item is in review, in the order the queue lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A later done entry shares most of its content words or a file/code
    /// identifier, although the matching key keeps them apart.
    PossiblyDone,
    /// Its shape describes rather than asks.
    NotATask,
    /// Another open item shares its identifiers or most content words.
    PossibleDuplicate,
    /// An item of an earlier session log's list that a later session log of
    /// the project neither restates nor closes.
    Superseded,
    /// Captured from a transcript by a hook; nobody confirmed it.
    UnreviewedCapture,
    /// Not seen for more than `review.stale_days`.
    Stale,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::PossiblyDone => "possibly-done",
            Reason::NotATask => "not-a-task",
            Reason::PossibleDuplicate => "possible-duplicate",
            Reason::Superseded => "superseded",
            Reason::UnreviewedCapture => "unreviewed-capture",
            Reason::Stale => "stale",
        }
    }
}

/// What the reason rests on: a place and its text (a done entry, the other
/// open item), or a description of the shape.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Evidence {
    pub path: Option<Arc<str>>,
    pub line: Option<u32>,
    /// The other open item's ID (possible-duplicate).
    pub id: Option<String>,
    pub text: String,
}

impl Evidence {
    fn note(text: impl Into<String>) -> Evidence {
        Evidence {
            path: None,
            line: None,
            id: None,
            text: text.into(),
        }
    }

    /// `path:line text`, or the note.
    pub fn display(&self) -> String {
        let text = crate::escape::escape_controls(&self.text);
        match (&self.path, self.line, &self.id) {
            (Some(p), Some(l), Some(id)) => format!("{id} {p}:{l} {text}"),
            (Some(p), Some(l), None) => format!("{p}:{l} {text}"),
            _ => text.into_owned(),
        }
    }
}

/// An item in review.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReviewItem {
    #[serde(flatten)]
    pub item: ReportItem,
    pub reason: Reason,
    pub evidence: Evidence,
}

/// Words too common to count as content.
const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "with", "from", "into", "that", "this", "then", "than", "are", "was",
    "were", "will", "should", "can", "not", "all", "any", "its", "our", "out", "now", "new", "one",
    "two", "also", "when", "what", "which", "there", "their", "them", "have", "has", "had", "but",
    "more", "some", "just", "still", "again", "next", "session", "todo", "done", "task", "tasks",
];

/// [`STOP_WORDS`], hashed: the review asks it of every word of every item.
static STOP: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| STOP_WORDS.iter().copied().collect());

/// Strings numbered as they are first met: the review's postings are keyed
/// by small integers, never by the text (or a string formatted from it).
#[derive(Default)]
struct Names(FxHashMap<Box<str>, u32>);

impl Names {
    /// The number of `s`, given one when new.
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&n) = self.0.get(s) {
            return n;
        }
        let n = u32::try_from(self.0.len()).unwrap_or(u32::MAX);
        self.0.insert(s.into(), n);
        n
    }

    /// The number of a project: `None` apart from every name.
    fn project(&mut self, p: Option<&str>) -> u32 {
        p.map_or(0, |p| self.id(p).saturating_add(1))
    }
}

/// The content words of a matching key (three letters or more, or with a
/// digit, not common) as word numbers, ascending, each once.
fn content_words(norm: &str, vocab: &mut Names) -> Vec<u32> {
    let mut out: Vec<u32> = norm
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            (w.chars().count() >= 3 || w.chars().any(|c| c.is_ascii_digit())) && !STOP.contains(w)
        })
        .map(|w| vocab.id(w))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// File and code identifiers of a text: words with a `/`, `::`, `_`, a
/// `.ext` ending or in backticks (at least four characters).
fn code_words(text: &str) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    let trim = |w: &str| {
        w.trim_matches(|c: char| !(c.is_alphanumeric() || "/_.:-".contains(c)))
            .trim_end_matches(['.', ':'])
            .to_lowercase()
    };
    for (n, part) in text.split('`').enumerate() {
        if n % 2 == 1 && part.chars().count() >= 4 && !part.contains(' ') {
            out.insert(trim(part));
            continue;
        }
        for w in part.split_whitespace() {
            // Only a word with one of these can qualify below (trimming and
            // lower-casing add none): the rest cost no copy.
            if !w.contains(['/', ':', '_', '.']) {
                continue;
            }
            let w = trim(w);
            if w.chars().count() < 4 || w.contains("://") {
                continue;
            }
            let ext = w.rsplit_once('.').is_some_and(|(a, e)| {
                !a.is_empty()
                    && (1..=5).contains(&e.len())
                    && e.chars().all(|c| c.is_ascii_alphanumeric())
                    && e.chars().any(|c| c.is_ascii_alphabetic())
            });
            if w.contains('/') || w.contains("::") || w.contains('_') || ext {
                out.insert(w);
            }
        }
    }
    out
}

/// First words of a result or status line (`Result: …`).
const STATUS_LEADS: &[&str] = &[
    "result",
    "results",
    "status",
    "outcome",
    "cause",
    "root cause",
    "note",
    "notes",
    "summary",
    "conclusion",
    "finding",
    "findings",
    "observation",
    "why",
    "context",
    "background",
];

/// Imperative verbs that make `path — verb …` a task.
const VERBS: &[&str] = &[
    "add",
    "fix",
    "remove",
    "update",
    "write",
    "make",
    "implement",
    "test",
    "check",
    "move",
    "rename",
    "refactor",
    "support",
    "handle",
    "investigate",
    "review",
    "document",
    "port",
    "migrate",
    "split",
    "merge",
    "use",
    "replace",
    "wire",
    "create",
    "delete",
    "drop",
    "clean",
    "bump",
    "verify",
    "ensure",
    "expose",
    "extract",
    "finish",
    "run",
    "read",
    "try",
    "look",
    "decide",
    "convert",
    "switch",
    "set",
    "debug",
    "profile",
    "measure",
    "split",
    "revert",
];

/// Why `text`'s shape says it describes rather than asks, if it does.
pub fn not_a_task(text: &str) -> Option<&'static str> {
    let t = text.trim();
    if is_done_line(t) {
        return Some("a done line (records work done)");
    }
    if t.ends_with(':') {
        return Some("a fragment ending in `:`");
    }
    let lower = t.trim_start_matches(['*', '_']).to_lowercase();
    if let Some((lead, _)) = lower.split_once(':') {
        let lead = lead.trim().trim_end_matches(['*', '_']);
        if STATUS_LEADS.contains(&lead) {
            return Some("a result or status line");
        }
    }
    for prefix in [
        "tests pass",
        "all tests pass",
        "build passes",
        "works now",
        "it works",
    ] {
        if lower.starts_with(prefix) {
            return Some("a result or status line");
        }
    }
    // `path — description`: a path first, then a description that is not
    // an instruction.
    let first = t.split_whitespace().next().unwrap_or("");
    if !code_words(first).is_empty() && (first.contains('/') || first.contains('.')) {
        let rest = t[first.len()..].trim_start();
        let described = ["— ", "– ", "- ", ": "]
            .iter()
            .find_map(|sep| rest.strip_prefix(sep))
            .or_else(|| first.ends_with(':').then_some(rest));
        if let Some(desc) = described {
            let verb: String = desc
                .chars()
                .take_while(|c| c.is_alphabetic())
                .collect::<String>()
                .to_lowercase();
            if !VERBS.contains(&verb.as_str()) {
                return Some("a path followed by a description");
            }
        }
    }
    None
}

/// The review's inputs beside the items.
pub struct Context<'a> {
    pub merged: &'a Merged,
    pub signals: &'a [Signal],
    /// The date ages are measured to (`as_of`, else today).
    pub today: Option<Date>,
    pub stale_days: u32,
    pub inbox_dir: &'a str,
    /// Whether a file belongs to a source declared as session logs or
    /// hand-offs (`sources.extra` kinds `session-log`, `handoff`).
    pub session_log: &'a dyn Fn(&str) -> bool,
}

/// The latest note of a project's session logs: its date, path and first
/// line that yields an item or a done entry.
type Latest<'a> = FxHashMap<Option<&'a str>, (Date, &'a str, u32)>;

/// Each project's latest session-log note that yields anything (an open
/// item or a done entry).
fn latest_notes<'a>(cx: &Context<'a>) -> Latest<'a> {
    let mut out: Latest<'a> = FxHashMap::default();
    let places = cx
        .merged
        .items
        .iter()
        .map(|i| (i.project(), i.date, &*i.loc.path, i.loc.line))
        .chain(
            cx.signals
                .iter()
                .map(|s| (s.project(), s.date, &*s.loc.path, s.loc.line)),
        );
    for (project, date, path, line) in places {
        let Some(date) = date else { continue };
        if !(cx.session_log)(path) {
            continue;
        }
        let slot = out.entry(project).or_insert((date, path, line));
        if (date, std::cmp::Reverse((path, line))) > (slot.0, std::cmp::Reverse((slot.1, slot.2))) {
            *slot = (date, path, line);
        }
    }
    out
}

/// An item seen only in session logs, last on a date before the project's
/// latest session-log note: that later note neither restates it (it would
/// be the same item, seen then) nor closes it (it would be resolved).
fn superseded(item: &ReportItem, cx: &Context<'_>, latest: &Latest<'_>) -> Option<Evidence> {
    let last = item.last_seen?;
    let only_logs = if item.seen_in.is_empty() {
        (cx.session_log)(&item.source.path)
    } else {
        item.seen_in.iter().all(|m| (cx.session_log)(&m.path))
    };
    if !only_logs {
        return None;
    }
    let &(date, path, line) = latest.get(&item.project.as_deref())?;
    (date > last).then(|| Evidence {
        path: Some(path.into()),
        line: Some(line),
        id: None,
        text: format!("a later session log ({date}) neither restates nor closes it"),
    })
}

/// Postings: for each (project number, word number), the indices holding
/// it, ascending.
type Postings = FxHashMap<(u32, u32), Vec<u32>>;

/// The postings lists of `words` under `project` short enough to follow
/// (see [`COMMON`]), each with its word.
fn followed<'p>(postings: &'p Postings, project: u32, words: &[u32]) -> Vec<(u32, &'p [u32])> {
    words
        .iter()
        .filter_map(|&w| {
            let list = postings.get(&(project, w))?;
            (list.len() <= COMMON).then_some((w, list.as_slice()))
        })
        .collect()
}

/// Adds to `out` every index of the `followed` lists that holds at least
/// `need` of their words (and maybe others): an index holding `need` of
/// `k` words holds one of any `k - need + 1` of them, so only that many
/// lists, the shortest, are walked. None when fewer than `need` lists.
fn holding(followed: &mut [(u32, &[u32])], need: usize, out: &mut Vec<u32>) {
    if need == 0 || followed.len() < need {
        return;
    }
    followed.sort_by_key(|(_, list)| list.len());
    for (_, list) in &followed[..followed.len() - need + 1] {
        crate::work::rows(list.len());
        out.extend_from_slice(list);
    }
}

/// How many of the `followed` lists' words `words` (ascending) holds: the
/// lists an index appears in, counted without walking them.
fn shared_count(followed: &[(u32, &[u32])], words: &[u32]) -> usize {
    crate::work::rows(1);
    followed
        .iter()
        .filter(|(w, _)| words.binary_search(w).is_ok())
        .count()
}

/// Postings lists longer than this are not followed (a word in that many
/// entries says little).
const COMMON: usize = 200;

/// Moves the items of `pool` (open, in rank order) that need review out
/// of it, in queue order: by reason, then by rank.
pub fn take(pool: &mut Vec<ReportItem>, cx: &Context<'_>) -> Vec<ReviewItem> {
    let kept_until: FxHashMap<(&str, u32), Date> = cx
        .merged
        .settled
        .kept
        .iter()
        .filter_map(|(loc, d)| {
            let until = d
                .checked_add(jiff::Span::new().days(i64::from(cx.stale_days)))
                .ok()?;
            Some(((&*loc.path, loc.line), until))
        })
        .collect();
    let kept = |i: &ReportItem| {
        kept_until
            .get(&(&*i.source.path, i.source.line))
            .is_some_and(|until| cx.today.is_none_or(|t| t <= *until))
    };
    // The done entries' words, by project.
    let mut names = Names::default();
    let mut vocab = Names::default();
    let mut code_names = Names::default();
    let signal_ids: Vec<Vec<String>> = cx.signals.iter().map(|s| identifiers(&s.text)).collect();
    let mut words: Postings = FxHashMap::default();
    let mut codes: Postings = FxHashMap::default();
    let mut signal_words: Vec<Vec<u32>> = Vec::with_capacity(cx.signals.len());
    for (n, s) in cx.signals.iter().enumerate() {
        let n = n as u32;
        let p = names.project(s.project());
        let ws = content_words(&s.norm, &mut vocab);
        for &w in &ws {
            words.entry((p, w)).or_default().push(n);
        }
        signal_words.push(ws);
        for c in code_words(&s.text) {
            codes.entry((p, code_names.id(&c))).or_default().push(n);
        }
    }
    let done = Done {
        words,
        codes,
        code_names,
        signal_words,
        ids: signal_ids,
    };
    let latest = latest_notes(cx);
    // The matching keys of the open items, by the representative's place.
    let norms: FxHashMap<(&str, u32), (&str, Option<u64>)> = cx
        .merged
        .clusters
        .iter()
        .map(|c| {
            let rep = &cx.merged.items[c.members[0]];
            ((&*rep.loc.path, rep.loc.line), (&*rep.norm, rep.private))
        })
        .collect();
    let mut open = Open::default();
    let mut out: Vec<(Reason, usize, ReviewItem)> = Vec::new();
    let mut rest: Vec<ReportItem> = Vec::with_capacity(pool.len());
    for (rank, item) in std::mem::take(pool).into_iter().enumerate() {
        let owned;
        let (norm, private) = match norms.get(&(&*item.source.path, item.source.line)) {
            Some(n) => *n,
            None => {
                owned = crate::normalize::key(&item.text);
                (&*owned, None)
            }
        };
        let me = Me {
            norm,
            private,
            // Open items are keyed by the project's name, untagged as "".
            project: names.project(item.project.as_deref()),
            named: names.project(Some(item.project.as_deref().unwrap_or(""))),
        };
        let words = content_words(norm, &mut vocab);
        let ids = identifiers(&item.text);
        let found = if kept(&item) {
            None
        } else {
            possibly_done(&item, &me, &words, &ids, cx, &done)
                .map(|e| (Reason::PossiblyDone, e))
                .or_else(|| {
                    not_a_task(&item.text).map(|why| (Reason::NotATask, Evidence::note(why)))
                })
                .or_else(|| {
                    duplicate(&me, &words, &ids, &open, &rest)
                        .map(|e| (Reason::PossibleDuplicate, e))
                })
                .or_else(|| superseded(&item, cx, &latest).map(|e| (Reason::Superseded, e)))
                .or_else(|| {
                    (item.source.kind == SourceKind::Captured
                        && crate::capture::is_capture_path_in(&item.source.path, cx.inbox_dir))
                    .then(|| {
                        (
                            Reason::UnreviewedCapture,
                            Evidence::note("captured from a transcript by a hook; not confirmed"),
                        )
                    })
                })
                .or_else(|| stale(&item, cx).map(|e| (Reason::Stale, e)))
        };
        match found {
            Some((reason, evidence)) => out.push((
                reason,
                rank,
                ReviewItem {
                    item,
                    reason,
                    evidence,
                },
            )),
            None => {
                let n = rest.len() as u32;
                for &w in &words {
                    open.words.entry((me.named, w)).or_default().push(n);
                }
                if !ids.is_empty() {
                    open.first_by_ids
                        .entry((me.project, ids.clone()))
                        .or_insert(n);
                    open.by_ids
                        .entry((me.named, ids.clone()))
                        .or_default()
                        .push(n);
                }
                open.info.push((words, ids, norm.to_string(), private));
                rest.push(item);
            }
        }
    }
    *pool = rest;
    out.sort_by_key(|(r, n, _)| (*r, *n));
    out.into_iter().map(|(_, _, i)| i).collect()
}

/// An open item's key and private-span hash, for the guards, and its
/// project's numbers: `project` as the done entries and identifiers are
/// keyed, `named` as the open items' words are (untagged as the name "").
struct Me<'a> {
    norm: &'a str,
    private: Option<u64>,
    project: u32,
    named: u32,
}

/// A listed open item: its content words (ascending numbers), identifiers,
/// key and private-span hash.
type OpenInfo = (Vec<u32>, Vec<String>, String, Option<u64>);

/// The listed open items, for [`duplicate`].
#[derive(Default)]
struct Open {
    /// By (project name, word): the listed items holding it.
    words: Postings,
    /// By (project, identifiers): the first listed item naming exactly those.
    first_by_ids: FxHashMap<(u32, Vec<String>), u32>,
    /// By (project name, identifiers): every listed item naming exactly those.
    by_ids: FxHashMap<(u32, Vec<String>), Vec<u32>>,
    info: Vec<OpenInfo>,
}

/// The done entries' postings.
struct Done {
    words: Postings,
    codes: Postings,
    code_names: Names,
    /// Each entry's content words (ascending numbers).
    signal_words: Vec<Vec<u32>>,
    ids: Vec<Vec<String>>,
}

/// The best done entry sharing most of the item's content words (or a code
/// word) that no identifier or guard keeps apart. Only entries that can
/// qualify are looked at: those holding enough of the followed words (found
/// by [`holding`]) or a code word; each one's shared words are counted
/// from its own word list.
fn possibly_done(
    item: &ReportItem,
    me: &Me<'_>,
    words: &[u32],
    ids: &[String],
    cx: &Context<'_>,
    done: &Done,
) -> Option<Evidence> {
    let mut followed = followed(&done.words, me.project, words);
    // By entry: 100 for each shared code word.
    let mut by_code: FxHashMap<u32, usize> = FxHashMap::default();
    for c in code_words(&item.text) {
        if let Some(c) = done.code_names.0.get(c.as_str())
            && let Some(list) = done.codes.get(&(me.project, *c))
            && list.len() <= COMMON
        {
            crate::work::rows(list.len());
            for &n in list {
                *by_code.entry(n).or_default() += 100;
            }
        }
    }
    // Enough shared words: two or more, and three fifths of the item's.
    let need = if words.len() >= 2 {
        (words.len() * 3).div_ceil(5).max(2)
    } else {
        0
    };
    let mut candidates: Vec<u32> = by_code.keys().copied().collect();
    holding(&mut followed, need, &mut candidates);
    candidates.sort_unstable();
    candidates.dedup();
    let mut best: Option<(usize, usize)> = None;
    for n in candidates {
        let plain = shared_count(&followed, &done.signal_words[n as usize]);
        let score = plain + by_code.get(&n).copied().unwrap_or(0);
        let n = n as usize;
        let s = &cx.signals[n];
        if s.loc.path == item.source.path && s.loc.line == item.source.line {
            continue;
        }
        if let (Some(sd), Some(last)) = (s.date, item.last_seen)
            && sd < last
        {
            continue;
        }
        // Enough shared words or a shared code word, and better than the
        // best so far: tested first, they are cheaper than the checks below
        // (which only ever reject).
        let most = words.len() >= 2 && plain >= 2 && plain * 5 >= words.len() * 3;
        let better =
            best.is_none_or(|(b, bn)| (score, std::cmp::Reverse(n)) > (b, std::cmp::Reverse(bn)));
        if !(most || score >= 100) || !better {
            continue;
        }
        // A different identifier keeps them apart, certainly.
        let sids = &done.ids[n];
        if !ids.is_empty() && !sids.is_empty() && !ids.iter().any(|i| sids.contains(i)) {
            continue;
        }
        // A guard (another number, date, name; enable vs disable) keeps
        // them apart, certainly.
        if score < 100 && crate::guards::check(me.norm, &s.norm, me.private, s.private).is_some() {
            continue;
        }
        best = Some((score, n));
    }
    let (_, n) = best?;
    let s = &cx.signals[n];
    Some(Evidence {
        path: Some(s.loc.path.clone()),
        line: Some(s.loc.line),
        id: None,
        text: s.text.clone(),
    })
}

/// The first listed open item that names the same identifiers or shares
/// most content words, and that no identifier or guard keeps apart. Looked
/// at: items holding enough of the followed words (found by [`holding`]),
/// the first item naming the same identifiers, and the others naming them
/// that share a followed word.
fn duplicate(
    me: &Me<'_>,
    words: &[u32],
    ids: &[String],
    open: &Open,
    rest: &[ReportItem],
) -> Option<Evidence> {
    let mut followed = followed(&open.words, me.named, words);
    let mut candidates: Vec<u32> = Vec::new();
    if !ids.is_empty() {
        let key = (me.project, ids.to_vec());
        candidates.extend(open.first_by_ids.get(&key));
        let named = (me.named, key.1);
        if let Some(same) = open.by_ids.get(&named) {
            let walked: usize = followed.iter().map(|(_, list)| list.len()).sum();
            if same.len() <= walked {
                crate::work::rows(same.len());
                candidates.extend(
                    same.iter()
                        .filter(|&&n| shared_count(&followed, &open.info[n as usize].0) > 0),
                );
            } else {
                crate::work::rows(walked);
                for (_, list) in &followed {
                    candidates.extend(list.iter().filter(|&&n| open.info[n as usize].1 == ids));
                }
            }
        }
    }
    // Close: three shared words or more, and seven tenths of the longer's.
    holding(
        &mut followed,
        (words.len() * 7).div_ceil(10).max(3),
        &mut candidates,
    );
    candidates.sort_unstable();
    candidates.dedup();
    for n in candidates {
        let (owords, oids, onorm, oprivate) = &open.info[n as usize];
        let count = shared_count(&followed, owords);
        let same_ids = !ids.is_empty() && ids == oids.as_slice();
        let close = count >= 3 && count * 10 >= words.len().max(owords.len()) * 7;
        let apart = !ids.is_empty() && !oids.is_empty() && ids != oids.as_slice();
        if (same_ids || close)
            && !apart
            && crate::guards::check(me.norm, onorm, me.private, *oprivate).is_none()
        {
            let other = &rest[n as usize];
            return Some(Evidence {
                path: Some(other.source.path.clone()),
                line: Some(other.source.line),
                id: Some(other.id.clone()),
                text: other.text.clone(),
            });
        }
    }
    None
}

fn stale(item: &ReportItem, cx: &Context<'_>) -> Option<Evidence> {
    let (today, last) = (cx.today?, item.last_seen?);
    let days = last.until(today).ok()?.get_days();
    (days > i32::try_from(cx.stale_days).unwrap_or(i32::MAX))
        .then(|| Evidence::note(format!("last seen {last}, {days} days ago")))
}

pub(crate) fn review_line(o: &mut String, r: &ReviewItem) {
    let i = &r.item;
    let _ = writeln!(
        o,
        "{} {} – [{}] {} ({}:{}) – {}",
        i.id,
        r.reason.as_str(),
        i.project.as_deref().unwrap_or("untagged"),
        crate::escape::escape_controls(&i.text),
        i.source.path,
        i.source.line,
        r.evidence.display()
    );
}

pub(crate) const ACTIONS: &str = "Answer: keep ID | same ID OTHER | not-task ID | done ID | cancel ID, or in one batch: active-status decide --from - (the MCP tool `decide`).\n";

/// `wrap`'s JSON.
#[derive(Debug, Serialize)]
pub(crate) struct Wrap {
    pub schema: u32,
    pub project: Option<String>,
    /// The date of the project's last hand-off (its latest journal Next list).
    pub handoff_date: Option<Date>,
    /// The open items of that hand-off.
    pub handoff: Vec<ReportItem>,
    pub review: Vec<ReviewItem>,
    pub actions: [&'static str; 5],
}

/// The hand-off check of `project` from a report.
pub(crate) fn wrap_of(report: &Report, project: Option<&str>) -> Wrap {
    let in_project = |i: &ReportItem| project.is_none() || i.project.as_deref() == project;
    let open: Vec<&ReportItem> = report
        .priorities
        .iter()
        .chain(&report.overflow)
        .chain(&report.deferred)
        .chain(&report.blocked)
        .chain(report.review.iter().map(|r| &r.item))
        .filter(|i| in_project(i))
        .collect();
    let handoff_date = open
        .iter()
        .filter(|i| i.source.kind == crate::item::SourceKind::JournalNext)
        .filter_map(|i| i.last_seen)
        .max();
    let in_review = |i: &ReportItem| report.review.iter().any(|r| r.item.id == i.id);
    let handoff = open
        .iter()
        .filter(|i| handoff_date.is_some() && i.last_seen == handoff_date && !in_review(i))
        .map(|i| (*i).clone())
        .collect();
    Wrap {
        schema: 1,
        project: project.map(str::to_string),
        handoff_date,
        handoff,
        review: report
            .review
            .iter()
            .filter(|r| in_project(&r.item))
            .cloned()
            .collect(),
        actions: ["keep", "same", "not-task", "done", "cancel"],
    }
}

/// The text form of [`Wrap`].
pub(crate) fn wrap_text(w: &Wrap) -> String {
    let mut o = String::new();
    let project = w.project.as_deref().unwrap_or("every project");
    let _ = writeln!(
        o,
        "Wrap for {project}: is each item below still open? Answer them in one batch."
    );
    match w.handoff_date {
        Some(d) => {
            let _ = writeln!(o, "Last hand-off ({d}), {} open:", w.handoff.len());
        }
        None => {
            let _ = writeln!(o, "Last hand-off: none found.");
        }
    }
    for i in &w.handoff {
        let _ = writeln!(
            o,
            "{} – {} ({}:{})",
            i.id,
            crate::escape::escape_controls(&i.text),
            i.source.path,
            i.source.line
        );
    }
    let _ = writeln!(o, "Review ({}):", w.review.len());
    for r in &w.review {
        review_line(&mut o, r);
    }
    o.push_str(ACTIONS);
    o.push_str("Batch: [{\"action\":\"done\",\"id\":\"ID\"},{\"action\":\"same\",\"id\":\"ID\",\"other\":\"ID\"}]\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_that_describe_are_not_tasks() {
        for (t, why) in [
            ("✅ #7 done", "a done line (records work done)"),
            ("Files changed:", "a fragment ending in `:`"),
            ("Result: 12 tests pass", "a result or status line"),
            (
                "src/lock.rs — the lock and its timeout",
                "a path followed by a description",
            ),
        ] {
            assert_eq!(not_a_task(t), Some(why), "{t}");
        }
        for t in [
            "add the lock timeout",
            "src/lock.rs: add a timeout",
            "fix #7: the parser",
        ] {
            assert_eq!(not_a_task(t), None, "{t}");
        }
    }

    #[test]
    fn code_words_are_paths_and_names() {
        let w = code_words("update `parse_entries` in src/route/mod.rs and README.md.");
        let mut w: Vec<_> = w.into_iter().collect();
        w.sort();
        assert_eq!(w, ["parse_entries", "readme.md", "src/route/mod.rs"]);
    }
}
