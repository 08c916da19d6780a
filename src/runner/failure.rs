//! Why a run failed and whose fault it was: the code under test's (its
//! exit status, a signal, a timeout) or versus's own (a full disk, a
//! process the system would not give it), which `--resume` measures again.

use std::path::Path;

use crate::base::outcome::{HarnessFault, Outcome};
use crate::exec::Exit;
use crate::payload;

/// Free space under which a disk is reported as full.
const FULL_DISK: u64 = 64 * 1024;

/// Why something a cell needed went wrong, and whether that was versus's
/// own fault (see `HarnessFault`) rather than the code under test's.
#[derive(Debug)]
pub(super) struct Failure {
    pub message: String,
    pub fault: Option<HarnessFault>,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { message, fault: None }
    }
}

/// Whether the disk holding `dir` has (almost) no space left.
pub(super) fn disk_full(dir: &Path) -> bool {
    payload::free_space(dir).is_some_and(|free| free < FULL_DISK)
}

/// Whose fault a run that did not end as expected was: versus's own when it
/// could not start the run, or when the run failed and the disk under its
/// capture files (`capture_dir`, in versus's output folder) is full — a full
/// disk also swallows the stderr that would have said so. Else the program's.
pub(super) fn harness_fault(exit: &Exit, capture_dir: Option<&Path>) -> Option<HarnessFault> {
    match exit {
        Exit::HarnessError(fault, _) => Some(*fault),
        // A timeout or an out-of-memory kill is the program's, full disk or
        // not; a program that could not start was classified by its spawn.
        Exit::Timeout | Exit::OutOfMemory | Exit::SpawnError(_) => None,
        Exit::Code(_) | Exit::Signal(_) => capture_dir.filter(|d| disk_full(d)).map(|_| HarnessFault::OutputFull),
    }
}

/// Describes a run that did not end as expected.
pub(super) fn describe(exit: &Exit, expected: i32) -> (Outcome, String) {
    match exit {
        Exit::Code(c) => (Outcome::Failed, format!("exited with status {c} (expected {expected})")),
        Exit::Signal(s) => {
            let hint = if *s == libc::SIGKILL {
                " (possibly the kernel's out-of-memory killer)"
            } else {
                ""
            };
            (Outcome::Failed, format!("killed by signal {s}{hint}"))
        }
        Exit::Timeout => (Outcome::Timeout, "exceeded the per-run timeout and was killed".into()),
        Exit::OutOfMemory => (Outcome::OutOfMemory, "killed for exceeding its memory limit".into()),
        Exit::SpawnError(m) => (Outcome::Failed, format!("could not start: {m}")),
        Exit::HarnessError(fault, m) => (Outcome::Failed, format!("could not start: {m} ({})", fault.describe())),
    }
}
