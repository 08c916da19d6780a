//! What a run records besides its results: the git state of the suite's
//! repository (commit, branch, uncommitted changes), so that a trend can be
//! read against commits.
//! git is asked, never required: outside a repository, or without git, the
//! fields stay empty.

use std::path::Path;

use super::Git;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    crate::environment::git::run(dir, args).ok()
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
