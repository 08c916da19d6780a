//! The flags of the commands that read results files and other tools'
//! files: `report`, `import`, `diff`, and the worker checker `conformance`.

use super::*;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A results.json written by `versus run` or `versus exec --json` (with no file
    /// option, the terminal report is printed); or a run's output folder, finished or
    /// not (its results.json, else its journal: a run killed with kill -9 is rendered,
    /// marked interrupted, nothing measured), whose report.md and report.html are
    /// written in it unless an output is given; or that folder's cells.jsonl.
    pub results: PathBuf,
    /// Self-contained HTML report (inline CSS and SVG charts, no network).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Markdown report; its SVG charts are written beside it.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// One row per cell (long format).
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Bencher Metric Format JSON.
    #[arg(long, value_name = "PATH")]
    pub bmf: Option<PathBuf>,
    /// The results as this versus analyses them (statistics, verdicts and findings recomputed
    /// from the samples), in results.json's format; may be the input file itself, to bring it
    /// up to date, or `-` for standard output.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub exports: Exports,
    /// A Markdown summary made for a pull-request comment, of a run with several revisions
    /// (`--rev`): regressions first, then improvements, then the cells with no change, counted.
    #[arg(long, value_name = "PATH")]
    pub pr_comment: Option<PathBuf>,
    /// The full report's address, linked from the --pr-comment summary.
    #[arg(long, value_name = "URL", requires = "pr_comment")]
    pub report_url: Option<String>,
    /// Markdown with the author's reading of this run (findings, surprises,
    /// caveats), shown after the summary of the HTML and Markdown reports.
    #[arg(long, value_name = "PATH")]
    pub notes: Option<PathBuf>,
    /// The terminal report in full: every operation's tables, all the
    /// headline, and each warning in full with the cells it names.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Colour in the terminal report: `auto` (when standard output is a terminal and
    /// NO_COLOR is not set), `always`, or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
}

/// Files in other tools' formats (`report` and `import`).
#[derive(Args, Debug, Clone, Default)]
pub struct Exports {
    /// hyperfine's JSON (results[].mean, times, ... in seconds), for hyperfine's scripts.
    #[arg(long, value_name = "PATH")]
    pub hyperfine: Option<PathBuf>,
    /// pyperf's JSON, for `python -m pyperf stats`, `hist` and `compare_to`.
    #[arg(long, value_name = "PATH")]
    pub pyperf: Option<PathBuf>,
    /// Go's benchmark text (as `go test -bench` prints it), for benchstat;
    /// the implementation is the name key /impl (`benchstat -col /impl FILE`).
    #[arg(long, value_name = "PATH")]
    pub go_bench: Option<PathBuf>,
    /// github-action-benchmark's JSON for its `customSmallerIsBetter` tool.
    #[arg(long, value_name = "PATH")]
    pub github_action: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The files (criterion: its target/criterion folder), each FILE or FILE=NAME: NAME is
    /// the implementation its benchmarks belong to [default: the harness's own names (hyperfine's
    /// commands, criterion's functions), else the file's name].
    #[arg(required = true, value_name = "FILE[=NAME]", value_parser = parse_source)]
    pub files: Vec<crate::import::Source>,
    /// Folder for results.json, report.md and report.html [default: versus-results/<name>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The comparison's name (its suite name in reports and history) [default: "import: A vs B"].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Rename an operation or a parameter, so benchmarks the harnesses name differently meet
    /// in one comparison, e.g. --rename HashBench.sha256=Sha256 --rename arg=size (repeat the flag).
    #[arg(long, value_name = "OLD=NEW", value_parser = parse_rename)]
    pub rename: Vec<(String, String)>,
    /// Compute ratios against this implementation [default: the fastest].
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// The terminal report in full: every operation's tables, all the headline, each warning with the cells it names.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub exports: Exports,
    #[command(flatten)]
    pub record: Record,
}

/// Notes at the end of `versus import --help`.
pub(super) const IMPORT_HELP: &str =
    "Formats (told apart by their content): hyperfine --export-json; pyperf -o; pytest-benchmark
--benchmark-json; `go test -bench` output (with -count for several samples); criterion's
target/criterion folder; JMH -rf json; Google Benchmark --benchmark_out_format=json.

Example: versus import go.txt=go target/criterion=rust --rename sha256=Sha256 --out results/hash

Exit status: 0 imported; 1 bad input (the message names the file, and the line or field);
3 imported, but some benchmark reported a failure.";

fn parse_source(s: &str) -> Result<crate::import::Source, String> {
    crate::import::Source::parse(s)
}

fn parse_rename(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((old, new)) if !old.is_empty() && !new.is_empty() => Ok((old.to_string(), new.to_string())),
        _ => Err(format!("'{s}' is not OLD=NEW")),
    }
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The earlier results: a results.json, a run id of the history store, or a baseline name.
    pub old: String,
    /// The later results: a results.json, a run id, or a baseline name.
    pub new: String,
    #[command(flatten)]
    pub store: StoreArg,
    /// Exit with status 4 when a cell got slower by more than this (e.g. 5%) with a `slower` verdict.
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent, allow_negative_numbers = true)]
    pub fail_above: Option<f64>,
    /// What to compare: `wall` (time per call) or `instructions` (per call, where both
    /// runs counted them; --fail-above then gates on instructions).
    #[arg(long, value_name = "METRIC", default_value = "wall", value_parser = parse_metric)]
    pub metric: crate::base::metric::Metric,
    /// Also write the comparison as Markdown to PATH.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Compare even when the CPU model or core count differ (the verdicts then mean little).
    #[arg(long)]
    pub allow_different_machines: bool,
    /// Colour the verdicts: `auto` (when standard output is a terminal and NO_COLOR is
    /// not set), `always`, or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Run scenario files from DIR instead of the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub scenarios: Option<PathBuf>,
    /// Run only these scenarios (repeat, or separate with commas).
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub only: Vec<String>,
    /// The command that starts the worker, after `--`.
    #[arg(required = true, last = true, value_name = "WORKER_CMD")]
    pub command: Vec<String>,
}
