//! Bounded reads of untrusted input: transcripts only from regular files, never
//! more than a cap; hook input on stdin bounded in size and time.

use std::io::{self, Read};
use std::path::Path;
use std::time::Duration;

/// Why a transcript could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("not a regular file")]
    NotRegular,
    #[error("{size} bytes, more than the {cap}-byte cap (extract.max_bytes)")]
    TooLarge { size: u64, cap: u64 },
}

/// Reads a regular file of at most `cap` bytes. Devices, FIFOs, sockets and
/// folders are refused before any byte is read; a FIFO is never opened for
/// reading (which would wait for a writer).
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    // The path may have been swapped between the check and the open.
    if !file.metadata()?.is_file() {
        return Err(ReadError::NotRegular);
    }
    let mut buf = Vec::with_capacity(meta.len().min(cap) as usize);
    file.take(cap.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            size: buf.len() as u64,
            cap,
        });
    }
    Ok(buf)
}

/// Reads stdin to its end: at most `cap` bytes, within `wait`. A host that
/// never closes stdin makes this return an error instead of hanging.
pub fn read_stdin(cap: u64, wait: Duration) -> io::Result<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let r = io::stdin()
            .lock()
            .take(cap.saturating_add(1))
            .read_to_end(&mut buf)
            .map(|_| buf);
        let _ = tx.send(r);
    });
    let buf = rx
        .recv_timeout(wait)
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "stdin was not closed in time"))??;
    if buf.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("more than {cap} bytes"),
        ));
    }
    String::from_utf8(buf).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_caps() {
        assert!(matches!(
            read_regular(Path::new("/dev/zero"), 1 << 20),
            Err(ReadError::NotRegular)
        ));
        assert!(matches!(
            read_regular(Path::new("/"), 1 << 20),
            Err(ReadError::NotRegular)
        ));
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join("t.jsonl");
        std::fs::write(&f, "0123456789").expect("write");
        assert!(matches!(
            read_regular(&f, 5),
            Err(ReadError::TooLarge { size: 10, cap: 5 })
        ));
        assert_eq!(read_regular(&f, 10).expect("read").len(), 10);
    }
}
