//! `active-status mcp`: a Model Context Protocol server over stdio, built on
//! the official Rust SDK (`rmcp`). Its tools call the same library functions
//! as the commands (never a command), so they give the same results and the
//! same errors; a refusal is a tool error carrying the message, never a
//! crash. Writes take the vault lock like the commands do; every tool runs
//! on a thread of its own, so a write waiting for the lock never holds up
//! the requests after it.

mod params;
pub(crate) mod register;
mod tools;
mod transport;

use crate::config::Config;
use crate::error::{Error, Result};
use rmcp::ServiceExt;
use std::path::PathBuf;

pub(crate) use tools::Server;

/// The URI of the dashboard resource.
pub(crate) const DASHBOARD_URI: &str = "active-status://dashboard";
/// The URI of the HTML view resource (`active-status view`'s page).
pub(crate) const VIEW_URI: &str = "active-status://view";

/// Serves MCP on stdin/stdout until the client closes stdin.
pub(crate) fn serve(root: PathBuf, cfg: Config) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Mcp {
            message: format!("cannot start the async runtime: {e}"),
        })?;
    rt.block_on(async move {
        let service = Server::new(root, cfg)
            .serve(transport::Stdio::start())
            .await
            .map_err(|e| Error::Mcp {
                message: format!("initialization failed: {e}"),
            })?;
        service.waiting().await.map_err(|e| Error::Mcp {
            message: format!("the server stopped: {e}"),
        })?;
        Ok(())
    })
}

/// What the server makes of one line of its input (see [`triage`]).
#[derive(Debug)]
pub enum Triage {
    /// Skipped without an answer (blank, not JSON, an unknown notification).
    Skipped,
    /// Answered by the transport with this JSON-RPC error, never passed on.
    Answered(serde_json::Value),
    /// A request for the service: its method, and for `tools/call` of a
    /// known tool whether its arguments are valid (else the tool error).
    Request {
        method: String,
        arguments: Option<std::result::Result<(), String>>,
    },
    /// A notification or a response for the service.
    Other,
}

/// Reads `input` as the server reads its stdin, lines capped at `cap`
/// bytes, and says what becomes of each line (tools are not run): the
/// entry of the fuzz target for requests.
pub fn triage(input: &[u8], cap: usize) -> Vec<Triage> {
    let mut reader = std::io::Cursor::new(input);
    let mut out = Vec::new();
    while let Ok(Some(line)) = transport::next_line(&mut reader, cap) {
        out.push(match transport::decode(line) {
            transport::Decoded::Skip => Triage::Skipped,
            transport::Decoded::Answer(a) => {
                Triage::Answered(serde_json::to_value(&*a).unwrap_or_default())
            }
            transport::Decoded::Message(m) => {
                let v = serde_json::to_value(&*m).unwrap_or_default();
                match v["method"].as_str() {
                    Some(method) if v.get("id").is_some() => Triage::Request {
                        method: method.to_string(),
                        arguments: match (method, &v["params"]["name"], &v["params"]["arguments"]) {
                            ("tools/call", serde_json::Value::String(name), args) => {
                                let args = match args {
                                    serde_json::Value::Object(m) => m.clone(),
                                    _ => serde_json::Map::new(),
                                };
                                params::check_arguments(name, args)
                            }
                            _ => None,
                        },
                    },
                    _ => Triage::Other,
                }
            }
        });
    }
    out
}
