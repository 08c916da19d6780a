//! A cell's raw figures: one entry per run (or in-process batch) of wall
//! time, CPU time and peak memory, plus batch sizes, and the conversions
//! to time per call every statistic starts from.

use serde::{Deserialize, Serialize};

use super::column::Column;
use super::order::RunOrder;

/// Nanoseconds, held as whole nanoseconds (a run under 4.3 s fits 32 bits).
pub(super) type Nanos = Column<1>;
/// Nanoseconds of CPU time, held as the microseconds `wait4` counts in.
pub(super) type CpuNanos = Column<1000>;
/// Bytes of peak memory, held as the KiB `wait4` counts in.
pub(super) type RssBytes = Column<1024>;

/// One entry per measured run, in run order; all arrays have the same length.
/// The per-run columns are compact (see `column.rs`): 100,000 runs of a
/// process cell hold 20 bytes a run, not 40.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Samples {
    /// Process cells: each run's wall time. In-process cells: each batch's elapsed time.
    pub wall_ns: Nanos,
    /// Process cells only (empty for in-process cells).
    pub user_ns: CpuNanos,
    pub sys_ns: CpuNanos,
    pub max_rss_bytes: RssBytes,
    /// Process cells: versus's own peak resident memory when each run started,
    /// under which `max_rss_bytes` cannot go (see docs/results-format.md).
    #[serde(default, skip_serializing_if = "RssBytes::is_empty")]
    pub rss_floor_bytes: RssBytes,
    /// Process cells: the warm-up runs' peak memory and floors, as above.
    /// Warm-up runs are started by the spawn helper, whose floor is much lower
    /// than versus's, so they measure small children exactly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warmup_max_rss_bytes: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warmup_rss_floor_bytes: Vec<u64>,
    /// Process cells: each measured run's exit status, written only once some
    /// run exited with a status other than 0 (an operation that expects
    /// another status, or `ignore_failure`); empty means every run exited 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exit_codes: Vec<i32>,
    /// In-process cells: calls per batch (one entry per sample); empty for process cells.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<u64>,
    /// In-process cells, where the runtime counts them: bytes allocated per batch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alloc_bytes: Vec<u64>,
    /// In-process cells, where the runtime counts them: garbage collections per batch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gc_count: Vec<u64>,
    /// In-process cells: calls per warm-up batch (calibration grows the batch
    /// again after warm-up, so measured batches are usually larger).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warmup_iterations: Vec<u64>,
    /// In-process cells: the worker process's peak resident memory over the
    /// cell (its whole life: start-up, calibration, warm-up and measured
    /// batches), runtime included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker_max_rss_bytes: Option<u64>,
    /// Where each measured run stood in its group's order (`order.rs`):
    /// absent in results written before versus recorded it, and for cells
    /// imported from other harnesses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<RunOrder>,
    /// Instructions of each counted run (`measure` includes "instructions"),
    /// in run order: process cells, the whole process tree of one run under
    /// the counter; in-process cells, everything the worker executed from
    /// the counter reading before a batch's request to the one after its
    /// result. Counted runs are runs of their own, after the timed ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instructions: Vec<u64>,
    /// In-process cells: calls in each counted batch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instruction_iterations: Vec<u64>,
    /// In-process cells: the empty-batch cost of each counted batch (the
    /// worker's handling of a request around its loop, estimated by the
    /// counting worker), which per-call figures subtract:
    /// (instructions − overhead) ÷ calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instruction_overhead: Vec<u64>,
    /// What counted the instructions: "valgrind-cachegrind 3.19.0",
    /// "valgrind-callgrind 3.19.0" or "perf instructions:u".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<String>,
    /// Why the cell has fewer counted runs than asked (its counted run
    /// failed under the counter); its time is unaffected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_error: Option<String>,
}

impl Samples {
    /// Makes room for `runs` more samples of a process cell, or of an
    /// in-process cell (`in_process`), in the arrays that kind fills.
    pub fn reserve_runs(&mut self, runs: usize, in_process: bool) {
        self.wall_ns.reserve_exact(runs);
        if in_process {
            self.iterations.reserve_exact(runs);
        } else {
            self.user_ns.reserve_exact(runs);
            self.sys_ns.reserve_exact(runs);
            self.max_rss_bytes.reserve_exact(runs);
            self.rss_floor_bytes.reserve_exact(runs);
        }
    }

    /// Records a measured run's exit status (see `exit_codes`).
    pub fn push_exit_code(&mut self, code: i32) {
        if code != 0 && self.exit_codes.is_empty() {
            // The runs before this one all exited 0.
            self.exit_codes.resize(self.wall_ns.len().saturating_sub(1), 0);
        }
        if code != 0 || !self.exit_codes.is_empty() {
            self.exit_codes.push(code);
        }
    }

    /// Each measured run's exit status, for process cells.
    pub fn exit_code_of_each_run(&self) -> Vec<i32> {
        if self.exit_codes.len() == self.len() {
            self.exit_codes.clone()
        } else {
            vec![0; self.len()]
        }
    }

    pub fn len(&self) -> usize {
        self.wall_ns.len()
    }

    /// Wall time per call: the run's time for process cells, batch time ÷ batch size in-process.
    pub fn per_call_ns(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.wall_ns.len());
        self.per_call_into(&mut out);
        out
    }

    /// The same, appended to `out` (no temporary for a long series).
    pub fn per_call_into(&self, out: &mut Vec<f64>) {
        out.reserve_exact(self.wall_ns.len());
        if self.iterations.len() == self.wall_ns.len() {
            out.extend(batches(self.wall_ns.iter(), &self.iterations));
        } else {
            out.extend(self.wall_ns.iter().map(|w| w as f64));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.wall_ns.is_empty()
    }
}

/// Each batch's time divided by its own size, lazily.
fn batches<'a>(sample_ns: impl Iterator<Item = u64> + 'a, sizes: &'a [u64]) -> impl Iterator<Item = f64> + 'a {
    sample_ns.zip(sizes).map(|(w, n)| w as f64 / (*n).max(1) as f64)
}

/// Each batch's time divided by its own size.
pub fn per_call_batches(sample_ns: &[u64], sizes: &[u64]) -> Vec<f64> {
    batches(sample_ns.iter().copied(), sizes).collect()
}

/// Times per call from times per sample of `batch` calls each.
pub fn per_call(sample_ns: &[u64], batch: u64) -> Vec<f64> {
    let batch = batch.max(1) as f64;
    sample_ns.iter().map(|w| *w as f64 / batch).collect()
}

#[cfg(test)]
mod tests {
    use super::Samples;

    #[test]
    fn exit_codes_are_kept_once_a_run_exits_otherwise_than_0() {
        let mut s = Samples::default();
        for code in [0, 0, 3, 0] {
            s.wall_ns.push(1);
            s.push_exit_code(code);
        }
        assert_eq!(s.exit_codes, [0, 0, 3, 0]);
        let mut all_zero = Samples::default();
        for _ in 0..3 {
            all_zero.wall_ns.push(1);
            all_zero.push_exit_code(0);
        }
        assert!(all_zero.exit_codes.is_empty());
        assert_eq!(all_zero.exit_code_of_each_run(), [0, 0, 0]);
    }
}
