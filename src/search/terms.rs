//! The terms `search` indexes and looks for (docs/FORMAT.md §7.1):
//!
//! - **words**: the words of the text's matching key (`normalize::key`:
//!   lower case, NFC, boilerplate removed, English inflections and Korean
//!   request endings folded), split at every character that is not a letter
//!   or digit;
//! - **CJK runs** (Han, kana, Hangul) inside a word as overlapping character
//!   bigrams (a lone character as itself), so a Japanese or Korean query
//!   matches without a word segmenter and a Korean word with a particle
//!   attached (`내보내기를`) still shares the bigrams of its stem;
//! - **identifiers** (`#12`, `gen_vault.rs`, `src/cli.rs`, `parseConfig`,
//!   `fw-007`, `v1.2`), read from the displayed text (the key drops `_` and
//!   backticks), as exact terms of their own, plus their parts as words.
//!
//! The `[private]` placeholder of a redacted span is never a term: the key
//! drops it, and it is removed before identifiers are read.

/// The two kinds of term: a word and an exact identifier never match each
/// other, even when spelled the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    Word,
    Ident,
}

/// The placeholder a private span leaves in redacted text (docs/FORMAT.md §4).
const PLACEHOLDER: &str = "[private]";

/// Identifiers longer than this are not identifiers (a pasted blob).
const MAX_IDENT: usize = 128;

/// Calls `f` with every term of a text whose matching key is `key`.
pub(crate) fn terms(text: &str, key: &str, f: &mut impl FnMut(Class, &str)) {
    for seg in key.split(|c: char| !c.is_alphanumeric()) {
        segment(seg, false, f);
    }
    if text.contains(PLACEHOLDER) {
        idents(&text.replace(PLACEHOLDER, " "), f);
    } else {
        idents(text, f);
    }
}

/// Han ideographs, kana and Hangul: scripts written without spaces between
/// words (or, for Korean, with particles attached), read as bigrams.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF      // Hangul Jamo
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3130..=0x318F    // Hangul compatibility Jamo
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xA960..=0xA97F    // Hangul Jamo extended A
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xD7B0..=0xD7FF    // Hangul Jamo extended B
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width katakana
        | 0x20000..=0x3134F) // CJK extensions B-H
}

/// One run of letters and digits: its CJK stretches as bigrams, the rest
/// as words (stemmed when `stem`).
fn segment(seg: &str, stem: bool, f: &mut impl FnMut(Class, &str)) {
    if seg.is_empty() {
        return;
    }
    let mut start = 0;
    let mut cjk = None;
    for (at, c) in seg.char_indices() {
        let this = is_cjk(c);
        match cjk {
            Some(was) if was != this => {
                run(&seg[start..at], was, stem, f);
                start = at;
            }
            _ => {}
        }
        cjk = Some(this);
    }
    run(&seg[start..], cjk.unwrap_or(false), stem, f);
}

fn run(run: &str, cjk: bool, stem: bool, f: &mut impl FnMut(Class, &str)) {
    if !cjk {
        if stem {
            f(Class::Word, &crate::normalize::stem(run));
        } else {
            f(Class::Word, run);
        }
        return;
    }
    let bounds: Vec<usize> = run
        .char_indices()
        .map(|(i, _)| i)
        .chain([run.len()])
        .collect();
    if bounds.len() <= 2 {
        f(Class::Word, run);
        return;
    }
    for w in bounds.windows(3) {
        f(Class::Word, &run[w[0]..w[2]]);
    }
}

/// Characters around a word that are not part of an identifier.
fn wrapping(c: char) -> bool {
    matches!(
        c,
        '`' | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '"'
            | '\''
            | ','
            | ';'
            | ':'
            | '!'
            | '?'
            | '*'
            | '<'
            | '>'
            | '“'
            | '”'
            | '‘'
            | '’'
            | '「'
            | '」'
            | '、'
            | '。'
    )
}

fn idents(text: &str, f: &mut impl FnMut(Class, &str)) {
    for raw in text.split_whitespace() {
        let tok = raw.trim_matches(wrapping).trim_end_matches(['.', ':']);
        let tok = tok.trim_matches(wrapping);
        if !is_ident(tok) {
            continue;
        }
        f(Class::Ident, &tok.to_lowercase());
        for part in parts(tok) {
            segment(&part.to_lowercase(), true, f);
        }
    }
}

/// Whether a word (wrapping punctuation trimmed) reads as an identifier:
/// `#` and a name or number, inner `_` `.` `/` `::`, camelCase, or letters
/// mixed with digits.
pub(crate) fn is_ident(t: &str) -> bool {
    if t.len() < 2 || t.len() > MAX_IDENT {
        return false;
    }
    if let Some(rest) = t.strip_prefix('#') {
        return !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    }
    // Most words are plain lower-case words: no identifier.
    if t.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    let (mut letters, mut digits, mut inner, mut camel) = (false, false, false, false);
    let (mut before, mut prev): (Option<char>, Option<char>) = (None, None);
    for c in t.chars() {
        if c.is_ascii_digit() {
            digits = true;
        } else if c.is_alphabetic() && !is_cjk(c) {
            letters = true;
        }
        if let (Some(b), Some(p)) = (before, prev) {
            inner |=
                b.is_alphanumeric() && matches!(p, '_' | '.' | '/' | ':') && c.is_alphanumeric();
        }
        camel |= prev.is_some_and(char::is_lowercase) && c.is_uppercase();
        before = prev;
        prev = Some(c);
    }
    inner || camel || (letters && digits)
}

/// The parts of an identifier: split at every character that is not a
/// letter or digit and at camelCase humps (`parseConfig` → parse, Config).
fn parts(t: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for piece in t.split(|c: char| !c.is_alphanumeric()) {
        let mut start = 0;
        let mut prev: Option<char> = None;
        for (at, c) in piece.char_indices() {
            if prev.is_some_and(|p| p.is_lowercase()) && c.is_uppercase() {
                out.push(&piece[start..at]);
                start = at;
            }
            prev = Some(c);
        }
        if start < piece.len() {
            out.push(&piece[start..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<(Class, String)> {
        let key = crate::normalize::key(text);
        let mut out = Vec::new();
        terms(text, &key, &mut |c, t| out.push((c, t.to_string())));
        out
    }

    fn idents_of(text: &str) -> Vec<String> {
        all(text)
            .into_iter()
            .filter(|(c, _)| *c == Class::Ident)
            .map(|(_, t)| t)
            .collect()
    }

    fn words_of(text: &str) -> Vec<String> {
        all(text)
            .into_iter()
            .filter(|(c, _)| *c == Class::Word)
            .map(|(_, t)| t)
            .collect()
    }

    #[test]
    fn identifiers_are_exact_terms() {
        assert_eq!(
            idents_of("fix #12 in `gen_vault.rs` and parseConfig()"),
            ["#12", "gen_vault.rs", "parseconfig"]
        );
        assert_eq!(
            idents_of("see src/cli.rs, then fw-007."),
            ["src/cli.rs", "fw-007"]
        );
        assert_eq!(idents_of("follow-up on the export"), Vec::<String>::new());
        assert_eq!(idents_of("# heading-like"), Vec::<String>::new());
    }

    #[test]
    fn identifier_parts_are_words() {
        // Parts are stemmed as the key's words are.
        let w = words_of("`parse_config`");
        assert!(w.contains(&crate::normalize::stem("parse")), "{w:?}");
        assert!(w.contains(&"config".to_string()), "{w:?}");
        let w = words_of("parseConfig");
        assert!(w.contains(&"config".to_string()), "{w:?}");
    }

    #[test]
    fn cjk_runs_become_bigrams() {
        assert_eq!(words_of("設定を保存"), ["設定", "定を", "を保", "保存"]);
        assert_eq!(words_of("값"), ["값"]);
        let w = words_of("CSV 내보내기를 고치자");
        assert!(w.contains(&"csv".to_string()), "{w:?}");
        assert!(w.contains(&"내보".to_string()), "{w:?}");
    }

    #[test]
    fn mixed_runs_split_at_the_script_boundary() {
        assert_eq!(words_of("API設定"), ["api", "設定"]);
    }

    #[test]
    fn the_private_placeholder_is_never_a_term() {
        let t = all("call [private] about x.y");
        assert!(t.iter().all(|(_, w)| !w.contains("private")), "{t:?}");
        assert!(all("[private]").iter().all(|(_, w)| !w.contains("private")));
    }
}
