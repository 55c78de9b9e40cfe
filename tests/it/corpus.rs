//! The labelled transcript corpus (fixtures/transcripts/corpus/): recall and
//! precision of `extract` against hand-made labels, and no candidate at all on
//! the negative controls (sessions with nothing to carry).
//!
//! A candidate matches a label when, after lowercasing, dropping `*` and
//! backticks, collapsing spaces and trailing punctuation, the two are equal or
//! share at least 60% of their words (Jaccard). Each label and each candidate
//! matches at most once.

use crate::common::Vault;
use serde_json::Value;
use std::collections::BTreeMap;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/transcripts/corpus");

fn norm(s: &str) -> String {
    let s: String = s.chars().filter(|c| !matches!(c, '*' | '`')).collect();
    let s = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    s.trim_end_matches(['.', ',', ';', ':', '!']).to_string()
}

fn words(s: &str) -> Vec<String> {
    let mut w: Vec<String> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    w.sort();
    w.dedup();
    w
}

fn matches(label: &str, candidate: &str) -> bool {
    let (a, b) = (norm(label), norm(candidate));
    if a == b {
        return true;
    }
    let (wa, wb) = (words(&a), words(&b));
    let common = wa.iter().filter(|w| wb.contains(w)).count();
    let union = wa.len() + wb.len() - common;
    union > 0 && common * 10 >= union * 6
}

#[test]
fn corpus_recall_and_precision() {
    let labels: BTreeMap<String, Value> = serde_json::from_str(
        &std::fs::read_to_string(format!("{CORPUS}/labels.json")).expect("labels.json"),
    )
    .expect("labels are JSON");
    assert!(labels.len() >= 20, "at least 20 labelled transcripts");
    let v = Vault::new();
    let (mut labelled, mut found, mut candidates, mut right) = (0, 0, 0, 0);
    let mut report = Vec::new();
    let mut formats = std::collections::BTreeSet::new();
    for (file, label) in &labels {
        let want: Vec<&str> = label["followups"]
            .as_array()
            .expect("followups")
            .iter()
            .map(|l| l.as_str().expect("label text"))
            .collect();
        let path = format!("{CORPUS}/{file}");
        let out = v.json(&["extract", "--transcript", &path, "--format", "json"]);
        formats.insert(out["format"].as_str().unwrap_or("").to_string());
        let got: Vec<String> = out["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|c| c["text"].as_str().expect("text").to_string())
            .collect();
        if want.is_empty() {
            assert!(got.is_empty(), "negative control {file} gave {got:?}");
        }
        let mut used = vec![false; got.len()];
        for w in &want {
            if let Some(i) = (0..got.len()).find(|&i| !used[i] && matches(w, &got[i])) {
                used[i] = true;
                found += 1;
            } else {
                report.push(format!("{file}: missed {w:?}"));
            }
        }
        for (i, g) in got.iter().enumerate() {
            if !used[i] {
                report.push(format!("{file}: extra {g:?}"));
            }
        }
        labelled += want.len();
        candidates += got.len();
        right += used.iter().filter(|u| **u).count();
    }
    let recall = found as f64 / labelled as f64;
    let precision = right as f64 / candidates.max(1) as f64;
    println!(
        "corpus: {} transcripts, {labelled} labelled follow-ups, {candidates} candidates; recall {:.1}% ({found}/{labelled}), precision {:.1}% ({right}/{candidates})",
        labels.len(),
        recall * 100.0,
        precision * 100.0
    );
    for r in &report {
        println!("  {r}");
    }
    assert!(formats.contains("claude-jsonl") && formats.contains("codex-jsonl"));
    assert!(recall >= 0.9, "recall {recall:.3} < 0.9: {report:#?}");
    assert!(
        precision >= 0.8,
        "precision {precision:.3} < 0.8: {report:#?}"
    );
}
