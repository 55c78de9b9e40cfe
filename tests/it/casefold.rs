//! Transcripts holding characters whose lowercase form has another UTF-8
//! length (U+212A Kelvin sign 3 → 1 byte, İ 2 → 3, ẞ 3 → 2, final Σ): the
//! rules search a lowercase copy and cut the original, so `extract` must
//! neither panic nor cut inside a character.

use crate::common::{Test, outside_file, texts};

use active_status::transcript::{Options, extract_bytes};
use proptest::prelude::*;
use proptest::sample::select;

#[test]
fn extract_on_a_plain_transcript_with_a_kelvin_sign_exits_zero() {
    let (_dir, path) = outside_file(
        "t.txt",
        "Assistant: \u{212A} é add your API key to the config.\n",
    );
    Test::new()
        .args(["extract", "--transcript"])
        .arg(path)
        .run();
}

#[test]
fn a_non_ascii_keyword_between_characters_that_shrink_and_grow_is_cut_at_its_own_place() {
    // ẞ lowercases from 3 bytes to 2 and İ from 2 to 3: the lengths cancel
    // out, the positions between them do not.
    let (_dir, path) = outside_file("t.txt", "User: hi\n\nAssistant: ẞ 下一步：补充测试 İ\n");
    let json = Test::new()
        .args(["extract", "--format", "json", "--transcript"])
        .arg(path)
        .run()
        .json();
    let texts = texts(&json["candidates"]);
    assert!(texts.iter().any(|t| t.starts_with("补充测试")), "{texts:?}");
}

fn opts() -> Options {
    Options {
        keywords: ["next session", "todo", "follow-up", "下一步"]
            .map(str::to_string)
            .to_vec(),
        handoff_leads: ["still need", "remaining"].map(str::to_string).to_vec(),
        max_line_chars: 400,
        max_bytes: 1 << 20,
        force_text: true,
    }
}

/// Pieces a message is built of: the characters that resize, neighbours
/// that are multi-byte, phrases the rules look for, and separators.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        select(vec![
            "\u{212A}",
            "İ",
            "ẞ",
            "Σ",
            "ΣΑΣ",
            "é",
            "ß",
            "\u{212A}é",
            "İé",
            "ẞé",
            " ",
            ", ",
            "; ",
            ": ",
            ". ",
            " — ",
            "\n",
            "? ",
            "add your ",
            "next time",
            "la prochaine fois",
            "one more hour:",
            "If you like, I can ",
            "OK to ",
            " and ",
            " so ",
            "before using",
            "TODO: ",
            "Next steps:\n- ",
            "the key",
            "deploy",
            "You can ",
            " when ready",
            "lea\u{212A}e it for the next session",
            "\u{212A}eep ",
            "Critical: ",
            "[P1] ",
            "Concrete fix: ",
            "**Findings**\n",
            "What I'd suggest next:\n1. ",
            "\n2. ",
            "Possible ideas?\n- ",
            "pending your ",
            "OK. When you're back at ",
            "až budeš ",
            "toggle it on",
            "the easiest fix is to restart ",
            " dashboard",
            "I ",
            "下一步：",
            "补充测试",
        ])
        .prop_map(str::to_string),
        "[a-zA-Zé ]{0,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any mix of those pieces, as an assistant message of a plain
    /// transcript, extracts without a panic and gives no empty candidate.
    #[test]
    fn resizing_characters_never_panic_extraction(parts in prop::collection::vec(piece(), 1..24)) {
        let msg = parts.concat();
        let text = format!("User: set up the client\nAssistant: {msg}\n");
        let x = extract_bytes(text.as_bytes(), &opts()).expect("plain text is read");
        for c in &x.candidates {
            prop_assert!(!c.text.is_empty());
        }
    }
}
