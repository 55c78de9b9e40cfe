//! Registering the MCP server with the agents: Claude Code's project
//! `.mcp.json` (merged into an existing file, never clobbering another
//! server) and the block for Codex's `config.toml`.

use serde_json::{Map, Value, json};

/// The server's name in the agents' configurations.
pub(crate) const NAME: &str = "active-status";

/// What registering did to `.mcp.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Merged {
    /// The new file content (created, or the server added).
    Write(String),
    /// An `active-status` entry is already there; it is kept as it is.
    Kept,
}

/// The entry Claude Code starts: `active-status mcp`, which finds the vault
/// from its working directory (or `ACTIVE_STATUS_ROOT`).
pub(crate) fn claude_entry() -> Value {
    json!({"command": NAME, "args": ["mcp"]})
}

/// Adds the server to the `.mcp.json` text `existing` (none: a new file).
/// Other servers and keys stay; a file that is not a JSON object with an
/// object `mcpServers` is refused with the reason, never rewritten.
pub(crate) fn merge_mcp_json(existing: Option<&str>) -> Result<Merged, String> {
    let merged = merge_json_object(existing, "mcpServers", |servers| {
        if servers.contains_key(NAME) {
            return Ok(false);
        }
        servers.insert(NAME.to_string(), claude_entry());
        Ok(true)
    })?;
    Ok(merged.map_or(Merged::Kept, Merged::Write))
}

/// Merges into the object under `key` of the JSON text `existing` (none or
/// blank: a new file) of an agent's configuration: `add` changes that object
/// and says whether it changed anything. Every other key stays. A text that
/// is not a JSON object, or whose `key` is not an object, is refused with
/// the reason (as is an `Err` of `add`). Returns the new text, pretty-printed
/// with a final newline, or `None` when `add` changed nothing.
pub(crate) fn merge_json_object(
    existing: Option<&str>,
    key: &str,
    add: impl FnOnce(&mut Map<String, Value>) -> Result<bool, String>,
) -> Result<Option<String>, String> {
    let mut root: Map<String, Value> = match existing {
        None => Map::new(),
        Some(text) if text.trim().is_empty() => Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return Err("it is not a JSON object".into()),
            Err(e) => return Err(format!("it is not valid JSON ({e})")),
        },
    };
    let inner = root.entry(key).or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(inner) = inner else {
        return Err(format!("its `{key}` is not an object"));
    };
    if !add(inner)? {
        return Ok(None);
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(root))
        .map_err(|e| format!("cannot write JSON: {e}"))?;
    text.push('\n');
    Ok(Some(text))
}

/// The block to add to Codex's `~/.codex/config.toml`.
pub(crate) fn codex_block() -> String {
    format!("[mcp_servers.{NAME}]\ncommand = \"{NAME}\"\nargs = [\"mcp\"]\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_file_and_merge_keep_other_servers() {
        let Merged::Write(fresh) = merge_mcp_json(None).unwrap() else {
            panic!("a new file is written")
        };
        let v: Value = serde_json::from_str(&fresh).unwrap();
        assert_eq!(v["mcpServers"]["active-status"], claude_entry());
        let other = r#"{"mcpServers": {"db": {"command": "db-mcp", "args": ["--ro"]}}, "x": 1}"#;
        let Merged::Write(merged) = merge_mcp_json(Some(other)).unwrap() else {
            panic!("merged")
        };
        let v: Value = serde_json::from_str(&merged).unwrap();
        assert_eq!(
            v["mcpServers"]["db"],
            json!({"command": "db-mcp", "args": ["--ro"]})
        );
        assert_eq!(v["x"], 1);
        assert_eq!(v["mcpServers"]["active-status"], claude_entry());
        assert_eq!(merge_mcp_json(Some(&merged)).unwrap(), Merged::Kept);
    }

    #[test]
    fn odd_files_are_refused() {
        assert!(merge_mcp_json(Some("[1]")).is_err());
        assert!(merge_mcp_json(Some("{nope")).is_err());
        assert!(merge_mcp_json(Some(r#"{"mcpServers": []}"#)).is_err());
        let toml: toml::Table = codex_block().parse().unwrap();
        assert_eq!(
            toml["mcp_servers"]["active-status"]["args"][0].as_str(),
            Some("mcp")
        );
    }
}
