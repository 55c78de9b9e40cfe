//! Golden tests: the dashboard and the JSON report of the bundled example
//! vault (fixtures/example-vault) are pinned as insta snapshots.

use std::path::Path;

/// Copies the example vault into a fresh temporary folder.
fn example_vault() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read_dir") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("file type").is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/example-vault");
    copy(&src, dir.path());
    dir
}

fn cmd(root: &Path) -> assert_cmd::Command {
    let mut c = crate::common::bare_cmd();
    c.env("XDG_CONFIG_HOME", root.join(".no-user-config"))
        .arg("--root")
        .arg(root);
    c
}

/// Runs `args` against the vault at `root`; it must succeed. Returns stdout.
fn stdout_of(root: &Path, args: &[&str]) -> String {
    let out = cmd(root).args(args).output().expect("run");
    crate::common::assert_status(&out, 0, &format!("{args:?}"));
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn dashboard_of_the_example_vault() {
    let vault = example_vault();
    cmd(vault.path()).args(["regen", "-q"]).assert().success();
    let dashboard =
        std::fs::read_to_string(vault.path().join("ACTIVE-STATUS.md")).expect("dashboard");
    insta::assert_snapshot!("example_dashboard", dashboard);
}

#[test]
fn json_report_of_the_example_vault() {
    let vault = example_vault();
    let json = stdout_of(vault.path(), &["regen", "--dry-run", "--format", "json"]);
    insta::assert_snapshot!("example_report_json", json);
}

#[test]
fn list_json_of_the_example_vault() {
    let vault = example_vault();
    let json = stdout_of(vault.path(), &["list", "--format", "json", "--limit", "5"]);
    insta::assert_snapshot!("example_list_json", json);
}

#[test]
fn text_audit_of_the_example_vault() {
    let vault = example_vault();
    let text = stdout_of(vault.path(), &["audit", "-v"]);
    insta::assert_snapshot!("example_audit_text", text);
}

#[test]
fn regenerating_twice_writes_once_and_check_passes() {
    let vault = example_vault();
    let regen = || -> serde_json::Value {
        serde_json::from_str(&stdout_of(vault.path(), &["regen", "--format", "json"]))
            .expect("json")
    };
    let (v1, v2) = (regen(), regen());
    assert_eq!(v1["written"], true);
    assert_eq!(v2["written"], false);
    assert_eq!(v2["changed"], false);
    cmd(vault.path())
        .args(["regen", "--check"])
        .assert()
        .code(0);
}
