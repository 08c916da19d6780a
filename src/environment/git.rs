//! Which code made the numbers: the commit of versus itself (embedded by
//! `build.rs` when it was built from a git checkout) and of the suite's
//! repository (asked of git in the suite's folder when the run starts),
//! each with whether the working tree differed from it. A report whose
//! code cannot be found again cannot be checked again.
//!
//! `run` is the one way versus asks git anything (here, for the history
//! store's record of a run, and for the revisions a run builds).

use std::path::Path;
use std::process::Stdio;

use crate::base::child;
use crate::results::GitState;

impl GitState {
    /// "3f2a9c1d0b7e" or "3f2a9c1d0b7e, with uncommitted changes".
    pub fn describe(&self) -> String {
        let short: String = self.commit.chars().take(12).collect();
        if self.dirty {
            format!("{short}, with uncommitted changes")
        } else {
            short
        }
    }
}

/// The state from git's answers: `rev-parse HEAD` and `status --porcelain`.
pub(super) fn from_answers(head: &str, status: &str) -> Option<GitState> {
    let commit = head.trim();
    let hex = commit.len() >= 40 && commit.chars().all(|c| c.is_ascii_hexdigit());
    hex.then(|| GitState {
        commit: commit.to_string(),
        dirty: !status.trim().is_empty(),
    })
}

/// Runs `git -C dir ARGS` (unmarked: the orphan guard leaves it alone) and
/// returns its standard output trimmed; the error is the last line of git's
/// standard error, or why git could not be started.
pub(crate) fn run(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = child::unmarked("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run git: is it installed and on PATH? ({e})"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        anyhow::bail!("{}", err.trim().lines().last().unwrap_or("git failed"));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The state of the repository `dir` is in; `None` outside one, or without git.
pub(crate) fn of_folder(dir: &Path) -> Option<GitState> {
    let head = run(dir, &["rev-parse", "HEAD"]).ok()?;
    let status = run(dir, &["status", "--porcelain", "--untracked-files=no"]).ok()?;
    from_answers(&head, &status)
}

/// The commit versus was built from; `None` when it was not built from a
/// git checkout of itself (a crate from a registry).
pub(super) fn of_versus() -> Option<GitState> {
    let dirty = option_env!("VERSUS_GIT_DIRTY") == Some("1");
    option_env!("VERSUS_GIT_COMMIT").and_then(|c| from_answers(c, if dirty { "M" } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_become_a_state() {
        let head = "0123456789abcdef0123456789abcdef01234567\n";
        let clean = from_answers(head, "").unwrap();
        assert_eq!(clean.describe(), "0123456789ab");
        let dirty = from_answers(head, " M src/main.rs\n").unwrap();
        assert_eq!(dirty.describe(), "0123456789ab, with uncommitted changes");
        assert_eq!(from_answers("fatal: not a git repository", ""), None);
    }
}
