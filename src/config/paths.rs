//! Path keys of the configuration are untrusted (a vault's config may come
//! from someone else): each must name a place inside the vault root, and
//! `output` / `lock.path` must not name a file the tool reads or git owns.
//! Also: `ACTIVE_STATUS_*` variables that name no key are reported.

use super::{Config, KEYS};
use crate::vault_fs::check_rel;
use std::path::{Component, Path};

/// The vault configuration file, relative to the root.
const CONFIG_FILE: &str = ".agents/active-status.toml";

/// Environment variables of the `ACTIVE_STATUS_` family that are not keys.
const OTHER_VARS: &[&str] = &["ACTIVE_STATUS_ROOT", "ACTIVE_STATUS_TODAY"];

/// The environment variable of a key (`lock.path` → `ACTIVE_STATUS_LOCK_PATH`).
pub fn env_var_name(key: &str) -> String {
    format!("ACTIVE_STATUS_{}", key.replace('.', "_").to_uppercase())
}

fn first_is(path: &Path, dir: &str) -> bool {
    let d = Path::new(dir);
    path.starts_with(d)
}

fn in_git(path: &Path) -> bool {
    path.components()
        .any(|c| matches!(c, Component::Normal(n) if n.eq_ignore_ascii_case(".git")))
}

/// Checks every path key; returns the offending key and why.
pub fn validate_paths(cfg: &Config) -> Result<(), (&'static str, String)> {
    let mut keys: Vec<(&'static str, &str)> = vec![
        ("output", &cfg.output),
        ("lock.path", &cfg.lock_path),
        ("sources.journal", &cfg.journal_dir),
        ("sources.projects", &cfg.projects_dir),
        ("sources.inbox", &cfg.inbox_dir),
        ("sources.project_todos", &cfg.project_todos),
        ("sources.progress", &cfg.progress),
        ("sources.actives", &cfg.actives_dir),
    ];
    if let Some(t) = &cfg.template {
        keys.push(("template", t));
    }
    for e in &cfg.extra_sources {
        keys.push(("sources.extra", &e.path));
    }
    for (key, value) in &keys {
        // The root itself is a source folder a layout may need (Dendron
        // keeps its daily journals at the root).
        if *value == "." && matches!(*key, "sources.journal" | "sources.extra") {
            continue;
        }
        let p = check_rel(value).map_err(|why| {
            (
                *key,
                format!("{value:?} must be a relative path inside the vault: {why}"),
            )
        })?;
        if in_git(p) {
            return Err((*key, format!("{value:?} points into .git/")));
        }
    }
    let sources = [&cfg.journal_dir, &cfg.projects_dir, &cfg.inbox_dir];
    for (key, value) in [("output", &cfg.output), ("lock.path", &cfg.lock_path)] {
        let p = Path::new(value.as_str());
        if p == Path::new(CONFIG_FILE) {
            return Err((key, format!("{value:?} is the vault's configuration file")));
        }
        if let Some(dir) = sources.iter().find(|d| first_is(p, d)) {
            return Err((
                key,
                format!("{value:?} is inside the source folder {dir:?}; it would overwrite notes"),
            ));
        }
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        let is_source_name = name.as_deref().is_some_and(|n| {
            n == cfg.progress || (n == cfg.project_todos && p.components().count() > 1)
        });
        if is_source_name {
            return Err((key, format!("{value:?} names a source file")));
        }
    }
    if Path::new(&cfg.output) == Path::new(&cfg.lock_path) {
        return Err(("lock.path", "is the same file as `output`".into()));
    }
    if cfg
        .template
        .as_deref()
        .is_some_and(|t| Path::new(t) == Path::new(&cfg.output))
    {
        return Err(("template", "is the same file as `output`".into()));
    }
    Ok(())
}

/// `ACTIVE_STATUS_*` variables in the environment that name no key, each
/// with the closest known variable.
pub fn unknown_env_vars() -> Vec<(String, String)> {
    let known: Vec<String> = KEYS
        .iter()
        .map(|k| env_var_name(k))
        .chain(OTHER_VARS.iter().map(|v| v.to_string()))
        .collect();
    let mut out = Vec::new();
    for (name, _) in std::env::vars_os() {
        let Some(name) = name.to_str() else { continue };
        if !name.starts_with("ACTIVE_STATUS_") || known.iter().any(|k| k == name) {
            continue;
        }
        let closest = known
            .iter()
            .max_by(|a, b| strsim::jaro_winkler(a, name).total_cmp(&strsim::jaro_winkler(b, name)))
            .cloned()
            .unwrap_or_default();
        out.push((name.to_string(), closest));
    }
    out.sort();
    out
}

/// Prints a warning on stderr for each unknown `ACTIVE_STATUS_*` variable.
pub(crate) fn warn_unknown_env() {
    for (name, closest) in unknown_env_vars() {
        eprintln!(
            "active-status: warning: environment variable {name} is not a setting and is ignored; did you mean {closest}?"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(f: impl FnOnce(&mut Config)) -> Result<(), (&'static str, String)> {
        let mut c = Config::default();
        f(&mut c);
        validate_paths(&c)
    }

    #[test]
    fn the_defaults_pass() {
        assert_eq!(with(|_| {}), Ok(()));
    }

    #[test]
    fn hostile_paths_are_refused_naming_the_key() {
        type Edit = Box<dyn Fn(&mut Config)>;
        let cases: Vec<(&str, Edit)> = vec![
            (
                "output",
                Box::new(|c| c.output = "STATUS\n* merge=x".into()),
            ),
            (
                "output",
                Box::new(|c| c.output = ".git/hooks/pre-commit".into()),
            ),
            (
                "output",
                Box::new(|c| c.output = "projects/x/todos.md".into()),
            ),
            (
                "output",
                Box::new(|c| c.output = ".agents/active-status.toml".into()),
            ),
            (
                "output",
                Box::new(|c| c.output = "journal/2026-05-06.md".into()),
            ),
            ("output", Box::new(|c| c.output = "/tmp/x.md".into())),
            (
                "lock.path",
                Box::new(|c| c.lock_path = ".git/config".into()),
            ),
            (
                "lock.path",
                Box::new(|c| c.lock_path = "ACTIVE-STATUS.md".into()),
            ),
            (
                "template",
                Box::new(|c| c.template = Some("/etc/passwd".into())),
            ),
            (
                "template",
                Box::new(|c| c.template = Some("../../x.tera".into())),
            ),
            (
                "sources.progress",
                Box::new(|c| c.progress = "../../etc/passwd".into()),
            ),
            (
                "sources.project_todos",
                Box::new(|c| c.project_todos = "../../../x".into()),
            ),
            (
                "sources.actives",
                Box::new(|c| c.actives_dir = "../../..".into()),
            ),
        ];
        for (key, f) in cases {
            let got = with(f);
            assert_eq!(got.as_ref().map_err(|e| e.0), Err(key), "{got:?}");
        }
    }

    #[test]
    fn env_var_names_follow_the_keys() {
        assert_eq!(env_var_name("lock.path"), "ACTIVE_STATUS_LOCK_PATH");
    }
}
