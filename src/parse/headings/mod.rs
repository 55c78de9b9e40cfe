//! Heading roles and session headings (docs/FORMAT.md §2.2 and §3).

/// What a section collects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Next,
    Done,
    Skipped,
    Goal,
}

/// Next phrases that give a heading the next role wherever they occur in it
/// (on word boundaries), not only at its start: "Live follow-ups",
/// "Technical Todos for Future Sessions". Each counts only while the
/// configured next list holds it.
const NEXT_ANYWHERE: &[&str] = &[
    "follow-ups",
    "follow ups",
    "follow-up",
    "followups",
    "next steps",
    "next session",
    "todos",
    "to-dos",
    "action items",
    "not done yet",
    "carried forward",
    "다음 세션",
    "할 일",
];

/// Whether `c` is kept by heading normalization (letters, digits, spaces and
/// the punctuation that can separate a qualifier or belong to a phrase).
fn kept(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c.is_whitespace() || b"'-()&:/.,!?".contains(&(c as u8))
    } else {
        c.is_alphanumeric() || c.is_whitespace() || c == '—' || c == '–'
    }
}

/// Letters and digits that form words; CJK ideographs and kana do not need
/// spaces between words, so they never block a word boundary.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        && !matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// `fold` of `normalize_heading` on each ASCII byte, lower-cased: the byte
/// itself when `kept`, else a space (every whitespace byte is one too, as
/// only a run of whitespace matters). Bytes from 128 up are never looked up.
const ASCII_FOLD: [u8; 256] = {
    let mut t = [b' '; 256];
    let mut b = 0;
    while b < 128 {
        let c = (b as u8).to_ascii_lowercase();
        let punct = matches!(
            c,
            b'\'' | b'-' | b'(' | b')' | b'&' | b':' | b'/' | b'.' | b',' | b'!' | b'?'
        );
        if c.is_ascii_alphanumeric() || punct {
            t[b] = c;
        }
        b += 1;
    }
    t
};

/// Heading text normalized for matching against the role lists: width and
/// compatibility forms folded (NFKC), lower-cased, emoji, symbols and
/// Markdown markers dropped, a trailing qualifier removed (`(…)` at the end,
/// or anything after ` — `, ` – `, ` - ` or `:`), trailing punctuation removed
/// and whitespace collapsed.
pub(super) fn normalize_heading(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let text = &*strip_shortcodes(text);
    let fold = |c: char| {
        let c = if c == '\u{2019}' { '\'' } else { c };
        if kept(c) { c } else { ' ' }
    };
    // Whitespace runs collapse to one space, none at either end.
    let mut s = String::with_capacity(text.len());
    let mut space = false;
    let mut push = |c: char| {
        if c.is_whitespace() {
            space = !s.is_empty();
        } else {
            if space {
                s.push(' ');
                space = false;
            }
            s.push(c);
        }
    };
    // NFKC is the identity on ASCII: skip it for the common heading, and
    // fold it a byte at a time through a table.
    if text.is_ascii() {
        text.bytes()
            .map(|b| char::from(ASCII_FOLD[usize::from(b)]))
            .for_each(&mut push);
    } else {
        text.nfkc()
            .flat_map(char::to_lowercase)
            .map(fold)
            .for_each(&mut push);
    }
    loop {
        let before = s.len();
        for sep in [" — ", " – ", " - ", ":"] {
            if let Some(pos) = find_sep(&s, sep)
                && pos > 0
            {
                s.truncate(pos);
            }
        }
        let t = s.trim_end_matches(|c: char| c.is_whitespace() || ".,!?;—–-".contains(c));
        s.truncate(t.len());
        if s.ends_with(')')
            && let Some(open) = s.rfind('(')
            && open > 0
        {
            s.truncate(open);
        }
        let t = s.trim_end();
        s.truncate(t.len());
        if s.len() == before {
            break;
        }
    }
    s
}

/// The text without icon and emoji shortcodes (`:LiListTodo:`, `:rocket:`):
/// a word of letters, digits, `_`, `+` or `-` between colons, standing alone.
fn strip_shortcodes(text: &str) -> std::borrow::Cow<'_, str> {
    if memchr::memchr(b':', text.as_bytes()).is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    let words: Vec<&str> = text.split(' ').collect();
    let is_code = |w: &str| {
        w.len() > 2
            && w.starts_with(':')
            && w.ends_with(':')
            && w[1..w.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-'))
    };
    if !words.iter().any(|w| is_code(w)) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        words
            .into_iter()
            .filter(|w| !is_code(w))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The first occurrence of a qualifier separator (`:` or a dash between
/// spaces): `memchr` to each of its characters after the leading space.
fn find_sep(s: &str, sep: &str) -> Option<usize> {
    let at = usize::from(sep.starts_with(' '));
    let b = s.as_bytes();
    memchr::memchr_iter(sep.as_bytes()[at], b)
        .filter_map(|i| i.checked_sub(at))
        .find(|&start| b[start..].starts_with(sep.as_bytes()))
}

/// Whether `phrase` occurs in `h` at byte `at` with word boundaries around it.
fn at_boundary(h: &str, at: usize, phrase: &str) -> bool {
    let before = h[..at].chars().next_back();
    let after = h[at + phrase.len()..].chars().next();
    let first = phrase.chars().next();
    let last = phrase.chars().next_back();
    let clear = |x: Option<char>, y: Option<char>| match (x, y) {
        (Some(x), Some(y)) => !(is_word_char(x) && is_word_char(y)),
        _ => true,
    };
    clear(before, first) && clear(last, after)
}

fn starts_with_phrase(h: &str, phrase: &str) -> bool {
    !phrase.is_empty() && h.starts_with(phrase) && at_boundary(h, 0, phrase)
}

/// Whether `phrase` occurs in `h` on word boundaries (occurrences found
/// left to right without overlap, by `memchr` to the phrase's first byte).
fn contains_phrase(h: &str, phrase: &str) -> bool {
    let (hb, pb) = (h.as_bytes(), phrase.as_bytes());
    let Some(&first) = pb.first() else {
        return true;
    };
    let mut from = 0;
    while let Some(off) = memchr::memchr(first, &hb[from..]) {
        let at = from + off;
        if hb[at..].starts_with(pb) {
            if at_boundary(h, at, phrase) {
                return true;
            }
            from = at + pb.len();
        } else {
            from = at + 1;
        }
    }
    false
}

/// The configured heading lists, normalized once.
#[derive(Debug, Clone, Default)]
pub struct HeadingMatcher {
    /// Every phrase with its role, longest first (so the longest phrase a
    /// heading starts with decides).
    phrases: Vec<(String, Role)>,
    /// For each first byte, the indices into `phrases` of the phrases that
    /// start with it, in `phrases` order (a heading is compared only with
    /// those: 256 lists, or none while `phrases` is empty).
    by_first: Vec<Vec<usize>>,
    /// Next phrases that count anywhere in a heading.
    anywhere: Vec<String>,
    /// The checkbox status map.
    pub(crate) markers: super::StatusMap,
}

impl HeadingMatcher {
    pub fn new(next: &[String], done: &[String], skipped: &[String], goal: &[String]) -> Self {
        let mut phrases: Vec<(String, Role)> = Vec::new();
        for (list, role) in [
            (next, Role::Next),
            (done, Role::Done),
            (skipped, Role::Skipped),
            (goal, Role::Goal),
        ] {
            for h in list {
                let n = normalize_heading(h);
                if !n.is_empty() && !phrases.iter().any(|(p, _)| *p == n) {
                    phrases.push((n, role));
                }
            }
        }
        // Stable: among equally long phrases the role order above decides.
        phrases.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        let anywhere = NEXT_ANYWHERE
            .iter()
            .map(|p| normalize_heading(p))
            .filter(|p| phrases.iter().any(|(q, r)| q == p && *r == Role::Next))
            .collect();
        let mut by_first = vec![Vec::new(); 256];
        for (n, (p, _)) in phrases.iter().enumerate() {
            if let Some(&b) = p.as_bytes().first() {
                by_first[usize::from(b)].push(n);
            }
        }
        HeadingMatcher {
            by_first,
            phrases,
            anywhere,
            markers: super::StatusMap::default(),
        }
    }

    pub fn from_config(cfg: &crate::config::Config) -> Self {
        let mut m = Self::new(
            &cfg.next_headings,
            &cfg.done_headings,
            &cfg.skipped_headings,
            &cfg.goal_headings,
        );
        m.markers = super::StatusMap {
            open: cfg.status_open.clone(),
            in_progress: cfg.status_in_progress.clone(),
            flagged: cfg.status_flagged.clone(),
            forwarded: cfg.status_forwarded.clone(),
            done: cfg.status_done.clone(),
            cancelled: cfg.status_cancelled.clone(),
        };
        m
    }

    /// The role of a heading: the longest configured phrase its normalized
    /// text starts with (on a word boundary), else next when it holds one of
    /// the few unambiguous next phrases anywhere.
    pub fn role(&self, heading: &str) -> Option<Role> {
        self.role_at(2, heading)
    }

    /// `role` for a heading of `level`: a level-1 heading is a document
    /// title ("# infra todos"), so only its start counts, never a phrase
    /// inside it.
    pub fn role_at(&self, level: u8, heading: &str) -> Option<Role> {
        let (start, anywhere) = self.says(heading);
        start.or((level > 1 && anywhere).then_some(Role::Next))
    }

    /// What a heading text says, whatever its level: the role of the
    /// longest configured phrase it starts with, and whether it holds one
    /// of the next phrases that count anywhere.
    fn says(&self, heading: &str) -> (Option<Role>, bool) {
        let h = normalize_heading(heading);
        if h.is_empty() {
            return (None, false);
        }
        // Only phrases with the heading's first byte can start it.
        if let Some(list) = self.by_first.get(usize::from(h.as_bytes()[0])) {
            let found = list
                .iter()
                .map(|&n| &self.phrases[n])
                .find(|(p, _)| starts_with_phrase(&h, p));
            if let Some((_, role)) = found {
                return (Some(*role), false);
            }
        }
        (None, self.anywhere.iter().any(|p| contains_phrase(&h, p)))
    }
}

/// Whether a level-2 heading's text starts with the word `Session` or `세션`.
pub(super) fn is_session_heading(text: &str) -> bool {
    let t = text.trim_start();
    for word in ["session", "세션"] {
        let Some(head) = t.get(..word.len()) else {
            continue;
        };
        if head.eq_ignore_ascii_case(word) || head == word {
            let next = t[word.len()..].chars().next();
            if next.is_none_or(|c| !c.is_alphanumeric()) {
                return true;
            }
        }
    }
    false
}

/// The project a session heading names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionProject {
    Project(String),
    NoProject,
    Ambiguous,
}

/// Derives a session heading's project: a trailing `(slug)`, else the one known
/// project slug occurring in it as a whole word.
pub fn session_project(heading: &str, known: &[String]) -> SessionProject {
    if is_project_list(known) {
        return session_project_in(heading, known);
    }
    // Any other list: every project searched for in the heading.
    if let Some(slug) = trailing_slug(heading) {
        return SessionProject::Project(slug);
    }
    let lower = heading.trim_end().to_ascii_lowercase();
    let mut found: Option<&String> = None;
    for project in known {
        if contains_word(&lower, project) {
            if found.is_some() {
                return SessionProject::Ambiguous;
            }
            found = Some(project);
        }
    }
    found.map_or(SessionProject::NoProject, |p| {
        SessionProject::Project(p.clone())
    })
}

/// A trailing `(slug)`, lower-cased.
fn trailing_slug(heading: &str) -> Option<String> {
    let body = heading.trim_end().strip_suffix(')')?;
    let slug = &body[body.rfind('(')? + 1..];
    crate::item::is_slug(slug).then(|| slug.to_ascii_lowercase())
}

/// Whole-word occurrence of a slug: not touching other slug characters,
/// except that a `.` followed by a non-slug character (sentence end) is a boundary.
fn contains_word(hay: &str, word: &str) -> bool {
    let bytes = hay.as_bytes();
    let is_slug_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.');
    let mut from = 0;
    while let Some(pos) = hay[from..].find(word) {
        let start = from + pos;
        let end = start + word.len();
        let before_ok = start == 0 || !is_slug_byte(bytes[start - 1]);
        let after_ok = match bytes.get(end) {
            None => true,
            Some(b'.') => bytes.get(end + 1).is_none_or(|&b| !is_slug_byte(b)),
            Some(&b) => !is_slug_byte(b),
        };
        if before_ok && after_ok {
            return true;
        }
        from = start + 1;
        while !hay.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

/// [`session_project`] over a project list as discovery gives it
/// ([`is_project_list`]: strictly sorted slugs): each word of the heading is
/// looked up by binary search, instead of every project being searched for
/// in the heading.
pub fn session_project_in(heading: &str, known: &[String]) -> SessionProject {
    debug_assert!(is_project_list(known), "not a project list");
    if let Some(slug) = trailing_slug(heading) {
        return SessionProject::Project(slug);
    }
    let lower = heading.trim_end().to_ascii_lowercase();
    let mut found: Option<&String> = None;
    for word in lower.split(|c: char| !is_slug_char(c)) {
        // A whole word: the run of slug characters itself, or the run
        // without the one `.` that ends a sentence.
        let bare = word.strip_suffix('.').filter(|w| !w.is_empty());
        for candidate in std::iter::once(word).chain(bare) {
            let Some(project) = find_project(known, candidate) else {
                continue;
            };
            match found {
                Some(f) if f != project => return SessionProject::Ambiguous,
                _ => found = Some(project),
            }
        }
    }
    found.map_or(SessionProject::NoProject, |p| {
        SessionProject::Project(p.clone())
    })
}

/// Whether `known` is strictly sorted and holds only slugs (what
/// `Discovery::projects` guarantees and [`session_project`] relies on).
pub fn is_project_list(known: &[String]) -> bool {
    known.windows(2).all(|w| w[0] < w[1]) && known.iter().all(|k| crate::item::is_slug(k))
}

/// The project named `slug` in a project list (binary search).
pub fn find_project<'a>(known: &'a [String], slug: &str) -> Option<&'a String> {
    if slug.is_empty() {
        return None;
    }
    known
        .binary_search_by(|k| k.as_str().cmp(slug))
        .ok()
        .map(|i| &known[i])
}

fn is_slug_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

#[cfg(test)]
mod tests;
