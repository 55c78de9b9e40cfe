//! Compaction summaries: the pending / next-step sections, and the later lines
//! that report one of their items done.
//!
//! A summary is split into sections at lines with no indentation that are a
//! Markdown heading, or a short title ending in `:` (optionally numbered:
//! `7. Pending Tasks:`). A section whose title holds one of [`SECTIONS`] gives
//! its list items (the shallowest ones; nested items stay with their parent), or,
//! with no list, the first sentence of its text, as candidates. Items that say
//! there is nothing pending (`None`) are dropped.

use super::keywords::list_item_body;
use super::markers::tidy_item;

/// Section titles (lowercase) whose items are carried.
const SECTIONS: &[&str] = &[
    "pending task",
    "next step",
    "remaining work",
    "remaining task",
    "open item",
    "open question",
    "follow-up",
    "todo",
    "to do",
    "unfinished",
    "다음 단계",
    "남은 작업",
    "次のステップ",
    "残タスク",
    "下一步",
    "待办",
    "prochaine",
    "nächste",
    "próximo",
];

/// The opening sentence Claude Code writes at the top of a compaction summary.
pub(crate) const OPENING: &str = "This session is being continued from a previous conversation";

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The section title of a top-level line, lowercased, and the text after its colon.
fn title(line: &str) -> Option<(String, &str)> {
    if indent_of(line) > 0 {
        return None;
    }
    let t = line.trim();
    if let Some(h) = t.strip_prefix('#') {
        let h = h.trim_start_matches('#');
        return h
            .starts_with([' ', '\t'])
            .then(|| (h.trim().trim_matches(['*', ':']).to_lowercase(), ""));
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let t = if digits > 0 {
        t[digits..].strip_prefix(['.', ')'])?.trim_start()
    } else {
        t
    };
    let t = t.trim_start_matches(['*', '_']);
    let colon = t.find(':')?;
    let name = t[..colon].trim_end_matches(['*', '_']).trim();
    if name.is_empty() || name.contains(['.', '!', '?']) || name.split_whitespace().count() > 5 {
        return None;
    }
    let rest = t[colon + 1..].trim_start_matches(['*', '_']).trim();
    Some((name.to_lowercase(), rest))
}

fn is_nothing(text: &str) -> bool {
    let t = text.trim().trim_end_matches('.').to_lowercase();
    t.is_empty()
        || t == "none"
        || t == "n/a"
        || t == "nothing"
        || t.starts_with("none ")
        || t.starts_with("none,")
        || t.starts_with("no pending")
        || t.starts_with("no explicit")
        || t.starts_with("no remaining")
        || t.starts_with("nothing pending")
}

/// The first sentence of `text`, bold markers removed.
fn first_sentence(text: &str) -> String {
    let t = text.replace("**", "");
    let end = t
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '.' | '!' | '?' | '。')
                && t[i + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
        })
        .map_or(t.len(), |(i, _)| i);
    tidy_item(&t[..end])
}

/// Candidates of a summary: `(text, section title, 0-based line within the summary)`.
pub(crate) fn items(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut section: Option<String> = None;
    let mut base: Option<usize> = None;
    let mut prose: Option<String> = None;
    // Under a Markdown heading, only another heading ends the section.
    let mut under_heading = false;
    let flush = |section: &Option<String>,
                 prose: &mut Option<String>,
                 base: Option<usize>,
                 out: &mut Vec<(String, String)>| {
        if let (Some(name), Some(p), None) = (section, prose.take(), base) {
            let s = first_sentence(&p);
            if !is_nothing(&s) {
                out.push((s, name.clone()));
            }
        }
    };
    for line in text.lines() {
        let is_heading = line.starts_with('#');
        if let Some((name, rest)) =
            title(line).filter(|_| is_heading || !under_heading || section.is_none())
        {
            under_heading = is_heading;
            flush(&section, &mut prose, base, &mut out);
            base = None;
            section = SECTIONS.iter().any(|s| name.contains(s)).then_some(name);
            prose = (!rest.is_empty()).then(|| rest.to_string());
            continue;
        }
        let Some(name) = &section else { continue };
        let ind = indent_of(line);
        if let Some(body) = list_item_body(line) {
            match base {
                Some(b) if ind > b => {}
                _ => {
                    base = Some(ind);
                    let s = first_sentence(body);
                    if !is_nothing(&s) {
                        out.push((s, name.clone()));
                    }
                }
            }
        } else if base.is_none() && !line.trim().is_empty() && prose.is_none() {
            prose = Some(line.trim().to_string());
        }
    }
    flush(&section, &mut prose, base, &mut out);
    // A next step that repeats a pending task is one item.
    let mut kept: Vec<(String, String)> = Vec::new();
    for (text, name) in out {
        if !kept.iter().any(|(k, _)| same_task(k, &text)) {
            kept.push((text, name));
        }
    }
    kept
}

/// Done words that name an action of their own ("added", "fixed", …); a
/// done report uses these or a word of [`FINISHED`].
const ACTION_DONE: &[&str] = &[
    "committed",
    "fixed",
    "implemented",
    "shipped",
    "merged",
    "landed",
    "added",
    "updated",
    "filled",
];

/// Done words that report any work finished.
const FINISHED: &[&str] = &[
    "done",
    "completed",
    "complete",
    "finished",
    "resolved",
    "✅",
    "완료",
    "完了",
    "完成",
    "terminé",
    "erledigt",
    "hecho",
];

/// Every word a done report uses: [`FINISHED`] and [`ACTION_DONE`].
fn done_words() -> impl Iterator<Item = &'static str> {
    FINISHED.iter().chain(ACTION_DONE).copied()
}

/// Whether a done line reports the work of a task opening with the step verb
/// `verb`: it holds a word of [`FINISHED`], the verb itself in any form
/// ("granted" for "grant"), or it is a task without a step verb. "Added the
/// Accessibility permission check" does not report "Grant the Accessibility
/// permission in System Settings".
pub(crate) fn verb_agrees(verb: Option<&str>, words: &[String]) -> bool {
    let Some(verb) = verb else { return true };
    let stem = verb.trim_end_matches('e');
    words.iter().any(|w| {
        FINISHED
            .iter()
            .any(|f| w == f || (!f.is_ascii() && w.contains(f)))
            || (stem.len() >= 3 && w.starts_with(stem))
    }) || !done_words().any(|d| words.iter().any(|w| w == d))
}

/// The step verb a task opens with, lowercased ("grant" in "Grant the
/// permission"); `None` when it opens otherwise.
pub(crate) fn lead_verb(text: &str) -> Option<String> {
    let t = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    super::steps::step_verb(t).then(|| {
        t.split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("")
            .to_lowercase()
    })
}

/// Common words of four letters or more that name no task.
#[rustfmt::skip]
const COMMON: &[&str] = &[
    "them", "they", "this", "that", "these", "those", "with", "from", "into", "your", "have",
    "will", "then", "when", "what", "also", "some", "just", "only", "more", "there", "their",
    "here", "were", "been", "should", "would", "could", "about", "after", "before",
];

/// The words of four or more letters of a task text, lowercased, without
/// [`COMMON`] words.
pub(crate) fn significant(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .filter(|w| w.chars().count() >= 4)
        .map(str::to_lowercase)
        .filter(|w| !COMMON.contains(&w.as_str()))
        .collect()
}

/// The lowercased words of each line of `text` that holds a done word.
pub(crate) fn done_lines(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    static DONE_WORDS: std::sync::LazyLock<aho_corasick::AhoCorasick> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(done_words())
                .expect("the done words build an automaton")
        });
    // An ASCII text is searched as it is (the automaton ignores ASCII case);
    // any other is lowercased first, as the words are.
    let found = if text.is_ascii() {
        DONE_WORDS.is_match(text)
    } else {
        DONE_WORDS.is_match(&text.to_lowercase())
    };
    if !found {
        return out;
    }
    for line in text.lines() {
        let lower = line.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_' && c != '✅')
            .filter(|w| !w.is_empty())
            .collect();
        let has_done =
            done_words().any(|d| words.contains(&d) || (!d.is_ascii() && lower.contains(d)));
        if has_done {
            out.push(words.into_iter().map(str::to_string).collect());
        }
    }
    out
}

/// Whether a done line (see [`done_lines`]) holds at least half of `wanted`
/// (an item's [`significant`] words).
pub(crate) fn covers(wanted: &[String], words: &[String]) -> bool {
    let have = wanted.iter().filter(|w| words.contains(w)).count();
    !wanted.is_empty() && have * 2 >= wanted.len()
}

/// The [`significant`] words of each step of a task that joins steps with
/// `and <step verb>` or `, then` ("Build the program and copy its IDL to
/// app/" is two steps); a single step gives one part.
pub(crate) fn parts(text: &str) -> Vec<Vec<String>> {
    let lower = super::lower::lower(text);
    let mut cuts = vec![0];
    for sep in [" and ", ", then ", "; then "] {
        for (i, _) in lower.match_indices(sep) {
            let rest = &text[i + sep.len()..];
            if sep != " and " || super::steps::step_verb(rest) {
                cuts.push(i);
            }
        }
    }
    cuts.sort_unstable();
    cuts.push(text.len());
    cuts.windows(2)
        .map(|w| significant(&text[w[0]..w[1]]))
        .filter(|p| !p.is_empty())
        .collect()
}

/// Whether a done line covers every step of a task ([`parts`]): a short,
/// loose line ("I built the program") does not settle a longer task ("Build
/// the program and copy its IDL to app/").
pub(crate) fn covers_parts(parts: &[Vec<String>], words: &[String]) -> bool {
    !parts.is_empty() && parts.iter().all(|p| covers(p, words))
}

/// Whether `line` reports `item` done: it holds a done word and at least half
/// of the item's words of four or more letters.
#[cfg(test)]
pub(crate) fn reports_done(item: &str, line: &str) -> bool {
    let wanted = parts(item);
    let verb = lead_verb(item);
    done_lines(line)
        .iter()
        .any(|w| covers_parts(&wanted, w) && verb_agrees(verb.as_deref(), w))
}

/// Whether a finished agent todo settles a summary item: the todo holds at
/// least half of the item's words of four or more letters. A short, generic
/// todo ("Run tests") does not settle a longer item ("Run tests to verify the
/// latest change passes") by one shared word.
pub(crate) fn todo_settles(item: &str, todo: &str) -> bool {
    let wanted = significant(item);
    if wanted.is_empty() {
        return item.trim().eq_ignore_ascii_case(todo.trim());
    }
    covers(&wanted, &significant(todo))
}

/// Whether two task texts name the same task: at least half of the words of
/// four or more letters of the shorter one appear in the other.
pub(crate) fn same_task(a: &str, b: &str) -> bool {
    same_task_words((a, &significant(a)), (b, &significant(b)))
}

/// [`same_task`] on texts whose [`significant`] words are already known (a
/// text checked against many keeps its words once).
pub(crate) fn same_task_words((a, wa): (&str, &[String]), (b, wb): (&str, &[String])) -> bool {
    let (short, long) = if wa.len() <= wb.len() {
        (wa, wb)
    } else {
        (wb, wa)
    };
    if short.is_empty() {
        return a.trim().eq_ignore_ascii_case(b.trim());
    }
    let have = short.iter().filter(|w| long.contains(w)).count();
    have * 2 >= short.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_words_are_lowercase_so_case_blind_search_agrees() {
        for d in done_words() {
            assert_eq!(d, d.to_lowercase(), "{d}");
        }
        assert_eq!(done_lines("Tests DONE for the parser").len(), 1);
        assert_eq!(done_lines("ÉTAPE TERMINÉ").len(), 1);
    }

    const SUMMARY: &str = "This session is being continued from a previous conversation that ran out of context.\n\
Analysis:\nLots of prose. Next steps: not this one.\n\n\
Summary:\n1. Primary Request and Intent:\n   Make the parser strict.\n\
7. Pending Tasks:\n   - **Add a fuzz target for the lexer** — asked twice.\n   - Update the changelog\n     - nested detail\n\
8. Current Work:\n   Was editing src/lex.rs.\n\
9. Optional Next Step:\n   Run the benchmark again. Then report.\n";

    #[test]
    fn pending_and_next_step_sections() {
        let got = items(SUMMARY);
        let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Add a fuzz target for the lexer — asked twice",
                "Update the changelog",
                "Run the benchmark again"
            ]
        );
        assert_eq!(got[0].1, "pending tasks");
    }

    #[test]
    fn nothing_pending() {
        assert!(items("7. Pending Tasks:\n   - None.\n9. Optional Next Step: None").is_empty());
        let got = items("## Next Steps\n1. Read the docs\n   1. sub\n2. Commit:\n");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn done_reports() {
        assert!(reports_done(
            "Update the changelog",
            "The changelog update is done."
        ));
        assert!(!reports_done(
            "Update the changelog",
            "The changelog is next."
        ));
        assert!(!reports_done(
            "Add a fuzz target for the lexer",
            "Done with the parser."
        ));
        // A short, loose line does not settle a longer step.
        assert!(!reports_done(
            "Build the Anchor program and copy its IDL to app/",
            "ok I built the anchor program"
        ));
        assert!(reports_done(
            "Build the Anchor program and copy its IDL to app/",
            "Built the anchor program: done, and the IDL copy is in app/."
        ));
        // A done word naming another action does not report the step.
        let grant = "Grant the Accessibility permission in System Settings";
        assert!(!reports_done(
            grant,
            "Added the Accessibility permission check to the System Settings pane."
        ));
        assert!(reports_done(
            grant,
            "I granted the Accessibility permission in System Settings, done."
        ));
        assert!(reports_done("Add a fuzz target", "Added the fuzz target."));
    }

    #[test]
    fn todos_that_settle_items() {
        let item = "Run tests to verify the latest change passes";
        assert!(!todo_settles(item, "Run tests"));
        assert!(todo_settles(
            item,
            "Verify the latest change with the tests"
        ));
        assert!(todo_settles("Update the changelog", "Update changelog"));
    }
}
