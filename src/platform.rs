//! Every platform-specific system call of the tool, in one place.
//!
//! | call | Linux | macOS | other Unix, or the `portable` feature |
//! |---|---|---|---|
//! | rename refusing to replace | `renameat2(RENAME_NOREPLACE)` | `renameatx_np(RENAME_EXCL)` | hard link, then unlink |
//! | rename swapping two names | `renameat2(RENAME_EXCHANGE)` | `renameatx_np(RENAME_SWAP)` | none: check, then plain rename |
//! | who holds a file open | `/proc/<pid>/fd` | nobody known | nobody known |
//! | wait for stdin, effective user, `SIGPIPE` | `poll`, `geteuid`, `signal` | same | same |
//! | one key at a time from a terminal | `tcgetattr`, `tcsetattr` | same | same |
//!
//! The system calls go through rustix (safe wrappers); only `signal` needs
//! libc. The `portable` feature forces the right-hand column on Linux and
//! macOS, so the path other systems take is built and tested here too.
//! Windows is not supported: vault access relies on Unix file identity,
//! modes and owners (`std::os::unix`).

use std::ffi::OsStr;
use std::io;
use std::os::fd::AsFd;
use std::time::Duration;

/// Whether the native calls of Linux and macOS are used.
const NATIVE: bool = cfg!(all(
    not(feature = "portable"),
    any(
        target_os = "linux",
        target_os = "android",
        target_vendor = "apple"
    )
));

/// Open flags (for `OpenOptionsExt::custom_flags`): do not follow a final
/// symbolic link.
pub(crate) const O_NOFOLLOW: i32 = libc::O_NOFOLLOW;
/// Do not block opening a FIFO or a device.
pub(crate) const O_NONBLOCK: i32 = libc::O_NONBLOCK;
/// Never become the controlling terminal.
pub(crate) const O_NOCTTY: i32 = libc::O_NOCTTY;
/// Close on `exec`.
pub(crate) const O_CLOEXEC: i32 = libc::O_CLOEXEC;

/// Whether an open failed because the last component is a symbolic link
/// opened with [`O_NOFOLLOW`] (or a loop of links).
pub(crate) fn is_link_loop(e: &io::Error) -> bool {
    e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
}

/// The user id this process runs as (for file ownership checks).
pub(crate) fn effective_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Restores the default action of `SIGPIPE` (end the process quietly), as
/// other Unix tools have: `active-status list | head` then stops without a
/// failed-write error. Call before any thread starts.
pub fn default_sigpipe() {
    // SAFETY: `signal` with a valid signal number and `SIG_DFL` touches no
    // memory of ours; no other thread exists yet to race on the disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Caps this process's address space at `bytes` (the template renderer's
/// child, src/render.rs). The portable build, which has no such call in
/// std, sets no cap: the renderer's time and output budgets still hold.
pub(crate) fn limit_address_space(bytes: u64) {
    #[cfg(not(feature = "portable"))]
    {
        let cap = rustix::process::Rlimit {
            current: Some(bytes),
            maximum: Some(bytes),
        };
        // A refused cap leaves the other budgets in force.
        let _ = rustix::process::setrlimit(rustix::process::Resource::As, cap);
    }
    #[cfg(feature = "portable")]
    let _ = bytes;
}

/// What waiting for input on a descriptor found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ready {
    /// Bytes or the end can be read without blocking.
    Readable,
    /// Nothing came within the wait.
    TimedOut,
    /// The descriptor is not open: reads as a closed input.
    Closed,
}

/// Waits up to `wait` until `fd` can be read without blocking (`poll`).
/// An interrupted wait is an `Interrupted` error; the caller waits again.
pub(crate) fn wait_readable(fd: impl AsFd, wait: Duration) -> io::Result<Ready> {
    use rustix::event::{PollFd, PollFlags, Timespec};
    let fd = fd.as_fd();
    let mut fds = [PollFd::new(&fd, PollFlags::IN)];
    let timeout = Timespec {
        tv_sec: i64::try_from(wait.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: wait.subsec_nanos().into(),
    };
    let n = rustix::event::poll(&mut fds, Some(&timeout))?;
    if n == 0 {
        return Ok(Ready::TimedOut);
    }
    if fds[0].revents().contains(PollFlags::NVAL) {
        return Ok(Ready::Closed);
    }
    Ok(Ready::Readable)
}

/// Runs `f` with the terminal on `fd` handing over each key as it is
/// pressed (no line editing, no echo; Ctrl-C and Ctrl-D arrive as bytes
/// 3 and 4), and puts the terminal back as it was afterwards.
pub(crate) fn with_keys<T>(fd: impl AsFd, f: impl FnOnce() -> T) -> io::Result<T> {
    use rustix::termios::{LocalModes, OptionalActions, SpecialCodeIndex, tcgetattr, tcsetattr};
    let fd = fd.as_fd();
    let saved = tcgetattr(fd)?;
    let mut keys = saved.clone();
    keys.local_modes
        .remove(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG);
    keys.special_codes[SpecialCodeIndex::VMIN] = 1;
    keys.special_codes[SpecialCodeIndex::VTIME] = 0;
    tcsetattr(fd, OptionalActions::Now, &keys)?;
    struct Restore<'a>(std::os::fd::BorrowedFd<'a>, rustix::termios::Termios);
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            let _ = rustix::termios::tcsetattr(self.0, OptionalActions::Now, &self.1);
        }
    }
    let _restore = Restore(fd, saved);
    Ok(f())
}

/// Renames `from` to `to`, both in `dir`, failing with `AlreadyExists` when
/// `to` exists: atomically where the system offers it, else by a hard link
/// (which refuses an existing name too) and the removal of `from`.
pub(crate) fn rename_noreplace(dir: &cap_std::fs::Dir, from: &OsStr, to: &OsStr) -> io::Result<()> {
    if NATIVE {
        match native::rename(dir, from, to, native::NOREPLACE) {
            Err(e) if unsupported(&e) => {}
            other => return other,
        }
    }
    dir.hard_link(from, dir, to)?;
    dir.remove_file(from)
}

/// Swaps the names `a` and `b` in `dir` atomically. `Ok(false)`: this
/// system or file system cannot, and nothing was done.
pub(crate) fn rename_exchange(dir: &cap_std::fs::Dir, a: &OsStr, b: &OsStr) -> io::Result<bool> {
    if !NATIVE {
        return Ok(false);
    }
    match native::rename(dir, a, b, native::EXCHANGE) {
        Ok(()) => Ok(true),
        Err(e) if unsupported(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether a rename flag is not supported by the system or file system.
fn unsupported(e: &io::Error) -> bool {
    use rustix::io::Errno;
    [Errno::INVAL, Errno::NOSYS, Errno::NOTSUP, Errno::OPNOTSUPP]
        .iter()
        .any(|n| e.raw_os_error() == Some(n.raw_os_error()))
}

#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
mod native {
    use rustix::fs::RenameFlags;
    use std::ffi::OsStr;

    pub(super) const NOREPLACE: RenameFlags = RenameFlags::NOREPLACE;
    pub(super) const EXCHANGE: RenameFlags = RenameFlags::EXCHANGE;

    pub(super) fn rename(
        dir: &cap_std::fs::Dir,
        from: &OsStr,
        to: &OsStr,
        flags: RenameFlags,
    ) -> std::io::Result<()> {
        Ok(rustix::fs::renameat_with(dir, from, dir, to, flags)?)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
mod native {
    use std::ffi::OsStr;

    pub(super) const NOREPLACE: () = ();
    pub(super) const EXCHANGE: () = ();

    pub(super) fn rename(
        _: &cap_std::fs::Dir,
        _: &OsStr,
        _: &OsStr,
        (): (),
    ) -> std::io::Result<()> {
        Err(std::io::ErrorKind::Unsupported.into())
    }
}

/// Whether a process other than this one has the file `(dev, ino)` open.
/// Linux only (`/proc/<pid>/fd`), and best effort: the processes of other
/// users cannot be inspected and count as not holding it. Elsewhere, and
/// with the `portable` feature, always false.
pub(crate) fn opened_elsewhere(dev: u64, ino: u64) -> bool {
    if !cfg!(all(target_os = "linux", not(feature = "portable"))) {
        return false;
    }
    use std::os::unix::fs::MetadataExt;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noreplace_rename_refuses_an_existing_name_and_keeps_both() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("a"), "a").unwrap();
        std::fs::write(t.path().join("b"), "b").unwrap();
        let dir =
            cap_std::fs::Dir::open_ambient_dir(t.path(), cap_std::ambient_authority()).unwrap();
        let e = rename_noreplace(&dir, OsStr::new("a"), OsStr::new("b")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(t.path().join("a")).unwrap(), b"a");
        assert_eq!(std::fs::read(t.path().join("b")).unwrap(), b"b");
        rename_noreplace(&dir, OsStr::new("a"), OsStr::new("c")).unwrap();
        assert!(!t.path().join("a").exists());
        assert_eq!(std::fs::read(t.path().join("c")).unwrap(), b"a");
    }

    #[test]
    fn an_exchange_swaps_both_names_or_does_nothing() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("a"), "a").unwrap();
        std::fs::write(t.path().join("b"), "b").unwrap();
        let dir =
            cap_std::fs::Dir::open_ambient_dir(t.path(), cap_std::ambient_authority()).unwrap();
        let swapped = rename_exchange(&dir, OsStr::new("a"), OsStr::new("b")).unwrap();
        assert_eq!(swapped, NATIVE);
        let (a, b) = if swapped { ("b", "a") } else { ("a", "b") };
        assert_eq!(std::fs::read(t.path().join("a")).unwrap(), a.as_bytes());
        assert_eq!(std::fs::read(t.path().join("b")).unwrap(), b.as_bytes());
    }

    #[test]
    fn a_closed_pipe_is_readable_and_an_idle_one_times_out() {
        let (reader, writer) = std::io::pipe().unwrap();
        assert_eq!(
            wait_readable(&reader, Duration::ZERO).unwrap(),
            Ready::TimedOut
        );
        drop(writer);
        assert_eq!(
            wait_readable(&reader, Duration::from_secs(5)).unwrap(),
            Ready::Readable
        );
    }
}
