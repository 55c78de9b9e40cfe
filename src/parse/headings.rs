//! Heading roles and session headings (docs/FORMAT.md §2.2 and §3).

use std::collections::HashSet;

/// What a section collects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Next,
    Done,
    Skipped,
    Goal,
}

/// Heading text normalized for comparison: lower-case, whitespace collapsed,
/// one trailing `:` removed.
pub fn normalize_heading(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = collapsed.to_lowercase();
    let trimmed = lower.strip_suffix(':').unwrap_or(&lower);
    trimmed.trim_end().to_string()
}

/// The configured heading lists, normalized once.
#[derive(Debug, Clone, Default)]
pub struct HeadingMatcher {
    next: HashSet<String>,
    done: HashSet<String>,
    skipped: HashSet<String>,
    goal: HashSet<String>,
}

impl HeadingMatcher {
    pub fn new(next: &[String], done: &[String], skipped: &[String], goal: &[String]) -> Self {
        let set = |l: &[String]| l.iter().map(|h| normalize_heading(h)).collect();
        HeadingMatcher {
            next: set(next),
            done: set(done),
            skipped: set(skipped),
            goal: set(goal),
        }
    }

    pub fn from_config(cfg: &crate::config::Config) -> Self {
        Self::new(
            &cfg.next_headings,
            &cfg.done_headings,
            &cfg.skipped_headings,
            &cfg.goal_headings,
        )
    }

    pub fn role(&self, heading: &str) -> Option<Role> {
        let h = normalize_heading(heading);
        if self.next.contains(&h) {
            Some(Role::Next)
        } else if self.done.contains(&h) {
            Some(Role::Done)
        } else if self.skipped.contains(&h) {
            Some(Role::Skipped)
        } else if self.goal.contains(&h) {
            Some(Role::Goal)
        } else {
            None
        }
    }
}

/// Whether a level-2 heading's text starts with the word `Session` or `세션`.
pub fn is_session_heading(text: &str) -> bool {
    let t = text.trim_start();
    for word in ["session", "세션"] {
        let Some(head) = t.get(..word.len()) else {
            continue;
        };
        if head.eq_ignore_ascii_case(word) || head == word {
            let next = t[word.len()..].chars().next();
            if next.is_none_or(|c| !c.is_alphanumeric()) {
                return true;
            }
        }
    }
    false
}

/// The project a session heading names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionProject {
    Project(String),
    NoProject,
    Ambiguous,
}

/// Derives a session heading's project: a trailing `(slug)`, else the one known
/// project slug occurring in it as a whole word.
pub fn session_project(heading: &str, known: &[String]) -> SessionProject {
    let t = heading.trim_end();
    if let Some(body) = t.strip_suffix(')')
        && let Some(open) = body.rfind('(')
    {
        let slug = &body[open + 1..];
        if crate::item::is_slug(slug) {
            return SessionProject::Project(slug.to_ascii_lowercase());
        }
    }
    let lower = t.to_ascii_lowercase();
    let mut found: Option<&String> = None;
    for project in known {
        if contains_word(&lower, project) {
            if found.is_some() {
                return SessionProject::Ambiguous;
            }
            found = Some(project);
        }
    }
    found.map_or(SessionProject::NoProject, |p| {
        SessionProject::Project(p.clone())
    })
}

/// Whole-word occurrence of a slug: not touching other slug characters,
/// except that a `.` followed by a non-slug character (sentence end) is a boundary.
fn contains_word(hay: &str, word: &str) -> bool {
    let bytes = hay.as_bytes();
    let is_slug_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    let mut from = 0;
    while let Some(pos) = hay[from..].find(word) {
        let start = from + pos;
        let end = start + word.len();
        let before_ok = start == 0 || !is_slug_byte(bytes[start - 1]);
        let after_ok = match bytes.get(end) {
            None => true,
            Some(b'.') => bytes.get(end + 1).is_none_or(|&b| !is_slug_byte(b)),
            Some(&b) => !is_slug_byte(b),
        };
        if before_ok && after_ok {
            return true;
        }
        from = start + 1;
        while !hay.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        vec!["wrap-cli".into(), "cli".into(), "kb-site".into()]
    }

    #[test]
    fn heading_normalization() {
        assert_eq!(normalize_heading("  Next   Session: "), "next session");
        assert_eq!(normalize_heading("Follow-ups::"), "follow-ups:");
        let m = HeadingMatcher::from_config(&crate::config::Config::default());
        assert_eq!(m.role("NEXT STEPS:"), Some(Role::Next));
        assert_eq!(m.role("다음 세션"), Some(Role::Next));
        assert_eq!(m.role("Completed"), Some(Role::Done));
        assert_eq!(m.role("Skipped follow-ups"), Some(Role::Skipped));
        assert_eq!(m.role("Objective:"), Some(Role::Goal));
        assert_eq!(m.role("Notes"), None);
    }

    #[test]
    fn session_headings() {
        assert!(is_session_heading("Session: fix lock"));
        assert!(is_session_heading("session 3"));
        assert!(is_session_heading("세션: 정리"));
        assert!(!is_session_heading("Sessions overview"));
        assert!(!is_session_heading("My session"));
    }

    #[test]
    fn session_project_rules() {
        let k = known();
        assert_eq!(
            session_project("Session: fix lock race (Wrap-CLI)", &k),
            SessionProject::Project("wrap-cli".into())
        );
        assert_eq!(
            session_project("Session: polish wrap-cli.", &k),
            SessionProject::Project("wrap-cli".into())
        );
        assert_eq!(
            session_project("Session: misc", &k),
            SessionProject::NoProject
        );
        assert_eq!(
            session_project("Session: kb-site and wrap-cli", &k),
            SessionProject::Ambiguous
        );
        assert_eq!(
            session_project("Session: cli tweaks", &k),
            SessionProject::Project("cli".into())
        );
    }
}
