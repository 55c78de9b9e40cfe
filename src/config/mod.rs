//! Effective configuration (docs/FORMAT.md §11): built-in defaults, user file, vault
//! file, environment and flags, each value remembering where it came from.

mod layer;
mod paths;

pub use layer::{Layer, Overrides, load, parse_layer, user_config_path};
pub use paths::{env_var_name, unknown_env_vars, validate_paths};

use serde::Serialize;

/// Where a configuration value came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Origin {
    Default,
    File(String),
    Env(String),
    Flag(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::File(p) => write!(f, "file {p}"),
            Origin::Env(v) => write!(f, "env {v}"),
            Origin::Flag(n) => write!(f, "flag {n}"),
        }
    }
}

/// The effective configuration of a run. Paths are relative to the vault root.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Config {
    pub output: String,
    pub template: Option<String>,
    pub cap: usize,
    pub follow_symlinks: bool,
    pub dedup_threshold: f64,
    pub journal_dir: String,
    pub projects_dir: String,
    pub inbox_dir: String,
    pub project_todos: String,
    pub progress: String,
    pub actives_dir: String,
    pub next_headings: Vec<String>,
    pub done_headings: Vec<String>,
    pub skipped_headings: Vec<String>,
    pub goal_headings: Vec<String>,
    pub keywords: Vec<String>,
    pub extract_max_line_chars: usize,
    pub extract_max_bytes: u64,
    pub lock_path: String,
    pub lock_timeout_secs: f64,
    pub hook_max_chars: usize,
    pub hook_max_captured: usize,
    /// `stats`: open items older than this many days are zombies; also the
    /// window of the stuck-project check.
    pub stats_zombie_days: u32,
    /// Today's date when given (`--today`, `ACTIVE_STATUS_TODAY`); the local
    /// date otherwise. Not a configuration key.
    #[serde(skip)]
    pub today: Option<jiff::civil::Date>,
    /// `(dotted key, origin)` for every key, in documentation order.
    #[serde(skip)]
    pub origins: Vec<(&'static str, Origin)>,
}

/// Follow-up phrases (English, Korean, Japanese, Chinese, French, German,
/// Spanish); see the transcript module for where they count.
const DEFAULT_KEYWORDS: &[&str] = &[
    "next session",
    "next steps",
    "next step",
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

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

impl Default for Config {
    fn default() -> Self {
        let mut c = Config {
            output: "ACTIVE-STATUS.md".into(),
            template: None,
            cap: 15,
            follow_symlinks: false,
            dedup_threshold: 0.85,
            journal_dir: "journal".into(),
            projects_dir: "projects".into(),
            inbox_dir: ".agents/inbox".into(),
            project_todos: "todos.md".into(),
            progress: "PROGRESS.md".into(),
            actives_dir: "actives".into(),
            next_headings: strings(&[
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
                "다음",
                "다음 세션",
                "다음 단계",
                "다음 할 일",
                "할 일",
                "남은 작업",
                "후속 작업",
                "내일",
                "次のステップ",
                "次回",
                "残タスク",
            ]),
            done_headings: strings(&[
                "Done",
                "Completed",
                "Finished",
                "Shipped",
                "Resolved",
                "Closed",
                "완료",
                "한 일",
                "完了",
            ]),
            skipped_headings: strings(&[
                "Skipped follow-ups",
                "Skipped",
                "Dropped",
                "Cancelled",
                "Canceled",
                "Won't do",
                "건너뜀",
                "취소",
            ]),
            goal_headings: strings(&[
                "Goal",
                "Goals",
                "Objective",
                "Objectives",
                "Focus",
                "Session goal",
                "Session goals",
                "목표",
            ]),
            keywords: strings(DEFAULT_KEYWORDS),
            extract_max_line_chars: 400,
            extract_max_bytes: 256 << 20,
            lock_path: ".agents/locks/active-status.lock".into(),
            lock_timeout_secs: 30.0,
            hook_max_chars: 4000,
            hook_max_captured: 10,
            stats_zombie_days: 14,
            today: None,
            origins: Vec::new(),
        };
        c.origins = KEYS.iter().map(|k| (*k, Origin::Default)).collect();
        c
    }
}

/// Every configuration key, in the order `config` prints them.
pub const KEYS: &[&str] = &[
    "output",
    "template",
    "cap",
    "follow_symlinks",
    "dedup.threshold",
    "sources.journal",
    "sources.projects",
    "sources.inbox",
    "sources.project_todos",
    "sources.progress",
    "sources.actives",
    "headings.next",
    "headings.done",
    "headings.skipped",
    "headings.goal",
    "extract.keywords",
    "extract.max_line_chars",
    "extract.max_bytes",
    "lock.path",
    "lock.timeout_secs",
    "hook.max_chars",
    "hook.max_captured",
    "stats.zombie_days",
];

impl Config {
    /// Today: the given date, else the local date.
    pub fn today(&self) -> jiff::civil::Date {
        self.today.unwrap_or_else(|| jiff::Zoned::now().date())
    }

    pub fn origin(&self, key: &str) -> &Origin {
        self.origins
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, o)| o)
            .unwrap_or(&Origin::Default)
    }

    pub(crate) fn set_origin(&mut self, key: &'static str, origin: Origin) {
        match self.origins.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = origin,
            None => self.origins.push((key, origin)),
        }
    }

    /// The value of a key rendered as TOML, for `active-status config`.
    pub fn value_of(&self, key: &str) -> String {
        fn list(v: &[String]) -> String {
            toml::Value::Array(v.iter().map(|s| toml::Value::String(s.clone())).collect())
                .to_string()
        }
        fn s(v: &str) -> String {
            toml::Value::String(v.to_string()).to_string()
        }
        match key {
            "output" => s(&self.output),
            "template" => self.template.as_deref().map_or("(built-in)".into(), s),
            "cap" => self.cap.to_string(),
            "follow_symlinks" => self.follow_symlinks.to_string(),
            "dedup.threshold" => self.dedup_threshold.to_string(),
            "sources.journal" => s(&self.journal_dir),
            "sources.projects" => s(&self.projects_dir),
            "sources.inbox" => s(&self.inbox_dir),
            "sources.project_todos" => s(&self.project_todos),
            "sources.progress" => s(&self.progress),
            "sources.actives" => s(&self.actives_dir),
            "headings.next" => list(&self.next_headings),
            "headings.done" => list(&self.done_headings),
            "headings.skipped" => list(&self.skipped_headings),
            "headings.goal" => list(&self.goal_headings),
            "extract.keywords" => list(&self.keywords),
            "extract.max_line_chars" => self.extract_max_line_chars.to_string(),
            "extract.max_bytes" => self.extract_max_bytes.to_string(),
            "lock.path" => s(&self.lock_path),
            "lock.timeout_secs" => self.lock_timeout_secs.to_string(),
            "hook.max_chars" => self.hook_max_chars.to_string(),
            "hook.max_captured" => self.hook_max_captured.to_string(),
            "stats.zombie_days" => self.stats_zombie_days.to_string(),
            _ => String::new(),
        }
    }
}
