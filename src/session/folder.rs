//! The output folder of a run, an import, a merge or a bisection, claimed
//! before anything is written into it. versus replaces the files it writes
//! there (results.json, report.md, …) and removes its scratch folders (`tmp/`,
//! `work/`) recursively, so it writes only into a folder that is new, empty,
//! or one versus wrote before: never deleting or replacing what it did not
//! create. A folder versus writes into holds a marker file (`MARKER`), made
//! when versus first writes there; a folder written by a versus from before
//! the marker is recognised by what it holds (`earlier_run`). Any other
//! folder is refused, named, with the flag that chose it.
//!
//! The marker is also the folder's lock: an exclusive `flock` on it is held
//! for as long as the `Claim` lives, so a second versus writing into the
//! same folder at the same time fails at once rather than mixing the two
//! runs' files.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The marker file of a folder versus writes into; also its lock.
pub(super) const MARKER: &str = ".versus-output";

/// What the marker says to whoever opens the folder.
const MARKER_TEXT: &str = "This folder holds the output of versus (results, reports, a journal).\n\
versus replaces its own files here and removes its scratch folders tmp/ and work/ when it writes here again.\n\
While versus writes here it holds a lock on this file.\n";

/// The names versus writes into an output folder (services add `<name>.log`,
/// a bisection `step-<n>` folders, a sharded run `shard-K-of-N` ones).
const OURS: &[&str] = &[
    MARKER,
    "results.json",
    "report.md",
    "report.html",
    "cells.jsonl",
    "cells.jsonl.torn",
    "tmp",
    "work",
    "builds",
    "differing-outputs",
    "bisect.log",
    "bisect.json",
];

/// An output folder held for writing: its absolute path, and the lock held
/// until this is dropped.
#[derive(Debug)]
pub(crate) struct Claim {
    pub dir: PathBuf,
    _lock: File,
}

/// Claims `dir` for writing (creating it and its parents when missing), or
/// says why not: it holds files versus did not write, or another versus is
/// writing there. `flag` names where the folder came from (`--out`,
/// `--resume`) in the refusal.
pub(crate) fn claim(dir: &Path, flag: &str) -> Result<Claim> {
    fs::create_dir_all(dir).with_context(|| format!("{flag} {}: cannot create it", dir.display()))?;
    let dir = fs::canonicalize(dir).with_context(|| format!("{flag} {}: cannot resolve it", dir.display()))?;
    let marked = dir.join(MARKER).is_file();
    if !marked {
        let names = names(&dir).with_context(|| format!("{flag} {}: cannot read it", dir.display()))?;
        if !names.is_empty() && !earlier_run(&dir, &names) {
            bail!(
                "{flag} {}: the folder holds files versus did not write ({}); versus writes only into a new or empty \
                 folder, or one it wrote before, because it replaces its files there and removes tmp/ and work/. \
                 Choose another folder with --out",
                dir.display(),
                shown(&names)
            );
        }
    }
    let lock = lock(&dir.join(MARKER)).with_context(|| format!("{flag} {}", dir.display()))?;
    Ok(Claim { dir, _lock: lock })
}

/// The names in `dir`.
fn names(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        names.push(entry?.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// A few of `names`, for the refusal.
fn shown(names: &[String]) -> String {
    let mut text = names.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > 3 {
        text += &format!(" and {} more", names.len() - 3);
    }
    text
}

/// Whether a folder without the marker was written by an earlier versus:
/// every name in it is one versus writes, and it holds versus's journal or
/// results file (whose first bytes say so), or only folders versus marked
/// (the `shard-K-of-N` pieces of a sharded run's default folder).
fn earlier_run(dir: &Path, names: &[String]) -> bool {
    let ours = |n: &String| {
        OURS.contains(&n.as_str())
            || n.ends_with(".log")
            || ["step-", "shard-"]
                .iter()
                .any(|p| n.len() > p.len() && n.starts_with(p))
    };
    let starts = |name: &str, prefixes: &[&str]| {
        let mut head = [0u8; 64];
        let n = File::open(dir.join(name))
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .unwrap_or(0);
        let head = String::from_utf8_lossy(&head[..n]);
        prefixes.iter().any(|p| head.starts_with(p))
    };
    names.iter().all(ours)
        && (starts(
            "cells.jsonl",
            &[r#"{"type":"run""#, r#"{"type":"group""#, r#"{"type":"cell""#],
        ) || starts("results.json", &["{\n  \"schema_version\":"])
            || names.iter().all(|n| dir.join(n).join(MARKER).is_file()))
}

/// Takes the lock on the marker at `path` (making it, with its text, when
/// missing), or fails at once when another process holds it.
fn lock(path: &Path) -> Result<File> {
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    // SAFETY: flock on a descriptor this function owns; LOCK_NB makes it return at once.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() == std::io::ErrorKind::WouldBlock {
            bail!(
                "another versus is writing into this folder now; wait for it to end, or choose another folder with --out"
            );
        }
        bail!("cannot lock {}: {e}", path.display());
    }
    if file.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
        file.write_all(MARKER_TEXT.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_or_empty_folder_is_claimed_and_marked() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("empty")).unwrap();
        for dir in [tmp.path().join("new/deeper"), tmp.path().join("empty")] {
            let claim = claim(&dir, "--out").unwrap();
            assert!(claim.dir.is_absolute() && claim.dir.join(MARKER).is_file());
        }
    }

    #[test]
    fn a_folder_of_other_files_is_refused_and_named() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("tmp")).unwrap();
        fs::write(tmp.path().join("tmp/notes.txt"), "x").unwrap();
        let err = format!("{:#}", claim(tmp.path(), "--out").unwrap_err());
        assert!(
            err.contains(&tmp.path().display().to_string()) && err.contains("--out"),
            "{err}"
        );
        assert!(!tmp.path().join(MARKER).exists(), "a refused folder is left as it was");
    }

    #[test]
    fn an_earlier_versus_folder_is_recognised_by_its_journal() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("tmp")).unwrap();
        fs::write(tmp.path().join("report.md"), "# r").unwrap();
        fs::write(tmp.path().join("cells.jsonl"), "{\"type\":\"run\",\"data\":{}}\n").unwrap();
        assert!(claim(tmp.path(), "--resume").is_ok());
        // The same names, but a journal versus did not write.
        let other = tempfile::tempdir().unwrap();
        fs::write(other.path().join("cells.jsonl"), "mine\n").unwrap();
        assert!(claim(other.path(), "--out").is_err());
        // versus's journal beside a file of someone else's.
        fs::write(other.path().join("cells.jsonl"), "{\"type\":\"group\",\"data\":[]}\n").unwrap();
        fs::write(other.path().join("notes.txt"), "x").unwrap();
        assert!(claim(other.path(), "--out").is_err());
    }

    #[test]
    fn a_claimed_folder_cannot_be_claimed_again_until_released() {
        let tmp = tempfile::tempdir().unwrap();
        let first = claim(tmp.path(), "--out").unwrap();
        let err = format!("{:#}", claim(tmp.path(), "--out").unwrap_err());
        assert!(err.contains("another versus"), "{err}");
        drop(first);
        assert!(claim(tmp.path(), "--out").is_ok());
    }
}
