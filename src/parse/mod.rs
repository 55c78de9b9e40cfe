//! Markdown → entries: every list item of a file with its section role,
//! checkbox, leading tag and enclosing session heading (docs/FORMAT.md §2).
//!
//! This layer knows nothing about source kinds; `sources` applies the
//! per-kind rules on top of it.

mod blank;
mod headings;
mod lines;
mod markdown;

pub use headings::{
    HeadingMatcher, Role, SessionProject, find_project, is_project_list, session_project,
    session_project_in,
};
pub use markdown::{Entry, HeadingInfo, ParsedDoc, SessionHeading};

/// Parses one Markdown document. `src` must not start with a BOM.
///
/// The line-level extractor (`lines`) reads the common file; a file holding
/// a construct it leaves to pulldown-cmark gets the full parse
/// (`markdown`).
pub fn parse_document(src: &str, headings: &HeadingMatcher) -> ParsedDoc {
    parse_with(src, |src| {
        lines::parse_lines(src, headings).unwrap_or_else(|| markdown::parse_exact(src, headings))
    })
}

/// `parse_document` through the pulldown-cmark walk alone (the reference
/// the line-level extractor must equal).
#[cfg(test)]
pub(crate) fn parse_document_full(src: &str, headings: &HeadingMatcher) -> ParsedDoc {
    parse_with(src, |src| markdown::parse_exact(src, headings))
}

fn parse_with(src: &str, parse: impl FnOnce(&str) -> ParsedDoc) -> ParsedDoc {
    // Private spans go first, over the whole file: a span hides every item,
    // line and block up to its close tag (line numbers are kept).
    let spans = crate::privacy::spans(src);
    let src = crate::privacy::redact(src);
    let mut doc = parse(&src);
    markdown::mark_private(&mut doc, &spans);
    doc
}

/// The state of an item: its checkbox mark through the [`StatusMap`], or for
/// an item without a checkbox the status its text states (a Logseq/org
/// keyword, todo.txt `x DATE`, `✅`/`❌` dates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A plain bullet without a checkbox or status keyword.
    None,
    /// `[ ]`, `[?]`, `[<]`, a `TODO`/`LATER`/`WAITING` keyword.
    Open,
    /// `[/]`, `[~]`, `[^]`, a `NOW`/`DOING` keyword.
    InProgress,
    /// `[!]`: open, flagged.
    Flagged,
    /// `[>]`: forwarded (resolved when a matching open item exists elsewhere).
    Forwarded,
    /// `[x]`, `[X]`, `DONE`, todo.txt `x DATE`.
    Done,
    /// `[-]`, `CANCELED`, a whole item struck through: a resolution signal.
    Cancelled,
    /// Any other single-character mark (`[i]`, `["]`, `[*]` …): a decoration,
    /// not a task; counted as `non_task`.
    NonTask,
}

impl Check {
    pub fn is_done(self) -> bool {
        matches!(self, Check::Done | Check::Cancelled)
    }

    /// A checkbox or a status keyword.
    pub fn has_box(self) -> bool {
        !matches!(self, Check::None)
    }

    /// An open task marker (checkbox or keyword).
    pub fn is_open_task(self) -> bool {
        matches!(
            self,
            Check::Open | Check::InProgress | Check::Flagged | Check::Forwarded
        )
    }

    /// The status a text states, for an item without a checkbox; a whole
    /// item struck through cancels even an open checkbox.
    pub(crate) fn with_text_status(self, st: Option<crate::task_meta::TextStatus>) -> Check {
        use crate::task_meta::TextStatus as T;
        match (self, st) {
            (Check::Open | Check::InProgress | Check::Flagged, Some(T::Cancelled)) => {
                Check::Cancelled
            }
            (Check::None, Some(T::Open)) => Check::Open,
            (Check::None, Some(T::InProgress)) => Check::InProgress,
            (Check::None, Some(T::Done)) => Check::Done,
            (Check::None, Some(T::Cancelled)) => Check::Cancelled,
            (c, _) => c,
        }
    }
}

/// Which checkbox mark means what (defaults after the Obsidian Tasks and
/// Minimal theme conventions). A mark in none of the lists is a non-task
/// decoration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusMap {
    pub open: String,
    pub in_progress: String,
    pub flagged: String,
    pub forwarded: String,
    pub done: String,
    pub cancelled: String,
}

impl Default for StatusMap {
    fn default() -> Self {
        StatusMap {
            open: " ?<".into(),
            in_progress: "/~^.oO".into(),
            flagged: "!".into(),
            forwarded: ">".into(),
            done: "xX".into(),
            cancelled: "-D".into(),
        }
    }
}

impl StatusMap {
    pub fn classify(&self, mark: char) -> Check {
        if self.open.contains(mark) {
            Check::Open
        } else if self.done.contains(mark) {
            Check::Done
        } else if self.in_progress.contains(mark) {
            Check::InProgress
        } else if self.cancelled.contains(mark) {
            Check::Cancelled
        } else if self.flagged.contains(mark) {
            Check::Flagged
        } else if self.forwarded.contains(mark) {
            Check::Forwarded
        } else {
            Check::NonTask
        }
    }
}

/// Splits a leading `[c]` checkbox (one character, then whitespace or end),
/// classified by the default status map.
pub fn split_checkbox(text: &str) -> (Check, &str) {
    split_checkbox_with(text, &StatusMap::default())
}

/// Splits a leading `[c]` checkbox classified by `map`.
pub fn split_checkbox_with<'a>(text: &'a str, map: &StatusMap) -> (Check, &'a str) {
    let mut chars = text.char_indices();
    if let (Some((_, '[')), Some((_, mark)), Some((close, ']'))) =
        (chars.next(), chars.next(), chars.next())
    {
        let rest = &text[close + 1..];
        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
            return (map.classify(mark), rest.trim_start());
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
        assert_eq!(split_checkbox("[<] a"), (Check::Open, "a"));
        assert_eq!(split_checkbox("[!] a"), (Check::Flagged, "a"));
        assert_eq!(split_checkbox("[>] a"), (Check::Forwarded, "a"));
        for m in ["/", "~", "^"] {
            assert_eq!(
                split_checkbox(&format!("[{m}] a")),
                (Check::InProgress, "a")
            );
        }
        for m in [
            "p", "c", "i", "I", "\"", "l", "b", "S", "k", "w", "u", "d", "f", "*", "✓",
        ] {
            assert_eq!(
                split_checkbox(&format!("[{m}] a")),
                (Check::NonTask, "a"),
                "{m}"
            );
        }
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
