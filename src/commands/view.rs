//! `view`: the self-contained HTML page (src/view/), written under the lock
//! so the page shows one consistent state of the vault.

use super::{Ctx, print_json};
use crate::cli::{Format, ViewArgs};
use crate::error::{Error, Result, exit};
use crate::lock::with_lock;
use crate::vault_fs::check_rel;
use serde::Serialize;

/// Where the page goes when `--out` is not given.
pub(crate) const DEFAULT_OUT: &str = ".agents/view.html";

#[derive(Serialize)]
struct ViewOutput<'a> {
    schema: u32,
    path: &'a str,
    written: bool,
    open_items: usize,
}

/// Refuses an `--out` that is not an HTML file, or that lies inside a
/// folder the scan reads (the page would then be read as a note).
fn check_out(ctx: &Ctx, out: &str) -> Result<()> {
    let refuse = |why: String| Error::ViewOut {
        path: out.to_string(),
        why,
    };
    let rel = check_rel(out).map_err(refuse)?;
    let html = rel
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if !html {
        return Err(refuse("the page must be an .html file".into()));
    }
    let cfg = &ctx.cfg;
    let sources = [
        cfg.journal_dir.as_str(),
        "journals",
        cfg.projects_dir.as_str(),
        cfg.inbox_dir.as_str(),
    ];
    for dir in sources {
        let dir = dir.trim_end_matches('/');
        if !dir.is_empty() && rel.starts_with(dir) {
            return Err(refuse(format!("it is inside the source folder {dir}/")));
        }
    }
    Ok(())
}

pub(super) fn view(ctx: &Ctx, args: &ViewArgs) -> Result<i32> {
    let out = args.out.as_deref().unwrap_or(DEFAULT_OUT);
    check_out(ctx, out)?;
    let name = ctx
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "vault".to_string());
    let opts = ctx.lock_options(&args.lock);
    let viewed = with_lock(&opts, || {
        crate::pipeline::view(&ctx.root, &ctx.cfg, &name, out)
    })?;
    if ctx.verbose > 0 {
        if viewed.kept {
            eprintln!("cache: the vault is as it was when {out} was made; page kept");
        }
        for note in &viewed.notes {
            eprintln!("cache: {note}");
        }
    }
    let (written, open_items) = (viewed.written, viewed.open);
    match args.output.format {
        Format::Json => print_json(&ViewOutput {
            schema: 1,
            path: out,
            written,
            open_items,
        })?,
        Format::Text if !ctx.quiet => {
            let what = if written { "wrote" } else { "unchanged" };
            println!("{what} {out} ({open_items} open items)");
        }
        Format::Text => {}
    }
    if args.open {
        open_in_browser(&ctx.root.join(out));
    }
    Ok(exit::OK)
}

/// Hands the page to the desktop's opener; a failure is a warning, the page
/// is written either way.
fn open_in_browser(path: &std::path::Path) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    match cmd.arg(path).status() {
        Ok(s) if s.success() => {}
        Ok(s) => eprintln!(
            "warning: the opener exited with {s}; open {} by hand",
            path.display()
        ),
        Err(e) => eprintln!(
            "warning: cannot start the opener ({e}); open {} by hand",
            path.display()
        ),
    }
}
