//! The one entry for comparing two cells: the tables, the overall table,
//! the findings, revisions and bisect all ask here, so one pair of cells
//! gets one verdict wherever it is shown. It pairs the runs or not
//! (`compare`), judges the metric by its own band (`counts`), and applies
//! the carry-over rule that can withhold a verdict (`withhold`, in time).

use super::counts::compare_in;
use super::withhold;
use crate::base::metric::Metric;
use crate::results::{AnalysisSettings, Cell, Comparison};

/// A comparison and whether a carry-over withheld its verdict.
pub struct Judged {
    pub comparison: Comparison,
    pub withheld: bool,
}

/// `cell` against `base` in `metric`, run i of each paired when `paired`;
/// `None` when either has no figure of the metric.
pub fn judge_pair(
    metric: Metric,
    cell: &Cell,
    base: &Cell,
    paired: bool,
    settings: &AnalysisSettings,
) -> Option<Judged> {
    let mut comparison = compare_in(metric, cell, base, paired, settings)?;
    // A carry-over is found in time: its comparisons in time are called
    // only where all of it could not change the verdict.
    let withheld = metric == Metric::Wall && withhold::judge(&mut comparison, cell, base, settings);
    Some(Judged { comparison, withheld })
}
