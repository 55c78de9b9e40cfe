//! A light English stemmer for the matching key's words (see `fold`):
//! inflected forms of one verb or noun fold to one stem.

use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::sync::LazyLock;

/// Irregular English forms and their base form.
const IRREGULAR: &[(&str, &str)] = &[
    ("wrote", "write"),
    ("written", "write"),
    ("rewrote", "rewrite"),
    ("rewritten", "rewrite"),
    ("ran", "run"),
    ("made", "make"),
    ("built", "build"),
    ("rebuilt", "rebuild"),
    ("broke", "break"),
    ("broken", "break"),
    ("did", "do"),
    ("done", "do"),
    ("undid", "undo"),
    ("redid", "redo"),
    ("went", "go"),
    ("gone", "go"),
    ("got", "get"),
    ("gotten", "get"),
    ("chose", "choose"),
    ("chosen", "choose"),
    ("found", "find"),
    ("took", "take"),
    ("taken", "take"),
    ("began", "begin"),
    ("begun", "begin"),
    ("sent", "send"),
    ("spent", "spend"),
    ("kept", "keep"),
    ("held", "hold"),
    ("paid", "pay"),
    ("said", "say"),
    ("thought", "think"),
    ("brought", "bring"),
    ("bought", "buy"),
    ("caught", "catch"),
    ("taught", "teach"),
    ("gave", "give"),
    ("given", "give"),
    ("hid", "hide"),
    ("hidden", "hide"),
    ("knew", "know"),
    ("known", "know"),
    ("saw", "see"),
    ("seen", "see"),
    ("sold", "sell"),
    ("shown", "show"),
    ("told", "tell"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("understood", "understand"),
    ("drew", "draw"),
    ("drawn", "draw"),
    ("spoke", "speak"),
    ("spoken", "speak"),
    ("forgot", "forget"),
    ("forgotten", "forget"),
    ("froze", "freeze"),
    ("frozen", "freeze"),
    ("grew", "grow"),
    ("grown", "grow"),
    ("fell", "fall"),
    ("fallen", "fall"),
    ("led", "lead"),
    ("fed", "feed"),
    ("met", "meet"),
    ("lost", "lose"),
    ("meant", "mean"),
    ("used", "use"),
    ("using", "use"),
];

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Longer words are left alone (no English word needs it, and the
/// fixed-point loop stays short).
const MAX_STEMMED: usize = 32;

/// A light English stemmer for lower-case ASCII words: irregular forms to
/// their base, then `-ies`/`-ied` → `y`, `-ing`, `-ed`, `-es` (after a
/// sibilant), `-s`; a doubled final consonant undoubled; a final `e`
/// dropped. Repeated to a fixed point, so stemming a stem changes nothing.
pub fn stem(word: &str) -> String {
    stem_cow(word).into_owned()
}

/// Irregular forms by form.
static IRREGULARS: LazyLock<FxHashMap<&'static str, &'static str>> =
    LazyLock::new(|| IRREGULAR.iter().copied().collect());

/// The (first letter, last letter) pairs of the irregular forms, one bit
/// each: a lower-case word whose pair has no bit is no irregular form, and
/// needs no lookup (about nine words in ten).
static IRREGULAR_ENDS: LazyLock<[u64; 11]> = LazyLock::new(|| {
    let mut bits = [0u64; 11];
    for (form, _) in IRREGULAR {
        // Every form is lower-case ASCII letters (checked in the tests).
        if let Some(at) = ends_slot(form.as_bytes()) {
            bits[at / 64] |= 1 << (at % 64);
        }
    }
    bits
});

/// The bit of a word's first and last letters, `None` unless both are
/// lower-case ASCII letters (every irregular form's are).
fn ends_slot(word: &[u8]) -> Option<usize> {
    let letter = |b: &u8| b.is_ascii_lowercase().then(|| usize::from(b - b'a'));
    Some(letter(word.first()?)? * 26 + letter(word.last()?)?)
}

/// The base form of `word` when it is an irregular form.
fn irregular(word: &str) -> Option<&'static str> {
    let at = ends_slot(word.as_bytes())?;
    if IRREGULAR_ENDS[at / 64] & (1 << (at % 64)) == 0 {
        return None;
    }
    IRREGULARS.get(word).copied()
}

/// [`stem`] without allocating unless a letter is added (`-ies` → `y`).
pub(super) fn stem_cow(word: &str) -> Cow<'_, str> {
    if !(3..=MAX_STEMMED).contains(&word.len()) || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return Cow::Borrowed(word);
    }
    let mut w: Cow<'_, str> = Cow::Borrowed(irregular(word).unwrap_or(word));
    loop {
        match stem_once(&w) {
            Step::Same => return w,
            Step::Cut(n) => match &mut w {
                Cow::Borrowed(b) => *b = &b[..n],
                Cow::Owned(o) => o.truncate(n),
            },
            Step::Y(n) => w = Cow::Owned(format!("{}y", &w[..n])),
        }
    }
}

/// One stemming step: nothing to do, keep the first `n` bytes, or keep
/// the first `n` bytes and add `y`.
enum Step {
    Same,
    Cut(usize),
    Y(usize),
}

fn stem_once(w: &str) -> Step {
    let b = w.as_bytes();
    let n = b.len();
    let has_vowel = |s: &[u8]| s.iter().copied().any(is_vowel);
    if n > 4 && (w.ends_with("ies") || w.ends_with("ied")) {
        // The stem gains a `y`, a vowel: nothing is undoubled or dropped.
        return Step::Y(n - 3);
    }
    let kept = if n >= 6 && w.ends_with("ing") && has_vowel(&b[..n - 3]) {
        n - 3
    } else if (n >= 5 && w.ends_with("ed") && has_vowel(&b[..n - 2]))
        || (n >= 5
            && w.ends_with("es")
            && (matches!(b[n - 3], b's' | b'x' | b'z')
                || w[..n - 2].ends_with("ch")
                || w[..n - 2].ends_with("sh")))
    {
        n - 2
    } else if n > 3
        && w.ends_with('s')
        && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is"))
    {
        n - 1
    } else {
        n
    };
    let m = kept;
    let doubled = m >= 3 && b[m - 1] == b[m - 2] && !is_vowel(b[m - 1]);
    let kept = if doubled || (m > 3 && b[m - 1] == b'e') {
        m - 1
    } else {
        m
    };
    if kept == n {
        Step::Same
    } else {
        Step::Cut(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_irregular_form_is_found_through_its_letters() {
        for (form, base) in IRREGULAR {
            assert!(form.bytes().all(|b| b.is_ascii_lowercase()), "{form}");
            assert_eq!(irregular(form), Some(*base), "{form}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_letter_filter_never_hides_an_irregular_form(w in "[a-zA-Z0-9é_-]{0,12}") {
            proptest::prop_assert_eq!(irregular(&w), IRREGULARS.get(w.as_str()).copied());
        }
    }

    #[test]
    fn inflections_fold_to_one_stem() {
        for group in [
            &["add", "added", "adds", "adding"][..],
            &["fix", "fixed", "fixes", "fixing"],
            &["update", "updated", "updates", "updating"],
            &["write", "wrote", "written", "writes", "writing"],
            &["stop", "stopped", "stopping", "stops"],
            &["process", "processes", "processed", "processing"],
            &["copy", "copies", "copied", "copying"],
            &["use", "used", "uses", "using"],
            &["need", "needed", "needs"],
            &["close", "closed", "closes", "closing"],
            &["test", "tests", "tested", "testing"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.iter().all(|s| s == &stems[0]),
                "{group:?} -> {stems:?}"
            );
        }
        assert_ne!(stem("add"), stem("remove"));
        assert_eq!(stem("v0.1.0"), "v0.1.0");
        assert_eq!(stem("이다"), "이다");
    }

    #[test]
    fn stemming_is_a_fixed_point() {
        for w in [
            "stringing",
            "embedded",
            "addeded",
            "processes",
            "ingingings",
            "series",
        ] {
            let s = stem(w);
            assert_eq!(stem(&s), s, "{w}");
        }
    }

    /// The stemmer as first written (allocating at every step), the oracle
    /// of the borrowing one.
    fn reference_stem(word: &str) -> String {
        if !(3..=MAX_STEMMED).contains(&word.len()) || !word.bytes().all(|b| b.is_ascii_lowercase())
        {
            return word.to_string();
        }
        let mut w = IRREGULAR
            .iter()
            .find(|(form, _)| *form == word)
            .map_or(word, |(_, base)| base)
            .to_string();
        loop {
            let b = w.as_bytes();
            let n = b.len();
            let has_vowel = |s: &[u8]| s.iter().copied().any(is_vowel);
            let (mut s, mut y): (&str, bool) = (&w, false);
            if n > 4 && (w.ends_with("ies") || w.ends_with("ied")) {
                (s, y) = (&w[..n - 3], true);
            } else if n >= 6 && w.ends_with("ing") && has_vowel(&b[..n - 3]) {
                s = &w[..n - 3];
            } else if (n >= 5 && w.ends_with("ed") && has_vowel(&b[..n - 2]))
                || (n >= 5
                    && w.ends_with("es")
                    && (matches!(b[n - 3], b's' | b'x' | b'z')
                        || w[..n - 2].ends_with("ch")
                        || w[..n - 2].ends_with("sh")))
            {
                s = &w[..n - 2];
            } else if n > 3
                && w.ends_with('s')
                && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is"))
            {
                s = &w[..n - 1];
            }
            let mut out = s.to_string();
            if y {
                out.push('y');
            }
            let ob = out.as_bytes();
            let m = ob.len();
            if (m >= 3 && ob[m - 1] == ob[m - 2] && !is_vowel(ob[m - 1]))
                || (m > 3 && ob[m - 1] == b'e')
            {
                out.pop();
            }
            if out == w {
                return w;
            }
            w = out;
        }
    }

    proptest::proptest! {
        #[test]
        fn stem_matches_the_reference(w in "[a-z]{0,14}|(ie|e|s|d|ng|i|y|ss|t)*", tail in "(ies|ied|ing|ed|es|s|e|ses|ches|tt)?") {
            let w = format!("{w}{tail}");
            proptest::prop_assert_eq!(stem(&w), reference_stem(&w));
        }
    }

    #[test]
    fn irregular_forms_stem_like_the_reference() {
        for (form, _) in IRREGULAR {
            assert_eq!(stem(form), reference_stem(form), "{form}");
        }
    }
}
