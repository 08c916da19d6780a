//! Payloads: the bytes every implementation is fed. Generated payloads are
//! deterministic (same seed and size → same bytes on every machine), written
//! at the disk's speed (`writer`), and cached by content identity so a 100 MB
//! payload is written once and then reused as it is.

mod stream;
mod writer;

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sha2::Digest as _;

use crate::base::units::Bytes;
pub(crate) use stream::GENERATOR_VERSION;
pub(crate) use writer::generate;

/// The folder generated payloads and built revisions are cached in:
/// `$VERSUS_CACHE_DIR` as given, else `$XDG_CACHE_HOME/versus`, else
/// `~/.cache/versus`, else (no home) `versus-UID` in the temporary folder.
/// Payloads are trusted by name and size and built revisions are run, so a
/// folder versus chose itself is made private (0700) and refused when
/// another user owns it or others can write into it: in a shared `/tmp`,
/// anyone could have made it first (`base::private`).
pub(crate) fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("VERSUS_CACHE_DIR") {
        return PathBuf::from(d);
    }
    match std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
    {
        Some(base) => base.join("versus"),
        // SAFETY: geteuid only reads the process's user id.
        None => std::env::temp_dir().join(format!("versus-{}", unsafe { libc::geteuid() })),
    }
}

/// Where the payload for (seed, size) is cached.
pub(crate) fn cached_path(cache: &Path, seed: u64, size: Bytes) -> PathBuf {
    cache
        .join("payloads")
        .join(format!("random-v{GENERATOR_VERSION}-seed{seed}-{}.bin", size.0))
}

/// Whether the payload for (seed, size) is already cached, whole.
pub(crate) fn is_cached(cache: &Path, seed: u64, size: Bytes) -> bool {
    fs::metadata(cached_path(cache, seed, size)).is_ok_and(|m| m.len() == size.0)
}

/// Bytes free for an unprivileged writer on the filesystem holding `dir`
/// (which must exist); `None` where the system does not say.
pub(crate) fn free_space(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes into the struct it is given; c is a valid C string.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

/// Returns the cached payload for (seed, size), generating it first if needed.
pub(crate) fn cached(cache: &Path, seed: u64, size: Bytes) -> io::Result<PathBuf> {
    crate::base::private::trusted(cache)?;
    let dir = cache.join("payloads");
    fs::create_dir_all(&dir)?;
    let path = cached_path(cache, seed, size);
    if is_cached(cache, seed, size) {
        return Ok(path);
    }
    // Generate beside it and rename, so an interrupted run never leaves a short payload.
    let partial = dir.join(format!(".partial-{}-{}", std::process::id(), size.0));
    generate(&partial, seed, size)?;
    fs::rename(&partial, &path)?;
    Ok(path)
}

/// A digest of a file's bytes, for comparing outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Digest(pub [u8; 32]);

impl Digest {
    pub(crate) fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// SHA-256 of a file, streamed in 1 MiB reads. One digest everywhere, so
/// outputs of processes and of in-process workers (which report SHA-256)
/// compare directly.
pub(crate) fn digest_file(path: &Path) -> io::Result<Digest> {
    let mut f = File::open(path)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut hasher = sha2::Sha256::new();
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(Digest(hasher.finalize().into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_reuses_and_sha256_is_standard() {
        let dir = tempfile::tempdir().unwrap();
        let a = cached(dir.path(), 3, Bytes(100)).unwrap();
        let b = cached(dir.path(), 3, Bytes(100)).unwrap();
        assert_eq!(a, b);
        let empty = dir.path().join("empty");
        fs::write(&empty, b"").unwrap();
        assert_eq!(
            digest_file(&empty).unwrap().hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    /// The bytes of a generated payload never change (cached payloads and
    /// committed checksums depend on them): SHA-256 of seed 3, 100,003
    /// bytes, computed by an independent implementation of the stream.
    #[test]
    fn generated_bytes_are_pinned() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p.bin");
        generate(&p, 3, Bytes(100_003)).unwrap();
        assert_eq!(
            digest_file(&p).unwrap().hex(),
            "898544e4ffed84be25a383cf165e5dca7e24922e1d6d486b3bff981a8cab2877"
        );
    }
}
