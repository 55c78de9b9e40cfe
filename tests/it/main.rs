//! All integration tests in one binary (one link step instead of fourteen).
//! See tests/README.md for where a test goes.

mod act;
mod cache;
mod casefold;
mod cli;
mod common;
mod config;
mod corpus;
mod extract;
mod extract_ends;
mod extract_lists;
mod fuzz_regressions;
mod golden;
mod hooks;
mod hostile;
mod ids;
mod init;
mod lock;
mod matching;
mod mcp;
mod memo;
mod pairs;
mod props;
mod reliability;
mod route;
mod rules_merge;
mod rules_sections;
mod safety_config;
mod safety_privacy;
mod safety_writes;
mod smoke;
mod stats;
mod summary;
mod vault_fixtures;
mod vault_meta;
mod vault_rules;
