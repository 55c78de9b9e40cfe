//! The different-action guard's groups: verbs that name the same action;
//! two keys that start with verbs of different groups never match.

use crate::normalize::stem;
use std::sync::LazyLock;

/// Verbs that name the same action; a verb of no group is its own.
const SYNONYMS: &[&[&str]] = &[
    &[
        "add",
        "implement",
        "create",
        "introduce",
        "build",
        "make",
        "support",
        "write",
        "draft",
        "compose",
        "prepare",
        "provide",
        "setup",
        "develop",
    ],
    &[
        "fix", "repair", "resolve", "patch", "correct", "solve", "address",
    ],
    &["update", "upgrade", "bump", "refresh", "renew", "modernize"],
    &["remove", "delete", "drop", "eliminate", "purge", "strip"],
    &[
        "check",
        "verify",
        "confirm",
        "validate",
        "ensure",
        "test",
        "double-check",
    ],
    &[
        "investigate",
        "look",
        "explore",
        "research",
        "examine",
        "analyze",
        "analyse",
        "study",
        "dig",
        "figure",
        "diagnose",
        "debug",
        "understand",
    ],
    &["review", "read", "proofread", "skim"],
    &[
        "revise", "edit", "rework", "polish", "improve", "refine", "rewrite", "tweak", "adjust",
        "change", "modify",
    ],
    &["work", "continue", "resume", "progress"],
    &["finish", "complete", "wrap", "finalize", "finalise"],
    &["start", "begin", "kick", "launch"],
    &["move", "migrate", "relocate", "transfer", "port"],
    &["rename", "retitle"],
    &["document", "describe", "explain"],
    &[
        "refactor",
        "clean",
        "tidy",
        "simplify",
        "restructure",
        "reorganize",
        "cleanup",
    ],
    &["send", "email", "mail", "forward", "submit"],
    &[
        "ask", "ping", "contact", "message", "reach", "nudge", "remind",
    ],
    &["call", "phone", "ring"],
    &["meet", "sync", "discuss", "talk", "chat"],
    &["reply", "respond", "answer"],
    &["schedule", "plan", "book", "arrange", "organize"],
    &["deploy", "release", "ship", "publish", "roll"],
    &["merge", "land", "integrate"],
    &["configure", "set", "tune"],
    &["run", "execute", "rerun"],
    &["benchmark", "measure", "profile"],
    &["pay", "buy", "order", "purchase"],
    &["cancel", "abort", "kill", "terminate"],
    &["install"],
    &["enable"],
    &["disable"],
    &["open"],
    &["close"],
    &["stop"],
    &["show"],
    &["hide"],
    &["lock"],
    &["unlock"],
    &["rotate"],
    &["backup"],
    &["restore"],
    &["upload"],
    &["download"],
    &["translate"],
    &["record"],
    &["watch"],
    &["learn"],
    &["share"],
];

/// Stemmed verb → its group number.
static VERB_GROUPS: LazyLock<std::collections::HashMap<String, usize>> = LazyLock::new(|| {
    let mut m = std::collections::HashMap::new();
    for (g, words) in SYNONYMS.iter().enumerate() {
        for w in *words {
            m.entry(stem(w)).or_insert(g);
        }
    }
    m
});

pub(super) fn verb_group(word: &str) -> Option<usize> {
    VERB_GROUPS.get(word).copied()
}
