//! `extract` rules for templates, empty lists and the shapes lists take in
//! final answers (docs/FORMAT.md §9.1): each through the binary, on a corpus
//! transcript or a small plain-text one.

use crate::common::{Vault, check_cases, outside_file, same};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/transcripts/corpus");

/// The candidate texts of `extract` on `transcript`, run in an empty vault.
fn texts(transcript: &str) -> Vec<String> {
    let out = Vault::new().json(&["extract", "--transcript", transcript, "--format", "json"]);
    crate::common::texts(&out["candidates"])
}

fn corpus(file: &str) -> Vec<String> {
    texts(&format!("{CORPUS}/{file}"))
}

/// A plain-text transcript `body`, written to a `.txt` file of its own.
fn plain(body: &str) -> Vec<String> {
    let (_dir, path) = outside_file("t.txt", body);
    texts(path.to_str().expect("utf-8 path"))
}

/// `(rule, transcript, the candidate texts in order)`.
type Case = (&'static str, &'static str, &'static [&'static str]);

/// Each case of `cases`, read by `read`, gives exactly its candidates; a
/// failure names every case that did not.
#[track_caller]
fn expect(cases: &[Case], read: fn(&str) -> Vec<String>) {
    check_cases(
        cases,
        |c| c.0,
        |&(_, transcript, want)| {
            same(
                read(transcript),
                want.iter().map(|t| t.to_string()).collect(),
            )
        },
    );
}

/// Files of the labelled corpus (`fixtures/transcripts/corpus`).
const CORPUS_CASES: &[Case] = &[
    (
        "a prompt template's TODO markers, follow-up items and Next steps are \
         instructions; the agent's \"Follow-ups: none.\" names nothing",
        "codex-27-command-template-negative.jsonl",
        &[],
    ),
    (
        "a Next priority heading leads in its numbered items; the sentence \
         ending in a colon before it is no candidate",
        "claude-51-next-priority-items.jsonl",
        &[
            "**Conflict handling** - The merge step exists but drops the older edit silently. Need to keep both versions and flag the record",
            "**Retry queue** - Failed pushes are lost today. Add a queue that retries with: exponential backoff; a dead-letter folder after five tries",
        ],
    ),
    (
        "nested items join a parent ending in a colon",
        "codex-28-next-actions-nested.jsonl",
        &[
            "Suggested commands: Add a task for rounding partial refunds to `tasks.md`; Write an audit retention section in `specs/ledger.md`",
        ],
    ),
    (
        "a noun of work may stand before the colon",
        "codex-29-suggested-next-command.jsonl",
        &["`make migration-plan`"],
    ),
    (
        "a phrase alone on its line leads in a list",
        "codex-30-bare-lead-in.jsonl",
        &["`cd api && npm test`", "`cd api && npm run lint`"],
    ),
    (
        "the session ending on a request with a promise leaves it open",
        "claude-52-waiting-on-user.jsonl",
        &[
            "Run `make migrate ENV=staging` and paste the row counts it prints — once I have them, I'll compare them with production and drop the old table",
        ],
    ),
    (
        "a request answered by the user, with a polite closing, is no request",
        "codex-31-request-answered-negative.jsonl",
        &[],
    ),
    (
        "a review answered as JSON leaves its findings open",
        "codex-33-review-as-json.jsonl",
        &[
            "P1: Refund totals ignore the currency of the order",
            "P2: Export leaves the temp file behind on error",
        ],
    ),
    (
        "severity labels outside a review heading are no findings",
        "claude-54-labels-not-a-review-negative.jsonl",
        &[],
    ),
    (
        "severity words reported as handled are no findings",
        "codex-34-severity-words-not-a-review-negative.jsonl",
        &[],
    ),
    (
        "a time word inside a summary task puts nothing off",
        "claude-53-summary-time-words-negative.jsonl",
        &[],
    ),
    (
        "a send-me step answered by the user's next message with content is settled",
        "claude-55-send-me-answered-negative.jsonl",
        &[],
    ),
    (
        "a pasted report nobody answered survives a stray line",
        "claude-56-pasted-error-unanswered.jsonl",
        &["Config Error /home/ana/.config/editor/settings.json"],
    ),
];

#[test]
fn corpus_transcripts_give_their_lists() {
    expect(CORPUS_CASES, corpus);
}

/// Small plain-text transcripts.
const TEXT_CASES: &[Case] = &[
    (
        "a prompt template is read for the user's words only",
        "User:\n## User Input\n\n```text\nNext session: add a CSV export\n```\n\n## Outline\n\n\
         Next steps: fill every placeholder.\n\nAssistant: Noted.\n",
        &["add a CSV export"],
    ),
    (
        "a command template's own Next steps are no list",
        "User: Fix the bug described in $ARGUMENTS.\n\nNext steps: open a pull request.\n\n\
         Assistant: Which bug?\n",
        &[],
    ),
    (
        "a list that says it is empty gives nothing",
        "User: tidy the imports\n\nAssistant: Done.\n\nFollow-ups: none.\n\nNext steps:\n- n/a\n\n\
         Open items: nothing so far\n",
        &[],
    ),
    (
        "\"None of …\" is a sentence, not an empty list",
        "User: ok\n\nAssistant: Next steps: none of the tests cover the retry path yet, add one\n",
        &["none of the tests cover the retry path yet, add one"],
    ),
    (
        "a parent without a colon keeps its nested items out of its text",
        "User: plan?\n\nAssistant: Next steps:\n- Ship the parser\n  - it is fast\n",
        &["Ship the parser"],
    ),
    (
        "with a word beside it a phrase is a sentence, not a lead-in",
        "User: ok\n\nAssistant: 나중에 README 업데이트\n",
        &["나중에 README 업데이트"],
    ),
    (
        "without a promise, a request is no hand-off",
        "User: ok\n\nAssistant: The diff is ready. Please review the diff in `src/app.ts` closely.\n",
        &[],
    ),
    (
        "under a review heading, a finding opening with \"nothing\" is a finding",
        "User: review the auth module\n\nAssistant: **Findings**\n\n\
         Critical: nothing validates the token signature before use.\n\
         High: the done callback fires twice when the refresh fails.\n\
         Low: none found.\n",
        &[
            "Critical: nothing validates the token signature before use",
            "High: the done callback fires twice when the refresh fails",
        ],
    ),
    (
        "a phrase that is the subject of a statement is no marker: next steps are",
        "User: plan?\n\nAssistant: Next steps are in the doc I linked; nothing else is open.\n",
        &[],
    ),
    (
        "a phrase that is the subject of a statement is no marker: suggested next steps are",
        "User: plan?\n\nAssistant: Suggested next steps are in the doc I linked.\n",
        &[],
    ),
    (
        "a phrase that is the subject of a statement is no marker: next actions taken",
        "User: plan?\n\nAssistant: Next actions taken by the scheduler are logged in `jobs.log`.\n",
        &[],
    ),
    (
        "a directive after the phrase still counts",
        "User: plan?\n\nAssistant: Next steps we should add a retry policy.\n",
        &["Add a retry policy"],
    ),
    (
        // Found by fuzzing: "Please ẞ#" made `extract` exit 101.
        "a request opening before a character that shrinks when lowercased does not crash",
        "User: names?\n\nAssistant: Please ẞ#\n",
        &[],
    ),
];

#[test]
fn plain_text_transcripts_give_their_lists() {
    expect(TEXT_CASES, plain);
}

#[test]
fn a_noun_other_than_one_of_work_keeps_the_colon_out_of_reach() {
    let t = "User: ok\n\nAssistant: Suggested next reading: the design notes.\n";
    assert!(!plain(t).contains(&"the design notes".to_string()));
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
fn the_put_off_task_of_a_summarised_session_stays_open() {
    assert_eq!(corpus("claude-46-summary-task-put-off.jsonl").len(), 1);
}

#[test]
fn a_send_me_step_is_answered_by_the_users_next_message_with_content() {
    let ask = "User: add the export\n\nAssistant: The export is merged. When you get a chance, send me \
               the output of `npm ls` so I can check the versions.\n\n";
    // Unanswered, or answered with a bare acknowledgement: still open.
    let open = ["Send me the output of `npm ls`"];
    assert_eq!(plain(ask), open);
    let acked = format!("{ask}User: ok\n\nAssistant: Thanks.\n");
    assert_eq!(plain(&acked), open);
    let sent = format!(
        "{ask}User: here it is:\n\n    react@18.2.0, vite@5.1.0\n\nAssistant: Thanks, fine.\n"
    );
    assert!(plain(&sent).is_empty());
}
