use super::*;

fn d(s: &str) -> Date {
    s.parse().unwrap()
}

#[test]
fn recency_gain_halves_every_year_and_undated_gets_none() {
    let today = d("2026-05-06");
    assert_eq!(recency(None, today), 1.0);
    assert!((recency(Some(today), today) - 1.1).abs() < 1e-12);
    assert!((recency(Some(d("2025-05-06")), today) - 1.05).abs() < 1e-12);
    // A date after the as-of day counts as the as-of day.
    assert!((recency(Some(d("2026-06-01")), today) - 1.1).abs() < 1e-12);
}

#[test]
fn places_are_dated_first_oldest_first() {
    let p = |path: &str, date: Option<&str>| Place {
        path: Arc::from(path),
        line: 1,
        date: date.map(d),
    };
    let mut v = vec![
        p("b", None),
        p("c", Some("2026-01-02")),
        p("a", Some("2026-01-01")),
    ];
    sort_places(&mut v);
    let order: Vec<&str> = v.iter().map(|x| &*x.path).collect();
    assert_eq!(order, ["a", "c", "b"]);
}

/// The index made as the documents come (none of them kept) holds the
/// documents of the corpus a search without the index reads: byte for byte
/// the index of that corpus.
#[test]
fn the_index_made_as_documents_come_is_the_corpus_index() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(".agents/active-status.toml", "");
    write(
        "journal/2026-05-05.md",
        "## Session: work (alpha)\n\n### Next\n\n- [ ] fix the lock timeout #12\n- [ ] write the parser\n- [ ] 내보내기 기능 추가\n\n### Done\n\n- [x] wrote the parser\n",
    );
    write(
        "journal/2026-05-06.md",
        "## Session: work (alpha)\n\n### Next\n\n- [ ] fix the lock timeouts\n\n### Done\n\n- ✅ #12 fixed in `src/lock.rs`\n",
    );
    write(
        "projects/beta/todos.md",
        "## Next\n\n- [ ] ship the index\n- [ ] (alpha) fix the lock timeout\n- [-] drop the old flag\n",
    );
    let mut cfg = crate::config::load(root, &crate::config::Overrides::default()).unwrap();
    cfg.today = Some(d("2026-05-07"));
    let a = crate::pipeline::analyze(root, &cfg).unwrap();
    let (merged, v) = (&a.merged, &a.vault);
    let whole = index::build(&corpus(merged, &v.signals, &v.skips), v.as_of).unwrap();
    let streamed = index_of(merged, &v.signals, &v.skips, v.as_of).unwrap();
    assert!(corpus(merged, &v.signals, &v.skips).docs.len() > 3);
    assert_eq!(streamed, whole);
}
