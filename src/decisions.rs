//! Decisions on open items (docs/FORMAT.md §5.2): `keep`, `same`,
//! `not-task`, recorded one line each in `.agents/decisions.log`, a plain
//! append-only file that git merges as a union. This module holds the
//! plain data and its text form; reading the file is [`read`], appending
//! is the `decide` command's (under the lock).
//!
//! A line: `DATE VERB ID [PROJECT] TEXT`, and for `same`:
//! `DATE same ID OTHER [PROJECT] TEXT ≡ OTHER-TEXT`. `[-]` is no project.
//! Blank lines and lines starting with `#` are comments.

use jiff::civil::Date;

/// The decisions file, relative to the vault root.
pub(crate) const FILE: &str = ".agents/decisions.log";

/// What was decided about an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    /// Still open: not asked again for `review.stale_days`.
    Keep,
    /// The item and `other` are one task from now on.
    Same,
    /// Not a task: never listed again.
    NotTask,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Keep => "keep",
            Verb::Same => "same",
            Verb::NotTask => "not-task",
        }
    }

    pub fn parse(s: &str) -> Option<Verb> {
        match s {
            "keep" => Some(Verb::Keep),
            "same" => Some(Verb::Same),
            "not-task" => Some(Verb::NotTask),
            _ => None,
        }
    }
}

/// One decision, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub date: Date,
    pub verb: Verb,
    /// The item's ID when it was decided.
    pub id: String,
    pub project: Option<String>,
    /// The item's text when it was decided.
    pub text: String,
    /// For `same`: the other item's ID and text.
    pub other: Option<(String, String)>,
    /// 1-based line in the file.
    pub line: u32,
}

/// The mark between the two texts of a `same` line.
const SAME_MARK: &str = " ≡ ";

/// A text on one line: line breaks and other control characters become
/// spaces, and spaces at either end go (the line reads back the same).
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace(SAME_MARK, " = ")
        .trim()
        .to_string()
}

impl Decision {
    /// The decision's line (no line break).
    pub fn to_line(&self) -> String {
        let project = self.project.as_deref().unwrap_or("-");
        let ids = match &self.other {
            Some((id, _)) => format!("{} {id}", self.id),
            None => self.id.clone(),
        };
        let mut line = format!(
            "{} {} {ids} [{project}] {}",
            self.date,
            self.verb.as_str(),
            one_line(&self.text)
        );
        if let Some((_, text)) = &self.other {
            line.push_str(SAME_MARK);
            line.push_str(&one_line(text));
        }
        line
    }
}

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 16 && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Parses one line; `Ok(None)` for a comment or blank line.
pub fn parse_line(line: &str, n: u32) -> Result<Option<Decision>, String> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let mut parts = t.splitn(3, ' ');
    let date = parts
        .next()
        .and_then(|d| d.parse::<Date>().ok())
        .ok_or("expected a date (YYYY-MM-DD) first")?;
    let verb = parts
        .next()
        .and_then(Verb::parse)
        .ok_or("expected keep, same or not-task after the date")?;
    let rest = parts.next().unwrap_or("");
    let (ids, rest) = rest
        .split_once(" [")
        .ok_or("expected the item's [project] after its ID")?;
    let (project, text) = rest
        .split_once("] ")
        .or_else(|| rest.strip_suffix(']').map(|p| (p, "")))
        .ok_or("expected `]` after the project")?;
    let ids: Vec<&str> = ids.split(' ').collect();
    let (id, other_id) = match (verb, ids.as_slice()) {
        (Verb::Same, [a, b]) if is_id(a) && is_id(b) => (a.to_string(), Some(b.to_string())),
        (Verb::Same, _) => return Err("`same` needs two IDs".into()),
        (_, [a]) if is_id(a) => (a.to_string(), None),
        _ => return Err("expected one item ID (letters and digits)".into()),
    };
    let (text, other) = match other_id {
        Some(o) => {
            let (a, b) = text.split_once(SAME_MARK.trim()).unwrap_or((text, ""));
            (a.trim().to_string(), Some((o, b.trim().to_string())))
        }
        None => (text.trim().to_string(), None),
    };
    Ok(Some(Decision {
        date,
        verb,
        id,
        project: (project != "-").then(|| project.to_string()),
        text,
        other,
        line: n,
    }))
}

/// Every decision of `content`, and a message (`line N: …`) for each line
/// that is not one.
pub fn parse(content: &str) -> (Vec<Decision>, Vec<String>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (n, line) in content.lines().enumerate() {
        let n = u32::try_from(n + 1).unwrap_or(u32::MAX);
        match parse_line(line, n) {
            Ok(Some(d)) => out.push(d),
            Ok(None) => {}
            Err(why) => bad.push(format!("line {n}: {why}; line ignored")),
        }
    }
    (out, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let d = Decision {
            date: "2026-05-06".parse().unwrap(),
            verb: Verb::Same,
            id: "3fy6bd".into(),
            project: Some("wrap-cli".into()),
            text: "add lock timeout".into(),
            other: Some(("k2j9aa".into(), "lock timeout\nfor wrap".into())),
            line: 1,
        };
        let line = d.to_line();
        assert_eq!(
            line,
            "2026-05-06 same 3fy6bd k2j9aa [wrap-cli] add lock timeout ≡ lock timeout for wrap"
        );
        let back = parse_line(&line, 1).unwrap().unwrap();
        assert_eq!(back.other.unwrap().1, "lock timeout for wrap");
        let keep = parse_line("2026-05-06 keep ab12cd [-] port it", 2)
            .unwrap()
            .unwrap();
        assert_eq!((keep.project, keep.text.as_str()), (None, "port it"));
    }

    #[test]
    fn a_bad_line_says_why() {
        let (ok, bad) = parse("# comment\n\n2026-05-06 maybe ab [-] x\nnot a date\n");
        assert!(ok.is_empty());
        assert_eq!(
            bad,
            [
                "line 3: expected keep, same or not-task after the date; line ignored",
                "line 4: expected a date (YYYY-MM-DD) first; line ignored"
            ]
        );
    }
}
