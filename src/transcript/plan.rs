//! Proposed plans: a Codex `<proposed_plan>` block in an assistant message, or
//! the plan of a Claude Code `ExitPlanMode` call (read as such a block). The
//! agent carries out most of a plan itself; the steps it cannot take — an
//! action outside the workspace, opened by a verb of [`OUTSIDE`] ("Attach the
//! budget sheet with the final application", "Submit the form on the fund's
//! portal") — are left to the user. Verbs as common in code work (`register`,
//! `send`, `publish`) are not among them, and an item naming code (a `code
//! span`) is workspace work. Each such list item (at any depth) is a
//! candidate; a later turn that reports it done settles it like any other.

use super::keywords::{Fence, list_item_body, strip_checkbox};
use super::sentences;

const OPEN: &str = "<proposed_plan>";
const CLOSE: &str = "</proposed_plan>";

/// Verbs of actions outside the workspace (lowercase).
#[rustfmt::skip]
const OUTSIDE: &[&str] = &[
    "attach", "submit", "sign", "upload", "fund", "email", "contact", "invite", "schedule",
    "claim", "pay", "buy", "purchase", "announce", "obtain", "book", "mail",
];

/// The steps of the plans in `text` left to the user, with their 0-based lines.
pub(crate) fn outside_steps(text: &str, max_line: usize) -> Vec<(String, usize)> {
    if !text.contains(OPEN) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut inside = false;
    let mut fence = Fence::default();
    for (offset, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with(OPEN) {
            inside = true;
            continue;
        }
        if t.starts_with(CLOSE) {
            inside = false;
            continue;
        }
        if !inside || fence.is_code(line) || line.chars().count() > max_line {
            continue;
        }
        let Some(body) = list_item_body(line) else {
            continue;
        };
        let body = strip_checkbox(body);
        let first = body
            .trim_start_matches(['*', '_', ' '])
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("")
            .to_lowercase();
        if OUTSIDE.contains(&first.as_str())
            && body.split_whitespace().count() >= 2
            && !body.contains('`')
        {
            out.push((sentences::item_text(body), offset));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_outside_the_workspace() {
        let t = "Here is the plan.\n<proposed_plan>\n# Grant application\n## Draft\n- Write the project summary\n- Fill the budget table\n## Submission Materials\n- Attach the budget sheet and the team CVs with the final application\n- **Submit** the form on the fund's portal\n</proposed_plan>\n- Send the draft to the board";
        let got: Vec<String> = outside_steps(t, 400).into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            got,
            [
                "Attach the budget sheet and the team CVs with the final application",
                "**Submit** the form on the fund's portal"
            ]
        );
        assert!(outside_steps("- Send the logs", 400).is_empty());
        let code = "<proposed_plan>\n- Register the module in the sniffer\n- Sign `payload.bin` with the test key\n</proposed_plan>";
        assert!(outside_steps(code, 400).is_empty());
    }
}
