//! The matching key and the guards (docs/FORMAT.md §5): properties, the
//! cases of the matching issue end to end, and bounded comparison of long
//! texts.

use crate::common::*;
use active_status::guards::{check, private_mark};
use active_status::item::{Item, Location, SourceKind};
use active_status::merge::cluster;
use active_status::normalize::{COMPARED_CHARS, key};
use proptest::prelude::*;
use proptest::sample::select;

const WORDS: &[&str] = &[
    "Next",
    "session",
    "we",
    "should",
    "add",
    "added",
    "a",
    "the",
    "retry",
    "policy",
    "TODO:",
    "fix",
    "fixed",
    "bug",
    "A",
    "B",
    "v0.1.0",
    "#123",
    "FW-007",
    "enable",
    "disable",
    "다음",
    "세션에서",
    "지원하자",
    "지원하기",
    "로그인",
    "할",
    "것",
    "<private>Bob</private>",
    "[[x]]",
    "**bold**",
    "`code`",
    "remember",
    "to",
    "2026-05-10",
    "testing",
    "tests",
    "wrote",
    "an",
    "follow-up:",
    "나중에",
    "—",
    "...",
    "[private]",
    "Work",
    "on",
    "Revise",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(select(WORDS), 0..10).prop_map(|w| w.join(" ")),
        1 => any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn key_is_idempotent(t in text()) {
        let once = key(&t);
        prop_assert_eq!(key(&once), once.clone(), "input {:?}", t);
    }

    #[test]
    fn keys_do_not_depend_on_input_order(texts in prop::collection::vec(text(), 0..12), seed in any::<u64>()) {
        let keys: Vec<String> = texts.iter().map(|t| key(t)).collect();
        let mut order: Vec<usize> = (0..texts.len()).collect();
        // A seeded shuffle (Fisher-Yates over the shared test RNG).
        let mut rng = crate::common::rng::Rng::new(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for &i in &order {
            prop_assert_eq!(&key(&texts[i]), &keys[i]);
        }
    }

    #[test]
    fn guards_are_symmetric(a in text(), b in text()) {
        let (ka, kb) = (key(&a), key(&b));
        let (pa, pb) = (private_mark(&a), private_mark(&b));
        prop_assert_eq!(check(&ka, &kb, pa, pb).is_some(), check(&kb, &ka, pb, pa).is_some());
    }

    #[test]
    fn clustering_does_not_depend_on_file_order(
        texts in prop::collection::vec(text(), 1..30),
        rot in 0usize..30,
    ) {
        // Items as if read from files in another order: the merge ranks them
        // by (tier, path, line, …) first, so the clusters are the same.
        let item = |n: usize, t: &String| Item {
            norm: key(t).into(),
            private: private_mark(t),
            text: t.clone(),
            project: None,
            kind: SourceKind::ProjectTodos,
            loc: Location { path: format!("projects/p/f{n:02}.md").into(), line: 1 },
            date: None,
            untagged: None,
            meta: None,
            status: Default::default(),
        };
        let items: Vec<Item> = texts.iter().enumerate().map(|(n, t)| item(n, t)).collect();
        let mut shuffled = items.clone();
        let len = shuffled.len();
        shuffled.rotate_left(rot % len);
        let a = active_status::merge::merge(items, &[], None, 0.85);
        let b = active_status::merge::merge(shuffled, &[], None, 0.85);
        prop_assert_eq!(&a.items, &b.items);
        prop_assert_eq!(&a.clusters, &b.clusters);
    }
}

#[test]
fn long_texts_are_compared_on_a_bounded_prefix() {
    // 1,000 items of about 5 KB that share their first COMPARED_CHARS
    // characters of key and differ after it: the distance never sees the
    // tails, so they merge into one cluster (the guards see the whole key;
    // the tails hold no distinguishing tokens here).
    let head = "investigate why the nightly export job stalls ".repeat(8);
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    ];
    let mut rng = crate::common::rng::Rng::new(7);
    let items: Vec<Item> = (0..1000)
        .map(|n| {
            let mut t = head.clone();
            while t.len() < 5000 {
                t.push_str(words[rng.below(words.len() as u64) as usize]);
                t.push(' ');
            }
            Item {
                norm: key(&t).into(),
                private: None,
                text: t,
                project: None,
                kind: SourceKind::ProjectTodos,
                loc: Location {
                    path: "projects/p/todos.md".into(),
                    line: n + 1,
                },
                date: None,
                untagged: None,
                meta: None,
                status: Default::default(),
            }
        })
        .collect();
    assert!(
        items
            .iter()
            .all(|i| i.norm.chars().count() > 4 * COMPARED_CHARS)
    );
    let clusters = cluster(&items, 0.85);
    assert_eq!(clusters.len(), 1);
    assert_eq!(clusters[0].members.len(), 1000);
    // A difference inside the compared part still counts.
    let a = key(&format!("{}{}", "x".repeat(300), "tail"));
    let b = key(&format!("{}{}", "y".repeat(300), "tail"));
    assert!(active_status::normalize::similarity(&a, &b) < 0.1);
}

// ------------------------------------------------------ the issue, end to end

#[test]
fn inflected_done_entries_resolve_their_items() {
    let v = journals(&[
        (
            "2026-05-02",
            &[
                "### Next",
                "- [ ] Add a password reset flow",
                "- [ ] Fix the flaky `test_login_redirect` test",
                "- [ ] Rotate the S3 keys <private>AKIA123</private> for the backup bucket",
            ],
        ),
        (
            "2026-05-03",
            &[
                "### Done",
                "- [x] Added the password reset flow",
                "- [x] Fixed flaky test_login_redirect",
                "- [x] Rotate the S3 keys for the backup bucket",
            ],
        ),
    ]);
    let r = audit_counts(&v, (3, 3, 0, 0));
    assert_eq!(prio(&r), Vec::<String>::new());
}

#[test]
fn wrong_joins_are_kept_apart() {
    let v = journals(&[
        (
            "2026-05-02",
            &[
                "### Next",
                "- [ ] [[2024-10-17 Interaction and Pleasure]]",
                "- [ ] Work on [[Thesis chapter three literature review]]",
                "- [ ] Fix bug A",
                "- [ ] call <private>Bob</private> about the contract",
            ],
        ),
        (
            "2026-05-03",
            &[
                "### Next",
                "- [ ] Fix bug B",
                "- [ ] call <private>Alice</private> about the contract",
                "### Done",
                "- [x] [[2024-11-21 Interaction and Pleasure]]",
                "- [x] Revise [[Thesis chapter three literature review]]",
            ],
        ),
    ]);
    audit_counts(&v, (6, 0, 0, 6));
}

#[test]
fn follow_up_boilerplate_and_korean_endings_dedup() {
    let v = journals(&[(
        "2026-05-02",
        &[
            "### Next",
            "- [ ] Next session we should add a retry policy",
            "- [ ] 다음 세션에서 로그인 페이지 다크모드 지원하자",
        ],
    )]);
    v.write(
        "projects/p/todos.md",
        md(&[
            "## Next",
            "- [ ] Add a retry policy",
            "- [ ] 로그인 페이지 다크모드 지원하기",
        ]),
    );
    audit_counts(&v, (4, 0, 2, 2));
}

#[test]
fn huge_texts_are_keyed_on_their_start() {
    let long = "Updates the flaky exporter again and ".repeat(5000);
    let k = key(&long);
    assert!(k.chars().count() <= active_status::normalize::KEY_CHARS);
    assert!(
        k.starts_with("updat flaky exporter again and updat"),
        "{}",
        &k[..60]
    );
    assert_eq!(key(&k), k);
    let giant_word = "x".repeat(100_000);
    let k = key(&giant_word);
    assert_eq!(k.chars().count(), active_status::normalize::KEY_CHARS);
    assert_eq!(key(&k), k);
}

#[test]
fn the_trail_names_the_closing_done_entry_and_member_similarity() {
    let v = journals(&[
        (
            "2026-05-02",
            &[
                "### Next",
                "- [ ] Add a password reset flow",
                "- [ ] Add lock timeout",
            ],
        ),
        (
            "2026-05-03",
            &[
                "### Next",
                "- [ ] add lock timeouts",
                "### Done",
                "- [x] Added the password reset flow",
            ],
        ),
    ]);
    let r = audit(&v);
    assert_eq!(
        r["resolutions"],
        serde_json::json!([{
            "text": "Add a password reset flow", "project": "p", "kind": "journal_next",
            "path": "journal/2026-05-02.md", "line": 3, "date": "2026-05-02",
            "closed_by": {"text": "Added the password reset flow", "project": "p",
                          "path": "journal/2026-05-03.md", "line": 5, "date": "2026-05-03"},
            "similarity": 1.0,
        }])
    );
    let seen = &r["priorities"][0]["seen_in"];
    assert_eq!(seen[0]["similarity"], 1.0);
    // "ad lock timeout" / "ad lock timeouts" before stemming the plural:
    // both stem to the same key.
    assert_eq!(seen[1]["similarity"], 1.0);
    let out = v.cmd().args(["audit", "-v"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_has(
        &text,
        &[
            "journal/2026-05-02.md:3 Add a password reset flow  <- Added the password reset flow (journal/2026-05-03.md:5), similarity 1.000",
            "merged:\n",
        ],
    );
}

#[test]
fn explain_shows_places_resolution_and_near_misses() {
    let v = journals(&[
        (
            "2026-05-02",
            &[
                "### Next",
                "- [ ] [[2024-10-17 Interaction and Pleasure]]",
                "- [ ] call <private>Bob</private> about the contract",
                "- [ ] Add a password reset flow",
            ],
        ),
        (
            "2026-05-03",
            &[
                "### Next",
                "- [ ] call <private>Alice</private> about the contract",
                "### Done",
                "- [x] [[2024-11-21 Interaction and Pleasure]]",
                "- [x] Added the password reset flow",
            ],
        ),
    ]);
    let e = v.json(&["explain", "--format", "json", "journal/2026-05-02.md:3"]);
    assert_eq!(e["state"], "shown");
    assert_eq!(e["text"], "[[2024-10-17 Interaction and Pleasure]]");
    assert_eq!(e["resolved_by"], serde_json::Value::Null);
    assert_eq!(e["collected"].as_array().unwrap().len(), 1);
    let near = &e["near_misses"][0];
    assert_eq!(near["what"], "done");
    assert_eq!(near["path"], "journal/2026-05-03.md");
    assert_eq!(near["line"], 5);
    assert_eq!(
        near["reason"],
        "distinguishing token `2024-10-17` on one side only"
    );
    // The private contents are compared but never shown.
    let out = v
        .cmd()
        .args(["explain", "journal/2026-05-02.md:4"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("different private contents"), "{text}");
    assert!(!text.contains("Bob") && !text.contains("Alice"), "{text}");
    // A resolved item by its text.
    let e = v.json(&["explain", "--format", "json", "Add a password reset flow"]);
    assert_eq!(e["state"], "resolved");
    assert_eq!(e["id"], serde_json::Value::Null);
    assert_eq!(e["resolved_by"]["entry"]["line"], 6);
    assert_eq!(e["resolved_by"]["similarity"], 1.0);
    // An ID from list.
    let list = v.json(&["list", "--format", "json"]);
    let id = list["items"][0]["id"].as_str().unwrap();
    let e = v.json(&["explain", "--format", "json", id]);
    assert_eq!(e["id"], id);
    assert_eq!(e["rank"], 1);
    // Nothing by that name.
    v.test().args(["explain", "zz22zz"]).status(65).run();
}

#[test]
fn the_guide_key_table_is_true() {
    for (written, expected) in [
        ("Added the password reset flow", "ad password reset flow"),
        (
            "Add a password reset flow 📅 2026-05-10 ⏫",
            "ad password reset flow",
        ),
        (
            "Next session we should add a retry policy",
            "ad retry policy",
        ),
        (
            "다음 세션에서 로그인 페이지 다크모드 지원하자",
            "로그인 페이지 다크모드 지원",
        ),
        (
            "Fix the flaky `test_login_redirect` test",
            "fix flaky testloginredirect",
        ),
    ] {
        assert_eq!(key(written), expected, "{written}");
    }
}
