//! Plain text and Markdown exports: speaker markers split the messages.
//!
//! Besides `User:` / `## Assistant` forms, a line that is only a bold speaker
//! name starts a message, as SpecStory and Cursor export them:
//! `_**User**_`, `_**User (2025-06-01 10:00Z)**_`, `_**Assistant**_`,
//! `_**Agent (model …, mode …)**_`, `**User**`, `**Cursor**`. Thinking
//! (`<think>`, `<thinking>`) and tool blocks (`<tool-use …>`, `<details>`) that
//! open a line are never read as message text; what a tool block holds is kept
//! as a sign of what the agent did.

use super::keywords::Fence;
use super::session::Run;
use super::{Role, Turn};

/// A plain-text speaker marker: the role and the rest of the line.
pub(super) fn speaker(line: &str) -> Option<(Role, &str)> {
    const NAMES: [(&str, Role); 5] = [
        ("user", Role::User),
        ("human", Role::User),
        ("assistant", Role::Assistant),
        ("claude", Role::Assistant),
        ("codex", Role::Assistant),
    ];
    let t = line.trim();
    if let Some(r) = bold_speaker(t) {
        return Some((r, ""));
    }
    let role_of = |name: &str| {
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, r)| r)
    };
    if let Some(h) = t.strip_prefix('#') {
        let h = h.trim_start_matches('#');
        if !h.starts_with([' ', '\t']) {
            return None;
        }
        return role_of(h.trim().trim_end_matches(':').trim_end()).map(|r| (r, ""));
    }
    let (t, bold) = t.strip_prefix("**").map_or((t, false), |r| (r, true));
    let colon = t.find(':')?;
    let (name, mut rest) = (&t[..colon], &t[colon + 1..]);
    let name = if bold {
        match name.strip_suffix("**") {
            Some(n) => n,
            None => rest.strip_prefix("**").map(|r| {
                rest = r;
                name
            })?,
        }
    } else {
        name
    };
    role_of(name).map(|r| (r, rest))
}

/// A line that is only a bold speaker name, optionally wrapped in `_` and
/// followed by a parenthesised note (a timestamp, the model):
/// `_**Agent (model gpt-5, mode Agent)**_`, `**Cursor**`.
fn bold_speaker(t: &str) -> Option<Role> {
    let inner = t.strip_prefix('_').and_then(|r| r.strip_suffix('_'));
    let inner = inner.unwrap_or(t).strip_prefix("**")?.strip_suffix("**")?;
    let name = match inner.find('(') {
        Some(i) if inner.ends_with(')') => &inner[..i],
        Some(_) => return None,
        None => inner,
    };
    const NAMES: [(&str, Role); 8] = [
        ("user", Role::User),
        ("human", Role::User),
        ("you", Role::User),
        ("assistant", Role::Assistant),
        ("agent", Role::Assistant),
        ("cursor", Role::Assistant),
        ("claude", Role::Assistant),
        ("codex", Role::Assistant),
    ];
    let name = name.trim();
    NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, r)| r)
}

/// Opening and closing tags of the blocks that are no message text.
const HIDDEN: [(&str, &str); 4] = [
    ("<think", "</think>"),
    ("<thinking", "</thinking>"),
    ("<tool-use", "</tool-use>"),
    ("<details", "</details>"),
];

/// The change in block depth over one line: opening tags minus closing ones.
fn depth_change(line: &str) -> isize {
    let lower = line.to_ascii_lowercase();
    let mut d = 0isize;
    for (open, close) in HIDDEN {
        let opens = lower
            .match_indices(open)
            .filter(|&(i, _)| {
                matches!(
                    lower.as_bytes().get(i + open.len()),
                    Some(b'>' | b' ' | b'\t') | None
                )
            })
            .count();
        d += opens as isize - lower.matches(close).count() as isize;
    }
    d
}

/// Whether a line opens a hidden block, and whether that block is thinking.
fn opens_hidden(line: &str) -> Option<bool> {
    let t = line.trim_start().to_ascii_lowercase();
    let (open, _) = HIDDEN.iter().find(|(open, _)| {
        t.strip_prefix(open)
            .is_some_and(|r| r.starts_with(['>', ' ', '\t']) || r.is_empty())
    })?;
    Some(open.starts_with("<think"))
}

/// A line left out of a message keeps the places of the lines after it: a
/// blank line in the body, or the body's start moved past it.
fn keep_place(body: &mut String, start: &mut usize, i: usize) {
    if body.is_empty() {
        *start = i + 2;
    } else {
        body.push('\n');
    }
}

/// Plain text: speaker markers start messages; each message is scanned whole.
pub(super) fn plain_text(run: &mut Run<'_>, text: &str) {
    let mut fence = Fence::default();
    let mut role = Role::Unknown;
    let mut body = String::new();
    let mut acted: Vec<String> = Vec::new();
    // Inside a hidden block: its depth, and whether it is thinking.
    let mut hidden: Option<(isize, bool)> = None;
    let mut start = 1;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some((depth, thinking)) = hidden.as_mut() {
            *depth += depth_change(line);
            if !*thinking && let Some(last) = acted.last_mut() {
                last.push_str(line);
                last.push('\n');
            }
            if *depth <= 0 {
                hidden = None;
            }
            keep_place(&mut body, &mut start, i);
            continue;
        }
        if !fence.is_open()
            && let Some(thinking) = opens_hidden(line)
        {
            let depth = depth_change(line);
            if !thinking {
                acted.push(format!("{line}\n"));
            }
            if depth > 0 {
                hidden = Some((depth, thinking));
            }
            keep_place(&mut body, &mut start, i);
            continue;
        }
        if !fence.is_open()
            && let Some((r, rest)) = speaker(line)
        {
            let mut turn = Turn {
                role,
                text: std::mem::take(&mut body),
                acted: std::mem::take(&mut acted),
                ..Turn::default()
            };
            if role == Role::User && slash_command(&turn.text) {
                turn.text.clear();
            }
            run.turn(turn, start, true);
            role = r;
            start = i + 1;
            body.push_str(rest.trim_start());
            body.push('\n');
            continue;
        }
        // A rule line (`---`) between turns of an export is no text.
        if !fence.is_code(line) && line.trim() == "---" {
            keep_place(&mut body, &mut start, i);
            continue;
        }
        if body.is_empty() && line.trim().is_empty() {
            start = i + 2;
            continue;
        }
        body.push_str(line);
        body.push('\n');
    }
    let mut turn = Turn {
        role,
        text: body,
        acted,
        ..Turn::default()
    };
    if role == Role::User && slash_command(&turn.text) {
        turn.text.clear();
    }
    run.turn(turn, start, true);
}

/// Whether a user message is a slash command an export wrote as text
/// (`/exit`, `/clear`, `/model opus`), `/goal` excepted.
fn slash_command(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    first.len() > 1
        && first.starts_with('/')
        && first[1..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
        && !first.eq_ignore_ascii_case("/goal")
}
