//! The few questions versus asks git, each one `git` command: where a
//! repository's work tree starts, which commit a revision names, the
//! first-parent history between two commits, and worktrees to build a
//! commit in without touching the user's own checkout. git's own message
//! is kept in every error, after what versus was trying to do.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::environment::run_git as git;

/// The top folder of the work tree holding `dir`.
pub(crate) fn toplevel(dir: &Path) -> Result<PathBuf> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])
        .with_context(|| format!("{} is not in a git repository", dir.display()))?;
    Ok(PathBuf::from(top))
}

/// The full hash of the commit `rev` names in `repo`.
pub(crate) fn commit_of(repo: &Path, rev: &str) -> Result<String> {
    if rev.is_empty() || rev.starts_with('-') {
        bail!("'{rev}' is not a revision");
    }
    git(
        repo,
        &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")],
    )
    .ok()
    .filter(|c| !c.is_empty())
    .with_context(|| format!("'{rev}' names no commit in {}", repo.display()))
}

/// The work tree's current commit, if it has one.
pub(crate) fn head(repo: &Path) -> Option<String> {
    git(repo, &["rev-parse", "--verify", "--quiet", "HEAD"]).ok()
}

/// The commit's subject line.
pub(crate) fn subject(repo: &Path, commit: &str) -> Option<String> {
    git(repo, &["log", "-1", "--format=%s", commit]).ok()
}

/// The commits after `good` up to and including `bad`, oldest first, along
/// first parents only (a merged branch counts as its merge commit, as
/// `git bisect --first-parent` does). `good` must be an ancestor of `bad`.
pub(crate) fn first_parent_range(repo: &Path, good: &str, bad: &str) -> Result<Vec<String>> {
    // Its status is the answer (1: not an ancestor); git itself ran before this.
    if git(repo, &["merge-base", "--is-ancestor", good, bad]).is_err() {
        bail!("--good {good} is not an ancestor of --bad {bad}: give an older good commit");
    }
    let list = git(
        repo,
        &["rev-list", "--first-parent", "--reverse", &format!("{good}..{bad}")],
    )?;
    Ok(list.lines().map(str::to_string).collect())
}

/// Checks `commit` out in a new worktree at `path` (detached), forgetting
/// worktrees whose folders were deleted first (a cache emptied by hand).
pub(crate) fn add_worktree(repo: &Path, path: &Path, commit: &str) -> Result<()> {
    let _ = git(repo, &["worktree", "prune"]);
    let path = path.to_str().context("the cache folder's path is not UTF-8")?;
    git(repo, &["worktree", "add", "--detach", "--force", path, commit])
        .with_context(|| format!("cannot check {commit} out in {path}"))?;
    Ok(())
}

/// Removes the worktree at `path` (a failed build's, before trying again).
pub(crate) fn remove_worktree(repo: &Path, path: &Path) {
    if let Some(p) = path.to_str() {
        let _ = git(repo, &["worktree", "remove", "--force", p]);
    }
    let _ = std::fs::remove_dir_all(path);
    let _ = git(repo, &["worktree", "prune"]);
}

/// The shortest unambiguous abbreviation of `commit` (at least 7 digits).
pub(crate) fn short(repo: &Path, commit: &str) -> String {
    git(repo, &["rev-parse", "--short", commit]).unwrap_or_else(|_| commit.chars().take(10).collect())
}
