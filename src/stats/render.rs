//! `stats` as text: small Unicode sparklines and aligned tables.

use super::{Stats, StuckReason};
use std::fmt::Write;

/// Weeks shown in the text output (JSON has every week).
const TEXT_WEEKS: usize = 12;
/// Zombies listed in the text output (JSON has all).
const TEXT_ZOMBIES: usize = 10;

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// One character per value on a scale from 0 to `max`: `·` for zero, else
/// one of eight bars (any non-zero value gets at least the lowest bar).
pub(crate) fn sparkline(values: &[usize], max: usize) -> String {
    values
        .iter()
        .map(|&v| {
            if v == 0 || max == 0 {
                '·'
            } else {
                let level = (v * BARS.len()).div_ceil(max).clamp(1, BARS.len());
                BARS[level - 1]
            }
        })
        .collect()
}

fn label(p: &Option<String>) -> &str {
    p.as_deref().unwrap_or("untagged")
}

fn date(d: Option<jiff::civil::Date>) -> String {
    d.map_or_else(|| "-".to_string(), |d| d.to_string())
}

/// The text report.
pub(crate) fn text(s: &Stats) -> String {
    let mut o = String::new();
    let t = &s.totals;
    let as_of = s
        .as_of
        .map_or("no dated notes".to_string(), |d| d.to_string());
    let _ = writeln!(
        o,
        "stats as of {as_of}: {} open, {} resolved of {} collected; {} tasks ({} undated), {} done entries",
        t.open, t.resolved, t.collected, t.tasks, t.undated_tasks, t.done_entries
    );
    let weeks = &s.weeks[s.weeks.len().saturating_sub(TEXT_WEEKS)..];
    if !weeks.is_empty() {
        let created: Vec<usize> = weeks.iter().map(|w| w.created).collect();
        let done: Vec<usize> = weeks.iter().map(|w| w.done).collect();
        let max = created.iter().chain(&done).copied().max().unwrap_or(0);
        let _ = writeln!(
            o,
            "\nper week, {} .. {} (one mark a week, same scale):",
            weeks[0].week,
            weeks[weeks.len() - 1].week
        );
        let _ = writeln!(
            o,
            "  created {}  {}",
            sparkline(&created, max),
            created.iter().sum::<usize>()
        );
        let _ = writeln!(
            o,
            "  done    {}  {}",
            sparkline(&done, max),
            done.iter().sum::<usize>()
        );
    }
    let _ = writeln!(o, "\nopen by age:");
    let max = s.age_buckets.iter().map(|b| b.open).max().unwrap_or(0);
    for b in &s.age_buckets {
        let bar = if max == 0 {
            String::new()
        } else {
            "█".repeat((b.open * 20).div_ceil(max))
        };
        let row = format!("  {:<8} {:>5} {bar}", b.label, b.open);
        let _ = writeln!(o, "{}", row.trim_end());
    }
    let _ = writeln!(
        o,
        "\nzombies (open longer than {} days): {}",
        s.zombie_days,
        s.zombies.len()
    );
    for z in s.zombies.iter().take(TEXT_ZOMBIES) {
        let _ = writeln!(
            o,
            "  {:>4} d  [{}] {} ({}:{}; written on {} day{})",
            z.age_days,
            label(&z.project),
            crate::output::escape_controls(&z.text),
            z.path,
            z.line,
            z.days_seen,
            if z.days_seen == 1 { "" } else { "s" }
        );
    }
    if s.zombies.len() > TEXT_ZOMBIES {
        let _ = writeln!(
            o,
            "  … and {} more (--format json lists all)",
            s.zombies.len() - TEXT_ZOMBIES
        );
    }
    if !s.stuck_projects.is_empty() {
        let _ = writeln!(o, "\nstuck projects:");
        for p in &s.stuck_projects {
            let why = match p.reason {
                StuckReason::NoOpenItems => format!(
                    "activity in the last {} days but no open item",
                    s.zombie_days
                ),
                StuckReason::NoActivity => format!(
                    "{} open but no activity in the last {} days (last: {})",
                    p.open,
                    s.zombie_days,
                    date(p.last_activity)
                ),
            };
            let _ = writeln!(o, "  {}: {why}", p.project);
        }
    }
    if !s.projects.is_empty() {
        let width = s
            .projects
            .iter()
            .map(|p| label(&p.project).chars().count())
            .max()
            .unwrap_or(0)
            .max("project".len());
        let _ = writeln!(
            o,
            "\n  {:<width$}  open  zombies  created  done  last activity",
            "project"
        );
        for p in &s.projects {
            let _ = writeln!(
                o,
                "  {:<width$}  {:>4}  {:>7}  {:>7}  {:>4}  {}",
                label(&p.project),
                p.open,
                p.zombies,
                p.created,
                p.done_entries,
                date(p.last_activity)
            );
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparkline_scales_to_max() {
        assert_eq!(sparkline(&[0, 1, 4, 8], 8), "·▁▄█");
        assert_eq!(sparkline(&[1, 100], 100), "▁█");
        assert_eq!(sparkline(&[0, 0], 0), "··");
        assert_eq!(sparkline(&[], 3), "");
    }
}
