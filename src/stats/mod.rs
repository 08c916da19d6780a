//! Statistics: pure functions over samples. Nothing here measures, reads a
//! file or formats text; every input is a slice and every invariant is in a
//! type or a doc comment.
//!
//! - `summary`: mean, median, standard deviation, min, max.
//! - `changepoint`: where a series of per-run medians moved (PELT).
//! - `bootstrap`: seeded percentile-bootstrap intervals, including the ratio
//!   of medians over *paired* runs.
//! - `hypothesis`: Wilcoxon signed-rank (paired) and Mann-Whitney U (unpaired).
//! - `linear`: straight-line fits weighted for relative error (fixed cost
//!   plus cost per byte across sizes that span decades).
//! - `robust`: median absolute deviation and outliers.
//! - `steady`: where warm-up ends in a series of samples.

pub mod bootstrap;
pub mod changepoint;
pub mod hypothesis;
pub mod linear;
pub mod robust;
pub mod steady;
pub mod summary;

pub use summary::{Summary, argmin, median, median_of_sorted, summarize, throughput};
