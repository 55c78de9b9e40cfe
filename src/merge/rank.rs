//! Rank tiers and the total rank order (docs/FORMAT.md §5 step 4).

use crate::item::{Item, SourceKind, Tier};
use jiff::civil::Date;
use std::cmp::{Ordering, Reverse};

/// The tier of an item relative to `as_of`.
pub fn tier(item: &Item, as_of: Option<Date>) -> Tier {
    let dated_today = item.date.is_some() && item.date == as_of;
    match item.kind {
        SourceKind::JournalNext if dated_today => Tier::Today,
        SourceKind::Captured if dated_today => Tier::Captured,
        SourceKind::JournalNext | SourceKind::Captured => Tier::Carried,
        SourceKind::ActiveTodos => Tier::Active,
        SourceKind::ProjectTodos => Tier::Project,
        SourceKind::Progress => Tier::Progress,
    }
}

/// Tier, then (for carried items) newest date first, then path, then line.
/// Text and project break the remaining ties so the order is total.
pub fn compare(a: &Item, b: &Item, as_of: Option<Date>) -> Ordering {
    let key = |i: &Item| {
        let t = tier(i, as_of);
        let date = if t == Tier::Carried {
            Reverse(i.date)
        } else {
            Reverse(None)
        };
        (t, date)
    };
    key(a)
        .cmp(&key(b))
        .then_with(|| a.loc.cmp(&b.loc))
        .then_with(|| a.text.cmp(&b.text))
        .then_with(|| a.project.cmp(&b.project))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::Location;
    use jiff::civil::date;

    fn item(kind: SourceKind, d: Option<Date>, path: &str, line: u32) -> Item {
        Item {
            text: "t".into(),
            norm: "t".into(),
            project: None,
            kind,
            loc: Location {
                path: path.into(),
                line,
            },
            date: d,
            untagged: None,
            meta: None,
        }
    }

    #[test]
    fn tiers_and_order() {
        let as_of = Some(date(2026, 5, 6));
        let today = item(SourceKind::JournalNext, as_of, "journal/z.md", 9);
        let captured = item(SourceKind::Captured, as_of, ".agents/inbox/a.md", 1);
        let active = item(
            SourceKind::ActiveTodos,
            None,
            "projects/a/actives/t/todos.md",
            1,
        );
        let project = item(SourceKind::ProjectTodos, None, "projects/a/todos.md", 1);
        let progress = item(SourceKind::Progress, None, "projects/a/PROGRESS.md", 1);
        let newer = item(
            SourceKind::JournalNext,
            Some(date(2026, 5, 5)),
            "journal/b.md",
            1,
        );
        let older = item(SourceKind::Captured, Some(date(2026, 5, 1)), "a.md", 1);
        let undated_inbox = item(SourceKind::Captured, None, ".agents/inbox/x.md", 1);
        let mut v = vec![
            undated_inbox.clone(),
            older.clone(),
            newer.clone(),
            progress.clone(),
            project.clone(),
            active.clone(),
            captured.clone(),
            today.clone(),
        ];
        v.sort_by(|a, b| compare(a, b, as_of));
        assert_eq!(
            v,
            vec![
                today,
                captured,
                active,
                project,
                progress,
                newer,
                older,
                undated_inbox
            ]
        );
    }
}
