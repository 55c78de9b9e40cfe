//! Whether another process holds a file open (Linux `/proc/<pid>/fd`), so
//! an edit can wait for a writer that opened the old copy of a file just
//! before it was replaced, and then see what it wrote. Best effort: the
//! processes of other users cannot be inspected and count as not holding it.

use std::os::unix::fs::MetadataExt;

/// Whether a process other than this one has the file `(dev, ino)` open.
pub(crate) fn opened_elsewhere(dev: u64, ino: u64) -> bool {
    let me = std::process::id().to_string();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return false;
    };
    for p in procs.flatten() {
        let name = p.file_name();
        let Some(pid) = name.to_str() else { continue };
        if pid == me || !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(p.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if std::fs::metadata(fd.path()).is_ok_and(|m| m.dev() == dev && m.ino() == ino) {
                return true;
            }
        }
    }
    false
}

/// Waits (up to `limit`) until no other process holds the file open.
pub(crate) fn wait_until_closed(file: &std::fs::File, limit: std::time::Duration) {
    let Ok(meta) = file.metadata() else { return };
    let start = std::time::Instant::now();
    while opened_elsewhere(meta.dev(), meta.ino()) && start.elapsed() < limit {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
