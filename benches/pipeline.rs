//! Micro-benchmarks of the pipeline's stages: parsing, normalization,
//! resolution, clustering (up to 100,000 open items) and rendering.
//! Run with `cargo bench` (or `just bench-micro`).

use active_status::config::Config;
use active_status::item::{Item, Location, Signal, SourceKind};
use active_status::merge::{cluster, resolve};
use active_status::normalize::{key, normalize};
use active_status::parse::{HeadingMatcher, parse_document};
use jiff::civil::{Date, date};
use std::sync::Arc;

fn main() {
    divan::main();
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[(self.next() % list.len() as u64) as usize]
    }
}

const VERBS: &[&str] = &[
    "Fix",
    "Add",
    "Refactor",
    "Investigate",
    "Document",
    "Benchmark",
    "Cache",
    "Migrate",
];
const ADJS: &[&str] = &[
    "flaky", "slow", "broken", "stale", "nested", "optional", "verbose", "empty",
];
const NOUNS: &[&str] = &[
    "lock timeout",
    "exit codes",
    "test suite",
    "release script",
    "API client",
    "changelog",
];
const WHERE: &[&str] = &[
    "on the staging box",
    "behind a feature flag",
    "for the nightly build",
    "in CI",
    "on Windows",
];
const IDENTS: &[&str] = &[
    "load_config",
    "split_worker",
    "render_report",
    "index_queue",
    "spawn_entries",
    "parse_args",
];

fn text(rng: &mut Rng) -> String {
    format!(
        "{} the {} {} of `{}{}` {}",
        rng.pick(VERBS),
        rng.pick(ADJS),
        rng.pick(NOUNS),
        rng.pick(IDENTS),
        rng.next() % 500,
        rng.pick(WHERE)
    )
}

/// `n` open items over 200 projects (10% untagged), a third of them
/// repeating an earlier text (carried over or slightly reworded).
fn items(n: usize) -> Vec<Item> {
    let mut rng = Rng(42);
    let path: Arc<str> = Arc::from("journal/2026-05-06.md");
    let start = date(2016, 1, 1);
    let mut out: Vec<Item> = Vec::with_capacity(n);
    for i in 0..n {
        let t = if i > 0 && rng.next().is_multiple_of(3) {
            let prev = &out[(rng.next() % i as u64) as usize].text;
            if rng.next().is_multiple_of(2) {
                prev.clone()
            } else {
                format!("{prev}!")
            }
        } else {
            text(&mut rng)
        };
        let project =
            (!rng.next().is_multiple_of(10)).then(|| format!("p-{:03}", rng.next() % 200));
        let d: Date = start
            .checked_add(jiff::Span::new().days((rng.next() % 3650) as i64))
            .unwrap_or(start);
        out.push(Item {
            norm: key(&t).into(),
            private: None,
            text: t,
            project: project.map(Into::into),
            kind: SourceKind::JournalNext,
            loc: Location {
                path: path.clone(),
                line: i as u32 + 1,
            },
            date: Some(d),
            untagged: None,
            meta: None,
            status: Default::default(),
        });
    }
    out
}

fn signals(items: &[Item], n: usize) -> Vec<Signal> {
    let mut rng = Rng(7);
    (0..n)
        .map(|i| {
            let source = &items[(rng.next() % items.len() as u64) as usize];
            let t = if i.is_multiple_of(2) {
                source.text.clone()
            } else {
                text(&mut rng)
            };
            Signal {
                norm: key(&t).into(),
                private: None,
                text: t,
                project: source.project.clone(),
                date: source.date,
                loc: source.loc.clone(),
            }
        })
        .collect()
}

#[divan::bench(args = [10_000, 100_000])]
fn cluster_open_items(bencher: divan::Bencher, n: usize) {
    let items = items(n);
    bencher.bench(|| cluster(divan::black_box(&items), 0.85).len());
}

/// 1,000 items of about 5 KB sharing a long start: the edit distance sees
/// only the first `COMPARED_CHARS` characters of each key.
#[divan::bench]
fn cluster_long_texts(bencher: divan::Bencher) {
    let mut rng = Rng(5);
    let head = "investigate why the nightly export job stalls ".repeat(8);
    let items: Vec<Item> = (0..1000)
        .map(|n| {
            let mut t = head.clone();
            while t.len() < 5000 {
                t.push_str(rng.pick(ADJS));
                t.push(' ');
            }
            Item {
                norm: key(&t).into(),
                private: None,
                text: t,
                project: None,
                kind: SourceKind::ProjectTodos,
                loc: Location {
                    path: Arc::from("projects/p/todos.md"),
                    line: n + 1,
                },
                date: None,
                untagged: None,
                meta: None,
                status: Default::default(),
            }
        })
        .collect();
    bencher.bench(|| cluster(divan::black_box(&items), 0.85).len());
}

#[divan::bench(args = [10_000, 45_000])]
fn resolve_items(bencher: divan::Bencher, n: usize) {
    let items = items(n);
    let signals = signals(&items, n * 4 / 5);
    bencher
        .with_inputs(|| items.clone())
        .bench_values(|items| resolve(items, divan::black_box(&signals), 0.85).len());
}

#[divan::bench]
fn normalize_texts(bencher: divan::Bencher) {
    let mut rng = Rng(1);
    let texts: Vec<String> = (0..10_000)
        .map(|_| format!("**{}** see [docs](http://x.y) ~~old~~.", text(&mut rng)))
        .collect();
    bencher.bench(|| texts.iter().map(|t| normalize(t).len()).sum::<usize>());
}

#[divan::bench]
fn parse_journal_month(bencher: divan::Bencher) {
    let mut rng = Rng(3);
    let mut doc = String::from("---\ntitle: x\n---\n# 2026-05-06\n\n");
    for s in 0..60 {
        doc.push_str(&format!("## Session: work {s} (p-{:03})\n\nSome prose about the day, with `code` and [links](x).\n\n", s % 7));
        doc.push_str("### Done\n\n");
        for _ in 0..3 {
            doc.push_str(&format!("- [x] {}\n", text(&mut rng)));
        }
        doc.push_str("\n### Next\n\n");
        for _ in 0..5 {
            doc.push_str(&format!(
                "- [ ] {}\n  - [ ] nested {}\n",
                text(&mut rng),
                text(&mut rng)
            ));
        }
        doc.push_str("\n```\n- [ ] not an item\n```\n\n");
    }
    let headings = HeadingMatcher::from_config(&Config::default());
    bencher
        .counter(divan::counter::BytesCount::of_str(&doc))
        .bench(|| {
            parse_document(divan::black_box(&doc), &headings)
                .entries
                .len()
        });
}

#[divan::bench]
fn render_example_dashboard(bencher: divan::Bencher) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example-vault");
    let cfg = Config::default();
    let analysis = active_status::pipeline::analyze(&root, &cfg).expect("example vault");
    let report = active_status::report::build(&analysis, &cfg);
    bencher.bench(|| {
        active_status::render::render(&report, active_status::render::DEFAULT_TEMPLATE, &cfg)
            .map(|s| s.len())
    });
}
