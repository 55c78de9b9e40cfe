//! Steps left to the user at the end of a message: the list that closes it
//! under a lead-in turned to the user, and steps given as fenced code under
//! sub-headings or as "Then …" sentences (see [`super::handoff`]).

use super::keywords::{Fence, list_item_body, strip_checkbox};
use super::sentences;

/// Verbs that open a step for the user (lowercase). Words that are as often
/// nouns in status lists (`test`, `build`, `check`, `review`) are left out.
#[rustfmt::skip]
pub(crate) const IMPERATIVES: &[&str] = &[
    "add", "run", "set", "install", "create", "copy", "paste", "fill", "replace", "update",
    "deploy", "open", "visit", "go", "get", "fund", "configure", "restart", "export", "enable",
    "sign", "register", "upload", "submit", "attach", "provide", "connect", "start", "push",
    "commit", "merge", "rotate", "verify", "confirm", "delete", "remove", "rename", "move",
    "generate", "request", "apply", "approve", "point", "record", "send", "share", "invite",
    "switch", "log", "top", "claim", "mint", "download", "clone", "cd", "npm", "pnpm", "yarn",
    "npx", "cargo", "pip", "docker", "git", "make", "edit", "put", "grant", "reload", "redeploy",
    "re-run", "rerun", "import", "wrap", "use", "drop", "publish", "tag", "schedule", "ask",
    "contact", "email", "post", "fix", "write", "choose", "pick", "decide",
];

/// Whether a list item reads as a step for the user.
fn imperative(item: &str) -> bool {
    let t = item.trim_start_matches(['*', '_', ' ']);
    if let Some(rest) = t.strip_prefix('`') {
        let (code, after) = rest.split_once('`').unwrap_or((rest, ""));
        return command_span(code) && !reports_result(after);
    }
    let first = t
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches([':', ',', '.', '*'])
        .to_lowercase();
    IMPERATIVES.contains(&first.as_str())
}

/// Whether a code span reads as a command to run (`npm run dev`, `vercel
/// --prod`), not an identifier (`parse_date`, `Config::load()`).
fn command_span(code: &str) -> bool {
    let mut words = code.split_whitespace();
    let first = words.next().unwrap_or("");
    let known = IMPERATIVES.contains(&first.to_lowercase().as_str()) || first.starts_with("./");
    known || (words.next().is_some() && !code.contains(['(', '{', '=']))
}

/// Words after a code span that report an outcome (`` `cargo test` passes ``,
/// `` `npm test`: 48 passed ``, `` `make` → ok ``), not a step.
#[rustfmt::skip]
const RESULTS: &[&str] = &[
    "pass", "passes", "passed", "passing", "ok", "succeeds", "succeeded", "green", "clean",
    "works", "worked", "fails", "failed", "failing", "returns", "returned", "prints", "printed",
    "exits", "exited", "reports", "shows", "is", "are", "was", "were",
];

fn reports_result(after: &str) -> bool {
    let t = after.trim_start_matches([':', ' ', '—', '–', '-', '(', '*']);
    if t.starts_with(['→', '✅', '✓', '>']) || t.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let first = t.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
    RESULTS.contains(&first.to_lowercase().as_str())
}

/// Words of a lead-in that turn a list towards the user or what comes next
/// (`To try it yourself:`, `Before going live:`, `Setup steps:`), unlike a
/// report heading (`Testing:`, `Changes:`).
#[rustfmt::skip]
const LEAD_HINTS: &[&str] = &[
    "you", "your", "yourself", "to", "before", "after", "once", "then", "next", "step",
    "steps", "manual", "manually", "setup", "set", "install", "deploy", "run", "go",
    "remaining", "todo", "action", "actions", "still", "left", "later", "launch", "live",
];

fn addresses_user(lead: &str) -> bool {
    lead.split(|c: char| !c.is_alphanumeric())
        .any(|w| LEAD_HINTS.contains(&w.to_lowercase().as_str()))
}

/// The top-level items of the list that closes a message, with their 0-based
/// lines, when a lead-in introduces it and every item is a step.
pub(crate) fn closing_steps(text: &str) -> Vec<(String, usize)> {
    let mut fence = Fence::default();
    // (line, is code or blank, list body with indent)
    let lines: Vec<(usize, &str, bool)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i, l, fence.is_code(l)))
        .collect();
    let content: Vec<&(usize, &str, bool)> = lines
        .iter()
        .filter(|(_, l, _)| !l.trim().is_empty())
        .collect();
    // Walk back from the end: at most two closing lines, then the list.
    let mut k = content.len();
    let mut after = 0;
    while k > 0 && list_item_body(content[k - 1].1).is_none() {
        k -= 1;
        after += 1;
        if after > 2 {
            return Vec::new();
        }
    }
    // (body, line, indent), last item first.
    let mut items: Vec<(String, usize, usize)> = Vec::new();
    let mut base: Option<usize> = None;
    while k > 0 {
        let (i, line, code) = *content[k - 1];
        let indent = line.len() - line.trim_start().len();
        match list_item_body(line) {
            Some(body) if !code => {
                if base.is_none_or(|b| indent <= b) {
                    base = Some(indent);
                }
                items.push((body.to_string(), i, indent));
            }
            _ if !code && base.is_some_and(|b| indent > b) => {}
            _ => break,
        }
        k -= 1;
    }
    // Items deeper than the final base are nested ones.
    let Some(base) = base else { return Vec::new() };
    let lead = k.checked_sub(1).map(|j| content[j].1.trim());
    let introduced = lead.is_some_and(|l| {
        let l = l.trim_end_matches(['*', '_', ' ']);
        let shape =
            l.ends_with([':', '：']) || l.starts_with('#') || (l.starts_with("**") && l.len() > 4);
        shape && addresses_user(l)
    });
    let top: Vec<(String, usize)> = items
        .into_iter()
        .rev()
        .filter(|&(_, _, indent)| indent <= base)
        .map(|(b, i, _)| (b, i))
        .collect();
    if !introduced || top.is_empty() || !top.iter().all(|(b, _)| imperative(strip_checkbox(b))) {
        return Vec::new();
    }
    top.into_iter()
        .map(|(b, i)| (sentences::item_text(&b), i))
        .collect()
}

/// Verbs that open a step only in a step context ("Then check …", a
/// sub-heading over a code block), on top of [`IMPERATIVES`].
#[rustfmt::skip]
const STEP_VERBS: &[&str] = &[
    "find", "retry", "check", "test", "build", "try", "wait", "look", "refresh", "reopen",
    "call", "click", "select", "navigate", "save", "paste", "fetch", "airdrop", "initialize",
    "init", "compile", "link", "login",
];

/// Connectors that open a further step ("Then retry the deploy.").
const CONNECTORS: &[&str] = &["then ", "next, ", "after that, ", "finally, ", "and then "];

pub(crate) fn step_verb(text: &str) -> bool {
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches([':', ',', '.', '*'])
        .to_lowercase();
    IMPERATIVES.contains(&first.as_str()) || STEP_VERBS.contains(&first.as_str())
}

/// A line that introduces steps given as code ("Use these steps.", "Run these
/// commands:", "Follow these steps to fund it:").
fn steps_intro(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let names_steps = words
        .iter()
        .any(|w| ["steps", "commands", "step"].contains(w));
    let turned = words
        .iter()
        .any(|w| ["these", "you", "your", "use", "follow", "run"].contains(w));
    names_steps && turned && words.len() <= 12
}

/// A heading, bold line or numbered label without its markup
/// (`**2. Fund the wallet**` gives `Fund the wallet`).
fn label(line: &str) -> &str {
    let t = line.trim().trim_start_matches('#').trim();
    let t = t.trim_matches(['*', '_', ' ']);
    let t = list_item_body(t).unwrap_or(t);
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = t.trim_start_matches(['.', ')', ' ']);
    let t = t.strip_prefix("Step ").map_or(t, |r| {
        r.trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches([':', '.', ' '])
    });
    t.trim_matches(['*', '_', ' '])
        .trim_end_matches([':', '：'])
}

/// Steps given as fenced code and prose connectors after a steps intro in
/// the message: a heading, bold line or `X:` line starting with a step verb
/// right above a code block gives its text; a sentence "Then X" / "Next, X" /
/// "Finally, X" with a step verb gives `X`. Nothing without a code block.
pub(crate) fn code_steps(text: &str, max_line: usize) -> Vec<(String, usize)> {
    if !text.contains("```") && !text.contains("~~~") {
        return Vec::new();
    }
    let mut fence = Fence::default();
    let lines: Vec<(usize, &str, bool)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i, l, fence.is_code(l)))
        .collect();
    let mut out = Vec::new();
    let mut intro = false;
    for (k, &(offset, line, code)) in lines.iter().enumerate() {
        if code || sentences::is_table_row(line) || line.chars().count() > max_line {
            continue;
        }
        if !intro {
            intro = steps_intro(line);
            continue;
        }
        let opens_code = lines.get(k + 1).is_some_and(|&(_, _, c)| c);
        let t = line.trim();
        let shaped = t.starts_with('#') || t.starts_with("**") || t.ends_with([':', '：']);
        if opens_code && shaped && step_verb(label(line)) {
            out.push((sentences::item_text(label(line)), offset));
            continue;
        }
        for s in sentences::sentences(line) {
            let lower = s.to_lowercase();
            if let Some(c) = CONNECTORS.iter().find(|c| lower.starts_with(*c)) {
                let step = s[c.len()..].trim();
                if step_verb(step) && step.split_whitespace().count() >= 2 {
                    out.push((super::markers::tidy(step), offset));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        code_steps(text, 400).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn steps_given_as_code_blocks_and_connectors() {
        let t = "The deploy failed: the wallet has no funds.\n\nUse these steps.\n\n**1. Create a devnet keypair**\n```sh\nsolana-keygen new -o deployer.json\n```\n\n**2. Fund it**\n```sh\nsolana airdrop 2\n```\nThen find the program id in `target/deploy`. Then retry the deploy with the funded key.";
        assert_eq!(
            texts(t),
            [
                "Create a devnet keypair",
                "Fund it",
                "Find the program id in `target/deploy`",
                "Retry the deploy with the funded key"
            ]
        );
    }

    #[test]
    fn code_without_a_steps_intro_is_no_step() {
        let t = "Here is the fix:\n```rs\nlet x = 1;\n```\nThen run the tests again.";
        assert!(texts(t).is_empty());
        let t = "Use these steps.\nThen retry the deploy.";
        assert!(texts(t).is_empty());
        let t = "Use these steps.\n```sh\nmake\n```\nThen it works.";
        assert!(texts(t).is_empty());
    }
}
