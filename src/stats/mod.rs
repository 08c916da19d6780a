//! Statistics: pure functions over samples. Nothing here measures, reads a
//! file or formats text; every input is a slice and every invariant is in a
//! type or a doc comment.
//!
//! - `summary`: mean, median, standard deviation, min, max.
//! - `changepoint`: where a series of per-run medians moved (PELT).
//! - `bootstrap`: seeded percentile-bootstrap intervals of means and of
//!   statistics built from several cells' medians.
//! - `order`: the distribution-free interval of a median from order
//!   statistics, interpolated to its level.
//! - `linear`: straight-line fits weighted for relative error (fixed cost
//!   plus cost per byte across sizes that span decades).
//! - `robust`: median absolute deviation and outliers.
//! - `steady`: where warm-up ends in a series of samples.

pub mod bootstrap;
pub mod changepoint;
pub mod linear;
pub mod order;
pub mod robust;
pub mod steady;
pub mod summary;

pub use summary::{argmin, median, median_of_sorted, summarize, throughput};
