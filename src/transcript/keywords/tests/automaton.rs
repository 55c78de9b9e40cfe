//! The keyword automaton against the definition: each keyword searched alone.

use super::super::*;
use proptest::prelude::*;

/// The definition the automaton must keep: every keyword searched on its
/// own from each character of the line.
fn by_definition(m: &Matcher, line: &str) -> Vec<Hit> {
    let lower = line.to_ascii_lowercase();
    let full = fold(line);
    let mut hits = Vec::new();
    for (index, kw) in m.keywords.iter().enumerate() {
        let hay = if kw.ascii { &lower } else { &full };
        let mut from = 0;
        while let Some(pos) = hay.get(from..).and_then(|h| h.find(kw.needle.as_str())) {
            let (start, end) = (from + pos, from + pos + kw.needle.len());
            let before = line.get(..start).and_then(|s| s.chars().next_back());
            let after = line.get(end..).and_then(|s| s.chars().next());
            if (!kw.left || !before.is_some_and(is_word))
                && (!kw.right || !after.is_some_and(is_word))
            {
                hits.push(Hit { index, start, end });
            }
            from = start + line[start..].chars().next().map_or(1, char::len_utf8);
        }
    }
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
    let mut out: Vec<Hit> = Vec::new();
    for h in hits {
        if out.last().is_none_or(|l| h.start >= l.end) {
            out.push(h);
        }
    }
    out
}

const KEYWORDS: &[&str] = &[
    "next",
    "next step",
    "NEXT",
    "todo:",
    "TODO:",
    "to",
    "follow up",
    "follow up on",
    "다음",
    "다음 세션",
    "下一步",
    "Ärger",
    "ΕΠΌΜΕΝΟΣ",
    "\u{212A}ey",
    "à faire",
];
const PIECES: &[&str] = &[
    "next",
    "Next",
    " ",
    "step",
    "todo",
    ":",
    "to",
    "follow",
    " up",
    " on",
    "다음",
    " 세션",
    "下一步",
    "ärger",
    "ÄRGER",
    "ẞ",
    "İ",
    "ς",
    "Σ",
    "επόμενος",
    "\u{212A}",
    "key",
    "à",
    " faire",
    "x",
    "_",
    "-",
    "é",
];

proptest! {
    #[test]
    fn the_automaton_finds_what_each_keyword_alone_finds(
        picks in prop::collection::vec(0..PIECES.len(), 0..24),
        kws in prop::collection::vec(0..KEYWORDS.len(), 1..8),
    ) {
        let line: String = picks.iter().map(|&i| PIECES[i]).collect();
        let keywords: Vec<String> = kws.iter().map(|&i| KEYWORDS[i].to_string()).collect();
        let m = Matcher::new(&keywords);
        prop_assert_eq!(m.find_all(&line), by_definition(&m, &line));
    }
}
