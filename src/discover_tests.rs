//! Tests of `discover`.

use super::*;

#[test]
fn dates_from_names() {
    assert_eq!(
        date_in_name("2026-05-06.md"),
        Some(jiff::civil::date(2026, 5, 6))
    );
    assert_eq!(
        date_in_name("retro-2026-05-04-x.md"),
        Some(jiff::civil::date(2026, 5, 4))
    );
    assert_eq!(
        date_in_name("2026-13-45 then 2026-01-02.md"),
        Some(jiff::civil::date(2026, 1, 2))
    );
    assert_eq!(date_in_name("notes.md"), None);
    assert_eq!(date_in_name("2026-5-6.md"), None);
    let d = Some(jiff::civil::date(2024, 1, 15));
    assert_eq!(date_in_name("2024_01_15.md"), d);
    assert_eq!(date_in_name("daily.journal.2024.01.15.md"), d);
    assert_eq!(date_in_name("20240115.md"), d);
    assert_eq!(date_in_name("note-20240115-x.markdown"), d);
    assert_eq!(date_in_name("2024-01_15.md"), None);
    assert_eq!(date_in_name("120240115.md"), None);
    assert_eq!(date_in_name("2024011.md"), None);
    assert!(is_markdown("a.markdown") && is_markdown("A.MD") && !is_markdown("a.mdx"));
    assert!(
        missing_dot("2025.09.14md") && !missing_dot("2025.09.14.md") && !missing_dot("readmemd")
    );
}
