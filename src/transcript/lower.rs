//! A lowercase copy of a text whose byte positions are the text's own.
//!
//! Rules search a lowercased sentence and slice the original with the
//! positions found. `str::to_lowercase` may change a character's UTF-8
//! length (K U+212A Kelvin sign 3 → 1 byte, İ U+0130 2 → 3 bytes), so its
//! positions would not fall on the original's character boundaries and the
//! slice would panic or cut the wrong text. [`lower`] lowercases a character
//! only when its lowercase form has the same UTF-8 length, and keeps it as it
//! is otherwise, so every position in the copy is a position in the original.

/// `s` lowercased character by character, keeping every character whose
/// lowercase form would have another UTF-8 length; `lower(s).len() == s.len()`
/// and both share their character boundaries.
pub(crate) fn lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let mut l = c.to_lowercase();
        match (l.next(), l.next()) {
            (Some(one), None) if one.len_utf8() == c.len_utf8() => out.push(one),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::lower;

    #[test]
    fn lengths_and_boundaries_are_the_original_ones() {
        for s in [
            "\u{212A} é add your API key",
            "İstanbul: ADD YOUR token",
            "ẞTRASSE next time",
            "ΣΟΦΟΣ la prochaine fois",
            "Ⱥ ⱥ Ⱦ one more hour:",
        ] {
            let l = lower(s);
            assert_eq!(l.len(), s.len(), "{s}");
            assert!((0..=s.len()).all(|i| s.is_char_boundary(i) == l.is_char_boundary(i)));
        }
    }

    #[test]
    fn changes_in_length_keep_the_character_and_the_rest_is_lowercased() {
        assert_eq!(lower("\u{212A} İ ẞ ADD YOUR"), "\u{212A} İ ẞ add your");
        assert_eq!(lower("ΣΟΦΟΣ Élan"), "σοφοσ élan");
        assert_eq!(lower("Next TIME"), "next time");
    }

    // Each rule that slices a sentence with positions found in its lowercase
    // copy, fed a character whose lowercase form has another UTF-8 length
    // right before the position it cuts at (a panic or a wrong cut before).

    #[test]
    fn user_steps_cut_the_original_sentence() {
        let s = super::super::userstep::steps("\u{212A} é add your API key to the config.", 400);
        assert!(s.iter().all(|(t, _, _)| t.contains("API key")), "{s:?}");
        let s = super::super::userstep::steps(
            "Add your API key to the config ẞé so the app starts.",
            400,
        );
        assert_eq!(s.len(), 1, "{s:?}");
        assert!(s[0].0.contains("ẞé"), "{s:?}");
    }

    #[test]
    fn deferral_clauses_cut_the_original_sentence() {
        for t in [
            "ẞ: on fera les tests de charge la prochaine fois é, İ voilà.",
            "ΣΟΦΟΣ: on fera les tests de charge la prochaine fois é, \u{212A} voilà.",
        ] {
            let s = super::super::deferral::sentences(t, false, 400);
            assert!(s.iter().all(|(c, _, _)| t.contains(c.as_str())), "{s:?}");
        }
    }

    #[test]
    fn ranked_leads_cut_the_original_line() {
        let r = super::super::ranked::ranked("ẞéone more hour: write the tests.", 400);
        assert!(r.iter().all(|(t, _)| t.contains("tests")), "{r:?}");
    }

    #[test]
    fn offers_match_only_where_the_original_says_the_opener() {
        // The Kelvin sign lowercases to `k`: "liKe" must not be cut as if it
        // were four bytes long.
        for t in [
            "Done.\n\nIf you li\u{212A}e, I can add the retry tests.",
            "Done.\n\nO\u{212A} to deploy the retry fix?",
        ] {
            let c = super::super::offer::closing(t, 400);
            assert!(
                c.iter()
                    .all(|(s, _)| !s.starts_with("N ") && !s.starts_with("O ")),
                "{c:?}"
            );
        }
    }

    #[test]
    fn hand_off_clauses_cut_the_original_sentence() {
        let x = super::super::tests::run("Assistant: İ note: é replace the key before using it.\n");
        assert!(x.candidates.iter().all(|c| c.text.is_char_boundary(0)));
    }

    #[test]
    fn later_offers_cut_the_original_sentence() {
        let l = super::super::handoff::later("You can ẞ run the migration é when ready.", 400);
        assert!(l.iter().all(|(t, _, _)| t.contains("migration")), "{l:?}");
    }

    #[test]
    fn task_parts_cut_the_original_text() {
        let p = super::super::summary::parts("İ build it and érase the cache");
        assert!(p.iter().flatten().all(|w| !w.is_empty()), "{p:?}");
    }
}
