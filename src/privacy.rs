//! `<private>…</private>` redaction (docs/FORMAT.md §4).

const OPEN: &str = "<private>";
const CLOSE: &str = "</private>";
pub const REDACTED: &str = "[private]";

/// Replaces every `<private>…</private>` span with `[private]`. An unclosed
/// `<private>` hides the rest of the text. Tags match case-insensitively.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let Some(first) = find_ci(text, OPEN, 0) else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut next = Some(first);
    while let Some(start) = next {
        out.push_str(&text[pos..start]);
        out.push_str(REDACTED);
        match find_ci(text, CLOSE, start + OPEN.len()) {
            Some(end) => pos = end + CLOSE.len(),
            None => return std::borrow::Cow::Owned(out),
        }
        next = find_ci(text, OPEN, pos);
    }
    out.push_str(&text[pos..]);
    std::borrow::Cow::Owned(out)
}

/// Byte offset of `needle` (ASCII) in `hay` at or after `from`, ignoring ASCII case.
fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    if from > h.len() || n.len() > h.len() - from {
        return None;
    }
    (from..=h.len() - n.len()).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_spans_are_replaced() {
        assert_eq!(
            redact("call <private>Bob 555-1234</private> about it"),
            "call [private] about it"
        );
        assert_eq!(
            redact("<PRIVATE>a</Private> and <private>b</private>!"),
            "[private] and [private]!"
        );
    }

    #[test]
    fn unclosed_hides_the_rest() {
        assert_eq!(redact("token <private>abc def"), "token [private]");
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(
            redact("nothing here"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(redact("é <private>ü</private> ß"), "é [private] ß");
    }
}
