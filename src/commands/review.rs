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
    let report = report(ctx)?;
    let items: Vec<&ReviewItem> = report
        .review
        .iter()
        .filter(|r| args.project.is_none() || r.item.project == args.project)
        .collect();
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
