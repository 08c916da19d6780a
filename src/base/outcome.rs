//! The one closed set of cell outcomes. Every layer (runner, results file,
//! reports, exit code) uses this type, and tests match on it, never on text.
//! Beside it, whose failure a failed cell was (`HarnessFault`): the code
//! under test's, or versus's own, which `--resume` measures again.

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

/// Why a cell that did not end ok failed through no fault of the code under
/// test: versus's own machinery was short of something it needed. The cell
/// keeps its outcome (`failed`), and `--resume` measures it again; a cell
/// without a fault failed for its own reasons (or was written before versus
/// told the two apart).
///
/// Classified where the error happens, never from message text: the
/// executor's spawn or stream set-up failing with an errno that names the
/// system's resources, or the disk under the run's capture files found full
/// when the run failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HarnessFault {
    /// The disk holding versus's output folder (where each run's output and
    /// standard error are captured) had no space left.
    OutputFull,
    /// versus could not start the run (or its worker): the system refused it
    /// a process, memory or a file descriptor.
    CannotStart,
    /// A kind written by a later versus; still versus's own, still measured again.
    #[serde(other)]
    Other,
}

impl HarnessFault {
    /// What the failure was, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            HarnessFault::OutputFull => "versus's output folder was full",
            HarnessFault::CannotStart => "versus could not start the run",
            HarnessFault::Other => "a failure of versus's own",
        }
    }

    /// The fault an error from the operating system names, if it is one of
    /// the harness's: out of processes, memory or file descriptors (EAGAIN,
    /// ENOMEM, EMFILE, ENFILE), or out of disk (ENOSPC, EDQUOT). A missing
    /// or non-executable program is the suite's and gives `None`.
    pub fn of_io(e: &std::io::Error) -> Option<HarnessFault> {
        match e.raw_os_error()? {
            libc::EAGAIN | libc::ENOMEM | libc::EMFILE | libc::ENFILE => Some(HarnessFault::CannotStart),
            libc::ENOSPC | libc::EDQUOT => Some(HarnessFault::OutputFull),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_systems_resources_are_the_harnesss_fault() {
        let os = std::io::Error::from_raw_os_error;
        assert_eq!(HarnessFault::of_io(&os(libc::EAGAIN)), Some(HarnessFault::CannotStart));
        assert_eq!(HarnessFault::of_io(&os(libc::EMFILE)), Some(HarnessFault::CannotStart));
        assert_eq!(HarnessFault::of_io(&os(libc::ENOSPC)), Some(HarnessFault::OutputFull));
        assert_eq!(HarnessFault::of_io(&os(libc::ENOENT)), None);
        assert_eq!(HarnessFault::of_io(&os(libc::EACCES)), None);
        assert_eq!(HarnessFault::of_io(&std::io::Error::other("x")), None);
    }

    #[test]
    fn kinds_from_a_later_versus_are_read_as_the_harnesss_own() {
        let f: HarnessFault = serde_json::from_str("\"cache_full\"").unwrap();
        assert_eq!(f, HarnessFault::Other);
        assert_eq!(
            serde_json::to_string(&HarnessFault::OutputFull).unwrap(),
            "\"output_full\""
        );
    }
}
