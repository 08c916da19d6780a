//! The results document of a run: its header (suite, command line,
//! environment, each implementation's version and artifact) made before the
//! first cell, and its cells kept in plan order as they come in.

use std::fs;
use std::path::Path;

use indexmap::IndexMap;

use crate::environment;
use crate::plan::{Plan, cell_id};
use crate::results::{
    self, AnalysisSettings, Artifact, Cell, Environment, ImplementationInfo, Results, RunStatus, SuiteInfo,
};
use crate::runner::implementation_scope;
use crate::suite::Suite;

/// A new document for a run of `suite` that starts now, with no cells yet.
pub(super) fn start(suite: &Suite, environment: Environment, noise: f64) -> Results {
    Results {
        schema_version: results::SCHEMA_VERSION,
        suite: SuiteInfo {
            name: suite.name.clone(),
            description: suite.description.clone(),
            file: Some(suite.path.display().to_string()).filter(|p| !p.is_empty()),
            baseline: suite.baseline.clone(),
            command: command_line(),
            hash: Some(&suite.path)
                .filter(|p| !p.as_os_str().is_empty())
                .and_then(|p| environment::file_sha256(p)),
            // `exec` has no suite file, and no repository of its own.
            git: Some(&suite.path)
                .filter(|p| !p.as_os_str().is_empty())
                .and_then(|_| environment::git_of_folder(&suite.dir)),
            implementations: if suite.path.as_os_str().is_empty() {
                vec![]
            } else {
                suite.implementations.iter().map(|i| i.name.clone()).collect()
            },
            labels: suite.labels.clone(),
            report: suite.report.clone(),
        },
        started_at: results::now_rfc3339(),
        finished_at: None,
        status: RunStatus::Running,
        environment,
        design: None,
        analysis: AnalysisSettings {
            noise,
            ..Default::default()
        },
        matrix: suite.matrix.clone(),
        operations: suite.operations.iter().map(|o| o.name.clone()).collect(),
        cells: vec![],
        ..Default::default()
    }
}

/// Each implementation's version (its `version` command's first line) and
/// artifact (a file whose size the report shows).
pub(super) fn implementations(
    suite: &Suite,
    plan: &crate::plan::Plan,
    tmp: &Path,
) -> IndexMap<String, ImplementationInfo> {
    let mut out = IndexMap::new();
    // Only those the plan runs (or reports skipped): `--only` narrows the table too.
    let planned = |i: usize| {
        plan.groups
            .iter()
            .any(|g| g.implementations.contains(&i) || g.skipped.iter().any(|(s, _)| *s == i))
    };
    for (_, imp) in suite.implementations.iter().enumerate().filter(|(i, _)| planned(*i)) {
        let scope = implementation_scope(imp, tmp);
        let cwd = imp.cwd.as_deref().unwrap_or(&suite.dir);
        let version = imp.version.as_ref().map(|v| {
            let argv = scope.command(v).unwrap_or_default();
            environment::version_of(&argv, cwd, &imp.env)
        });
        let artifact = imp.artifact.as_ref().map(|a| {
            let path = scope.text(a).unwrap_or_default();
            let bytes = fs::metadata(cwd.join(&path)).ok().map(|m| m.len());
            Artifact { path, bytes }
        });
        out.insert(
            imp.name.clone(),
            ImplementationInfo {
                version,
                note: imp.note.clone(),
                artifact,
            },
        );
    }
    out
}

/// Each running service as the report shows it: its command, port, log,
/// and version (its `version` command's first line).
pub(super) fn services(
    suite: &Suite,
    running: &crate::exec::Services,
    ports: &[(String, u16)],
    tmp: &Path,
) -> IndexMap<String, crate::results::ServiceInfo> {
    let scope = crate::runner::suite_scope(tmp).with_all(ports.iter().map(|(n, p)| (format!("{n}.port"), p)));
    running
        .described()
        .into_iter()
        .map(|(name, command, log)| {
            let svc = suite.services.iter().find(|s| s.name == name);
            let port = ports.iter().find(|(n, _)| *n == name).map(|(_, p)| *p);
            let version = svc.and_then(|s| s.version.as_ref()).map(|v| {
                let argv = scope
                    .clone()
                    .with("port", port.unwrap_or(0).to_string())
                    .command(v)
                    .unwrap_or_default();
                let cwd = svc.and_then(|s| s.cwd.as_deref()).unwrap_or(&suite.dir);
                environment::version_of(&argv, cwd, &svc.map(|s| s.env.clone()).unwrap_or_default())
            });
            let info = crate::results::ServiceInfo {
                command,
                port,
                version,
                log,
            };
            (name, info)
        })
        .collect()
}

/// The command line that started this run, quoted so it can be pasted
/// back, with any password in it hidden (`base::redact`): the one place a
/// command line is made to be recorded, so no results file, journal, report
/// or store row ever holds the store's password.
pub(crate) fn command_line() -> String {
    std::env::args()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 {
                "versus".to_string()
            } else {
                shell_words::quote(&crate::base::redact::word(&a)).into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Puts cells in plan order (group by group, implementations in suite
/// order), moving them: the map's samples are not copied.
pub(super) fn into_plan_order(suite: &Suite, plan: &Plan, mut cells: IndexMap<String, Cell>) -> Vec<Cell> {
    let mut out = Vec::with_capacity(cells.len());
    for g in &plan.groups {
        let op = &suite.operations[g.operation].name;
        for imp in &suite.implementations {
            if let Some(c) = cells.swap_remove(&cell_id(op, &imp.name, &g.params)) {
                out.push(c);
            }
        }
    }
    out
}
