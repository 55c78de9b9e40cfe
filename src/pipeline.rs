//! The regeneration pipeline as one library call: scan → merge → report →
//! render → write. Commands and the MCP server call it; it calls no command.

use crate::config::Config;
use crate::error::Result;
use crate::render::render;
use crate::report::{Report, analyze, build};
use crate::vault_fs::VaultDir;
use crate::write::write_dashboard;
use std::path::Path;
use std::time::{Duration, Instant};

/// The report and the dashboard text, with the wall time of the scan, the
/// merge and the rendering.
pub fn produce(
    root: &Path,
    cfg: &Config,
    template: &str,
) -> Result<(Report, String, [Duration; 3])> {
    let analysis = analyze(root, cfg)?;
    let report = build(&analysis, cfg);
    let started = Instant::now();
    let text = render(&report, template, cfg)?;
    let [scan, merge] = analysis.timings;
    Ok((report, text, [scan, merge, started.elapsed()]))
}

/// Regenerates the dashboard. Call with the lock held.
pub fn regenerate(root: &Path, cfg: &Config, template: &str) -> Result<Report> {
    let vault = VaultDir::open(root)?;
    let (mut report, text, _) = produce(root, cfg, template)?;
    let written = write_dashboard(&vault, &cfg.output, text.as_bytes())?;
    report.written = written;
    report.changed = written;
    Ok(report)
}
