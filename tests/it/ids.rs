//! Stable item IDs: in every JSON item, in `list` and on the dashboard,
//! the same across runs and file changes that leave the item's text alone.

use crate::common::*;
use active_status::item_id::{Found, MIN_LEN, full};
use active_status::normalize::key;

fn vault() -> Vault {
    Vault::new()
        .project("p")
        .file(
            "projects/p/todos.md",
            md(&[
                "## Next",
                "- [ ] Add lock timeout",
                "- [ ] Write the changelog",
            ]),
        )
        .file(
            "journal/2026-05-06.md",
            md(&["## Session: s (p)", "### Next", "- [ ] add lock timeout!"]),
        )
}

fn ids(v: &Vault) -> Vec<(String, String)> {
    str_pairs(
        &v.json(&["list", "--format", "json"])["items"],
        "id",
        "text",
    )
}

#[test]
fn id_is_a_hash_of_project_and_key_shown_everywhere() {
    let v = vault();
    let list = ids(&v);
    assert_eq!(list.len(), 2);
    // The merged cluster's representative is the journal line.
    assert_eq!(list[0].1, "add lock timeout!");
    assert_eq!(
        list[0].0,
        full(Some("p"), &key("add lock timeout!"))[..MIN_LEN]
    );
    assert_eq!(
        list[1].0,
        full(Some("p"), &key("Write the changelog"))[..MIN_LEN]
    );
    let report = v.report();
    assert_eq!(report["priorities"][0]["id"], list[0].0.as_str());
    let text = v.cmd().arg("list").output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.starts_with(&format!("1. {} [p] add lock timeout!", list[0].0)),
        "{text}"
    );
    v.cmd().arg("regen").assert().success();
    let dash = v.read("ACTIVE-STATUS.md");
    assert!(dash.contains(&format!("· `{}`", list[0].0)), "{dash}");
    assert!(dash.contains(&format!("· `{}`", list[1].0)), "{dash}");
}

#[test]
fn ids_survive_reruns_and_unrelated_edits() {
    let v = vault();
    let before = ids(&v);
    assert_eq!(before, ids(&v));
    // Another item, other files, other line numbers: the IDs stay.
    v.write(
        "projects/p/todos.md",
        md(&[
            "# p",
            "",
            "## Next",
            "- [ ] Something new first",
            "- [ ] Add lock timeout",
            "- [ ] Write the changelog",
        ]),
    );
    let after = ids(&v);
    for (id, text) in &before {
        assert!(after.contains(&(id.clone(), text.clone())), "{after:?}");
    }
    // Rewording gives a new ID.
    v.write(
        "projects/p/todos.md",
        md(&["## Next", "- [ ] Write the release changelog"]),
    );
    let reworded = ids(&v);
    assert!(!reworded.iter().any(|(id, _)| id == &before[1].0));
}

#[test]
fn report_items_can_be_found_by_id() {
    use active_status::pipeline::analyze;
    use active_status::report::{find_item, report_items};
    let v = vault();
    let cfg = active_status::config::Config::default();
    let analysis = analyze(v.path(), &cfg).unwrap();
    let items = report_items(&analysis.merged, analysis.vault.as_of);
    let list = ids(&v);
    assert_eq!(find_item(&items, &list[1].0), Found::One(1));
    assert_eq!(find_item(&items, &list[1].0.to_uppercase()), Found::One(1));
    assert_eq!(items[1].text, "Write the changelog");
    assert_eq!(find_item(&items, "zzzzzzzz"), Found::None);
    assert_eq!(find_item(&items, "Write the changelog"), Found::None);
}

#[test]
fn a_report_that_only_counts_its_resolutions_differs_in_nothing_else() {
    use active_status::pipeline::analyze;
    use active_status::report::{Trail, build, build_with};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example-vault");
    let cfg = active_status::config::Config {
        today: Some(jiff::civil::date(2026, 5, 6)),
        ..Default::default()
    };
    let analysis = analyze(&root, &cfg).unwrap();
    let listed = build(&analysis, &cfg);
    assert!(!listed.resolutions.is_empty());
    assert_eq!(listed.resolutions.len(), listed.audit.resolved);
    let mut counted = build_with(&analysis, &cfg, Trail::Counted);
    assert!(counted.resolutions.is_empty());
    assert_eq!(counted.audit.resolved, listed.audit.resolved);
    counted.resolutions = listed.resolutions.clone();
    assert_eq!(counted, listed);
}
