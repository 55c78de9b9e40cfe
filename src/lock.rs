//! The vault's exclusive write lock (docs/FORMAT.md §12, §7 exit 75).
//!
//! An advisory `flock` through fd-lock on `.agents/locks/active-status.lock`.
//! The kernel drops it when the holder exits, even on SIGKILL. While held,
//! the file names the holder (pid, command, start time) so a waiting run can
//! say who it waits for.

use crate::error::{Error, Result};
use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to wait for the lock.
#[derive(Debug, Clone)]
pub struct LockOptions {
    /// The vault root: the lock file must resolve inside it.
    pub root: PathBuf,
    pub path: PathBuf,
    pub timeout: Duration,
    /// `--no-wait`: fail at once when the lock is held.
    pub no_wait: bool,
    /// Print "Blocking waiting for lock" on stderr while waiting.
    pub announce: bool,
}

/// The holder description read from a lock file, for messages.
pub fn describe_holder(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
            .map(str::to_string)
    };
    match (field("pid"), field("command"), field("since")) {
        (Some(pid), Some(cmd), Some(since)) => format!("pid {pid} (`{cmd}`) since {since}"),
        _ => "another process (holder details not yet written)".to_string(),
    }
}

fn holder_record() -> String {
    let args: Vec<String> = std::env::args().collect();
    let mut cmd = args
        .first()
        .map(|a| {
            Path::new(a)
                .file_name()
                .map_or(a.clone(), |n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    for a in args.iter().skip(1) {
        cmd.push(' ');
        cmd.push_str(&a.replace('\n', " "));
    }
    format!(
        "pid={}\ncommand={}\nsince={}\n",
        std::process::id(),
        cmd,
        jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .unwrap_or_else(|_| jiff::Timestamp::now())
    )
}

/// Runs `f` while holding the lock.
pub fn with_lock<T>(opts: &LockOptions, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let path = &opts.path;
    crate::write::ensure_creatable(&opts.root, path)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
    }
    crate::write::ensure_inside(&opts.root, path)?;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| Error::write(path, e))?;
    let mut lock = fd_lock::RwLock::new(file);
    let start = Instant::now();
    let mut announced = false;
    let mut pause = Duration::from_millis(5);
    loop {
        match lock.try_write() {
            Ok(mut guard) => {
                let _ = guard.set_len(0);
                let _ = guard.write_all(holder_record().as_bytes());
                let _ = guard.flush();
                let result = f();
                let _ = guard.set_len(0);
                return result;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if opts.no_wait || start.elapsed() >= opts.timeout {
                    return Err(Error::Locked {
                        path: path.to_path_buf(),
                        holder: describe_holder(path),
                        waited: (!opts.no_wait).then_some(opts.timeout.as_secs_f64()),
                    });
                }
                if opts.announce && !announced {
                    eprintln!(
                        "    Blocking waiting for file lock on {} (held by {})",
                        path.display(),
                        describe_holder(path)
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
