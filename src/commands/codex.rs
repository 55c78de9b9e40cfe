//! Codex's hooks file, `.codex/hooks.json`: `init --codex` registers the
//! session-start summary, the pre-compact capture and the Stop capture (Codex
//! has no session-end event; Stop runs after every turn and captures
//! idempotently), merging into an existing file.

use crate::error::{Error, Result};
use crate::mcp::register::merge_json_object;
use crate::vault_fs::VaultDir;
use serde_json::{Value, json};

/// Seconds Codex gives each hook (its own default is 600): a summary is
/// quick; a capture reads one transcript and the vault.
const START_TIMEOUT: u64 = 10;
const CAPTURE_TIMEOUT: u64 = 30;

/// The hook groups active-status registers, per Codex event.
fn ours() -> [(&'static str, Value); 3] {
    let command = |event: &str, timeout: u64| json!({"type": "command", "command": format!("active-status hook {event}"), "timeout": timeout});
    [
        (
            "SessionStart",
            json!({"matcher": "startup|resume|clear|compact",
                   "hooks": [command("session-start", START_TIMEOUT)]}),
        ),
        (
            "PreCompact",
            json!({"hooks": [command("pre-compact", CAPTURE_TIMEOUT)]}),
        ),
        ("Stop", json!({"hooks": [command("stop", CAPTURE_TIMEOUT)]})),
    ]
}

/// Whether a matcher group already runs an active-status hook.
fn registers_us(group: &Value) -> bool {
    group["hooks"].as_array().is_some_and(|hooks| {
        hooks.iter().any(|h| {
            h["command"]
                .as_str()
                .is_some_and(|c| c.contains("active-status hook "))
        })
    })
}

/// Adds our hook groups to the `.codex/hooks.json` text `existing` (none: a
/// new file). Other events, groups and keys stay; an event that already runs
/// an active-status hook is kept as it is. A file that is not a JSON object
/// with an object `hooks` of arrays is refused with the reason, never
/// rewritten. `None` when nothing was added.
pub(super) fn merge_hooks(existing: Option<&str>) -> std::result::Result<Option<String>, String> {
    merge_json_object(existing, "hooks", |hooks| {
        let mut added = false;
        for (event, group) in ours() {
            let groups = hooks
                .entry(event)
                .or_insert_with(|| Value::Array(Vec::new()));
            let Value::Array(groups) = groups else {
                return Err(format!("its `hooks.{event}` is not an array"));
            };
            if !groups.iter().any(registers_us) {
                groups.push(group);
                added = true;
            }
        }
        Ok(added)
    })
}

/// Writes or updates the vault's `.codex/hooks.json`.
pub(super) fn register_hooks(vault: &VaultDir, quiet: bool) -> Result<()> {
    let rel = ".codex/hooks.json";
    vault.create_dir_all(".codex")?;
    let existing = vault.read_string(rel)?;
    let path = vault.display(rel);
    let merged = merge_hooks(existing.as_deref()).map_err(|why| Error::HooksJson {
        path: path.display().to_string(),
        why,
    })?;
    match merged {
        Some(text) => {
            vault.replace(rel, text.as_bytes())?;
            if !quiet {
                let verb = if existing.is_some() {
                    "updated"
                } else {
                    "created"
                };
                println!(
                    "{verb}  {} (SessionStart, PreCompact and Stop hooks)",
                    path.display()
                );
            }
        }
        None if !quiet => println!(
            "kept     {} (already runs active-status hooks)",
            path.display()
        ),
        None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_keeps_other_hooks_and_adds_ours_once() {
        let theirs =
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]},"x":1}"#;
        let merged = merge_hooks(Some(theirs)).unwrap().expect("added");
        let v: Value = serde_json::from_str(&merged).unwrap();
        assert_eq!(v["x"], 1);
        assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 2);
        assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "notify");
        assert_eq!(
            v["hooks"]["Stop"][1]["hooks"][0]["command"],
            "active-status hook stop"
        );
        assert_eq!(merge_hooks(Some(&merged)).unwrap(), None);
        for bad in ["[]", r#"{"hooks":[]}"#, r#"{"hooks":{"Stop":{}}}"#, "{"] {
            assert!(merge_hooks(Some(bad)).is_err(), "{bad}");
        }
    }
}
