//! The executor contract: what a run asks for, what it reports, and the
//! trait every way of starting runs implements. The scheduler speaks only
//! this, so tests drive it with a fake that starts nothing and reads no clock.

use std::path::PathBuf;
use std::time::Duration;

use crate::base::units::{Bytes, Nanos};

/// What to run. Paths are used as given.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RunRequest {
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    /// File fed to standard input; `None` gives /dev/null.
    pub stdin: Option<PathBuf>,
    /// File standard output is written to; `None` discards it.
    pub stdout: Option<PathBuf>,
    /// File standard error is written to; `None` discards it.
    pub stderr: Option<PathBuf>,
    pub timeout: Duration,
    pub memory_limit: Option<Bytes>,
    /// Standard output and error go to versus's own (`--show-output`); `stdout` and
    /// `stderr` are then ignored.
    #[serde(default)]
    pub inherit_output: bool,
    /// Start the run from the spawn helper (`exec::helper`), whose small
    /// memory lets `max_rss` measure a child smaller than versus itself. It
    /// costs a message each way per run, so the runner asks for it on warm-up
    /// runs only.
    #[serde(skip)]
    pub exact_memory: bool,
    /// Start the run with address-space randomisation off (as `setarch -R`
    /// does), so a counted run lays its memory out alike every time.
    #[serde(default)]
    pub fixed_layout: bool,
}

/// How a run ended, as the operating system tells it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    Timeout,
    OutOfMemory,
    /// The program could not be started (not found, not executable, ...).
    SpawnError(String),
    /// versus could not start the run for a reason of its own (no process,
    /// memory or file descriptor to be had, its output disk full): no fault
    /// of the program's.
    HarnessError(crate::base::outcome::HarnessFault, String),
}

/// One measured run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunRecord {
    pub wall: Nanos,
    pub user: Nanos,
    pub sys: Nanos,
    pub max_rss: Bytes,
    /// The starting process's own peak resident memory when the run started.
    /// The child is started the vfork way (sharing that memory until exec),
    /// and Linux counts the memory a process had before exec in its peak, so
    /// `max_rss` is never below this: a value at this floor means "at most
    /// this much".
    pub rss_floor: Bytes,
    pub exit: Exit,
}

impl RunRecord {
    /// A run that never started.
    pub fn not_started(message: String) -> RunRecord {
        RunRecord {
            wall: Nanos(0),
            user: Nanos(0),
            sys: Nanos(0),
            max_rss: Bytes(0),
            rss_floor: Bytes(0),
            exit: Exit::SpawnError(message),
        }
    }

    /// A run versus could not start, `error` saying why: the harness's fault
    /// when the error names the system's resources, else the program's.
    pub fn not_started_by(error: &std::io::Error, message: String) -> RunRecord {
        let mut r = RunRecord::not_started(String::new());
        r.exit = match crate::base::outcome::HarnessFault::of_io(error) {
            Some(fault) => Exit::HarnessError(fault, message),
            None => Exit::SpawnError(message),
        };
        r
    }
}

/// How far above the floor a child's `max_rss` may lie and still be the
/// floor: a vfork child touches a few pages of the shared memory before exec.
pub const RSS_FLOOR_SLACK: Bytes = Bytes(256 * 1024);

/// Runs commands. The real one starts processes; tests use a fake.
pub trait Executor {
    fn run(&mut self, req: &RunRequest) -> RunRecord;

    /// Which mechanism enforces memory limits, for the report.
    fn memory_limit_mechanism(&mut self) -> &'static str {
        "none"
    }
}
