//! active-status: regenerates `ACTIVE-STATUS.md` from every durable
//! follow-up source of a Markdown vault.
//!
//! The modules follow the data: [`discover`] the vault → [`parse`] and
//! [`sources`] turn files into items → [`merge`] resolves, deduplicates and
//! ranks → [`report`] shapes the result and applies the cap → [`render`]
//! writes the dashboard with Tera → [`write`] replaces it atomically under
//! the [`lock`]. [`pipeline`] runs that sequence; [`commands`] are glue
//! between the command line ([`cli`]) and it, and never call each other.

pub mod act;
pub mod capture;
pub mod cas;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod discover;
pub mod error;
pub mod explain;
pub mod find;
pub mod followups;
pub mod guards;
pub mod history;
pub mod item;
pub mod item_id;
pub mod lock;
pub mod man;
pub mod mcp;
pub mod merge;
pub mod normalize;
pub mod output;
pub mod parse;
pub mod pipeline;
pub mod privacy;
pub mod render;
pub mod report;
pub mod route;
pub mod scan;
pub mod sources;
pub mod stats;
pub mod summary;
pub mod sweep;
pub mod task_meta;
pub mod trail;
pub mod transcript;
pub mod vault_fs;
pub mod write;
