//! `extract`: conversation follow-up candidates and whether each is already
//! persisted somewhere in the vault.

use super::{Ctx, print_json};
use crate::cli::{ExtractArgs, Format};
use crate::error::{Error, Result, exit};
use crate::merge::{Key, SimIndex, similar};
use crate::normalize::normalize;
use crate::report::Place;
use crate::scan::Vault;
use crate::transcript::{Candidate, Extraction, Goal, Role, extract_path};
use serde::Serialize;

#[derive(Serialize)]
pub struct CandidateOut {
    pub text: String,
    pub keyword: String,
    pub role: Role,
    pub line: usize,
    pub persisted: bool,
    pub persisted_at: Option<Place>,
}

#[derive(Serialize)]
pub struct ExtractOut {
    pub schema: u32,
    pub transcript: String,
    pub format: crate::transcript::Format,
    pub candidates: Vec<CandidateOut>,
    pub orphans: usize,
    pub goal: Option<Goal>,
    pub skipped_lines: usize,
}

/// Every list item of every source, as (normalized text, place).
struct Persisted {
    norms: Vec<String>,
    places: Vec<Place>,
}

impl Persisted {
    fn of(vault: &Vault) -> Self {
        let mut norms = Vec::new();
        let mut places = Vec::new();
        for i in &vault.items {
            norms.push(i.norm.clone());
            places.push(Place {
                path: i.loc.path.clone(),
                line: i.loc.line,
            });
        }
        for s in &vault.signals {
            norms.push(s.norm.clone());
            places.push(Place {
                path: s.loc.path.clone(),
                line: s.loc.line,
            });
        }
        for s in &vault.skips {
            norms.push(normalize(&s.text));
            places.push(Place {
                path: s.loc.path.clone(),
                line: s.loc.line,
            });
        }
        for g in &vault.goals {
            norms.push(normalize(&g.text));
            places.push(Place {
                path: g.path.clone(),
                line: g.line,
            });
        }
        Persisted { norms, places }
    }

    /// The first place (in path, line order) holding a match for `text`.
    fn find(
        &self,
        index: &SimIndex,
        keys: &[Key<'_>],
        text: &str,
        threshold: f64,
    ) -> Option<Place> {
        let norm = normalize(text);
        let q = Key::new(&norm);
        let mut best: Option<&Place> = None;
        index.candidates(None, q.len, threshold, |bucket| {
            bucket.scan(&q, threshold, u32::MAX, |id| {
                let place = &self.places[id as usize];
                if best.is_none_or(|b| (&place.path, place.line) < (&b.path, b.line))
                    && similar(&q, &keys[id as usize], threshold)
                {
                    best = Some(place);
                }
                true
            })
        });
        best.cloned()
    }
}

/// Runs the extraction and marks each candidate persisted or orphan.
pub fn extract_report(ctx: &Ctx, path: &std::path::Path, shown_path: &str) -> Result<ExtractOut> {
    let Extraction {
        format,
        candidates,
        goal,
        skipped_lines,
    } = extract_path(path, &ctx.cfg.keywords).map_err(|e| Error::read(path, e))?;
    let vault = crate::scan::scan_vault(&ctx.root, &ctx.cfg)?;
    let persisted = Persisted::of(&vault);
    let keys: Vec<Key<'_>> = persisted.norms.iter().map(|n| Key::new(n)).collect();
    let mut index = SimIndex::default();
    for (id, k) in keys.iter().enumerate() {
        index.insert(None, k, id as u32);
    }
    let candidates: Vec<CandidateOut> = candidates
        .into_iter()
        .map(
            |Candidate {
                 text,
                 keyword,
                 role,
                 line,
             }| {
                let text = crate::privacy::redact(&text).into_owned();
                let at = persisted.find(&index, &keys, &text, ctx.cfg.dedup_threshold);
                CandidateOut {
                    text,
                    keyword,
                    role,
                    line,
                    persisted: at.is_some(),
                    persisted_at: at,
                }
            },
        )
        .collect();
    let goal = goal.map(|g| Goal {
        text: crate::privacy::redact(&g.text).into_owned(),
        line: g.line,
    });
    Ok(ExtractOut {
        schema: 1,
        transcript: shown_path.to_string(),
        format,
        orphans: candidates.iter().filter(|c| !c.persisted).count(),
        candidates,
        goal,
        skipped_lines,
    })
}

pub fn extract(ctx: &Ctx, args: &ExtractArgs) -> Result<i32> {
    let out = extract_report(
        ctx,
        &args.transcript,
        &args.transcript.display().to_string(),
    )?;
    match args.format {
        Format::Json => print_json(&out)?,
        Format::Text if ctx.quiet => {}
        Format::Text => {
            println!(
                "{} ({}): {} candidates, {} orphans, {} malformed lines skipped",
                out.transcript,
                serde_json::to_value(out.format)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                out.candidates.len(),
                out.orphans,
                out.skipped_lines
            );
            if let Some(g) = &out.goal {
                println!(
                    "goal (line {}): {}",
                    g.line,
                    crate::text::escape_controls(&g.text)
                );
            }
            for c in &out.candidates {
                let state = match &c.persisted_at {
                    Some(p) => format!("persisted at {}:{}", p.path, p.line),
                    None => "ORPHAN".to_string(),
                };
                println!(
                    "  line {:>5} [{}] {}  — {state}",
                    c.line,
                    c.keyword,
                    crate::text::escape_controls(&c.text)
                );
            }
        }
    }
    Ok(exit::OK)
}
