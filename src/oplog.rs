//! The operation log (docs/FORMAT.md §12.2): one JSON line per command that
//! wrote to the vault, appended to `.agents/oplog.jsonl`, with for each file
//! its content hashes before and after and the lines removed and added
//! (private text redacted), so `undo` can put a file back when it still
//! holds exactly what the operation wrote.
//!
//! The log is vault input: every line is checked (a bad one is a warning
//! naming file and line), and its paths are used only through the vault
//! handle, like every other write.

use crate::vault_fs::VaultDir;
use crate::vault_fs::journal::Written;
use serde::{Deserialize, Serialize};

/// The log, relative to the vault root.
pub const FILE: &str = ".agents/oplog.jsonl";

/// The first line of a new log.
pub(crate) const HEADER: &str =
    "# active-status operation log: one JSON object per line, appended (docs/FORMAT.md).\n";

/// Longest line read (a longer one is a warning and skipped).
const MAX_LINE: usize = 4 * 1024 * 1024;

/// One changed region: at 0-based line `at` of the file before, the lines
/// `del` were replaced by the lines `add` (each with its line break).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hunk {
    pub at: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub del: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<String>,
}

/// One file an operation wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileOp {
    /// Root-relative path.
    pub path: String,
    /// BLAKE3 of the content before (hex); `None`: the file did not exist.
    pub before: Option<String>,
    /// BLAKE3 of the content after; `None`: the file was removed.
    pub after: Option<String>,
    pub hunks: Vec<Hunk>,
    /// The hunks touch `<private>` text and hold it redacted: not revertible.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// The file is not UTF-8 text: no hunks kept, not revertible.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub binary: bool,
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub op: String,
    /// RFC 3339 instant.
    pub time: String,
    /// The subcommand that wrote (`done`, `route`, `hook session-end`, `undo`).
    pub command: String,
    /// For an undo: the operation it reverted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    pub files: Vec<FileOp>,
    /// 1-based line in the log (not written).
    #[serde(skip)]
    pub line: u32,
}

/// The content hash the log records.
pub fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

fn is_hash(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn is_op_id(s: &str) -> bool {
    (1..=32).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The lines of `text`, each with its line break.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The hunks that turn `before` into `after`, and whether any of them
/// touches private text (then every line of it is kept redacted).
pub fn hunks(before: &str, after: &str) -> (Vec<Hunk>, bool) {
    // Lines split here, not by `similar` (which also ends a line at a lone
    // `\r`), so the positions are those `revert` counts.
    let (old, new) = (lines(before), lines(after));
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    let red_before = crate::privacy::redact(before);
    let red_after = crate::privacy::redact(after);
    let (rold, rnew) = (lines(&red_before), lines(&red_after));
    let mut private = false;
    let mut out = Vec::new();
    for op in &ops {
        let (_, o, n) = op.as_tag_tuple();
        if o.is_empty() && n.is_empty() || matches!(op, similar::DiffOp::Equal { .. }) {
            continue;
        }
        let pick = |plain: &[&str], red: &[&str], range: std::ops::Range<usize>| {
            range
                .map(|i| {
                    let p = plain.get(i).copied().unwrap_or("");
                    let r = red.get(i).copied().unwrap_or(p);
                    (p.to_string(), r.to_string())
                })
                .collect::<Vec<_>>()
        };
        let del = pick(&old, &rold, o.clone());
        let add = pick(&new, &rnew, n.clone());
        private |= del.iter().chain(&add).any(|(p, r)| p != r);
        out.push((u32::try_from(o.start).unwrap_or(u32::MAX), del, add));
    }
    let hunks = out
        .into_iter()
        .map(|(at, del, add)| {
            let keep = |v: Vec<(String, String)>| {
                v.into_iter()
                    .map(|(p, r)| if private { r } else { p })
                    .collect()
            };
            Hunk {
                at,
                del: keep(del),
                add: keep(add),
            }
        })
        .collect();
    (hunks, private)
}

/// `after` with the hunks undone: the text before. `None` when the hunks do
/// not fit `after` (a line they added is not where they say).
pub fn revert(after: &str, hunks: &[Hunk]) -> Option<String> {
    let new = lines(after);
    let mut out = String::with_capacity(after.len());
    let mut cursor = 0usize;
    let mut offset: i64 = 0;
    let mut last_at: i64 = -1;
    for h in hunks {
        if i64::from(h.at) < last_at {
            return None;
        }
        last_at = i64::from(h.at) + h.del.len() as i64;
        let at = usize::try_from(i64::from(h.at) + offset).ok()?;
        if at < cursor || at.checked_add(h.add.len())? > new.len() {
            return None;
        }
        out.extend(new[cursor..at].iter().copied());
        if new[at..at + h.add.len()]
            .iter()
            .zip(&h.add)
            .any(|(a, b)| *a != b.as_str())
        {
            return None;
        }
        out.extend(h.del.iter().map(String::as_str));
        cursor = at + h.add.len();
        offset += h.add.len() as i64 - h.del.len() as i64;
    }
    out.extend(new[cursor..].iter().copied());
    Some(out)
}

/// The log entry of `writes` (several writes to one file are one change,
/// from its first before to its last after; a file back as it was is left
/// out). `None` when nothing changed.
pub(crate) fn entry(command: &str, undoes: Option<&str>, writes: &[Written]) -> Option<Entry> {
    let mut files: Vec<Written> = Vec::new();
    for w in writes {
        match files.iter_mut().find(|f| f.rel == w.rel) {
            Some(f) => f.after.clone_from(&w.after),
            None => files.push(w.clone()),
        }
    }
    let files: Vec<FileOp> = files
        .into_iter()
        .filter(|w| w.before != w.after)
        .map(|w| file_op(w.rel, w.before.as_deref(), w.after.as_deref()))
        .collect();
    if files.is_empty() {
        return None;
    }
    let now = jiff::Timestamp::now();
    let time = now.round(jiff::Unit::Second).unwrap_or(now).to_string();
    let mut seed = blake3::Hasher::new();
    seed.update(now.as_nanosecond().to_le_bytes().as_slice());
    seed.update(&std::process::id().to_le_bytes());
    seed.update(command.as_bytes());
    for f in &files {
        seed.update(f.path.as_bytes());
        seed.update(f.after.as_deref().unwrap_or("-").as_bytes());
    }
    let op = data_encoding::BASE32_NOPAD
        .encode(&seed.finalize().as_bytes()[..5])
        .to_ascii_lowercase();
    Some(Entry {
        op,
        time,
        command: command.to_string(),
        undoes: undoes.map(str::to_string),
        files,
        line: 0,
    })
}

fn file_op(path: String, before: Option<&[u8]>, after: Option<&[u8]>) -> FileOp {
    fn text(b: Option<&[u8]>) -> Option<&str> {
        match b {
            None => Some(""),
            Some(b) => std::str::from_utf8(b).ok(),
        }
    }
    let (hunks, private, binary) = match (text(before), text(after)) {
        (Some(b), Some(a)) => {
            let (h, p) = hunks(b, a);
            (h, p, false)
        }
        _ => (Vec::new(), false, true),
    };
    FileOp {
        path,
        before: before.map(hash),
        after: after.map(hash),
        hunks,
        private,
        binary,
    }
}

impl Entry {
    /// The entry's line (no line break).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Checks one parsed entry; the reason it is refused.
fn check(e: &Entry) -> Result<(), String> {
    if !is_op_id(&e.op) {
        return Err("`op` is not an operation ID (1 to 32 letters and digits)".into());
    }
    if e.time.parse::<jiff::Timestamp>().is_err() {
        return Err("`time` is not an RFC 3339 instant".into());
    }
    if e.command.is_empty() || e.command.len() > 64 || e.command.chars().any(char::is_control) {
        return Err("`command` is empty, too long or holds control characters".into());
    }
    if e.undoes.as_deref().is_some_and(|u| !is_op_id(u)) {
        return Err("`undoes` is not an operation ID".into());
    }
    if e.files.is_empty() {
        return Err("`files` is empty".into());
    }
    for f in &e.files {
        if let Err(why) = crate::vault_fs::check_rel(&f.path) {
            return Err(format!("path {:?} is refused: {why}", f.path));
        }
        let bad_hash = |h: &Option<String>| h.as_deref().is_some_and(|h| !is_hash(h));
        if bad_hash(&f.before) || bad_hash(&f.after) {
            return Err(format!("{}: a hash is not 64 hex digits", f.path));
        }
        if f.before.is_none() && f.after.is_none() {
            return Err(format!("{}: neither before nor after", f.path));
        }
    }
    Ok(())
}

/// Parses one line; `Ok(None)` for a comment or blank line.
pub fn parse_line(line: &str, n: u32) -> Result<Option<Entry>, String> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    if t.len() > MAX_LINE {
        return Err(format!("longer than {MAX_LINE} bytes"));
    }
    let mut e: Entry =
        serde_json::from_str(t).map_err(|err| format!("not an operation ({err})"))?;
    check(&e)?;
    e.line = n;
    Ok(Some(e))
}

/// Every entry of `content` in file order, and a message (`line N: …`) for
/// each line that is not one.
pub fn parse(content: &str) -> (Vec<Entry>, Vec<String>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (n, line) in content.lines().enumerate() {
        let n = u32::try_from(n + 1).unwrap_or(u32::MAX);
        match parse_line(line, n) {
            Ok(Some(e)) => out.push(e),
            Ok(None) => {}
            Err(why) => bad.push(format!("line {n}: {why}; line ignored")),
        }
    }
    (out, bad)
}

/// Whether the entry `id` is undone: a later entry undoes it and is not
/// itself undone (an undo of an undo puts the operation back).
pub fn is_undone(entries: &[Entry], id: &str) -> Option<String> {
    fn undone_by(entries: &[Entry], id: &str, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        entries
            .iter()
            .filter(|e| e.undoes.as_deref() == Some(id) && e.op != id)
            .find(|e| undone_by(entries, &e.op, depth + 1).is_none())
            .map(|e| e.op.clone())
    }
    undone_by(entries, id, 0)
}

thread_local! {
    /// What the next entry of this thread says: (command, undoes).
    static NEXT: std::cell::RefCell<(Option<String>, Option<String>)> =
        const { std::cell::RefCell::new((None, None)) };
}

/// Names the command of the entry this thread writes next (an MCP tool).
pub(crate) fn name_next(command: &str) {
    NEXT.with(|n| n.borrow_mut().0 = Some(command.to_string()));
}

/// Marks the entry this thread writes next as the undo of `op`.
pub(crate) fn next_undoes(op: &str) {
    NEXT.with(|n| n.borrow_mut().1 = Some(op.to_string()));
}

/// Runs `f`, recording its writes, and appends their entry to the log
/// (`command` unless [`name_next`] named it). A log that cannot be written
/// is a warning: the writes stand.
pub(crate) fn logged<T>(
    vault: &VaultDir,
    command: &str,
    f: impl FnOnce() -> crate::error::Result<T>,
) -> crate::error::Result<T> {
    let (result, writes) = crate::vault_fs::journal::recording(f);
    let (named, undoes) = NEXT.with(|n| std::mem::take(&mut *n.borrow_mut()));
    let command = named.as_deref().unwrap_or(command);
    if let Some(e) = entry(command, undoes.as_deref(), &writes) {
        let mut line = e.to_line();
        line.push('\n');
        if let Err(err) = vault.append(FILE, HEADER.as_bytes(), line.as_bytes()) {
            eprintln!(
                "warning: {err}; the operation log misses operation {}",
                e.op
            );
        }
    }
    result
}

/// Reads the log: its entries and a warning (`PATH:LINE: …`) per bad line.
pub(crate) fn read(vault: &VaultDir) -> crate::error::Result<(Vec<Entry>, Vec<String>)> {
    let Some(bytes) = vault.read(FILE)? else {
        return Ok((Vec::new(), Vec::new()));
    };
    let text = String::from_utf8_lossy(&bytes);
    let (entries, bad) = parse(&text);
    let shown = vault.display(FILE);
    let warnings = bad
        .into_iter()
        .map(|b| match b.strip_prefix("line ") {
            Some(rest) => format!("{}:{rest}", shown.display()),
            None => format!("{}: {b}", shown.display()),
        })
        .collect();
    Ok((entries, warnings))
}

/// What undoing an operation does to one of its files.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Revert {
    pub(crate) path: String,
    /// `restore` (put the text before back), `remove` (the operation
    /// created it) or `recreate` (the operation removed it).
    pub(crate) action: &'static str,
    /// The file now (what the operation wrote); `None`: missing.
    #[serde(skip)]
    now: Option<Vec<u8>>,
    /// What it becomes; `None`: removed.
    #[serde(skip)]
    back: Option<Vec<u8>>,
}

fn refused(op: &str, why: impl Into<String>) -> crate::error::Error {
    crate::error::Error::UndoRefused {
        op: op.to_string(),
        why: why.into(),
    }
}

/// The entries newest first (by time, then by place in the file).
pub(crate) fn newest_first(entries: &[Entry]) -> Vec<&Entry> {
    let mut all: Vec<&Entry> = entries.iter().collect();
    all.sort_by(|a, b| {
        let t = |e: &Entry| e.time.parse::<jiff::Timestamp>().ok();
        t(b).cmp(&t(a)).then(b.line.cmp(&a.line))
    });
    all
}

/// The operation `query` names (its ID, or a prefix of one ID), or by
/// default the newest operation that is not an undo and is not undone.
pub(crate) fn choose<'a>(
    entries: &'a [Entry],
    query: Option<&str>,
) -> crate::error::Result<&'a Entry> {
    let Some(q) = query else {
        return newest_first(entries)
            .into_iter()
            .find(|e| e.undoes.is_none() && is_undone(entries, &e.op).is_none())
            .ok_or_else(|| {
                refused(
                    "(last)",
                    "nothing to undo: every operation in the log is undone",
                )
            });
    };
    let q = q.trim().to_ascii_lowercase();
    let exact: Vec<&Entry> = entries.iter().filter(|e| e.op == q).collect();
    let found: Vec<&Entry> = if exact.is_empty() && q.len() >= 3 {
        entries.iter().filter(|e| e.op.starts_with(&q)).collect()
    } else {
        exact
    };
    let e = match found.as_slice() {
        [e] => *e,
        [] => {
            return Err(refused(
                &q,
                format!("no such operation in {FILE} (`active-status log` lists them)"),
            ));
        }
        _ => {
            return Err(refused(
                &q,
                format!(
                    "{} operations start with it; give more of the ID",
                    found.len()
                ),
            ));
        }
    };
    if let Some(by) = is_undone(entries, &e.op) {
        return Err(refused(&e.op, format!("already undone by {by}")));
    }
    Ok(e)
}

/// Checks that every file of `e` holds exactly what it wrote and works out
/// what each becomes. Nothing is written.
pub(crate) fn plan_undo(vault: &VaultDir, e: &Entry) -> crate::error::Result<Vec<Revert>> {
    let mut out = Vec::with_capacity(e.files.len());
    for f in &e.files {
        let at = |why: String| refused(&e.op, format!("{}: {why}", f.path));
        if f.path == FILE {
            return Err(at("the operation log itself is never reverted".into()));
        }
        if f.private {
            return Err(at(
                "the change touches <private> text, which the log keeps redacted; revert it by hand".into(),
            ));
        }
        if f.binary {
            return Err(at("not UTF-8 text; the log keeps no lines of it".into()));
        }
        let now = vault.snapshot(&f.path)?.map(|s| s.bytes);
        match (&now, &f.after) {
            (Some(b), Some(h)) if hash(b) == *h => {}
            (None, None) => {}
            (None, Some(_)) => return Err(at("removed since the operation".into())),
            (Some(_), None) => {
                return Err(at("created again since the operation removed it".into()));
            }
            (Some(_), Some(_)) => {
                return Err(at(format!(
                    "changed since the operation (it no longer holds what {} wrote)",
                    e.op
                )));
            }
        }
        let text = std::str::from_utf8(now.as_deref().unwrap_or_default())
            .map_err(|_| at("not UTF-8 text".into()))?;
        let back = match &f.before {
            None => None,
            Some(h) => {
                let back = revert(text, &f.hunks)
                    .filter(|b| hash(b.as_bytes()) == *h)
                    .ok_or_else(|| {
                        at(format!(
                            "{FILE} line {} does not describe this change (edited by hand?)",
                            e.line
                        ))
                    })?;
                Some(back.into_bytes())
            }
        };
        let action = match (&now, &back) {
            (Some(_), None) => "remove",
            (None, _) => "recreate",
            (Some(_), Some(_)) => "restore",
        };
        out.push(Revert {
            path: f.path.clone(),
            action,
            now,
            back,
        });
    }
    Ok(out)
}

/// Writes a planned undo: every restored or recreated file in one
/// compare-and-swap batch (refused when any file changed since the plan),
/// then the removals. Call with the lock held, inside [`logged`].
pub(crate) fn apply_undo(vault: &VaultDir, e: &Entry, plan: &[Revert]) -> crate::error::Result<()> {
    next_undoes(&e.op);
    crate::cas::edit(vault, |v| {
        let mut changes = Vec::new();
        for r in plan {
            let snap = v.snapshot(&r.path)?;
            if snap.as_ref().map(|s| &s.bytes) != r.now.as_ref() {
                return Err(refused(&e.op, format!("{}: changed while undoing", r.path)));
            }
            if let Some(back) = &r.back {
                changes.push(crate::cas::Change {
                    rel: r.path.clone(),
                    before: snap,
                    after: back.clone(),
                });
            }
        }
        Ok(((), changes))
    })?;
    for r in plan.iter().filter(|r| r.back.is_none()) {
        let now = r.now.as_deref().unwrap_or_default();
        if !vault.remove_if(&r.path, now)? {
            return Err(refused(
                &e.op,
                format!(
                    "{}: changed while undoing; the other files were reverted",
                    r.path
                ),
            ));
        }
    }
    Ok(())
}

/// The planned undo as a unified diff, private text redacted.
pub(crate) fn undo_diff(plan: &[Revert]) -> String {
    let mut o = String::new();
    for r in plan {
        let text = |b: &Option<Vec<u8>>| {
            crate::privacy::redact(&String::from_utf8_lossy(b.as_deref().unwrap_or_default()))
                .into_owned()
        };
        let (now, back) = (text(&r.now), text(&r.back));
        let diff = similar::TextDiff::from_lines(&now, &back);
        o.push_str(
            &diff
                .unified_diff()
                .context_radius(1)
                .header(
                    &format!("{} (now)", r.path),
                    &format!("{} (after undo)", r.path),
                )
                .to_string(),
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_revert_to_the_text_before() {
        let before = "# J\n\n- [ ] a\n- [ ] b\nend\n";
        let after = "# J\n\n- [x] a\n- [ ] b\n- [ ] c\nend\n";
        let (h, private) = hunks(before, after);
        assert!(!private);
        assert_eq!(revert(after, &h).as_deref(), Some(before));
        assert_eq!(revert("other\n", &h), None);
    }

    #[test]
    fn private_lines_are_kept_redacted() {
        let before = "- [ ] a <private>secret</private>\n";
        let after = "- [x] a <private>secret</private>\n";
        let (h, private) = hunks(before, after);
        assert!(private);
        assert!(!format!("{h:?}").contains("secret"), "{h:?}");
    }

    proptest::proptest! {
        #[test]
        fn any_two_texts_revert_exactly(
            a in proptest::collection::vec("[ab\\-\\[\\] x\r]{0,6}\n?", 0..12),
            b in proptest::collection::vec("[ab\\-\\[\\] x\r]{0,6}\n?", 0..12),
        ) {
            let (before, after) = (a.concat(), b.concat());
            let (h, private) = hunks(&before, &after);
            proptest::prop_assert!(!private);
            proptest::prop_assert_eq!(revert(&after, &h), Some(before.clone()));
            let e = Entry {
                op: "a1".into(),
                time: "2026-05-06T10:00:00Z".into(),
                command: "done".into(),
                undoes: None,
                files: vec![file_op("f.md".into(), Some(before.as_bytes()), Some(after.as_bytes()))],
                line: 1,
            };
            proptest::prop_assert_eq!(parse_line(&e.to_line(), 1), Ok(Some(e)));
        }
    }

    #[test]
    fn a_bad_line_says_why() {
        let (ok, bad) = parse("# c\n{\"op\":\"a\"}\nnope\n");
        assert!(ok.is_empty());
        assert_eq!(bad.len(), 2);
        assert!(bad[0].starts_with("line 2: not an operation"), "{bad:?}");
    }
}
