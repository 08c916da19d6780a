//! The suite at a glance (`results.overall`): each implementation against
//! one reference over every cell of the suite, computed by `overall` after
//! the comparisons. docs/results-format.md, "Overall", documents it.

use serde::{Deserialize, Serialize};

use super::Verdict;

/// Every implementation against the reference over the suite.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Overall {
    /// The implementation every ratio is against.
    pub reference: String,
    /// Whether the suite (or `--baseline`) names it; otherwise it is the
    /// first implementation that ran, and the tables' own ratios (against
    /// each group's fastest) differ from these.
    pub named: bool,
    /// One per other implementation that ran, in report order.
    pub implementations: Vec<OverallRow>,
    /// Each operation's own means, when some implementation is confirmed
    /// faster in one operation and slower in another (then the whole-suite
    /// mean averages opposite answers); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_operation: Vec<OperationMeans>,
}

/// One operation's rows: each implementation against the reference over that operation's groups.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OperationMeans {
    pub operation: String,
    pub implementations: Vec<OverallRow>,
}

/// One implementation against the reference over the suite's cells.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OverallRow {
    pub implementation: String,
    /// Geometric mean of its time ratios (above 1 is slower) over the
    /// cells in `cells`; null when no cell has an interval.
    pub ratio: Option<f64>,
    /// Its 95% interval: each cell's interval half-widths on the log scale
    /// combined in quadrature, over the count (`judge::overall`).
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// The judge's verdict on the geometric mean (`unknown` without one).
    pub verdict: Verdict,
    /// Cells in the geometric mean: compared with an interval, both sides' runs stable.
    pub cells: usize,
    /// The smallest and largest ratio among them: how far the cells spread.
    pub ratio_min: Option<f64>,
    pub ratio_max: Option<f64>,
    /// Comparisons by verdict, as the tables print them.
    pub faster: usize,
    pub slower: usize,
    pub same: usize,
    pub unknown: usize,
    /// Compared but left out of the mean: no interval (below 6 runs),
    /// unstable runs on either side, or a carry-over that could change the
    /// verdict (its ratio depends on the order the runs were taken in).
    pub no_interval: usize,
    pub unstable: usize,
    #[serde(default)]
    pub carry_over: usize,
    /// Groups where it or the reference did not end ok (or did not run).
    pub not_compared: usize,
}
