//! versus's exit statuses, in one place: `--help`, the README and every
//! subcommand use these.

use std::process::ExitCode;

use crate::results::Results;
use crate::runner::End;

/// Every cell finished ok (or was skipped by the suite).
pub const OK: u8 = 0;
/// Bad input (suite file, flag value, missing program) or a harness error.
pub const ERROR: u8 = 1;
/// Usage error (unknown flag, missing argument): clap's own status.
pub const USAGE: u8 = 2;
/// Finished, but some cells failed, timed out, ran out of memory or gave wrong output.
pub const NOT_OK: u8 = 3;
/// `versus diff --fail-above`: a cell got slower by more than the threshold.
pub const REGRESSION: u8 = 4;
/// `versus merge --partial`: merged, but some groups of the plan are missing.
pub const PARTIAL: u8 = 5;
/// Interrupted (Ctrl-C); results of the finished cells are written.
pub const INTERRUPTED: u8 = 130;

/// The table printed at the end of `--help`.
pub const HELP: &str = "\
Exit status:
  0    every cell finished ok (or was skipped by the suite)
  1    bad input (suite file, flag value, missing program) or a harness error
  2    usage error (unknown flag, missing argument)
  3    finished, but some cells failed, timed out, ran out of memory or gave wrong output
  4    versus diff --fail-above: a cell got slower by more than the threshold
  5    versus merge --partial: merged, but some groups of the plan are missing
  130  interrupted (Ctrl-C); the results of finished cells are written";

/// `versus merge`'s own statuses, for its `--help`.
pub const MERGE_HELP: &str = "\
Exit status: 0 merged, every cell ok; 1 refused (unreadable pieces, pieces of another suite \
or plan, a group held by two pieces, groups missing without --partial); 3 merged, but some \
cells are not ok; 5 merged with --partial and some groups are missing.";

/// The status of a finished (or interrupted) run.
pub fn of_run(results: &Results, end: &End) -> ExitCode {
    if *end == End::Interrupted {
        return ExitCode::from(INTERRUPTED);
    }
    if results.cells.iter().any(|c| c.outcome.is_failure()) {
        ExitCode::from(NOT_OK)
    } else {
        ExitCode::from(OK)
    }
}
