//! Tests of `handoff`.

use super::*;

fn texts(v: Vec<(String, String, usize)>) -> Vec<String> {
    v.into_iter().map(|(t, _, _)| t).collect()
}

fn fin(text: &str) -> Vec<String> {
    let mut long = 0;
    let leads = [
        "still need",
        "remaining",
        "what's left",
        "fill in",
        "before submitting",
    ];
    let leads = Matcher::new(&leads.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    texts(final_answer(&leads, text, 400, &mut long))
}

#[test]
fn lead_in_lists_of_the_final_answer() {
    let t = "Draft ready. The draft asks for 8,000, but you still need to fill:\n\n- Telegram username\n- Solana wallet address\n\n| Field | Remaining: no |\n|---|---|";
    assert_eq!(fin(t), ["Telegram username", "Solana wallet address"]);
    let t = "Before submitting, fill in: the demo URL";
    assert_eq!(fin(t), ["the demo URL"]);
    let t = "What's left:\n1. Rotate the API key\n2. Tag v2";
    assert_eq!(fin(t), ["Rotate the API key", "Tag v2"]);
    assert!(fin("Remaining tests pass. The build is green.").is_empty());
    let t = "Draft saved.\n\nBefore submitting, fill in:\n- Demo URL\n- Team size";
    assert_eq!(fin(t), ["Demo URL", "Team size"]);
}

#[test]
fn states_that_wait_on_the_user() {
    let t = "All findings addressed in 7e3da22. Ready for submission pending your read-through of the changes.";
    assert_eq!(
        fin(t),
        ["Ready for submission pending your read-through of the changes"]
    );
    assert_eq!(
        fin("The release is staged, awaiting your sign-off."),
        ["The release is staged, awaiting your sign-off"]
    );
    assert!(fin("Drafted three options, awaiting your answer.").is_empty());
    // Approvals given in the chat are replies, not steps.
    for t in [
        "The plan is in docs/migration.md, awaiting your feedback.",
        "Plan drafted; waiting for your go-ahead before I run it.",
        "The plan is ready, pending your approval.",
        "I've written the plan and am waiting on your confirmation.",
    ] {
        assert!(fin(t).is_empty(), "{t}");
    }
    assert!(fin("The spending your budget allows is fine.").is_empty());
}

#[test]
fn steps_that_close_the_final_answer() {
    let t = "Deployed.\n\nTo try it yourself:\n1. Add your key to `.env`\n   - the test key works\n2. `npm run dev`\n3. Open http://localhost:3000\n\nEnjoy.";
    assert_eq!(
        fin(t),
        [
            "Add your key to `.env`",
            "`npm run dev`",
            "Open http://localhost:3000"
        ]
    );
    let done = "Summary:\n- Added the route\n- Fixed the test";
    assert!(fin(done).is_empty());
    let no_lead = "Done.\n- Run the app";
    assert!(fin(no_lead).is_empty());
    let report = "Fixed.\n\n### Testing\n- Run `npm test` to verify\n\nAnything else?";
    assert!(fin(report).is_empty());
    let related = "The flag is read once.\n\nRelated helpers to look at:\n- `load_config` for defaults\n- `Config::merge()` for overrides\n\nHappy to dig further.";
    assert!(fin(related).is_empty());
    let verified = "Fixed.\n\nVerified before merging:\n- `cargo test` passes\n- `npm run lint` → clean\n- `make check`: 12 passed";
    assert!(fin(verified).is_empty());
    let not_last = "Steps:\n- Run it\n\nMore text.\nAnd more.\nAnd even more.";
    assert!(fin(not_last).is_empty());
}

#[test]
fn sentences_of_the_final_answer() {
    assert_eq!(
        fin("Done. You still need to add your key to `.env`."),
        ["Add your key to `.env`"]
    );
    assert_eq!(
        fin("The CU simulation remains pending until devnet is back."),
        ["The CU simulation remains pending until devnet is back"]
    );
    assert_eq!(
        fin(
            "One note: the key is a placeholder, so replace `sk-x` with your real key before using:"
        ),
        ["Replace `sk-x` with your real key before using"]
    );
    assert!(fin("If you need to change it, edit the config.").is_empty());
    assert_eq!(
        fin("The e2e suite has not been run against devnet."),
        ["The e2e suite has not been run against devnet"]
    );
    assert!(fin("The public API has not been changed.").is_empty());
    assert_eq!(
        fin("- Critical day-one task: verify the webhook secret in production"),
        ["Verify the webhook secret in production"]
    );
    assert!(fin("Task: the parser was slow.").is_empty());
    assert_eq!(
        fin("The lockfile and the two docs edits are still uncommitted from earlier."),
        ["The lockfile and the two docs edits are still uncommitted from earlier"]
    );
    assert_eq!(
        fin("Retry and refund are implemented but not exercised without live keys."),
        ["Retry and refund are implemented but not exercised without live keys"]
    );
    assert_eq!(
        fin("All green. `notes/plan.md` is the only uncommitted file."),
        ["`notes/plan.md` is the only uncommitted file"]
    );
    assert!(fin("This is the only unchanged module.").is_empty());
    assert!(fin("The cache is still unchanged.").is_empty());
    assert!(fin("It is supported but not required.").is_empty());
    assert!(fin("The old flag is still understood.").is_empty());
    assert!(fin("```\nyou still need to x\n```").is_empty());
}

#[test]
fn work_put_off_with_a_condition() {
    assert_eq!(
        texts(deferred(
            "Done. Refunds are intentionally blocked unless the policy is expanded later.",
            400
        )),
        ["Refunds are intentionally blocked unless the policy is expanded"]
    );
    assert!(deferred("It fails unless the key is set.", 400).is_empty());
    assert!(deferred("Later it retries unless stopped.", 400).is_empty());
}

#[test]
fn steps_offered_for_later() {
    assert_eq!(
        texts(later(
            "Moved. You can delete the old Stellar files when ready.",
            400
        )),
        ["Delete the old Stellar files"]
    );
    assert!(later("It runs when ready.", 400).is_empty());
    assert!(later("You can see it when you're ready", 400).len() == 1);
}
