//! Manual steps handed to the user in the middle of any assistant message,
//! not as a list and not only in the message that ends an exchange: "Build
//! it, then grant the Accessibility permission in System Settings and
//! restart it." A step is a clause that opens with a user-side verb of
//! [`STEPS`] (grant, enable, add your key, sign in, fund, …) in a sentence
//! that holds one of the verb's object words (for "add your" and the like, a
//! place outside the chat such as `.env` or the dashboard), at an imperative position: the start of a
//! sentence or clause (after `, `, `; `, `: `, ` — `, `then`, `and`, `just`,
//! `please`, `first`) or after "you need to" / "you'll need to" / "you'll
//! have to" / "you must" / "make sure to" / "remember to". Questions, conditions ("If …", "When …") and what
//! the agent does itself ("I'll grant …") are no steps. The candidate is the
//! clause from the verb to the next `;`, `, then`, ` — `, ` so `, ` and <step
//! verb>` or sentence end.
//! A later user report settles it like any step ([`super::confirm`]).

use super::handoff::{body, prose};
use super::markers::tidy;

/// Places outside the conversation a key or a setting goes to: "add your X"
/// counts only with one of them ("Add your key to `.env`"), not as a request
/// for data the user answers in the chat ("Please add your wallet address
/// below").
const PLACES: &[&str] = &[
    ".env",
    "env",
    "config",
    "settings",
    "dashboard",
    "secret",
    "environment",
    "keychain",
    "file",
    "vault",
    "variables",
    "console",
    "profile",
];

/// User-side verbs and the words one of which the step must hold (empty:
/// the verb phrase alone is enough).
#[rustfmt::skip]
const STEPS: &[(&str, &[&str])] = &[
    ("grant ", &["permission", "permissions", "access"]),
    ("enable ", &["settings", "permission", "preferences", "dashboard", "console", "access"]),
    ("allow ", &["settings", "permission", "preferences", "access"]),
    ("approve ", &["permission", "prompt", "access", "request", "wallet"]),
    ("add your ", PLACES),
    ("put your ", PLACES),
    ("paste your ", PLACES),
    ("set your ", PLACES),
    ("sign in ", &[]),
    ("sign in.", &[]),
    ("log in ", &[]),
    ("log in.", &[]),
    ("fund ", &["wallet", "account", "address", "balance"]),
    ("top up ", &["wallet", "account", "balance"]),
    ("get ", &["faucet", "airdrop"]),
    ("request ", &["faucet", "airdrop"]),
];

/// One case-insensitive automaton over the verbs of [`STEPS`]: a cheap test
/// before a message is read sentence by sentence.
static VERBS: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(STEPS.iter().map(|(v, _)| v.trim_end_matches(['.', ' '])))
        .expect("the step verbs build an automaton")
});

/// What may stand right before a step's verb (lowercased, trimmed).
const BEFORE: &[&str] = &[
    "then",
    "and",
    "just",
    "please",
    "first",
    "first,",
    "you need to",
    "you'll need to",
    "you will need to",
    "you'll have to",
    "you have to",
    "you must",
    "also",
    "finally,",
    "next,",
    "and then",
    "make sure to",
    "be sure to",
    "remember to",
    "don't forget to",
];

/// Where the clause of a step ends.
const CLAUSE_ENDS: &[&str] = &[
    "; ",
    ", then ",
    ", and then ",
    " — ",
    " – ",
    " so ",
    ", so ",
    " so that ",
    " to make ",
];

/// Where the clause starting `rest` ends: at a [`CLAUSE_ENDS`] or at ` and `
/// before a further step verb ("… and restart the app").
fn clause_end(rest: &str) -> usize {
    let lower = super::lower::lower(rest);
    let and = lower
        .match_indices(" and ")
        .map(|(i, _)| i)
        .find(|&i| super::steps::step_verb(&rest[i + 5..]));
    CLAUSE_ENDS
        .iter()
        .filter_map(|e| lower.find(e))
        .chain(and)
        .min()
        .unwrap_or(rest.len())
}

fn imperative_position(prefix: &str) -> bool {
    let p = prefix.trim_end().trim_end_matches(['*', '_']).trim_end();
    if p.is_empty() || p.ends_with([',', ';', ':', '—', '–', '(']) {
        return true;
    }
    let p = p.to_lowercase();
    BEFORE.iter().any(|b| {
        p.ends_with(b)
            && p[..p.len() - b.len()]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '\'')
    })
}

/// Manual steps in one assistant message: `(text, keyword, 0-based line)`.
pub(crate) fn steps(text: &str, max_line: usize) -> Vec<(String, String, usize)> {
    if !VERBS.is_match(text) {
        return Vec::new();
    }
    let mut ignored = 0;
    let mut out: Vec<(String, String, usize)> = Vec::new();
    for (offset, sentence) in prose(text, max_line, &mut ignored) {
        let b = body(&sentence);
        let lower = super::lower::lower(b);
        if lower.trim_end().ends_with('?')
            || ["if ", "when ", "whenever ", "once ", "i ", "i'll ", "we "]
                .iter()
                .any(|w| lower.starts_with(w))
        {
            continue;
        }
        for (verb, objects) in STEPS {
            for (at, _) in lower.match_indices(verb) {
                let starts_word = lower[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric());
                if !starts_word || !imperative_position(&b[..at]) {
                    continue;
                }
                let rest = &b[at..];
                let clause = &rest[..clause_end(rest)];
                // The object word may stand anywhere in the sentence ("open
                // System Settings and enable Screen Recording for it").
                if !objects.is_empty() && !objects.iter().any(|o| lower.contains(o)) {
                    continue;
                }
                let t = tidy(clause);
                if t.split_whitespace().count() >= 2 && !out.iter().any(|(x, _, _)| *x == t) {
                    out.push((t, "step for the user".to_string(), offset));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<String> {
        steps(t, 400).into_iter().map(|(t, _, _)| t).collect()
    }

    #[test]
    fn steps_mid_message() {
        assert_eq!(
            texts(
                "The helper builds now. Run it once, then grant the Accessibility permission \
                 in System Settings and restart the app. After that the hotkey works.\n\nNext I'll look at the tray."
            ),
            ["Grant the Accessibility permission in System Settings"]
        );
        assert_eq!(
            texts(
                "You'll need to add your `OPENAI_API_KEY` to `.env`; the server reads it at start."
            ),
            ["Add your `OPENAI_API_KEY` to `.env`"]
        );
        assert_eq!(
            texts("First, fund the devnet wallet from the faucet — 2 SOL is plenty."),
            ["Fund the devnet wallet from the faucet"]
        );
        assert_eq!(
            texts("Then sign in with your GitHub account."),
            ["Sign in with your GitHub account"]
        );
        assert_eq!(
            texts("Launch it, then grant the Accessibility permission so the tap receives keys."),
            ["Grant the Accessibility permission"]
        );
    }

    #[test]
    fn not_steps() {
        assert!(texts("I'll grant the service account access in the console.").is_empty());
        assert!(texts("Did you grant the permission?").is_empty());
        assert!(texts("If it fails, grant the permission in Settings.").is_empty());
        assert!(texts("The app asks to grant camera access.").is_empty());
        assert!(texts("Enable the `serde` feature in Cargo.toml.").is_empty());
        assert!(texts("The sign in page loads.").is_empty());
        assert!(texts("```\nthen grant the permission in settings\n```").is_empty());
    }
}
