//! Normalized form and similarity of item texts (SPEC §4).

use unicode_normalization::UnicodeNormalization;

/// The normalized form: NFC, lower-cased, emphasis/code markers removed,
/// links reduced to their labels, whitespace collapsed, trailing `.!;:` removed.
///
/// Removing one marker can expose another (`[a]*(b)` becomes a link once
/// `*` is gone), so the pass repeats until nothing changes: the result is a
/// fixed point, `normalize(normalize(x)) == normalize(x)`.
pub fn normalize(text: &str) -> String {
    let mut out = one_pass(text);
    for _ in 0..8 {
        if !(out.contains("~~") || out.contains('[')) {
            break;
        }
        let again = one_pass(&out);
        if again == out {
            break;
        }
        out = again;
    }
    out
}

fn one_pass(text: &str) -> String {
    let delinked = strip_links(text);
    let mut out = String::with_capacity(delinked.len());
    let mut pending_space = false;
    let composed: Box<dyn Iterator<Item = char>> = if delinked.is_ascii() {
        Box::new(delinked.chars())
    } else {
        Box::new(delinked.nfc())
    };
    let mut chars = composed.peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' | '_' | '`' => continue,
            '~' if chars.peek() == Some(&'~') => {
                chars.next();
                continue;
            }
            c if c.is_whitespace() => {
                pending_space = !out.is_empty();
                continue;
            }
            _ => {}
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.extend(c.to_lowercase());
    }
    while out.ends_with(['.', '!', ';', ':']) || out.ends_with(' ') {
        out.pop();
    }
    if unicode_normalization::is_nfc_quick(out.chars()) == unicode_normalization::IsNormalized::Yes
    {
        out
    } else {
        out.nfc().collect()
    }
}

/// Finds an ASCII needle at or after a position, remembering its last answer
/// so that a left-to-right scan costs linear time in total even when every
/// search fails (a storm of `[` without any `]`).
struct Finder<'a> {
    hay: &'a str,
    needle: &'static str,
    /// The last search: it started at `.0` and found `.1`.
    last: Option<(usize, Option<usize>)>,
}

impl<'a> Finder<'a> {
    fn new(hay: &'a str, needle: &'static str) -> Self {
        Finder {
            hay,
            needle,
            last: None,
        }
    }

    fn find_from(&mut self, from: usize) -> Option<usize> {
        if let Some((start, found)) = self.last
            && start <= from
            && found.is_none_or(|f| f >= from)
        {
            return found;
        }
        let found = self
            .hay
            .get(from..)
            .and_then(|t| t.find(self.needle))
            .map(|i| i + from);
        self.last = Some((from, found));
        found
    }
}

/// Replaces `[[target|label]]` with `label`, `[[target]]` with `target` and
/// `[label](url)` with `label`. Anything else is kept as written. Linear time.
fn strip_links(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('[') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut open = Finder::new(text, "[");
    let mut close = Finder::new(text, "]");
    let mut double_close = Finder::new(text, "]]");
    let mut newline = Finder::new(text, "\n");
    let mut paren = Finder::new(text, ")");
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    while let Some(at) = open.find_from(pos) {
        out.push_str(&text[pos..at]);
        if text[at..].starts_with("[[")
            && let Some(end) = double_close.find_from(at + 2)
            && newline.find_from(at + 2).is_none_or(|n| n > end)
        {
            let body = &text[at + 2..end];
            out.push_str(body.split_once('|').map_or(body, |(_, label)| label));
            pos = end + 2;
            continue;
        }
        if let Some(end) = close.find_from(at + 1)
            && open.find_from(at + 1).is_none_or(|o| o > end)
            && text[end + 1..].starts_with('(')
            && let Some(rp) = paren.find_from(end + 2)
        {
            out.push_str(&text[at + 1..end]);
            pos = rp + 1;
            continue;
        }
        out.push('[');
        pos = at + 1;
    }
    out.push_str(&text[pos..]);
    std::borrow::Cow::Owned(out)
}

/// `strsim::normalized_levenshtein` of two normalized forms.
pub fn similarity(a: &str, b: &str) -> f64 {
    strsim::normalized_levenshtein(a, b)
}

/// Whether a pair of texts whose character counts are `a` and `b` can reach
/// `threshold`: Levenshtein distance is at least the length difference, so
/// `min/max >= threshold` is necessary.
pub fn lengths_compatible(a: usize, b: usize, threshold: f64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    hi == 0 || (lo as f64) >= threshold * (hi as f64) - 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_links_case_and_punctuation() {
        assert_eq!(normalize("  Add **lock** `timeout`.  "), "add lock timeout");
        assert_eq!(
            normalize("see [the docs](http://x.y/z) now!"),
            "see the docs now"
        );
        assert_eq!(
            normalize("ping [[People/Ann|Ann]] and [[wrap-cli]]"),
            "ping ann and wrap-cli"
        );
        assert_eq!(normalize("~~old~~ new;:"), "old new");
        assert_eq!(normalize("a\t\n  b"), "a b");
        assert_eq!(normalize("snake_case"), "snakecase");
    }

    #[test]
    fn nfc_and_unicode_lowercase() {
        // "é" as e + combining acute equals the precomposed form.
        assert_eq!(normalize("Cafe\u{301}"), normalize("Café"));
        assert_eq!(normalize("ÄRGER"), "ärger");
        assert_eq!(normalize("다음 세션에 테스트."), "다음 세션에 테스트");
    }

    #[test]
    fn normalization_is_a_fixed_point() {
        for s in [
            "~_~",
            "[a]*(b)",
            "[[a]*]",
            "İ\u{316}",
            "*~*~x",
            "plain text.",
        ] {
            let once = normalize(s);
            assert_eq!(normalize(&once), once, "{s:?}");
        }
        assert_eq!(normalize("[a]*(b)"), "a");
        assert_eq!(normalize("~_~"), "");
    }

    #[test]
    fn unmatched_brackets_survive() {
        assert_eq!(normalize("[private] and [x"), "[private] and [x");
        assert_eq!(normalize("[a](b"), "[a](b");
    }

    #[test]
    fn similarity_and_length_bound() {
        assert_eq!(similarity("abc", "abc"), 1.0);
        assert!(similarity("add lock timeout", "add lock timeouts") >= 0.85);
        assert!(lengths_compatible(100, 85, 0.85));
        assert!(!lengths_compatible(100, 84, 0.85));
        assert!(lengths_compatible(0, 0, 0.85));
    }
}
