//! Markdown → entries: every list item of a file with its section role,
//! checkbox, leading tag and enclosing session heading (docs/FORMAT.md §2).
//!
//! This layer knows nothing about source kinds; `sources` applies the
//! per-kind rules on top of it.

mod headings;
mod markdown;
mod prose;

pub use headings::{HeadingMatcher, Role, SessionProject, session_project};
pub use markdown::{Entry, HeadingInfo, ParsedDoc, SessionHeading, parse_document};

/// The state of an item's checkbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A plain bullet without a checkbox.
    None,
    /// `[ ]` or any mark other than x/X/-.
    Open,
    /// `[x]` or `[X]`.
    Done,
    /// `[-]`, which counts as done.
    Cancelled,
}

impl Check {
    pub fn is_done(self) -> bool {
        matches!(self, Check::Done | Check::Cancelled)
    }

    pub fn has_box(self) -> bool {
        !matches!(self, Check::None)
    }
}

/// Splits a leading `[c]` checkbox (one character, then whitespace or end).
pub fn split_checkbox(text: &str) -> (Check, &str) {
    let mut chars = text.char_indices();
    if let (Some((_, '[')), Some((_, mark)), Some((close, ']'))) =
        (chars.next(), chars.next(), chars.next())
    {
        let rest = &text[close + 1..];
        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
            let check = match mark {
                'x' | 'X' => Check::Done,
                '-' => Check::Cancelled,
                _ => Check::Open,
            };
            return (check, rest.trim_start());
        }
    }
    (Check::None, text)
}

/// Splits a leading `(slug)` project tag followed by whitespace and more text.
pub fn split_tag(text: &str) -> (Option<String>, &str) {
    if let Some(inner) = text.strip_prefix('(')
        && let Some(close) = inner.find(')')
    {
        let slug = &inner[..close];
        let rest = &inner[close + 1..];
        if crate::item::is_slug(slug) && rest.starts_with(char::is_whitespace) {
            let rest = rest.trim_start();
            if !rest.is_empty() {
                return (Some(slug.to_ascii_lowercase()), rest);
            }
        }
    }
    (None, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkbox_kinds() {
        assert_eq!(split_checkbox("[ ] a"), (Check::Open, "a"));
        assert_eq!(split_checkbox("[x] a"), (Check::Done, "a"));
        assert_eq!(split_checkbox("[X] a"), (Check::Done, "a"));
        assert_eq!(split_checkbox("[-] a"), (Check::Cancelled, "a"));
        assert_eq!(split_checkbox("[?] a"), (Check::Open, "a"));
        assert_eq!(split_checkbox("[✓] a"), (Check::Open, "a"));
        assert_eq!(split_checkbox("a"), (Check::None, "a"));
        assert_eq!(split_checkbox("[link] a"), (Check::None, "[link] a"));
        assert_eq!(split_checkbox("[x]a"), (Check::None, "[x]a"));
        assert_eq!(split_checkbox("[ ]"), (Check::Open, ""));
    }

    #[test]
    fn tags() {
        assert_eq!(
            split_tag("(Wrap-CLI) add"),
            (Some("wrap-cli".into()), "add")
        );
        assert_eq!(split_tag("(not a slug) add"), (None, "(not a slug) add"));
        assert_eq!(split_tag("(wrap-cli)"), (None, "(wrap-cli)"));
        assert_eq!(split_tag("(wrap-cli)add"), (None, "(wrap-cli)add"));
        assert_eq!(split_tag("add (wrap-cli) x"), (None, "add (wrap-cli) x"));
    }
}
