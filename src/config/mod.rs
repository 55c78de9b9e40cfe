//! Effective configuration (docs/FORMAT.md §11): built-in defaults, user file, vault
//! file, environment and flags, each value remembering where it came from.

#[macro_use]
pub mod declare;
mod keys;
mod layer;
mod paths;
mod template;

pub use declare::ExtraSource;
pub use keys::{Config, KEY_DOCS, KEYS};
pub use layer::{Layer, Overrides, load, parse_layer, user_config_path};
pub use paths::{env_var_name, unknown_env_vars, validate_paths};
pub use template::{commented_template, commented_template_with};

use serde::Serialize;

/// Where a configuration value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Origin {
    Default,
    File(String),
    Env(String),
    Flag(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::File(p) => write!(f, "file {p}"),
            Origin::Env(v) => write!(f, "env {v}"),
            Origin::Flag(n) => write!(f, "flag {n}"),
        }
    }
}

impl Config {
    /// Today: the given date, else the local date.
    pub fn today(&self) -> jiff::civil::Date {
        self.today.unwrap_or_else(|| crate::clock::now().date())
    }

    /// The `sources.extra` kind (`session-log`, `handoff`, …) of the source
    /// holding the root-relative file `rel`, when one declares it.
    pub fn extra_kind_of(&self, rel: &str) -> Option<&str> {
        self.extra_sources
            .iter()
            .find(|e| {
                let p = e.path.trim_end_matches('/');
                rel == p || (rel.starts_with(p) && rel.as_bytes().get(p.len()) == Some(&b'/'))
            })
            .map(|e| e.kind.as_str())
    }

    pub fn origin(&self, key: &str) -> &Origin {
        self.origins
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, o)| o)
            .unwrap_or(&Origin::Default)
    }

    pub(crate) fn set_origin(&mut self, key: &'static str, origin: Origin) {
        match self.origins.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = origin,
            None => self.origins.push((key, origin)),
        }
    }

    /// The value of a key rendered as TOML, for `active-status config`.
    pub fn value_of(&self, key: &str) -> String {
        self.toml_of(key).unwrap_or_else(|| "(built-in)".into())
    }
}

/// Checks `[A-Za-z0-9][A-Za-z0-9._-]*` (docs/FORMAT.md §1).
pub fn is_slug(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphanumeric() => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}
