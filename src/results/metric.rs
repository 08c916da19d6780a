//! Metrics: what a cell's figure is a figure of. Wall time is measured on
//! every run; instructions (`measure = ["wall", "instructions"]`) are
//! counted in runs of their own under a counter (valgrind, or `perf` where
//! the machine has hardware counters), because a count is the one figure
//! the neighbours on a shared machine cannot move.
//!
//! Every statistic, verdict, finding and chart is computed for wall time
//! first. For another metric the document is *viewed* as if that metric were
//! the time: `view` turns each cell's counts into its samples and its count
//! statistics into its `stats`, so the same statistics, the same judge and
//! the same renderers serve both, and a metric is never judged by a rule of
//! its own. A view is marked (`Results::view`) so renderers print counts,
//! not nanoseconds; views are never written to disk.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{Cell, Comparison, Finding, Levels, Results, Samples, Segment, Stats, SteadyState};
use crate::base::metric::Metric;

/// A cell's statistics in a metric other than wall time, per call: the
/// same statistics `Stats` holds for time, from the counted runs.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MetricStats {
    /// Counted runs (in-process: counted batches).
    pub n: usize,
    pub median: f64,
    pub mean: f64,
    /// Sample standard deviation; null with fewer than 2 runs.
    pub stddev: Option<f64>,
    pub min: f64,
    pub max: f64,
    /// 95% interval of the median, as `Stats::ci_low_ns` is computed;
    /// null with fewer than 6 counted runs.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<Levels>,
    /// How exactly the counts repeated: the middle half of the runs'
    /// spread (interquartile range) over the median. 0 when every run
    /// counted the same.
    pub repeatability: f64,
}

/// The comparisons and findings of one metric other than wall time.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct MetricResults {
    /// Each ok cell with counts against its group's baseline (the suite's,
    /// or the one with the fewest), judged as `comparisons` are.
    pub comparisons: Vec<Comparison>,
    /// The size and winner findings in this metric.
    #[serde(default)]
    pub findings: Vec<Finding>,
}

impl Samples {
    /// Whether any run of the cell was counted.
    pub fn counted(&self) -> bool {
        !self.instructions.is_empty()
    }

    /// Each counted run's instructions net of the empty-batch cost (in-process).
    fn net_instructions(&self) -> Vec<u64> {
        self.instructions
            .iter()
            .enumerate()
            .map(|(i, c)| c.saturating_sub(self.instruction_overhead.get(i).copied().unwrap_or(0)))
            .collect()
    }
}

/// `cell` as seen in `metric`: its samples are that metric's per-run
/// figures (in-process, with their batch sizes), its segments count those
/// runs, its statistics are that metric's. `None` when the cell has no
/// figure of the metric (not counted); wall time gives the cell as it is.
pub(crate) fn view_cell(cell: &Cell, metric: Metric) -> Option<Cell> {
    if metric == Metric::Wall {
        return Some(cell.clone());
    }
    let s = &cell.samples;
    if !s.counted() && cell.stats.as_ref().is_none_or(|st| st.instructions.is_none()) {
        return None;
    }
    let samples = Samples {
        wall_ns: s.net_instructions().into(),
        iterations: s.instruction_iterations.clone(),
        ..Samples::default()
    };
    let counted: u32 = cell.segments.iter().map(|g| g.counted).sum();
    let segments = if counted as usize == samples.len() && !cell.segments.is_empty() {
        cell.segments
            .iter()
            .map(|g| Segment {
                runs: g.counted,
                warmup_runs: 0,
                ..g.clone()
            })
            .collect()
    } else {
        vec![]
    };
    Some(Cell {
        runs_requested: samples.len() as u32,
        samples,
        segments,
        stats: cell
            .stats
            .as_ref()
            .and_then(|st| st.instructions.as_ref())
            .map(as_time_stats),
        ..cell_identity(cell)
    })
}

/// A metric's statistics in the shape of time statistics, for a view.
fn as_time_stats(m: &MetricStats) -> Stats {
    Stats {
        n: m.n,
        mean_ns: m.mean,
        median_ns: m.median,
        stddev_ns: m.stddev,
        min_ns: m.min,
        max_ns: m.max,
        throughput_bytes_per_s: None,
        median_user_ns: None,
        median_sys_ns: None,
        max_rss_bytes: None,
        max_rss_at_most: false,
        ci_low_ns: m.ci_low,
        ci_high_ns: m.ci_high,
        levels: m.levels.clone(),
        mean_ci_low_ns: None,
        mean_ci_high_ns: None,
        outliers: vec![],
        steady_from: None,
        steady_state: SteadyState::Unknown,
        alloc_bytes_per_call: None,
        gc_per_call: None,
        instructions: None,
        repeatability: Some(m.repeatability),
        // Carry-over is judged in time, from the timed runs' order.
        carry_over: None,
        // Counts settle at one level or two for what the program did, not
        // for the machine: the time's stability says whether the runs hold.
        unstable: None,
    }
}

/// Time statistics of a view cell as the metric's statistics, with the
/// repeatability of its per-call figures.
pub(crate) fn metric_stats(view: &Stats, per_call: &[f64]) -> MetricStats {
    MetricStats {
        n: view.n,
        median: view.median_ns,
        mean: view.mean_ns,
        stddev: view.stddev_ns,
        min: view.min_ns,
        max: view.max_ns,
        ci_low: view.ci_low_ns,
        ci_high: view.ci_high_ns,
        levels: view.levels.clone(),
        repeatability: repeatability(per_call),
    }
}

/// The interquartile range over the median (0 for identical values).
pub(super) fn repeatability(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut s = values.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    let q = |p: f64| crate::stats::summary::quantile_sorted(&s, p);
    let median = q(0.5);
    if median <= 0.0 {
        0.0
    } else {
        (q(0.75) - q(0.25)) / median
    }
}

/// The metrics `results` holds figures of, wall time first.
pub(crate) fn measured(results: &Results) -> Vec<Metric> {
    let mut out = vec![Metric::Wall];
    if results
        .cells
        .iter()
        .any(|c| c.samples.counted() || c.stats.as_ref().is_some_and(|s| s.instructions.is_some()))
    {
        out.push(Metric::Instructions);
    }
    out
}

/// The document as `metric` sees it: every cell in that metric (cells
/// without its figure keep their outcome and show none), its comparisons and
/// findings in place of the time ones. Wall time gives a copy as it is.
pub(crate) fn view(results: &Results, metric: Metric) -> Results {
    if metric == Metric::Wall {
        return results.clone();
    }
    let of_metric = results.metrics.get(&metric).cloned().unwrap_or_default();
    let cells = results
        .cells
        .iter()
        .map(|c| view_cell(c, metric).unwrap_or_else(|| cell_identity(c)))
        .collect();
    Results {
        schema_version: results.schema_version,
        suite: results.suite.clone(),
        started_at: results.started_at.clone(),
        finished_at: results.finished_at.clone(),
        status: results.status,
        environment: results.environment.clone(),
        analysis: results.analysis.for_metric(metric),
        design: results.design.clone(),
        matrix: results.matrix.clone(),
        operations: results.operations.clone(),
        cells,
        comparisons: of_metric.comparisons,
        warnings: vec![],
        findings: of_metric.findings,
        // The headline is judged in time.
        headline: vec![],
        since: results.since.as_ref().map(|s| s.for_metric(metric)),
        shard: results.shard.clone(),
        merge: results.merge.clone(),
        metrics: IndexMap::new(),
        view: metric,
        // The suite-wide mean and the revision columns are judged in time.
        overall: None,
        revisions: None,
        carry_over_coverage: None,
    }
}

/// A cell with no figure of the viewed metric: its identity and outcome only.
fn cell_identity(cell: &Cell) -> Cell {
    Cell {
        id: cell.id.clone(),
        implementation: cell.implementation.clone(),
        operation: cell.operation.clone(),
        params: cell.params.clone(),
        outcome: cell.outcome,
        message: cell.message.clone(),
        payload_bytes: cell.payload_bytes,
        warmup_runs: 0,
        runs_requested: 0,
        warmup_wall_ns: vec![],
        samples: Samples::default(),
        started_at: cell.started_at.clone(),
        stop_rule: cell.stop_rule,
        worker: cell.worker.clone(),
        machine: cell.machine.clone(),
        segments: vec![],
        services: vec![],
        work_params: cell.work_params.clone(),
        harness_fault: cell.harness_fault,
        stats: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_counts_read_with_their_unit() {
        for m in Metric::ALL {
            assert_eq!(Metric::parse(m.name()), Some(m));
        }
        assert_eq!(Metric::parse("cycles"), None);
        assert_eq!(Metric::Instructions.format(33_050.0), "33.0 k instr");
        assert_eq!(Metric::Wall.format(3450.0), "3.45 µs");
    }

    #[test]
    fn repeatability_is_zero_for_exact_counts_and_ignores_a_rare_spike() {
        assert_eq!(repeatability(&[5.0; 8]), 0.0);
        let mut runs = vec![1000.0; 9];
        runs.push(1250.0);
        assert_eq!(repeatability(&runs), 0.0);
        assert!(repeatability(&[990.0, 1000.0, 1010.0, 1000.0]) > 0.0);
    }
}
