//! Compare-and-swap edits of vault files: the safe write path of `route`
//! (and of any other in-place edit).
//!
//! A caller plans its changes from [`Snapshot`]s read through the
//! [`VaultDir`], then [`edit`] writes them:
//!
//! 1. every new content goes to a temporary file beside its target (mode and
//!    owner of the file it replaces), synced; a failure here removes them all
//!    and nothing is written;
//! 2. right before the first rename, every target is read again: if any
//!    differs from what the plan was made from, the temporary files are
//!    removed and the plan is made again from fresh reads;
//! 3. the renames; then, once no other process holds a replaced file open
//!    (a writer that opened it just before the rename writes to the old
//!    copy), it is read once more through the descriptor kept open: bytes
//!    appended to it meanwhile are appended to the new file; any other change
//!    puts every file of the batch back as it was (with that program's
//!    change) and the plan is made again.
//!
//! So an edit does not drop what another program writes with an
//! open-write-close (an editor's save, a shell's `>>`), and a batch lands
//! whole or not at all; when a rename itself fails midway, the error lists
//! exactly which files were written. Limits: a writer that keeps the file
//! open for longer than the 2 s wait, or runs as another user (its open
//! files are not visible), can still write to the old copy after the check.

use crate::error::{Error, Result};
use crate::vault_fs::{Snapshot, VaultDir};
use std::io::{Read, Seek};

/// How many times a plan is made again before giving up; between tries the
/// edit waits 1, 2, 4 … up to 100 ms (about 5.5 s in all), so a burst of
/// writes by another program ends before the edit gives up.
pub(crate) const MAX_TRIES: u32 = 60;

/// How long after the renames the edit waits for other processes to close
/// the replaced files (a writer that opened one just before the rename
/// writes to the old copy), before reading them once more.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

fn pause(attempt: u32) -> std::time::Duration {
    std::time::Duration::from_millis((1u64 << attempt.min(7)).min(100))
}

/// One planned file change.
#[derive(Debug, Clone)]
pub struct Change {
    /// Root-relative path.
    pub rel: String,
    /// The file as the plan read it (`None`: it did not exist).
    pub before: Option<Snapshot>,
    /// The new content.
    pub after: Vec<u8>,
}

enum Outcome {
    Written,
    /// This file changed under the edit; plan again.
    Changed(String),
}

/// Plans with `plan` (which reads through the vault handle) and writes the
/// changes it returns, planning again from fresh reads whenever a file
/// changed in between. Returns what the last plan returned. Call with the
/// vault lock held: temporary files of ours beside each target (left by a
/// killed run) are removed first.
pub(crate) fn edit<T>(
    vault: &VaultDir,
    mut plan: impl FnMut(&VaultDir) -> Result<(T, Vec<Change>)>,
) -> Result<T> {
    let mut last = String::new();
    for attempt in 0..MAX_TRIES {
        if attempt > 0 {
            std::thread::sleep(pause(attempt - 1));
        }
        let (value, changes) = plan(vault)?;
        match commit(vault, &changes)? {
            Outcome::Written => return Ok(value),
            Outcome::Changed(rel) => last = rel,
        }
    }
    Err(Error::EditRace {
        path: last,
        tries: MAX_TRIES,
    })
}

/// A temporary file ready to be renamed over its target.
struct Staged<'a> {
    change: &'a Change,
    dir: cap_std::fs::Dir,
    name: std::ffi::OsString,
    tmp: std::ffi::OsString,
    /// The target as it was right before the rename, kept open.
    held: Option<std::fs::File>,
    /// The inode of the new content (the temporary file).
    ino: u64,
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        // Removes the temporary file when it was not renamed.
        let _ = self.dir.remove_file(&self.tmp);
    }
}

fn same(before: &Option<Snapshot>, now: &Option<Snapshot>) -> bool {
    match (before, now) {
        (None, None) => true,
        (Some(a), Some(b)) => a.bytes == b.bytes,
        _ => false,
    }
}

/// Writes one batch (steps 1 to 3 above).
fn commit(vault: &VaultDir, changes: &[Change]) -> Result<Outcome> {
    let changes: Vec<&Change> = changes
        .iter()
        .filter(|c| c.before.as_ref().is_none_or(|b| b.bytes != c.after))
        .collect();
    let mut opened = Vec::with_capacity(changes.len());
    for change in &changes {
        let (dir, name) = vault
            .parent(&change.rel, true)?
            .ok_or_else(|| vault.escape(&change.rel, "its folder cannot be opened"))?;
        // Before any temporary file of this batch exists.
        crate::vault_fs::clean_temps_locked(&dir);
        opened.push((change, dir, name));
    }
    let mut staged = Vec::with_capacity(changes.len());
    for (change, dir, name) in opened {
        let tmp = crate::vault_fs::write_temp_in(
            vault,
            &dir,
            &name,
            &change.rel,
            &change.after,
            change.before.as_ref(),
        )?;
        let ino = {
            use cap_std::fs::MetadataExt;
            dir.symlink_metadata(&tmp).map_or(0, |m| m.ino())
        };
        staged.push(Staged {
            change,
            dir,
            name,
            tmp,
            held: None,
            ino,
        });
    }
    for s in &mut staged {
        let (now, held) = crate::vault_fs::snapshot_held(vault, &s.dir, &s.name, &s.change.rel)?;
        if !same(&s.change.before, &now) {
            return Ok(Outcome::Changed(s.change.rel.clone()));
        }
        s.held = held;
    }
    // New files first, refusing to replace one created meanwhile.
    staged.sort_by_key(|s| s.change.before.is_some());
    let mut written: Vec<usize> = Vec::new();
    for (i, s) in staged.iter().enumerate() {
        let renamed = if s.change.before.is_none() {
            crate::vault_fs::rename_noreplace_in(&s.dir, &s.tmp, &s.name)
        } else {
            replace_checked(s)
        };
        match renamed {
            Ok(()) => written.push(i),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                undo(vault, &staged, &written)?;
                return Ok(Outcome::Changed(s.change.rel.clone()));
            }
            Err(e) => {
                return Err(Error::PartialWrite {
                    written: written
                        .iter()
                        .map(|&j| staged[j].change.rel.clone())
                        .collect(),
                    failed: s.change.rel.clone(),
                    source: e,
                });
            }
        }
    }
    for s in &staged {
        crate::vault_fs::sync_dir_of(&s.dir);
    }
    // Step 3: did anyone write to a replaced file between check and rename
    // (or, having opened it before the rename, just after)?
    for held in staged.iter().filter_map(|s| s.held.as_ref()) {
        crate::vault_fs::wait_until_closed(held, CLOSE_WAIT);
    }
    // Bytes appended to the old copy are appended to the new one, as if
    // they had come just after the edit; any other change undoes the batch.
    let mut clobbered = None;
    for s in &staged {
        let (Some(lost), Some(before)) = (lost_bytes(s), &s.change.before) else {
            continue;
        };
        let appended = lost
            .strip_prefix(before.bytes.as_slice())
            .is_some_and(|tail| append_to_new(s, tail));
        if !appended {
            clobbered = Some(s.change.rel.clone());
            break;
        }
    }
    match clobbered {
        None => {
            for s in &staged {
                crate::vault_fs::journal::record(
                    &s.change.rel,
                    s.change.before.as_ref().map(|b| b.bytes.as_slice()),
                    Some(&s.change.after),
                );
            }
            Ok(Outcome::Written)
        }
        Some(rel) => {
            undo(vault, &staged, &written)?;
            Ok(Outcome::Changed(rel))
        }
    }
}

/// The device and inode of a file.
fn identity(meta: &impl std::os::unix::fs::MetadataExt) -> (u64, u64) {
    (meta.dev(), meta.ino())
}

/// Puts the new content (`s.tmp`) in place of the target, and makes sure
/// what it replaced is the file the check read (`s.held`): a program that
/// saves by renaming its own file over the target (an editor, `sed -i`, a
/// sync tool) between the check and this rename must not lose its save.
/// An `AlreadyExists` error says the target was replaced meanwhile: it is
/// left as that program wrote it, and the plan is made again.
///
/// Where the system swaps two names atomically (Linux, macOS), the swap
/// leaves the replaced file under the temporary name, and that is checked;
/// a swap back undoes a wrong one. Elsewhere the target is checked right
/// before a plain rename, which leaves a window of two system calls.
fn replace_checked(s: &Staged<'_>) -> std::io::Result<()> {
    use cap_std::fs::MetadataExt;
    let changed = || std::io::Error::from(std::io::ErrorKind::AlreadyExists);
    let checked = match &s.held {
        Some(held) => identity(&held.metadata()?),
        None => return Err(changed()),
    };
    let at = |name: &std::ffi::OsStr| s.dir.symlink_metadata(name).map(|m| (m.dev(), m.ino()));
    if !crate::platform::rename_exchange(&s.dir, &s.tmp, &s.name)? {
        if at(&s.name)? != checked {
            return Err(changed());
        }
        return s.dir.rename(&s.tmp, &s.dir, &s.name);
    }
    // The temporary name now holds what the target was until the swap.
    if at(&s.tmp)? == checked {
        return Ok(());
    }
    // Another program's save: swap it back. Should a third save have come
    // in between, the newest (now under the temporary name) is put back.
    crate::platform::rename_exchange(&s.dir, &s.tmp, &s.name)?;
    if at(&s.tmp)?.1 != s.ino {
        s.dir.rename(&s.tmp, &s.dir, &s.name)?;
    }
    Err(changed())
}

/// Appends `tail` to the file now at the target when it is still the new
/// content this edit renamed there (same inode). Returns whether it did.
fn append_to_new(s: &Staged<'_>, tail: &[u8]) -> bool {
    use cap_std::fs::{OpenOptions, OpenOptionsExt};
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;
    let mut opts = OpenOptions::new();
    opts.append(true).custom_flags(
        crate::platform::O_NOFOLLOW | crate::platform::O_NONBLOCK | crate::platform::O_CLOEXEC,
    );
    let Ok(file) = s.dir.open_with(&s.name, &opts) else {
        return false;
    };
    let mut file = file.into_std();
    if file.metadata().map_or(true, |m| m.ino() != s.ino) {
        return false;
    }
    file.write_all(tail).and_then(|()| file.sync_all()).is_ok()
}

/// The replaced file's content when it no longer matches the plan's read
/// (another program wrote to it after the check).
fn lost_bytes(s: &Staged<'_>) -> Option<Vec<u8>> {
    let (Some(file), Some(before)) = (&s.held, &s.change.before) else {
        return None;
    };
    let mut f = file;
    let mut now = Vec::new();
    if f.rewind().is_err() || f.read_to_end(&mut now).is_err() {
        return None;
    }
    (now != before.bytes).then_some(now)
}

/// Puts back every written file of a batch as it was before (with any
/// bytes written to it meanwhile); new files are removed.
fn undo(vault: &VaultDir, staged: &[Staged<'_>], written: &[usize]) -> Result<()> {
    let mut failed = None;
    for &i in written {
        let s = &staged[i];
        let result = match (&s.change.before, lost_bytes(s)) {
            (None, _) => s
                .dir
                .remove_file(&s.name)
                .map_err(|e| Error::write(vault.display(&s.change.rel), e)),
            (Some(before), lost) => {
                let content = lost.unwrap_or_else(|| before.bytes.clone());
                crate::vault_fs::write_temp_in(
                    vault,
                    &s.dir,
                    &s.name,
                    &s.change.rel,
                    &content,
                    Some(before),
                )
                .and_then(|tmp| {
                    s.dir
                        .rename(&tmp, &s.dir, &s.name)
                        .map_err(|e| Error::write(vault.display(&s.change.rel), e))
                })
            }
        };
        if let Err(e) = result {
            failed.get_or_insert((s.change.rel.clone(), e));
        }
    }
    match failed {
        None => Ok(()),
        Some((rel, e)) => Err(Error::PartialWrite {
            written: written
                .iter()
                .map(|&j| staged[j].change.rel.clone())
                .collect(),
            failed: rel,
            source: std::io::Error::other(format!(
                "another program changed it during the write, and putting it back failed: {e}"
            )),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_of_files_in_one_folder_is_written_whole() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("j")).unwrap();
        std::fs::write(t.path().join("j/a.md"), "a\n").unwrap();
        let v = VaultDir::open(t.path()).unwrap();
        let written = edit(&v, |v| {
            let before = v.snapshot("j/a.md")?;
            let changes = vec![
                Change {
                    rel: "j/a.md".into(),
                    before,
                    after: b"a\nb\n".to_vec(),
                },
                Change {
                    rel: "j/new.md".into(),
                    before: None,
                    after: b"n\n".to_vec(),
                },
                Change {
                    rel: "j/new2.md".into(),
                    before: None,
                    after: b"m\n".to_vec(),
                },
            ];
            Ok((3, changes))
        })
        .unwrap();
        assert_eq!(written, 3);
        assert_eq!(
            std::fs::read_to_string(t.path().join("j/a.md")).unwrap(),
            "a\nb\n"
        );
        assert_eq!(
            std::fs::read_to_string(t.path().join("j/new.md")).unwrap(),
            "n\n"
        );
        assert_eq!(
            std::fs::read_to_string(t.path().join("j/new2.md")).unwrap(),
            "m\n"
        );
        assert_eq!(std::fs::read_dir(t.path().join("j")).unwrap().count(), 3);
    }

    #[test]
    fn a_file_changed_after_the_plan_is_planned_again() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("f.md"), "one\n").unwrap();
        let v = VaultDir::open(t.path()).unwrap();
        let mut plans = 0;
        edit(&v, |v| {
            let before = v.snapshot("f.md")?;
            let mut after = before.as_ref().unwrap().bytes.clone();
            after.extend_from_slice(b"routed\n");
            if plans == 0 {
                // Another program appends between this read and the write.
                std::fs::write(t.path().join("f.md"), "one\nappended\n").unwrap();
            }
            plans += 1;
            Ok((
                (),
                vec![Change {
                    rel: "f.md".into(),
                    before,
                    after,
                }],
            ))
        })
        .unwrap();
        assert_eq!(plans, 2);
        assert_eq!(
            std::fs::read_to_string(t.path().join("f.md")).unwrap(),
            "one\nappended\nrouted\n"
        );
    }
}
