//! Configuration layering rules that the `config` command shows: a missing
//! or unreadable user file, type errors in words, empty variables.

use crate::common::{Test, Vault, config_line, stderr, stdout};

fn cap_line(out: &std::process::Output) -> String {
    config_line(&stdout(out), "cap")
}

#[test]
fn a_missing_user_config_is_not_an_error() {
    let v = Vault::new();
    let home = tempfile::tempdir().expect("tempdir");
    let out = v
        .test()
        .env("XDG_CONFIG_HOME", home.path().join("no/such/dir"))
        .arg("config")
        .run()
        .output;
    assert_eq!(stderr(&out), "");
    assert_eq!(cap_line(&out), "cap = 15  # default");
}

#[test]
fn an_unreadable_user_config_is_a_warning() {
    let v = Vault::new();
    let home = tempfile::tempdir().expect("tempdir");
    // A folder where the file should be: reading it fails (as root too).
    std::fs::create_dir_all(home.path().join("active-status/config.toml")).expect("mkdir");
    let out = v
        .test()
        .env("XDG_CONFIG_HOME", home.path())
        .arg("config")
        .run()
        .output;
    let err = stderr(&out);
    assert!(
        err.starts_with("warning: cannot read the user configuration ")
            && err.contains("active-status/config.toml")
            && err.trim_end().ends_with("; ignored"),
        "{err}"
    );
    assert_eq!(cap_line(&out), "cap = 15  # default");
    // -q silences the warning, not the run.
    let out = v
        .test()
        .env("XDG_CONFIG_HOME", home.path())
        .args(["-q", "audit"])
        .run()
        .output;
    assert_eq!(stderr(&out), "");
}

#[test]
fn an_unreadable_vault_config_is_an_error() {
    let v = Vault::new();
    std::fs::create_dir_all(v.join(".agents/active-status.toml")).expect("mkdir");
    v.test()
        .arg("config")
        .status(74)
        .stderr_has("cannot read configuration")
        .run();
}

#[test]
fn type_errors_are_in_words() {
    let cases = [
        (
            "cap = \"many\"\n",
            "line 1: key `cap`: expected a whole number (0 or more), found \"many\"",
        ),
        (
            "[dedup]\nthreshold = \"high\"\n",
            "line 2: key `dedup.threshold`: expected a number, found \"high\"",
        ),
        (
            "follow_symlinks = \"yes\"\n",
            "line 1: key `follow_symlinks`: expected true or false, found \"yes\"",
        ),
    ];
    for (text, want) in cases {
        let v = Vault::new().file(".agents/active-status.toml", text);
        v.test()
            .arg("config")
            .status(65)
            .stderr_has(want)
            .stderr_lacks("usize")
            .stderr_lacks("invalid type")
            .run();
    }
}

#[test]
fn environment_values_need_no_quotes_and_empty_means_unset() {
    let shown = Test::new()
        .env("ACTIVE_STATUS_SOURCES_JOURNAL", "days")
        .env("ACTIVE_STATUS_CAP", "")
        .arg("config")
        .run()
        .stdout();
    assert_eq!(
        config_line(&shown, "sources.journal"),
        "sources.journal = \"days\"  # env ACTIVE_STATUS_SOURCES_JOURNAL"
    );
    assert_eq!(config_line(&shown, "cap"), "cap = 15  # default");
    // A number where a string is wanted is taken as the text.
    let shown = Test::new()
        .env("ACTIVE_STATUS_OUTPUT", "2026")
        .arg("config")
        .run()
        .stdout();
    let output = config_line(&shown, "output");
    assert!(output.starts_with("output = \"2026\""), "{shown}");
}

#[test]
fn a_config_file_that_is_not_utf8_is_bad_data() {
    let v = Vault::new().file(".agents/active-status.toml", b"cap = 5\n# caf\xe9\n");
    v.test()
        .arg("config")
        .status(65)
        .stderr_has("active-status.toml")
        .stderr_has("line 2: not valid UTF-8")
        .run();
}
