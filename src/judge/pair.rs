//! The one entry for comparing two cells of a run: the tables, the overall
//! table, the findings, revisions and bisect all ask here, so one pair of
//! cells gets one verdict wherever it is shown. One rule decides whether
//! run i of each is paired with run i of the other (`pairable`); the
//! metric is judged by its own band (`counts`); and in time the carry-over
//! rule can withhold the verdict (`withhold`) and the machine's other work
//! can widen it (`contention`). Two runs of one cell (change
//! since the last run, `versus diff`) are judged by `change`, not here.

use super::carryover::taken_in_turns;
use super::counts::compare_in;
use super::withhold;
use crate::base::metric::Metric;
use crate::results::{AnalysisSettings, Cell, Comparison};

/// A comparison and whether a carry-over withheld its verdict.
pub(crate) struct Judged {
    pub comparison: Comparison,
    pub withheld: bool,
}

/// Whether run i of `a` and run i of `b` were taken side by side: one
/// machine measured both, and their runs took turns (not each cell's runs
/// in a block of its own, hyperfine's order, where pairs share no moment).
pub(super) fn pairable(a: &Cell, b: &Cell) -> bool {
    a.machine == b.machine && taken_in_turns(a, b)
}

/// `cell` against `base` in `metric`, paired where `pairable`; `None` when
/// either has no figure of the metric.
pub(crate) fn judge_pair(metric: Metric, cell: &Cell, base: &Cell, settings: &AnalysisSettings) -> Option<Judged> {
    let mut comparison = compare_in(metric, cell, base, pairable(cell, base), settings)?;
    // A carry-over is found in time: its comparisons in time are called
    // only where all of it could not change the verdict.
    let withheld = metric == Metric::Wall && withhold::judge(&mut comparison, cell, base, settings);
    // Other work on the machine could have moved a comparison of programs
    // that use different numbers of cores: its interval is widened by it.
    if metric == Metric::Wall && !withheld {
        let band = (1.0 + super::compare::noise_band(cell, base, settings)).ln();
        super::contention::apply(&mut comparison, cell, base, band, settings);
    }
    Some(Judged { comparison, withheld })
}
