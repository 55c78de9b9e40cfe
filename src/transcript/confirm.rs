//! Steps the user confirms in their own words: a later user clause (a
//! sentence cut at `, `, `; `, `but`, `so`, `then`) in the first person, not
//! negated and not a question, that reports the step:
//! - in the past or perfect tense or with "now" ("I put the key in", "i have
//!   added my wallet"), naming at least half of the step's direct object (its
//!   words after the verb up to the first preposition; a task of one step
//!   only) or of all its objects
//!   (its words of three letters or more after the verb, filler words left
//!   out);
//! - with "I have <object>" for a step that obtains something ("Get test USDC
//!   from the faucet" settled by "i have 5k usdc"), naming its object the
//!   same way;
//! - or, for a single step turned to the user ("Add **your** private key to
//!   `.env`", or a step only the user takes: "Sign in with the demo account",
//!   "Grant the permission"), repeating the step's own verb in the past
//!   ("added", "signed").

/// Filler words that name no object.
#[rustfmt::skip]
const FILLER: &[&str] = &[
    "the", "your", "you", "and", "for", "with", "from", "into", "onto", "this", "that", "then",
    "its", "their", "our", "all", "any", "some", "one", "new", "via", "using", "use", "first",
    "before", "after", "now", "here", "there", "them", "it's", "make", "sure", "need",
];

/// Irregular past forms a user reports with.
#[rustfmt::skip]
const PAST: &[&str] = &[
    "put", "got", "set", "made", "built", "sent", "ran", "did", "paid", "bought", "gave", "took",
    "wrote", "found", "done", "signed", "funded", "granted", "enabled", "added", "created",
];

/// Verbs of steps that obtain something: "I have <it>" reports them.
const OBTAIN: &[&str] = &[
    "get", "fund", "add", "set", "create", "obtain", "request", "buy", "top", "airdrop", "claim",
    "mint", "generate", "install",
];

/// Verbs of steps only the user takes (signing in, granting a permission):
/// such a step is turned to the user even without "your".
const USER_SIDE: &[&str] = &[
    "grant",
    "enable",
    "allow",
    "approve",
    "sign",
    "log",
    "login",
    "fund",
    "top",
    "airdrop",
    "register",
    "authorize",
];

/// Words that end a step's direct object.
const PREPOSITIONS: &[&str] = &[
    "to", "from", "for", "in", "into", "on", "at", "with", "as", "by", "via", "under", "so",
    "before", "after", "until", "since", "because", "when", "if", "then", "and",
];

/// Words that negate a report.
const NEGATIONS: &[&str] = &[
    "not", "no", "never", "didn't", "haven't", "hasn't", "can't", "couldn't", "don't", "won't",
    "cannot", "isn't", "wasn't", "yet",
];

/// What a user report must name to settle a step.
#[derive(Debug, Default)]
pub(crate) struct Step {
    objects: Vec<String>,
    /// The objects up to the first preposition.
    direct: Vec<String>,
    /// "I have <object>" reports it.
    obtains: bool,
    /// A task of one step ([`super::summary::parts`]).
    single: bool,
    /// The step's verb when it is one step turned to the user.
    own_verb: Option<String>,
}

fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The objects and (for a one-step task turned to the user) the verb of a step.
pub(crate) fn step(text: &str, verb: Option<&str>, parts: usize) -> Step {
    let all = words(text);
    let skip = usize::from(verb.is_some());
    let object = |w: &String| w.chars().count() >= 3 && !FILLER.contains(&w.as_str());
    let mut objects: Vec<String> = Vec::new();
    for w in all.iter().skip(skip).filter(|w| object(w)) {
        if !objects.contains(w) {
            objects.push(w.clone());
        }
    }
    let direct = all
        .iter()
        .skip(skip)
        .take_while(|w| !PREPOSITIONS.contains(&w.as_str()))
        .filter(|w| object(w))
        .cloned()
        .collect();
    let turned = all.iter().any(|w| w == "your" || w == "you")
        || verb.is_some_and(|v| USER_SIDE.contains(&v));
    Step {
        objects,
        direct,
        obtains: verb.is_some_and(|v| OBTAIN.contains(&v)),
        single: parts <= 1,
        own_verb: verb.filter(|_| turned && parts == 1).map(str::to_string),
    }
}

/// Whether two words are one word (or its plural).
fn same_word(a: &str, b: &str) -> bool {
    let (s, l) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    s == l || l.strip_prefix(s).is_some_and(|t| t == "s" || t == "es")
}

/// The clauses of a sentence: "I put the key in, go ahead and deploy it"
/// reports in its first clause and asks in its second.
fn clauses(sentence: &str) -> Vec<&str> {
    static SEPARATORS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 5]> =
        std::sync::LazyLock::new(|| {
            [", ", "; ", " but ", " so ", " then "].map(memchr::memmem::Finder::new)
        });
    let mut out = vec![sentence];
    for sep in SEPARATORS.iter() {
        // Every clause is a part of the sentence: one without the separator
        // has none to split.
        if sep.find(sentence.as_bytes()).is_none() {
            continue;
        }
        let needle = std::str::from_utf8(sep.needle()).unwrap_or_default();
        out = out.into_iter().flat_map(|c| c.split(needle)).collect();
    }
    out
}

/// How a first-person sentence reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Report {
    /// Past or perfect tense, or "now".
    Done,
    /// "I have <something>".
    Has,
}

/// Whether a sentence reports, in the first person, something the user did
/// or has: its words and how it reports, when it does.
/// Whether a word (between white space) is a first-person subject.
fn subject(x: &str) -> bool {
    let x = x.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
    ["i", "i've", "ive", "we", "we've"]
        .iter()
        .any(|s| x.eq_ignore_ascii_case(s))
}

fn first_person_report(sentence: &str) -> Option<(Vec<String>, Report)> {
    let t = sentence.trim();
    if t.ends_with('?') || !t.split_whitespace().take(4).any(subject) {
        return None;
    }
    let w = words(t);
    if w.iter().any(|x| NEGATIONS.contains(&x.as_str())) {
        return None;
    }
    // The subject within the first four words ("ok i have", "awesome, i put").
    let at = w
        .iter()
        .take(4)
        .position(|x| ["i", "i've", "ive", "we", "we've"].contains(&x.as_str()))?;
    let rest: Vec<&str> = w[at + 1..]
        .iter()
        .map(String::as_str)
        .skip_while(|x| ["just", "already", "also", "now", "successfully", "finally"].contains(x))
        .collect();
    let have = w[at].ends_with("ve") || rest.first().is_some_and(|x| ["have", "had"].contains(x));
    let past_word = |x: &&str| (x.len() > 4 && x.ends_with("ed")) || PAST.contains(x);
    let past = rest.first().is_some_and(past_word);
    let perfect = have && rest.get(1).is_some_and(past_word);
    if past || perfect || w.iter().any(|x| x == "now") {
        Some((w, Report::Done))
    } else {
        have.then_some((w, Report::Has))
    }
}

/// Whether at least half of `objects` (one at least) are among `words`.
fn names_half(objects: &[String], words: &[String]) -> bool {
    let named = objects
        .iter()
        .filter(|o| words.iter().any(|x| same_word(x, o)))
        .count();
    named > 0 && named * 2 >= objects.len()
}

/// The first-person reports of a user message (see the module docs), read
/// once per message; sentences longer than `max_line` are skipped.
pub(crate) fn reports(text: &str, max_line: usize) -> Vec<(Vec<String>, Report)> {
    // Sentences and clauses split at white space, so a report's subject is a
    // word of the whole text: without one there is nothing to read.
    if !text.split_whitespace().any(subject) {
        return Vec::new();
    }
    text.lines()
        .flat_map(super::sentences::sentences)
        .filter(|s| s.chars().count() <= max_line)
        .flat_map(clauses)
        .filter_map(first_person_report)
        .collect()
}

/// Whether one of a user message's `reports` confirms `step`.
pub(crate) fn confirms(step: &Step, reports: &[(Vec<String>, Report)]) -> bool {
    if step.objects.is_empty() && step.own_verb.is_none() {
        return false;
    }
    reports.iter().any(|(w, report)| {
        if *report == Report::Has && !step.obtains {
            return false;
        }
        // The direct object names only a one-step task.
        let direct = step.single && names_half(&step.direct, w);
        let named = direct || names_half(&step.objects, w);
        let verb = step.own_verb.as_deref().is_some_and(|v| {
            let stem = v.trim_end_matches('e');
            w.iter()
                .any(|x| x.len() > v.len() && x.starts_with(stem) && x.ends_with("ed"))
                || PAST.iter().any(|p| *p == v && w.iter().any(|x| x == p))
        });
        named || verb
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settles(item: &str, verb: Option<&str>, line: &str) -> bool {
        confirms(&step(item, verb, 1), &reports(line, 400))
    }

    #[test]
    fn first_person_reports_settle_steps() {
        let key = "Add your private key to .env";
        assert!(settles(key, Some("add"), "i have added my wallet"));
        assert!(settles(key, Some("add"), "ok, I put the private key in"));
        let paste = "Paste the deployed address into `frontend/src/lib/contract.ts`";
        assert!(!settles(
            paste,
            Some("paste"),
            "I put the key in, go ahead and deploy it"
        ));
        assert!(!settles(key, Some("add"), "I haven't added the key yet"));
        assert!(!settles(key, Some("add"), "Did you add the key?"));
        assert!(!settles(key, Some("add"), "The key is in .env"));
        let faucet = "Get test USDC from the faucet for the demo payments";
        assert!(settles(faucet, Some("get"), "i have 5k USDC"));
        assert!(!settles(faucet, Some("get"), "how do I get USDC"));
        // "I have <it>" reports only a step that obtains something.
        let fix = "Fix the flaky login test";
        assert!(!settles(fix, Some("fix"), "I have a flaky login test too"));
        assert!(settles(fix, Some("fix"), "I fixed the flaky login test"));
        // The verb alone settles only a step turned to the user.
        assert!(!settles(
            "Add tests for the parser",
            Some("add"),
            "I added a button"
        ));
        assert!(settles(
            "Add tests for the parser",
            Some("add"),
            "I've added parser tests"
        ));
        let two = step(
            "Build the program and copy its IDL to app/",
            Some("build"),
            2,
        );
        assert!(!confirms(&two, &reports("i built the escrow program", 400)));
    }
}
