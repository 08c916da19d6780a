//! The results file: what was measured, in a versioned format that outlives
//! any one run of the tool. `docs/results-format.md` documents it; bump
//! `SCHEMA_VERSION` on any change that would break a reader, and only ever
//! add fields otherwise. Readers must ignore fields they do not know.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::outcome::{HarnessFault, Outcome};
use crate::plan::Params;

mod carry_over;
mod column;
mod file;
pub mod finding;
mod journal;
pub mod layout;
pub mod lean;
pub mod metric;
mod order;
pub mod overall;
mod revisions;
mod samples;
mod segments;
mod since;
pub mod validate;
pub use crate::judge::stability::{Instability, InstabilityKind};
pub use carry_over::{CarryOver, Effect, RunsAfter};
pub use column::Column;
pub use file::{from_text, read, to_json_text, write_json_atomic};
pub use finding::{
    CostFit, Crossover, Drift, Evidence, Finding, FindingKind, FirstRun, FitProblem, Growth, MemoryGrowth,
    OutcomeCount, Ratio, SizeAnswer, SizeSegment, SizeWinner, UnstableCell,
};
pub use journal::{Journal, Recovered};
pub use metric::{Metric, MetricResults, MetricStats};
pub use order::RunOrder;
pub use overall::{Overall, OverallRow};
pub use revisions::{BuildRecord, BuildStatus, RevisionColumn, RevisionInfo, Revisions};
pub use samples::{Samples, per_call, per_call_batches};
pub use segments::{Design, Levels, Segment, gather};
pub use since::{Beside, Change, Shift, Since};

pub const SCHEMA_VERSION: u32 = 2;
/// Older versions this versus still reads (their verdicts are computed again).
pub const READS_SCHEMA_VERSIONS: [u32; 2] = [1, 2];

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
    /// How reports and warnings name the cell: "impl op [params]".
    pub fn label(&self) -> String {
        let p = crate::plan::params_key(&self.params);
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

/// A cell compared with the baseline implementation at the same operation and parameters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    pub implementation: String,
    pub baseline: String,
    pub operation: String,
    pub params: Params,
    /// Time of the implementation relative to the baseline, above 1 is slower:
    /// with paired runs the median of the per-pair ratios, else median / median.
    pub ratio: f64,
    /// 95% interval of the ratio: the median of the per-pair ratios'
    /// order-statistic interval when `paired`, widened by the variation
    /// between passes and forks (`levels`); else both medians' intervals
    /// combined. Null with fewer than 6 runs (`note` says so).
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Decided by the interval (`judge::verdict`): "faster", "slower", "same"
    /// (the interval lies inside the noise band), "unknown", or "baseline".
    pub verdict: Verdict,
    /// Whether the runs were taken side by side (the same group, interleaved).
    pub paired: bool,
    /// Values behind the estimate: pairs of runs when paired, else the smaller run count.
    #[serde(default)]
    pub n: usize,
    /// Which levels of repetition the interval covers.
    #[serde(default)]
    pub levels: Levels,
    /// The smallest relative change (0.032 = 3.2%) this comparison would
    /// call faster or slower four times in five, at its size and spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_detectable: Option<f64>,
    /// For an `unknown`: about how many runs (pairs) in all would settle it at the spread seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_runs: Option<u64>,
    /// Why there is no interval or verdict, when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// What was compared: wall time (absent), or "instructions" (the ratio
    /// is of instructions per call).
    #[serde(default, skip_serializing_if = "metric::is_wall")]
    pub metric: Metric,
}

/// The answer of a comparison: three of them, and the baseline itself.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Faster,
    Slower,
    /// No difference as large as the noise band: the whole interval lies inside it.
    Same,
    /// Neither called nor ruled out: too few runs, or an interval that
    /// reaches past the band (schema 1 wrote "indistinguishable").
    #[serde(alias = "indistinguishable")]
    Unknown,
    Baseline,
}

/// How comparisons were decided; stored so re-rendering gives the same verdicts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AnalysisSettings {
    /// Confidence level of every interval.
    pub confidence: f64,
    /// Significance level of the tests.
    pub alpha: f64,
    /// Smallest relative difference called faster or slower (0.01 = 1%).
    pub noise: f64,
    pub bootstrap_resamples: usize,
    /// The noise band of instruction counts: the smallest relative
    /// difference in instructions called a change, where the cells' own
    /// counts repeat more closely than this (else their repeatability is
    /// the band; see `judge::counts`).
    #[serde(default = "default_instructions_noise")]
    pub instructions_noise: f64,
}

/// See `AnalysisSettings::instructions_noise`.
pub const INSTRUCTIONS_NOISE: f64 = 0.001;

fn default_instructions_noise() -> f64 {
    INSTRUCTIONS_NOISE
}

impl Default for AnalysisSettings {
    fn default() -> Self {
        AnalysisSettings {
            confidence: 0.95,
            alpha: 0.05,
            noise: 0.01,
            bootstrap_resamples: crate::stats::bootstrap::RESAMPLES,
            instructions_noise: INSTRUCTIONS_NOISE,
        }
    }
}

impl AnalysisSettings {
    /// The settings a view in `metric` is judged with: that metric's noise band.
    pub fn for_metric(&self, metric: Metric) -> AnalysisSettings {
        match metric {
            Metric::Wall => self.clone(),
            Metric::Instructions => AnalysisSettings {
                noise: self.instructions_noise,
                ..self.clone()
            },
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Warning {
    /// A stable identifier of the kind of warning, e.g. `high_variation`.
    pub kind: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ImplementationInfo {
    /// First line of the implementation's `version` command, or null.
    pub version: Option<String>,
    pub note: Option<String>,
    /// The suite's `artifact` file for this implementation, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<Artifact>,
}

/// A file that belongs to an implementation (a binary, a WASM module), and its size.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Artifact {
    /// As the suite names it, placeholders filled in.
    pub path: String,
    /// Its size when the run started; null when it could not be read.
    pub bytes: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Environment {
    pub versus_version: String,
    pub cpu_model: String,
    pub cores: usize,
    pub memory_bytes: u64,
    pub os: String,
    pub kernel: String,
    /// 1-minute load average when the run started.
    pub load_average: Option<f64>,
    /// CPU frequency governor of cpu0, where readable.
    pub cpu_governor: Option<String>,
    /// "cgroup v2", "cgroup v1" or "RLIMIT_AS".
    pub memory_limit_mechanism: String,
    pub implementations: IndexMap<String, ImplementationInfo>,
    /// Which machine this is, so pieces of a sharded run keep their identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<Machine>,
    /// The suite's background services, in suite order.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub services: IndexMap<String, ServiceInfo>,
    /// The commit versus was built from, when built from a git checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus_commit: Option<crate::environment::git::GitState>,
    /// The CPU beyond `cpu_model`: family, model, stepping, microcode,
    /// notable flags, topology, frequency (`environment::cpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<crate::environment::cpu::CpuDetails>,
    /// The machine's load sampled through the run, and other processes'
    /// share of its CPU time (`environment::load`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<crate::environment::load::RunLoad>,
}

/// A background service as the run started it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ServiceInfo {
    /// The command as run, placeholders filled in.
    pub command: String,
    /// The free port versus gave it (`{port}`).
    pub port: Option<u16>,
    /// Its `version` command's first line, when the suite gives one.
    pub version: Option<String>,
    /// Where its output went during the run.
    pub log: String,
}

/// A machine's identity: stable across runs and reboots, and not the raw
/// `/etc/machine-id` (which is meant to stay private to the machine).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct Machine {
    /// First 16 hex digits of SHA-256 over the machine id (`/etc/machine-id`),
    /// or over the hostname where there is none.
    pub id: String,
    pub hostname: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Running,
    Complete,
    Interrupted,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct SuiteInfo {
    pub name: String,
    pub description: Option<String>,
    pub file: Option<String>,
    /// The baseline named by the suite; null means the fastest of each group.
    pub baseline: Option<String>,
    /// The command line that produced these results.
    pub command: String,
    /// SHA-256 (hex) of the suite file's bytes; `versus merge` only joins
    /// pieces with the same hash. Null for `versus exec`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// The commit of the repository holding the suite file when the run
    /// started; absent outside a repository, without git, and for `exec`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<crate::environment::git::GitState>,
    /// Every implementation the suite defines, in suite order: the report
    /// says which of them ran (`--only`). Absent in older files and for `exec`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub implementations: Vec<String>,
    /// Labelled matrix parameters: parameter → label → the value commands got.
    /// Cells, ids and reports show the labels.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub labels: IndexMap<String, IndexMap<String, crate::suite::ParamValue>>,
}

/// What part of a sharded run (`versus run --shard K/N`) this document holds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ShardInfo {
    /// 0-based index of this piece, below `count`.
    pub index: u32,
    pub count: u32,
    /// What the split balanced: `history` (measured time of an earlier run),
    /// `weight` (the suite's override weights × planned runs) or `runs` (planned runs).
    pub basis: String,
    /// This piece's share of the estimated cost, 0 to 1.
    pub cost_share: f64,
    /// Keys (`operation/k=v,...`) of the groups assigned to this piece, in plan order.
    pub groups: Vec<String>,
    /// Keys of every group of the whole plan, in plan order: what the pieces must cover.
    pub plan: Vec<String>,
}

/// One piece of a merged document (`versus merge`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Piece {
    /// The results file it was read from, as given to `versus merge`.
    pub file: String,
    /// Its shard index and count.
    pub index: u32,
    pub count: u32,
    pub command: String,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub status: RunStatus,
    /// The machine it ran on, as that piece recorded it.
    pub environment: Environment,
    /// Keys of the groups whose cells this piece holds.
    pub groups: Vec<String>,
}

/// How a merged document was put together.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct MergeInfo {
    pub pieces: Vec<Piece>,
    /// Keys of the plan's groups that no piece holds (only with `--partial`).
    pub missing: Vec<String>,
}

/// The whole results document (`results.json`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Results {
    pub schema_version: u32,
    pub suite: SuiteInfo,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub finished_at: Option<String>,
    pub status: RunStatus,
    pub environment: Environment,
    #[serde(default)]
    pub analysis: AnalysisSettings,
    /// How the run visited its groups; absent in results written before passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<Design>,
    /// Parameter names in matrix order and operation names in suite order, for reports.
    pub matrix: IndexMap<String, Vec<crate::suite::ParamValue>>,
    pub operations: Vec<String>,
    pub cells: Vec<Cell>,
    pub comparisons: Vec<Comparison>,
    pub warnings: Vec<Warning>,
    /// The takeaways computed from the cells (`findings`), grouped by
    /// operation in suite order. Empty in results written before versus
    /// computed them; `versus report` computes them afresh.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Each implementation against one reference over the whole suite:
    /// the geometric mean of its ratios and its verdict counts (`overall`).
    /// Absent in files written before versus computed it, and when fewer
    /// than two implementations ran; `versus report` computes it afresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overall: Option<Overall>,
    /// Each cell against an earlier run of the same suite from the history
    /// store ("change since"); absent when there was none or history was off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<Since>,
    /// Set when this is one piece of a sharded run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// Set when this document was merged from pieces (`versus merge`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merge: Option<MergeInfo>,
    /// Comparisons and findings in each metric other than wall time that
    /// some cell was measured in (`instructions`); absent when none was.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub metrics: IndexMap<Metric, MetricResults>,
    /// Which metric `stats`, `comparisons` and `findings` describe: wall
    /// time, except in a view made by `metric::view` (never written).
    #[serde(skip)]
    pub view: Metric,
    /// Set when implementations were measured at several git revisions (`--rev`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisions: Option<Revisions>,
}

impl Results {
    /// The order the run's groups took their runs in (`interleaved` for
    /// results written before it could be chosen).
    pub fn order(&self) -> crate::suite::Order {
        self.design
            .as_ref()
            .and_then(|d| d.order)
            .unwrap_or(crate::suite::Order::Interleaved)
    }
}

/// The key of a cell's group, `operation/k=v,...`: what shards split and merge covers.
pub fn group_key(operation: &str, params: &Params) -> String {
    format!("{operation}/{}", crate::plan::params_key(params))
}

pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// With milliseconds: distinguishes groups that start within the same second.
pub fn now_rfc3339_millis() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_batches_are_divided_by_their_own_size() {
        let mut cell: Cell = serde_json::from_value(serde_json::json!({
            "id": "op/a", "implementation": "a", "operation": "op", "params": {},
            "outcome": "ok", "message": null, "payload_bytes": null, "warmup_runs": 2,
            "runs_requested": 1, "warmup_wall_ns": [1000, 2000],
            "samples": {"wall_ns": [4000], "user_ns": [], "sys_ns": [], "max_rss_bytes": [], "iterations": [4]},
            "stats": null
        }))
        .unwrap();
        // Older files: the first measured batch's size stands in.
        assert_eq!(cell.warmup_per_call_ns(), [250.0, 500.0]);
        cell.samples.warmup_iterations = vec![1, 2];
        assert_eq!(cell.warmup_per_call_ns(), [1000.0, 1000.0]);
    }
}
