//! Helpers shared by the rule tests (`rules_sections.rs`, `rules_merge.rs`,
//! `matching.rs`, `vault_rules.rs`):
//! every report they fetch is checked for the accounting identities.

use super::{Vault, texts};
use serde_json::Value;

/// Joins lines with `\n` (plus a final one), so line `i` of the slice is line
/// `i + 1` of the file.
pub fn md(lines: &[&str]) -> String {
    lines.join("\n") + "\n"
}

/// `collected = open + resolved + duplicates_merged`,
/// `open = shown + overflow + deferred + blocked`,
/// the counts agree with the arrays, and `audit.sources` sums to `collected`.
pub fn check_accounting(r: &Value) {
    let a = &r["audit"];
    let n = |k: &str| {
        a[k].as_u64()
            .unwrap_or_else(|| panic!("audit.{k} missing: {a}"))
    };
    assert_eq!(
        n("collected"),
        n("open") + n("resolved") + n("duplicates_merged"),
        "collected = open + resolved + duplicates_merged: {a}"
    );
    assert_eq!(
        n("open"),
        n("shown") + n("overflow") + n("deferred") + n("blocked") + n("review"),
        "open = shown + overflow + deferred + blocked + review: {a}"
    );
    for (count, list) in [
        ("review", "review"),
        ("deferred", "deferred"),
        ("blocked", "blocked"),
        ("shown", "priorities"),
        ("overflow", "overflow"),
    ] {
        let len = r[list]
            .as_array()
            .unwrap_or_else(|| panic!("{list} missing"))
            .len();
        assert_eq!(n(count) as usize, len, "audit.{count} = {list}.len(): {a}");
    }
    let by_source: u64 = a["sources"]
        .as_object()
        .expect("sources")
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        by_source,
        n("collected"),
        "audit.sources sums to collected: {a}"
    );
}

/// `audit --format json`, checked for the accounting identities.
pub fn audit(v: &Vault) -> Value {
    let r = v.report();
    check_accounting(&r);
    r
}

/// `(collected, resolved, duplicates_merged, open)`.
pub fn counts(r: &Value) -> (u64, u64, u64, u64) {
    let a = &r["audit"];
    let n = |k: &str| a[k].as_u64().unwrap();
    (
        n("collected"),
        n("resolved"),
        n("duplicates_merged"),
        n("open"),
    )
}

pub fn prio(r: &Value) -> Vec<String> {
    texts(&r["priorities"])
}

/// `(text, project, tier, line)` of every priority.
pub fn rows(r: &Value) -> Vec<(String, Option<String>, String, u64)> {
    r["priorities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["text"].as_str().unwrap().to_string(),
                i["project"].as_str().map(str::to_string),
                i["tier"].as_str().unwrap().to_string(),
                i["source"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

pub fn row(
    text: &str,
    project: Option<&str>,
    tier: &str,
    line: u64,
) -> (String, Option<String>, String, u64) {
    (
        text.to_string(),
        project.map(str::to_string),
        tier.to_string(),
        line,
    )
}

/// A journal file of `date` with one session of project `p` holding `body`.
pub fn journal(v: &Vault, date: &str, body: &[&str]) {
    let mut lines = vec!["## Session: s (p)"];
    lines.extend_from_slice(body);
    v.write(&format!("journal/{date}.md"), md(&lines));
}

/// `(path, message)` of every warning of an audit report.
pub fn warnings(r: &Value) -> Vec<(String, String)> {
    str_pairs(&r["audit"]["warnings"], "path", "message")
}

/// The string fields `a` and `b` of every object of the JSON array `list`
/// (a missing field reads as "").
pub fn str_pairs(list: &Value, a: &str, b: &str) -> Vec<(String, String)> {
    let field = |o: &Value, k: &str| o[k].as_str().unwrap_or_default().to_string();
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|o| (field(o, a), field(o, b)))
        .collect()
}

/// `f` of every element of the JSON array `list`.
pub fn each<T>(list: &Value, f: impl Fn(&Value) -> T) -> Vec<T> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(f)
        .collect()
}

/// A JSON string as an owned `String` (fails on anything else).
pub fn string(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_string()
}

/// A JSON count (fails on anything else).
pub fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The object of the JSON array `list` whose field `field` is `value`
/// (fails, showing the list, when there is none).
#[track_caller]
pub fn find<'a>(list: &'a Value, field: &str, value: &str) -> &'a Value {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .find(|o| o[field] == value)
        .unwrap_or_else(|| panic!("no {field} {value:?} in {list}"))
}

/// The ID of the open item `text` of a `list --format json` report.
#[track_caller]
pub fn id_in(list: &Value, text: &str) -> String {
    string(&find(&list["items"], "text", text)["id"])
}

/// A vault with project `p` and, for each `(date, body)`, a journal file of
/// that date with one session of `p` holding `body` (see `journal`).
pub fn journals(days: &[(&str, &[&str])]) -> Vault {
    let v = Vault::new().project("p");
    for (date, body) in days {
        journal(&v, date, body);
    }
    v
}

/// `audit(v)`, checked to give `(collected, resolved, duplicates_merged,
/// open)` = `expected`; the report, for further checks.
#[track_caller]
pub fn audit_counts(v: &Vault, expected: (u64, u64, u64, u64)) -> Value {
    let r = audit(v);
    assert_eq!(counts(&r), expected, "{}", r["audit"]);
    r
}

/// `audit(v)`, checked to list exactly `expected` as its priorities, in
/// order (`row(text, project, tier, line)` each); the report, for further
/// checks.
#[track_caller]
pub fn audit_rows(v: &Vault, expected: &[(String, Option<String>, String, u64)]) -> Value {
    let r = audit(v);
    assert_eq!(rows(&r), expected, "{}", r["priorities"]);
    r
}

impl Vault {
    /// Adds the file `rel` holding `lines` (see `md`).
    pub fn md(self, rel: &str, lines: &[&str]) -> Self {
        self.file(rel, md(lines))
    }
}

/// The fields of the JSON object `o` that `like` names, to compare with
/// `like` whole (a name `a.b` is the field `b` of the field `a`; a missing
/// field is null): `assert_eq!(fields_like(&o, &want), want)`.
pub fn fields_like(o: &Value, like: &Value) -> Value {
    like.as_object()
        .unwrap_or_else(|| panic!("not an object: {like}"))
        .keys()
        .map(|k| {
            let field = k.split('.').fold(o, |v, part| &v[part]);
            (k.clone(), field.clone())
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// `audit(v)`, checked to give `(collected, resolved, duplicates_merged,
/// open)` = `counts` and to list exactly `expected` as its priorities, in
/// order (`row(text, project, tier, line)` each); the report, for further
/// checks.
#[track_caller]
pub fn audit_is(
    v: &Vault,
    counts: (u64, u64, u64, u64),
    expected: &[(String, Option<String>, String, u64)],
) -> Value {
    let r = audit_counts(v, counts);
    assert_eq!(rows(&r), expected, "{}", r["priorities"]);
    r
}
