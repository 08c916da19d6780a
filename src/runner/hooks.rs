//! Untimed commands around a cell and around each of its runs: an
//! implementation's `cell_setup` and `cell_teardown` (hyperfine's `--setup`
//! and `--cleanup`) and its `prepare` and `conclude` (hyperfine's
//! `--prepare` and `--conclude`). They are rendered once per cell with the
//! cell's placeholders, and a failing one is reported as a message that the
//! caller turns into the cell's `failed` outcome.

use std::path::Path;
use std::time::Duration;

use super::failure::{Failure, describe, harness_fault};
use crate::base::placeholder::{CommandTemplate, Scope};
use crate::exec::tail;
use crate::exec::{Executor, Exit, RunRequest};
use crate::suite::Implementation;

/// One cell's hooks, ready to run.
#[derive(Debug, Default)]
pub(super) struct Hooks {
    pub setup: Vec<RunRequest>,
    pub teardown: Vec<RunRequest>,
    pub prepare: Vec<RunRequest>,
    pub conclude: Vec<RunRequest>,
}

impl Hooks {
    /// Renders `imp`'s hooks for one cell; their standard error goes to `dir/hook.stderr`.
    pub(super) fn render(
        imp: &Implementation,
        scope: &Scope,
        cwd: &Path,
        dir: &Path,
        timeout: Duration,
    ) -> Result<Hooks, String> {
        let requests = |cmds: &[CommandTemplate]| -> Result<Vec<RunRequest>, String> {
            cmds.iter()
                .map(|c| {
                    Ok(RunRequest {
                        argv: scope.command(c).map_err(|e| e.to_string())?,
                        cwd: Some(cwd.to_path_buf()),
                        env: imp.env.clone(),
                        stderr: Some(dir.join("hook.stderr")),
                        timeout,
                        ..Default::default()
                    })
                })
                .collect()
        };
        Ok(Hooks {
            setup: requests(&imp.cell_setup)?,
            teardown: requests(&imp.cell_teardown)?,
            prepare: requests(&imp.prepare)?,
            conclude: requests(&imp.conclude)?,
        })
    }
}

/// Runs `requests` in order; the first that does not exit 0 stops them,
/// described, with whose fault it was.
pub(super) fn run_all(exec: &mut dyn Executor, what: &str, requests: &[RunRequest]) -> Result<(), Failure> {
    for req in requests {
        let r = exec.run(req);
        if r.exit != Exit::Code(0) {
            let stderr = req.stderr.as_deref().map(|p| tail(p, 1000)).unwrap_or_default();
            return Err(Failure {
                message: format!(
                    "{what} command `{}`: {}; {stderr}",
                    req.argv.join(" "),
                    describe(&r.exit, 0).1
                ),
                fault: harness_fault(&r.exit, req.stderr.as_deref().and_then(Path::parent)),
            });
        }
    }
    Ok(())
}
