//! A cache folder versus can trust: generated payloads are reused by name
//! and size and built revisions are run, so a folder versus chose itself
//! (`payload::cache_dir`) is made private (0700) and refused when another
//! user owns it or others can write into it. A folder the user named with
//! `VERSUS_CACHE_DIR` is theirs to share.

use std::fs;
use std::io;
use std::path::Path;

/// Makes `cache` ready to be trusted before anything in it is used: a
/// folder the user named with `VERSUS_CACHE_DIR` is theirs to share;
/// any other is made private, or refused (see `payload::cache_dir`).
pub fn trusted(cache: &Path) -> io::Result<()> {
    if std::env::var_os("VERSUS_CACHE_DIR").is_some_and(|d| Path::new(&d) == cache) {
        return fs::create_dir_all(cache);
    }
    private_dir(cache)
}

/// Creates `dir` (mode 0700) if it is missing; fails, naming it, when it
/// belongs to another user or others can write into it.
fn private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent)?;
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    let meta = fs::symlink_metadata(dir)?;
    // SAFETY: geteuid only reads the process's user id.
    let me = unsafe { libc::geteuid() };
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o022 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the cache folder {} is not a folder of this user's that only it can write to; versus will not \
trust its payloads or builds (remove it, or choose a folder with VERSUS_CACHE_DIR)",
                dir.display()
            ),
        ));
    }
    Ok(())
}
