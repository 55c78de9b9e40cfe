//! `keep`, `same`, `not-task`, `decide`, `review` and `wrap`: the review
//! queue and its answers (docs/FORMAT.md §5.3, §5.4).

use super::{Ctx, print_json};
use crate::cli::{DecideArgs, DecideIdsArgs, Format, LockArgs, ReviewArgs, WrapArgs};
use crate::decide::{Answer, Decided};
use crate::error::{Error, Result, exit};
use crate::lock::with_lock;
use crate::report::review::ReviewItem;
use crate::report::{Report, Trail};
use crate::vault_fs::VaultDir;
use jiff::civil::Date;

/// A date flag's value: YYYY-MM-DD in 1970–2100, else a usage error
/// naming the flag.
fn parse_date(what: &'static str, d: &str) -> Result<Date> {
    crate::cli::date_arg(d).map_err(|reason| Error::BadDate {
        what,
        value: d.to_string(),
        reason,
    })
}

/// `keep ID…`, `same ID ID`, `not-task ID…`.
pub(super) fn decide_ids(ctx: &Ctx, args: &DecideIdsArgs, action: &str) -> Result<i32> {
    let answers: Vec<Answer> = if action == "same" {
        let [a, b] = args.ids.as_slice() else {
            return Err(Error::MissingArgument {
                needed: "two items: same ID OTHER",
            });
        };
        vec![Answer {
            action: action.into(),
            id: a.clone(),
            other: Some(b.clone()),
        }]
    } else {
        args.ids
            .iter()
            .map(|id| Answer {
                action: action.into(),
                id: id.clone(),
                other: None,
            })
            .collect()
    };
    let how = How {
        date: args.date.as_deref(),
        dry_run: args.dry_run,
        regen: args.regen,
        format: args.output.format,
        lock: &args.lock,
    };
    apply(ctx, action, &answers, &how)
}

/// `decide --from FILE|-`.
pub(super) fn decide(ctx: &Ctx, args: &DecideArgs) -> Result<i32> {
    let text = if args.from == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| Error::DecideInput {
            from: "-".into(),
            at: "stdin".into(),
            message: format!("cannot read: {e}"),
        })?
    } else {
        std::fs::read_to_string(&args.from).map_err(|e| Error::read(&args.from, e))?
    };
    let answers = crate::decide::parse_batch(&args.from, &text)?;
    let how = How {
        date: args.date.as_deref(),
        dry_run: args.dry_run,
        regen: args.regen,
        format: args.output.format,
        lock: &args.lock,
    };
    apply(ctx, &args.from, &answers, &how)
}

struct How<'a> {
    date: Option<&'a str>,
    dry_run: bool,
    regen: bool,
    format: Format,
    lock: &'a LockArgs,
}

fn apply(ctx: &Ctx, from: &str, answers: &[Answer], how: &How<'_>) -> Result<i32> {
    let date = match how.date {
        Some(d) => parse_date("--date", d)?,
        None => ctx.cfg.today(),
    };
    let vault = VaultDir::open(&ctx.root)?;
    let decided = if how.dry_run {
        let (_, answers) = crate::decide::plan(&vault, &ctx.cfg, from, answers, date)?;
        Decided {
            schema: 1,
            answers,
            written: false,
        }
    } else {
        let template = if how.regen {
            Some(crate::render::template_source(&ctx.root, &ctx.cfg)?)
        } else {
            None
        };
        let opts = ctx.lock_options(how.lock);
        let (decided, regen) = with_lock(&opts, || {
            let d = crate::decide::run(&vault, &ctx.cfg, from, answers, date)?;
            let regen = template
                .as_ref()
                .map(|t| crate::pipeline::regenerate(&ctx.root, &ctx.cfg, t, Trail::Counted))
                .transpose()?;
            Ok((d, regen))
        })?;
        if let Some(report) = regen
            && !ctx.quiet
        {
            eprintln!(
                "{}: {} ({} open, {} shown, {} in review)",
                report.output,
                if report.written {
                    "written"
                } else {
                    "unchanged"
                },
                report.audit.open,
                report.audit.shown,
                report.audit.review
            );
        }
        decided
    };
    match how.format {
        Format::Json => print_json(&decided)?,
        Format::Text if !ctx.quiet => print!("{}", crate::decide::text(&decided)),
        Format::Text => {}
    }
    Ok(exit::OK)
}

fn report(ctx: &Ctx) -> Result<Report> {
    let analysis = crate::pipeline::analyze(&ctx.root, &ctx.cfg)?;
    Ok(crate::report::build_with(
        &analysis,
        &ctx.cfg,
        Trail::Counted,
    ))
}

/// `review`: the whole queue; `--archive-before DATE` records a `keep`
/// for every item in it last seen before DATE.
pub(super) fn review(ctx: &Ctx, args: &ReviewArgs) -> Result<i32> {
    if let Some(before) = &args.archive_before {
        let before = parse_date("--archive-before", before)?;
        return archive(ctx, args, before);
    }
    if args.interactive {
        return interactive(ctx, args);
    }
    let report = report(ctx)?;
    let items = of_project(&report.review, args.project.as_deref());
    match args.output.format {
        Format::Json => print_json(&items)?,
        Format::Text => {
            let mut o = format!("Review ({}):\n", items.len());
            for r in &items {
                crate::report::review::review_line(&mut o, r);
            }
            if !items.is_empty() {
                o.push_str(crate::report::review::ACTIONS);
            }
            print!("{o}");
        }
    }
    Ok(exit::OK)
}

/// What one key press does in `review --interactive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    /// An answer to the item: `keep`, `done` or `not-task`.
    Answer(&'static str),
    Skip,
    Quit,
}

/// The key's meaning (either case); `None`: the key does nothing.
/// Ctrl-C, Ctrl-D and Escape quit like `q`.
fn key_action(key: u8) -> Option<Key> {
    match key.to_ascii_lowercase() {
        b'k' => Some(Key::Answer("keep")),
        b'd' => Some(Key::Answer("done")),
        b'n' => Some(Key::Answer("not-task")),
        b's' => Some(Key::Skip),
        b'q' | 3 | 4 | 0x1b => Some(Key::Quit),
        _ => None,
    }
}

/// `review --interactive`: one item at a time, one key each; the answers
/// are written at the end as one `decide` batch (one operation of the log).
fn interactive(ctx: &Ctx, args: &ReviewArgs) -> Result<i32> {
    use std::io::{IsTerminal, Read, Write};
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(Error::NotATerminal {
            command: "review --interactive",
        });
    }
    let report = report(ctx)?;
    let items = of_project(&report.review, args.project.as_deref());
    let mut answers: Vec<Answer> = Vec::new();
    let asked = crate::platform::with_keys(&stdin, || -> std::io::Result<()> {
        let mut out = std::io::stdout();
        let mut input = stdin.lock();
        for (n, r) in items.iter().enumerate() {
            let mut line = String::new();
            crate::report::review::review_line(&mut line, r);
            write!(
                out,
                "{}/{} {}",
                n + 1,
                items.len(),
                crate::output::escape_controls(&line)
            )?;
            loop {
                write!(out, "[k]eep [d]one [n]ot-task [s]kip [q]uit? ")?;
                out.flush()?;
                let mut key = [0u8];
                if input.read(&mut key)? == 0 {
                    writeln!(out)?;
                    return Ok(());
                }
                match key_action(key[0]) {
                    Some(Key::Answer(action)) => {
                        writeln!(out, "{action}")?;
                        answers.push(Answer {
                            action: action.into(),
                            id: r.item.id.clone(),
                            other: None,
                        });
                        break;
                    }
                    Some(Key::Skip) => {
                        writeln!(out, "skip")?;
                        break;
                    }
                    Some(Key::Quit) => {
                        writeln!(out, "quit")?;
                        return Ok(());
                    }
                    None => writeln!(out)?,
                }
            }
        }
        Ok(())
    });
    asked.and_then(|r| r).map_err(|e| Error::read("stdin", e))?;
    if answers.is_empty() {
        if !ctx.quiet {
            println!("nothing answered; nothing written");
        }
        return Ok(exit::OK);
    }
    let how = How {
        date: None,
        dry_run: false,
        regen: false,
        format: Format::Text,
        lock: &args.lock,
    };
    apply(ctx, "review --interactive", &answers, &how)
}

fn archive(ctx: &Ctx, args: &ReviewArgs, before: Date) -> Result<i32> {
    let vault = VaultDir::open(&ctx.root)?;
    let opts = ctx.lock_options(&args.lock);
    let today = ctx.cfg.today();
    let lines = with_lock(&opts, || {
        let report = report(ctx)?;
        let lines: Vec<crate::decisions::Decision> = report
            .review
            .iter()
            .filter(|r| args.project.is_none() || r.item.project == args.project)
            .filter(|r| r.item.last_seen.is_some_and(|d| d < before))
            .map(|r| crate::decisions::Decision {
                date: today,
                verb: crate::decisions::Verb::Keep,
                id: r.item.id.clone(),
                project: r.item.project.clone(),
                text: r.item.text.clone(),
                other: None,
                line: 0,
            })
            .collect();
        crate::decide::append(&vault, &lines)?;
        Ok(lines)
    })?;
    match args.output.format {
        Format::Json => print_json(&lines.iter().map(|d| d.to_line()).collect::<Vec<_>>())?,
        Format::Text if !ctx.quiet => {
            println!(
                "archived {} review items last seen before {before} (a keep decision each, in {})",
                lines.len(),
                crate::decisions::FILE
            );
        }
        Format::Text => {}
    }
    Ok(exit::OK)
}

/// `wrap [--project P]`.
pub(super) fn wrap(ctx: &Ctx, args: &WrapArgs) -> Result<i32> {
    let analysis = crate::pipeline::analyze(&ctx.root, &ctx.cfg)?;
    let project = match &args.project {
        Some(p) => Some(p.clone()),
        None => std::env::current_dir().ok().and_then(|cwd| {
            crate::start_summary::focus_of(
                &ctx.root,
                &ctx.cfg.projects_dir,
                &analysis.vault.projects,
                &ctx.cfg.project_paths,
                &cwd,
            )
        }),
    };
    if let Some(p) = &project
        && !analysis.vault.projects.iter().any(|k| k == p)
    {
        return Err(Error::UnknownProject {
            project: p.clone(),
            known: analysis.vault.projects.clone(),
        });
    }
    let report = crate::report::build_with(&analysis, &ctx.cfg, Trail::Counted);
    let w = crate::report::review::wrap_of(&report, project.as_deref());
    match args.output.format {
        Format::Json => print_json(&w)?,
        Format::Text => print!("{}", crate::report::review::wrap_text(&w)),
    }
    Ok(exit::OK)
}

/// The review items of `project` (all of them without one).
fn of_project<'a>(review: &'a [ReviewItem], project: Option<&str>) -> Vec<&'a ReviewItem> {
    review
        .iter()
        .filter(|r| project.is_none() || r.item.project.as_deref() == project)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Key, key_action};

    #[test]
    fn each_key_maps_to_one_decision_and_other_keys_do_nothing() {
        assert_eq!(key_action(b'k'), Some(Key::Answer("keep")));
        assert_eq!(key_action(b'D'), Some(Key::Answer("done")));
        assert_eq!(key_action(b'n'), Some(Key::Answer("not-task")));
        assert_eq!(key_action(b's'), Some(Key::Skip));
        for quit in [b'q', b'Q', 3, 4, 0x1b] {
            assert_eq!(key_action(quit), Some(Key::Quit), "{quit}");
        }
        for nothing in [b'\n', b'\r', b' ', b'x', b'y', b'1', 0] {
            assert_eq!(key_action(nothing), None, "{nothing}");
        }
    }
}
