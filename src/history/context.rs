//! What a run records besides its results: the git state of the suite's
//! repository (commit, branch, uncommitted changes) and a hash of the suite,
//! so that a trend can be read against commits and a changed suite noticed.
//! git is asked, never required: outside a repository, or without git, the
//! fields stay empty.

use std::path::Path;
use std::process::Stdio;

use sha2::{Digest, Sha256};

use super::Git;

use crate::base::child;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = child::command("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        // Not one of the run's processes: the orphan guard, which kills
        // every marked process as a session ends, must leave it alone
        // (it killed git at random, losing the run's git state).
        .env_remove(crate::exec::guard::MARK)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The git state of the repository holding `dir`; all `None` outside one.
pub fn git_state(dir: &Path) -> Git {
    let Some(commit) = git(dir, &["rev-parse", "HEAD"]) else {
        return Git::default();
    };
    Git {
        commit: Some(commit),
        branch: git(dir, &["rev-parse", "--abbrev-ref", "HEAD"]).filter(|b| b != "HEAD"),
        dirty: git(dir, &["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty()),
    }
}

/// SHA-256 of `bytes`, as 64 hex digits.
pub fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
