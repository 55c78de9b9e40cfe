//! Line-level analysis shared by every transcript format: keyword matching,
//! list markers, fenced code tracking and goal detection.

/// One configured keyword, prepared for matching.
struct Keyword {
    /// The keyword as configured (trimmed); reported in candidates.
    name: String,
    /// What is searched for: ASCII-lowercased for ASCII keywords.
    needle: String,
    /// ASCII keywords match case-insensitively on word boundaries.
    ascii: bool,
    /// Check a word boundary before / after the match.
    left: bool,
    right: bool,
}

/// A keyword occurrence in a line (byte offsets into that line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) index: usize,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The configured keyword set.
pub(crate) struct Matcher {
    keywords: Vec<Keyword>,
    /// One automaton over the distinct needles of the ASCII keywords (searched
    /// in the ASCII-lowercased line) and one over the others (searched in the
    /// folded line), with the keywords of each needle in index order.
    ascii: Needles,
    other: Needles,
}

/// Distinct needles in one automaton; `owners[p]` are the keywords of pattern `p`.
struct Needles {
    automaton: Option<aho_corasick::AhoCorasick>,
    owners: Vec<Vec<usize>>,
    /// Every needle holds a non-ASCII character (so none occurs in an ASCII line).
    non_ascii: bool,
}

impl Needles {
    fn new<'a>(needles: impl Iterator<Item = (usize, &'a str)>) -> Self {
        let mut patterns: Vec<&str> = Vec::new();
        let mut owners: Vec<Vec<usize>> = Vec::new();
        for (index, needle) in needles {
            match patterns.iter().position(|p| *p == needle) {
                Some(p) => owners[p].push(index),
                None => {
                    patterns.push(needle);
                    owners.push(vec![index]);
                }
            }
        }
        let non_ascii = patterns.iter().all(|p| !p.is_ascii());
        // Standard semantics report every occurrence of every needle,
        // overlapping ones included, as a search from each position would.
        // Building fails only past 2^31 patterns, far beyond a config file.
        let automaton = (!patterns.is_empty())
            .then(|| aho_corasick::AhoCorasick::new(&patterns).ok())
            .flatten();
        Needles {
            automaton,
            owners,
            non_ascii,
        }
    }

    /// Every occurrence `(keyword, start, end)` in `hay`.
    fn each(&self, hay: &str, mut f: impl FnMut(usize, usize, usize)) {
        let Some(ac) = &self.automaton else { return };
        for m in ac.find_overlapping_iter(hay) {
            for &index in &self.owners[m.pattern().as_usize()] {
                f(index, m.start(), m.end());
            }
        }
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Matcher {
    /// Blank keywords are dropped; surrounding whitespace is trimmed.
    pub(crate) fn new(keywords: &[String]) -> Self {
        let keywords = keywords
            .iter()
            .map(|k| k.trim())
            .filter(|k| !k.is_empty())
            .map(|k| {
                let ascii = k.is_ascii();
                let alnum = |c: Option<char>| ascii && c.is_some_and(|c| c.is_ascii_alphanumeric());
                // Folded as the line is ([`fold`]), so both sides agree.
                let needle = if ascii {
                    k.to_ascii_lowercase()
                } else {
                    fold(k)
                };
                let (left, right) = (alnum(k.chars().next()), alnum(k.chars().next_back()));
                let name = k.to_string();
                Keyword {
                    name,
                    needle,
                    ascii,
                    left,
                    right,
                }
            })
            .collect::<Vec<Keyword>>();
        let part = |ascii: bool| {
            Needles::new(
                keywords
                    .iter()
                    .enumerate()
                    .filter(move |(_, k)| k.ascii == ascii)
                    .map(|(i, k)| (i, k.needle.as_str())),
            )
        };
        let (ascii, other) = (part(true), part(false));
        Matcher {
            keywords,
            ascii,
            other,
        }
    }

    /// The configured name of keyword `index` (from a [`Hit`]).
    pub(crate) fn name(&self, index: usize) -> &str {
        self.keywords.get(index).map_or("", |k| k.name.as_str())
    }

    /// Every keyword occurrence in `line` on word boundaries, by start, the
    /// longest first at one start; overlapping later hits are dropped.
    pub(crate) fn find_all(&self, line: &str) -> Vec<Hit> {
        let mut hits = Vec::new();
        let mut keep = |index: usize, start: usize, end: usize| {
            let kw = &self.keywords[index];
            let before = line.get(..start).and_then(|s| s.chars().next_back());
            let after = line.get(end..).and_then(|s| s.chars().next());
            if (!kw.left || !before.is_some_and(is_word))
                && (!kw.right || !after.is_some_and(is_word))
            {
                hits.push(Hit { index, start, end });
            }
        };
        self.ascii.each(&line.to_ascii_lowercase(), &mut keep);
        // A needle with a non-ASCII character never occurs in an ASCII line.
        if !(self.other.non_ascii && line.is_ascii()) {
            // Full lowercasing that keeps every byte offset (a length check on
            // `to_lowercase` is not enough: ẞ shrinks and İ grows, and together
            // they cancel out while the positions between them move).
            self.other.each(&fold(line), &mut keep);
        }
        // At one start the longest first, then the keyword configured first.
        hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end), h.index));
        let mut out: Vec<Hit> = Vec::with_capacity(hits.len());
        for h in hits {
            if out.last().is_none_or(|l| h.start >= l.end) {
                out.push(h);
            }
        }
        out
    }
}

/// Removes leading `>` quote markers.
fn strip_quotes(line: &str) -> &str {
    let mut s = line.trim_start();
    while let Some(r) = s.strip_prefix('>') {
        s = r.trim_start();
    }
    s
}

/// After quote markers: the body of a list item (`-`, `*`, `+`, `1.`, `1)`), if the line is one.
pub(crate) fn list_item_body(line: &str) -> Option<&str> {
    let s = strip_quotes(line);
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let marker = if digits == 0 {
        usize::from(s.starts_with(['-', '*', '+']))
    } else if digits <= 9 && s[digits..].starts_with(['.', ')']) {
        digits + 1
    } else {
        0
    };
    if marker == 0 {
        return None;
    }
    let rest = &s[marker..];
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| rest.trim_start())
}

/// Removes a leading task checkbox (`[ ]`, `[x]`, `[X]`).
pub(crate) fn strip_checkbox(s: &str) -> &str {
    for b in ["[ ]", "[x]", "[X]"] {
        if let Some(r) = s.strip_prefix(b)
            && (r.is_empty() || r.starts_with(char::is_whitespace))
        {
            return r.trim_start();
        }
    }
    s
}

/// Fenced code tracking (```` ``` ```` / `~~~`, up to 3 spaces of indent).
#[derive(Debug, Default)]
pub(crate) struct Fence {
    open: Option<(u8, usize)>,
}

/// `(fence char, run length, rest of line)` when the line is a fence line.
fn parse_fence(line: &str) -> Option<(u8, usize, &str)> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let s = &line[indent..];
    let ch = *s.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let run = s.bytes().take_while(|&b| b == ch).count();
    (run >= 3).then(|| (ch, run, &s[run..]))
}

impl Fence {
    /// Feeds a line; true when it belongs to a fenced block (fence lines included).
    pub(crate) fn is_code(&mut self, line: &str) -> bool {
        let fence = parse_fence(line);
        match (self.open, fence) {
            (Some((ch, len)), Some((c, run, rest)))
                if c == ch && run >= len && rest.trim().is_empty() =>
            {
                self.open = None;
                true
            }
            (Some(_), _) => true,
            // A backtick fence's info string may not contain backticks (CommonMark).
            (None, Some((c, run, rest))) if !(c == b'`' && rest.contains('`')) => {
                self.open = Some((c, run));
                true
            }
            (None, _) => false,
        }
    }

    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some()
    }
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// The goal stated by a user message's first line: `/goal X`, `goal: X`, `objective: X`.
pub(crate) fn goal_text(first_line: &str) -> Option<String> {
    let t = first_line.trim_start();
    let rest = if let Some(r) = t.strip_prefix("/goal") {
        if !r.starts_with(char::is_whitespace) {
            return None;
        }
        r
    } else {
        strip_prefix_ci(t, "goal:").or_else(|| strip_prefix_ci(t, "objective:"))?
    };
    let rest = rest.trim();
    (!rest.is_empty()).then(|| rest.to_string())
}

/// Lowercase without moving byte positions ([`super::lower::lower`]), with
/// the final sigma ς read as σ (both two bytes): `to_lowercase` writes ς at a
/// word's end, the character-by-character fold never does.
fn fold(s: &str) -> String {
    let l = super::lower::lower(s);
    if l.contains('ς') {
        l.replace('ς', "σ")
    } else {
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    mod automaton;

    fn m(kws: &[&str]) -> Matcher {
        Matcher::new(&kws.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn found<'a>(m: &'a Matcher, line: &str) -> Option<&'a str> {
        m.find_all(line).first().map(|h| m.name(h.index))
    }

    #[test]
    fn word_boundaries() {
        let k = m(&["defer", "TODO:", "follow-up"]);
        assert_eq!(found(&k, "we deferred it"), None);
        assert_eq!(found(&k, "undefer it"), None);
        assert_eq!(found(&k, "Defer the refactor"), Some("defer"));
        assert_eq!(found(&k, "let's defer."), Some("defer"));
        assert_eq!(found(&k, "todo: x"), Some("TODO:"));
        assert_eq!(found(&k, "mytodo: x"), None);
        assert_eq!(found(&k, "a FOLLOW-UP item"), Some("follow-up"));
        assert_eq!(found(&k, "deferred, then defer"), Some("defer"));
    }

    #[test]
    fn a_non_ascii_keyword_is_found_at_its_place_when_lowercasing_resizes() {
        // ẞ (3 → 2 bytes) and İ (2 → 3 bytes) cancel out in length.
        let k = m(&["下一步"]);
        let line = "ẞ 下一步：补充测试 İ";
        let hits = k.find_all(line);
        assert_eq!(hits.len(), 1);
        assert_eq!(&line[hits[0].start..hits[0].end], "下一步");
        let k = m(&["Ärger"]);
        let line = "\u{212A}İ then ärger here";
        let hits = k.find_all(line);
        assert_eq!(hits.len(), 1);
        assert_eq!(&line[hits[0].start..hits[0].end], "ärger");
    }

    #[test]
    fn a_greek_keyword_matches_in_either_case() {
        // Upper case folds to a σ at the end, lower case is written with ς.
        for kw in ["ΕΠΌΜΕΝΟΣ", "επόμενος"] {
            let k = m(&[kw]);
            for line in ["ΕΠΌΜΕΝΟΣ: έλεγχος", "επόμενος: έλεγχος"] {
                assert_eq!(k.find_all(line).len(), 1, "{kw} in {line}");
            }
        }
    }

    #[test]
    fn earliest_then_longest() {
        let k = m(&["follow up", "defer", "follow up on"]);
        let line = "defer it; follow up later";
        assert_eq!(found(&k, line), Some("defer"));
        assert_eq!(found(&k, "follow up on this, defer"), Some("follow up on"));
    }

    #[test]
    fn korean_substring() {
        let k = m(&["다음 세션", "미루", "next session"]);
        assert_eq!(found(&k, "다음 세션에 테스트 추가"), Some("다음 세션"));
        assert_eq!(found(&k, "이건 미루자"), Some("미루"));
        assert_eq!(found(&k, "nothing here"), None);
    }

    #[test]
    fn blank_keywords_ignored() {
        let k = m(&["", "  ", " defer "]);
        assert_eq!(found(&k, "x"), None);
        assert_eq!(found(&k, "defer x"), Some("defer"));
    }

    #[test]
    fn list_items() {
        assert_eq!(list_item_body("- a"), Some("a"));
        assert_eq!(list_item_body("  * [ ] b"), Some("[ ] b"));
        assert_eq!(list_item_body("12. c"), Some("c"));
        assert_eq!(list_item_body("3) d"), Some("d"));
        assert_eq!(list_item_body("-"), Some(""));
        assert_eq!(list_item_body("**bold**"), None);
        assert_eq!(list_item_body("-x"), None);
        assert_eq!(list_item_body("2024. no"), Some("no"));
        assert_eq!(list_item_body("1234567890. no"), None);
        assert_eq!(list_item_body("plain"), None);
        assert_eq!(strip_checkbox("[x]"), "");
    }

    #[test]
    fn fences() {
        let mut f = Fence::default();
        assert!(!f.is_code("text"));
        assert!(f.is_code("```rust"));
        assert!(f.is_code("TODO: inside"));
        assert!(f.is_code("~~~"));
        assert!(f.is_code("``"));
        assert!(f.is_code("```"));
        assert!(!f.is_open());
        assert!(!f.is_code("after"));
        assert!(f.is_code("   ~~~~"));
        assert!(f.is_code("~~~ not a closer"));
        assert!(f.is_code("~~~"));
        assert!(f.is_code("~~~~~"));
        assert!(!f.is_code("x"));
        assert!(!f.is_code("    ```"));
        assert!(!f.is_code("```inline``` code"));
    }

    #[test]
    fn goals() {
        assert_eq!(goal_text("/goal ship v1 "), Some("ship v1".into()));
        assert_eq!(goal_text("  GOAL: parse all"), Some("parse all".into()));
        assert_eq!(goal_text("Objective: be fast"), Some("be fast".into()));
        assert_eq!(goal_text("/goals x"), None);
        assert_eq!(goal_text("/goal "), None);
        assert_eq!(goal_text("the goal: x"), None);
        assert_eq!(goal_text("목표"), None);
    }
}
