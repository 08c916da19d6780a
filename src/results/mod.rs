//! The results file: what was measured, in a versioned format that outlives
//! any one run of the tool. `docs/results-format.md` documents it; bump
//! `SCHEMA_VERSION` on any change that would break a reader, and only ever
//! add fields otherwise. Readers must ignore fields they do not know.

use indexmap::{IndexMap, IndexSet};
use serde::{Deserialize, Serialize};

use crate::base::metric::Metric;
use crate::base::params::Params;

mod carryover;
mod cell;
mod column;
mod comparison;
mod file;
mod finding;
mod headline;
mod journal;
mod judged;
mod layout;
mod lean;
mod lookup;
mod machine;
mod metric;
mod order;
mod overall;
mod revisions;
mod samples;
mod segments;
mod since;
mod validate;
pub use carryover::{CarryOver, Effect, RunsAfter, Screen, ScreenMetric};
pub use cell::{Cell, ServiceUsage, Stats, SteadyState, StopRule, WorkerInfo};
pub use column::Column;
pub use comparison::{
    AnalysisSettings, Comparison, Contention, INSTRUCTIONS_NOISE, LoadDependent, PairedMedians, Reason, Verdict,
    detectable, settling_half,
};
pub use file::{from_text, read, to_json_text, write_json_atomic};
pub use finding::{
    Cliff, CostFit, Crossover, Drift, Evidence, Finding, FindingKind, FirstRun, FitProblem, Growth, MemoryGrowth,
    OutcomeCount, Ratio, SizeAnswer, SizeSegment, SizeWinner, UnstableCell,
};
pub use headline::{Headline, HeadlineAsk, HeadlineRow, NotesAt, ReportInfo, place};
pub use journal::{Journal, Recovered};
pub use judged::{Instability, InstabilityKind, NoiseSource, RunNoise};
pub(crate) use layout::to_writer;
pub(crate) use lean::without_runs;
pub use machine::{
    Artifact, CpuDetails, Environment, GitState, ImplementationInfo, Machine, RunLoad, ServiceInfo, SpeedReadings,
};
pub use metric::{MetricResults, MetricStats};
pub(crate) use metric::{measured, metric_stats, view, view_cell};
pub use order::RunOrder;
pub use overall::{OperationMeans, Overall, OverallRow};
pub use revisions::{BuildRecord, BuildStatus, RevisionColumn, RevisionInfo, Revisions};
pub use samples::{Samples, per_call, per_call_batches};
pub use segments::{Design, Levels, Segment, SegmentModes, gather};
pub use since::{Beside, Change, GROUP_MOVED, MACHINE_MOVED, MachineShift, SharedBy, SharedShift, Shift, Since};
pub(crate) use validate::check as validate;

pub const SCHEMA_VERSION: u32 = 2;
/// Older versions this versus still reads (their verdicts are computed again).
pub const READS_SCHEMA_VERSIONS: [u32; 2] = [1, 2];

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Warning {
    /// A stable identifier of the kind of warning, e.g. `high_variation`.
    pub kind: String,
    pub message: String,
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
    /// The command line that produced these results (read with any password hidden).
    #[serde(deserialize_with = "hidden")]
    pub command: String,
    /// SHA-256 (hex) of the suite file's bytes; `versus merge` only joins
    /// pieces with the same hash. Null for `versus exec`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// The commit of the repository holding the suite file when the run
    /// started; absent outside a repository, without git, and for `exec`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<crate::results::GitState>,
    /// Every implementation the suite defines, in suite order: the report
    /// says which of them ran (`--only`). Absent in older files and for `exec`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub implementations: Vec<String>,
    /// Labelled matrix parameters: parameter → label → the value commands got.
    /// Cells, ids and reports show the labels.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub labels: IndexMap<String, IndexMap<String, crate::base::params::ParamValue>>,
    /// What the suite asked of its report (`[report]`): the comparisons it
    /// exists for and where its notes go. Absent when it asked nothing.
    #[serde(default, skip_serializing_if = "ReportInfo::is_empty")]
    pub report: ReportInfo,
}

/// A recorded command line as read back, with any password hidden
/// (`base::redact`): documents written by an older versus, whether from a
/// file, a journal or the history store, show none.
fn hidden<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let line = String::deserialize(d)?;
    Ok(crate::base::redact::command_line(&line).into_owned())
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
    #[serde(deserialize_with = "hidden")]
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
    pub matrix: IndexMap<String, Vec<crate::base::params::ParamValue>>,
    pub operations: Vec<String>,
    pub cells: Vec<Cell>,
    pub comparisons: Vec<Comparison>,
    pub warnings: Vec<Warning>,
    /// The takeaways computed from the cells (`findings`), grouped by
    /// operation in suite order. Empty in results written before versus
    /// computed them; `versus report` computes them afresh.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// The comparisons the report opens with (`analysis::headline`): the
    /// suite's own (`suite.report.headline`), else those versus picks.
    /// Absent in files written before versus computed it; `versus report`
    /// computes it afresh.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headline: Vec<Headline>,
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
    /// Where the carry-over test could not cover every cell with an order:
    /// how many it tested and what it takes (`analysis::findings::carryover`),
    /// in the method section's words; absent when it covered them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry_over_coverage: Option<String>,
}

/// A document with nothing measured or concluded yet, at this versus's
/// schema: each maker (a run, an import, a journal rebuilt, a test) names
/// what it knows and takes the rest from here.
impl Default for Results {
    fn default() -> Results {
        Results {
            schema_version: SCHEMA_VERSION,
            suite: SuiteInfo::default(),
            started_at: String::new(),
            finished_at: None,
            status: RunStatus::Complete,
            environment: Environment::default(),
            analysis: AnalysisSettings::default(),
            design: None,
            matrix: IndexMap::new(),
            operations: vec![],
            cells: vec![],
            comparisons: vec![],
            warnings: vec![],
            findings: vec![],
            headline: vec![],
            overall: None,
            since: None,
            shard: None,
            merge: None,
            metrics: IndexMap::new(),
            view: Default::default(),
            revisions: None,
            carry_over_coverage: None,
        }
    }
}

impl Results {
    /// The implementations that ran, in report order (the environment's,
    /// then any other a cell names).
    pub fn implementations_that_ran(&self) -> Vec<String> {
        let in_cells: IndexSet<&str> = self.cells.iter().map(|c| c.implementation.as_str()).collect();
        let listed = self
            .environment
            .implementations
            .keys()
            .filter(|n| in_cells.contains(n.as_str()));
        let mut names: IndexSet<&str> = listed.map(String::as_str).collect();
        names.extend(in_cells);
        names.into_iter().map(String::from).collect()
    }

    /// The order the run's groups took their runs in (`interleaved` for
    /// results written before it could be chosen).
    pub fn order(&self) -> crate::base::order::Order {
        self.design
            .as_ref()
            .and_then(|d| d.order)
            .unwrap_or(crate::base::order::Order::Interleaved)
    }
}

/// The key of a cell's group, `operation/k=v,...`: what shards split and merge covers.
pub fn group_key(operation: &str, params: &Params) -> String {
    format!("{operation}/{}", crate::base::params::params_key(params))
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
