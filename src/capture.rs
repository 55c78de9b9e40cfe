//! Capturing a transcript's orphan follow-ups into a new inbox file (the
//! `pre-compact` and `session-end` hooks, `extract --sweep --capture`).
//!
//! A capture file is `<inbox>/<YYYY-MM-DDTHHMMSS>-<session>[-n].md`, created
//! exclusively (concurrent sessions never collide), with the items under
//! `### Next (captured)`. Candidates already persisted, skipped or captured
//! (see [`crate::followups`]) are not captured again, and at most
//! `hook.max_captured` items are captured per session over all its files.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::error::Result;
/// The review tells captured items by their file name too.
pub(crate) use crate::followups::is_capture_path_in;
use crate::followups::{ExtractOut, is_capture_name};
use crate::transcript::Origin;

/// A session id cut to a safe file-name part: ASCII letters, digits and `-`,
/// at most 8, `nosession` when nothing is left.
pub(crate) fn session_tag(id: Option<&str>) -> String {
    let s: String = id
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(8)
        .collect();
    if s.is_empty() { "nosession".into() } else { s }
}

/// The known project named by a working folder: its nearest path component
/// that is a known project slug.
pub(crate) fn project_of_cwd(cwd: &Path, known: &[String]) -> Option<String> {
    cwd.components().rev().find_map(|c| {
        let name = c.as_os_str().to_string_lossy().to_ascii_lowercase();
        known.iter().find(|k| **k == name).cloned()
    })
}

/// How certain a candidate of each origin is, most certain first: the
/// session's unfinished request, the agent's own open todos, a compaction
/// summary's pending tasks, lists under a marker phrase, then hand-offs read
/// from structure or closing offers.
fn confidence(origin: Origin) -> u8 {
    match origin {
        Origin::LastRequest => 0,
        Origin::AgentTodo => 1,
        Origin::Summary => 2,
        Origin::Message => 3,
        Origin::Handoff => 4,
    }
}

/// Open items already captured for `session` (over all its capture files).
fn captured_for(dir: &Path, session: &str) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            is_capture_name(&name)
                && name.strip_suffix(".md").is_some_and(|s| {
                    s[18..] == *session || s[18..].starts_with(&format!("{session}-"))
                })
                && e.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|e| {
            let text = crate::transcript::read::read_regular(&e.path(), 1 << 20)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            text.lines().filter(|l| l.starts_with("- [ ] ")).count()
        })
        .sum()
}

/// What a capture did.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Captured {
    /// The file written, if any.
    pub path: Option<PathBuf>,
    pub items: usize,
    /// Orphans left out because the session reached its cap.
    pub over_cap: usize,
    /// Orphans left out because their text cannot be written as an item
    /// (a control character, too long, an unbalanced `<private>`).
    pub refused: usize,
}

/// Writes the orphans of `out` that are neither persisted nor captured into a
/// new inbox file. `last_request` says whether an unanswered last request is
/// captured (at session end) or not (before a compaction, when it is the
/// request being worked on). `by` names the capturing command.
pub(crate) fn capture(
    root: &Path,
    cfg: &Config,
    out: &ExtractOut,
    session: &str,
    project: Option<&str>,
    last_request: bool,
    by: &str,
) -> Result<Captured> {
    let mut fresh: Vec<(usize, &str, u8)> = out
        .candidates
        .iter()
        .filter(|c| !c.persisted && c.captured_at.is_none())
        .filter(|c| last_request || c.origin != Origin::LastRequest)
        .enumerate()
        .map(|(i, c)| (i, c.text.as_str(), confidence(c.origin)))
        .collect();
    let before = fresh.len();
    fresh.retain(|(_, t, _)| crate::route::check_text(&t.replace(['\n', '\r'], " ")).is_ok());
    let refused = before - fresh.len();
    if fresh.is_empty() {
        return Ok(Captured {
            refused,
            ..Captured::default()
        });
    }
    let vault = crate::vault_fs::VaultDir::open(root)?;
    let room = cfg
        .hook_max_captured
        .saturating_sub(captured_for(&root.join(&cfg.inbox_dir), session));
    let take = fresh.len().min(room);
    let over_cap = fresh.len() - take;
    // Over the cap, the most certain candidates are kept (stable: in
    // transcript order within a rank), then written in transcript order.
    fresh.sort_by_key(|&(i, _, rank)| (rank, i));
    fresh.truncate(take);
    fresh.sort_by_key(|&(i, _, _)| i);
    if take == 0 {
        return Ok(Captured {
            path: None,
            items: 0,
            over_cap,
            refused,
        });
    }
    let now = crate::clock::now();
    let stamp = now.strftime("%Y-%m-%dT%H%M%S").to_string();
    let mut body = format!(
        "# Captured follow-ups {}\n\n",
        now.strftime("%Y-%m-%d %H:%M:%S")
    );
    if let Some(p) = project {
        body.push_str(&format!("<!-- project: {p} -->\n"));
    }
    body.push_str(&format!(
        "<!-- captured by `active-status {by}` from session {session}; route or check these off -->\n\n### Next (captured)\n\n"
    ));
    for (_, text, _) in &fresh {
        let text = text.replace(['\n', '\r'], " ");
        match project {
            Some(p) => body.push_str(&format!("- [ ] ({p}) {text}\n")),
            None => body.push_str(&format!("- [ ] {text}\n")),
        }
    }
    // Exclusive creation through the vault handle: concurrent sessions never
    // collide or overwrite, and the file appears whole or not at all.
    let names = (0..=100).map(|n| {
        if n == 0 {
            format!("{stamp}-{session}.md")
        } else {
            format!("{stamp}-{session}-{n}.md")
        }
    });
    let rel = crate::oplog::logged(&vault, by, || {
        vault.create_new(&cfg.inbox_dir, names, body.as_bytes())
    })?;
    Ok(Captured {
        path: Some(vault.display(&rel)),
        items: take,
        over_cap,
        refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::followups::is_capture_path;

    #[test]
    fn names() {
        assert!(is_capture_name("2026-05-06T090100-abc123.md"));
        assert!(is_capture_name("2026-05-06T090100-unknown-2.md"));
        assert!(!is_capture_name("2026-05-06.md"));
        assert!(!is_capture_name("2026-05-06T0901-abc.md"));
        let cfg = Config::default();
        assert!(is_capture_path(
            ".agents/inbox/2026-05-06T090100-abc.md",
            &cfg
        ));
        assert!(!is_capture_path(
            ".agents/inbox/sub/2026-05-06T090100-abc.md",
            &cfg
        ));
        assert_eq!(session_tag(Some("ab/../c!d-123456789")), "abcd-123");
        assert_eq!(session_tag(None), "nosession");
    }
}
