//! Review findings: a code review the agent hands back as paragraphs (or list
//! items) that each open with a severity label — "Critical: the cancel can
//! race the accept.", "**High**: …", "[P1] …", "Minor UX copy issue: …" —
//! often followed by a "Concrete fix:" / "Fix:" sentence. Each open finding is
//! work left to do: the candidate is the label and the finding's first
//! sentence, with the first sentence of its fix after " — fix: ".
//!
//! Read only in a message that ends an exchange, and only in a review: after
//! a heading or lead-in naming findings (`Findings`, `Review`, `Issues`, …)
//! that does not report them handled ("All review findings are handled:").
//! Labels elsewhere are something else (version rules, benchmark tiers). A
//! finding that reports itself settled ("none found", "fixed in …", "… —
//! resolved", "the path now takes the lock") is none; fenced code and table
//! rows are never read.

use super::keywords::{Fence, list_item_body};
use super::sentences::{is_table_row, sentences};

/// A review the agent answers as one JSON object (Codex's review mode:
/// `{"findings": [{"title": "[P1] …", "body": "…"}, …], …}`), written out
/// as a findings section of one paragraph per titled finding.
fn json_review(text: &str) -> Option<String> {
    let t = text.trim();
    if !(t.starts_with('{') && t.ends_with('}') && t.contains("\"findings\"")) {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(t).ok()?;
    let titles: Vec<&str> = value
        .get("findings")?
        .as_array()?
        .iter()
        .filter_map(|f| f.get("title")?.as_str())
        .map(str::trim)
        .filter(|t| !t.is_empty() && !t.contains('\n'))
        .collect();
    (!titles.is_empty()).then(|| {
        let mut out = String::from("## Findings\n");
        for title in titles {
            out.push('\n');
            out.push_str(title.trim_end_matches('.'));
            out.push_str(".\n");
        }
        out
    })
}

/// Severity labels (lowercase), in the languages of the phrase lists.
#[rustfmt::skip]
const SEVERITY: &[&str] = &[
    "critical", "blocker", "blocking", "high", "major", "severe", "serious", "medium", "moderate",
    "low", "minor", "nit", "nitpick", "p0", "p1", "p2", "p3",
    "kritisch", "hoch", "mittel", "niedrig", "gering", "schwer",
    "crítico", "crítica", "grave", "alta", "alto", "media", "medio", "baja", "bajo", "menor",
    "critique", "bloquant", "majeur", "mineur", "élevé", "moyen", "faible",
    "критично", "критическая", "критический", "высокий", "средний", "низкий",
];

/// Words that, opening or closing a finding's first sentence, report it
/// settled ("none found", "fixed in 4f2a1c9", "… — resolved").
#[rustfmt::skip]
const SETTLED: &[&str] = &[
    "fixed", "resolved", "addressed", "none", "no issues", "n/a", "looks good", "lgtm", "done",
    "✅", "handled",
];

/// Words of a lead-in that reports the findings under it handled ("All review
/// findings are handled in 4f2a1c9:").
#[rustfmt::skip]
const HANDLED: &[&str] = &[
    "handled", "fixed", "addressed", "resolved", "done", "applied", "closed",
];

/// Whether a finding's first sentence (lowercase) reports it settled: a
/// settled word opens or closes it, it is "nothing …" in three words or
/// fewer, or it says what the code does "now" (a change, described).
fn settled(lower: &str) -> bool {
    let t = lower.trim().trim_end_matches(['.', '!', ')', ' ']);
    let bounded = |rest: &str| rest.chars().next().is_none_or(|c| !c.is_alphanumeric());
    let opens = SETTLED
        .iter()
        .any(|w| t.strip_prefix(w).is_some_and(bounded));
    let closes = SETTLED.iter().any(|w| {
        t.strip_suffix(w).is_some_and(|before| {
            before
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
        })
    });
    let nothing = t.starts_with("nothing") && t.split_whitespace().count() <= 3;
    let now = t.split(|c: char| !c.is_alphanumeric()).any(|w| w == "now");
    opens || closes || nothing || now
}

/// Words of a heading or lead-in that announces findings.
#[rustfmt::skip]
const REVIEW_HEADINGS: &[&str] = &[
    "finding", "review", "issues", "problems", "concerns", "befund", "probleme", "hallazgo",
    "problemas", "problèmes", "замечани", "проблем",
];

/// Fix sentence openings (lowercase).
const FIX: &[&str] = &[
    "concrete fix:",
    "fix:",
    "suggested fix:",
    "proposed fix:",
    "recommendation:",
    "recommended fix:",
];

/// The severity label opening `body` (after emphasis): `Critical:`,
/// `**High**:`, `Minor UX copy issue:` (the label and up to three words before
/// the colon), `[P1]`; returns the label and the rest.
fn label(body: &str) -> Option<(String, &str)> {
    let s = body.trim_start_matches(['*', '_', ' ']);
    if let Some(rest) = s.strip_prefix('[') {
        let (tag, after) = rest.split_once(']')?;
        let lower = super::lower::lower(tag.trim());
        return SEVERITY.contains(&lower.as_str()).then(|| {
            (
                tag.trim().to_string(),
                after.trim_start_matches([':', ' ', '*', '_', '-', '—']),
            )
        });
    }
    let (head, rest) = s.split_once(':')?;
    let head = head.trim_end_matches(['*', '_', ' ']);
    let words: Vec<&str> = head.split_whitespace().collect();
    let first = super::lower::lower(words.first()?.trim_matches(['*', '_']));
    if words.len() > 4 || !SEVERITY.contains(&first.as_str()) {
        return None;
    }
    Some((
        head.replace(['*', '_'], ""),
        rest.trim_start_matches(['*', '_', ' ']),
    ))
}

/// Whether a heading or lead-in line announces findings (and does not report
/// them handled).
fn announces(line: &str) -> bool {
    let t = line.trim();
    let heading = t.starts_with('#')
        || (t.starts_with("**") && t.ends_with("**"))
        || t.trim_end_matches(['*', '_']).ends_with(':');
    let lower = super::lower::lower(t);
    let handled = lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| HANDLED.contains(&w));
    heading && !handled && REVIEW_HEADINGS.iter().any(|w| lower.contains(w))
}

/// The findings of a review message: `(text, 0-based line)`.
pub(crate) fn findings(text: &str, max_line: usize) -> Vec<(String, usize)> {
    if let Some(listed) = json_review(text) {
        return findings(&listed, max_line);
    }
    // Every label ends in `:` or `]`.
    if !text.contains(':') && !text.contains(']') {
        return Vec::new();
    }
    let mut fence = Fence::default();
    let mut found: Vec<(String, usize)> = Vec::new();
    let mut announced = false;
    // The finding whose fix sentence may still come: its index in `found`.
    let mut current: Option<usize> = None;
    let mut fixed = false;
    for (offset, line) in text.lines().enumerate() {
        if fence.is_code(line) || is_table_row(line) {
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let body = list_item_body(line).unwrap_or(line.trim_start());
        // Only after a heading or lead-in naming findings: labels elsewhere
        // are something else (version rules, benchmark tiers).
        if let Some((label, rest)) = label(body).filter(|_| announced) {
            current = None;
            fixed = false;
            let Some(first) = sentences(rest).into_iter().next() else {
                continue;
            };
            let settled = settled(&super::lower::lower(first));
            let first = first.trim().trim_end_matches(['.', ' ']);
            if settled || first.split_whitespace().count() < 3 || first.chars().count() > max_line {
                continue;
            }
            current = Some(found.len());
            found.push((format!("{label}: {first}"), offset));
            continue;
        }
        if announces(line) {
            announced = true;
            current = None;
            continue;
        }

        if let Some(i) = current.filter(|_| !fixed) {
            for s in sentences(line.trim()) {
                let lower = super::lower::lower(s);
                if let Some(f) = FIX.iter().find(|f| lower.starts_with(*f)) {
                    let fix = s[f.len()..].trim().trim_end_matches(['.', ' ']);
                    if !fix.is_empty() && fix.chars().count() <= max_line {
                        let t = format!("{} — fix: {fix}", found[i].0);
                        found[i].0 = t.chars().take(300).collect();
                    }
                    fixed = true;
                    break;
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<String> {
        findings(t, 400).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn severity_paragraphs_with_fixes() {
        let t = "**Findings**\n\nCritical: a cancel can race the accept.  \nThe read happens outside the lock.  \nConcrete fix: lock the row first. Then re-check.\n\nMinor UX copy issue: the heading is wrong for demoted admins.\nConcrete fix: say they are no longer eligible.\n\n**Overall**\n\nMostly fine.";
        assert_eq!(
            texts(t),
            [
                "Critical: a cancel can race the accept — fix: lock the row first",
                "Minor UX copy issue: the heading is wrong for demoted admins — fix: say they are no longer eligible"
            ]
        );
        let t = "Review:\n- [P1] Token refresh drops the retry header — src/auth.ts:40";
        assert_eq!(
            texts(t),
            ["P1: Token refresh drops the retry header — src/auth.ts:40"]
        );
    }

    #[test]
    fn a_review_answered_as_json_gives_its_titled_findings() {
        let t = r#"{"findings": [{"title": "[P1] Refunds skip the ledger lock", "body": "Two refunds can interleave.", "priority": 1}, {"title": "[P3] Typo in the error text", "body": "x"}], "overall_correctness": "patch is incorrect"}"#;
        assert_eq!(
            texts(t),
            [
                "P1: Refunds skip the ledger lock",
                "P3: Typo in the error text"
            ]
        );
        // No titled finding, or not the whole message: nothing.
        assert!(texts(r#"{"findings": [], "overall_correctness": "patch is correct"}"#).is_empty());
        assert!(texts(r#"Here: {"findings": [{"title": "[P1] x y z"}]}"#).is_empty());
    }

    #[test]
    fn not_findings() {
        // One label, no review heading.
        assert!(texts("High: the build takes too long on CI.").is_empty());
        // Settled or empty findings.
        assert!(
            texts("## Review\n\nCritical: none found.\n\nHigh: fixed the race in the worker.")
                .is_empty()
        );
        // Labels not followed by a finding sentence.
        assert!(texts("High: 35 C\nLow: 20 C").is_empty());
        // Inside code.
        assert!(texts("```\nCritical: a b c d\nHigh: a b c d\n```").is_empty());
    }
}
