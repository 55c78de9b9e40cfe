//! Candidates that name no open work: a description of finished work ("Added a
//! “Close Reg” action …", "保留了檢查 … 的邏輯") and a bare heading
//! ("**Interception Layer**:").

/// Past tenses that open a report of work the agent finished.
#[rustfmt::skip]
const FINISHED_LEADS: &[&str] = &[
    "added", "fixed", "implemented", "updated", "created", "removed", "reorganized",
    "reorganised", "refactored", "renamed", "moved", "replaced", "rewrote", "wrote",
    "built", "kept", "resolved", "completed", "finished", "merged", "deleted",
    "converted", "migrated", "cleaned", "introduced", "switched", "extracted",
    "installed", "configured", "enabled", "disabled", "documented", "verified",
];

/// CJK openings of a report of finished work: "kept", "already", "completed".
const FINISHED_CJK: &[&str] = &[
    "保留了",
    "已经",
    "已經",
    "已移除",
    "已删除",
    "已改",
    "已修",
    "已添加",
    "已完成",
    "完成了",
    "修复了",
    "修復了",
];

/// Whether `text` describes finished work: it opens (after list markup and
/// emphasis) with a past tense of [`FINISHED_LEADS`] followed by more words,
/// or with a CJK opening of [`FINISHED_CJK`].
pub(super) fn describes_done(text: &str) -> bool {
    let body = text.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '*' | '_' | '-' | '`' | '>' | '•' | '✅')
    });
    if FINISHED_CJK.iter().any(|p| body.starts_with(p)) {
        return true;
    }
    let mut words = body.split_whitespace();
    let first = words
        .next()
        .map(|w| w.trim_end_matches([':', ',', '*']).to_lowercase());
    first.is_some_and(|w| FINISHED_LEADS.contains(&w.as_str())) && words.next().is_some()
}

/// Whether `text` is a bare heading: at most four words ending with a colon
/// and nothing after it ("**Request Evaluation**:").
pub(super) fn bare_heading(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['*', '_']);
    t.ends_with(':') && t.split_whitespace().nth(4).is_none()
}

/// The tasks of a sentence naming two ("update the README and add a
/// migration test"): split at one ` and ` when both sides open with a step
/// verb and the first holds an object (two words or more: "build and test
/// the app" stays whole). A sentence naming one task is returned as is.
pub(super) fn tasks(text: &str) -> Vec<String> {
    let body = text.trim();
    if super::steps::step_verb(body) {
        for sep in [", and ", " and "] {
            let mut parts = body.match_indices(sep).filter(|(at, _)| {
                let (a, b) = (&body[..*at], &body[at + sep.len()..]);
                a.split_whitespace().nth(1).is_some() && super::steps::step_verb(b)
            });
            if let (Some((at, _)), None) = (parts.next(), parts.next()) {
                let first = body[..at].trim_end_matches(',').trim();
                let second = body[at + sep.len()..].trim();
                return vec![first.to_string(), second.to_string()];
            }
        }
    }
    vec![text.to_string()]
}

/// Marker labels of the agent's plan as it stands ("Next steps", "Open
/// items", "TODO"): a later answer's plan replaces them, unlike a deferral
/// to a time or place ("next session", "follow up", "come back to").
#[rustfmt::skip]
const PLAN_LABELS: &[&str] = &[
    "suggested next", "recommended next", "todo", "open items", "remaining work",
    "still to do", "left to do", "not yet done", "下一步", "다음 단계",
];

/// Whether the marker keyword `name` labels the agent's current plan
/// ([`PLAN_LABELS`], or "next …" other than "next session" / "next time").
pub(super) fn plan_label(name: &str) -> bool {
    let n = name.trim().to_lowercase();
    PLAN_LABELS.contains(&n.as_str())
        || (n.starts_with("next ") && n != "next session" && n != "next time")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_work_and_headings_name_nothing_open() {
        assert!(describes_done(
            "Added a “Close Reg” action so you can close it"
        ));
        assert!(describes_done("- **Reorganized** into categories: a, b"));
        assert!(describes_done("保留了檢查基礎映像中是否已有 uv 的邏輯"));
        assert!(!describes_done("Add a “Close Reg” action"));
        assert!(!describes_done("Fixed"));
        assert!(bare_heading("**Interception Layer**:"));
        assert!(!bare_heading(
            "Interception: route every call through the gateway"
        ));
    }
}
