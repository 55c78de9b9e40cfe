//! Rank tiers and the total rank order (docs/FORMAT.md §5 step 4).

use crate::item::{Item, ItemStatus, SourceKind, Tier};
use crate::task_meta::Priority;
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

/// The due date of an item, if any.
pub fn due(item: &Item) -> Option<Date> {
    item.meta.as_ref().and_then(|m| m.due)
}

/// Whether an open item is overdue: due before `as_of`.
pub fn overdue(item: &Item, as_of: Option<Date>) -> bool {
    matches!((due(item), as_of), (Some(d), Some(a)) if d < a)
}

/// Tier; inside a tier in-progress items first, then overdue ones, then by
/// due date (undated last), then priority (none ranks as "normal", between
/// medium and low), then (for carried items) newest date first, then path
/// and line. Text and project break the remaining ties so the order is total.
pub fn compare(a: &Item, b: &Item, as_of: Option<Date>) -> Ordering {
    rank_key(a, as_of)
        .cmp(&rank_key(b, as_of))
        .then_with(|| ties(a, b))
}

/// The rank of an item before the tie-breakers of [`compare`].
type RankKey = (
    Tier,
    bool,
    bool,
    bool,
    Option<Date>,
    u8,
    Reverse<Option<Date>>,
);

fn rank_key(i: &Item, as_of: Option<Date>) -> RankKey {
    let t = tier(i, as_of);
    let date = if t == Tier::Carried {
        Reverse(i.date)
    } else {
        Reverse(None)
    };
    let meta = i.meta.as_deref();
    let due = meta.and_then(|m| m.due);
    (
        t,
        i.status != ItemStatus::InProgress,
        !overdue(i, as_of),
        due.is_none(),
        due,
        Priority::rank(meta.and_then(|m| m.priority)),
        date,
    )
}

/// Path and line, then text and project: the tie-breakers of [`compare`].
fn ties(a: &Item, b: &Item) -> Ordering {
    a.loc
        .cmp(&b.loc)
        .then_with(|| a.text.cmp(&b.text))
        .then_with(|| a.project.cmp(&b.project))
}

/// Sorts items by [`compare`] (stable), computing each item's rank once.
pub(super) fn sort(items: &mut [Item], as_of: Option<Date>) {
    use rayon::prelude::*;
    let keys: Vec<RankKey> = items.iter().map(|i| rank_key(i, as_of)).collect();
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.par_sort_by(|&a, &b| {
        keys[a]
            .cmp(&keys[b])
            .then_with(|| ties(&items[a], &items[b]))
    });
    permute(items, &order);
}

/// Puts `items[order[k]]` at `k` for every `k`, in place: each cycle of the
/// permutation is followed with swaps (moving the items into a second list
/// faulted in fresh memory for all of them).
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut k = start;
        while !placed[k] {
            placed[k] = true;
            let from = order[k];
            if from == start {
                break;
            }
            // `k` takes its item; the one the cycle carries moves on to `from`.
            items.swap(k, from);
            k = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::Location;
    use jiff::civil::date;
    use proptest::prelude::{Just, Strategy};

    fn item(kind: SourceKind, d: Option<Date>, path: &str, line: u32) -> Item {
        Item {
            text: "t".into(),
            norm: "t".into(),
            private: None,
            project: None,
            kind,
            loc: Location {
                path: path.into(),
                line,
            },
            date: d,
            untagged: None,
            meta: None,
            status: Default::default(),
        }
    }

    #[test]
    fn inside_a_tier_in_progress_then_overdue_then_due_then_priority() {
        use crate::task_meta::TaskMeta;
        let as_of = Some(date(2026, 5, 6));
        let with = |line, status, due: Option<Date>, priority| {
            let mut i = item(SourceKind::ProjectTodos, None, "p.md", line);
            i.status = status;
            i.meta = Some(Box::new(TaskMeta {
                due,
                priority,
                ..TaskMeta::default()
            }));
            i
        };
        let plain = with(1, ItemStatus::Open, None, None);
        let low = with(2, ItemStatus::Open, None, Some(Priority::Low));
        let high = with(3, ItemStatus::Open, None, Some(Priority::High));
        let due_later = with(4, ItemStatus::Open, Some(date(2026, 6, 1)), None);
        let due_soon = with(5, ItemStatus::Open, Some(date(2026, 5, 8)), None);
        let overdue_item = with(6, ItemStatus::Open, Some(date(2026, 5, 1)), None);
        let doing = with(7, ItemStatus::InProgress, None, Some(Priority::Lowest));
        let today = item(SourceKind::JournalNext, as_of, "j.md", 1);
        let mut v = vec![
            plain.clone(),
            low.clone(),
            high.clone(),
            due_later.clone(),
            due_soon.clone(),
            overdue_item.clone(),
            doing.clone(),
            today.clone(),
        ];
        v.sort_by(|a, b| compare(a, b, as_of));
        assert_eq!(
            v,
            vec![
                today,
                doing,
                overdue_item,
                due_soon,
                due_later,
                high,
                plain,
                low
            ]
        );
        assert!(overdue(&v[2], as_of) && !overdue(&v[3], as_of));
    }

    proptest::proptest! {
        /// In-place permuting gives what building a new list does.
        #[test]
        fn permuting_in_place_equals_gathering(order in Just((0..40usize).collect::<Vec<_>>()).prop_shuffle(), n in 0usize..40) {
            let order: Vec<usize> = order.into_iter().filter(|&i| i < n).collect();
            let items: Vec<usize> = (0..n).map(|i| i * 10).collect();
            let expect: Vec<usize> = order.iter().map(|&i| items[i]).collect();
            let mut got = items;
            permute(&mut got, &order);
            proptest::prop_assert_eq!(got, expect);
        }
    }

    #[test]
    fn sort_is_a_stable_sort_by_compare() {
        let as_of = Some(date(2026, 5, 6));
        let mut v: Vec<Item> = (0..40u32)
            .map(|n| {
                let kind = SourceKind::ALL[n as usize % SourceKind::ALL.len()];
                let d = (n % 3 != 0).then(|| date(2026, 5, 1 + (n % 6) as i8));
                item(kind, d, ["a.md", "b.md"][n as usize % 2], n % 7)
            })
            .collect();
        let mut expect = v.clone();
        expect.sort_by(|a, b| compare(a, b, as_of));
        sort(&mut v, as_of);
        assert_eq!(v, expect);
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
