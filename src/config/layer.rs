//! One configuration layer (a TOML file or the environment) and the layering.

use super::{Config, Origin};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The settings of one layer (a TOML file or the environment), each key
/// already checked to exist and to hold a value of its type.
#[derive(Debug, Default, Clone)]
pub struct Layer {
    /// `(key, value, extend)`: `extend` for a `<key>_extra` list that adds to
    /// the key's value instead of replacing it.
    settings: Vec<(&'static str, toml::Value, bool)>,
}

/// Values given on the command line.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--config FILE`: used instead of the vault file.
    pub config_file: Option<PathBuf>,
    pub lock_timeout_secs: Option<f64>,
}

impl Layer {
    pub fn is_empty(&self) -> bool {
        self.settings.is_empty()
    }

    /// The keys this layer sets, in file order.
    pub fn keys(&self) -> Vec<&'static str> {
        self.settings.iter().map(|(k, _, _)| *k).collect()
    }

    /// Checks `value` against `key` and records it; the message names what
    /// was wrong in words ("expected a whole number").
    fn push(&mut self, key: &str, value: toml::Value) -> std::result::Result<(), String> {
        let mut scratch = Config::default();
        if let Some(base) = key.strip_suffix("_extra")
            && super::KEYS.contains(&base)
        {
            // `<list key>_extra`: added to the list (defaults or an earlier layer).
            let is_list = scratch.toml_of(base).is_some_and(|t| t.starts_with('['));
            if !is_list {
                return Err(format!(
                    "`{base}` is not a list, so it has no `_extra` form"
                ));
            }
            return match scratch.set(base, &value) {
                Ok(base) => {
                    self.settings.push((base, value, true));
                    Ok(())
                }
                Err(Some(want)) => Err(format!("expected {want}, found {value}")),
                Err(None) => Err(unknown_key(key)),
            };
        }
        match scratch.set(key, &value) {
            Ok(key) => {
                self.settings.push((key, value, false));
                Ok(())
            }
            Err(None) => Err(unknown_key(key)),
            Err(Some(want)) => Err(format!("expected {want}, found {value}")),
        }
    }

    /// Sets every key of the layer on `cfg`, recording `origin`.
    pub fn apply(&self, cfg: &mut Config, origin: &Origin) {
        for (key, value, extend) in &self.settings {
            let value = if *extend {
                extended(cfg, key, value)
            } else {
                value.clone()
            };
            // Checked in `push`: a set never fails here.
            if cfg.set(key, &value).is_ok() {
                cfg.set_origin(key, origin.clone());
            }
        }
    }
}

/// The list `key` holds in `cfg`, with the entries of `more` it lacks added
/// at the end.
fn extended(cfg: &Config, key: &str, more: &toml::Value) -> toml::Value {
    let mut list = cfg
        .toml_of(key)
        .and_then(|t| toml::from_str::<toml::Table>(&format!("v = {t}")).ok())
        .and_then(|mut t| t.remove("v"))
        .and_then(|v| match v {
            toml::Value::Array(a) => Some(a),
            _ => None,
        })
        .unwrap_or_default();
    for x in more.as_array().into_iter().flatten() {
        if !list.contains(x) {
            list.push(x.clone());
        }
    }
    toml::Value::Array(list)
}

fn unknown_key(key: &str) -> String {
    let closest = super::KEYS
        .iter()
        .map(|k| (strsim::jaro_winkler(k, key), *k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match closest {
        Some((_, k)) => format!("unknown key; did you mean `{k}`?"),
        None => "unknown key (`active-status config` lists every key)".to_string(),
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
        // A missing user file is normal; an unreadable one (or an unreadable
        // folder on its way) must not stop every command: warn and go on.
        match apply_file(&mut cfg, &user, false) {
            Err(Error::ConfigRead { path, source }) => cfg.warnings.push(format!(
                "cannot read the user configuration {}: {source}; ignored",
                path.display()
            )),
            other => other?,
        }
    }
    match &overrides.config_file {
        Some(file) => apply_file(&mut cfg, file, true)?,
        None => {
            let below = cfg.clone();
            apply_file(&mut cfg, &root.join(".agents/active-status.toml"), false)?;
            lower_only(&mut cfg, &below);
        }
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
    let text = match std::fs::read(path) {
        // Bad data, like a TOML error (65), not an unreadable file.
        Ok(bytes) => String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Error::Config {
                origin: path.display().to_string(),
                message: format!("line {line}: not valid UTF-8"),
            }
        })?,
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

/// Keys that raise what a run may read or spend: the vault's own file may
/// come from someone else, so it may lower them but never raise them (only
/// the user file, the environment and flags can). A raise is undone with a
/// warning naming the key, never a path.
fn lower_only(cfg: &mut Config, below: &Config) {
    let mut undone = Vec::new();
    macro_rules! lower {
        ($key:literal, $field:ident) => {
            if cfg.$field > below.$field {
                cfg.$field = below.$field.clone();
                cfg.set_origin($key, below.origin($key).clone());
                undone.push($key);
            }
        };
    }
    lower!("follow_symlinks", follow_symlinks);
    lower!("extract.max_bytes", extract_max_bytes);
    lower!("extract.max_line_chars", extract_max_line_chars);
    lower!("lock.timeout_secs", lock_timeout_secs);
    lower!("hook.max_chars", hook_max_chars);
    lower!("hook.max_captured", hook_max_captured);
    for key in undone {
        cfg.warnings.push(format!(
            "the vault's configuration raises `{key}`, which only your own configuration \
             (user file, environment, flags) may raise; the lower value is kept"
        ));
    }
}

/// Parses a TOML layer; errors read `line N: key `k`: message`.
pub fn parse_layer(text: &str) -> std::result::Result<Layer, String> {
    let table = toml::from_str::<toml::Table>(text).map_err(|e| describe(text, &e))?;
    let lines = key_lines(text);
    let mut layer = Layer::default();
    for (name, value) in table {
        let is_table = super::KEYS.iter().any(|k| {
            k.strip_prefix(name.as_str())
                .is_some_and(|r| r.starts_with('.'))
        });
        let entries: Vec<(String, toml::Value)> = match value {
            toml::Value::Table(inner) if is_table => inner
                .into_iter()
                .map(|(k, v)| (format!("{name}.{k}"), v))
                .collect(),
            other => vec![(name, other)],
        };
        for (key, value) in entries {
            layer.push(&key, value).map_err(|message| {
                match lines.iter().find(|(k, _)| *k == key) {
                    Some((_, line)) => format!("line {line}: key `{key}`: {message}"),
                    None => format!("key `{key}`: {message}"),
                }
            })?;
        }
    }
    Ok(layer)
}

/// The line of every dotted key of `text` (1-based), from toml's spans.
fn key_lines(text: &str) -> Vec<(String, usize)> {
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let Ok(doc) = toml::de::DeTable::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in doc.get_ref() {
        let name = key.get_ref();
        out.push((name.to_string(), line_of(key.span().start)));
        if let toml::de::DeValue::Table(inner) = value.get_ref() {
            for (k, _) in inner {
                out.push((format!("{name}.{}", k.get_ref()), line_of(k.span().start)));
            }
        }
    }
    out
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
        let var = super::paths::env_var_name(key);
        // An empty variable is unset (as `VAR= cmd` is commonly meant).
        let Some(raw) = std::env::var(&var).ok().filter(|v| !v.is_empty()) else {
            continue;
        };
        // A TOML value (`4`, `true`, `["a"]`), else the text itself: a bare
        // string needs no quotes in the environment.
        let parsed = toml::from_str::<toml::Table>(&format!("v = {raw}"))
            .ok()
            .and_then(|mut t| t.remove("v"));
        let mut layer = Layer::default();
        let pushed = match parsed {
            Some(value) => layer.push(key, value).or_else(|message| {
                let mut as_text = Layer::default();
                as_text
                    .push(key, toml::Value::String(raw.clone()))
                    .map(|()| layer = as_text)
                    .map_err(|_| message)
            }),
            None => layer.push(key, toml::Value::String(raw.clone())),
        };
        pushed.map_err(|message| Error::Config {
            origin: format!("environment variable {var}"),
            message: format!("key `{key}`: {message}"),
        })?;
        layer.apply(cfg, &Origin::Env(var));
    }
    Ok(())
}

/// The per-key checks of the key table, then the path rules that relate
/// keys to each other (`paths.rs`).
fn validate(cfg: &Config) -> Result<()> {
    let bad = |key: &str, message: &str| Error::Config {
        origin: format!("configuration ({})", cfg.origin(key)),
        message: format!("key `{key}`: {message}"),
    };
    cfg.check_values()
        .map_err(|(key, message)| bad(key, message))?;
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
        assert_eq!(
            err,
            "line 2: key `cap`: expected a whole number (0 or more), found \"many\""
        );
    }

    #[test]
    fn type_errors_are_in_words() {
        for (text, want) in [
            (
                "follow_symlinks = 1",
                "line 1: key `follow_symlinks`: expected true or false, found 1",
            ),
            (
                "[headings]\nnext = \"Next\"",
                "line 2: key `headings.next`: expected a list of strings, like [\"a\", \"b\"], found \"Next\"",
            ),
            (
                "[lock]\ntimeout_secs = \"soon\"",
                "line 2: key `lock.timeout_secs`: expected a number, found \"soon\"",
            ),
            (
                "cap = -1",
                "line 1: key `cap`: expected a whole number (0 or more), found -1",
            ),
            (
                "output = 3",
                "line 1: key `output`: expected a string in quotes, found 3",
            ),
        ] {
            assert_eq!(parse_layer(text).unwrap_err(), want, "{text}");
        }
    }

    #[test]
    fn unknown_key_suggests_the_closest() {
        let err = parse_layer("[dedup]\nthreshhold = 0.9\n").unwrap_err();
        assert_eq!(
            err,
            "line 2: key `dedup.threshhold`: unknown key; did you mean `dedup.threshold`?"
        );
        let err = parse_layer("zzz = 1").unwrap_err();
        assert!(err.contains("unknown key (`active-status config`"), "{err}");
        // A table name given a plain value.
        assert!(parse_layer("dedup = 3").is_err());
    }

    #[test]
    fn dotted_and_inline_tables_work() {
        let layer = parse_layer("dedup.threshold = 0.9\nlock = { timeout_secs = 2 }\n").unwrap();
        assert_eq!(layer.keys(), vec!["dedup.threshold", "lock.timeout_secs"]);
    }

    #[test]
    fn extra_lists_add_to_the_defaults_and_plain_lists_replace() {
        let mut cfg = Config::default();
        let n = cfg.next_headings.len();
        let layer = parse_layer("[headings]\nnext_extra = [\"Parking lot\", \"Next\"]\n").unwrap();
        layer.apply(&mut cfg, &Origin::File("v.toml".into()));
        assert_eq!(cfg.next_headings.len(), n + 1);
        assert_eq!(cfg.next_headings.last().unwrap(), "Parking lot");
        let layer =
            parse_layer("[headings]\nnext = [\"Todo\"]\nnext_extra = [\"Later\"]\n").unwrap();
        let mut cfg = Config::default();
        layer.apply(&mut cfg, &Origin::File("v.toml".into()));
        assert_eq!(
            cfg.next_headings,
            vec!["Todo".to_string(), "Later".to_string()]
        );
        assert_eq!(
            parse_layer("cap_extra = [1]").unwrap_err(),
            "line 1: key `cap_extra`: `cap` is not a list, so it has no `_extra` form"
        );
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
