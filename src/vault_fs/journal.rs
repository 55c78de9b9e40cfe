//! What this thread wrote to the vault, for the operation log: every
//! replace, creation and removal of a vault file goes through this module's
//! [`record`] while a recording is active ([`recording`]). The handle knows
//! nothing of operations; it only hands back the plain list of writes.
//!
//! Also the two writes only the log and its undo need: appending a line
//! ([`VaultDir::append`]) and removing a file that holds exactly given bytes
//! ([`VaultDir::remove_if`]), both confined like every other write.

use super::VaultDir;
use crate::error::Result;
use cap_std::fs::{OpenOptions, OpenOptionsExt};
use std::cell::RefCell;
use std::io::Write;

/// One file write: the whole file before (`None`: it did not exist) and
/// after (`None`: it was removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Written {
    pub(crate) rel: String,
    pub(crate) before: Option<Vec<u8>>,
    pub(crate) after: Option<Vec<u8>>,
}

#[derive(Default)]
struct State {
    /// Open recordings, innermost last (a recording inside another adds
    /// its writes to the outer one too when it ends).
    open: Vec<Vec<Written>>,
    /// Depth of [`unrecorded`] sections.
    quiet: usize,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Notes one write (a no-op when no recording is active).
pub(crate) fn record(rel: &str, before: Option<&[u8]>, after: Option<&[u8]>) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.quiet > 0 {
            return;
        }
        if let Some(list) = s.open.last_mut() {
            list.push(Written {
                rel: rel.to_string(),
                before: before.map(<[u8]>::to_vec),
                after: after.map(<[u8]>::to_vec),
            });
        }
    });
}

/// Runs `f` recording the writes this thread makes meanwhile; returns its
/// result and the writes, in order (also when `f` failed: what was written
/// before the failure stays written).
pub(crate) fn recording<T>(f: impl FnOnce() -> T) -> (T, Vec<Written>) {
    STATE.with(|s| s.borrow_mut().open.push(Vec::new()));
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            // A panic inside `f`: the recording is dropped with it.
            if std::thread::panicking() {
                STATE.with(|s| s.borrow_mut().open.pop());
            }
        }
    }
    let guard = Pop;
    let value = f();
    std::mem::forget(guard);
    let writes = STATE.with(|s| s.borrow_mut().open.pop().unwrap_or_default());
    (value, writes)
}

/// Runs `f` without recording its writes (a derived file: the dashboard).
pub(crate) fn unrecorded<T>(f: impl FnOnce() -> T) -> T {
    STATE.with(|s| s.borrow_mut().quiet += 1);
    struct Unquiet;
    impl Drop for Unquiet {
        fn drop(&mut self) {
            STATE.with(|s| s.borrow_mut().quiet -= 1);
        }
    }
    let _guard = Unquiet;
    f()
}

impl VaultDir {
    /// Appends `bytes` to `rel` in one write (created with its folder when
    /// missing, `header` written first then), never through a symbolic link
    /// at its last step, never to a file with several hard links. Appends
    /// of one line by concurrent runs do not interleave. Not recorded.
    pub(crate) fn append(&self, rel: &str, header: &[u8], bytes: &[u8]) -> Result<()> {
        let (dir, name) = self
            .parent(rel, true)?
            .ok_or_else(|| self.escape(rel, "its folder cannot be opened"))?;
        let mut opts = OpenOptions::new();
        opts.append(true).create(true).mode(0o644).custom_flags(
            crate::platform::O_NOFOLLOW | crate::platform::O_CLOEXEC | crate::platform::O_NONBLOCK,
        );
        let (mut file, meta) = self.open_single(rel, &dir, &name, &opts)?;
        let mut all = Vec::with_capacity(header.len() + bytes.len());
        if meta.len() == 0 {
            all.extend_from_slice(header);
        }
        all.extend_from_slice(bytes);
        file.write_all(&all)
            .and_then(|()| file.sync_data())
            .map_err(|e| self.io_err(rel, e, true))
    }

    /// Removes `rel` when it holds exactly `expected` (read, compared, then
    /// removed; call with the lock held). Returns `Ok(false)`, removing
    /// nothing, when it holds anything else or is missing. Recorded.
    pub(crate) fn remove_if(&self, rel: &str, expected: &[u8]) -> Result<bool> {
        let Some(now) = self.snapshot(rel).map_err(super::as_write)? else {
            return Ok(false);
        };
        if now.bytes != expected {
            return Ok(false);
        }
        let (dir, name) = self
            .parent(rel, false)?
            .ok_or_else(|| self.escape(rel, "its folder cannot be opened"))?;
        dir.remove_file(&name)
            .map_err(|e| self.io_err(rel, e, true))?;
        super::replace::sync_dir(&dir);
        record(rel, Some(expected), None);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_are_recorded_only_inside_a_recording() {
        let t = tempfile::tempdir().unwrap();
        let v = VaultDir::open(t.path()).unwrap();
        v.replace("a.md", b"one\n").unwrap();
        let ((), writes) = recording(|| {
            v.replace("a.md", b"two\n").unwrap();
            unrecorded(|| v.replace("dash.md", b"d\n").unwrap());
            v.create_new("inbox", ["n.md".to_string()], b"n\n").unwrap();
            assert!(v.remove_if("inbox/n.md", b"n\n").unwrap());
        });
        let w = |rel: &str, before: Option<&[u8]>, after: Option<&[u8]>| Written {
            rel: rel.into(),
            before: before.map(<[u8]>::to_vec),
            after: after.map(<[u8]>::to_vec),
        };
        assert_eq!(
            writes,
            [
                w("a.md", Some(b"one\n"), Some(b"two\n")),
                w("inbox/n.md", None, Some(b"n\n")),
                w("inbox/n.md", Some(b"n\n"), None),
            ]
        );
    }

    #[test]
    fn append_adds_the_header_once() {
        let t = tempfile::tempdir().unwrap();
        let v = VaultDir::open(t.path()).unwrap();
        v.append(".agents/log", b"# h\n", b"a\n").unwrap();
        v.append(".agents/log", b"# h\n", b"b\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(t.path().join(".agents/log")).unwrap(),
            "# h\na\nb\n"
        );
    }
}
