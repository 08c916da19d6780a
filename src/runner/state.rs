//! The runner's shared state: a cell while it is being measured
//! (`CellState`), how it is run (`Mode`: a process or an in-process
//! worker), and its worker under the instruction counter. The files that
//! start, check, count and finish a cell all work on these; keeping them
//! here lets each of those files depend on this one alone, not on each other.

use std::path::PathBuf;

use super::hooks::Hooks;
use super::inprocess::InProcess;
use crate::base::outcome::{HarnessFault, Outcome};
use crate::exec::CountedWorker;
use crate::exec::RunRequest;
use crate::payload::Digest;
use crate::results::{Samples, StopRule, WorkerInfo};

/// How a cell's samples are taken.
pub(super) enum Mode {
    Process(RunRequest),
    Worker(Box<InProcess>),
}

pub(super) struct CellState {
    pub imp: usize,
    pub outcome: Option<Outcome>,
    pub message: Option<String>,
    pub samples: Samples,
    pub warmup_wall_ns: Vec<u64>,
    /// SHA-256 of each checked output, for `same_output`.
    pub digests: Vec<Digest>,
    pub mode: Mode,
    pub out: Option<PathBuf>,
    pub worker: Option<WorkerInfo>,
    pub stop_rule: StopRule,
    /// Measuring finished for this cell (adaptive sampling).
    pub done: bool,
    /// Calls per sample: 1 for processes, the calibrated batch in-process.
    pub batch: u64,
    /// Untimed commands around the cell and its runs.
    pub hooks: Hooks,
    /// Measured runs this cell takes under `Sampling::MinTime`, once its first run has set it.
    pub target_runs: u32,
    /// What the background services used during this cell's runs.
    pub services: Vec<crate::results::ServiceUsage>,
    /// Set when the cell failed for a reason of versus's own.
    pub fault: Option<HarnessFault>,
    /// In-process cells: how their worker was started, to start another under the counter.
    pub launch: Option<WorkerLaunch>,
    /// In-process cells being counted: their worker under the counter.
    pub counting: Option<Box<CountingWorker>>,
}

/// How an in-process cell's worker was started.
#[derive(Clone)]
pub(super) struct WorkerLaunch {
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
    pub operation: String,
    pub setup: serde_json::Value,
}

/// A cell's worker under the counter.
pub(super) struct CountingWorker {
    pub worker: InProcess,
    pub counted: CountedWorker,
    /// The worker's counters by thread after its last batch.
    pub last: Vec<(u32, u64)>,
    /// The cost of an empty batch (see the module header).
    pub empty: u64,
    pub name: String,
    /// Calls per counted batch.
    pub calls: u64,
}
