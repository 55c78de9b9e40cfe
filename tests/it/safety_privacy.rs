//! Private spans. A span that crosses list items, lines, blank
//! lines, nested spans, or is written `<private >` / `<private class="x">`
//! hides everything up to its close tag in every output: `list` (text and
//! JSON), `audit`, the dashboard, the session-start hook, and the inbox the
//! pre-compact hook writes from a transcript. Checked on fixed cases and by
//! property over generated documents.

use crate::common::assert_has;
use crate::common::{Vault, run_limited};
use proptest::prelude::*;
use std::time::Duration;

const DEADLINE: Duration = crate::common::HANG_GUARD;
const DAY: &str = "journal/2026-05-06.md";

/// Every output a vault's text can reach, concatenated.
fn all_outputs(v: &Vault) -> String {
    let mut out = String::new();
    for args in [
        &["list"][..],
        &["list", "--format", "json"][..],
        &["audit", "-v", "--format", "json"][..],
        &["audit", "-v"][..],
        &["regen"][..],
    ] {
        let o = v.test().args(args).run().output;
        out.push_str(&String::from_utf8_lossy(&o.stdout));
        out.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    out.push_str(&v.read("ACTIVE-STATUS.md"));
    let mut cmd = v.process();
    cmd.args(["hook", "session-start"]);
    let input = format!("{{\"cwd\": {:?}, \"source\": \"startup\"}}", v.path());
    let (o, _) = run_limited(cmd, input.as_bytes(), DEADLINE, "session-start");
    out.push_str(&String::from_utf8_lossy(&o.stdout));
    out
}

#[test]
fn spans_across_items_blank_lines_and_nesting_hide_everything_inside() {
    let v = Vault::new().project("p").file(
        DAY,
        "## Session: s (p)\n### Next\n\
         - [ ] call the bank <private>account SECRET-1\n\
         - [ ] SECRET-2 pin is 1234\n\
         \n\
         SECRET-3 still inside</private> then visible\n\
         - [ ] ask <private class=\"pii\">SECRET-4 <private >SECRET-5</private> SECRET-6</PRIVATE> later\n\
         - [ ] public follow-up\n",
    );
    let out = all_outputs(&v);
    assert!(!out.contains("SECRET"), "{out}");
    assert_has(
        &out,
        &[
            "call the bank [private]",
            "ask [private] later",
            "public follow-up",
        ],
    );
}

#[test]
fn spans_across_transcript_lines_never_reach_the_inbox() {
    let v = Vault::new()
        .project("p")
        .file(DAY, "## Session: s (p)\n### Next\n- [ ] x\n");
    let t = v.join("t.txt");
    std::fs::write(
        &t,
        "User: my key is <private>\nAssistant: TODO: rotate SECRET-A next session\n\
         Assistant: TODO: follow up SECRET-B</private> TODO: follow up on the public part next session\n",
    )
    .unwrap();
    let mut cmd = v.process();
    cmd.args(["hook", "pre-compact"]);
    let input = format!(
        "{{\"transcript_path\": {:?}, \"cwd\": {:?}, \"session_id\": \"s1\"}}",
        t,
        v.path()
    );
    let (o, _) = run_limited(cmd, input.as_bytes(), DEADLINE, "pre-compact");
    assert_eq!(o.status.code(), Some(0));
    let inbox: String = std::fs::read_dir(v.join(".agents/inbox"))
        .map(|rd| {
            rd.flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    assert!(inbox.contains("public part"), "{inbox}");
    assert!(!inbox.contains("SECRET"), "{inbox}");
    let o = v
        .cmd()
        .args(["extract", "--transcript", t.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&o.stdout).contains("SECRET"));
}

const OPENS: &[&str] = &[
    "<private>",
    "<private >",
    "<PRIVATE>",
    "<private class=\"x\">",
];
const CLOSES: &[&str] = &["</private>", "</private >", "</Private>"];
const GLUE: &[&str] = &["\n- [ ] ", "\n\n", "\n  - [ ] ", "\n### Next\n- [ ] ", " "];

/// A journal: items whose texts hold spans that may run across the glue.
fn journal() -> impl Strategy<Value = String> {
    let part = (
        "[a-z]{3,8} [a-z]{3,8}",
        0..OPENS.len(),
        0..CLOSES.len(),
        proptest::collection::vec(0..GLUE.len(), 0..4),
        any::<bool>(),
    );
    proptest::collection::vec(part, 1..6).prop_map(|parts| {
        let mut doc = String::from("## Session: s (p)\n### Next\n");
        for (i, (words, open, close, glue, nested)) in parts.into_iter().enumerate() {
            doc.push_str(&format!("- [ ] item{i} {words} {}SECRET{i}", OPENS[open]));
            for g in glue {
                doc.push_str(GLUE[g]);
                doc.push_str(&format!("SECRET{i}x"));
            }
            if nested {
                doc.push_str(&format!("{}SECRET{i}n{}SECRET{i}m", OPENS[0], CLOSES[0]));
            }
            doc.push_str(CLOSES[close]);
            doc.push_str(" tail\n");
        }
        doc
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn no_byte_of_a_private_span_reaches_any_output(doc in journal()) {
        let v = Vault::new().project("p").file(DAY, &doc);
        let out = all_outputs(&v);
        prop_assert!(!out.contains("SECRET"), "{doc}\n---\n{out}");
    }
}
