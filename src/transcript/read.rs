//! Bounded reads of untrusted input: transcripts only from regular files, never
//! more than a cap; hook input on stdin bounded in size and time.

use std::io::{self, Read};
use std::os::fd::AsFd;
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
        options.custom_flags(crate::platform::O_NONBLOCK);
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

/// Reads one JSON object or array from stdin: up to its end, or up to the
/// first point where the bytes read hold a complete object or array (a host
/// may keep stdin open after the payload); at most `cap` bytes, within
/// `wait`. A host that sends an incomplete payload and never closes stdin
/// makes this return an error instead of hanging.
pub fn read_stdin_json(cap: u64, wait: Duration) -> io::Result<String> {
    let stdin = io::stdin();
    let buf = read_bounded(
        stdin.as_fd(),
        &mut stdin.lock(),
        cap,
        wait,
        is_complete_json,
    )?;
    String::from_utf8(buf).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Reads `from` (whose descriptor is `fd`) to its end: at most `cap` bytes,
/// within `wait` in all. Each read waits (`poll`) until the descriptor has
/// bytes or its end, so no read blocks past the deadline, and no thread is
/// started for the wait. `from` is read in chunks larger than the buffer of
/// stdin's lock, which then passes every read straight to the descriptor:
/// nothing is held back in a buffer the wait cannot see.
fn read_bounded(
    fd: std::os::fd::BorrowedFd<'_>,
    from: &mut impl Read,
    cap: u64,
    wait: Duration,
    complete: fn(&[u8]) -> bool,
) -> io::Result<Vec<u8>> {
    use crate::platform::{Ready, wait_readable};
    let deadline = std::time::Instant::now() + wait;
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match wait_readable(fd, left) {
            Ok(Ready::Readable) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(Ready::TimedOut) => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "stdin was not closed in time",
                ));
            }
            // No open descriptor: nothing to read, as a closed stdin reads.
            Ok(Ready::Closed) => return Ok(buf),
        }
        let n = match from.read(&mut chunk) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) =>
            {
                continue;
            }
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(buf);
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() as u64 > cap {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("more than {cap} bytes"),
            ));
        }
        if complete(&buf) {
            return Ok(buf);
        }
    }
}

/// Whether `buf` holds one complete JSON object or array (and at most
/// whitespace after it). A bare number or word is never complete early:
/// more digits could follow.
fn is_complete_json(buf: &[u8]) -> bool {
    let first = buf.iter().find(|b| !b.is_ascii_whitespace());
    matches!(first, Some(b'{' | b'['))
        && serde_json::from_slice::<serde::de::IgnoredAny>(buf).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that keeps its end open is waited for only as long as
    /// allowed; one that closes it is read to the end; more than the cap is
    /// refused.
    #[test]
    fn stdin_is_read_bounded_in_time_and_size() {
        use std::io::Write;
        let (r, mut w) = std::io::pipe().expect("pipe");
        w.write_all(b"{\"cwd\":\"/v\"}").expect("write");
        let started = std::time::Instant::now();
        let err = read_bounded(
            r.as_fd(),
            &mut &r,
            1 << 20,
            Duration::from_millis(200),
            |_| false,
        )
        .expect_err("the writer never closes");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(200));

        let (r, mut w) = std::io::pipe().expect("pipe");
        let writer = std::thread::spawn(move || {
            for part in [&b"{\"cwd\":"[..], b"\"/v\"}"] {
                w.write_all(part).expect("write");
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let got = read_bounded(r.as_fd(), &mut &r, 1 << 20, Duration::from_secs(10), |_| {
            false
        })
        .expect("read to the end");
        writer.join().expect("writer");
        assert_eq!(got, b"{\"cwd\":\"/v\"}");

        let (r, mut w) = std::io::pipe().expect("pipe");
        w.write_all(&[b'x'; 11]).expect("write");
        drop(w);
        let err = read_bounded(r.as_fd(), &mut &r, 10, Duration::from_secs(10), |_| false)
            .expect_err("over the cap");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn complete_json_ends_the_read_and_a_partial_one_does_not() {
        for done in [
            &b"{\"cwd\":\"/v\"}\n"[..],
            b" [1, 2]",
            b"{\"a\": {\"b\": []}}",
        ] {
            assert!(is_complete_json(done), "{}", String::from_utf8_lossy(done));
        }
        for partial in [&b"{\"cwd\":"[..], b"", b"12", b"\"text\"", b"{\"a\": 1} x"] {
            assert!(
                !is_complete_json(partial),
                "{}",
                String::from_utf8_lossy(partial)
            );
        }
    }

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
