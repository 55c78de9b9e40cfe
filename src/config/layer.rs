//! One configuration layer (a TOML file or the environment) and the layering.

use super::{Config, Origin};
use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    output: Option<String>,
    template: Option<String>,
    cap: Option<usize>,
    follow_symlinks: Option<bool>,
    dedup: Option<Dedup>,
    sources: Option<Sources>,
    headings: Option<Headings>,
    extract: Option<Extract>,
    lock: Option<Lock>,
    hook: Option<Hook>,
    stats: Option<Stats>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Dedup {
    threshold: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sources {
    journal: Option<String>,
    projects: Option<String>,
    inbox: Option<String>,
    project_todos: Option<String>,
    progress: Option<String>,
    actives: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Headings {
    next: Option<Vec<String>>,
    done: Option<Vec<String>>,
    skipped: Option<Vec<String>>,
    goal: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Extract {
    keywords: Option<Vec<String>>,
    max_line_chars: Option<usize>,
    max_bytes: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Lock {
    path: Option<String>,
    timeout_secs: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Hook {
    max_chars: Option<usize>,
    max_captured: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stats {
    zombie_days: Option<u32>,
}

/// Values given on the command line.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--config FILE`: used instead of the vault file.
    pub config_file: Option<PathBuf>,
    pub lock_timeout_secs: Option<f64>,
}

/// Copies every `Some` field of `$src` into `$cfg.$dst`, recording `$origin`.
macro_rules! apply {
    ($cfg:ident, $origin:ident, $( $src:expr => $dst:ident as $key:literal ),* $(,)?) => {
        $( if let Some(v) = $src { $cfg.$dst = v; $cfg.set_origin($key, $origin.clone()); } )*
    };
}

impl Layer {
    fn apply(self, cfg: &mut Config, origin: &Origin) {
        let d = self.dedup.unwrap_or_default();
        let s = self.sources.unwrap_or_default();
        let h = self.headings.unwrap_or_default();
        let e = self.extract.unwrap_or_default();
        let l = self.lock.unwrap_or_default();
        let k = self.hook.unwrap_or_default();
        let st = self.stats.unwrap_or_default();
        if let Some(t) = self.template {
            cfg.template = Some(t);
            cfg.set_origin("template", origin.clone());
        }
        apply!(cfg, origin,
            self.output => output as "output",
            self.cap => cap as "cap",
            self.follow_symlinks => follow_symlinks as "follow_symlinks",
            d.threshold => dedup_threshold as "dedup.threshold",
            s.journal => journal_dir as "sources.journal",
            s.projects => projects_dir as "sources.projects",
            s.inbox => inbox_dir as "sources.inbox",
            s.project_todos => project_todos as "sources.project_todos",
            s.progress => progress as "sources.progress",
            s.actives => actives_dir as "sources.actives",
            h.next => next_headings as "headings.next",
            h.done => done_headings as "headings.done",
            h.skipped => skipped_headings as "headings.skipped",
            h.goal => goal_headings as "headings.goal",
            e.keywords => keywords as "extract.keywords",
            e.max_line_chars => extract_max_line_chars as "extract.max_line_chars",
            e.max_bytes => extract_max_bytes as "extract.max_bytes",
            l.path => lock_path as "lock.path",
            l.timeout_secs => lock_timeout_secs as "lock.timeout_secs",
            k.max_chars => hook_max_chars as "hook.max_chars",
            k.max_captured => hook_max_captured as "hook.max_captured",
            st.zombie_days => stats_zombie_days as "stats.zombie_days",
        );
    }
}

/// The user file: `$XDG_CONFIG_HOME/active-status/config.toml`
/// (or `~/.config/active-status/config.toml`).
pub fn user_config_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("active-status").join("config.toml"))
}

/// Builds the effective configuration for the vault at `root`.
pub fn load(root: &Path, overrides: &Overrides) -> Result<Config> {
    let mut cfg = Config::default();
    if let Some(user) = user_config_path() {
        apply_file(&mut cfg, &user, false)?;
    }
    match &overrides.config_file {
        Some(file) => apply_file(&mut cfg, file, true)?,
        None => apply_file(&mut cfg, &root.join(".agents/active-status.toml"), false)?,
    }
    apply_env(&mut cfg)?;
    if let Some(t) = overrides.lock_timeout_secs {
        cfg.lock_timeout_secs = t;
        cfg.set_origin("lock.timeout_secs", Origin::Flag("--lock-timeout".into()));
    }
    validate(&cfg)?;
    Ok(cfg)
}

fn apply_file(cfg: &mut Config, path: &Path, required: bool) -> Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return Ok(()),
        Err(source) => {
            return Err(Error::ConfigRead {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let layer = parse_layer(&text).map_err(|message| Error::Config {
        origin: path.display().to_string(),
        message,
    })?;
    layer.apply(cfg, &Origin::File(path.display().to_string()));
    Ok(())
}

/// Parses a TOML layer; errors read `line N: key `k`: message`.
pub fn parse_layer(text: &str) -> std::result::Result<Layer, String> {
    toml::from_str::<Layer>(text).map_err(|e| describe(text, &e))
}

fn describe(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().to_string();
    let Some(span) = e.span() else {
        return message;
    };
    let start = span.start.min(text.len());
    let line_no = text[..start].matches('\n').count() + 1;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("").trim();
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.ends_with(']'))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    match line.split_once('=') {
        Some((key, _)) => {
            let key = key.trim().trim_matches('"');
            let dotted = table.map_or(key.to_string(), |t| format!("{t}.{key}"));
            format!("line {line_no}: key `{dotted}`: {message}")
        }
        None => format!("line {line_no}: {message} (in `{line}`)"),
    }
}

fn apply_env(cfg: &mut Config) -> Result<()> {
    super::paths::warn_unknown_env();
    for key in super::KEYS {
        let var = format!("ACTIVE_STATUS_{}", key.replace('.', "_").to_uppercase());
        let Ok(raw) = std::env::var(&var) else {
            continue;
        };
        let value = toml::from_str::<toml::Table>(&format!("v = {raw}"))
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or(toml::Value::String(raw.clone()));
        let mut table = toml::Table::new();
        match key.split_once('.') {
            Some((outer, inner)) => {
                let mut sub = toml::Table::new();
                sub.insert(inner.to_string(), value);
                table.insert(outer.to_string(), toml::Value::Table(sub));
            }
            None => {
                table.insert(key.to_string(), value);
            }
        }
        let layer: Layer = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| Error::Config {
                origin: format!("environment variable {var}"),
                message: format!("key `{key}`: {}", e.message().trim()),
            })?;
        layer.apply(cfg, &Origin::Env(var));
    }
    Ok(())
}

fn validate(cfg: &Config) -> Result<()> {
    let bad = |key: &str, message: &str| Error::Config {
        origin: format!("configuration ({})", cfg.origin(key)),
        message: format!("key `{key}`: {message}"),
    };
    if !(cfg.dedup_threshold > 0.0 && cfg.dedup_threshold <= 1.0) {
        return Err(bad(
            "dedup.threshold",
            "must be greater than 0 and at most 1",
        ));
    }
    if !(cfg.lock_timeout_secs >= 0.0 && cfg.lock_timeout_secs.is_finite()) {
        return Err(bad("lock.timeout_secs", "must be a non-negative number"));
    }
    super::paths::validate_paths(cfg).map_err(|(key, message)| bad(key, &message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_names_line_and_key() {
        let err = parse_layer("cap = 3\n[dedup]\nthreshhold = 0.9\n").unwrap_err();
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("dedup.threshhold"), "{err}");
    }

    #[test]
    fn wrong_type_names_line_and_key() {
        let err = parse_layer("\ncap = \"many\"\n").unwrap_err();
        assert!(err.starts_with("line 2: key `cap`"), "{err}");
    }

    #[test]
    fn layer_overrides_defaults_and_records_origin() {
        let mut cfg = Config::default();
        let layer = parse_layer("cap = 3\n[headings]\nnext = [\"Todo\"]\n").unwrap();
        layer.apply(&mut cfg, &Origin::File("v.toml".into()));
        assert_eq!(cfg.cap, 3);
        assert_eq!(cfg.next_headings, vec!["Todo".to_string()]);
        assert_eq!(cfg.origin("cap"), &Origin::File("v.toml".into()));
        assert_eq!(cfg.origin("output"), &Origin::Default);
    }
}
