//! `--rev` in `run` and `exec`: the suite's implementations made columns
//! per revision before the plan, the checkouts built before the session
//! (said on standard error as they go), and after the run the
//! pull-request summary and the `--fail-above` gate.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::app::cli::RevisionArgs;
use crate::app::exit;
use crate::plan::Plan;
use crate::results::{Results, RevisionInfo, Revisions};
use crate::revisions;
use crate::suite::Suite;

/// Each implementation built from a repository becomes its columns at the
/// revisions asked for (or its work tree, without `--rev`).
pub(super) fn expand(suite: &mut Suite, args: &RevisionArgs) -> Result<Vec<RevisionInfo>> {
    revisions::expand(suite, &args.rev, &crate::payload::cache_dir())
}

/// Checks out and builds what the plan measures; a failed build is said
/// here and becomes its cells' outcome. `logs` holds work-tree build logs.
pub(super) fn build(
    suite: &mut Suite,
    plan: &Plan,
    infos: Vec<RevisionInfo>,
    logs: &Path,
    quiet: bool,
) -> Option<Revisions> {
    let mut say = |text: &str| {
        if !quiet {
            tell!("{text} …");
        }
    };
    let columns = revisions::prepare(suite, plan, logs, &mut say);
    let mut said: Vec<String> = Vec::new();
    for imp in &suite.implementations {
        if let Some(why) = imp.broken.as_ref().filter(|w| !said.contains(w)) {
            tell!("warning: {why}; the cells of {} are `failed`", imp.name);
            said.push(why.clone());
        }
    }
    (!infos.is_empty()).then(|| Revisions {
        revisions: infos,
        columns,
        comparisons: vec![],
    })
}

/// After the run: writes `--pr-comment`, and turns `status` into
/// `exit::REGRESSION` when `--fail-above` finds a column that got slower.
/// An interrupted run keeps its status.
pub(super) fn finish(results: &Results, args: &RevisionArgs, status: u8, interrupted: bool) -> Result<u8> {
    if let Some(path) = &args.pr_comment {
        let text = crate::report::formats::pr_comment::render(results, args.report_url.as_deref());
        fs::write(path, text).with_context(|| format!("--pr-comment: cannot write {}", path.display()))?;
    }
    let Some(threshold) = args.fail_above.filter(|_| !interrupted) else {
        return Ok(status);
    };
    let bad = crate::analysis::regressions(results, threshold);
    if bad.is_empty() {
        return Ok(status);
    }
    tell!(
        "{} cell(s) slower than at {} by more than {:.1}%: {}",
        bad.len(),
        results
            .revisions
            .as_ref()
            .and_then(|r| r.revisions.first())
            .map_or("the first revision", |r| r.label.as_str()),
        threshold * 100.0,
        bad.iter()
            .map(|c| format!(
                "{} ({:+.1}%)",
                crate::plan::cell_id(&c.operation, &c.implementation, &c.params),
                (c.ratio - 1.0) * 100.0
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(exit::REGRESSION)
}
