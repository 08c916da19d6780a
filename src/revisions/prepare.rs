//! Before a run: every checkout and build the plan needs, each done once
//! however many columns share it (two implementations with the same
//! repository, build command and commit share one). A build that fails
//! marks its columns broken, so their cells end `failed` with the message
//! that names the log, and the rest of the run goes on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::cache::{self, Done, Job};
use super::expand::own_scope;
use super::git;
use crate::plan::Plan;
use crate::results::{BuildRecord, RevisionColumn};
use crate::suite::{Implementation, Suite};

/// A build, known by its checkout and command, and how it went (with its log).
type Builds = HashMap<(PathBuf, Option<Vec<String>>), (Done, PathBuf)>;

/// The job that makes `imp`'s checkout ready; `logs` holds the logs of
/// builds in the work tree (a revision's log lives in its cache entry).
fn job(imp: &Implementation, logs: &Path) -> Option<Result<Job, String>> {
    let build = imp.build.as_ref()?;
    let checkout = PathBuf::from(imp.vars.iter().find(|(k, _)| k == "checkout")?.1.clone());
    let argv = match &build.command {
        Some(cmd) => match own_scope(imp).command(cmd) {
            Ok(argv) => Some(argv),
            Err(e) => return Some(Err(format!("implementations.{}.build: {e}", imp.declared))),
        },
        None => None,
    };
    let (commit, log, what) = match &imp.revision {
        Some(tag) => (
            Some(tag.commit.clone()),
            checkout.parent().unwrap_or(&checkout).join("build.log"),
            format!("{} at {} ({})", tag.of, tag.label, git::short(&build.repo, &tag.commit)),
        ),
        None => (
            None,
            logs.join(format!("{}.log", imp.name)),
            format!("{} in its work tree", imp.name),
        ),
    };
    Some(Ok(Job {
        repo: build.repo.clone(),
        commit,
        checkout,
        argv,
        env: imp.env.clone(),
        log,
        what,
    }))
}

/// Checks out and builds what the plan measures; a failure marks the
/// implementation `broken` with its message. Returns each column built at
/// a revision, with how its build went, for the results.
pub(crate) fn prepare(suite: &mut Suite, plan: &Plan, logs: &Path, say: &mut dyn FnMut(&str)) -> Vec<RevisionColumn> {
    let planned = |i: usize| plan.groups.iter().any(|g| g.implementations.contains(&i));
    let mut done: Builds = HashMap::new();
    let mut columns = Vec::new();
    for i in 0..suite.implementations.len() {
        if !planned(i) {
            continue;
        }
        let imp = &suite.implementations[i];
        let Some(job) = job(imp, logs) else { continue };
        let (outcome, log) = match job {
            Ok(job) => {
                let key = (job.checkout.clone(), job.argv.clone());
                done.entry(key)
                    .or_insert_with(|| (cache::prepare(&job, say), job.log.clone()))
                    .clone()
            }
            Err(message) => (
                Done {
                    status: crate::results::BuildStatus::Failed,
                    seconds: None,
                    message: Some(message),
                },
                PathBuf::new(),
            ),
        };
        if let Some(tag) = &imp.revision {
            let repo = imp.build.as_ref().map(|b| b.repo.clone()).unwrap_or_default();
            columns.push(RevisionColumn {
                implementation: imp.name.clone(),
                of: tag.of.clone(),
                revision: tag.label.clone(),
                commit: tag.commit.clone(),
                subject: git::subject(&repo, &tag.commit),
                build: BuildRecord {
                    status: outcome.status,
                    log: (log.is_file()).then(|| log.display().to_string()),
                    seconds: outcome.seconds,
                    message: outcome.message.clone(),
                },
            });
        }
        if let Some(m) = outcome.message {
            suite.implementations[i].broken = Some(m);
        }
    }
    columns
}
