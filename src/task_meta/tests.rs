use super::*;
use jiff::civil::date;

fn parse(s: &str) -> (String, TaskMeta) {
    let (t, m) = parse_task_meta(s);
    (t.into_owned(), m)
}

#[test]
fn plain_text_is_borrowed_and_empty() {
    let (t, m) = parse_task_meta("fix the lock race");
    assert!(matches!(t, Cow::Borrowed("fix the lock race")));
    assert!(m.is_empty());
    let (t, m) = parse("Session: fix it (see notes)");
    assert_eq!(t, "Session: fix it (see notes)");
    assert!(m.is_empty());
}

#[test]
fn obsidian_tasks_emoji_in_any_order() {
    let (t, m) = parse("Fix login 📅 2026-05-10 ⏫ ➕ 2026-05-01 🛫 2026-05-02 ⏳2026-05-03");
    assert_eq!(t, "Fix login");
    assert_eq!(m.due, Some(date(2026, 5, 10)));
    assert_eq!(m.priority, Some(Priority::High));
    assert_eq!(m.created, Some(date(2026, 5, 1)));
    assert_eq!(m.start, Some(date(2026, 5, 2)));
    assert_eq!(m.scheduled, Some(date(2026, 5, 3)));
    let (t, m) = parse("Write docs ⏫ 📅 2026-05-10");
    assert_eq!(
        (t.as_str(), m.due, m.priority),
        ("Write docs", Some(date(2026, 5, 10)), Some(Priority::High))
    );
}

#[test]
fn variation_selector_is_optional() {
    let (t, m) = parse("Pay rent 🗓\u{fe0f} 2026-06-01 ⌛\u{fe0f} 2026-05-30 🔺");
    assert_eq!(t, "Pay rent");
    assert_eq!(m.due, Some(date(2026, 6, 1)));
    assert_eq!(m.scheduled, Some(date(2026, 5, 30)));
    assert_eq!(m.priority, Some(Priority::Highest));
    let (_, m) = parse("x 📆 2026-06-01");
    assert_eq!(m.due, Some(date(2026, 6, 1)));
}

#[test]
fn done_cancelled_and_priorities() {
    let (t, m) = parse("Ship it ✅ 2026-05-06");
    assert_eq!(t, "Ship it");
    assert_eq!(m.done_on, Some(date(2026, 5, 6)));
    assert_eq!(m.status, Some(TextStatus::Done));
    let (_, m) = parse("Drop it ❌ 2026-05-06");
    assert_eq!(m.cancelled_on, Some(date(2026, 5, 6)));
    assert_eq!(m.status, Some(TextStatus::Cancelled));
    for (e, p) in [
        ("🔼", Priority::Medium),
        ("🔽", Priority::Low),
        ("⏬", Priority::Lowest),
    ] {
        assert_eq!(parse(&format!("a {e}")).1.priority, Some(p));
    }
}

#[test]
fn recurrence_ids_and_dependencies() {
    let (t, m) =
        parse("Water plants 🔁 every week on Sunday 🆔 abc123 ⛔ x1, y_2 🏁 delete 📅 2026-05-10");
    assert_eq!(t, "Water plants");
    assert_eq!(m.recurrence.as_deref(), Some("every week on Sunday"));
    assert_eq!(m.task_id.as_deref(), Some("abc123"));
    assert_eq!(m.depends_on, vec!["x1".to_string(), "y_2".to_string()]);
    assert_eq!(m.on_completion.as_deref(), Some("delete"));
    assert_eq!(m.due, Some(date(2026, 5, 10)));
}

#[test]
fn dataview_fields_bracketed_and_parenthesized() {
    let (t, m) = parse("Review PR [due:: 2026-05-12] [priority:: high]");
    assert_eq!(t, "Review PR");
    assert_eq!(m.due, Some(date(2026, 5, 12)));
    assert_eq!(m.priority, Some(Priority::High));
    let (t, m) = parse("Call Sam (scheduled:: 2026-05-09) about the move");
    assert_eq!(t, "Call Sam about the move");
    assert_eq!(m.scheduled, Some(date(2026, 5, 9)));
    let (t, m) = parse("Tidy [completion:: 2026-05-02] [id:: t1] [dependsOn:: t0]");
    assert_eq!(t, "Tidy");
    assert_eq!(m.done_on, Some(date(2026, 5, 2)));
    assert_eq!(m.status, Some(TextStatus::Done));
    assert_eq!(m.task_id.as_deref(), Some("t1"));
    assert_eq!(m.depends_on, vec!["t0".to_string()]);
    // Not a task key: stays in the text.
    let (t, m) = parse("Read [author:: Ann] book");
    assert_eq!(t, "Read [author:: Ann] book");
    assert!(m.is_empty());
}

#[test]
fn todo_txt() {
    let (t, m) = parse("(A) 2026-05-01 Call the bank due:2026-05-08 t:2026-05-05");
    assert_eq!(t, "Call the bank");
    assert_eq!(m.priority, Some(Priority::Highest));
    assert_eq!(m.created, Some(date(2026, 5, 1)));
    assert_eq!(m.due, Some(date(2026, 5, 8)));
    assert_eq!(m.scheduled, Some(date(2026, 5, 5)));
    let (t, m) = parse("x 2026-05-06 2026-05-01 Call the bank pri:B");
    assert_eq!(t, "Call the bank");
    assert_eq!(m.status, Some(TextStatus::Done));
    assert_eq!(m.done_on, Some(date(2026, 5, 6)));
    assert_eq!(m.created, Some(date(2026, 5, 1)));
    assert_eq!(m.priority, Some(Priority::High));
    // `x` not followed by a date is a word.
    assert_eq!(parse("x marks the spot").0, "x marks the spot");
}

#[test]
fn tags_block_ids_and_rollover() {
    let (t, m) = parse("Fix #42 in parser #bug #area/cli ^a1b2c3");
    assert_eq!(t, "Fix #42 in parser");
    assert_eq!(m.tags, vec!["bug".to_string(), "area/cli".to_string()]);
    assert_eq!(m.block_id.as_deref(), Some("a1b2c3"));
    let (t, m) = parse("Email Jo (now in [[2026-05-07]])");
    assert_eq!(t, "Email Jo");
    assert_eq!(m.rolled_to.as_deref(), Some("2026-05-07"));
    // Only a tag: the text is kept as written.
    let (t, m) = parse("#idea");
    assert_eq!(t, "#idea");
    assert!(m.tags.is_empty());
}

#[test]
fn logseq_keywords_and_dates() {
    let (t, m) = parse("TODO [#A] Renew passport SCHEDULED: <2026-05-20 Wed>");
    assert_eq!(t, "Renew passport");
    assert_eq!(m.status, Some(TextStatus::Open));
    assert_eq!(m.priority, Some(Priority::High));
    assert_eq!(m.scheduled, Some(date(2026, 5, 20)));
    assert_eq!(
        parse("DOING write tests").1.status,
        Some(TextStatus::InProgress)
    );
    assert_eq!(
        parse("NOW write tests").1.status,
        Some(TextStatus::InProgress)
    );
    assert_eq!(parse("LATER a").1.status, Some(TextStatus::Open));
    assert_eq!(parse("WAITING a").1.status, Some(TextStatus::Open));
    assert_eq!(parse("DONE a").1.status, Some(TextStatus::Done));
    assert_eq!(parse("CANCELED a").1.status, Some(TextStatus::Cancelled));
    assert_eq!(parse("CANCELLED a").1.status, Some(TextStatus::Cancelled));
    let (t, m) = parse("LATER check logs DEADLINE: <2026-05-21>");
    assert_eq!((t.as_str(), m.due), ("check logs", Some(date(2026, 5, 21))));
    let (t, m) = parse("TODO review id:: 65a1b2c3-0000");
    assert_eq!(t, "review");
    assert_eq!(m.task_id.as_deref(), Some("65a1b2c3-0000"));
    // Lower case or alone: not a keyword.
    assert_eq!(parse("todo list cleanup").0, "todo list cleanup");
    assert_eq!(parse("TODO").0, "TODO");
}

#[test]
fn whole_strikethrough_is_cancelled() {
    let (t, m) = parse("~~rewrite in Go~~");
    assert_eq!(t, "rewrite in Go");
    assert_eq!(m.status, Some(TextStatus::Cancelled));
    let (t, m) = parse("~~a~~ and ~~b~~");
    assert_eq!(t, "~~a~~ and ~~b~~");
    assert_eq!(m.status, None);
    let (t, m) = parse("keep ~~part~~ of it");
    assert_eq!(t, "keep ~~part~~ of it");
    assert!(m.is_empty());
}

#[test]
fn invalid_dates_stay_in_the_text() {
    let (t, m) = parse("Plan 📅 2026-13-40");
    assert_eq!(t, "Plan 📅 2026-13-40");
    assert!(m.due.is_none());
}

proptest::proptest! {
    #[test]
    fn never_panics_and_never_grows(s in "\\PC{0,60}") {
        let (t, _) = parse_task_meta(&s);
        proptest::prop_assert!(t.len() <= s.len());
    }
}

/// The pre-check by its byte-by-byte definition: any non-ASCII character,
/// any of `#^:)]~`, a leading `x` or `(`, or a leading keyword.
fn may_hold_meta_by_definition(text: &str) -> bool {
    !text.is_ascii()
        || text
            .bytes()
            .any(|b| matches!(b, b'#' | b'^' | b':' | b')' | b']' | b'~'))
        || text.starts_with(['x', '('])
        || KEYWORDS.iter().any(|(k, _)| text.starts_with(k))
}

proptest::proptest! {
    #[test]
    fn pre_check_equals_its_definition(s in "[a-z #^:)\\]~x(TODONE\\[]{0,40}|\\PC{0,40}") {
        proptest::prop_assert_eq!(may_hold_meta(&s), may_hold_meta_by_definition(&s));
    }
}

#[test]
fn pre_check_finds_each_marker_anywhere() {
    for m in ["#", "^", ":", ")", "]", "~", "é"] {
        for text in [
            format!("{m}plain"),
            format!("plain {m} text"),
            format!("plain{m}"),
        ] {
            assert!(may_hold_meta(&text), "{text}");
        }
    }
    assert!(!may_hold_meta("fix the lock race"));
}
