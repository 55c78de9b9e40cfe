//! Tests of `headings`.

use super::*;

fn known() -> Vec<String> {
    vec!["cli".into(), "kb-site".into(), "wrap-cli".into()]
}

#[test]
fn heading_normalization() {
    assert_eq!(normalize_heading("  Next   Session: "), "next session");
    assert_eq!(normalize_heading("Follow-ups::"), "follow-ups");
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
    assert!(is_session_heading("session afternoon"));
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

/// The definition the word lookup must equal: every project searched
/// for in the heading as a whole word.
fn session_project_reference(heading: &str, known: &[String]) -> SessionProject {
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
    let bytes = lower.as_bytes();
    let slug_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    let whole = |word: &str| {
        let starts =
            (0..lower.len()).filter(|&i| lower.is_char_boundary(i) && lower[i..].starts_with(word));
        starts.into_iter().any(|start| {
            let end = start + word.len();
            let before = start == 0 || !slug_byte(bytes[start - 1]);
            let after = match bytes.get(end) {
                None => true,
                Some(b'.') => bytes.get(end + 1).is_none_or(|&b| !slug_byte(b)),
                Some(&b) => !slug_byte(b),
            };
            before && after
        })
    };
    let hits: Vec<&String> = known.iter().filter(|p| whole(p)).collect();
    match hits.as_slice() {
        [] => SessionProject::NoProject,
        [p] => SessionProject::Project((*p).clone()),
        _ => SessionProject::Ambiguous,
    }
}

const WORDS: &[&str] = &[
    "session", ":", " ", ".", "..", "-", "_", "(", ")", "cli", "wrap-cli", "wrap", "kb", "kb-site",
    "a.b", "a", "x1", "Cli", "WRAP-CLI", "é", "/", ",",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
    #[test]
    fn word_lookup_equals_the_search_over_every_project(
        idx in proptest::collection::vec(0..WORDS.len(), 0..14),
        known in proptest::collection::vec("[a-c][a-c.\\-]{0,3}|cli|wrap-cli|kb-site|a\\.b|wrap|Cli|x y", 0..8),
    ) {
        let heading: String = idx.iter().map(|&i| WORDS[i]).collect();
        proptest::prop_assert_eq!(
            session_project(&heading, &known),
            session_project_reference(&heading, &known),
            "{:?} {:?}", heading, known
        );
    }
}

/// The definition the one-pass normalization must equal.
fn normalize_reference(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let keep = |c: char| c.is_alphanumeric() || c.is_whitespace() || "'-()—–:/&.,!?".contains(c);
    let fold = |c: char| {
        let c = if c == '\u{2019}' { '\'' } else { c };
        if keep(c) { c } else { ' ' }
    };
    let folded: String = text.nfkc().flat_map(char::to_lowercase).map(fold).collect();
    let mut s = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let before = s.len();
        for sep in [" — ", " – ", " - ", ":"] {
            if let Some(pos) = s.find(sep)
                && pos > 0
            {
                s.truncate(pos);
            }
        }
        let t = s.trim_end_matches(|c: char| c.is_whitespace() || ".,!?;—–-".contains(c));
        s.truncate(t.len());
        if s.ends_with(')')
            && let Some(open) = s.rfind('(')
            && open > 0
        {
            s.truncate(open);
        }
        let t = s.trim_end();
        s.truncate(t.len());
        if s.len() == before {
            break;
        }
    }
    s
}

proptest::proptest! {
    #[test]
    fn one_pass_normalization_equals_the_definition(
        h in "[ a-zA-Z0-9\t\u{b}\u{a0}'’()—–:/&.,!?;#*_\\-]{0,24}|[ 다음세션ＮＥＸＴ①ﬁ🚀\u{3000}a-z:-]{0,12}"
    ) {
        proptest::prop_assert_eq!(normalize_heading(&h), normalize_reference(&h), "{:?}", h);
    }
}

proptest::proptest! {
    #[test]
    fn phrase_search_equals_match_indices(
        h in "[a-c 다음-]{0,16}",
        phrase in "[a-c 다음-]{1,4}",
    ) {
        let want = h.match_indices(phrase.as_str()).any(|(at, _)| at_boundary(&h, at, &phrase));
        proptest::prop_assert_eq!(contains_phrase(&h, &phrase), want);
    }
}

/// `role_at` by its definition: every phrase tried, longest first.
fn role_reference(m: &HeadingMatcher, level: u8, heading: &str) -> Option<Role> {
    let h = normalize_heading(heading);
    if h.is_empty() {
        return None;
    }
    if let Some((_, role)) = m.phrases.iter().find(|(p, _)| starts_with_phrase(&h, p)) {
        return Some(*role);
    }
    (level > 1 && m.anywhere.iter().any(|p| contains_phrase(&h, p))).then_some(Role::Next)
}

const HEADING_WORDS: &[&str] = &[
    "next",
    "steps",
    "done",
    "todo",
    "todos",
    "follow-ups",
    "session",
    "skipped",
    "goals",
    "today",
    "다음",
    "세션",
    "할 일",
    "Next",
    "DONE",
    " ",
    "-",
    ":",
    "(",
    ")",
    "x",
    "n",
    "완료",
    "🚀",
    "Ｎext",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
    #[test]
    fn first_byte_lists_equal_the_search_over_every_phrase(
        idx in proptest::collection::vec(0..HEADING_WORDS.len(), 0..8),
        level in 1u8..4,
        extra in proptest::collection::vec("[a-z다 ]{1,8}", 0..4),
    ) {
        let heading: String = idx.iter().map(|&i| HEADING_WORDS[i]).collect::<Vec<_>>().join(" ");
        let defaults = HeadingMatcher::from_config(&crate::config::Config::default());
        let mut next = vec!["next steps".to_string(), "n".to_string()];
        next.extend(extra);
        let custom = HeadingMatcher::new(&next, &["done".into()], &[], &["goals".into()]);
        for m in [&defaults, &custom, &HeadingMatcher::default()] {
            proptest::prop_assert_eq!(
                m.role_at(level, &heading),
                role_reference(m, level, &heading),
                "{:?}", heading
            );
            // Asked again at every level: each level gets the answer
            // the search gives.
            for again in 1u8..4 {
                proptest::prop_assert_eq!(
                    m.role_at(again, &heading),
                    role_reference(m, again, &heading),
                    "{:?} at level {} after {}", heading, again, level
                );
            }
        }
    }
}

#[test]
fn ascii_fold_table_agrees_with_kept_on_every_ascii_character() {
    for b in 0u8..128 {
        let c = char::from(b).to_ascii_lowercase();
        let want = if kept(c) && !c.is_whitespace() {
            c
        } else {
            ' '
        };
        assert_eq!(char::from(ASCII_FOLD[usize::from(b)]), want, "{b:#x}");
    }
}
