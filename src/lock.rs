//! The vault's exclusive write lock (docs/FORMAT.md §12, §7 exit 75).
//!
//! An advisory `flock` through fd-lock on `.agents/locks/active-status.lock`.
//! The kernel drops it when the holder exits, even on SIGKILL. While held,
//! the file names the holder (pid, command, start time) so a waiting run can
//! say who it waits for.

use crate::error::{Error, Result};
use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How to wait for the lock.
#[derive(Debug, Clone)]
pub struct LockOptions {
    /// The vault root: the lock file must resolve inside it.
    pub root: PathBuf,
    pub path: PathBuf,
    /// Where `lock.path` came from (`default`, `file …`), for messages.
    pub origin: String,
    pub timeout: Duration,
    /// `--no-wait`: fail at once when the lock is held.
    pub no_wait: bool,
    /// Print "Blocking waiting for lock" on stderr while waiting.
    pub announce: bool,
    /// The program and subcommand names recorded in the lock file while it
    /// is held (`active-status route`), never any other argument.
    pub command: String,
}

/// The holder description read from the open lock file, for messages.
/// Only pid, command name and start time are ever recorded (never the
/// arguments, which may hold private text); control characters are shown
/// escaped.
fn describe_holder(file: &std::fs::File) -> String {
    let mut buf = vec![0u8; 512];
    let n = std::os::unix::fs::FileExt::read_at(file, &mut buf, 0).unwrap_or(0);
    let text = String::from_utf8_lossy(&buf[..n]);
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
            .map(|v| crate::output::escape_controls(v).into_owned())
    };
    match (field("pid"), field("command"), field("since")) {
        (Some(pid), Some(cmd), Some(since)) => format!("pid {pid} (`{cmd}`) since {since}"),
        _ => "another process (holder details not yet written)".to_string(),
    }
}

/// Whether the open file is empty or holds only a holder record: the only
/// contents a lock file this tool created can have.
fn holds_a_lock_record(file: &std::fs::File) -> bool {
    let mut buf = vec![0u8; 4097];
    let Ok(n) = std::os::unix::fs::FileExt::read_at(file, &mut buf, 0) else {
        return false;
    };
    if n > 4096 {
        return false;
    }
    std::str::from_utf8(&buf[..n]).is_ok_and(|text| {
        text.lines().all(|l| {
            l.is_empty()
                || ["pid=", "command=", "since="]
                    .iter()
                    .any(|p| l.starts_with(p))
        })
    })
}

fn holder_record(command: &str) -> String {
    format!(
        "pid={}\ncommand={}\nsince={}\n",
        std::process::id(),
        command.replace(['\n', '\r'], " "),
        jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .unwrap_or_else(|_| jiff::Timestamp::now())
    )
}

/// Runs `f` while holding the lock.
pub(crate) fn with_lock<T>(opts: &LockOptions, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let path = &opts.path;
    let vault = crate::vault_fs::VaultDir::open(&opts.root)?;
    let rel = path
        .strip_prefix(&opts.root)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| path.to_string_lossy().into_owned());
    let refused = |why: String| Error::Config {
        origin: format!("configuration ({})", opts.origin),
        message: format!("key `lock.path`: {rel:?} is refused: {why}"),
    };
    let file = vault.open_lock(&rel).map_err(|e| match e {
        Error::OutsideVault { why, .. } => refused(why),
        e => e,
    })?;
    if !holds_a_lock_record(&file) {
        return Err(refused(
            "it is not a lock file (it holds other text); a lock file is never an \
             existing file the tool did not create, and is never truncated"
                .into(),
        ));
    }
    let reader = file.try_clone().map_err(|e| Error::write(path, e))?;
    let mut lock = fd_lock::RwLock::new(file);
    let start = Instant::now();
    let mut announced = false;
    let mut pause = Duration::from_millis(5);
    loop {
        match lock.try_write() {
            Ok(mut guard) => {
                let _ = guard.set_len(0);
                let _ = guard.write_all(holder_record(&opts.command).as_bytes());
                let _ = guard.flush();
                // Every write made under the lock is one operation of the log.
                let command = opts
                    .command
                    .split_once(' ')
                    .map_or("active-status", |(_, c)| c);
                let result = crate::oplog::logged(&vault, command, f);
                let _ = guard.set_len(0);
                return result;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if opts.no_wait || start.elapsed() >= opts.timeout {
                    return Err(Error::Locked {
                        path: path.to_path_buf(),
                        holder: describe_holder(&reader),
                        waited: (!opts.no_wait).then_some(opts.timeout.as_secs_f64()),
                    });
                }
                if opts.announce && !announced {
                    eprintln!(
                        "    Blocking waiting for file lock on {} (held by {})",
                        path.display(),
                        describe_holder(&reader)
                    );
                    announced = true;
                }
                let left = opts.timeout.saturating_sub(start.elapsed());
                std::thread::sleep(pause.min(left).max(Duration::from_millis(1)));
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(e) => return Err(Error::write(path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_record_holds_no_arguments() {
        let record = holder_record(&crate::cli::command_name());
        let lines: Vec<&str> = record.lines().collect();
        assert_eq!(lines.len(), 3, "{record}");
        assert!(lines[0].starts_with("pid="));
        assert!(lines[2].starts_with("since="));
        let command = lines[1].strip_prefix("command=").expect("command line");
        // The program name and at most a subcommand name.
        assert!(command.split(' ').count() <= 2, "{command}");
        let subcommands: Vec<String> = <crate::cli::Cli as clap::CommandFactory>::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        for arg in std::env::args().skip(1) {
            if !subcommands.contains(&arg) {
                assert!(
                    !command.contains(&arg) || arg.len() < 3,
                    "{arg} recorded: {command}"
                );
            }
        }
    }
}
