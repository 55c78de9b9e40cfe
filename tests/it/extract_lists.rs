//! `extract` rules for templates, empty lists and the shapes lists take in
//! final answers (docs/FORMAT.md §9.1): each through the binary, on a corpus
//! transcript or a small plain-text one.

use crate::common::{Vault, outside_file};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/transcripts/corpus");

/// The candidate texts of `extract` on `transcript`, run in an empty vault.
fn texts(transcript: &str) -> Vec<String> {
    let out = Vault::new().json(&["extract", "--transcript", transcript, "--format", "json"]);
    crate::common::texts(&out["candidates"])
}

fn corpus(file: &str) -> Vec<String> {
    texts(&format!("{CORPUS}/{file}"))
}

/// A plain-text transcript `body`, written to a file `name` of its own.
fn plain(name: &str, body: &str) -> Vec<String> {
    let (_dir, path) = outside_file(name, body);
    texts(path.to_str().expect("utf-8 path"))
}

#[test]
fn a_prompt_template_is_read_for_the_users_words_only() {
    // The template's "TODO markers", "follow-up items" and "Next steps" are
    // instructions; the agent's "Follow-ups: none." names nothing.
    assert!(corpus("codex-27-command-template-negative.jsonl").is_empty());
    let t = "User:\n## User Input\n\n```text\nNext session: add a CSV export\n```\n\n## Outline\n\n\
             Next steps: fill every placeholder.\n\nAssistant: Noted.\n";
    assert_eq!(plain("t.txt", t), ["add a CSV export"]);
    let t = "User: Fix the bug described in $ARGUMENTS.\n\nNext steps: open a pull request.\n\n\
             Assistant: Which bug?\n";
    assert!(plain("u.txt", t).is_empty());
}

#[test]
fn a_list_that_says_it_is_empty_gives_nothing() {
    let t = "User: tidy the imports\n\nAssistant: Done.\n\nFollow-ups: none.\n\nNext steps:\n- n/a\n\n\
             Open items: nothing so far\n";
    assert!(plain("t.txt", t).is_empty());
    // "None of …" is a sentence, not an empty list.
    let t =
        "User: ok\n\nAssistant: Next steps: none of the tests cover the retry path yet, add one\n";
    assert_eq!(
        plain("u.txt", t),
        ["none of the tests cover the retry path yet, add one"]
    );
}

#[test]
fn a_next_priority_heading_leads_in_its_numbered_items() {
    // The sentence ending in a colon before the heading is no candidate.
    assert_eq!(
        corpus("claude-51-next-priority-items.jsonl"),
        [
            "**Conflict handling** - The merge step exists but drops the older edit silently. Need to keep both versions and flag the record",
            "**Retry queue** - Failed pushes are lost today. Add a queue that retries with: exponential backoff; a dead-letter folder after five tries",
        ]
    );
}

#[test]
fn nested_items_join_a_parent_ending_in_a_colon() {
    assert_eq!(
        corpus("codex-28-next-actions-nested.jsonl"),
        [
            "Suggested commands: Add a task for rounding partial refunds to `tasks.md`; Write an audit retention section in `specs/ledger.md`"
        ]
    );
    // A parent without a colon keeps its nested items out of its text.
    let t = "User: plan?\n\nAssistant: Next steps:\n- Ship the parser\n  - it is fast\n";
    assert_eq!(plain("t.txt", t), ["Ship the parser"]);
}

#[test]
fn a_noun_of_work_may_stand_before_the_colon() {
    assert_eq!(
        corpus("codex-29-suggested-next-command.jsonl"),
        ["`make migration-plan`"]
    );
    // Another noun keeps the colon out of reach.
    let t = "User: ok\n\nAssistant: Suggested next reading: the design notes.\n";
    assert!(!plain("t.txt", t).contains(&"the design notes".to_string()));
}

#[test]
fn a_phrase_alone_on_its_line_leads_in_a_list() {
    assert_eq!(
        corpus("codex-30-bare-lead-in.jsonl"),
        ["`cd api && npm test`", "`cd api && npm run lint`"]
    );
    // With a word beside it the phrase is a sentence, not a lead-in.
    let t = "User: ok\n\nAssistant: 나중에 README 업데이트\n";
    assert_eq!(plain("t.txt", t), ["나중에 README 업데이트"]);
}

#[test]
fn the_session_ending_on_a_request_with_a_promise_leaves_it_open() {
    assert_eq!(
        corpus("claude-52-waiting-on-user.jsonl"),
        [
            "Run `make migrate ENV=staging` and paste the row counts it prints — once I have them, I'll compare them with production and drop the old table"
        ]
    );
    // Answered by the user; a polite closing is no request.
    assert!(corpus("codex-31-request-answered-negative.jsonl").is_empty());
    // Without a promise, a request is no hand-off of this rule.
    let t = "User: ok\n\nAssistant: The diff is ready. Please review the diff in `src/app.ts` closely.\n";
    assert!(plain("t.txt", t).is_empty());
}

#[test]
fn a_command_step_run_later_in_its_folder_is_settled() {
    let out = Vault::new().json(&[
        "extract",
        "--transcript",
        &format!("{CORPUS}/codex-32-steps-run-later-negative.jsonl"),
        "--format",
        "json",
    ]);
    assert_eq!(out["candidates"], serde_json::json!([]));
    assert_eq!(out["resolved"], 2, "both steps settled by the runs");
}

#[test]
fn a_review_answered_as_json_leaves_its_findings_open() {
    assert_eq!(
        corpus("codex-33-review-as-json.jsonl"),
        [
            "P1: Refund totals ignore the currency of the order",
            "P2: Export leaves the temp file behind on error"
        ]
    );
}

#[test]
fn severity_labels_count_only_under_a_review_heading_not_reported_handled() {
    assert!(corpus("claude-54-labels-not-a-review-negative.jsonl").is_empty());
    assert!(corpus("codex-34-severity-words-not-a-review-negative.jsonl").is_empty());
    // Under a review heading, a finding opening with "nothing" is a finding.
    let t = "User: review the auth module\n\nAssistant: **Findings**\n\n\
             Critical: nothing validates the token signature before use.\n\
             High: the done callback fires twice when the refresh fails.\n\
             Low: none found.\n";
    assert_eq!(
        plain("t.txt", t),
        [
            "Critical: nothing validates the token signature before use",
            "High: the done callback fires twice when the refresh fails"
        ]
    );
}

#[test]
fn a_time_word_inside_a_summary_task_puts_nothing_off() {
    assert!(corpus("claude-53-summary-time-words-negative.jsonl").is_empty());
    // The put-off task of the original session stays open.
    assert_eq!(corpus("claude-46-summary-task-put-off.jsonl").len(), 1);
}

#[test]
fn a_send_me_step_is_answered_by_the_users_next_message_with_content() {
    assert!(corpus("claude-55-send-me-answered-negative.jsonl").is_empty());
    let ask = "User: add the export\n\nAssistant: The export is merged. When you get a chance, send me \
               the output of `npm ls` so I can check the versions.\n\n";
    // Unanswered, or answered with a bare acknowledgement: still open.
    let open = ["Send me the output of `npm ls`"];
    assert_eq!(plain("a.txt", ask), open);
    let acked = format!("{ask}User: ok\n\nAssistant: Thanks.\n");
    assert_eq!(plain("b.txt", &acked), open);
    let sent = format!(
        "{ask}User: here it is:\n\n    react@18.2.0, vite@5.1.0\n\nAssistant: Thanks, fine.\n"
    );
    assert!(plain("c.txt", &sent).is_empty());
}

#[test]
fn a_pasted_report_nobody_answered_survives_a_stray_line() {
    assert_eq!(
        corpus("claude-56-pasted-error-unanswered.jsonl"),
        ["Config Error /home/ana/.config/editor/settings.json"]
    );
}

#[test]
fn a_phrase_that_is_the_subject_of_a_statement_is_no_marker() {
    for (name, line) in [
        (
            "a.txt",
            "Next steps are in the doc I linked; nothing else is open.",
        ),
        ("b.txt", "Suggested next steps are in the doc I linked."),
        (
            "c.txt",
            "Next actions taken by the scheduler are logged in `jobs.log`.",
        ),
    ] {
        let t = format!("User: plan?\n\nAssistant: {line}\n");
        assert!(plain(name, &t).is_empty(), "{line}");
    }
    // A directive after the phrase still counts.
    let t = "User: plan?\n\nAssistant: Next steps we should add a retry policy.\n";
    assert_eq!(plain("d.txt", t), ["Add a retry policy"]);
}

#[test]
fn a_request_opening_before_a_character_that_shrinks_when_lowercased_does_not_crash() {
    // Found by fuzzing: "Please ẞ#" made `extract` exit 101.
    let t = "User: names?\n\nAssistant: Please ẞ#\n";
    assert!(plain("t.txt", t).is_empty());
}
