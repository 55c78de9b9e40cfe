//! Destination files of `route`, chosen from an in-memory view of the vault
//! that is discovered once per batch. Choosing a destination reads no file:
//! [`VaultView::journal_file_for`] is a pure function of the view, so it can
//! be tested and fuzzed without a vault on disk. Keeping writes inside the
//! root is the vault handle's job (`vault_fs`).

use crate::config::Config;
use crate::discover::{FileRole, discover};
use crate::error::Result;
use jiff::civil::Date;
use std::path::Path;

/// What route needs to know about a vault: its projects and its journal
/// files with their dates (root-relative paths).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VaultView {
    pub projects: Vec<String>,
    pub journals: Vec<(Date, String)>,
}

/// How a vault files its days under the journal folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// `journal/YYYY-MM-DD.md`
    Flat,
    /// `journal/YYYY/YYYY-MM-DD.md`
    Year,
    /// `journal/YYYY/MM/YYYY-MM-DD.md`
    YearMonth,
    /// `journal/YYYY-MM/YYYY-MM-DD.md`
    Month,
}

impl Layout {
    /// The folder a journal file of `date` at `rel` is filed under (the
    /// journal folder itself: `journal`, `journals`, …) and its layout
    /// below that folder. Layouts are tried deepest first.
    fn of(rel: &str, date: Date) -> (String, Layout) {
        let parent = Path::new(rel)
            .parent()
            .and_then(Path::to_str)
            .unwrap_or_default();
        let (y, m) = (date.year(), date.month());
        [Layout::YearMonth, Layout::Year, Layout::Month]
            .into_iter()
            .find_map(|l| {
                let base = parent.strip_suffix(&l.dir(y, m))?.strip_suffix('/')?;
                Some((base.to_string(), l))
            })
            .unwrap_or_else(|| (parent.to_string(), Layout::Flat))
    }

    fn dir(self, y: i16, m: i8) -> String {
        match self {
            Layout::Flat => String::new(),
            Layout::Year => format!("{y:04}"),
            Layout::YearMonth => format!("{y:04}/{m:02}"),
            Layout::Month => format!("{y:04}-{m:02}"),
        }
    }
}

impl VaultView {
    /// Discovers the vault at `root` (one walk).
    pub fn discover(root: &Path, cfg: &Config) -> Result<VaultView> {
        let found = discover(root, cfg)?;
        let journals = found
            .files
            .iter()
            .filter_map(|f| match f.role {
                FileRole::Journal { date, .. } => Some((date, f.rel.to_string())),
                _ => None,
            })
            .collect();
        Ok(VaultView {
            projects: found.projects,
            journals,
        })
    }

    /// The journal file for `date` and the content of a new one: an
    /// existing file of that date (`YYYY-MM-DD.md` preferred, else the
    /// first by path), or a new `YYYY-MM-DD.md` placed the way the vault's
    /// latest journal file is placed (`journal/YYYY/MM/` when days are
    /// filed by month), flat under the journal folder otherwise.
    pub fn journal_file_for(&self, cfg: &Config, date: Date) -> (String, String) {
        let exact = format!("{date}.md");
        let existing = self
            .journals
            .iter()
            .filter(|(d, _)| *d == date)
            .map(|(_, rel)| rel.as_str())
            .min_by_key(|rel| (!is_named(rel, &exact), rel.to_string()));
        if let Some(rel) = existing {
            return (rel.to_string(), String::new());
        }
        let (base, layout) = self
            .journals
            .iter()
            .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
            .map_or((cfg.journal_dir.clone(), Layout::Flat), |(d, rel)| {
                Layout::of(rel, *d)
            });
        let dir = layout.dir(date.year(), date.month());
        let rel = if dir.is_empty() {
            format!("{base}/{exact}")
        } else {
            format!("{base}/{dir}/{exact}")
        };
        (rel, format!("# {date}\n"))
    }
}

fn is_named(rel: &str, name: &str) -> bool {
    rel == name || rel.ends_with(&format!("/{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        s.parse().expect("date")
    }

    fn view(journals: &[(&str, &str)]) -> VaultView {
        VaultView {
            projects: Vec::new(),
            journals: journals
                .iter()
                .map(|(dt, r)| (d(dt), r.to_string()))
                .collect(),
        }
    }

    #[test]
    fn an_existing_file_of_the_day_wins() {
        let v = view(&[
            ("2026-05-06", "journal/2026/05/2026-05-06-standup.md"),
            ("2026-05-06", "journal/2026/05/2026-05-06.md"),
        ]);
        let cfg = Config::default();
        assert_eq!(
            v.journal_file_for(&cfg, d("2026-05-06")),
            ("journal/2026/05/2026-05-06.md".to_string(), String::new())
        );
    }

    #[test]
    fn a_new_day_follows_the_latest_layout() {
        let cfg = Config::default();
        for (files, want) in [
            (vec![], "journal/2026-06-01.md"),
            (
                vec![("2026-05-06", "journal/2026-05-06.md")],
                "journal/2026-06-01.md",
            ),
            (
                vec![("2026-05-06", "journal/2026/05/2026-05-06.md")],
                "journal/2026/06/2026-06-01.md",
            ),
            (
                vec![("2026-05-06", "journal/2026/2026-05-06.md")],
                "journal/2026/2026-06-01.md",
            ),
            (
                vec![("2026-05-06", "journal/2026-05/2026-05-06.md")],
                "journal/2026-06/2026-06-01.md",
            ),
            // An old flat file and newer files by month: the newer practice.
            (
                vec![
                    ("2025-01-02", "journal/2025-01-02.md"),
                    ("2026-05-06", "journal/2026/05/2026-05-06.md"),
                ],
                "journal/2026/06/2026-06-01.md",
            ),
            // Another folder: the same folder.
            (
                vec![("2026-05-06", "journal/misc/2026-05-06.md")],
                "journal/misc/2026-06-01.md",
            ),
            (
                vec![("2026-05-06", "journals/2026/05/2026-05-06.md")],
                "journals/2026/06/2026-06-01.md",
            ),
        ] {
            let v = view(&files);
            let (rel, fresh) = v.journal_file_for(&cfg, d("2026-06-01"));
            assert_eq!(rel, want, "{files:?}");
            assert_eq!(fresh, "# 2026-06-01\n");
        }
    }

    proptest::proptest! {
        /// Whatever the vault holds, the destination is an existing file of
        /// that day, or a new `<date>.md` under the folder of a journal file
        /// (or the configured one), at most two levels below it.
        #[test]
        fn the_destination_is_always_a_journal_file_of_that_day(
            days in proptest::collection::vec((0i16..3, 1i8..13, 1i8..29, 0usize..5), 0..8),
            want in (0i16..3, 1i8..13, 1i8..29),
        ) {
            let cfg = Config::default();
            let date = |(y, m, dd): (i16, i8, i8)| Date::new(2024 + y, m, dd).expect("date");
            let journals: Vec<(Date, String)> = days
                .iter()
                .map(|&(y, m, dd, layout)| {
                    let d = date((y, m, dd));
                    let dir = match layout {
                        0 => String::new(),
                        1 => format!("{}/", d.year()),
                        2 => format!("{}/{:02}/", d.year(), d.month()),
                        3 => format!("{}-{:02}/", d.year(), d.month()),
                        _ => "notes/".to_string(),
                    };
                    (d, format!("journal/{dir}{d}.md"))
                })
                .collect();
            let view = VaultView { projects: Vec::new(), journals: journals.clone() };
            let day = date(want);
            let (rel, fresh) = view.journal_file_for(&cfg, day);
            match journals.iter().find(|(d, r)| *d == day && *r == rel) {
                Some(_) => proptest::prop_assert_eq!(fresh, ""),
                None => {
                    proptest::prop_assert!(!journals.iter().any(|(d, _)| *d == day));
                    proptest::prop_assert!(rel.starts_with("journal/"), "{}", rel);
                    let want_suffix = format!("/{day}.md");
                    proptest::prop_assert!(rel.ends_with(&want_suffix), "{}", rel);
                    proptest::prop_assert!(rel.matches('/').count() <= 4, "{}", rel);
                    proptest::prop_assert_eq!(fresh, format!("# {day}\n"));
                }
            }
        }
    }
}
