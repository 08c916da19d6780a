//! Reports: turn a finished (or interrupted) `Results` document into text.
//! Reporters only format; they never measure and never compute a statistic:
//! `tests/layers.rs` refuses any path from here into `judge`, `analysis`
//! or `stats`, so every figure shown is one the document holds.
//! `files` is the one place that writes reports to disk. What needs more
//! than one run (the site, `versus trend`'s pages, `versus diff`'s table)
//! is drawn in `history`, with these pieces.

mod charts;
mod files;
pub mod formats;
mod sections;
mod tables;

pub use sections::revisions::tables as revision_tables;

pub(crate) use files::{Outputs, write, write_file};
pub(crate) use tables::{Table, TableKind};

// What the across-runs wing shows in the words of a run's report.
pub(crate) use sections::revisions::{pct, verdict_word as revision_verdict_word};
pub(crate) use sections::since as since_words;

#[cfg(test)]
pub(crate) use sections::method::method_sentence;

use crate::base::metric::Metric;
use crate::results::Results;

/// The document in each metric other than wall time that it measured
/// (`results::metric::view`), for the sections reports add beside time's.
pub fn metric_views(results: &Results) -> Vec<(Metric, Results)> {
    crate::results::measured(results)
        .into_iter()
        .filter(|m| *m != Metric::Wall)
        .map(|m| (m, crate::results::view(results, m)))
        .collect()
}
