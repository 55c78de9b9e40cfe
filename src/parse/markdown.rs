//! The pulldown-cmark walk: list items, their first paragraph as written,
//! and the heading context each one sits in.

use super::blank::{blank_front_matter, opens_drawer};
use super::headings::{HeadingMatcher, Role, is_session_heading};
use super::{Check, split_checkbox_with, split_tag};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// One list item of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub line: u32,
    pub check: Check,
    /// Leading `(slug)` tag, lower-cased.
    pub tag: Option<String>,
    /// The leading tag as written (without the parentheses).
    pub tag_raw: Option<String>,
    /// First paragraph as written, joined, redacted, without checkbox, tag
    /// and task metadata.
    pub text: String,
    /// Task metadata parsed off the text (`None` when there was none).
    pub meta: Option<Box<crate::task_meta::TaskMeta>>,
    /// Hash of the private spans before redaction (`guards::private_mark`).
    pub private: Option<u64>,
    /// Role of the innermost enclosing heading that has one.
    pub role: Option<Role>,
    /// Index into `ParsedDoc::sessions` of the enclosing level-2 session heading.
    pub session: Option<usize>,
    /// The line of the list item this one is nested in (`None` at the
    /// margin, and for heading items).
    pub parent: Option<u32>,
}

/// What a bold lead-in paragraph (`**Label:**`) says about the list after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lead {
    /// Its label has the next role: the list's items have it.
    Next,
    /// Any other label (`**Cause:**`, `**Files:**`): the list's plain items
    /// describe, they are not follow-ups.
    Other,
}

impl Lead {
    /// The role of an item in a list after this lead-in (or after none),
    /// inside a section of role `section`, and whether the lead-in quiets
    /// its plain items.
    pub(super) fn role(lead: Option<Lead>, section: Option<Role>) -> (Option<Role>, bool) {
        match lead {
            Some(Lead::Next) => (Some(Role::Next), false),
            Some(Lead::Other) => (section, true),
            None => (section, false),
        }
    }
}

/// A list item under a bold lead-in that gives no role (`quiet`) keeps the
/// next role only with a checkbox or status keyword: its plain items
/// describe (a cause, a file list) and are not collected.
pub(super) fn quiet_entry(e: &mut Entry, quiet: bool) {
    if quiet && e.check == Check::None && e.role == Some(Role::Next) {
        e.role = None;
    }
}

/// Folds plain nested items (no checkbox, no status keyword) into the item
/// they are nested in: they are its details, joined to its text (` — `
/// before the first, `; ` between them), not items of their own. A parent
/// whose own text ends in `:` is a label for the list below it: its nested
/// items stay items. Entries must be in line order.
pub(super) fn fold_details(entries: &mut Vec<Entry>) {
    if entries.iter().all(|e| e.parent.is_none()) {
        return;
    }
    // The line of every list item read so far -> the entry holding its text
    // (its own, or the one it was folded into).
    let mut holder: rustc_hash::FxHashMap<u32, usize> = rustc_hash::FxHashMap::default();
    // Per kept entry: whether it is a label (text ending in `:`), and
    // whether it has details already.
    let mut shape: Vec<(bool, bool)> = Vec::with_capacity(entries.len());
    let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
    for e in entries.drain(..) {
        if e.check == Check::None
            && let Some(p) = e.parent
            && let Some(&i) = holder.get(&p)
            && !shape[i].0
        {
            let text = &mut out[i].text;
            text.push_str(if shape[i].1 { "; " } else { " — " });
            text.push_str(&e.text);
            shape[i].1 = true;
            holder.insert(e.line, i);
            continue;
        }
        holder.insert(e.line, out.len());
        shape.push((e.text.ends_with(':'), false));
        out.push(e);
    }
    *entries = out;
}

/// A level-2 heading starting with the word `Session`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionHeading {
    pub text: String,
    pub line: u32,
}

/// Any heading, with the role it gives its section.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadingInfo {
    pub level: u8,
    pub text: String,
    pub line: u32,
    pub role: Option<Role>,
    /// Index into `ParsedDoc::sessions` when this is a session heading.
    pub session: Option<usize>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParsedDoc {
    /// Entries in document order.
    pub entries: Vec<Entry>,
    pub sessions: Vec<SessionHeading>,
    /// Every heading in document order.
    pub headings: Vec<HeadingInfo>,
}

struct Frame {
    /// The bold lead-in right before the list, if any.
    lead: Option<Lead>,
    /// Its number among the list items of the document, in start order,
    /// and the number of the item it is nested in.
    id: usize,
    parent: Option<usize>,
    start: usize,
    text: Option<Range<usize>>,
    collecting: bool,
    seen_block: bool,
    in_quote: bool,
}

struct Section {
    level: u8,
    role: Option<Role>,
    session: Option<usize>,
}

/// The headings enclosing the current position (shared by the full parse
/// and the line-level extractor, so both assign roles and sessions alike).
#[derive(Default)]
pub(super) struct Sections(Vec<Section>);

impl Sections {
    /// Records a heading of `level` with its text (as the parser's text
    /// events give it) at `line`, and enters its section.
    pub(super) fn heading(
        &mut self,
        doc: &mut ParsedDoc,
        headings: &HeadingMatcher,
        level: u8,
        text: &str,
        line: u32,
    ) {
        while self.0.last().is_some_and(|s| s.level >= level) {
            self.0.pop();
        }
        let session = if level == 2 && is_session_heading(text) {
            doc.sessions.push(SessionHeading {
                text: text.trim().to_string(),
                line,
            });
            Some(doc.sessions.len() - 1)
        } else if level > 2 {
            self.session()
        } else {
            None
        };
        let role = headings.role_at(level, text);
        let own_session = (level == 2).then_some(session).flatten();
        doc.headings.push(HeadingInfo {
            level,
            text: text.trim().to_string(),
            line,
            role,
            session: own_session,
        });
        self.0.push(Section {
            level,
            role,
            session,
        });
        // A level-1 heading is the document's title, never an item.
        if level > 1
            && let Some(e) = heading_entry(text, line, self.session(), headings)
        {
            doc.entries.push(e);
        }
    }

    /// Role of the innermost enclosing heading that has one.
    pub(super) fn role(&self) -> Option<Role> {
        self.0.iter().rev().find_map(|s| s.role)
    }

    /// The session of the innermost enclosing heading.
    pub(super) fn session(&self) -> Option<usize> {
        self.0.last().and_then(|s| s.session)
    }
}

/// Maps byte offsets to 1-based line numbers, moving forward incrementally.
struct Lines<'a> {
    src: &'a [u8],
    offset: usize,
    line: u32,
}

impl Lines<'_> {
    fn line_of(&mut self, offset: usize) -> u32 {
        if offset < self.offset {
            self.offset = 0;
            self.line = 1;
        }
        let end = offset.min(self.src.len());
        self.line += self.src[self.offset..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u32;
        self.offset = end;
        self.line
    }
}

fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Link { .. }
            | Tag::Image { .. }
            | Tag::Superscript
            | Tag::Subscript
    )
}

/// Gives each entry holding a `[private]` placeholder the private mark of
/// the spans that open on its lines (from its first line up to the next
/// entry's), for the private-span guard.
pub(super) fn mark_private(doc: &mut ParsedDoc, spans: &[(u32, &str)]) {
    if spans.is_empty() {
        return;
    }
    let starts: Vec<u32> = doc.entries.iter().map(|e| e.line).collect();
    for (n, e) in doc.entries.iter_mut().enumerate() {
        if !e.text.contains(crate::privacy::REDACTED) {
            continue;
        }
        let end = starts.get(n + 1).copied().unwrap_or(u32::MAX);
        e.private = crate::guards::mark_of(
            spans
                .iter()
                .filter(|(line, _)| (e.line..end).contains(line))
                .map(|(_, s)| *s),
        );
    }
}

/// The pulldown-cmark walk over one document (the reference the line-level
/// extractor must match).
pub(crate) fn parse_exact(src: &str, headings: &HeadingMatcher) -> ParsedDoc {
    let blanked = blank_front_matter(src);
    let src = &*blanked;
    let opts = options();
    let mut doc = ParsedDoc::default();
    let mut frames: Vec<Frame> = Vec::new();
    let mut sections = Sections::default();
    let mut heading: Option<(u8, usize, String)> = None;
    let mut quote_depth = 0usize;
    let mut lines = Lines {
        src: src.as_bytes(),
        offset: 0,
        line: 1,
    };
    let mut finished: Vec<(Frame, Option<Role>, Option<usize>)> = Vec::new();
    // The bold lead-in paragraph, for the list that follows it.
    let mut lead: Option<Lead> = None;
    let mut items = 0usize;

    for (event, range) in Parser::new_ext(src, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                if frames.is_empty() {
                    lead = None;
                }
                if let Some(top) = frames.last_mut() {
                    top.collecting = false;
                    top.seen_block = true;
                }
                heading = Some((level as u8, range.start, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, start, text)) = heading.take() {
                    let line = lines.line_of(start);
                    sections.heading(&mut doc, headings, level, &text, line);
                }
            }
            Event::Text(t) | Event::Code(t) if heading.is_some() => {
                if let Some((_, _, text)) = heading.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::Start(Tag::Item) => {
                let parent = frames.last().map(|f| f.id);
                frames.push(Frame {
                    lead,
                    id: items,
                    parent,
                    start: range.start,
                    text: None,
                    collecting: true,
                    seen_block: false,
                    in_quote: quote_depth > 0,
                });
                items += 1;
            }
            Event::End(TagEnd::Item) => {
                if let Some(frame) = frames.pop() {
                    let (role, _) = Lead::role(frame.lead, sections.role());
                    finished.push((frame, role, sections.session()));
                }
            }
            Event::Start(Tag::Paragraph) => {
                if frames.is_empty() && quote_depth == 0 {
                    let para = &src[range.clone()];
                    let para = para.trim_end();
                    lead = if para.contains('\n') {
                        None
                    } else {
                        bold_lead(para, headings)
                    };
                }
                if let Some(top) = frames.last_mut() {
                    if top.text.is_some() || top.seen_block {
                        top.collecting = false;
                    }
                    top.seen_block = true;
                }
            }
            Event::End(TagEnd::Paragraph) => {
                if let Some(top) = frames.last_mut() {
                    top.collecting = false;
                }
            }
            Event::Start(Tag::BlockQuote(_)) => {
                if frames.is_empty() {
                    lead = None;
                }
                quote_depth += 1;
                block_start(&mut frames);
            }
            Event::End(TagEnd::BlockQuote(_)) => quote_depth = quote_depth.saturating_sub(1),
            Event::Start(tag) if is_inline(&tag) => extend(&mut frames, range),
            Event::Start(Tag::List(_)) => block_start(&mut frames),
            Event::Start(_) => {
                if frames.is_empty() {
                    lead = None;
                }
                block_start(&mut frames)
            }
            Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image
                | TagEnd::Superscript
                | TagEnd::Subscript,
            ) => extend(&mut frames, range),
            Event::End(_) => {}
            Event::Text(_)
            | Event::Code(_)
            | Event::InlineHtml(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::FootnoteReference(_)
            | Event::SoftBreak
            | Event::HardBreak
            | Event::TaskListMarker(_) => extend(&mut frames, range),
            Event::Rule => {
                if frames.is_empty() {
                    lead = None;
                }
            }
            Event::Html(_) => {}
        }
    }

    // An item indented with tabs can start (by its range) at the line break
    // before it: its line is the one of its first non-blank character.
    for (f, _, _) in &mut finished {
        let skip = src.as_bytes()[f.start.min(src.len())..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        f.start += skip;
    }
    finished.sort_by_key(|(f, _, _)| f.start);
    // The line of each item, by its number (a parent starts before the
    // items nested in it, so its line is known when they are met).
    let mut line_of_item: Vec<u32> = vec![0; items];
    for (frame, role, session) in finished {
        let line = lines.line_of(frame.start);
        line_of_item[frame.id] = line;
        let Some(text_range) = frame.text else {
            continue;
        };
        if let Some(mut e) = entry_from(
            src,
            text_range,
            frame.in_quote,
            line,
            role,
            session,
            headings,
        ) {
            e.parent = frame.parent.map(|p| line_of_item[p]);
            quiet_entry(&mut e, frame.lead == Some(Lead::Other));
            doc.entries.push(e);
        }
    }
    // Heading items were pushed as their headings were met.
    doc.entries.sort_by_key(|e| e.line);
    fold_details(&mut doc.entries);
    doc
}

/// The entry of a list item from its first paragraph as written (`None`
/// when nothing is left of its text).
pub(super) fn entry_from(
    src: &str,
    text: Range<usize>,
    in_quote: bool,
    line: u32,
    role: Option<Role>,
    session: Option<usize>,
    headings: &HeadingMatcher,
) -> Option<Entry> {
    let column = column_of(src, text.start);
    let joined = join_lines(&src[text], in_quote, column);
    entry_from_text(&joined, line, role, session, headings)
}

/// A heading (below level 1) that is itself a follow-up: a checkbox (`## [ ]
/// Rotate the keys`) or a `TODO` / `FIXME` keyword (`## TODO: rotate the
/// keys`) before its text. It is an item of the next role, on the heading's line.
fn heading_entry(
    text: &str,
    line: u32,
    session: Option<usize>,
    headings: &HeadingMatcher,
) -> Option<Entry> {
    let t = text.trim();
    let (check, _) = split_checkbox_with(t, &headings.markers);
    if check != Check::None {
        return entry_from_text(t, line, Some(Role::Next), session, headings);
    }
    for kw in ["TODO", "FIXME"] {
        if let Some(rest) = t.strip_prefix(kw)
            && (rest.starts_with(':') || rest.starts_with(char::is_whitespace))
        {
            let rest = rest.trim_start_matches(':').trim();
            if rest.is_empty() {
                return None;
            }
            return entry_from_text(
                &format!("TODO {rest}"),
                line,
                Some(Role::Next),
                session,
                headings,
            );
        }
    }
    None
}

/// What a bold lead-in paragraph says about the list right after it: a
/// line that is nothing but `**Label:**` (or `**Label**:`). Its label gives
/// the next role when it is a next phrase, or `For` / `Before` / `By` and a
/// day or horizon (`**For Monday:**`); any other label (`**Cause:**`) is
/// [`Lead::Other`].
pub(super) fn bold_lead(line: &str, headings: &HeadingMatcher) -> Option<Lead> {
    let t = line.trim();
    let inner = t.strip_prefix("**")?;
    let inner = inner
        .strip_suffix(":**")
        .or_else(|| inner.strip_suffix("**:"))
        .or_else(|| inner.strip_suffix("**").filter(|i| i.ends_with(':')))?;
    let label = inner.trim().trim_end_matches(':').trim();
    if label.is_empty() || label.contains('*') || label.contains('\n') {
        return None;
    }
    if headings.role_at(2, label) == Some(Role::Next) {
        return Some(Lead::Next);
    }
    let lower = label.to_lowercase();
    let Some(when) = ["for ", "before ", "by "]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .map(str::trim)
    else {
        return Some(Lead::Other);
    };
    const HORIZONS: &[&str] = &[
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tonight",
        "tomorrow",
        "this week",
        "next week",
        "the weekend",
        "next time",
        "later",
        "next session",
        "the next session",
    ];
    Some(
        if HORIZONS.contains(&when) || headings.role_at(2, when) == Some(Role::Next) {
            Lead::Next
        } else {
            Lead::Other
        },
    )
}

/// The entry of an item from its text, lines already joined.
fn entry_from_text(
    joined: &str,
    line: u32,
    role: Option<Role>,
    session: Option<usize>,
    headings: &HeadingMatcher,
) -> Option<Entry> {
    let (check, rest) = split_checkbox_with(joined, &headings.markers);
    let (tag, after_tag) = split_tag(rest);
    let tag_raw = tag
        .as_ref()
        .and_then(|_| rest.get(1..rest.find(')')?))
        .map(str::to_string);
    let (clean, meta) = crate::task_meta::parse_task_meta(after_tag.trim());
    let check = check.with_text_status(meta.status);
    let text = crate::privacy::redact(&clean).trim().to_string();
    if text.is_empty() {
        return None;
    }
    // Nothing but tags (a template's `- [ ] #waiting`): a placeholder,
    // counted as a non-task.
    let check = if only_tags(&text) {
        Check::NonTask
    } else {
        check
    };
    Some(Entry {
        line,
        check,
        tag,
        tag_raw,
        text,
        meta: (!meta.is_empty()).then(|| Box::new(meta)),
        // Set by `mark_private` (the text is redacted already).
        private: None,
        role,
        session,
        parent: None,
    })
}

/// Whether every word of `text` is a tag: `#`, then something that is not
/// only digits (`#12` names an issue, not a tag).
fn only_tags(text: &str) -> bool {
    text.split_whitespace().all(|w| {
        w.strip_prefix('#')
            .is_some_and(|t| t.chars().any(|c| !c.is_ascii_digit() && c != '#'))
    })
}

/// The text of a heading line parsed alone: its text and code events
/// joined, as the full parse collects it.
pub(super) fn heading_text(line: &str) -> String {
    let mut text = String::new();
    let mut inside = false;
    for event in Parser::new_ext(line, options()) {
        match event {
            Event::Start(Tag::Heading { .. }) => inside = true,
            Event::End(TagEnd::Heading(_)) => inside = false,
            Event::Text(t) | Event::Code(t) if inside => text.push_str(&t),
            _ => {}
        }
    }
    text
}

/// Front matter is blanked before the parse (`lines::blank_front_matter`):
/// the parser's metadata blocks, which it also opens in the middle of a
/// note, are off.
fn options() -> Options {
    Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES
}

fn block_start(frames: &mut [Frame]) {
    if let Some(top) = frames.last_mut() {
        top.collecting = false;
        top.seen_block = true;
    }
}

fn extend(frames: &mut [Frame], range: Range<usize>) {
    if let Some(top) = frames.last_mut()
        && top.collecting
    {
        top.text = Some(match top.text.take() {
            Some(r) => r.start.min(range.start)..r.end.max(range.end),
            None => range,
        });
    }
}

/// The column (tabs to the next multiple of 4) of byte `at` in its line.
fn column_of(src: &str, at: usize) -> usize {
    let start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    src[start..at].chars().fold(0, |col, c| {
        if c == '\t' {
            col + 4 - col % 4
        } else {
            col + 1
        }
    })
}

/// The indentation width of a line (tabs to the next multiple of 4).
fn indent_of(line: &str) -> usize {
    let mut col = 0;
    for c in line.chars() {
        match c {
            ' ' => col += 1,
            '\t' => col += 4 - col % 4,
            _ => break,
        }
    }
    col
}

/// Joins the source lines of a paragraph with single spaces, dropping
/// continuation indentation (and `>` markers inside block quotes).
///
/// The item's text ends at a lazy line (one indented less than the item's
/// text, `column`): a plain paragraph line written right after an item is
/// not part of it. Logseq drawers (`:LOGBOOK:` … `:END:`) are dropped, and
/// `SCHEDULED:` / `DEADLINE:` lines move to the end, where the task
/// metadata reads them as dates.
fn join_lines(raw: &str, in_quote: bool, column: usize) -> std::borrow::Cow<'_, str> {
    if memchr::memchr(b'\n', raw.as_bytes()).is_none() {
        // One line (the common item): nothing to join.
        return std::borrow::Cow::Borrowed(raw.trim());
    }
    let lines: Vec<&str> = raw.lines().collect();
    let mut out = String::with_capacity(raw.len());
    let mut dates: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let mut l = line.trim();
        if i > 0 && in_quote {
            l = l.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
        } else if i > 0 && !l.is_empty() && indent_of(line) < column {
            break;
        }
        if i > 0 && !in_quote {
            if opens_drawer(l)
                && let Some(end) = lines[i + 1..].iter().position(|x| x.trim() == ":END:")
            {
                i += end + 2;
                continue;
            }
            if l.starts_with("SCHEDULED:") || l.starts_with("DEADLINE:") {
                dates.push(l);
                i += 1;
                continue;
            }
        }
        i += 1;
        if l.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(l);
    }
    for d in dates {
        out.push(' ');
        out.push_str(d);
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_document;

    const LINES: &[&str] = &[
        "",
        "prose text here",
        "more prose",
        "- [ ] item a",
        "- [x] done b",
        "  continued",
        "## Next",
        "### Done",
        "## Session: s (p)",
        "Text",
        "===",
        "---",
        "```",
        "~~~",
        "> quote",
        "<div>",
        "</div>",
        "2. ordered",
        "1. first",
        "\u{a0}",
        "  - nested",
        "\t",
        "* star",
        "[ref]: http://x",
        "<!--",
        "-->",
        "    indented code",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        #[test]
        fn prose_pre_pass_changes_nothing(idx in proptest::collection::vec(0..LINES.len(), 0..40)) {
            let doc: String = idx.iter().map(|&i| format!("{}\n", LINES[i])).collect();
            let h = HeadingMatcher::from_config(&crate::config::Config::default());
            let a = parse_document(&doc, &h);
            let b = parse_exact(&doc, &h);
            proptest::prop_assert_eq!(a.entries, b.entries, "{:?}", doc);
            proptest::prop_assert_eq!(a.sessions, b.sessions);
        }
    }
}
