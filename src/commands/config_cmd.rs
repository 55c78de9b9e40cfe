//! `config`: the effective configuration with the origin of each value.

use super::Ctx;
use crate::config::KEYS;
use crate::error::{Result, exit};

pub(super) fn show(ctx: &Ctx) -> Result<i32> {
    println!("# vault root: {}", ctx.root.display());
    for key in KEYS {
        println!(
            "{key} = {}  # {}",
            ctx.cfg.value_of(key),
            ctx.cfg.origin(key)
        );
    }
    Ok(exit::OK)
}
