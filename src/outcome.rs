//! The one closed set of cell outcomes. Every layer (runner, results file,
//! reports, exit code) uses this type, and tests match on it, never on text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a cell (one implementation × operation × parameter set) ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every warm-up and measured run exited as expected and passed its checks.
    Ok,
    /// A run exited with an unexpected status, was killed by a signal, or could not start.
    Failed,
    /// A run exceeded the per-run timeout and was killed.
    Timeout,
    /// A run was killed for exceeding its memory limit.
    OutOfMemory,
    /// A run exited normally but its output failed a check.
    WrongOutput,
    /// The cell was not run: excluded by the suite, or an input it needs was not produced.
    Skipped,
}

impl Outcome {
    /// What a report prints in place of a number.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "FAILED",
            Outcome::Timeout => "TIMEOUT",
            Outcome::OutOfMemory => "OOM",
            Outcome::WrongOutput => "WRONG OUTPUT",
            Outcome::Skipped => "skipped",
        }
    }

    /// Whether this outcome should make the whole run exit with status 3.
    /// A skip is the suite's own choice (or a consequence of another failure,
    /// which is counted there), so it does not.
    pub fn is_failure(self) -> bool {
        !matches!(self, Outcome::Ok | Outcome::Skipped)
    }
}
