//! Sentence-level deferrals in many languages: a sentence that puts work off
//! to "next time", "later", "tomorrow", "the next session", "leave it for
//! later" or says it is "still to do".
//!
//! [`FORMS`] holds the forms per language (English, Korean, Japanese,
//! Chinese, French, German, Spanish, Czech, Polish, Portuguese, Italian,
//! Russian); the configured follow-up phrases (`extract.keywords`) are read
//! as markers elsewhere ([`super::markers`]), these are read anywhere in a
//! sentence. Each form is *strong* (it names the next session or a deferral:
//! "next time", "leave for later", "still to do") or *weak* (a bare "later",
//! "tomorrow"). In a user message any form counts; in an assistant message
//! only a strong one (an agent's "later" is narration as often as not). An
//! English sentence counts only as a request or a plan: it opens with a step
//! verb, or holds `let's`, `please`, `can you`, `I'll`, `we'll`, `we can`,
//! `we should` — "Next time you run it, it is faster" is no deferral.
//! Questions count except in English ("Můžeš mi příště poslat konec logu?"
//! asks for it next time). Latin-script forms match on word boundaries, CJK
//! forms anywhere. A user message of more than twelve non-blank lines is a
//! paste (a plan, a spec, a log) and gives none. The candidate is the
//! clause holding the form (the sentence cut after it at `, `, `; `, ` — `
//! and their CJK forms, before it only at `; ` and ` — `), or the sentence when that
//! clause is a single word; an English one without its trailing time
//! qualifier, and of three words or more ("let's do that later" gives none).

use super::markers::tidy;
use super::steps::step_verb;

/// `(language, form, strong)`.
#[rustfmt::skip]
pub(crate) const FORMS: &[(&str, &str, bool)] = &[
    ("en", "in the next session", true), ("en", "for later", true), ("en", "next time", false),
    ("en", "leave it for later", true), ("en", "still to do", true), ("en", "later", false),
    ("en", "tomorrow", false),
    ("ko", "다음 번에", true), ("ko", "다음 세션에서", true), ("ko", "다음에", false),
    ("ko", "나중에", false), ("ko", "내일", false),
    ("ja", "次回", true), ("ja", "次のセッションで", true), ("ja", "後回し", true),
    ("ja", "後で", false), ("ja", "あとで", false), ("ja", "明日", false),
    ("zh", "下次", true), ("zh", "下一次", true), ("zh", "留到以后", true), ("zh", "以后再", true),
    ("zh", "稍后", false), ("zh", "之后再", false), ("zh", "明天", false),
    ("fr", "la prochaine fois", true), ("fr", "à la prochaine session", true),
    ("fr", "lors de la prochaine session", true), ("fr", "pour plus tard", true),
    ("fr", "remettre à plus tard", true), ("fr", "plus tard", false), ("fr", "demain", false),
    ("de", "nächstes mal", true), ("de", "beim nächsten mal", true),
    ("de", "in der nächsten sitzung", true), ("de", "für später", true),
    ("de", "auf später", true), ("de", "später", false), ("de", "morgen", false),
    ("es", "la próxima vez", true), ("es", "en la próxima sesión", true),
    ("es", "para después", true), ("es", "para más tarde", true), ("es", "más tarde", false),
    ("es", "mañana", false),
    ("cs", "příště", true), ("cs", "příští relaci", true), ("cs", "příštím sezení", true),
    ("cs", "na později", true), ("cs", "ještě zbývá", true), ("cs", "později", false),
    ("cs", "zítra", false),
    ("pl", "następnym razem", true), ("pl", "w następnej sesji", true), ("pl", "na później", true),
    ("pl", "zostało do zrobienia", true), ("pl", "później", false), ("pl", "jutro", false),
    ("pt", "da próxima vez", true), ("pt", "na próxima vez", true),
    ("pt", "na próxima sessão", true), ("pt", "para depois", true), ("pt", "ainda falta", true),
    ("pt", "mais tarde", false), ("pt", "amanhã", false),
    ("it", "la prossima volta", true), ("it", "nella prossima sessione", true),
    ("it", "per dopo", true), ("it", "ancora da fare", true), ("it", "più tardi", false),
    ("it", "domani", false),
    ("ru", "в следующий раз", true), ("ru", "в следующей сессии", true), ("ru", "на потом", true),
    ("ru", "осталось сделать", true), ("ru", "позже", false), ("ru", "завтра", false),
];

/// A user message of more lines than this (not counting blank ones) is a
/// paste, not read for deferrals.
const MAX_USER_LINES: usize = 12;

/// Phrases where a weak form names a time of day, not a deferral.
const NOT_DEFERRAL: &[&str] = &[
    "guten morgen",
    "esta mañana",
    "por la mañana",
    "de la mañana",
    "this morning",
];

/// English words that make a sentence a request or a plan.
const PLANS: &[&str] = &[
    "let's",
    "lets",
    "please",
    "can you",
    "could you",
    "i'll",
    "we'll",
    "we can",
    "we could",
    "we should",
    "i will",
    "we will",
    "i'd like",
    "you can",
];

/// One automaton over every form of [`FORMS`] (they are lowercase).
static AUTOMATON: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| {
    aho_corasick::AhoCorasick::new(FORMS.iter().map(|(_, f, _)| f))
        .expect("the deferral forms build an automaton")
});

/// Whether a form is written in a script with word boundaries (Latin,
/// Cyrillic); CJK and Hangul forms match anywhere.
fn worded(form: &str) -> bool {
    form.chars().any(|c| {
        c.is_ascii_alphabetic() || matches!(c, '\u{00C0}'..='\u{024F}' | '\u{0400}'..='\u{04FF}')
    })
}

/// The first form of [`FORMS`] (in table order) found in `lower` that the
/// writer may use (`user`, or a strong form), on word boundaries where the
/// script has them.
fn first_form(lower: &str, user: bool) -> Option<usize> {
    AUTOMATON
        .find_overlapping_iter(lower)
        .filter(|m| {
            let (_, form, strong) = FORMS[m.pattern().as_usize()];
            let before = lower[..m.start()].chars().next_back();
            let after = lower[m.end()..].chars().next();
            (user || strong)
                && (!worded(form)
                    || !before.is_some_and(char::is_alphanumeric)
                        && !after.is_some_and(char::is_alphanumeric))
        })
        .map(|m| m.pattern().as_usize())
        .min()
}

/// Whether a task's text puts it off ("Eventually reconnect to a 2.4 GHz
/// network", "Add caching later", "Later: add caching"): a form of
/// [`FORMS`], strong or weak, or an English word for some later time, that
/// governs the task: at its start or at its end (trailing punctuation aside).
/// A time word inside it describes the work ("Fix the read that eventually
/// times out", "Reject dates in the future in the form"): it is no deferral.
pub(crate) fn puts_off(text: &str) -> bool {
    let lower = super::lower::lower(text);
    let t = lower
        .trim()
        .trim_start_matches(['*', '_', '-', ' '])
        .trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, '.' | '!' | '*' | '_' | ')' | '。')
        });
    let governs = |start: usize, end: usize| start == 0 || end == t.len();
    let form = AUTOMATON.find_overlapping_iter(t).any(|m| {
        let (_, form, _) = FORMS[m.pattern().as_usize()];
        let before = t[..m.start()].chars().next_back();
        let after = t[m.end()..].chars().next();
        let bounded = !worded(form)
            || !before.is_some_and(char::is_alphanumeric)
                && !after.is_some_and(char::is_alphanumeric);
        bounded && governs(m.start(), m.end())
    });
    form || [
        "eventually",
        "in the future",
        "someday",
        "long-term",
        "long term",
        "at some point",
    ]
    .iter()
    .any(|p| {
        t.match_indices(p).any(|(i, _)| {
            let before = t[..i].chars().next_back();
            let after = t[i + p.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric)
                && !after.is_some_and(char::is_alphanumeric)
                && governs(i, i + p.len())
        })
    })
}

/// Whether the English `phrase` stands in `lower` on word boundaries.
fn holds(lower: &str, phrase: &str) -> bool {
    lower.match_indices(phrase).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The language and form a sentence defers with, if it does (see the
/// module docs); `user` says who wrote it.
pub(crate) fn deferral(sentence: &str, user: bool) -> Option<(&'static str, &'static str)> {
    let lower = sentence.to_lowercase();
    let (lang, form, _) = FORMS[first_form(&lower, user)?];
    if NOT_DEFERRAL.iter().any(|n| lower.contains(n)) {
        return None;
    }
    if lang == "en" {
        let t = lower.trim_start_matches(['*', '_', ' ', '>']);
        let plan = step_verb(t) || PLANS.iter().any(|p| holds(&lower, p));
        if !plan || lower.trim_end().ends_with('?') && !lower.starts_with("can you") {
            return None;
        }
    }
    Some((lang, form))
}

/// An English sentence without a leading "ok", "sure", "yes", … .
fn without_interjection(s: &str) -> &str {
    let t = s.trim_start();
    let word = t.split([' ', ',', '!']).next().unwrap_or("");
    let skip = [
        "ok", "okay", "sure", "yes", "yeah", "alright", "cool", "great", "thanks",
    ]
    .iter()
    .any(|w| word.eq_ignore_ascii_case(w));
    if skip {
        t[word.len()..].trim_start_matches([',', '!', ' '])
    } else {
        t
    }
}

/// The clause of `sentence` that holds `form` (see the module docs).
fn clause<'a>(sentence: &'a str, form: &str) -> &'a str {
    let lower = super::lower::lower(sentence);
    let Some(at) = lower.find(form) else {
        return sentence;
    };
    let seps = [", ", "; ", " — ", "，", "；", "、"];
    // A comma before the form often sets off its topic ("Les tests de charge,
    // on les fera la prochaine fois"): the clause starts only after a stronger
    // break.
    let start = ["; ", " — ", "；"]
        .iter()
        .filter_map(|s| lower[..at].rfind(s).map(|i| i + s.len()))
        .max()
        .unwrap_or(0);
    let end = seps
        .iter()
        .filter_map(|s| lower[at..].find(s).map(|i| at + i))
        .min()
        .unwrap_or(sentence.len());
    let c = sentence[start..end].trim();
    if c.split_whitespace().count() >= 2 || !c.is_ascii() && c.chars().count() >= 4 {
        c
    } else {
        sentence
    }
}

/// Deferral candidates of one message: `(text, keyword, 0-based line)`.
pub(crate) fn sentences(text: &str, user: bool, max_line: usize) -> Vec<(String, String, usize)> {
    // A long user message is a paste (a plan, a spec, a log), not a request.
    let pasted = user && text.lines().filter(|l| !l.trim().is_empty()).count() > MAX_USER_LINES;
    if pasted || first_form(&text.to_lowercase(), user).is_none() {
        return Vec::new();
    }
    let mut ignored = 0;
    let mut out = Vec::new();
    for (offset, sentence) in super::handoff::prose(text, max_line, &mut ignored) {
        // A lead-in ("다음 세션에서 할 일:") introduces items read elsewhere.
        if sentence
            .trim_end_matches(['*', '_', ' '])
            .ends_with([':', '：'])
        {
            continue;
        }
        let Some((lang, form)) = deferral(&sentence, user) else {
            continue;
        };
        let b = clause(super::handoff::body(&sentence), form);
        let t = if lang == "en" {
            tidy(without_interjection(b))
        } else {
            b.trim()
                .trim_end_matches(['.', '。', '!', '！'])
                .to_string()
        };
        // An English step needs an object beyond a pointer ("Do that").
        let min_words = if lang == "en" { 3 } else { 2 };
        let cjk = !t.contains(' ') && !t.is_ascii();
        if t.chars().count() >= 6 && (t.split_whitespace().count() >= min_words || cjk) {
            out.push((t, format!("{form} ({lang})"), offset));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(s: &str) -> Option<&'static str> {
        deferral(s, true).map(|(l, _)| l)
    }

    #[test]
    fn one_sentence_per_language() {
        let cases = [
            ("en", "Please send me the tail of the log next time."),
            ("ko", "로그 끝부분은 다음 번에 보내 주세요."),
            ("ja", "ログの末尾は次回送ってください。"),
            ("zh", "日志的结尾下次再发给我。"),
            ("fr", "Envoie-moi la fin du log la prochaine fois."),
            ("de", "Schick mir das Ende des Logs beim nächsten Mal."),
            ("es", "Mándame el final del log la próxima vez."),
            ("cs", "Konec logu mi pošli příště."),
            ("pl", "Koniec logu wyślij mi następnym razem."),
            ("pt", "Manda o final do log da próxima vez."),
            ("it", "Mandami la fine del log la prossima volta."),
            ("ru", "Пришли мне конец лога в следующий раз."),
        ];
        for (lang, s) in cases {
            assert_eq!(user(s), Some(lang), "{s}");
            // Every form but the English "next time" is strong.
            let agent = deferral(s, false).map(|(l, _)| l);
            assert_eq!(agent, (lang != "en").then_some(lang), "{s}");
        }
        assert_eq!(
            deferral("We can leave the retry policy for later.", false).map(|(l, _)| l),
            Some("en")
        );
    }

    #[test]
    fn tasks_put_off() {
        assert!(puts_off("Eventually reconnect to a 2.4GHz WiFi network"));
        assert!(puts_off("Später die Diagnose-Regel ergänzen"));
        assert!(puts_off("以后再优化缓存"));
        assert!(!puts_off("Verify the overlay appears after the fix"));
        assert!(!puts_off("Translate the collateral"));
        assert!(puts_off("Add caching later."));
        assert!(puts_off("Later: add caching"));
        assert!(puts_off("Move the sessions to Redis at some point"));
        // A time word inside the task describes the work, it puts nothing off.
        assert!(!puts_off(
            "Fix the sensor read that eventually times out after an hour of uptime"
        ));
        assert!(!puts_off(
            "Reject schedule dates in the future in the settings form"
        ));
        assert!(!puts_off(
            "Retry the sensor read two seconds later when it fails"
        ));
        assert!(!puts_off(
            "Plan the long-term storage of readings in SQLite"
        ));
    }

    #[test]
    fn weak_forms_only_from_the_user() {
        assert_eq!(user("Konec logu mi pošli později."), Some("cs"));
        assert_eq!(deferral("Konec logu pošlu později.", false), None);
        assert_eq!(user("Das mache ich morgen."), Some("de"));
        assert_eq!(user("Guten Morgen, weiter geht's."), None);
        assert_eq!(user("We can add caching later."), Some("en"));
        assert_eq!(deferral("We can add caching later.", false), None);
    }

    #[test]
    fn english_needs_a_request_or_a_plan() {
        assert_eq!(user("Next time you run it, it is faster."), None);
        assert_eq!(user("I tried it later and it failed."), None);
        assert_eq!(user("Is it faster next time?"), None);
        assert_eq!(user("the later call"), None);
        let got = sentences("ok. Let's add the retry policy next time.", true, 400);
        assert_eq!(got[0].0, "Add the retry policy next time");
        assert_eq!(got[0].1, "next time (en)");
        assert!(sentences("ok let's do that later", true, 400).is_empty());
        assert!(sentences("다음 세션에서 할 일:", true, 400).is_empty());
        let paste = format!(
            "Implement the plan:\n{}We can add auth later.",
            "- step\n".repeat(12)
        );
        assert!(sentences(&paste, true, 400).is_empty());
        let got = sentences(
            "Konec logu ti pošlu příště, teď nemám přístup k serveru.",
            true,
            400,
        );
        assert_eq!(got[0].0, "Konec logu ti pošlu příště");
        assert_eq!(got[0].1, "příště (cs)");
        let got = sentences(
            "Les tests de charge, on les fera la prochaine fois.",
            true,
            400,
        );
        assert_eq!(
            got[0].0,
            "Les tests de charge, on les fera la prochaine fois"
        );
        let got = sentences("日志的结尾下次再发给我，现在没有权限。", true, 400);
        assert_eq!(got[0].0, "日志的结尾下次再发给我");
    }
}
