//! Reports: turn a finished (or interrupted) `Results` document into text.
//! Reporters only format; they never measure and never compute a statistic:
//! `tests/layers.rs` refuses any path from here into `judge`, `analysis`
//! or `stats`, so every figure shown is one the document holds.
//! `files` is the one place that writes reports to disk. What needs more
//! than one run (the site, `versus trend`'s pages, `versus diff`'s table)
//! is drawn in `history`, with these pieces.

pub mod charts;
pub mod files;
pub mod formats;
pub mod sections;
pub mod tables;

use crate::base::metric::Metric;
use crate::results::Results;

/// The document in each metric other than wall time that it measured
/// (`results::metric::view`), for the sections reports add beside time's.
pub fn metric_views(results: &Results) -> Vec<(Metric, Results)> {
    crate::results::metric::measured(results)
        .into_iter()
        .filter(|m| *m != Metric::Wall)
        .map(|m| (m, crate::results::metric::view(results, m)))
        .collect()
}
