//! Suite files: parsing (TOML → `model`) and validation (`validate`,
//! `implementations`) into a `Suite` whose commands are parsed templates and
//! whose references are checked, so that every later layer can trust it.
//! Every error names the file, and the line and column where the text allows.
//! A suite made in code (`versus exec`) goes through the same validation:
//! build a `SuiteFile` and call `from_file`; its `-L`/`-P` parameters
//! become the matrix in `hyperfine`, hyperfine's order kept.

mod hyperfine;
mod implementations;
mod model;
mod overrides;
mod report;
mod services;
mod shell;
mod validate;

use std::path::{Path, PathBuf};
use std::time::Duration;

use indexmap::IndexMap;

use crate::base::order::Order;
use crate::base::params::ParamValue;
use crate::base::placeholder::{CommandTemplate, Template};
use crate::base::units::Bytes;
pub(crate) use hyperfine::matrix as hyperfine_matrix;
pub use model::{CounterChoice, OutputMode, SuiteFile};
pub(crate) use model::{ImplementationSpec, OperationSpec, PayloadSpec};
pub(crate) use shell::shell_syntax;
pub use validate::parse_measure;
use validate::{Validator, line_col};

pub const DEFAULT_RUNS: u32 = 10;
pub const DEFAULT_WARMUP: u32 = 1;
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// A bad suite file. `Display` gives `FILE:LINE:COL: message` (or `FILE: message`).
#[derive(Debug, thiserror::Error)]
#[error("{location}: {message}")]
pub struct SuiteError {
    pub location: String,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub runs: u32,
    /// Times the suite's groups are visited, each in a fresh random order;
    /// a cell's runs are shared out over them.
    pub passes: u32,
    /// Worker processes per in-process cell over the run, spread over the passes.
    pub forks: u32,
    /// The order a group's implementations take their runs in.
    pub order: Order,
    /// In-process cells: an untimed batch before each timed one that follows
    /// another process's turn.
    pub lead_in: bool,
    /// Sample until settled within this band (`Sampling::Resolve`), unless the command line says otherwise.
    pub resolve: Option<f64>,
    pub warmup: Warmup,
    pub timeout: Duration,
    /// Minimum duration of one in-process sample (a batch of calls).
    pub min_sample_time: Duration,
    /// The metrics measured, wall time first (`measure`).
    pub measure: Vec<crate::base::metric::Metric>,
    /// What counts instructions, when they are measured.
    pub counter: crate::suite::CounterChoice,
    /// Counted runs per cell; `None`: as many as its measured runs.
    pub counted_runs: Option<u32>,
}

pub const DEFAULT_MIN_SAMPLE_TIME: Duration = Duration::from_millis(10);
/// Passes of the suite when neither the suite nor `--passes` says.
pub const DEFAULT_PASSES: u32 = 1;

/// Warm-up before a cell's measured runs: a fixed number of runs, or `Auto`,
/// until the cell's last samples are level (the runner's policy decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warmup {
    Runs(u32),
    Auto,
}

#[derive(Debug, Clone)]
pub enum Payload {
    /// Pseudo-random bytes; `size` may contain placeholders and is parsed per cell.
    Random {
        size: Template,
        seed: u64,
    },
    File(Template),
    Command(CommandTemplate),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Payload,
    /// Index into `Suite::operations` of the producing operation.
    Operation(usize),
}

#[derive(Debug, Clone)]
pub struct Operation {
    pub name: String,
    pub input: Input,
    pub stdin: bool,
    pub output: OutputMode,
    pub exit_code: i32,
    /// Any exit status is accepted (hyperfine's `-i`).
    pub ignore_failure: bool,
    /// Where captured stdout goes instead of the cell's own file.
    pub stdout_file: Option<PathBuf>,
    pub roundtrip: bool,
    pub same_output: bool,
    /// With `same_output`: the implementation whose output is right.
    pub reference: Option<String>,
    pub expect_file: Option<Template>,
    pub expect_sha256: Option<String>,
    pub counts_payload: bool,
}

impl Operation {
    /// Whether each run's output must be read and digested.
    pub fn checks_output(&self) -> bool {
        self.roundtrip || self.same_output || self.expect_file.is_some() || self.expect_sha256.is_some()
    }
}

#[derive(Debug, Clone)]
pub struct Implementation {
    pub name: String,
    /// The name the suite file declares it under: `name` itself, or for a
    /// variant the implementation whose variants it is (`java` for `java-jdk17`).
    pub declared: String,
    /// One command per operation, in `Suite::operations` order; `None` where the
    /// worker serves the operation.
    pub commands: Vec<Option<CommandTemplate>>,
    /// The command that starts this implementation's in-process worker.
    pub worker: Option<CommandTemplate>,
    pub version: Option<CommandTemplate>,
    pub setup: Vec<CommandTemplate>,
    pub teardown: Vec<CommandTemplate>,
    /// Run around each of this implementation's cells.
    pub cell_setup: Vec<CommandTemplate>,
    pub cell_teardown: Vec<CommandTemplate>,
    /// Run around every run of this implementation.
    pub prepare: Vec<CommandTemplate>,
    pub conclude: Vec<CommandTemplate>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub memory_limit: Option<Bytes>,
    pub note: Option<String>,
    /// The file whose size the report shows, relative to `cwd` (see `ImplementationSpec::artifact`).
    pub artifact: Option<Template>,
    /// Operations it does not offer, by index into `Suite::operations`, with the reason.
    pub unsupported: Vec<(usize, String)>,
    /// This implementation's own placeholders (its variant's values included).
    pub vars: Vec<(String, String)>,
    /// How it is built from a git repository (`repo`, `build`); `None` for a
    /// program taken as it is.
    pub build: Option<Build>,
    /// The revision this column measures, when `--rev` made it from `build`.
    pub revision: Option<RevisionTag>,
    /// Why this implementation cannot run (its build failed): each of its
    /// cells ends `failed` with this message instead of running.
    pub broken: Option<String>,
}

impl Implementation {
    /// Its name before a revision was appended (`gzip` for `gzip@main`).
    pub fn unrevised(&self) -> &str {
        self.revision.as_ref().map_or(&self.name, |r| &r.of)
    }
}

/// An implementation built from a git repository.
#[derive(Debug, Clone)]
pub struct Build {
    /// The repository: a folder in its work tree, absolute once loaded.
    pub repo: PathBuf,
    /// Run in the checkout; `None`: the checkout is used as it is.
    pub command: Option<CommandTemplate>,
}

/// The git revision an implementation's column was built at.
#[derive(Debug, Clone, PartialEq)]
pub struct RevisionTag {
    /// The implementation's own name (before `@`).
    pub of: String,
    /// The revision's label: what follows `@` in the column's name.
    pub label: String,
    /// The full commit hash.
    pub commit: String,
}

/// Placeholders an implementation built from a repository may use.
pub const BUILD_PLACEHOLDERS: &[&str] = &["checkout", "rev"];

#[derive(Debug, Clone)]
pub struct Override {
    pub when: IndexMap<String, ParamValue>,
    /// Indices into `Suite::operations` it applies to; empty means every operation.
    pub operations: Vec<usize>,
    pub vars: IndexMap<String, String>,
    pub runs: Option<u32>,
    pub warmup: Option<Warmup>,
    pub timeout: Option<Duration>,
    pub skip: Vec<String>,
    pub reason: Option<String>,
    /// Relative cost of one run here, for balancing shards (positive, finite).
    pub weight: Option<f64>,
}

impl Override {
    /// Whether it applies to operation `op` (index into `Suite::operations`)
    /// at the parameter values `params`.
    pub fn applies(&self, op: usize, params: &IndexMap<String, ParamValue>) -> bool {
        (self.operations.is_empty() || self.operations.contains(&op))
            && self.when.iter().all(|(k, v)| params.get(k) == Some(v))
    }
}

#[derive(Debug, Clone)]
pub struct Service {
    pub name: String,
    pub command: CommandTemplate,
    /// Prints the service's version (first line), for the report.
    pub version: Option<CommandTemplate>,
    pub ready: Readiness,
    pub ready_timeout: Duration,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub enum Readiness {
    Tcp(Template),
    Http(Template),
    Command(CommandTemplate),
    /// No probe: ready as soon as it started.
    Started,
}

/// A validated suite.
#[derive(Debug, Clone)]
pub struct Suite {
    pub path: PathBuf,
    /// Directory relative paths in the suite resolve against.
    pub dir: PathBuf,
    pub name: String,
    pub description: Option<String>,
    pub baseline: Option<String>,
    pub settings: Settings,
    /// Each parameter's values as cells know them: for a labelled parameter, its labels.
    pub matrix: IndexMap<String, Vec<ParamValue>>,
    /// Labelled parameters (`filter = { count = "…" }`): label → the value commands get.
    pub labels: IndexMap<String, IndexMap<String, ParamValue>>,
    /// Default values of the suite's own placeholders (see `Override::vars`).
    pub vars: IndexMap<String, String>,
    pub payload: Option<Payload>,
    pub setup: Vec<CommandTemplate>,
    pub teardown: Vec<CommandTemplate>,
    pub operations: Vec<Operation>,
    pub implementations: Vec<Implementation>,
    pub overrides: Vec<Override>,
    pub services: Vec<Service>,
    /// The suite's `[report]`: its headline comparisons and where its notes go.
    pub report: crate::results::ReportInfo,
}

/// Placeholders that every operation command may use, besides parameters and `<op>.out`.
pub const RUN_PLACEHOLDERS: &[&str] = &["payload", "in", "out", "tmp", "impl", "op"];

/// The largest suite file read: a suite is written by hand, and data belongs
/// in the files it names. A larger file is refused before it is read, so a
/// hostile or mistaken one costs no memory.
pub const SUITE_FILE_MAX: u64 = 16 << 20;

pub fn load(path: &Path) -> Result<Suite, SuiteError> {
    let fail = |message: String| SuiteError {
        location: path.display().to_string(),
        message,
    };
    let size = std::fs::metadata(path)
        .map_err(|e| fail(format!("cannot read the suite file: {e}")))?
        .len();
    if size > SUITE_FILE_MAX {
        return Err(fail(format!(
            "the suite file is {} bytes; a suite file is at most {} MiB (put data in the files it names)",
            size,
            SUITE_FILE_MAX >> 20
        )));
    }
    let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read the suite file: {e}")))?;
    let mut suite = parse(path, &text)?;
    // Commands run in the suite's folder while paths are resolved against it:
    // make it absolute so both agree whatever the caller's working directory.
    if let Ok(dir) = std::fs::canonicalize(&suite.dir) {
        for imp in &mut suite.implementations {
            if let Some(cwd) = &imp.cwd {
                imp.cwd = Some(dir.join(cwd.strip_prefix(&suite.dir).unwrap_or(cwd)));
            }
            if let Some(b) = &mut imp.build {
                b.repo = dir.join(b.repo.strip_prefix(&suite.dir).unwrap_or(&b.repo));
            }
        }
        for svc in &mut suite.services {
            if let Some(cwd) = &svc.cwd {
                svc.cwd = Some(dir.join(cwd.strip_prefix(&suite.dir).unwrap_or(cwd)));
            }
        }
        suite.dir = dir;
    }
    Ok(suite)
}

pub fn parse(path: &Path, text: &str) -> Result<Suite, SuiteError> {
    let file: SuiteFile = toml::from_str(text).map_err(|e| {
        let location = match e.span() {
            Some(span) => line_col(path, text, span.start),
            None => path.display().to_string(),
        };
        SuiteError {
            location,
            message: e.message().trim().to_string(),
        }
    })?;
    Validator { path, text }.validate(file)
}

/// Validates a suite built in code, as if it had been read from `path`.
pub fn from_file(path: &Path, file: SuiteFile) -> Result<Suite, SuiteError> {
    Validator { path, text: "" }.validate(file)
}

/// The JSON Schema of the suite format, for editors.
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(SuiteFile)).expect("a schema always serializes")
}

#[cfg(test)]
mod tests;
