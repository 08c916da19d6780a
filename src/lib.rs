//! versus as a library: each layer usable on its own. The binary (`main.rs`)
//! is glue over `app`.
//!
//! Layers flow one way: `suite` (file → validated model) → `plan` (matrix →
//! groups of cells) → `runner` + `exec` (processes → samples) → `stats`
//! (pure statistics) → `judge` (the one rule of every verdict: intervals
//! over runs and segments, three answers, run-to-run noise) → `analysis`
//! (each cell's statistics, comparisons, warnings) → `overall` (the suite
//! at a glance) and `findings` (the takeaways: winners, crossovers, costs,
//! memory, warm-up, drift) → `report` (text).
//! `session` drives one run of a plan through those layers; `app` turns
//! flags into a session and its results into outputs. `revisions` makes an
//! implementation one column per git revision (checked out and built before
//! the session) and judges the later revisions against the first;
//! `bisect` searches a commit range with such runs.

#![warn(clippy::too_many_lines)]

// versus measures with Linux interfaces (pidfd, wait4 rusage of a process
// group, cgroups, /proc); elsewhere it would build and then mis-measure.
#[cfg(not(target_os = "linux"))]
compile_error!(
    "versus runs on Linux only: it measures runs with pidfd, cgroups and /proc. Build and run it on Linux (a container or VM works)."
);

pub mod analysis;
pub mod app;
pub mod bisect;
pub mod cli;
pub mod diff;
pub mod environment;
pub mod exec;
pub mod exit;
pub mod findings;
pub mod history;
pub mod import;
pub mod judge;
pub mod merge;
pub mod outcome;
pub mod overall;
pub mod payload;
pub mod placeholder;
pub mod plan;
pub mod report;
pub mod results;
pub mod revisions;
pub mod runner;
pub mod session;
pub mod stats;
pub mod suite;
pub mod trend;
pub mod units;
pub mod worker;
