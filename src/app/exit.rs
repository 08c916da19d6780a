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
/// `versus diff --fail-above`: a cell got slower by more than the threshold;
/// `versus run --rev … --fail-above`: a later revision is slower than the first;
/// `versus trend`: the newest run starts a regression;
/// `versus site --regressions`: some suite's newest run is slower than the run before.
pub const REGRESSION: u8 = 4;
/// `versus merge --partial`: merged, but some groups of the plan are missing.
pub const PARTIAL: u8 = 5;
/// `versus bisect`: no single first bad commit (no regression between the
/// ends, or the culprit is among commits that could not be built).
pub const INCONCLUSIVE: u8 = 6;
/// Interrupted by Ctrl-C (SIGINT); while measuring, results of the finished
/// cells are written, after it versus ends at once (`exec::interrupt`).
/// TERM and HUP are handled alike and exit with 128 + their number (143, 129).
pub const INTERRUPTED: u8 = 130;

/// The table printed at the end of `--help`.
pub const HELP: &str = "\
Exit status:
  0    every cell finished ok (or was skipped by the suite)
  1    bad input (suite file, flag value, missing program) or a harness error
  2    usage error (unknown flag, missing argument)
  3    finished, but some cells failed, timed out, ran out of memory or gave wrong output
  4    versus diff --fail-above: a cell got slower by more than the threshold (run and exec
       with --rev: a later revision than the first); versus trend: the newest run starts a regression;
       versus site --regressions: some suite's newest run is slower than the run before
  5    versus merge --partial: merged, but some groups of the plan are missing
  6    versus bisect: no single first bad commit (no regression, or only unbuildable candidates)
  130  interrupted by Ctrl-C; 143 by TERM, 129 by HUP; while measuring, the results of finished
       cells are written; after it (analysing, writing) versus ends at once, the journal keeps them";

/// `versus site`'s own statuses, for its `--help`.
pub const SITE_HELP: &str = "\
Exit status: 0 written (and, with --regressions, no suite's newest run is slower than the run \
before); 1 bad input (unreadable store, a folder that cannot be written); 4 with --regressions: \
some suite's newest run is slower than the run before in some cell (CI can gate on it).";

/// `versus merge`'s own statuses, for its `--help`.
pub const MERGE_HELP: &str = "\
Exit status: 0 merged, every cell ok; 1 refused (unreadable pieces, pieces of another suite \
or plan, a group held by two pieces, groups missing without --partial); 3 merged, but some \
cells are not ok; 5 merged with --partial and some groups are missing.";

/// The status of a finished (or interrupted) run.
pub fn of_run(results: &Results, end: &End) -> ExitCode {
    ExitCode::from(status_of_run(results, end))
}

/// The status of a run as a number (the history store records it).
pub fn status_of_run(results: &Results, end: &End) -> u8 {
    if *end == End::Interrupted {
        return crate::exec::interrupt::signal().map_or(INTERRUPTED, |s| 128 + s as u8);
    }
    if results.cells.iter().any(|c| c.outcome.is_failure()) {
        NOT_OK
    } else {
        OK
    }
}
