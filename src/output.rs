//! Human-readable output for the terminal: the audit, `list`, and the
//! `--check` diff (the JSON output is the serialized report itself).

use crate::report::{Report, ReportItem};
use std::fmt::Write;

/// Kept here too: every output of a run escapes with it.
pub(crate) use crate::escape::escape_controls;

/// How many untagged items and warnings are listed without `-v`.
const BRIEF: usize = 5;

fn project_label(p: &Option<String>) -> &str {
    p.as_deref().unwrap_or("untagged")
}

/// The persistence audit.
pub(crate) fn audit(r: &Report, status: &str, verbose: u8) -> String {
    let a = &r.audit;
    let s = &a.sources;
    let mut o = String::new();
    let as_of = r
        .as_of
        .map_or("no dated notes".to_string(), |d| d.to_string());
    let _ = writeln!(o, "{}: {status} (as of {as_of})", r.output);
    let _ = writeln!(
        o,
        "collected {} = open {} + resolved {} + merged duplicates {}",
        a.collected, a.open, a.resolved, a.duplicates_merged
    );
    let _ = writeln!(
        o,
        "open {} = shown {} + overflow {} + deferred {} + blocked {} + review {}",
        a.open, a.shown, a.overflow, a.deferred, a.blocked, a.review
    );
    if a.non_task > 0 {
        let _ = writeln!(o, "non_task {} (decoration marks, not items)", a.non_task);
    }
    if a.excluded_files > 0 {
        let _ = writeln!(o, "excluded by front matter: {} files", a.excluded_files);
    }
    if !a.read_whole.is_empty() {
        let _ = writeln!(
            o,
            "read whole (no next section): {}",
            a.read_whole.join(", ")
        );
    }
    let _ = writeln!(
        o,
        "sources: journal_next {}, captured {}, active_todos {}, project_todos {}, progress {} ({} files scanned)",
        s.journal_next, s.captured, s.active_todos, s.project_todos, s.progress, a.files_scanned
    );
    let limit = if verbose > 0 { usize::MAX } else { BRIEF };
    if !a.untagged_warnings.is_empty() {
        let _ = writeln!(o, "untagged: {}", a.untagged_warnings.len());
        for u in a.untagged_warnings.iter().take(limit) {
            let _ = writeln!(o, "  {}:{} [{}] {}", u.path, u.line, u.reason, u.text);
        }
        more(&mut o, a.untagged_warnings.len(), limit);
    }
    if !a.potentially_lost.is_empty() {
        let _ = writeln!(
            o,
            "potentially lost (skipped on {as_of}): {}",
            a.potentially_lost.len()
        );
        for l in &a.potentially_lost {
            let _ = writeln!(
                o,
                "  {}:{} [{}] {}",
                l.path,
                l.line,
                project_label(&l.project),
                l.text
            );
        }
    }
    if !a.warnings.is_empty() {
        let _ = writeln!(o, "warnings: {}", a.warnings.len());
        for w in a.warnings.iter().take(limit) {
            let _ = writeln!(o, "  {}: {}", w.path, w.message);
        }
        more(&mut o, a.warnings.len(), limit);
    }
    if verbose > 0
        && let Some(c) = &a.cache
    {
        let _ = writeln!(
            o,
            "cache: {} file{} reused, {} re-read{}",
            c.reused,
            if c.reused == 1 { "" } else { "s" },
            c.reread,
            if c.written { "; cache rewritten" } else { "" }
        );
        for why in &c.ignored {
            let _ = writeln!(o, "  {why}");
        }
    }
    if verbose > 0 {
        let _ = writeln!(o, "priorities:");
        o.push_str(&list(&r.priorities));
        trail(&mut o, r);
    }
    escape_controls(&o).into_owned()
}

/// `audit -v`: what resolved each item, and what merged with what.
fn trail(o: &mut String, r: &Report) {
    if !r.resolutions.is_empty() {
        let _ = writeln!(o, "resolved: {}", r.resolutions.len());
        for res in &r.resolutions {
            let by = match &res.closed_by {
                Some(c) => format!("{} ({}:{})", c.text, c.path, c.line),
                None => "its open twin (forwarded [>])".to_string(),
            };
            let _ = writeln!(
                o,
                "  {}:{} {}  <- {by}, similarity {:.3}",
                res.path, res.line, res.text, res.similarity
            );
        }
    }
    let clusters = r
        .priorities
        .iter()
        .chain(&r.overflow)
        .chain(&r.deferred)
        .chain(&r.blocked)
        .filter(|i| i.seen_in.len() > 1);
    let mut head = false;
    for i in clusters {
        if !head {
            let _ = writeln!(o, "merged:");
            head = true;
        }
        let _ = writeln!(o, "  {} {}", i.id, i.text);
        for m in &i.seen_in[1..] {
            let _ = writeln!(
                o,
                "    {}:{} similarity {:.3}",
                m.path, m.line, m.similarity
            );
        }
    }
}

fn more(o: &mut String, total: usize, shown: usize) {
    if total > shown {
        let _ = writeln!(o, "  … and {} more (use -v to list all)", total - shown);
    }
}

/// One line per item.
pub(crate) fn list(items: &[ReportItem]) -> String {
    let mut o = String::new();
    let width = items.len().to_string().len();
    for (n, i) in items.iter().enumerate() {
        let age = i.age_days.map_or(String::new(), |d| format!(", {d} d"));
        let seen = if i.seen_in.len() > 1 {
            format!(", seen {}×", i.seen_in.len())
        } else {
            String::new()
        };
        let blocked = if i.blocked_by.is_empty() {
            String::new()
        } else {
            format!("  ⛔ blocked by {}", i.blocked_by.join(", "))
        };
        let _ = writeln!(
            o,
            "{:>width$}. {} [{}] {}{blocked}  ({}:{}, {}{age}{seen})",
            n + 1,
            i.id,
            project_label(&i.project),
            i.text,
            i.source.path,
            i.source.line,
            i.tier.as_str(),
        );
    }
    if items.is_empty() {
        o.push_str("nothing open\n");
    }
    escape_controls(&o).into_owned()
}

/// A short unified diff between the dashboard on disk and the regenerated one.
pub(crate) fn stale_diff(name: &str, old: Option<&str>, new: &str) -> String {
    let Some(old) = old else {
        return format!("{name} is missing; run `active-status regen`\n");
    };
    let diff = similar::TextDiff::from_lines(old, new);
    let full = diff
        .unified_diff()
        .context_radius(1)
        .header(
            &format!("{name} (on disk)"),
            &format!("{name} (regenerated)"),
        )
        .to_string();
    let lines: Vec<&str> = full.lines().collect();
    let mut o = format!("{name} is stale; run `active-status regen`\n");
    for l in lines.iter().take(40) {
        o.push_str(l);
        o.push('\n');
    }
    if lines.len() > 40 {
        let _ = writeln!(o, "… {} more diff lines", lines.len() - 40);
    }
    escape_controls(&o).into_owned()
}
