//! Manual steps handed to the user in the middle of any assistant message,
//! not as a list and not only in the message that ends an exchange: "Build
//! it, then grant the Accessibility permission in System Settings and
//! restart it." A step is a clause that opens with a user-side verb of
//! [`STEPS`] (grant, enable, add your key, sign in, fund, …) in a sentence
//! that holds one of the verb's object words (for "add your" and the like, a
//! place outside the chat such as `.env` or the dashboard), at an imperative position: the start of a
//! sentence or clause (after `, `, `; `, `: `, ` — `, `then`, `and`, `just`,
//! `please`, `first`, `the easiest fix is to`) or after "you need to" / "you'll need to" / "you'll
//! have to" / "you must" / "make sure to" / "remember to". Questions, conditions ("If …", "When …") and what
//! the agent does itself ("I'll grant …") are no steps. The candidate is the
//! clause from the verb to the next `;`, `, then`, ` — `, ` so `, ` and <step
//! verb>` or sentence end.
//! A later user report settles it like any step ([`super::confirm`]).

use super::handoff::{body, prose};
use super::keywords::list_item_body;
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
    ("toggle ", &["settings", "permission", "accessibility", "preferences", "dashboard"]),
    ("turn on ", &["settings", "permission", "accessibility", "preferences", "dashboard"]),
    ("restart ", &["dashboard", "console", "portal", "control panel"]),
    ("redeploy ", &["dashboard", "console", "portal", "control panel"]),
    ("rotate ", &["dashboard", "console", "portal", "control panel"]),
    ("revoke ", &["dashboard", "console", "portal", "control panel"]),
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
    // "the easiest fix is to restart the service from the dashboard": a way
    // recommended to the user; not "the workflow's last step is to …" or
    // "one option is to …" (a description).
    "easiest fix is to",
    "simplest fix is to",
    "quickest fix is to",
    "fastest fix is to",
    "easiest way is to",
    "simplest way is to",
    "quickest way is to",
    "fastest way is to",
    "easiest option is to",
    "simplest option is to",
    "best option is to",
    "your next step is to",
    "your only step left is to",
    "your best bet is to",
];

/// Where the clause of a step ends.
const CLAUSE_ENDS: &[&str] = &[
    "; ",
    ", but ",
    ", which ",
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

/// Whether the clause before a step verb has the agent as its subject ("I'll
/// grant …", "We enable …"); a clause after `, so ` / `; ` / ` — ` starts
/// afresh ("I have no shell there, so the easiest fix is to restart …").
fn agents_own(prefix: &str) -> bool {
    let from = [", so ", "; ", ", and ", " — ", ": ", ", but "]
        .iter()
        .filter_map(|sep| prefix.rfind(sep).map(|i| i + sep.len()))
        .max()
        .unwrap_or(0);
    let clause = prefix[from..].trim_start_matches(['*', '_', ' ']);
    ["i ", "i'll ", "i'd ", "i've ", "we ", "we'll "]
        .iter()
        .any(|w| clause.starts_with(w))
}

/// Manual steps in one assistant message: `(text, keyword, 0-based line)`.
pub(crate) fn steps(text: &str, max_line: usize) -> Vec<(String, String, usize)> {
    if !VERBS.is_match(text) {
        return Vec::new();
    }
    let mut ignored = 0;
    let mut out: Vec<(String, String, usize)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let lines: Vec<&str> = text.lines().collect();
    for (offset, sentence) in prose(text, max_line, &mut ignored) {
        // A list item is a step of a list (how to test, how to use), read by
        // the list rules; a step without object words ("Sign in") counts only
        // in prose.
        let listed = lines
            .get(offset)
            .is_some_and(|l| list_item_body(l.trim_start()).is_some());
        let b = body(&sentence);
        let lower = super::lower::lower(b);
        if lower.trim_end().ends_with('?')
            || ["if ", "when ", "whenever ", "once "]
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
                if !starts_word || !imperative_position(&b[..at]) || agents_own(&lower[..at]) {
                    continue;
                }
                let rest = &b[at..];
                let clause = &rest[..clause_end(rest)];
                // The object word may stand anywhere in the sentence ("open
                // System Settings and enable Screen Recording for it").
                if !objects.is_empty() && !objects.iter().any(|o| lower.contains(o)) {
                    continue;
                }
                if objects.is_empty() && listed {
                    continue;
                }
                // "… find the app in the list, toggle it on": a step whose
                // object points back is read with the steps before it, from
                // the start of the chain (after ` — `, `: ` or `; `).
                let points_back = clause
                    .split_whitespace()
                    .nth(verb.split_whitespace().count())
                    .is_some_and(|w| ["it", "them", "this", "that"].contains(&w));
                let clause = if points_back {
                    let from = [" — ", ": ", "; "]
                        .iter()
                        .filter_map(|sep| b[..at].rfind(sep).map(|i| i + sep.len()))
                        .max()
                        .unwrap_or(0);
                    let chain = &b[from..];
                    let end = super::lower::lower(chain)
                        .find(", and it")
                        .unwrap_or(chain.len());
                    &chain[..end]
                } else {
                    clause
                };
                // A clause that opens inside a bold span keeps no half of it.
                let unbalanced = clause.matches("**").count() % 2 == 1;
                let t = tidy(&if unbalanced {
                    clause.replace("**", "")
                } else {
                    clause.to_string()
                });
                // "Fund it", "Sign in": a verb with a pronoun or nothing
                // names no step.
                let words = t.split_whitespace().count();
                if words >= 3 && seen.insert(t.clone()) {
                    out.push((t, "step for the user".to_string(), offset));
                }
            }
        }
    }
    out
}

/// Clauses that put a step off until the user is able ("when you're back
/// at your computer, …", "až budeš u počítače, …"), lowercase, in the
/// languages of the phrase lists; the step is the clause after the next `, `.
#[rustfmt::skip]
const WHEN_ABLE: &[&str] = &[
    "when you get a chance", "when you have a moment", "when you have a minute",
    "when you're back", "when you are back", "when you're at ", "when you are at ",
    "once you're back", "once you're at ", "next time you're at ",
    "až budeš", "až budete", "až se vrátíš", "až se vrátíte",
    "wenn du wieder", "sobald du wieder", "wenn du zeit hast", "wenn du am ", "sobald du am ",
    "cuando puedas", "cuando tengas un momento", "cuando estés", "cuando vuelvas",
    "quand tu pourras", "quand tu seras", "dès que tu seras", "quand vous pourrez",
    "quand vous serez", "quando puder", "quando estiver", "quando voltar", "quando puoi",
    "quando sarai", "appena puoi", "когда будешь", "когда будете", "когда сможешь",
    "когда вернёшься", "kiedy będziesz", "jak będziesz", "gdy będziesz",
];

/// One automaton over [`WHEN_ABLE`] (lowercase forms).
static WHEN_ABLE_FORMS: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::new(WHEN_ABLE).expect("the forms build an automaton")
    });

/// Steps the agent hands to the user for when they are able, in any
/// assistant message: "OK. When you're back at your computer, connect to the
/// server and send me the last 50 log lines so I can see the errors." gives
/// `Connect to the server and send me the last 50 log lines`. The clause must open the sentence
/// (after at most two words: "OK.", "Tak", "So"); questions give none.
pub(crate) fn when_able(text: &str, max_line: usize) -> Vec<(String, String, usize)> {
    // Every form is followed by a clause after `, `; one automaton over the
    // lowercased message tells whether any form is there at all.
    if !text.contains(", ") || !WHEN_ABLE_FORMS.is_match(&super::lower::lower(text)) {
        return Vec::new();
    }
    let mut ignored = 0;
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (offset, sentence) in prose(text, max_line, &mut ignored) {
        let b = body(&sentence);
        let lower = super::lower::lower(b);
        if lower.trim_end().ends_with('?') {
            continue;
        }
        let Some((at, form)) = WHEN_ABLE
            .iter()
            .filter_map(|f| lower.find(f).map(|i| (i, *f)))
            .min()
        else {
            continue;
        };
        if lower[..at].split_whitespace().count() > 2 {
            continue;
        }
        let after = at + form.len();
        let Some(comma) = lower[after..].find(", ") else {
            continue;
        };
        let step = &b[after + comma + 2..];
        // The purpose ("… so I can see the errors") is no part of the step.
        let end = [", so ", " so that ", " so "]
            .iter()
            .filter_map(|e| super::lower::lower(step).find(e))
            .min()
            .unwrap_or(step.len());
        // An English form needs a step after it ("…, connect to the server"),
        // not a statement of what will be ("…, the report will be there").
        // The other languages' clauses are taken as they are: the step-verb
        // list is English.
        if form.is_ascii() && !super::steps::step_verb(step) {
            continue;
        }
        let t = tidy(&step[..end]);
        if t.split_whitespace().count() >= 3 && seen.insert(t.clone()) {
            out.push((t, "when you can".to_string(), offset));
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
        assert_eq!(
            texts(
                "The host is out of reach, so the easiest fix is to **restart the service from the \
                 Render dashboard** (Manual Deploy) — that reseeds the database."
            ),
            ["Restart the service from the Render dashboard (Manual Deploy)"]
        );
        assert_eq!(
            texts(
                "It runs now — click \"Open Settings\", find the app in the Accessibility list, toggle it on, and it'll start."
            ),
            ["Click \"Open Settings\", find the app in the Accessibility list, toggle it on"]
        );
    }

    #[test]
    fn steps_for_when_the_user_can() {
        let w =
            |t: &str| -> Vec<String> { when_able(t, 400).into_iter().map(|(t, _, _)| t).collect() };
        assert_eq!(
            w(
                "OK. When you're back at your computer, connect to the server and send me the output of `tail -50 bot.log`."
            ),
            ["Connect to the server and send me the output of `tail -50 bot.log`"]
        );
        assert_eq!(
            w("Tak až budeš u počítače, připoj se na server a pošli mi výstup z logu."),
            ["Připoj se na server a pošli mi výstup z logu"]
        );
        assert!(w("When you're back, want me to deploy it?").is_empty());
        assert!(w("The cache is cleared when you're back online, which is fine.").is_empty());
        assert!(w("I tested what happens when you are at the limit, and it holds.").is_empty());
        // A statement of what will be, after an English form, is no step.
        assert!(
            w("When you're back, the nightly report will already be in docs/report.md.").is_empty()
        );
        assert!(
            w("When you are at the limit, the API returns a 429 and the client backs off.")
                .is_empty()
        );
        assert!(w("Once you're back online, the queued uploads go out on their own.").is_empty());
    }

    #[test]
    fn thousands_of_steps_in_one_message_are_each_kept_once() {
        let mut msg = String::new();
        for k in 0..3000 {
            msg.push_str(&format!(
                "When you get a chance, restart the worker number {k} on the box. "
            ));
        }
        msg.push_str("When you get a chance, restart the worker number 7 on the box.");
        let found = when_able(&msg, 400);
        assert_eq!(found.len(), 3000);
        assert_eq!(found[7].0, "Restart the worker number 7 on the box");
    }

    #[test]
    fn not_steps() {
        // A description of a process, or a way the agent took itself.
        for t in [
            "The next step is to enable the webhook in the Stripe dashboard, which I am doing now.",
            "The workflow's last step is to redeploy the app from the Vercel dashboard automatically.",
            "After the migration the script's final step is to rotate the key in the AWS console without downtime.",
            "One option is to restart the service from the dashboard, but I already did that through the API.",
        ] {
            assert!(texts(t).is_empty(), "{t}");
        }
        assert!(texts("I'll grant the service account access in the console.").is_empty());
        assert!(texts("Next, we enable the flag in the dashboard.").is_empty());
        assert!(texts("Did you grant the permission?").is_empty());
        assert!(texts("If it fails, grant the permission in Settings.").is_empty());
        assert!(texts("The app asks to grant camera access.").is_empty());
        assert!(texts("Enable the `serde` feature in Cargo.toml.").is_empty());
        assert!(texts("The sign in page loads.").is_empty());
        // Steps of a test script, and a verb naming nothing.
        assert!(texts("How to test:\n1. Sign in with a magic link.\n2. Open the page.").is_empty());
        assert!(texts("Copy the account address, then fund it.").is_empty());
        assert!(texts("The restart happens in the dashboard.").is_empty());
        assert!(texts("```\nthen grant the permission in settings\n```").is_empty());
    }
}
