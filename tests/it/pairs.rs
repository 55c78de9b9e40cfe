//! The labelled pair corpus (fixtures/pairs.tsv): every must-not-match pair
//! kept apart, at least 90% of the must-match pairs matched, by the one
//! matching rule (key, similarity at dedup.threshold, guards). Prints the
//! figures (`just pairs`).

use active_status::guards::private_mark;
use active_status::merge::matches_by_definition;
use active_status::normalize::key;

const THRESHOLD: f64 = 0.85;

struct Pair {
    must_match: bool,
    /// A different task the rule is known to join (printed, not asserted).
    known_wrong: bool,
    lang: String,
    kind: String,
    a: String,
    b: String,
}

fn corpus() -> Vec<Pair> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pairs.tsv");
    let text = std::fs::read_to_string(path).expect("fixtures/pairs.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(n, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "pairs.tsv:{}: five tab-separated fields", n + 1);
            let must_match = match f[0] {
                "match" => true,
                "distinct" | "known-wrong-join" => false,
                other => panic!("pairs.tsv:{}: unknown label {other:?}", n + 1),
            };
            Pair {
                must_match,
                known_wrong: f[0] == "known-wrong-join",
                lang: f[1].into(),
                kind: f[2].into(),
                a: f[3].into(),
                b: f[4].into(),
            }
        })
        .collect()
}

fn matched(p: &Pair) -> bool {
    matches_by_definition(
        &key(&p.a),
        private_mark(&p.a),
        &key(&p.b),
        private_mark(&p.b),
        THRESHOLD,
    )
}

#[test]
fn pair_corpus_precision_and_recall() {
    let pairs = corpus();
    let langs: std::collections::BTreeSet<&str> = pairs.iter().map(|p| p.lang.as_str()).collect();
    assert!(
        pairs.iter().filter(|p| !p.known_wrong).count() >= 300,
        "{} pairs",
        pairs.len()
    );
    assert!(langs.contains("en") && langs.contains("ko"));
    let (mut tp, mut fp, mut fneg, mut tn) = (0usize, 0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    let mut known = Vec::new();
    let mut by_kind: std::collections::BTreeMap<(String, String), (usize, usize)> =
        Default::default();
    for p in &pairs {
        let m = matched(p);
        if p.known_wrong {
            known.push(format!(
                "  known {}: {:?} / {:?}",
                if m {
                    "wrong join"
                } else {
                    "pair now kept apart"
                },
                p.a,
                p.b
            ));
            continue;
        }
        let slot = by_kind.entry((p.lang.clone(), p.kind.clone())).or_default();
        slot.1 += 1;
        match (p.must_match, m) {
            (true, true) => tp += 1,
            (false, false) => tn += 1,
            (true, false) => fneg += 1,
            (false, true) => fp += 1,
        }
        if m == p.must_match {
            slot.0 += 1;
        } else {
            wrong.push(format!(
                "  {} [{}/{}] {:?} / {:?}",
                if p.must_match { "missed" } else { "WRONG JOIN" },
                p.lang,
                p.kind,
                p.a,
                p.b
            ));
        }
    }
    let recall = tp as f64 / (tp + fneg) as f64;
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let kept_apart = tn as f64 / (tn + fp) as f64;
    println!(
        "pair corpus: {} pairs ({} must-match, {} must-not-match, {} known wrong joins; languages {:?})",
        pairs.len(),
        tp + fneg,
        tn + fp,
        known.len(),
        langs
    );
    println!(
        "must-match recall {:.1}% ({tp}/{}); precision {:.1}%; must-not-match kept apart {:.1}% ({tn}/{})",
        100.0 * recall,
        tp + fneg,
        100.0 * precision,
        100.0 * kept_apart,
        tn + fp
    );
    for ((lang, kind), (ok, n)) in &by_kind {
        println!("  {lang:2} {kind:22} {ok:3}/{n:3}");
    }
    for w in wrong.iter().chain(&known) {
        println!("{w}");
    }
    assert_eq!(fp, 0, "wrong joins:\n{}", wrong.join("\n"));
    assert!(recall >= 0.90, "recall {recall:.3}:\n{}", wrong.join("\n"));
}
