//! The one way versus writes a file it made (results, reports, charts,
//! exports): into a new file beside the target, then renamed over it.
//!
//! A reader never sees half a file, and an interruption leaves the old file
//! whole. The new file is created with `O_EXCL` under a random name, and
//! rename(2) replaces whatever stands at the target's name — a symbolic
//! link planted there is replaced, never written through. Its mode is
//! 0666 less the umask, as any file the user's programs create.
//!
//! While a file is being written its temporary name is held in a fixed
//! table that a signal handler may read (`remove_pending`): versus
//! interrupted while it writes (Ctrl-C during a report, see
//! `exec::interrupt`) removes the half-written file before it exits, with
//! unlink(2) only, which is async-signal-safe.

use std::ffi::CString;
use std::io::{BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Files being written at once (one per thread that writes): a write
/// beyond it is still atomic, only not removed on an interruption.
const SLOTS: usize = 64;

static PENDING: [AtomicPtr<libc::c_char>; SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

/// A temporary name held in `PENDING` while its file is written.
struct Held(Option<usize>);

impl Held {
    fn new(path: &Path) -> Held {
        let Ok(name) = CString::new(path.as_os_str().as_bytes()) else {
            return Held(None);
        };
        let raw = name.into_raw();
        for (i, slot) in PENDING.iter().enumerate() {
            if slot
                .compare_exchange(std::ptr::null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Held(Some(i));
            }
        }
        // SAFETY: `raw` came from `into_raw` above and was stored nowhere.
        drop(unsafe { CString::from_raw(raw) });
        Held(None)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let Some(i) = self.0 else { return };
        // Whoever swaps the pointer out owns it: the handler never frees it.
        let raw = PENDING[i].swap(std::ptr::null_mut(), Ordering::SeqCst);
        if !raw.is_null() {
            // SAFETY: every pointer in `PENDING` came from `CString::into_raw`.
            drop(unsafe { CString::from_raw(raw) });
        }
    }
}

/// Removes every file being written now. Async-signal-safe: atomics and
/// unlink(2); the names are left allocated (the process is about to end).
pub fn remove_pending() {
    (0..SLOTS).for_each(remove_slot);
}

/// Removes the file whose name slot `i` holds, if any, and empties the slot.
fn remove_slot(i: usize) {
    let raw = PENDING[i].swap(std::ptr::null_mut(), Ordering::SeqCst);
    if !raw.is_null() {
        // SAFETY: a NUL-terminated name from `CString::into_raw`, freed by
        // nobody once swapped out of its slot.
        unsafe { libc::unlink(raw) };
    }
}

/// Writes `path` by `fill`, atomically (see the module header). The folder
/// must exist. The error says which file could not be written.
pub fn write_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> anyhow::Result<()> {
    let fail = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".partial")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(fail)?;
    let _held = Held::new(tmp.path());
    let (file, tmp_path) = tmp.into_parts();
    let mut out = BufWriter::new(file);
    fill(&mut out).map_err(fail)?;
    out.flush().map_err(fail)?;
    out.get_ref().sync_all().map_err(fail)?;
    tmp_path.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Writes `bytes` to `path`, atomically.
pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_with(path, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_a_link_at_its_name_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "keep").unwrap();
        let target = dir.path().join("report.md");
        std::os::unix::fs::symlink(&outside, &target).unwrap();
        write(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
        assert!(!std::fs::symlink_metadata(&target).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file is left");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("results.json");
        std::fs::write(&target, "old").unwrap();
        let e = write_with(&target, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(
            e.to_string().contains("results.json") && e.to_string().contains("disk full"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_file_being_written_is_removed_from_its_slot() {
        let dir = tempfile::tempdir().unwrap();
        let partial = dir.path().join(".report.html.x.partial");
        std::fs::write(&partial, "<html>").unwrap();
        let held = Held::new(&partial);
        // What `remove_pending` does to every slot; only this test's own
        // here, since other tests write files meanwhile.
        remove_slot(held.0.expect("a free slot"));
        assert!(!partial.exists(), "the half-written file is gone");
        drop(held);
    }
}
