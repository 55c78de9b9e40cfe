//! Every configuration key, declared once (docs/FORMAT.md §11). The table
//! generates the `Config` struct, its defaults, `KEYS`, the lookup used by
//! every layer (files and `ACTIVE_STATUS_*` variables), the value checks and
//! the commented template `init` writes. A new key is one entry here.
//!
//! Top-level keys come first (a TOML file cannot return to the top level
//! after a `[table]`); keys of one table stay together.

/// Follow-up phrases (English, Korean, Japanese, Chinese, French, German,
/// Spanish); see the transcript module for where they count.
const DEFAULT_KEYWORDS: &[&str] = &[
    "next session",
    "next steps",
    "next step",
    "next actions",
    "next priority",
    "next priorities",
    "next tasks",
    "suggested next",
    "recommended next",
    "follow-up",
    "follow-ups",
    "follow up",
    "todo",
    "come back to",
    "defer",
    "park",
    "postpone",
    "revisit",
    "still uncommitted",
    "still to do",
    "left to do",
    "remaining work",
    "open items",
    "not yet done",
    "다음 세션",
    "다음 단계",
    "후속",
    "나중에",
    "다시 보",
    "미루",
    "미뤄",
    "남은 작업",
    "할 일",
    "次のセッション",
    "次回",
    "次のステップ",
    "今後の課題",
    "残タスク",
    "保留",
    "下次会话",
    "下一步",
    "后续",
    "待办",
    "遗留",
    "推迟",
    "prochaine session",
    "prochaines étapes",
    "prochaine étape",
    "reste à faire",
    "reporter",
    "nächste Sitzung",
    "nächste Schritte",
    "nächster Schritt",
    "offene Punkte",
    "noch zu tun",
    "verschieben",
    "próxima sesión",
    "próximos pasos",
    "siguiente paso",
    "queda por hacer",
    "pendientes",
    "aplazar",
    "posponer",
];

/// Lead-in phrases of hand-offs in the message that ends an exchange
/// ("you still need to fill:", "Remaining:", "What's left:"); see the
/// transcript module's hand-off rules.
const DEFAULT_HANDOFF_LEADS: &[&str] = &[
    "still need",
    "need to",
    "you'll need",
    "you will need",
    "before submitting",
    "before you submit",
    "before using",
    "before you",
    "fill in",
    "remaining",
    "what's left",
    "what is left",
    "left to do",
    "still pending",
    "pending",
    "manual step",
    "manual steps",
    "to run",
    "to finish",
    "to deploy",
    "to get started",
    "to try it",
    "action items",
    "on your end",
    "on your side",
    "your side",
    "still open",
    "not yet",
    "missing",
    "you should",
    "to complete",
    "required from you",
    "남은",
    "해야 할",
    "残り",
    "未完了",
    "待完成",
    "还需要",
    "reste",
    "il faut",
    "noch offen",
    "noch nötig",
    "falta",
    "faltan",
    "pendiente",
];

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ---- checks run on the final value of a key ----
// Path keys are checked together in `paths.rs` (inside the vault, not into
// .git/, output and lock apart from the sources): those rules relate keys to
// each other, so they are not per-key checks.

/// Any value of the right type.
fn any<T>(_: &T) -> Result<(), &'static str> {
    Ok(())
}

fn fraction(value: &f64) -> Result<(), &'static str> {
    if *value > 0.0 && *value <= 1.0 {
        Ok(())
    } else {
        Err("must be greater than 0 and at most 1")
    }
}

/// The longest wait for the vault lock a configuration may ask for: a
/// writer (or an MCP write) never waits longer, whoever holds the lock.
pub(crate) const MAX_LOCK_TIMEOUT_SECS: f64 = 300.0;

fn seconds(value: &f64) -> Result<(), &'static str> {
    if (0.0..=MAX_LOCK_TIMEOUT_SECS).contains(value) {
        Ok(())
    } else {
        Err("must be a number of seconds from 0 to 300")
    }
}

config_keys! {
    /// The generated dashboard (output only; never read as input).
    "output" => output: String = "ACTIVE-STATUS.md".into(), check any;
    /// A Tera template to render instead of the built-in one (relative to the root).
    "template" => template: Option<String> = None, check any,
        example "\"templates/my-dashboard.md.tera\"";
    /// How many clusters the dashboard lists as priorities; the rest is overflow.
    "cap" => cap: usize = 15, check any;
    /// Follow symbolic links while scanning (loops are always detected).
    "follow_symlinks" => follow_symlinks: bool = false, check any;
    /// Keep per-file scan results in .agents/cache/ so a run re-parses only the files
    /// that changed (the output is the same either way; `--no-cache` turns it off for one run).
    "cache" => cache: bool = true, check any;
    /// Folders outside the vault (repositories) that belong to a project: a session
    /// started in one gets that project first in the session-start summary, as one
    /// started inside projects/<p>/ does. Written as one table per project,
    /// [projects.wrap-cli], holding `paths`, a list of folders ("~/src/wrap-cli").
    "projects" => project_paths: std::collections::BTreeMap<String, Vec<String>> = Default::default(), check any,
        example "{ wrap-cli = { paths = [\"~/src/wrap-cli\"] } }";

    /// Two items match when their normalized similarity is at least this.
    "dedup.threshold" => dedup_threshold: f64 = 0.85, check fraction;

    /// Daily journals, any depth (default: both journal/ and journals/); the date is the
    /// first YYYY-MM-DD, YYYY_MM_DD, YYYY.MM.DD or YYYYMMDD in the file name.
    "sources.journal" => journal_dir: String = "journal".into(), check any;
    /// Project folders: <projects>/<slug>/...
    "sources.projects" => projects_dir: String = "projects".into(), check any;
    /// Follow-ups captured by the hooks.
    "sources.inbox" => inbox_dir: String = ".agents/inbox".into(), check any;
    /// File name of a project's (and an active task's) todo list.
    "sources.project_todos" => project_todos: String = "todos.md".into(), check any;
    /// Legacy per-project progress file.
    "sources.progress" => progress: String = "PROGRESS.md".into(), check any;
    /// Per-task folders inside a project: <projects>/<slug>/<actives>/<task>/todos.md
    "sources.actives" => actives_dir: String = "actives".into(), check any;
    /// More sources, for layouts of other tools: a list of { path, kind, project }.
    /// Kinds "journal", "session-log" and "handoff": a folder (or file) of notes dated
    /// by name, read as journals; "todo" and "progress": a file (or folder of files) read
    /// like a project's todos.md or PROGRESS.md. The project (a slug) is the project of
    /// their items when nothing else names one (for todo and progress: the root
    /// folder's name when not given). `init` writes it for the layouts it finds.
    "sources.extra" => extra_sources: Vec<crate::config::declare::ExtraSource> = Vec::new(), check any,
        example "[{ path = \"docs/sessions\", kind = \"session-log\", project = \"my-app\" }]";

    /// Sections whose open items are follow-ups. A heading has a role when its
    /// normalized text starts with one of the role's phrases on a word boundary.
    "headings.next" => next_headings: Vec<String> = strings(&[
        "Next",
        "Next Session",
        "Next Steps",
        "Next Up",
        "Next Actions",
        "Next (captured)",
        "Follow-ups",
        "Follow-up",
        "Follow ups",
        "Follow up",
        "Open work",
        "Open follow-ups",
        "Open items",
        "Pending",
        "Pending tasks",
        "Remaining",
        "Todo",
        "To do",
        "Todos",
        "To-do",
        "To-dos",
        "Tasks",
        "Action items",
        "Tomorrow",
        "Tomorrow's plan",
        "Carry over",
        "Deferred",
        "Do",
        "Open questions",
        "Questions",
        "Research questions",
        "Unresolved questions",
        "Outstanding",
        "Blockers",
        "Blocked",
        "Recommendations",
        "Recommended",
        "Waiting on",
        "Waiting for",
        "Urgent",
        "Immediate",
        "Short-term",
        "Medium-term",
        "Long-term",
        "This week",
        "Next week",
        "Later",
        "Someday",
        "Future work",
        "Not done yet",
        "Not done",
        "Not yet done",
        "Still open",
        "Left to do",
        "Left open",
        "Loose ends",
        "Unfinished",
        "Incomplete",
        "Carried forward",
        "Carried over",
        "Carry forward",
        "What is not working",
        "What's not working",
        "Not working",
        "Still broken",
        "Rough edges",
        "Open issues",
        "다음",
        "다음 세션",
        "다음 단계",
        "다음 할 일",
        "할 일",
        "남은 작업",
        "후속 작업",
        "내일",
        "질문",
        "미해결 질문",
        "열린 질문",
        "블로커",
        "막힌 부분",
        "권장 사항",
        "대기 중",
        "확인 필요",
        "긴급",
        "이번 주",
        "다음 주",
        "나중에",
        "미완료",
        "남은 일",
        "아직 못 한 일",
        "이월",
        "안 되는 것",
        "次のステップ",
        "次回",
        "残タスク",
        "未解決の質問",
        "質問",
        "課題",
        "ブロッカー",
        "推奨",
        "確認待ち",
        "今週",
        "来週",
        "急ぎ",
        "やること",
        "未完了",
        "持ち越し",
        "残作業",
        "積み残し",
        "未対応",
    ]), check any;
    /// Sections whose items resolve matching follow-ups (journals).
    "headings.done" => done_headings: Vec<String> = strings(&[
        "Done",
        "Completed",
        "Finished",
        "Shipped",
        "Resolved",
        "Closed",
        "완료",
        "한 일",
        "完了",
    ]), check any;
    /// Sections recording follow-ups deliberately skipped (shown as potentially lost).
    "headings.skipped" => skipped_headings: Vec<String> = strings(&[
        "Skipped follow-ups",
        "Skipped",
        "Dropped",
        "Cancelled",
        "Canceled",
        "Won't do",
        "건너뜀",
        "취소",
    ]), check any;
    /// Sections stating a session goal (journals).
    "headings.goal" => goal_headings: Vec<String> = strings(&[
        "Goal",
        "Goals",
        "Objective",
        "Objectives",
        "Focus",
        "Session goal",
        "Session goals",
        "목표",
    ]), check any;

    /// Checkbox marks read as open (`[ ]`, `[?]`, `[<]`). A mark in none of the
    /// `status.*` lists is a decoration: not an item, counted as non_task.
    "status.open" => status_open: String = " ?<".into(), check any;
    /// Checkbox marks read as in progress (open, ranked first in its tier); `.` `o` `O`
    /// are vimwiki's partly done marks.
    "status.in_progress" => status_in_progress: String = "/~^.oO".into(), check any;
    /// Checkbox marks read as flagged (open, marked on the dashboard).
    "status.flagged" => status_flagged: String = "!".into(), check any;
    /// Checkbox marks read as forwarded (resolved when an open twin exists elsewhere).
    "status.forwarded" => status_forwarded: String = ">".into(), check any;
    /// Checkbox marks read as done.
    "status.done" => status_done: String = "xX".into(), check any;
    /// Checkbox marks read as cancelled (a resolution signal, like done); `D` is
    /// taskwiki's deleted.
    "status.cancelled" => status_cancelled: String = "-D".into(), check any;

    /// Follow-up phrases (English, Korean, Japanese, Chinese, French, German, Spanish).
    /// They count as markers: at the start of a sentence or clause, before `:`, in a
    /// heading or a line ending in `:` that leads a list, or in a deferral form.
    "extract.keywords" => keywords: Vec<String> = strings(DEFAULT_KEYWORDS), check any;
    /// Lead-in phrases of hand-offs: in the message that ends an exchange, a list
    /// under a line ending in `:` (or a heading) holding one is left to the user.
    "extract.handoff_leads" => extract_handoff_leads: Vec<String> = strings(DEFAULT_HANDOFF_LEADS), check any;
    /// Message lines longer than this are read sentence by sentence; longer
    /// sentences are skipped (and counted).
    "extract.max_line_chars" => extract_max_line_chars: usize = 400, check any;
    /// Transcripts larger than this (bytes) are refused.
    "extract.max_bytes" => extract_max_bytes: u64 = 256 << 20, check any;

    /// The lock file every write takes.
    "lock.path" => lock_path: String = ".agents/locks/active-status.lock".into(), check any;
    /// Seconds a run waits for the lock before exiting 75.
    "lock.timeout_secs" => lock_timeout_secs: f64 = 30.0, check seconds;

    /// Budget of the session-start summary, in characters.
    "hook.max_chars" => hook_max_chars: usize = 4000, check any;
    /// At most this many follow-ups captured per session (pre-compact, session-end, sweep).
    "hook.max_captured" => hook_max_captured: usize = 10, check any;

    /// Review items the dashboard and the session-start summary list (the rest is
    /// counted); JSON `review` holds them all.
    "review.max" => review_max: usize = 10, check any;
    /// Open items unchanged for more than this many days go to review as `stale`;
    /// a `keep` decision keeps an item out of review for this many days.
    "review.stale_days" => review_stale_days: u32 = 30, check any;

    /// `stats`: open items older than this many days are zombies; also the window
    /// of the stuck-project check (activity but nothing open, or open but idle).
    "stats.zombie_days" => stats_zombie_days: u32 = 14, check any;
}
