//! The default transcript locations, for `extract --sweep`:
//! `~/.claude/projects/**/*.jsonl`, `<dir>/projects/**/*.jsonl` for each folder
//! of a comma-separated `$CLAUDE_CONFIG_DIR`, `~/.config/claude/projects/**/*.jsonl`
//! and `~/.codex/sessions/**/rollout-*.jsonl`; and Markdown exports (`*.md`)
//! under a `.specstory/history/` folder of the vault and of each project.
//! Symbolic links are not followed; only regular files count.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::error::{Error, Result};

/// Which files of a searched folder are transcripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `*.jsonl` (Claude Code).
    Jsonl,
    /// `rollout-*.jsonl` (Codex).
    Rollout,
    /// `*.md` (SpecStory and other Markdown exports).
    Export,
}

/// The folders searched, with the kind of files that count.
pub(crate) fn roots(home: Option<&Path>, claude_config_dir: Option<&str>) -> Vec<(PathBuf, Kind)> {
    let mut out = Vec::new();
    if let Some(h) = home {
        out.push((h.join(".claude/projects"), Kind::Jsonl));
        out.push((h.join(".config/claude/projects"), Kind::Jsonl));
    }
    for dir in claude_config_dir.unwrap_or("").split(',') {
        let dir = dir.trim();
        if !dir.is_empty() {
            out.push((Path::new(dir).join("projects"), Kind::Jsonl));
        }
    }
    if let Some(h) = home {
        out.push((h.join(".codex/sessions"), Kind::Rollout));
    }
    out
}

/// The `.specstory/history/` folders of `folders` (the vault, each project's
/// folder and working folders), as export roots.
pub(crate) fn export_roots<'a>(
    folders: impl IntoIterator<Item = &'a Path>,
) -> Vec<(PathBuf, Kind)> {
    folders
        .into_iter()
        .map(|f| (f.join(".specstory/history"), Kind::Export))
        .collect()
}

/// Transcript files under `roots` modified at or after `since`, sorted, each once.
pub(crate) fn files(roots: &[(PathBuf, Kind)], since: Option<SystemTime>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (root, kind) in roots {
        for entry in walkdir::WalkDir::new(root)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy();
            let wanted = match kind {
                Kind::Jsonl => name.ends_with(".jsonl"),
                Kind::Rollout => name.ends_with(".jsonl") && name.starts_with("rollout-"),
                Kind::Export => name.ends_with(".md"),
            };
            if !wanted || !entry.file_type().is_file() {
                continue;
            }
            let recent = since.is_none_or(|s| {
                entry
                    .metadata()
                    .ok()
                    .and_then(|m| m.modified().ok())
                    .is_some_and(|m| m >= s)
            });
            if recent {
                out.push(entry.into_path());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The transcript of session `id` under `roots`: a `.jsonl` file named
/// `<id>.jsonl` (Claude Code) or ending in `-<id>.jsonl` (Codex rollouts); the
/// most recently changed one when several match.
pub(crate) fn find_session(roots: &[(PathBuf, Kind)], id: &str) -> Option<PathBuf> {
    let id = id.trim();
    if id.is_empty() || id.contains(['/', '\\']) {
        return None;
    }
    let exact = format!("{id}.jsonl");
    let suffix = format!("-{id}.jsonl");
    files(roots, None)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy())
                .is_some_and(|n| n == exact || n.ends_with(&suffix))
        })
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
}

/// `7d`, `12h`, `30m` (ago from `now`) or a date `YYYY-MM-DD` (its local midnight).
pub(crate) fn parse_since(text: &str, now: SystemTime) -> Result<SystemTime> {
    let t = text.trim();
    let bad = || Error::BadSince {
        value: text.to_string(),
    };
    if let Some(unit) = t.chars().last().filter(|c| "dhm".contains(*c)) {
        let n: u64 = t[..t.len() - 1].parse().map_err(|_| bad())?;
        let secs = match unit {
            'd' => n.checked_mul(86_400),
            'h' => n.checked_mul(3_600),
            _ => n.checked_mul(60),
        }
        .ok_or_else(bad)?;
        return Ok(now
            .checked_sub(Duration::from_secs(secs))
            .unwrap_or(SystemTime::UNIX_EPOCH));
    }
    let date: jiff::civil::Date = t.parse().map_err(|_| bad())?;
    let zoned = date.to_zoned(crate::clock::zone()).map_err(|_| bad())?;
    Ok(SystemTime::from(zoned.timestamp()))
}

/// Whether a session's working folder names `project` (a path component equal
/// to it, case-insensitively).
pub(crate) fn cwd_names(cwd: Option<&str>, project: &str) -> bool {
    cwd.is_some_and(|c| {
        Path::new(c).components().any(|p| {
            p.as_os_str()
                .to_string_lossy()
                .eq_ignore_ascii_case(project)
        }) || c
            .replace('\\', "/")
            .split('/')
            .any(|p| p.eq_ignore_ascii_case(project))
    })
}

/// A session tag from a transcript file name: the last 8 characters of its stem
/// (Claude names files by session id, Codex ends rollout names with it).
pub(crate) fn session_of(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let clean: String = stem.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let start = clean.len().saturating_sub(8);
    crate::capture::session_tag(Some(&clean[start..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_forms() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(10 * 86_400);
        assert_eq!(
            parse_since("7d", now).ok(),
            Some(SystemTime::UNIX_EPOCH + Duration::from_secs(3 * 86_400))
        );
        assert_eq!(
            parse_since("2h", now).ok(),
            Some(now - Duration::from_secs(7200))
        );
        assert!(parse_since("2026-05-01", now).is_ok());
        for bad in ["7", "d", "x7d", "2026-13-01", "99999999999999999999d"] {
            assert!(parse_since(bad, now).is_err(), "{bad}");
        }
    }

    #[test]
    fn roots_and_projects() {
        let r = roots(Some(Path::new("/h")), Some("/a, /b,"));
        let paths: Vec<_> = r.iter().map(|(p, _)| p.display().to_string()).collect();
        assert_eq!(
            paths,
            [
                "/h/.claude/projects",
                "/h/.config/claude/projects",
                "/a/projects",
                "/b/projects",
                "/h/.codex/sessions"
            ]
        );
        assert!(cwd_names(Some("/home/me/kb/projects/wrap-cli"), "wrap-cli"));
        assert!(!cwd_names(Some("/home/me/wrap-cli-old"), "wrap-cli"));
        assert!(!cwd_names(None, "x"));
        assert_eq!(
            session_of(Path::new("/x/7f3c9a2e-1b4d-4e8f-9a6b-2c5d8e1f0a3b.jsonl")),
            "8e1f0a3b"
        );
    }
}
