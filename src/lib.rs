//! versus as a library: each layer usable on its own. The binary (`main.rs`)
//! is glue over `app`.
//!
//! The modules stand on floors, and a module uses only those on floors
//! below its own (`tests/layers.rs` holds the table and fails on an edge
//! it does not allow). A sample travels up: `exec` and `runner` measure
//! it, `results` records it, `analysis` concludes from it through the one
//! `judge`, and `report` writes what was concluded; `history`, above
//! them all, keeps runs and says what only several runs can.

#![warn(clippy::too_many_lines)]
#![warn(unreachable_pub)]

// versus measures with Linux interfaces (pidfd, wait4 rusage of a process
// group, cgroups, /proc); elsewhere it would build and then mis-measure.
#[cfg(not(target_os = "linux"))]
compile_error!(
    "versus runs on Linux only: it measures runs with pidfd, cgroups and /proc. Build and run it on Linux (a container or VM works)."
);

/// `eprintln!` through the terminal's sink (`base::sink::terminal`): a
/// name or message from a suite, a results file or a program's output is
/// shown, never obeyed, by the terminal.
macro_rules! tell {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::base::sink::terminal(&format!($($arg)*)))
    };
}

// Ground floor: shared nouns and pure statistics; they import nothing from the crate.
pub mod base; // units, placeholders, outcomes, parameter sets, metrics, run order, figures in words
pub(crate) mod stats; // pure statistics over slices: summaries, intervals, bootstrap, change points

// The document every later layer reads and writes.
pub mod results; // the versioned results document and every type it serialises

// Inputs, the machine, and the judge.
pub(crate) mod environment; // what the machine says of itself: CPU, load, git state
pub(crate) mod judge; // the one rule of every verdict: pairing, intervals, carry-over, three answers
pub(crate) mod payload; // the payload bytes a suite asks for
pub mod suite; // the suite file → a validated model

// Processes and plans.
pub mod exec; // starting and measuring processes, services, counters, the orphan guard
pub(crate) mod plan; // the parameter matrix → groups of cells; shards
pub mod worker; // the in-process worker protocol

// Measuring and concluding.
pub mod analysis; // the one analysis stage: statistics, comparisons, overall, findings, revisions
pub(crate) mod runner; // rounds of runs, output checks, in-process and counted runs

// Making documents.
pub(crate) mod import; // other harnesses' files → a results document
pub(crate) mod merge; // a sharded run's pieces → one document
pub(crate) mod revisions; // implementations as columns per git revision, checked out and built
pub mod session; // one run of a plan: journal, resume, the document

// Writing them.
pub mod report; // the table model, sections, formats and charts; never computes a statistic

// Across runs: what needs more than one run.
pub mod history; // the store, the run-to-run judge, diff, since, trend, the site, bisect

// Glue.
pub mod app; // flags → sessions → outputs, one file per subcommand; the CLI and exit statuses
