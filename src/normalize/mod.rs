//! The normalized form and the matching key of item texts, and their
//! similarity (docs/FORMAT.md §5).
//!
//! [`key`] is the one function every comparison goes through: dedup,
//! Done-list resolution, `route`'s `already_present`, `extract`'s
//! `persisted` and the hooks. The displayed text is never changed by it.

mod fold;
mod phrases;
mod stem;

pub use stem::stem;
use unicode_normalization::UnicodeNormalization;

/// Characters of a key that take part in the edit distance: longer keys are
/// compared on their first `COMPARED_CHARS` characters (the guards still see
/// the whole key), which bounds one comparison to a fixed cost.
pub const COMPARED_CHARS: usize = 256;

/// The matching key of a text: private spans removed entirely (raw
/// `<private>…</private>` and the `[private]` placeholder of redacted text),
/// task metadata removed (`task_meta`: Tasks emoji, Dataview fields, …),
/// then the normalized form ([`normalize`]), then words folded: follow-up
/// boilerplate at the start ("next session we should", "TODO:", "remember
/// to", "다음 세션에서", …) removed, articles dropped, Korean request
/// endings ("…하자", "…하기", "…할 것") and English inflections ("added",
/// "fixing", "wrote") folded, edge punctuation of words trimmed.
///
/// Keys are cut at [`KEY_CHARS`] characters (texts beyond 64 KB are read
/// only up to there). `key(key(x)) == key(x)`.
pub fn key(text: &str) -> String {
    let mut out = key_fixed_point(head_bytes(text, KEY_INPUT_BYTES));
    if out.chars().count() > KEY_CHARS {
        // Cut before the word the limit falls in (a piece of a word would
        // be a word of its own, perhaps a single letter).
        let head = compared_prefix(&out, KEY_CHARS);
        let mid_word = !out[head.len()..].starts_with(' ');
        let cut = match head.rfind(' ') {
            Some(at) if mid_word => &head[..at],
            _ => head,
        };
        out = key_fixed_point(cut);
    }
    out
}

/// Characters a key keeps at most (longer texts are keyed on their start).
pub const KEY_CHARS: usize = 4096;

/// Bytes of a text the key reads at most (enough for `KEY_CHARS`).
const KEY_INPUT_BYTES: usize = 64 * 1024;

/// The longest start of `text` of at most `max` bytes that ends on a character.
fn head_bytes(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut n = max;
    while !text.is_char_boundary(n) {
        n -= 1;
    }
    &text[..n]
}

fn key_fixed_point(text: &str) -> String {
    let (mut out, folded) = key_pass_certified(text);
    // The usual key is already a fixed point: the fold certifies its own
    // part, and `settled_given_fold` checks the steps before it, without
    // running a second pass.
    if folded && settled_given_fold(&out) {
        return out;
    }
    // One pass is almost always a fixed point; dropping a word can expose
    // more boilerplate or metadata, so repeat until nothing changes.
    for _ in 0..8 {
        let again = key_pass(&out);
        if again == out {
            break;
        }
        out = again;
    }
    out
}

fn key_pass(text: &str) -> String {
    key_pass_certified(text).0
}

/// One pass of the key, and whether the word folding certified its result
/// as a fixed point of the folding (see `fold::fold_certified`).
fn key_pass_certified(text: &str) -> (String, bool) {
    // Every private tag starts with `<`: most texts have none.
    let redacted = if text.as_bytes().contains(&b'<') {
        crate::privacy::redact(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let (plain, _) = crate::task_meta::parse_task_meta(&redacted);
    fold::fold_certified(&unplaced(&normalize(&plain)))
}

/// Whether `key_pass(k) == k` is certain, decided by reading `k` only
/// (false means "not known": the caller runs the pass). True only for ASCII
/// keys that every step of [`key_pass`] leaves as they are: no `<` (no
/// redaction), no task metadata (`parse_task_meta` returns `k`), already
/// normalized ([`normal_ascii`], which also rules out `[private]`), and a
/// fixed point of the word folding (`fold::settled_ascii`). Checked against
/// the pass itself in the tests.
#[cfg(test)]
fn settled(k: &str) -> bool {
    settled_given_fold(k) && fold::settled_ascii(k)
}

/// [`settled`] but for the word folding, which the caller knows of: the
/// steps of [`key_pass`] before it leave `k` as it is.
fn settled_given_fold(k: &str) -> bool {
    k.is_ascii()
        && normal_ascii(k)
        && !k.as_bytes().contains(&b'<')
        && *crate::task_meta::parse_task_meta(k).0 == *k
}

/// Whether [`normalize`] returns the ASCII text `t` unchanged: no marker
/// (`*`, `_`, backtick, `~`) and no `[`, no upper case, whitespace only as
/// single spaces between words, no trailing `.!;:`. Then `ascii_pass` copies
/// every byte and the repeat loop stops at once.
fn normal_ascii(t: &str) -> bool {
    let b = t.as_bytes();
    if b.first() == Some(&b' ')
        || b.last()
            .is_some_and(|c| matches!(c, b' ' | b'.' | b'!' | b';' | b':'))
    {
        return false;
    }
    let mut prev_space = false;
    for &c in b {
        match c {
            b'*' | b'_' | b'`' | b'~' | b'[' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => return false,
            b'A'..=b'Z' => return false,
            b' ' if prev_space => return false,
            _ => {}
        }
        prev_space = c == b' ';
    }
    true
}

/// `text` without `[private]` placeholders (removed until none is left).
fn unplaced(text: &str) -> std::borrow::Cow<'_, str> {
    const PLACEHOLDER: &str = crate::privacy::REDACTED;
    // The placeholder starts with `[`, which most keys lack.
    if !text.bytes().any(|b| b == b'[') || !text.contains(PLACEHOLDER) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    while out.contains(PLACEHOLDER) {
        out = out.replace(PLACEHOLDER, " ");
    }
    std::borrow::Cow::Owned(out)
}

/// The part of a key that the edit distance compares (see [`COMPARED_CHARS`]).
pub fn compared(key: &str) -> &str {
    compared_prefix(key, COMPARED_CHARS)
}

fn compared_prefix(key: &str, chars: usize) -> &str {
    if key.len() <= chars {
        // No more characters than bytes.
        return key;
    }
    match key.char_indices().nth(chars) {
        Some((at, _)) => &key[..at],
        None => key,
    }
}

/// The normalized form: NFC, lower-cased, emphasis/code markers removed,
/// links reduced to their labels, whitespace collapsed, trailing `.!;:` removed.
///
/// Markers go first (so `[a]*(b)` is a link), then links in one pass that
/// also reduces nested ones; passes repeat until the text is a fixed point,
/// `normalize(normalize(x)) == normalize(x)` (one pass for ordinary text).
pub fn normalize(text: &str) -> String {
    let mut out = one_pass(text);
    // A pass is the identity on text without `[` or `~~`; otherwise repeat
    // until nothing changes (reducing an inner link can complete an outer one).
    for _ in 0..64 {
        if !may_link_or_strike(&out) {
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

/// Whether `text` holds a `[` or `~~` (a plain loop: item texts are short,
/// and a searcher per call costs more than reading them).
fn may_link_or_strike(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'[' || (c == b'~' && b.get(i + 1) == Some(&b'~')))
}

fn one_pass(text: &str) -> String {
    if text.is_ascii() && !text.bytes().any(|b| b == b'[') {
        return ascii_pass(text);
    }
    general_pass(text)
}

/// `general_pass` for ASCII text without links, in one loop over the bytes
/// (the common case: checked equal to the general pass in the tests). Runs
/// of ordinary bytes are copied whole and lower-cased at the end.
fn ascii_pass(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut tildes = 0usize;
    let mut pending_space = false;
    let mut i = 0;
    while i < bytes.len() {
        let run = bytes[i..]
            .iter()
            .position(|&b| !ordinary(b))
            .unwrap_or(bytes.len() - i);
        if run > 0 {
            if tildes % 2 == 1 {
                push_spaced(&mut out, &mut pending_space, b'~');
            }
            tildes = 0;
            if std::mem::take(&mut pending_space) {
                out.push(b' ');
            }
            out.extend_from_slice(&bytes[i..i + run]);
            i += run;
            continue;
        }
        match bytes[i] {
            b'*' | b'_' | b'`' => {}
            b'~' => tildes += 1,
            // Whitespace (`ordinary` is true of every other byte).
            _ => {
                if tildes % 2 == 1 {
                    push_spaced(&mut out, &mut pending_space, b'~');
                }
                tildes = 0;
                pending_space = !out.is_empty();
            }
        }
        i += 1;
    }
    if tildes % 2 == 1 {
        push_spaced(&mut out, &mut pending_space, b'~');
    }
    while let Some(b'.' | b'!' | b';' | b':' | b' ') = out.last() {
        out.pop();
    }
    out.make_ascii_lowercase();
    // Only ASCII bytes were written, so this never replaces anything.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A byte `ascii_pass` copies as it is (before lower-casing): not a marker
/// (`*`, `_`, backtick, `~`) and not whitespace.
fn ordinary(b: u8) -> bool {
    /// `ordinary` of every byte, looked up (one load per byte).
    static ORDINARY: [bool; 256] = {
        let mut table = [true; 256];
        let special = [
            b'*', b'_', b'`', b'~', b' ', b'\t', b'\n', 0x0b, 0x0c, b'\r',
        ];
        let mut i = 0;
        while i < special.len() {
            table[special[i] as usize] = false;
            i += 1;
        }
        table
    };
    ORDINARY[usize::from(b)]
}

/// Pushes `b`, after the one space a run of whitespace before it left.
fn push_spaced(out: &mut Vec<u8>, pending_space: &mut bool, b: u8) {
    if std::mem::take(pending_space) {
        out.push(b' ');
    }
    out.push(b);
}

fn general_pass(text: &str) -> String {
    let composed: std::borrow::Cow<'_, str> = if text.is_ascii() {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.nfc().collect())
    };
    let unmarked = strip_markers(&composed);
    let delinked = strip_links(&unmarked);
    let mut out = String::with_capacity(delinked.len());
    let mut pending_space = false;
    for c in delinked.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
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
    if out.is_ascii()
        || unicode_normalization::is_nfc_quick(out.chars())
            == unicode_normalization::IsNormalized::Yes
    {
        out
    } else {
        out.nfc().collect()
    }
}

/// Removes `*`, `_` and backticks, then `~~` pairs (left to right in each
/// run of tildes, so at most one tilde of a run remains), and turns every
/// whitespace character into a space.
fn strip_markers(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['*', '_', '`', '~'])
        && !text.contains(|c: char| c.is_whitespace() && c != ' ')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut tildes = 0usize;
    for c in text.chars() {
        let c = if c.is_whitespace() { ' ' } else { c };
        match c {
            '*' | '_' | '`' => {}
            '~' => tildes += 1,
            _ => {
                if tildes % 2 == 1 {
                    out.push('~');
                }
                tildes = 0;
                out.push(c);
            }
        }
    }
    if tildes % 2 == 1 {
        out.push('~');
    }
    std::borrow::Cow::Owned(out)
}

/// Finds an ASCII needle at or after a position, remembering its last answer
/// so that a left-to-right scan costs linear time in total.
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
/// `[label](url)` with `label`, innermost first, in one linear pass with a
/// stack of open brackets. Anything else is kept as written. Runs after
/// whitespace is collapsed, so a link never depends on where lines broke.
fn strip_links(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('[') {
        return std::borrow::Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut paren = Finder::new(text, ")");
    let mut out = String::with_capacity(text.len());
    // (is a wiki link, position of its opening bracket in `out`)
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' => {
                let wiki = b.get(i + 1) == Some(&b'[');
                open.push((wiki, out.len()));
                let width = if wiki { 2 } else { 1 };
                out.push_str(&text[i..i + width]);
                i += width;
            }
            b']' if b.get(i + 1) == Some(&b']') && open.last().is_some_and(|o| o.0) => {
                let (_, at) = open.pop().unwrap_or_default();
                let body = out.split_off(at);
                let body = &body[2..];
                out.push_str(body.split_once('|').map_or(body, |(_, label)| label));
                i += 2;
            }
            b']' if b.get(i + 1) == Some(&b'(') && open.last().is_some_and(|o| !o.0) => {
                match paren.find_from(i + 2) {
                    Some(close) => {
                        let (_, at) = open.pop().unwrap_or_default();
                        let label = out.split_off(at);
                        out.push_str(&label[1..]);
                        i = close + 1;
                    }
                    None => {
                        out.push(']');
                        i += 1;
                    }
                }
            }
            _ => {
                let next = text[i..].find(['[', ']']).map_or(b.len(), |n| i + n);
                let next = if next == i { i + 1 } else { next };
                out.push_str(&text[i..next]);
                i = next;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `strsim::normalized_levenshtein` of the compared parts of two keys,
/// computed with a bit-parallel Levenshtein (the same value: checked in the
/// tests against strsim).
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (compared(a), compared(b));
    if a == b {
        return 1.0;
    }
    let max = a.chars().count().max(b.chars().count());
    let d = rapidfuzz::distance::levenshtein::distance(a.chars(), b.chars());
    1.0 - (d as f64) / (max as f64)
}

/// Whether a pair of texts whose character counts are `a` and `b` can reach
/// `threshold`: Levenshtein distance is at least the length difference, so
/// `min/max >= threshold` is necessary.
pub fn lengths_compatible(a: usize, b: usize, threshold: f64) -> bool {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    hi == 0 || (lo as f64) >= threshold * (hi as f64) - 1e-9
}

#[cfg(test)]
mod tests;
