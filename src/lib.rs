#![warn(unreachable_pub)]
//! active-status: regenerates `ACTIVE-STATUS.md` from every durable
//! follow-up source of a Markdown vault.
//!
//! The modules follow the data: [`discover`] the vault → [`parse`] and
//! [`sources`] turn files into items → [`merge`] resolves, deduplicates and
//! ranks → [`report`] shapes the result and applies the cap → [`render`]
//! writes the dashboard with Tera → [`write`] replaces it atomically under
//! the [`lock`]. [`pipeline`] runs that sequence; [`commands`] are glue
//! between the command line ([`cli`]) and it, and never call each other.

mod act;
pub mod cache;
mod capture;
mod cas;
pub mod cli;
mod clock;
pub mod commands;
pub mod config;
mod decide;
pub mod decisions;
mod discover;
mod error;
mod escape;
mod explain;
mod find;
mod followups;
pub mod guards;
mod history;
pub mod item;
pub mod item_id;
mod lock;
mod man;
pub mod mcp;
pub mod memory;
pub mod merge;
pub mod normalize;
pub mod oplog;
mod output;
pub mod parse;
pub mod pipeline;
pub mod platform;
pub mod privacy;
pub mod render;
pub mod report;
pub mod route;
mod scan;
pub mod search;
mod sources;
mod start_summary;
mod stats;
mod sweep;
mod task_meta;
mod trail;
pub mod transcript;
mod user_key;
mod vault_fs;
mod view;
mod work;
mod write;
