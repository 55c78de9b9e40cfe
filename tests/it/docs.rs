//! The docs' copies of the code's own tables: the exit-code tables of
//! README.md, docs/FORMAT.md and docs/GUIDE.md equal the man page's EXIT
//! STATUS (printed from `error::exit::TABLE`); their configuration tables
//! name exactly the keys `active-status config` prints; the tests and
//! commands docs/RELIABILITY.md names exist.

use crate::common::{Vault, bare_cmd, stdout};
use std::collections::BTreeSet;

const DOCS: [(&str, &str); 3] = [
    ("README.md", include_str!("../../README.md")),
    ("docs/FORMAT.md", include_str!("../../docs/FORMAT.md")),
    ("docs/GUIDE.md", include_str!("../../docs/GUIDE.md")),
];

/// The rows (cells) of the first table whose header row is `header`.
fn table(doc: &str, name: &str, header: &str) -> Vec<Vec<String>> {
    let at = doc
        .find(&format!("\n{header}\n"))
        .unwrap_or_else(|| panic!("{name}: no table `{header}`"));
    doc[at + 1..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The man page's EXIT STATUS: (code, meaning) pairs, roff undone.
fn exit_status() -> Vec<(String, String)> {
    let out = bare_cmd().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = stdout(&out);
    let section = page
        .split(".SH \"EXIT STATUS\"\n")
        .nth(1)
        .unwrap()
        .split("\n.SH ")
        .next()
        .unwrap()
        .to_string();
    section
        .split(".TP\n")
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (tag, text) = item.trim_end().split_once('\n').unwrap();
            let plain = |s: &str| {
                s.replace("\\fB", "")
                    .replace("\\fR", "")
                    .replace("\\-", "-")
                    .replace("\\e", "\\")
            };
            (plain(tag), plain(text))
        })
        .collect()
}

#[test]
fn every_exit_code_table_equals_the_codes_own_table() {
    let expected = exit_status();
    assert_eq!(expected.len(), 10, "{expected:?}");
    for (name, doc) in DOCS {
        let rows: Vec<(String, String)> = table(doc, name, "| code | meaning |")
            .into_iter()
            .map(|r| (r[0].clone(), r[1].replace('`', "")))
            .collect();
        assert_eq!(rows, expected, "{name}");
    }
}

/// The keys a configuration table's first column names: `a.b` / `c` is
/// `a.b` and `a.c`; `projects.<p>.paths` is `projects`.
fn keys_of(cell: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut prefix = String::new();
    for part in cell.split('`').skip(1).step_by(2) {
        let key = if part.starts_with("projects.<") {
            "projects".to_string()
        } else if part.contains('.') {
            prefix = part[..part.rfind('.').unwrap() + 1].to_string();
            part.to_string()
        } else if prefix.is_empty() {
            part.to_string()
        } else {
            format!("{prefix}{part}")
        };
        keys.push(key);
    }
    keys
}

#[test]
fn every_config_table_names_exactly_the_keys_config_prints() {
    let v = Vault::new();
    let out = v.cmd().arg("config").output().unwrap();
    let printed: BTreeSet<String> = stdout(&out)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.to_string()))
        .collect();
    assert!(printed.contains("hook.max_captured"), "{printed:?}");
    for (name, doc) in DOCS {
        let named: BTreeSet<String> = table(doc, name, "| key | default | meaning |")
            .iter()
            .flat_map(|r| keys_of(&r[0]))
            .collect();
        assert_eq!(named, printed, "{name}");
    }
}

#[test]
fn reliability_names_tests_and_targets_that_exist() {
    let doc = include_str!("../../docs/RELIABILITY.md");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for (n, line) in doc.lines().enumerate() {
        for target in line.split("--test ").skip(1) {
            let t = target.split_whitespace().next().unwrap_or_default();
            assert_eq!(t, "it", "line {}: --test {t}", n + 1);
        }
        // A table row: each `tests/it/X.rs` and the test names after it.
        let mut file: Option<String> = None;
        for part in line.split('`').skip(1).step_by(2) {
            if (part.starts_with("tests/") || part.starts_with("src/")) && part.ends_with(".rs") {
                let text = std::fs::read_to_string(root.join(part))
                    .unwrap_or_else(|_| panic!("line {}: no file {part}", n + 1));
                file = Some(text);
            } else if let Some(text) = &file
                && part.matches('_').count() >= 3
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && !text.contains(&format!("fn {part}("))
            {
                missing.push(format!("line {}: {part}", n + 1));
            }
        }
    }
    assert!(missing.is_empty(), "tests not found: {missing:#?}");
}
