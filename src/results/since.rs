//! The change since an earlier run, as a results document records it
//! (`since`): each cell's change, in wall time and each other metric both
//! runs measured, and each group's as a whole. `diff::since` computes it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::Verdict;
use crate::base::metric::Metric;

/// The run a results document is compared with, and each cell's change since it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Since {
    /// The earlier run's id in the history store.
    pub run_id: i64,
    /// How it was chosen: "last run", "baseline NAME" or "run N".
    pub label: String,
    /// When the earlier run started (RFC 3339).
    pub started_at: String,
    /// Set when the earlier run was measured on another machine: its ratios mislead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// What the run-to-run noise the changes were judged against rests on;
    /// absent when no history knew it (only the two runs' own intervals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<String>,
    /// One per cell present in both runs, in this run's cell order.
    pub changes: Vec<Change>,
    /// The same in each other metric both runs measured (`instructions`:
    /// medians are instructions per call).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub metrics: IndexMap<Metric, Vec<Change>>,
    /// Each group's change as a whole, where history has one (wall time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shifts: Vec<Shift>,
    /// The machine's own change, where both runs read versus's speed reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineShift>,
}

impl Since {
    /// The changes in `metric` as the changes of a view in that metric.
    pub fn for_metric(&self, metric: Metric) -> Since {
        let changes = match metric {
            Metric::Wall => self.changes.clone(),
            other => self.metrics.get(&other).cloned().unwrap_or_default(),
        };
        Since {
            changes,
            metrics: IndexMap::new(),
            ..self.clone()
        }
    }
}

/// One cell's change since an earlier run (unpaired, as `versus diff` computes it).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Change {
    pub id: String,
    /// Median time per call before and now; null when that side is not ok.
    pub old_median_ns: Option<f64>,
    pub new_median_ns: Option<f64>,
    /// now / before, above 1 is slower, with its 95% interval; null when not comparable.
    pub ratio: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Option<Verdict>,
    /// The smallest change this comparison could have found (relative, 0.04 = 4%).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_detectable: Option<f64>,
    /// Why there is no ratio, or why its verdict is unknown ("within run-to-run noise ±3.1% …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The cell's run-to-run noise the change was judged against, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<crate::results::RunNoise>,
    /// The change beside the other implementations of its group, where
    /// history has one (`history::judge::relative`); `verdict` is then its verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside: Option<Beside>,
    /// Where no learned reference judged it (`beside`): the change beyond
    /// what its group and the machine did between the two runs
    /// (`history::judge::references`); `verdict` is `unknown` when one of them explains it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<SharedShift>,
}

/// How a change's `note` begins when a reference withheld it
/// (`history::judge::references::explain`), for readers of the note.
pub const MACHINE_MOVED: &str = "moved with the machine";
pub const GROUP_MOVED: &str = "moved with the other implementations";

/// What a change was held against: the group's or the machine's own change.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SharedBy {
    /// The other implementations of the cell's group (the median of them).
    Group,
    /// versus's speed reference (`environment.speed`).
    Machine,
}

/// A cell's change beyond a shift its group or the machine shared.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SharedShift {
    pub by: SharedBy,
    /// For `group`: the implementations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
    /// What the group or the machine did: now / before.
    pub shift: f64,
    /// The cell's change beyond it (now / before over `shift`), its
    /// interval and verdict.
    pub beyond: f64,
    pub beyond_low: Option<f64>,
    pub beyond_high: Option<f64>,
    pub verdict: Verdict,
}

/// The machine's own change between the two runs: versus's speed
/// reference (`environment.speed`) now against then.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MachineShift {
    /// now / before, above 1 is slower, with its interval and verdict.
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Verdict,
}

/// A cell's change between runs measured as its ratio to the other
/// implementations of its group (the median of them, or each of two).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Beside {
    /// The implementations the ratio is to.
    pub against: Vec<String>,
    /// now / before of that ratio, above 1 is slower, with its interval.
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Verdict,
    /// The smallest change of the ratio this comparison could have found (relative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_detectable: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The run-to-run noise of the ratio it was judged against.
    pub noise: crate::results::RunNoise,
}

/// A group's change between runs as a whole: the median of its
/// implementations' medians, judged against that median's run-to-run noise.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Shift {
    /// The group (`operation/params`).
    pub group: String,
    pub implementations: Vec<String>,
    /// now / before, above 1 is slower, with its interval.
    pub ratio: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub verdict: Verdict,
    pub noise: crate::results::RunNoise,
}
