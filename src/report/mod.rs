//! Reports: turn a finished (or interrupted) `Results` document into text.
//! Reporters only format; they never measure and never compute a statistic.
//! `files` is the one place that writes reports to disk.

pub mod asciidoc;
pub mod axes;
pub mod charts;
pub mod eta;
pub mod export;
pub mod files;
pub mod findings;
pub mod github_action;
pub mod go_bench;
pub mod grid;
pub mod html;
pub mod hyperfine;
pub mod info;
pub mod layout;
pub mod levels;
pub mod markdown;
pub mod method;
pub mod notes;
pub mod overall;
pub mod paired;
pub mod pieces;
pub mod pr_comment;
pub mod pyperf;
pub mod record;
pub mod revisions;
pub mod services;
pub mod since;
pub mod tables;
pub mod terminal;
pub mod trend;

use crate::results::{Metric, Results};

/// The document in each metric other than wall time that it measured
/// (`results::metric::view`), for the sections reports add beside time's.
pub fn metric_views(results: &Results) -> Vec<(Metric, Results)> {
    crate::results::metric::measured(results)
        .into_iter()
        .filter(|m| *m != Metric::Wall)
        .map(|m| (m, crate::results::metric::view(results, m)))
        .collect()
}
