//! Checkouts and builds of revisions, cached by commit.
//!
//! A revision is built once: its checkout (a git worktree of the
//! implementation's repository, detached at the commit) and the build's log
//! live in `<cache>/revisions/<key>/`, where the key is a hash of the
//! repository, the commit, the build command and its environment. A later
//! run, or a later step of `versus bisect`, finds the `built` mark and uses
//! the checkout as it is. A failed build is not cached: the next run starts
//! from a fresh checkout, so a fixed toolchain is tried again. Two versus
//! processes building the same entry take turns (an `flock` on the entry).
//! The work tree itself (no `--rev`) is built in place, every run.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use super::git;
use crate::base::child;
use crate::results::BuildStatus;

/// The mark a finished build leaves in its entry.
const BUILT: &str = "built";

/// One checkout to prepare and the build to run in it.
#[derive(Debug, Clone)]
pub(super) struct Job {
    /// The repository's top folder.
    pub repo: PathBuf,
    /// The commit to check out; `None`: the work tree as it is, built in place.
    pub commit: Option<String>,
    /// Where the build runs: the cache entry's checkout, or the work tree.
    pub checkout: PathBuf,
    /// The build command, rendered; `None`: nothing to build.
    pub argv: Option<Vec<String>>,
    /// Environment the build runs with, besides versus's own.
    pub env: Vec<(String, String)>,
    /// Where the build's output goes.
    pub log: PathBuf,
    /// What is built, for messages: "gzip at main (1a2b3c4)".
    pub what: String,
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Done {
    pub status: BuildStatus,
    /// Seconds the build took, when it ran now.
    pub seconds: Option<f64>,
    /// Why it failed, naming the log.
    pub message: Option<String>,
}

/// The cache entry of a commit's build: `<cache>/revisions/<key>`.
/// `keyed_argv` is the build command rendered with `{checkout}` left as
/// written, so the key does not depend on the folder it names.
pub(super) fn entry(
    cache: &Path,
    repo: &Path,
    commit: &str,
    keyed_argv: Option<&[String]>,
    env: &[(String, String)],
) -> PathBuf {
    let mut text = format!("{}\0{commit}\0", repo.display());
    for word in keyed_argv.unwrap_or_default() {
        text.push_str(word);
        text.push('\0');
    }
    for (k, v) in env {
        text.push_str(&format!("{k}={v}\0"));
    }
    let hash = crate::base::digest::sha256_hex(text.as_bytes());
    cache.join("revisions").join(&hash[..20])
}

/// The checkout folder of an entry.
pub(super) fn checkout_of(entry: &Path) -> PathBuf {
    entry.join("checkout")
}

/// Prepares the job's checkout and builds it, or finds it built. Never an
/// error: whatever goes wrong is the job's failure, with its message.
pub(super) fn prepare(job: &Job, say: &mut dyn FnMut(&str)) -> Done {
    let result = match &job.commit {
        Some(commit) => cached(job, commit, say),
        None => build(job, say).map(|seconds| (BuildStatus::Built, Some(seconds))),
    };
    match result {
        Ok((status, seconds)) => Done {
            status: if job.argv.is_none() && status != BuildStatus::Cached {
                BuildStatus::CheckoutOnly
            } else {
                status
            },
            seconds,
            message: None,
        },
        Err(e) => Done {
            status: BuildStatus::Failed,
            seconds: None,
            message: Some(format!("{e:#}")),
        },
    }
}

/// A commit's checkout in the cache: found built, or made and built now.
fn cached(job: &Job, commit: &str, say: &mut dyn FnMut(&str)) -> Result<(BuildStatus, Option<f64>)> {
    let entry = job.checkout.parent().context("a checkout folder has a parent")?;
    fs::create_dir_all(entry).with_context(|| format!("cannot create {}", entry.display()))?;
    let _lock = lock(&entry.with_extension("lock"))?;
    if entry.join(BUILT).is_file() && job.checkout.is_dir() {
        return Ok((BuildStatus::Cached, None));
    }
    if job.checkout.exists() {
        // A build that failed or was cut short: start again from a clean checkout.
        git::remove_worktree(&job.repo, &job.checkout);
    }
    git::add_worktree(&job.repo, &job.checkout, commit)?;
    let seconds = build(job, say)?;
    fs::write(entry.join(BUILT), format!("{seconds:.3}\n"))
        .with_context(|| format!("cannot write in {}", entry.display()))?;
    Ok((BuildStatus::Built, Some(seconds)))
}

/// Runs the build command in the checkout, its output into the log.
fn build(job: &Job, say: &mut dyn FnMut(&str)) -> Result<f64> {
    let Some(argv) = &job.argv else { return Ok(0.0) };
    if let Some(dir) = job.log.parent() {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut log = File::create(&job.log).with_context(|| format!("cannot create {}", job.log.display()))?;
    let _ = writeln!(
        log,
        "# versus: building {} in {}\n$ {}",
        job.what,
        job.checkout.display(),
        shell_words::join(argv)
    );
    say(&format!("building {}", job.what));
    let started = Instant::now();
    let status = child::command(&argv[0])
        .args(&argv[1..])
        .current_dir(&job.checkout)
        .envs(job.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log.try_clone()?)
        .status();
    let seconds = started.elapsed().as_secs_f64();
    let status = match status {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(log, "# versus: cannot start {}: {e}", argv[0]);
            bail!(
                "the build of {} could not start `{}`: {e} (log: {})",
                job.what,
                argv[0],
                job.log.display()
            );
        }
    };
    let _ = writeln!(log, "# versus: {status} after {seconds:.1} s");
    if !status.success() {
        let last = last_line(&job.log).map(|l| format!(": {l}")).unwrap_or_default();
        bail!(
            "the build of {} failed ({status}); its output is in {}{last}",
            job.what,
            job.log.display()
        );
    }
    Ok(seconds)
}

/// The last line of the build's own output (not versus's notes), for the message.
fn last_line(log: &Path) -> Option<String> {
    let text = fs::read_to_string(log).ok()?;
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.starts_with("# versus:"))?
        .trim();
    let line: String = line.chars().take(200).collect();
    (!line.starts_with("$ ")).then_some(line)
}

/// An exclusive lock on `path`, held until the returned file is dropped.
fn lock(path: &Path) -> Result<File> {
    let f = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open the lock {}", path.display()))?;
    // SAFETY: flock on a descriptor this function owns; it blocks until the lock is ours.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
        bail!("cannot lock {}: {}", path.display(), std::io::Error::last_os_error());
    }
    Ok(f)
}
