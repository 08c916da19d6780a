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

pub(crate) mod bootstrap;
pub(crate) mod changepoint;
pub(crate) mod linear;
pub(crate) mod order;
pub(crate) mod robust;
pub(crate) mod steady;
pub(crate) mod summary;

pub(crate) use summary::{argmin, median, median_of_sorted, summarize, throughput};
