//! The commented vault configuration `init` writes, generated from the key
//! table: every key with its documentation and its default, commented out,
//! so a value set in the user file or the environment still applies and
//! `active-status config` shows each key's real origin.

use super::{Config, KEY_DOCS};
use std::fmt::Write;

const HEADER: &str = "\
# active-status vault configuration (.agents/active-status.toml).
# Every key is optional and commented out: the value shown is the built-in
# default. Uncomment a line to change it.
# Layering, lowest to highest: defaults, ~/.config/active-status/config.toml,
# this file, ACTIVE_STATUS_* environment variables, command-line flags.
# Paths are relative to the vault root. Reference: docs/FORMAT.md §11.
";

/// The text of a fresh `.agents/active-status.toml`.
pub fn commented_template() -> String {
    commented_template_with(&[])
}

/// The template with some keys set: `(key, TOML value, comment)`; each such
/// key is written uncommented, its comment above it.
pub fn commented_template_with(set: &[(&str, String, String)]) -> String {
    let defaults = Config::default();
    let mut out = String::from(HEADER);
    let mut table: Option<&str> = None;
    for doc in KEY_DOCS {
        let (section, name) = match doc.key.split_once('.') {
            Some((s, n)) => (Some(s), n),
            None => (None, doc.key),
        };
        if section != table {
            table = section;
            if let Some(s) = section {
                // Table headers stay: an empty table is valid TOML, and a
                // line uncommented below it lands in the right table.
                let _ = write!(out, "\n[{s}]\n");
            }
        }
        out.push('\n');
        for line in doc.doc.lines() {
            let _ = writeln!(out, "#{line}");
        }
        if let Some((_, value, comment)) = set.iter().find(|(k, _, _)| *k == doc.key) {
            let _ = writeln!(out, "# {comment}");
            let _ = writeln!(out, "{name} = {value}");
            continue;
        }
        let value = defaults
            .toml_of(doc.key)
            .or(doc.example.map(str::to_string))
            .unwrap_or_default();
        let _ = writeln!(out, "# {name} = {value}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{KEYS, parse_layer};

    /// Uncomments every `# key = value` line of the template.
    fn uncommented(text: &str) -> String {
        text.lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest) if rest.contains(" = ") && !rest.starts_with(' ') => rest,
                _ => l,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn template_lists_every_key_commented_out() {
        let text = commented_template();
        // As written, it sets nothing.
        let layer = parse_layer(&text).expect("template parses");
        assert!(layer.is_empty(), "the template sets {layer:?}");
        // Uncommented, it sets every key, each to its default.
        let all = uncommented(&text);
        let layer = parse_layer(&all).unwrap_or_else(|e| panic!("{e}\n{all}"));
        let mut keys = layer.keys();
        keys.sort_unstable();
        let mut want = KEYS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want, "template keys");
        let mut cfg = Config::default();
        layer.apply(&mut cfg, &crate::config::Origin::File("t".into()));
        let defaults = Config::default();
        for key in KEYS.iter().filter(|k| **k != "template") {
            assert_eq!(cfg.toml_of(key), defaults.toml_of(key), "{key}");
        }
    }

    #[test]
    fn every_key_is_documented() {
        for doc in KEY_DOCS {
            assert!(!doc.doc.trim().is_empty(), "{} has no comment", doc.key);
        }
    }
}
