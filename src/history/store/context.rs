//! What a run records besides its results: the git state of the suite's
//! repository (commit, branch, uncommitted changes), so that a trend can be
//! read against commits.
//! git is asked, never required: outside a repository, or without git, the
//! fields stay empty.

use std::path::Path;

use super::Git;
use crate::results::GitState;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    crate::environment::run_git(dir, args).ok()
}

/// The git state of the repository holding `dir`; all `None` outside one.
/// `known` is the state the run's document already read when it started
/// (`results.suite.git`, `environment::git::of_folder`): its commit and
/// changes are taken as they are, and git is asked only for the branch.
pub(crate) fn git_state(dir: &Path, known: Option<&GitState>) -> Git {
    let (commit, dirty) = match known {
        Some(k) => (k.commit.clone(), Some(k.dirty)),
        None => {
            let Some(commit) = git(dir, &["rev-parse", "HEAD"]) else {
                return Git::default();
            };
            let dirty = git(dir, &["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty());
            (commit, dirty)
        }
    };
    Git {
        commit: Some(commit),
        branch: git(dir, &["rev-parse", "--abbrev-ref", "HEAD"]).filter(|b| b != "HEAD"),
        dirty,
    }
}
