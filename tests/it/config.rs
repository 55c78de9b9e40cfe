//! Configuration layering rules that the `config` command shows: a missing
//! or unreadable user file, type errors in words, empty variables.

use crate::common::{Vault, stderr, stdout};

fn cap_line(out: &std::process::Output) -> String {
    stdout(out)
        .lines()
        .find(|l| l.starts_with("cap = "))
        .unwrap_or_else(|| panic!("no cap line:\n{}", stdout(out)))
        .to_string()
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
        let out = v.test().arg("config").status(65).run().output;
        let err = stderr(&out);
        assert!(err.contains(want), "{text}: {err}");
        assert!(
            !err.contains("usize") && !err.contains("invalid type"),
            "{err}"
        );
    }
}

#[test]
fn environment_values_need_no_quotes_and_empty_means_unset() {
    let v = Vault::new();
    let out = v
        .test()
        .env("ACTIVE_STATUS_SOURCES_JOURNAL", "days")
        .env("ACTIVE_STATUS_CAP", "")
        .arg("config")
        .run()
        .output;
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l == "sources.journal = \"days\"  # env ACTIVE_STATUS_SOURCES_JOURNAL"),
        "{text}"
    );
    assert_eq!(cap_line(&out), "cap = 15  # default");
    // A number where a string is wanted is taken as the text.
    let out = v
        .cmd()
        .env("ACTIVE_STATUS_OUTPUT", "2026")
        .arg("config")
        .output()
        .expect("run");
    assert!(
        stdout(&out)
            .lines()
            .any(|l| l.starts_with("output = \"2026\"")),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_config_file_that_is_not_utf8_is_bad_data() {
    let v = Vault::new().file(".agents/active-status.toml", b"cap = 5\n# caf\xe9\n");
    let out = v.test().arg("config").status(65).run().output;
    assert!(
        stderr(&out).contains("active-status.toml")
            && stderr(&out).contains("line 2: not valid UTF-8"),
        "{}",
        stderr(&out)
    );
}
