//! Waiting for other processes to close a file, so an edit can see what a
//! writer that opened the old copy of a file just before it was replaced
//! wrote to it. Which processes hold a file open is known on Linux only
//! (`crate::platform::opened_elsewhere`); elsewhere nothing is waited for.

use std::os::unix::fs::MetadataExt;

/// Waits (up to `limit`) until no other process holds the file open.
pub(crate) fn wait_until_closed(file: &std::fs::File, limit: std::time::Duration) {
    let Ok(meta) = file.metadata() else { return };
    let start = std::time::Instant::now();
    while crate::platform::opened_elsewhere(meta.dev(), meta.ino()) && start.elapsed() < limit {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
