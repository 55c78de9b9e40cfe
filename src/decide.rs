//! Answering the review (docs/FORMAT.md §5.4): `keep`, `same`, `not-task`
//! append one line each to the decisions file; `done` and `cancel` edit
//! the vault as the commands of that name do. A batch is checked whole
//! (every item found) before anything is written, then written under the
//! lock the caller holds.

use crate::act::Action;
use crate::config::Config;
use crate::decisions::{Decision, FILE, Verb};
use crate::error::{Error, Result};
use crate::vault_fs::VaultDir;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

/// One answer: `{"action": "keep", "id": "3fy6bd"}`; `same` also names
/// `"other"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Answer {
    pub(crate) action: String,
    pub(crate) id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) other: Option<String>,
}

/// What one answer did.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Done {
    pub(crate) action: String,
    pub(crate) id: String,
    pub(crate) text: String,
    pub(crate) project: Option<String>,
    /// The decisions line written (keep, same, not-task).
    pub(crate) line: Option<String>,
    /// The files `done`/`cancel` changed.
    pub(crate) changed: Vec<String>,
}

/// A batch's outcome (`--format json`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Decided {
    pub(crate) schema: u32,
    pub(crate) answers: Vec<Done>,
    pub(crate) written: bool,
}

/// Reads a JSON batch: an array of answers.
pub(crate) fn parse_batch(from: &str, text: &str) -> Result<Vec<Answer>> {
    let bad = |at: String, message: String| Error::DecideInput {
        from: from.to_string(),
        at,
        message,
    };
    let answers: Vec<Answer> = serde_json::from_str(text).map_err(|e| {
        bad(
            format!("line {}, column {}", e.line(), e.column()),
            format!("not a JSON array of answers ({e})"),
        )
    })?;
    for (n, a) in answers.iter().enumerate() {
        let at = format!("answer {}", n + 1);
        match a.action.as_str() {
            "keep" | "not-task" | "done" | "cancel" if a.other.is_none() => {}
            "same" if a.other.is_some() => {}
            "same" => return Err(bad(at, "`same` needs \"other\": the second ID".into())),
            "keep" | "not-task" | "done" | "cancel" => {
                return Err(bad(at, format!("`{}` takes no \"other\"", a.action)));
            }
            other => {
                return Err(bad(
                    at,
                    format!("unknown action {other:?}: keep, same, not-task, done or cancel"),
                ));
            }
        }
    }
    Ok(answers)
}

/// The open item an answer names: (ID, text, project).
fn resolve_item(
    merged: &crate::merge::Merged,
    ids: &[String],
    query: &str,
    cfg: &Config,
) -> Result<(String, String, Option<String>)> {
    let c = crate::find::find_open(merged, query, cfg.dedup_threshold)?;
    let rep = &merged.items[merged.clusters[c].members[0]];
    Ok((
        ids[c].clone(),
        rep.text.clone(),
        merged.clusters[c].project.clone(),
    ))
}

/// Checks every answer against the vault as it is and returns the
/// decisions lines to append, with what each answer will do. Nothing is
/// written.
pub(crate) fn plan(
    vault: &VaultDir,
    cfg: &Config,
    from: &str,
    answers: &[Answer],
    date: Date,
) -> Result<(Vec<Decision>, Vec<Done>)> {
    let analysis = crate::pipeline::analyze(vault.root(), cfg)?;
    let merged = &analysis.merged;
    let ids = crate::find::ids(merged);
    let mut lines = Vec::new();
    let mut done = Vec::new();
    for (n, a) in answers.iter().enumerate() {
        let at = || format!("answer {}", n + 1);
        let wrap = |e: Error| Error::DecideInput {
            from: from.to_string(),
            at: at(),
            message: e.to_string(),
        };
        let (id, text, project) = resolve_item(merged, &ids, &a.id, cfg).map_err(wrap)?;
        let mut line = None;
        if let Some(verb) = Verb::parse(&a.action) {
            let other = match &a.other {
                Some(o) => {
                    let (oid, otext, oproject) =
                        resolve_item(merged, &ids, o, cfg).map_err(wrap)?;
                    if oproject != project {
                        return Err(wrap(Error::DecideInput {
                            from: from.to_string(),
                            at: at(),
                            message: format!("{id} and {oid} are in different projects"),
                        }));
                    }
                    if oid == id {
                        return Err(Error::DecideInput {
                            from: from.to_string(),
                            at: at(),
                            message: format!("`same` names {id} twice"),
                        });
                    }
                    Some((oid, otext))
                }
                None => None,
            };
            let d = Decision {
                date,
                verb,
                id: id.clone(),
                project: project.clone(),
                text: text.clone(),
                other,
                line: 0,
            };
            line = Some(d.to_line());
            lines.push(d);
        }
        done.push(Done {
            action: a.action.clone(),
            id,
            text,
            project,
            line,
            changed: Vec::new(),
        });
    }
    Ok((lines, done))
}

/// Appends `lines` to the decisions file (created when absent). Call with
/// the lock held.
pub(crate) fn append(vault: &VaultDir, lines: &[Decision]) -> Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let mut text = match vault.read(FILE)? {
        Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        None => "# active-status decisions: one line per decision, appended (docs/FORMAT.md).\n"
            .to_string(),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for d in lines {
        text.push_str(&d.to_line());
        text.push('\n');
    }
    vault.create_dir_all(".agents")?;
    vault.replace(FILE, text.as_bytes())?;
    Ok(())
}

/// Plans the batch, then writes it: the decisions lines first, then each
/// `done`/`cancel` (by the ID it had when planned). Call with the lock held.
pub(crate) fn run(
    vault: &VaultDir,
    cfg: &Config,
    from: &str,
    answers: &[Answer],
    date: Date,
) -> Result<Decided> {
    let (lines, mut done) = plan(vault, cfg, from, answers, date)?;
    // The edits first, by the IDs the plan read; then the decisions (which
    // change which items are open, and so the IDs).
    for d in done.iter_mut() {
        let action = match d.action.as_str() {
            "done" => Action::Done,
            "cancel" => Action::Cancel,
            _ => continue,
        };
        let acted = crate::act::run_action(vault, cfg, &d.id, action, date)?;
        d.changed = acted
            .changes
            .iter()
            .map(|c| format!("{}:{} {}", c.path, c.line, c.change))
            .collect();
    }
    append(vault, &lines)?;
    Ok(Decided {
        schema: 1,
        answers: done,
        written: true,
    })
}

/// The text form: one line per answer.
pub(crate) fn text(d: &Decided) -> String {
    let mut o = String::new();
    for a in &d.answers {
        let project = a.project.as_deref().unwrap_or("untagged");
        o.push_str(&format!("{} {} [{project}] {}\n", a.action, a.id, a.text));
        for c in &a.changed {
            o.push_str(&format!("  {c}\n"));
        }
    }
    if !d.written {
        o.push_str("(dry run: nothing written)\n");
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_checked_whole() {
        let ok = parse_batch("-", r#"[{"action":"same","id":"a1","other":"b2"}]"#).unwrap();
        assert_eq!(ok[0].other.as_deref(), Some("b2"));
        let err = parse_batch(
            "-",
            r#"[{"action":"keep","id":"a1"},{"action":"maybe","id":"b"}]"#,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "decide --from -: answer 2: unknown action \"maybe\": keep, same, not-task, done or cancel; nothing was written"
        );
    }
}
