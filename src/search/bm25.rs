//! Okapi BM25 over the documents of one search (docs/FORMAT.md §7.1).
//!
//! Written here rather than taken from a crate: the `bm25` crate (2.3) is
//! the formula plus an embedder that hashes tokens into integer dimensions
//! and a scorer that keeps its own copy of every document; a search here is
//! one pass over documents built from the scan, needs a weight per query
//! term (identifiers count more than words), every document's score before
//! the filters and the limit, and a total order for ties. That is the
//! formula below and a counting pass, tested on its own.

use super::terms::{Class, terms};

/// Term frequency saturation.
const K1: f64 = 1.2;
/// Length normalisation.
const B: f64 = 0.75;
/// Weight of an identifier term of the query against a word's 1.
pub(crate) const IDENT_WEIGHT: f64 = 3.0;
/// Query terms kept at most (a pasted paragraph is not a query).
const MAX_QUERY_TERMS: usize = 64;

/// The distinct terms of a query, each with its weight.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Query {
    terms: Vec<(Class, String, f64)>,
}

impl Query {
    /// The query's terms, read as a document's are.
    pub(crate) fn new(text: &str) -> Query {
        let key = crate::normalize::key(text);
        let mut out: Vec<(Class, String, f64)> = Vec::new();
        terms(text, &key, &mut |class, t| {
            if out.len() < MAX_QUERY_TERMS && !out.iter().any(|(c, s, _)| *c == class && s == t) {
                let w = match class {
                    Class::Word => 1.0,
                    Class::Ident => IDENT_WEIGHT,
                };
                out.push((class, t.to_string(), w));
            }
        });
        Query { terms: out }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The query's terms, in order: class and text.
    pub(crate) fn terms(&self) -> impl Iterator<Item = (Class, &str)> {
        self.terms.iter().map(|(c, t, _)| (*c, t.as_str()))
    }
}

/// What a document holds for one query: its length in terms and how often
/// each query term occurs in it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counts {
    len: u32,
    tf: Vec<u32>,
}

impl Counts {
    /// Counts the terms of the texts `(text, key)` of one document.
    pub(crate) fn of<'t>(q: &Query, texts: impl IntoIterator<Item = (&'t str, &'t str)>) -> Counts {
        let mut c = Counts {
            len: 0,
            tf: vec![0; q.terms.len()],
        };
        for (text, key) in texts {
            terms(text, key, &mut |class, t| {
                c.len += 1;
                for (n, (qc, qt, _)) in q.terms.iter().enumerate() {
                    if *qc == class && qt == t {
                        c.tf[n] += 1;
                    }
                }
            });
        }
        c
    }

    /// A document of `len` terms holding query term `t` `tf[t]` times.
    pub(crate) fn new(len: u32, tf: Vec<u32>) -> Counts {
        Counts { len, tf }
    }

    /// Whether any query term occurs.
    pub(crate) fn hit(&self) -> bool {
        self.tf.iter().any(|&n| n > 0)
    }
}

/// The collection statistics a score needs: each query term's idf and
/// the average document length.
#[derive(Debug, Clone)]
pub(crate) struct Stats {
    idf: Vec<f64>,
    avgdl: f64,
}

impl Stats {
    /// The statistics of `n` documents of `total_len` terms in all, where
    /// `df(t)` documents hold the query term `t`.
    pub(crate) fn new(q: &Query, n: usize, total_len: u64, df: impl Fn(usize) -> usize) -> Stats {
        let n = n as f64;
        // Lengths are whole numbers: their sum is exact in any order.
        let avgdl = (total_len as f64 / n).max(1.0);
        let idf = (0..q.terms.len())
            .map(|t| {
                let df = df(t) as f64;
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        Stats { idf, avgdl }
    }

    /// The BM25 score of one document (0 when it holds no query term).
    pub(crate) fn score(&self, q: &Query, d: &Counts) -> f64 {
        let norm = K1 * (1.0 - B + B * f64::from(d.len) / self.avgdl);
        q.terms
            .iter()
            .enumerate()
            .filter(|(t, _)| d.tf[*t] > 0)
            .map(|(t, (_, _, w))| {
                let tf = f64::from(d.tf[t]);
                w * self.idf[t] * tf * (K1 + 1.0) / (tf + norm)
            })
            .sum()
    }
}

/// The BM25 score of every document (0 for one that holds no query term),
/// with the collection statistics taken over all of `docs`.
pub(crate) fn scores(q: &Query, docs: &[Counts]) -> Vec<f64> {
    if docs.is_empty() {
        return Vec::new();
    }
    let total = docs.iter().map(|d| u64::from(d.len)).sum();
    let stats = Stats::new(q, docs.len(), total, |t| {
        docs.iter().filter(|d| d.tf[t] > 0).count()
    });
    docs.iter().map(|d| stats.score(q, d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(q: &Query, text: &str) -> Counts {
        let key = crate::normalize::key(text);
        Counts::of(q, [(text, key.as_str())])
    }

    fn rank(query: &str, texts: &[&str]) -> Vec<f64> {
        let q = Query::new(query);
        let docs: Vec<Counts> = texts.iter().map(|t| doc(&q, t)).collect();
        scores(&q, &docs)
    }

    #[test]
    fn a_document_without_the_terms_scores_zero() {
        let s = rank("export", &["csv export", "lock timeout"]);
        assert!(s[0] > 0.0);
        assert_eq!(s[1], 0.0);
    }

    #[test]
    fn a_rare_term_counts_more_than_a_common_one() {
        let s = rank(
            "export lock",
            &["export a", "export b", "export c", "lock d", "other"],
        );
        assert!(s[3] > s[0], "{s:?}");
    }

    #[test]
    fn a_shorter_document_wins_at_equal_frequency() {
        let s = rank(
            "timeout",
            &[
                "timeout",
                "timeout on the very long lock path of the vault",
                "x",
            ],
        );
        assert!(s[0] > s[1], "{s:?}");
    }

    #[test]
    fn an_exact_identifier_beats_its_words() {
        let s = rank(
            "parse_config",
            &[
                "parse the config again",
                "fix parse_config panic now",
                "x",
                "y",
            ],
        );
        assert!(s[1] > s[0], "{s:?}");
        assert!(s[0] > 0.0, "{s:?}");
    }

    #[test]
    fn idf_follows_the_formula() {
        // One document of two holds the term: idf = ln(1 + 1.5 / 1.5) = ln 2;
        // both have length avgdl, so the tf part is 1·2.2 / (1 + 1.2) = 1.
        let s = rank("alpha", &["alpha", "beta"]);
        assert!((s[0] - 2f64.ln()).abs() < 1e-12, "{s:?}");
    }

    #[test]
    fn an_empty_query_has_no_terms() {
        assert!(Query::new("  ... !!").is_empty());
        assert!(Query::new("[private]").is_empty());
        assert!(!Query::new("#12").is_empty());
    }
}
