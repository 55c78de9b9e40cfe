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
            .serve(rmcp::transport::stdio())
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
