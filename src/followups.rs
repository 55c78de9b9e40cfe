//! A transcript's follow-up candidates checked against the vault: persisted
//! (routed, done, skipped, or a goal), captured (an open item of a capture file
//! in the inbox, see [`crate::capture`]), or neither. A captured candidate is
//! still an orphan until it is routed or skipped, so `/wrap` asks about it.

use std::path::Path;

use serde::Serialize;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::item::Location;
use crate::merge::{Key, SimIndex, similar};
use crate::normalize::key;
use crate::scan::Vault;
use crate::transcript::{self, Candidate, Extraction, Goal, Options, Origin, Role};

/// Whether the vault-relative `path` is a capture file of the inbox (the
/// files [`crate::capture`] writes).
pub(crate) fn is_capture_path(path: &str, cfg: &Config) -> bool {
    is_capture_path_in(path, &cfg.inbox_dir)
}

/// [`is_capture_path`] for the inbox folder `inbox_dir`.
pub(crate) fn is_capture_path_in(path: &str, inbox_dir: &str) -> bool {
    let inbox = inbox_dir.trim_end_matches('/');
    path.strip_prefix(inbox)
        .and_then(|r| r.strip_prefix('/'))
        .is_some_and(|name| !name.contains('/') && is_capture_name(name))
}

/// `YYYY-MM-DDTHHMMSS-<session>[-n].md`.
pub(crate) fn is_capture_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    let b = stem.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    b.len() > 18
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..17)
        && b[17] == b'-'
        && stem[18..]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-')
}

#[derive(Debug, Serialize)]
pub(crate) struct CandidateOut {
    pub text: String,
    pub keyword: String,
    pub origin: Origin,
    pub role: Role,
    pub line: usize,
    pub persisted: bool,
    pub persisted_at: Option<Location>,
    /// An open item of an inbox capture file matching this candidate.
    pub captured_at: Option<Location>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ExtractOut {
    pub schema: u32,
    pub transcript: String,
    pub format: transcript::Format,
    pub candidates: Vec<CandidateOut>,
    /// Candidates neither persisted nor skipped (captured ones included).
    pub orphans: usize,
    pub goal: Option<Goal>,
    pub skipped_lines: usize,
    pub long_lines: usize,
    pub resolved: usize,
    pub cwd: Option<String>,
}

/// The transcript reading options of a configuration.
pub(crate) fn options(cfg: &Config, force_text: bool) -> Options {
    Options {
        keywords: cfg.keywords.clone(),
        handoff_leads: cfg.extract_handoff_leads.clone(),
        max_line_chars: cfg.extract_max_line_chars,
        max_bytes: cfg.extract_max_bytes,
        force_text,
    }
}

/// Reads a transcript, mapping its failures to errors naming `path`.
pub(crate) fn read(path: &Path, opts: &Options) -> Result<Extraction> {
    use transcript::ExtractError as E;
    use transcript::read::ReadError as R;
    transcript::extract_path(path, opts).map_err(|e| match e {
        E::Read(R::Io(io)) => Error::read(path, io),
        E::Read(r) => Error::TranscriptRefused {
            path: path.to_path_buf(),
            reason: r.to_string(),
        },
        E::NotRecognised { line } => Error::TranscriptNotRecognised {
            path: path.to_path_buf(),
            line,
        },
        E::NotText(why) => Error::TranscriptRefused {
            path: path.to_path_buf(),
            reason: format!("not a transcript: {why}"),
        },
    })
}

/// Texts and places a candidate is compared with.
struct Places {
    /// Matching keys with the private marks of their texts.
    norms: Vec<(String, Option<u64>)>,
    places: Vec<Location>,
}

impl Places {
    fn push(&mut self, norm: (String, Option<u64>), path: &std::sync::Arc<str>, line: u32) {
        self.norms.push(norm);
        self.places.push(Location {
            path: path.clone(),
            line,
        });
    }

    fn keys(&self) -> Vec<Key<'_>> {
        self.norms
            .iter()
            .map(|(n, private)| Key::with_private(n, *private))
            .collect()
    }

    /// The first place (in path, line order) holding a match for `text`.
    fn find(
        &self,
        index: &SimIndex,
        keys: &[Key<'_>],
        q: &Key<'_>,
        threshold: f64,
    ) -> Option<Location> {
        let mut best: Option<&Location> = None;
        index.candidates(None, q, threshold, |bucket| {
            bucket.scan(q, threshold, u32::MAX, |id| {
                let place = &self.places[id as usize];
                if best.is_none_or(|b| (&place.path, place.line) < (&b.path, b.line))
                    && similar(q, &keys[id as usize], threshold)
                {
                    best = Some(place);
                }
                true
            })
        });
        best.cloned()
    }
}

/// Splits the vault into persisted places and captured places.
fn places(vault: &Vault, cfg: &Config) -> (Places, Places) {
    let mut persisted = Places {
        norms: Vec::new(),
        places: Vec::new(),
    };
    let mut captured = Places {
        norms: Vec::new(),
        places: Vec::new(),
    };
    for i in &vault.items {
        let target = if is_capture_path(&i.loc.path, cfg) {
            &mut captured
        } else {
            &mut persisted
        };
        target.push((i.norm.to_string(), i.private), &i.loc.path, i.loc.line);
    }
    for s in &vault.signals {
        persisted.push((s.norm.to_string(), s.private), &s.loc.path, s.loc.line);
    }
    for s in &vault.skips {
        persisted.push((key(&s.text), None), &s.loc.path, s.loc.line);
    }
    for g in &vault.goals {
        let path: std::sync::Arc<str> = g.path.clone();
        persisted.push((key(&g.text), None), &path, g.line);
    }
    (persisted, captured)
}

/// Marks each candidate of `ex` persisted, captured, or neither.
pub(crate) fn check(vault: &Vault, cfg: &Config, ex: Extraction, shown_path: &str) -> ExtractOut {
    let (persisted, captured) = places(vault, cfg);
    let (pk, ck) = (persisted.keys(), captured.keys());
    let index_of = |keys: &[Key<'_>]| {
        let mut index = SimIndex::default();
        for (id, k) in keys.iter().enumerate() {
            index.insert(None, k, id as u32);
        }
        index
    };
    let (pi, ci) = (index_of(&pk), index_of(&ck));
    let t = cfg.dedup_threshold;
    let candidates: Vec<CandidateOut> = ex
        .candidates
        .into_iter()
        .map(
            |Candidate {
                 text,
                 keyword,
                 origin,
                 role,
                 line,
             }| {
                let private = crate::guards::private_mark(&text);
                let text = crate::privacy::redact(&text).into_owned();
                let norm = key(&text);
                let q = Key::with_private(&norm, private);
                let at = persisted.find(&pi, &pk, &q, t);
                let cap = captured.find(&ci, &ck, &q, t);
                CandidateOut {
                    text,
                    keyword,
                    origin,
                    role,
                    line,
                    persisted: at.is_some(),
                    persisted_at: at,
                    captured_at: cap,
                }
            },
        )
        .collect();
    let goal = ex.goal.map(|g| Goal {
        text: crate::privacy::redact(&g.text).into_owned(),
        line: g.line,
    });
    ExtractOut {
        schema: 1,
        transcript: shown_path.to_string(),
        format: ex.format,
        orphans: candidates.iter().filter(|c| !c.persisted).count(),
        candidates,
        goal,
        skipped_lines: ex.skipped_lines,
        long_lines: ex.long_lines,
        resolved: ex.resolved,
        cwd: ex.cwd,
    }
}

/// Reads a transcript and checks its candidates against the vault at `root`.
pub(crate) fn report(
    root: &Path,
    cfg: &Config,
    path: &Path,
    shown: &str,
    force_text: bool,
) -> Result<ExtractOut> {
    let ex = read(path, &options(cfg, force_text))?;
    let vault = crate::scan::scan_vault(root, cfg)?;
    Ok(check(&vault, cfg, ex, shown))
}
