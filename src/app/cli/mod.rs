//! Command-line interface: every flag defined once, with its help text.

mod exec;
mod files;
mod history;

pub use exec::*;
use files::IMPORT_HELP;
pub use files::*;
use history::BISECT_HELP;
pub use history::*;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::app::exit::{HELP as EXIT_CODES, MERGE_HELP, SITE_HELP};

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
    /// A team's static site from the history store: an index of every suite and its changes,
    /// a page per suite and per cell, and the reports of each suite's last 20 runs; or, with
    /// --regressions, the list of changes as text or JSON.
    #[command(after_help = SITE_HELP)]
    Site(SiteArgs),
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
    pub order: Option<crate::base::order::Order>,
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
    /// The end-of-run report in full: every operation's tables, all the headline, and each warning in full with the cells it names.
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
fn parse_metric(s: &str) -> Result<crate::base::metric::Metric, String> {
    crate::base::metric::Metric::parse(s).ok_or_else(|| format!("'{s}' is not a metric: give wall or instructions"))
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
    crate::base::units::parse_percent(s)
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
    /// Continue an earlier run in DIR: cells it finished are kept, not run again (a run
    /// stopped before it recorded any is run from the start).
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

/// `versus site`.
#[derive(Args, Debug)]
pub struct SiteArgs {
    /// The folder to write the site in (made if missing): index.html, suites/ and reports/.
    /// Pages whose bytes did not change are not written again; pages of the site no longer
    /// in it are removed; nothing else in the folder is touched.
    #[arg(long, value_name = "DIR", required_unless_present = "regressions")]
    pub out: Option<PathBuf>,
    /// Print the list of changes (the index's): each suite's newest run against the run
    /// before, as the judge calls it, and each step in a cell's history, with the run and
    /// commit that brought it, newest first. Exits 4 when some suite's newest run is slower.
    #[arg(long)]
    pub regressions: bool,
    /// With --regressions: the list as JSON ({"version": 1, "changes": [...]}).
    #[arg(long, requires = "regressions")]
    pub json: bool,
    #[command(flatten)]
    pub store: StoreArg,
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
