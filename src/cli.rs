//! Command-line interface: every flag defined once, with its help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::exit::{HELP as EXIT_CODES, MERGE_HELP};

#[derive(Parser, Debug)]
#[command(
    name = "versus",
    version,
    about = "Benchmark several implementations of the same job against each other, fairly, and write the report.",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a suite file: its parameter matrix, implementations, checks and reports.
    #[command(after_help = EXIT_CODES)]
    Run(Box<RunArgs>),
    /// Benchmark two or more commands against each other (hyperfine-style).
    #[command(after_help = EXIT_CODES)]
    Exec(Box<ExecArgs>),
    /// Re-render saved results (results.json, or a run's folder, finished or not): the
    /// terminal report, or HTML, Markdown, CSV, Bencher Metric Format, or another tool's
    /// format (hyperfine, pyperf, Go benchmark text, github-action-benchmark).
    Report(ReportArgs),
    /// Make other harnesses' results one versus comparison: hyperfine, pyperf, pytest-benchmark,
    /// `go test -bench`, criterion, JMH and Google Benchmark files, each an implementation.
    #[command(after_help = IMPORT_HELP)]
    Import(ImportArgs),
    /// Put the pieces of a sharded run (`run --shard`) back together: one results.json and report.
    #[command(after_help = MERGE_HELP)]
    Merge(MergeArgs),
    /// Compare two results (files, run ids or baseline names) cell by cell (benchstat-style); gate CI with --fail-above.
    #[command(after_help = "Exit status: 0 compared; 1 bad input (unreadable files, other schema \
versions, different machines); 4 some cell is slower by more than --fail-above, with a `slower` verdict.")]
    Diff(DiffArgs),
    /// The history store: list (the default), show, export, import and prune recorded runs.
    History(HistoryArgs),
    /// A suite's trend on this machine: each cell's median over the recorded runs and where it changed.
    #[command(
        after_help = "Exit status: 0 written; 1 bad input (no such suite, unreadable store); \
4 the newest run starts a regression in some cell (CI can gate on it)."
    )]
    Trend(TrendArgs),
    /// Find the first commit (along first parents) where a cell got slower: each step measures
    /// the middle commit beside both ends of the range, in one run, taking turns (paired).
    #[command(after_help = BISECT_HELP)]
    Bisect(Box<BisectArgs>),
    /// Check a worker against the protocol's conformance scenarios.
    #[command(after_help = "Example: versus conformance -- python3 workers/python/conformance_worker.py")]
    Conformance(ConformanceArgs),
    /// Print the JSON Schema of the suite file format (for editor completion).
    Schema,
    /// Print a shell completion script, e.g. `versus completions bash > /etc/bash_completion.d/versus`.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `versus man > versus.1`.
    Man,
}

/// Flags shared by `run` and `exec`.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Measured runs per cell (overrides the suite everywhere).
    #[arg(long, short = 'r', value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    pub runs: Option<u32>,
    /// Visit every group N times, each pass in a fresh random order; each cell's runs are
    /// shared out over the passes and its interval covers the variation between them.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    pub passes: Option<u32>,
    /// In-process cells: fresh worker processes per cell over the run, spread over the
    /// passes (default: one per pass).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    pub forks: Option<u32>,
    /// The order a group's implementations take their runs in (overrides the suite):
    /// `balanced` (default) lets every implementation run after every one, itself
    /// included, equally often, so what one run leaves for the next is measured and
    /// reported; `interleaved` rotates (A B C, B C A, …); `blocked` runs each
    /// implementation's runs in one block, as hyperfine does (drift is then not cancelled).
    #[arg(long, value_enum, value_name = "ORDER")]
    pub order: Option<crate::suite::Order>,
    /// Unmeasured warm-up runs per cell before the measured ones (overrides the suite),
    /// or `auto`: warm up each cell until its last 10 samples are level (at most 100).
    #[arg(long, short = 'w', value_name = "N|auto", allow_negative_numbers = true, value_parser = parse_warmup)]
    pub warmup: Option<Warmup>,
    /// Adaptive sampling: after the minimum runs (--runs), keep taking interleaved runs
    /// until each cell's 95% interval of the median is within this fraction of it, e.g. 2%.
    #[arg(long, value_name = "PERCENT", allow_negative_numbers = true, value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// Adaptive sampling until settled: after the minimum runs (--runs), keep taking
    /// interleaved rounds until every comparison is faster, slower, or the same within
    /// this band, e.g. 2% (which also becomes the noise floor), or --max-runs / --max-time.
    #[arg(long, value_name = "PERCENT", value_parser = parse_precision, conflicts_with = "precision")]
    pub resolve: Option<f64>,
    /// With --precision or --resolve (or `exec --min-runs`): most measured runs per cell.
    #[arg(long, short = 'M', value_name = "N", default_value_t = 1000, allow_negative_numbers = true, value_parser = parse_count)]
    pub max_runs: u32,
    /// With --precision or --resolve: most time per group of cells, e.g. 5m.
    #[arg(long, value_name = "DURATION", default_value = "5m", allow_hyphen_values = true)]
    pub max_time: String,
    /// The noise floor, e.g. 1%: a difference is called faster or slower only when its
    /// ratio passes it, and "same" only when its whole interval lies within it.
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent, default_value = "1%", allow_negative_numbers = true)]
    pub noise: f64,
    /// Per-run time limit, e.g. 30s or 2m; a run over it is killed and the cell is `timeout`.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub timeout: Option<String>,
    /// What to measure, e.g. `wall,instructions` (overrides the suite's `measure`): wall
    /// time always, and instructions counted in runs of their own under valgrind (or perf
    /// where the machine has hardware counters), a figure a busy machine cannot move.
    #[arg(long, value_name = "METRICS", value_delimiter = ',')]
    pub measure: Option<Vec<String>>,
    /// Counted runs per cell when instructions are measured (overrides the suite's
    /// `counted_runs`; default: as many as its measured runs). A run under valgrind
    /// takes tens of times as long; 6 or more give a count an interval.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub counted_runs: Option<u32>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Give each warning in full, with the cells it names (otherwise one line each).
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Colour in the end-of-run tables: `auto` (when standard output is a terminal and
    /// NO_COLOR is not set), `always`, or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

pub use crate::suite::Warmup;

/// `--metric`: "wall" or "instructions".
fn parse_metric(s: &str) -> Result<crate::results::Metric, String> {
    crate::results::Metric::parse(s).ok_or_else(|| format!("'{s}' is not a metric: give wall or instructions"))
}

/// A count of runs: at least 1.
fn parse_count(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{s}' is not a whole number of runs (1 or more)")),
    }
}

/// `--precision`: a percentage above 0.
fn parse_precision(s: &str) -> Result<f64, String> {
    match parse_percent(s)? {
        0.0 => Err("0% can never be reached: give a precision above 0, such as 2%".into()),
        p => Ok(p),
    }
}

fn parse_warmup(s: &str) -> Result<Warmup, String> {
    if s == "auto" {
        return Ok(Warmup::Auto);
    }
    s.parse()
        .map(Warmup::Runs)
        .map_err(|_| format!("'{s}' is not a number of runs or 'auto'"))
}

/// "2%" → 0.02; "0.02" → 0.02.
pub fn parse_percent(s: &str) -> Result<f64, String> {
    crate::units::parse_percent(s)
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The suite file (TOML).
    pub suite: PathBuf,
    /// Folder for results.json, cells.jsonl and report.md [default: versus-results/<suite name>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run only these implementations and/or operations (repeat the flag, or separate with commas);
    /// an implementation with variants is named by a variant or by its own name for all of them.
    /// When it leaves out the suite's baseline, ratios are against the first implementation kept.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Also write the Markdown report to PATH (it is always written to DIR/report.md).
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Also write the HTML report to PATH (it is always written to DIR/report.html).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Compute ratios against this implementation instead of the suite's `baseline`.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Continue an earlier run in DIR: cells it finished are kept, not run again.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub resume: Option<PathBuf>,
    /// Run only piece K (0-based) of N of the suite, for a scheduler to run the pieces on
    /// several machines and `versus merge` to join them. Each parameter point (every
    /// operation and implementation at one parameter set) stays in one piece. K/N, or
    /// `slurm` (SLURM_ARRAY_TASK_ID, _MIN and _COUNT of a job array), or VAR/N to read K
    /// from the environment variable VAR (JOB_COMPLETION_INDEX/4 for a Kubernetes Indexed
    /// Job). [default --out: versus-results/<suite name>/shard-K-of-N]
    #[arg(long, value_name = "K/N|slurm|VAR/N", value_parser = parse_shard)]
    pub shard: Option<ShardSpec>,
    /// With --shard: balance the pieces by the time each cell took in this earlier
    /// results.json (give every piece the same file). Without it, the suite's override
    /// `weight`s, else planned runs.
    #[arg(long, value_name = "RESULTS", requires = "shard")]
    pub shard_history: Option<PathBuf>,
    #[command(flatten)]
    pub exports: Exports,
    #[command(flatten)]
    pub revisions: RevisionArgs,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub record: Record,
}

/// Measuring implementations at several git revisions (`run` and `exec`).
#[derive(Args, Debug, Clone, Default)]
pub struct RevisionArgs {
    /// Measure each implementation built from a repository (the suite's `build`, `repo`) at
    /// this git revision: a branch, tag, commit or HEAD~3, or LABEL=REV. Repeat it: each
    /// revision is checked out and built once (cached by commit), and every such implementation
    /// is measured at every revision in the same groups, taking turns, as columns <impl>@<LABEL>;
    /// each later revision is judged against the first, paired.
    #[arg(long = "rev", value_name = "[LABEL=]REV", value_parser = parse_rev)]
    pub rev: Vec<crate::revisions::RevArg>,
    /// With --rev: exit with status 4 when a column at a later revision is slower than the same
    /// implementation at the first revision by more than this (e.g. 5%), with a `slower` verdict.
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent, allow_negative_numbers = true, requires = "rev")]
    pub fail_above: Option<f64>,
    /// With --rev: also write a Markdown summary made for a pull-request comment to PATH
    /// (regressions first, then improvements, then the cells with no change, counted).
    #[arg(long, value_name = "PATH", requires = "rev")]
    pub pr_comment: Option<PathBuf>,
    /// The full report's address, linked from the --pr-comment summary.
    #[arg(long, value_name = "URL", requires = "pr_comment")]
    pub report_url: Option<String>,
}

fn parse_rev(s: &str) -> Result<crate::revisions::RevArg, String> {
    crate::revisions::parse_rev(s)
}

/// Recording a run in the history store (`run` and `exec`).
#[derive(Args, Debug, Clone, Default)]
pub struct Record {
    #[command(flatten)]
    pub store: StoreArg,
    /// Do not record this run in the history store, and show no change since an earlier run.
    #[arg(long, conflicts_with_all = ["compare_to", "save_baseline"])]
    pub no_history: bool,
    /// Show the change since this baseline name or run id [default: the last run of the suite on this machine].
    #[arg(long, value_name = "NAME|RUN")]
    pub compare_to: Option<String>,
    /// Save this run as baseline NAME of its suite on this machine (for --compare-to NAME, versus diff NAME).
    #[arg(long, value_name = "NAME")]
    pub save_baseline: Option<String>,
}

/// Which history store to use.
#[derive(Args, Debug, Clone, Default)]
pub struct StoreArg {
    /// The history store: an SQLite file PATH, or a postgres://USER@HOST:PORT/DB URL for a shared one
    /// [default: .versus/history.db at the root of the git work tree holding the suite (or the current
    /// folder); outside git, beside the suite, or for `exec`, `import` and the history commands in the user's
    /// data folder, $XDG_DATA_HOME/versus/history.db or ~/.local/share/versus/history.db].
    #[arg(long, value_name = "PATH|URL", env = "VERSUS_STORE", global = true)]
    pub store: Option<String>,
}

#[derive(Args, Debug)]
pub struct HistoryArgs {
    /// What to do [default: list].
    #[command(subcommand)]
    pub action: Option<HistoryAction>,
    #[command(flatten)]
    pub store: StoreArg,
}

/// How many runs `versus history list` shows unless told.
pub const HISTORY_LIST_LIMIT: usize = 50;

#[derive(Subcommand, Debug)]
pub enum HistoryAction {
    /// Recorded runs, newest first.
    List {
        /// Only runs of this suite (its name).
        #[arg(long, value_name = "NAME")]
        suite: Option<String>,
        /// Only runs on this machine (its id, or its host name).
        #[arg(long, value_name = "ID|HOST")]
        machine: Option<String>,
        /// Only runs made on this git branch.
        #[arg(long, value_name = "BRANCH")]
        branch: Option<String>,
        /// Only runs started at or after this time (RFC 3339, or a date such as 2026-05-01).
        #[arg(long, value_name = "TIME")]
        since: Option<String>,
        /// At most this many runs.
        #[arg(long, value_name = "N", default_value_t = HISTORY_LIST_LIMIT)]
        limit: usize,
    },
    /// One run: its suite, machine, git state and cells.
    Show {
        /// The run's id (from `versus history list`).
        run: i64,
    },
    /// Write a run back to a results.json, exactly as it was recorded.
    Export {
        /// The run's id.
        run: i64,
        /// Where to write it.
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
    },
    /// Record results.json files (from `versus run`, `versus exec --json` or docs/results/) in the store.
    Import {
        /// The results files.
        #[arg(required = true, value_name = "RESULTS_JSON")]
        files: Vec<PathBuf>,
        /// Record them as measured on this machine (older files carry no machine identity).
        #[arg(long)]
        as_this_machine: bool,
    },
    /// Delete runs (a run a baseline names is kept).
    Prune {
        /// Keep the newest N runs of each suite on each machine, delete the older ones.
        #[arg(long, value_name = "N")]
        keep: Option<usize>,
        /// Delete runs started before this time (RFC 3339, or a date).
        #[arg(long, value_name = "TIME")]
        before: Option<String>,
        /// Delete these runs (repeat, or separate with commas).
        #[arg(long, value_name = "ID", value_delimiter = ',')]
        run: Vec<i64>,
        /// Only runs of this suite.
        #[arg(long, value_name = "NAME")]
        suite: Option<String>,
    },
    /// The store's size on disk, and what each run adds to it.
    Stats,
}

/// Notes at the end of `versus bisect --help`.
const BISECT_HELP: &str = "\
Example: versus bisect suite.toml --good v1.2 --bad main --cell compress/mytool/size=1MB --runs 30

Each step is a run of the suite at three revisions (--rev), recorded in the history store, its
results in DIR/step-N/. DIR/bisect.log says each step's evidence as it goes; DIR/bisect.json is
the replayable summary (versus bisect --replay DIR/bisect.json). A commit that cannot be built, or
whose cell fails, is skipped, as git bisect skip does.

Exit status: 0 the first bad commit was found; 1 bad input or a harness error; 6 no single
commit: no regression above --threshold between --good and --bad, or the first bad commit is
among commits that could not be built.";

#[derive(Args, Debug)]
pub struct BisectArgs {
    /// The suite file (TOML).
    #[arg(required_unless_present = "replay")]
    pub suite: Option<PathBuf>,
    /// A commit (or branch, tag) where the cell was fast.
    #[arg(long, value_name = "REV", required_unless_present = "replay")]
    pub good: Option<String>,
    /// A later commit where it is slow; --good must be one of its ancestors.
    #[arg(long, value_name = "REV", required_unless_present = "replay")]
    pub bad: Option<String>,
    /// The cell, as results name it: OPERATION/IMPLEMENTATION/PARAMS, e.g. compress/mytool/size=1MB
    /// [default: the suite's only cell of an implementation built from a repository].
    #[arg(long, value_name = "ID")]
    pub cell: Option<String>,
    /// --bad must be slower than --good by more than this (with a `slower` verdict).
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent, default_value = "3%", allow_negative_numbers = true)]
    pub threshold: f64,
    /// Measurements of a step whose verdict stays unclear before the nearer end decides it.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = parse_count)]
    pub attempts: u32,
    /// Folder for bisect.log, bisect.json and each step's results [default: versus-results/<suite name>/bisect].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replay a bisect.json: its recorded measurements through the search again (nothing is
    /// measured); it must come to the same commit.
    #[arg(long, value_name = "BISECT_JSON", conflicts_with_all = ["suite", "good", "bad", "cell"])]
    pub replay: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub store: StoreArg,
    /// Do not record the steps' runs in the history store.
    #[arg(long)]
    pub no_history: bool,
}

#[derive(Args, Debug)]
pub struct TrendArgs {
    /// The suite (its name) [default: the suite most recently run on this machine].
    #[arg(long, value_name = "NAME")]
    pub suite: Option<String>,
    /// The machine (its id or host name) [default: this one].
    #[arg(long, value_name = "ID|HOST")]
    pub machine: Option<String>,
    /// Write the HTML report here [default: versus-results/<suite>/trend.html unless --markdown is given].
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Write the Markdown report here [default: versus-results/<suite>/trend.md unless --html is given].
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// The figure to follow: `wall` (median time per call) or `instructions` (median
    /// instructions per call, of runs that counted them).
    #[arg(long, value_name = "METRIC", default_value = "wall", value_parser = parse_metric)]
    pub metric: crate::results::Metric,
    /// Only cells whose id matches (`*` matches any text, e.g. `encrypt/go/*`); repeat for more.
    #[arg(long, value_name = "ID|PATTERN")]
    pub cell: Vec<String>,
    /// Only the newest N runs.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub last: Option<u32>,
    /// Only runs started at or after this time (RFC 3339, or a date such as 2026-05-01).
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    #[command(flatten)]
    pub store: StoreArg,
}

/// `--shard`: which piece, given outright or read from a scheduler's environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardSpec {
    Fixed {
        index: u32,
        count: u32,
    },
    /// SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT.
    Slurm,
    /// The index from an environment variable, the count given.
    Env {
        var: String,
        count: u32,
    },
}

fn parse_shard(s: &str) -> Result<ShardSpec, String> {
    if s == "slurm" {
        return Ok(ShardSpec::Slurm);
    }
    let usage = || format!("'{s}' is not K/N (e.g. 0/4), `slurm`, or VAR/N (e.g. JOB_COMPLETION_INDEX/4)");
    let (k, n) = s.split_once('/').ok_or_else(usage)?;
    let count: u32 = n.trim().parse().map_err(|_| usage())?;
    if count == 0 {
        return Err(format!("'{s}': the number of pieces must be at least 1"));
    }
    let k = k.trim();
    if let Ok(index) = k.parse::<u32>() {
        if index >= count {
            return Err(format!("'{s}': K counts from 0, so it must be below N ({count})"));
        }
        return Ok(ShardSpec::Fixed { index, count });
    }
    let is_var = !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if is_var {
        Ok(ShardSpec::Env {
            var: k.to_string(),
            count,
        })
    } else {
        Err(usage())
    }
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The pieces: results.json files written by `versus run --shard`, or their folders.
    #[arg(required = true, value_name = "PIECE")]
    pub pieces: Vec<PathBuf>,
    /// Folder for the merged results.json, report.md and report.html.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge even when groups of the plan are missing (a piece failed or was not run);
    /// the report names them, and the exit status is 5.
    #[arg(long)]
    pub partial: bool,
    /// Also write the Markdown report to PATH (it is always written to DIR/report.md),
    /// e.g. $GITHUB_STEP_SUMMARY.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Also write the HTML report to PATH (it is always written to DIR/report.html).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub record: Record,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs() {
        assert_eq!(parse_shard("1/4"), Ok(ShardSpec::Fixed { index: 1, count: 4 }));
        assert_eq!(parse_shard("slurm"), Ok(ShardSpec::Slurm));
        assert_eq!(
            parse_shard("JOB_COMPLETION_INDEX/3"),
            Ok(ShardSpec::Env {
                var: "JOB_COMPLETION_INDEX".into(),
                count: 3
            })
        );
        for bad in ["4/4", "1/0", "1", "a-b/2", "/2", "1/x", "-1/3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}

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
    /// Give each warning of the terminal report in full, with the cells it names.
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
    /// Give each warning in full, with the cells it names.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    #[command(flatten)]
    pub exports: Exports,
    #[command(flatten)]
    pub record: Record,
}

/// Notes at the end of `versus import --help`.
const IMPORT_HELP: &str = "Formats (told apart by their content): hyperfine --export-json; pyperf -o; pytest-benchmark
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
    pub metric: crate::results::Metric,
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

#[derive(Args, Debug)]
#[command(after_long_help = EXEC_NOTES)]
pub struct ExecArgs {
    /// The commands to compare, each one quoted argument.
    #[arg(required = true, value_name = "CMD")]
    pub commands: Vec<String>,
    /// Name of a command in reports, once per command in order (as in hyperfine).
    #[arg(long, short = 'n', visible_alias = "command-name", value_name = "NAME")]
    pub name: Vec<String>,
    /// Run the commands (and --prepare, --conclude, --setup, --cleanup) through SHELL -c,
    /// e.g. `-S bash` or `--shell="bash --norc"`; `default` is sh, `none` is the same as -N.
    /// Without a shell (the default), a command containing shell syntax (| && ; > < $( ` * ...)
    /// is refused. Unlike hyperfine, versus does not subtract the shell's own start-up time.
    #[arg(long, short = 'S', value_name = "SHELL")]
    pub shell: Option<String>,
    /// No shell: split each command into words and start the program directly (the default).
    #[arg(short = 'N', conflicts_with = "shell")]
    pub no_shell: bool,
    /// A parameter with a comma-separated list of values (`\,` is a literal comma): each
    /// `{VAR}` in the commands is replaced by each value; several -L form their product,
    /// as in hyperfine (the first -L changes fastest). Parameters become the report's rows.
    #[arg(long, short = 'L', num_args = 2, value_names = ["VAR", "VALUES"], action = clap::ArgAction::Append,
          conflicts_with = "parameter_scan")]
    pub parameter_list: Vec<String>,
    /// A parameter scanned from MIN to MAX inclusive (integers, or decimals with -D).
    #[arg(long, short = 'P', num_args = 3, value_names = ["VAR", "MIN", "MAX"])]
    pub parameter_scan: Vec<String>,
    /// With -P: the step of the scan (default 1; required for decimal ranges).
    #[arg(long, short = 'D', value_name = "DELTA", requires = "parameter_scan")]
    pub parameter_step_size: Option<String>,
    /// Run CMD before every run (warm-up and measured), untimed: once for all commands, or
    /// once per command in order. A failing CMD ends that command's cell as `failed`.
    #[arg(long, short = 'p', value_name = "CMD")]
    pub prepare: Vec<String>,
    /// Run CMD after every run, untimed: once for all commands, or once per command.
    #[arg(long, value_name = "CMD")]
    pub conclude: Vec<String>,
    /// Run CMD once before the runs of each command at each parameter value.
    #[arg(long, short = 's', value_name = "CMD")]
    pub setup: Option<String>,
    /// Run CMD once after the runs of each command at each parameter value.
    #[arg(long, short = 'c', value_name = "CMD")]
    pub cleanup: Option<String>,
    /// Accept any exit status of the commands (a run is still `failed` if killed by a signal).
    #[arg(long, short = 'i')]
    pub ignore_failure: bool,
    /// Feed FILE to each command's standard input (default: /dev/null).
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Where the commands' standard output goes: `null` (the default), `pipe` (versus reads it
    /// into a scratch file, so programs cannot tell it is /dev/null), `inherit` (the terminal,
    /// same as --show-output) or a FILE (rewritten by every run).
    #[arg(long, value_name = "WHERE", conflicts_with = "show_output")]
    pub output: Option<String>,
    /// Show the commands' standard output and error instead of discarding them.
    #[arg(long)]
    pub show_output: bool,
    /// Hyperfine's run count: at least N measured runs, more while a command's runs add up to
    /// less than 3 seconds (at most --max-runs). Conflicts with --runs and --precision.
    #[arg(long, short = 'm', value_name = "N", conflicts_with_all = ["runs", "precision"])]
    pub min_runs: Option<u32>,
    /// Implementation ratios are computed against [default: the fastest].
    #[arg(long, value_name = "NAME", conflicts_with = "reference")]
    pub baseline: Option<String>,
    /// A reference command, benchmarked first with the others, that every ratio is
    /// computed against (as hyperfine's --reference).
    #[arg(long, value_name = "CMD")]
    pub reference: Option<String>,
    /// The reference command's name in reports [default: its text].
    #[arg(long, value_name = "NAME", requires = "reference")]
    pub reference_name: Option<String>,
    /// Write the results to PATH (`-`: standard output) in versus's versioned results.json
    /// format (docs/results-format.md), with every run's figures, comparisons and findings.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write hyperfine's JSON to PATH, field for field as hyperfine 1.20 writes it
    /// (results[].command, mean, stddev, median, user, system, min, max, times,
    /// memory_usage_byte, exit_codes, parameters; seconds and bytes), for hyperfine's
    /// scripts and tools that read its files.
    #[arg(long, value_name = "PATH")]
    pub export_json: Option<PathBuf>,
    /// Write a Markdown report to PATH (versus's report, with its SVG charts beside it).
    #[arg(long, visible_alias = "export-markdown", value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Write one CSV row per command and parameter value (versus's columns, not hyperfine's).
    #[arg(long, visible_alias = "export-csv", value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the summary table as AsciiDoc.
    #[arg(long, value_name = "FILE")]
    pub export_asciidoc: Option<PathBuf>,
    /// Order of the commands in the summary: `auto` and `command` keep the order given,
    /// `mean-time` puts the fastest first (versus orders by the median).
    #[arg(long, value_enum, value_name = "METHOD", default_value = "auto")]
    pub sort: SortOrder,
    /// Show times in this unit instead of one chosen per figure (terminal, Markdown, AsciiDoc).
    #[arg(long, short = 'u', value_enum, value_name = "UNIT")]
    pub time_unit: Option<TimeUnit>,
    /// With --rev: the build command, run in each revision's checkout (`{checkout}` in the
    /// commands is its folder, `{rev}` its commit), e.g. "make -s prog".
    #[arg(long, value_name = "CMD", requires = "rev")]
    pub build: Option<String>,
    /// With --rev: the git repository the revisions are of [default: the current folder's].
    #[arg(long, value_name = "DIR", requires = "rev")]
    pub repo: Option<PathBuf>,
    #[command(flatten)]
    pub revisions: RevisionArgs,
    /// Output style: `auto` (progress bar when stderr is a terminal), `basic` (no progress
    /// bar, no colour), `full` (progress bar always), `nocolor` (as --color never), `color`
    /// (as --color always), `none` (no progress and no summary; files are still written).
    /// An explicit --color wins.
    #[arg(long, value_enum, value_name = "TYPE", default_value = "auto")]
    pub style: Style,
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub record: Record,
}

/// Notes at the end of `versus exec --help`.
const EXEC_NOTES: &str = "\
Differences from hyperfine:
  - Commands run without a shell unless --shell is given (hyperfine: with sh unless -N);
    shell syntax without --shell is refused, not passed on as arguments.
  - The commands take turns run by run (A B, B A, ...; from three on in a balanced order
    where each also runs after itself) instead of one after the other, so
    --prepare/--conclude logs interleave; every count is the same as hyperfine's.
    --order blocked is hyperfine's order.
  - One warm-up run by default (hyperfine: none); --runs defaults to 10 (hyperfine: about
    3 seconds of runs, at least 10: use --min-runs for that rule).
  - --setup and --cleanup run per command and parameter value, as in hyperfine; all
    setups of a parameter value run before its first run, all cleanups after its last.
  - --export-json writes hyperfine's JSON (--json writes versus's own results.json);
    --export-markdown and --export-csv write versus's report and columns.
  - With -L/-P, --reference is measured at every parameter value, beside the others.";

/// `--sort`: the order of commands in the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SortOrder {
    Auto,
    Command,
    MeanTime,
}

/// `--time-unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TimeUnit {
    Microsecond,
    Millisecond,
    Second,
}

/// `--style`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Style {
    Auto,
    Basic,
    Full,
    Nocolor,
    Color,
    None,
}
