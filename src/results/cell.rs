//! One cell of the matrix as the document records it: its runs' statistics,
//! how its sampling stopped, its worker and the services' share of its work.

use super::*;
use crate::base::outcome::{HarnessFault, Outcome};
use crate::base::params::Params;
use serde::{Deserialize, Serialize};

/// Summary statistics of a cell's wall times (nanoseconds) and resources.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Stats {
    pub n: usize,
    pub mean_ns: f64,
    pub median_ns: f64,
    /// Sample standard deviation; null with fewer than 2 runs.
    pub stddev_ns: Option<f64>,
    pub min_ns: f64,
    pub max_ns: f64,
    /// Payload bytes per second at the median wall time; null when the operation has no payload.
    pub throughput_bytes_per_s: Option<f64>,
    /// Process cells only (null in-process).
    pub median_user_ns: Option<f64>,
    pub median_sys_ns: Option<f64>,
    pub max_rss_bytes: Option<u64>,
    /// True when no run could measure the peak exactly (each stayed at the
    /// floor of the process that started it): `max_rss_bytes` is then an upper
    /// bound. See docs/results-format.md, "Peak memory".
    #[serde(default)]
    pub max_rss_at_most: bool,
    /// 95% interval of the median (ns per call): order statistics,
    /// interpolated, widened by the variation between segments (`levels`).
    /// Null with fewer than 6 runs.
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
    /// Which levels of repetition the interval covers; null with one segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<Levels>,
    /// 95% bootstrap interval of the mean (ns per call).
    pub mean_ci_low_ns: Option<f64>,
    pub mean_ci_high_ns: Option<f64>,
    /// Indices (into the measured samples) flagged as outliers by the modified
    /// z-score (> 3.5). They stay in every statistic.
    pub outliers: Vec<usize>,
    /// Index into the whole series (warm-up then measured samples) from which the
    /// cell was at its steady level; null when there were too few samples to tell
    /// or no steady state was reached (see `steady_state`).
    pub steady_from: Option<usize>,
    /// Whether the series reached a steady level.
    pub steady_state: SteadyState,
    /// In-process cells whose runtime counts allocations: mean bytes allocated per call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc_bytes_per_call: Option<f64>,
    /// In-process cells whose runtime counts collections: mean collections per call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gc_per_call: Option<f64>,
    /// What the run before did to this cell's runs (`judge::carryover`);
    /// absent without a recorded order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry_over: Option<CarryOver>,
    /// Instructions per call, from the counted runs (`measure` includes
    /// "instructions"); absent when the cell was not counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<MetricStats>,
    /// Only in a view of a count metric (`metric::view`), never written: how
    /// exactly the counts repeated, which widens the noise band of any
    /// comparison with this cell (`judge::counts`).
    #[serde(skip)]
    pub repeatability: Option<f64>,
    /// Set when the runs do not describe one level (`judge::stability`):
    /// two modes, a spread as wide as the level, or passes in different
    /// modes. Findings never rest on such a cell. Absent when stable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unstable: Option<Instability>,
}

/// Whether a cell's series (warm-up, then measured) reached a steady level.
/// Written as "reached", "not_reached" or "unknown" (too few samples to tell).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SteadyState {
    Reached,
    NotReached,
    Unknown,
}

/// One implementation × operation × parameter set.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Cell {
    pub id: String,
    pub implementation: String,
    pub operation: String,
    pub params: Params,
    pub outcome: Outcome,
    /// Why the cell is not ok (exit status, check that failed, stderr tail); null when ok.
    pub message: Option<String>,
    /// Size of the input for throughput; null when the operation counts none.
    pub payload_bytes: Option<u64>,
    pub warmup_runs: u32,
    /// Measured runs asked for; `samples` may hold fewer when the cell failed.
    pub runs_requested: u32,
    /// Wall times of the warm-up runs, kept to show warm-up effects.
    pub warmup_wall_ns: Vec<u64>,
    #[serde(deserialize_with = "lean::samples")]
    pub samples: Samples,
    /// When the cell's group started (RFC 3339): cells with the same time were
    /// measured side by side and are compared as pairs.
    #[serde(default)]
    pub started_at: Option<String>,
    /// What ended the cell's sampling.
    #[serde(default)]
    pub stop_rule: StopRule,
    /// In-process cells: what the worker said of itself in its handshake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<WorkerInfo>,
    /// Merged results (`versus merge`): the id of the machine that measured
    /// the cell (`Machine::id`). Cells are only compared within one machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// The segments its runs were taken in (passes of the suite, worker
    /// processes), in sample order; empty when all were taken in one go.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<Segment>,
    /// What each background service of the suite used while this cell ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceUsage>,
    /// The parameters the cell's work depends on (`plan::work`): those its
    /// command, hooks and input use; every parameter for an in-process cell.
    /// Cells of one implementation and operation that agree on these did the
    /// same work. Absent in results written before versus recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_params: Option<Vec<String>>,
    /// Set when the cell failed for a reason of versus's own rather than the
    /// code under test's (its output folder full, a run it could not
    /// start): `--resume` measures the cell again. Absent otherwise, and in
    /// results written before versus told the two apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_fault: Option<HarnessFault>,
    /// Null unless the outcome is ok.
    pub stats: Option<Stats>,
}

/// One background service's use over one cell's runs: CPU time over the
/// measured runs (so per call it sits beside the client's time per call),
/// and peak resident memory over every run of the cell, warm-up included.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ServiceUsage {
    pub name: String,
    /// CPU time of the service's processes during the measured runs.
    pub cpu_ns: u64,
    /// Calls made in those runs (in-process batches count each call).
    pub calls: u64,
    /// Peak resident memory of the service during the cell's runs; null
    /// when the kernel would not reset or report it.
    pub peak_rss_bytes: Option<u64>,
}

impl ServiceUsage {
    /// CPU time per call, in nanoseconds.
    pub fn cpu_per_call_ns(&self) -> Option<f64> {
        (self.calls > 0).then(|| self.cpu_ns as f64 / self.calls as f64)
    }
}

impl Cell {
    /// The carry-over found in this cell (by the test or the screen), if any.
    pub fn carry_over_found(&self) -> Option<&CarryOver> {
        self.stats.as_ref()?.carry_over.as_ref().filter(|c| c.detected)
    }

    /// The mean user and system CPU time of its runs, in seconds (the
    /// figures hyperfine's JSON gives); `None` where a column is empty.
    pub fn mean_cpu_seconds(&self) -> (Option<f64>, Option<f64>) {
        let mean_of = |column: &crate::results::Column<1000>| {
            let xs: Vec<f64> = column.iter().map(|ns| ns as f64 / 1e9).collect();
            crate::stats::summarize(&xs).map(|m| m.mean)
        };
        (mean_of(&self.samples.user_ns), mean_of(&self.samples.sys_ns))
    }

    /// A finished, ok cell of operation "op" named `name` (id and
    /// implementation) with `samples`, every other field empty: what
    /// tests build on, changing what they need with `..`.
    #[cfg(test)]
    pub fn of_samples(name: &str, samples: Samples) -> Cell {
        Cell {
            id: name.into(),
            implementation: name.into(),
            operation: "op".into(),
            params: Default::default(),
            outcome: crate::base::outcome::Outcome::Ok,
            message: None,
            payload_bytes: None,
            warmup_runs: 0,
            runs_requested: samples.wall_ns.len() as u32,
            warmup_wall_ns: vec![],
            samples,
            worker: None,
            machine: None,
            services: vec![],
            segments: vec![],
            work_params: None,
            harness_fault: None,
            started_at: None,
            stop_rule: Default::default(),
            stats: None,
        }
    }

    /// Whether the judge found the cell's runs do not describe one level
    /// (`stats.unstable`): its median concludes nothing on its own.
    pub fn is_unstable(&self) -> bool {
        self.stats.as_ref().is_some_and(|s| s.unstable.is_some())
    }

    /// How reports and warnings name the cell: "impl op [params]".
    pub fn label(&self) -> String {
        let p = crate::base::params::params_key(&self.params);
        if p.is_empty() {
            format!("{} {}", self.implementation, self.operation)
        } else {
            format!("{} {} [{p}]", self.implementation, self.operation)
        }
    }

    /// The warm-up samples per call (in-process batches divided by the batch size).
    pub fn warmup_per_call_ns(&self) -> Vec<f64> {
        let warm = &self.samples.warmup_iterations;
        if warm.len() == self.warmup_wall_ns.len() {
            return per_call_batches(&self.warmup_wall_ns, warm);
        }
        // Results written before warm-up batch sizes were kept.
        per_call(
            &self.warmup_wall_ns,
            self.samples.iterations.first().copied().unwrap_or(1),
        )
    }
}

/// What ended a cell's sampling.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum StopRule {
    /// The planned number of runs was taken.
    #[default]
    Fixed,
    /// `--precision`: the median's interval became narrow enough.
    Precision,
    /// `--resolve`: every comparison of the group was settled.
    Resolved,
    /// `--precision` or `--resolve` was not met within `--max-runs`.
    MaxRuns,
    /// `--precision` or `--resolve` was not met within `--max-time`.
    MaxTime,
    /// The cell ended early with an outcome other than ok.
    Failed,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WorkerInfo {
    pub language: String,
    pub runtime: String,
    pub library: String,
}
