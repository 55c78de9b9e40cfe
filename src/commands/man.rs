//! `man`: print one page, or write every page into a folder.

use crate::cli::ManArgs;
use crate::error::{Error, Result, exit};
use std::io::Write;

pub(super) fn man(args: &ManArgs) -> Result<i32> {
    if let Some(dir) = &args.dir {
        let pages = crate::man::pages().map_err(|e| Error::write("man page", e))?;
        std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
        for (name, text) in pages {
            let path = dir.join(&name);
            std::fs::write(&path, text).map_err(|e| Error::write(&path, e))?;
        }
        return Ok(exit::OK);
    }
    let page = crate::man::page(&args.command)
        .map_err(|e| Error::write("man page", e))?
        .ok_or_else(|| Error::NoSuchCommand {
            words: args.command.join(" "),
        })?;
    std::io::stdout()
        .write_all(&page)
        .map_err(|e| Error::write("stdout", e))?;
    Ok(exit::OK)
}
