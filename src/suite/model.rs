//! The suite file as written by the user: plain serde types. Unknown keys are
//! errors (a typo must not silently change what is measured). The JSON Schema
//! published in `docs/suite.schema.json` is generated from these types.

use crate::base::order::Order;
use crate::base::params::ParamValue;
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A benchmark suite: implementations of the same operations, measured over a
/// parameter matrix.
#[derive(Debug, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct SuiteFile {
    /// Title of the report.
    pub name: Option<String>,
    /// A paragraph for the top of the report: what is compared and why.
    pub description: Option<String>,
    /// Implementation that ratios are computed against. Default: the fastest in each cell.
    pub baseline: Option<String>,
    /// Run settings; command-line flags override them.
    #[serde(default)]
    pub settings: Settings,
    /// Parameters and their values; the plan is their cartesian product.
    /// Each parameter is usable as a `{name}` placeholder. A parameter's values
    /// are a list, or a table of label = value: commands get the value, and
    /// reports, cell ids and overrides' `when` the label.
    #[serde(default)]
    pub matrix: IndexMap<String, MatrixValues>,
    /// Named strings usable as `{name}` placeholders in operation commands; overrides
    /// can change them for some parameter values (e.g. a flag only when `armor = true`).
    /// A command word that is only placeholders and renders empty is dropped.
    #[serde(default)]
    pub vars: IndexMap<String, String>,
    /// The input every operation reads as `{payload}` (unless it consumes another operation's output).
    pub payload: Option<PayloadSpec>,
    /// Commands run once before any cell (e.g. generating keys into `{tmp}`).
    #[serde(default)]
    pub setup: Vec<String>,
    /// Commands run once at the end, even after a failure.
    #[serde(default)]
    pub teardown: Vec<String>,
    /// The operations every implementation provides, in the order they run.
    pub operations: IndexMap<String, OperationSpec>,
    /// The implementations compared; the order here is the column order of reports.
    pub implementations: IndexMap<String, ImplementationSpec>,
    /// Settings that apply only where parameters have given values.
    #[serde(default, rename = "override")]
    pub overrides: Vec<OverrideSpec>,
    /// Background services started before the first cell and stopped at the end.
    #[serde(default)]
    pub services: IndexMap<String, ServiceSpec>,
    /// What the report opens with and where the author's notes go.
    #[serde(default)]
    pub report: ReportSpec,
}

/// `[report]`: the comparisons the suite exists for, and its notes.
#[derive(Debug, Deserialize, JsonSchema, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct ReportSpec {
    /// The comparisons the report opens with, in this order. Without any,
    /// versus picks them: for each operation the baseline comparison at the
    /// largest and smallest size and wherever the fastest changes, largest
    /// difference first.
    #[serde(default)]
    pub headline: Vec<HeadlineSpec>,
    /// A Markdown file of the author's reading of the results, relative to
    /// the suite (default: SUITE.notes.md beside the suite file, when there is one).
    pub notes: Option<String>,
    /// Where the notes go: "lead" (right after the headline, the default) or "appendix".
    pub notes_at: Option<crate::results::NotesAt>,
}

/// One comparison the report opens with (`[[report.headline]]`).
#[derive(Debug, Deserialize, JsonSchema, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct HeadlineSpec {
    /// The operation compared.
    pub operation: String,
    /// Parameter values to compare at, e.g. `{ size = "100MiB" }`; a
    /// parameter left out gives a line for each of its values.
    #[serde(default)]
    pub at: IndexMap<String, ParamValue>,
    /// The implementations compared (default: every other one).
    #[serde(default)]
    pub implementations: Vec<String>,
    /// What they are compared against (default: the suite's baseline, else the fastest).
    pub against: Option<String>,
    /// The question in your words, printed before its answer.
    pub question: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Measured runs per cell (default 10), shared out over the passes.
    pub runs: Option<u32>,
    /// Visit every group this many times, each pass in a fresh random order, so a
    /// cell's runs come from several stretches of time and its interval covers the
    /// variation between them (default 1).
    pub passes: Option<u32>,
    /// In-process cells: fresh worker processes per cell over the run, spread over the
    /// passes, so a runtime's JIT and GC state is sampled, not fixed (default: one per pass).
    pub forks: Option<u32>,
    /// The order a group's implementations take their runs in: "balanced" (default:
    /// every implementation follows every one, itself included, equally often, so
    /// what one run leaves behind for the next can be measured), "interleaved" (A B C,
    /// B C A, …) or "blocked" (each implementation's runs in one block, hyperfine's
    /// order; drift of the machine is then not cancelled).
    pub order: Option<Order>,
    /// In-process cells: before a timed batch that follows another process's
    /// turn (or starts a group's visit), one untimed batch of the same size, so
    /// what waking the worker costs is not charged to the timed one (default
    /// true; false halves the calls of interleaved in-process cells).
    pub lead_in: Option<bool>,
    /// Sample each group until every comparison is settled: faster, slower, or the
    /// same within this band, e.g. "2%" (also the run's noise floor), within the
    /// default limits of `--max-runs` and `--max-time`.
    pub resolve: Option<String>,
    /// Unmeasured warm-up runs per cell before the measured ones (default 1), or
    /// "auto": until the cell's last 10 samples are level (at most 100).
    pub warmup: Option<WarmupSpec>,
    /// Per-run time limit, e.g. "60s" (default 10m).
    pub timeout: Option<String>,
    /// Run every command through `sh -c` instead of splitting it into words (default false).
    pub shell: Option<bool>,
    /// In-process operations: how long one sample (a batch of calls) lasts at least;
    /// the batch size is calibrated to it (default 10ms).
    pub min_sample_time: Option<String>,
    /// What to measure: "wall" (always) and "instructions", counted in runs of their own
    /// under a counter after the timed runs (default ["wall"]).
    pub measure: Option<Vec<String>>,
    /// What counts instructions: "auto" (perf where the machine has hardware counters,
    /// else valgrind), "perf" or "valgrind" (default "auto").
    pub counter: Option<String>,
    /// Counted runs per cell with "instructions" (default: the cell's measured runs),
    /// shared out over the passes; 6 or more give each count an interval.
    pub counted_runs: Option<u32>,
}

/// A matrix parameter's values.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum MatrixValues {
    /// The values, each shown as itself: `size = ["1KB", "1MB"]`.
    List(Vec<ParamValue>),
    /// label = value: `filter = { count = "[.[] | select(.x > 5)] | length", keys = "keys" }`.
    /// Reports, cell ids, charts and overrides use the short label; commands get the value.
    Labelled(IndexMap<String, ParamValue>),
}

impl From<Vec<ParamValue>> for MatrixValues {
    fn from(values: Vec<ParamValue>) -> Self {
        MatrixValues::List(values)
    }
}

/// Where the payload comes from. Exactly one of `size`, `file`, `command`.
#[derive(Debug, Deserialize, JsonSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct PayloadSpec {
    /// Deterministic pseudo-random bytes of this size, e.g. "{size}" or "1MB".
    pub size: Option<String>,
    /// Seed of the generated bytes (default 0).
    pub seed: Option<u64>,
    /// An existing file, relative to the suite file.
    pub file: Option<String>,
    /// A command that writes the payload to `{out}`; run once per distinct expansion.
    pub command: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct OperationSpec {
    /// What the operation reads as `{in}`: "payload" (default) or the name of an
    /// earlier operation, whose output (by the same implementation, same parameters) it consumes.
    pub input: Option<String>,
    /// Feed `{in}` to the command's standard input.
    #[serde(default)]
    pub stdin: bool,
    /// Where the operation's output goes: "stdout" (captured into `{out}`, the default),
    /// "file" (the command writes `{out}` itself), "none" (stdout discarded, nothing checked)
    /// or "inherit" (stdout and stderr shown on versus's own, for debugging; nothing checked).
    pub output: Option<OutputMode>,
    /// With output = "stdout": the file the output is captured into (and `{out}`), relative
    /// to the suite file, instead of one per cell; every run rewrites it.
    pub stdout_file: Option<String>,
    /// Exit status a run must end with (default 0).
    pub exit_code: Option<i32>,
    /// Accept any exit status (hyperfine's `--ignore-failure`); a run killed by a signal still fails.
    #[serde(default)]
    pub ignore_failure: bool,
    /// Output must equal the payload byte for byte (the chain restores its input).
    #[serde(default)]
    pub roundtrip: bool,
    /// Output must be identical across implementations (and across runs). When
    /// outputs differ, the one most implementations agree on (with three or more) is
    /// taken as right, or the `reference` implementation's.
    #[serde(default)]
    pub same_output: bool,
    /// With `same_output`: the implementation whose output is right; every other must
    /// match it. Without it, a majority decides, and two that differ are both wrong output.
    pub reference: Option<String>,
    /// Output must equal this file (relative to the suite file; placeholders allowed).
    pub expect_file: Option<String>,
    /// Output must have this SHA-256 digest (hex).
    pub expect_sha256: Option<String>,
    /// Bytes counted for throughput: "payload" (default) or "none".
    pub throughput: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    Stdout,
    File,
    None,
    Inherit,
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct ImplementationSpec {
    /// The command for each operation, e.g. `encrypt = "age -r {recipient} -o {out} {in}"`.
    /// Operations without a command are served by the `worker`.
    #[serde(default)]
    #[schemars(with = "IndexMap<String, String>")]
    pub run: IndexMap<String, toml::Spanned<String>>,
    /// A command that starts an in-process worker (docs/worker-protocol.md), e.g.
    /// `python3 bench.py`; it serves every operation that has no `run` command.
    /// Placeholders: `{tmp}`, `{impl}`, parameters and vars.
    pub worker: Option<String>,
    /// A command whose output (first line) is reported as this implementation's version.
    pub version: Option<String>,
    /// Commands run once before this implementation's first cell.
    #[serde(default)]
    pub setup: Vec<String>,
    /// Commands run once at the end.
    #[serde(default)]
    pub teardown: Vec<String>,
    /// Commands run once before each of this implementation's cells (one operation at one
    /// parameter set), untimed: hyperfine's `--setup`. Parameters and vars are placeholders.
    #[serde(default)]
    pub cell_setup: Vec<String>,
    /// Commands run once after each of this implementation's cells: hyperfine's `--cleanup`.
    #[serde(default)]
    pub cell_teardown: Vec<String>,
    /// Commands run before every run (warm-up and measured) of this implementation,
    /// untimed: hyperfine's `--prepare` (e.g. dropping caches). A failure ends the cell as `failed`.
    #[serde(default)]
    pub prepare: Vec<String>,
    /// Commands run after every run, untimed: hyperfine's `--conclude`.
    #[serde(default)]
    pub conclude: Vec<String>,
    /// Working directory, relative to the suite file.
    pub cwd: Option<String>,
    /// Extra environment variables.
    #[serde(default)]
    pub env: IndexMap<String, String>,
    /// Memory limit per run, e.g. "512MB": enforced with a memory cgroup where one
    /// is writable, else with RLIMIT_AS; exceeding it is the `out_of_memory` outcome.
    pub memory_limit: Option<String>,
    /// Run this implementation's commands through `sh -c`.
    pub shell: Option<bool>,
    /// Free text shown in the report next to the name (language, runtime).
    pub note: Option<String>,
    /// A file whose size the report shows as this implementation's artifact
    /// (a binary, a WASM module, a bundle), relative to `cwd`. Placeholders:
    /// `{impl}` and this implementation's vars.
    pub artifact: Option<String>,
    /// Operations this implementation does not offer, each with the reason,
    /// e.g. `{ decrypt-local = "the SDK takes no key-access client" }`: their
    /// cells are `skipped` with it, and need no command.
    #[serde(default)]
    pub unsupported: IndexMap<String, String>,
    /// Placeholders of this implementation's own, e.g. `{ java = "/usr/bin/java" }`.
    #[serde(default)]
    pub vars: IndexMap<String, String>,
    /// A git repository (relative to the suite file) whose revisions this implementation is
    /// built from: with `--rev REV`, each revision is checked out in a worktree of it,
    /// built once with `build` (cached by commit), and measured as a column `<name>@<rev>`;
    /// without `--rev`, the work tree as it is. Placeholders `{checkout}` (the checkout's
    /// folder) and `{rev}` (its full commit hash) then work in this implementation's commands.
    /// Default: the repository holding the suite, when `build` is given.
    pub repo: Option<String>,
    /// The command that builds the implementation in `{checkout}` (it runs there), e.g.
    /// `cargo build --release`; its output goes to a log named when it fails. A revision
    /// that fails to build makes its cells `failed`, naming the log.
    pub build: Option<String>,
    /// Runs the same implementation several ways, each a column of its own named
    /// `<name>-<variant>`: variant name → values of this implementation's vars, e.g.
    /// `{ jdk17 = { java = "..." }, jdk25 = { java = "..." } }`.
    #[serde(default)]
    pub variants: IndexMap<String, IndexMap<String, String>>,
}

/// `warmup`: a number of runs, or the word "auto".
#[derive(Debug, Deserialize, JsonSchema, Clone)]
#[serde(untagged)]
pub enum WarmupSpec {
    Runs(u32),
    Word(String),
}

/// Settings for the cells whose parameters match `when`.
#[derive(Debug, Deserialize, JsonSchema, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct OverrideSpec {
    /// Parameter values this override applies to, e.g. `{ size = "100MB" }`.
    pub when: IndexMap<String, ParamValue>,
    /// The operations it applies to (default: every operation), e.g.
    /// `["decrypt"]`: its runs, warm-up, timeout, vars, skips and weight then
    /// change only those operations' cells at the `when` values.
    pub operations: Option<Vec<String>>,
    pub runs: Option<u32>,
    pub warmup: Option<WarmupSpec>,
    pub timeout: Option<String>,
    /// New values for `[vars]` where this override applies.
    #[serde(default)]
    pub vars: IndexMap<String, String>,
    /// Implementations not run where this override applies (reported as skipped).
    #[serde(default)]
    pub skip: Vec<String>,
    /// Why they are skipped; shown in the report.
    pub reason: Option<String>,
    /// Relative cost of one run where this override applies (default 1), so
    /// `versus run --shard` can balance pieces before any history exists,
    /// e.g. 50 for a payload 50 times larger.
    pub weight: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct ServiceSpec {
    /// The command that runs the service in the foreground.
    pub command: String,
    /// Ready when a TCP connection to this address succeeds, e.g. "127.0.0.1:8080".
    pub ready_tcp: Option<String>,
    /// Ready when a GET of this `http://` URL answers with a 2xx or 3xx status.
    pub ready_http: Option<String>,
    /// Ready when this command exits with status 0.
    pub ready_command: Option<String>,
    /// How long to wait for readiness (default 30s).
    pub ready_timeout: Option<String>,
    /// A command whose first line of output is the service's version, shown
    /// in the report (run once, before the service starts).
    pub version: Option<String>,
    /// Working directory, relative to the suite file.
    pub cwd: Option<String>,
    #[serde(default)]
    pub env: IndexMap<String, String>,
}

/// Which counter a suite asks for (`settings.counter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CounterChoice {
    /// perf where it counts, else valgrind.
    #[default]
    Auto,
    Perf,
    Valgrind,
}
