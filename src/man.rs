//! Man pages: one for the program and one for every subcommand (the main
//! page's SUBCOMMANDS section names them), each with EXIT STATUS and
//! ENVIRONMENT sections, generated from the clap definition.

use crate::cli::Cli;
use crate::error::exit;
use clap::CommandFactory;
use std::io::Write;

/// Every page as (file name, roff text): `active-status.1`,
/// `active-status-regen.1`, `active-status-hook-pre-compact.1`, …
pub(crate) fn pages() -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    collect(&cmd, &mut out)?;
    Ok(out)
}

fn collect(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    out.push((man.get_filename(), render(cmd, &man)?));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out)?;
    }
    Ok(())
}

/// The page of the command named by `words` (`[]` for the program,
/// `["hook", "pre-compact"]`), or `None` when there is no such command.
pub(crate) fn page(words: &[String]) -> std::io::Result<Option<Vec<u8>>> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut at = &cmd;
    for w in words {
        match at.find_subcommand(w) {
            Some(sub) => at = sub,
            None => return Ok(None),
        }
    }
    render(at, &clap_mangen::Man::new(at.clone())).map(Some)
}

fn render(cmd: &clap::Command, man: &clap_mangen::Man) -> std::io::Result<Vec<u8>> {
    let mut w = Vec::new();
    man.render_title(&mut w)?;
    man.render_name_section(&mut w)?;
    man.render_synopsis_section(&mut w)?;
    man.render_description_section(&mut w)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut w)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut w)?;
    }
    if cmd.get_after_help().is_some() || cmd.get_after_long_help().is_some() {
        // Our after_help holds the examples.
        let mut extra = Vec::new();
        man.render_extra_section(&mut extra)?;
        w.extend(
            String::from_utf8_lossy(&extra)
                .replacen(".SH EXTRA", ".SH EXAMPLES", 1)
                .bytes(),
        );
    }
    exit_status(&mut w)?;
    environment(&mut w)?;
    if cmd.get_version().is_some() {
        man.render_version_section(&mut w)?;
    }
    Ok(w)
}

/// Text for roff: a leading `.` or `'` would be read as a request, `\` as
/// an escape, `-` as a hyphen.
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with(['.', '\'']) {
        format!("\\&{s}")
    } else {
        s
    }
}

fn item(w: &mut dyn Write, tag: &str, text: &str) -> std::io::Result<()> {
    writeln!(w, ".TP\n\\fB{}\\fR\n{}", roff_text(tag), roff_text(text))
}

fn exit_status(w: &mut dyn Write) -> std::io::Result<()> {
    writeln!(w, ".SH \"EXIT STATUS\"")?;
    for (code, meaning) in exit::TABLE {
        item(w, &code.to_string(), meaning)?;
    }
    Ok(())
}

fn environment(w: &mut dyn Write) -> std::io::Result<()> {
    writeln!(w, ".SH ENVIRONMENT")?;
    item(
        w,
        "ACTIVE_STATUS_ROOT",
        "The vault root when --root is not given (empty: unset).",
    )?;
    for key in crate::config::KEYS {
        item(
            w,
            &crate::config::env_var_name(key),
            &format!("Overrides the configuration key {key} (a TOML value, or a bare string)."),
        )?;
    }
    item(
        w,
        "XDG_CONFIG_HOME, HOME",
        "Locate the user configuration $XDG_CONFIG_HOME/active-status/config.toml (else ~/.config/active-status/config.toml).",
    )?;
    item(
        w,
        "NO_COLOR",
        "When set, error messages are never coloured.",
    )?;
    item(w, "TZ", "The time zone of \"today\" (journal dates, ages).")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subcommand_has_a_page_with_exit_status_and_environment() {
        let pages = pages().expect("render");
        let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
        let mut cmd = Cli::command();
        cmd.build();
        for sub in cmd.get_subcommands() {
            let want = format!("active-status-{}.1", sub.get_name());
            assert!(names.contains(&want.as_str()), "no page {want}: {names:?}");
        }
        assert!(names.contains(&"active-status.1"));
        assert!(names.contains(&"active-status-hook-pre-compact.1"));
        for (name, text) in &pages {
            let text = String::from_utf8_lossy(text);
            assert!(text.contains(".SH \"EXIT STATUS\""), "{name}");
            assert!(text.contains(".SH ENVIRONMENT"), "{name}");
            assert!(text.contains("ACTIVE_STATUS_ROOT"), "{name}");
            assert!(text.contains("\\fB75\\fR"), "{name}");
        }
    }

    #[test]
    fn a_page_by_command_words() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let route = page(&words(&["route"])).expect("render").expect("page");
        assert!(String::from_utf8_lossy(&route).contains("active\\-status\\-route"));
        assert!(
            page(&words(&["hook", "session-start"]))
                .expect("render")
                .is_some()
        );
        assert!(page(&words(&["nosuch"])).expect("render").is_none());
    }

    #[test]
    fn roff_requests_are_escaped() {
        assert_eq!(roff_text(".x"), "\\&.x");
        assert_eq!(roff_text("a-b\\c"), "a\\-b\\ec");
    }
}
