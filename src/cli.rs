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
    Run(RunArgs),
    /// Benchmark two or more commands against each other (hyperfine-style).
    #[command(after_help = EXIT_CODES)]
    Exec(ExecArgs),
    /// Re-render saved results (results.json) as HTML, Markdown, CSV or Bencher Metric Format.
    Report(ReportArgs),
    /// Put the pieces of a sharded run (`run --shard`) back together: one results.json and report.
    #[command(after_help = MERGE_HELP)]
    Merge(MergeArgs),
    /// Compare two results files cell by cell (benchstat-style); gate CI with --fail-above.
    #[command(after_help = "Exit status: 0 compared; 1 bad input (unreadable files, other schema \
versions, different machines); 4 some cell is slower by more than --fail-above, with a `slower` verdict.")]
    Diff(DiffArgs),
    /// Check a worker against the protocol's conformance scenarios.
    #[command(after_help = "Example: versus conformance -- python3 workers/python/conformance_worker.py")]
    Conformance(ConformanceArgs),
    /// Print the JSON Schema of the suite file format (for editor completion).
    Schema,
}

/// Flags shared by `run` and `exec`.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Measured runs per cell (overrides the suite everywhere).
    #[arg(long, value_name = "N")]
    pub runs: Option<u32>,
    /// Unmeasured warm-up runs per cell before the measured ones (overrides the suite),
    /// or `auto`: warm up each cell until its last 10 samples are level (at most 100).
    #[arg(long, value_name = "N|auto", value_parser = parse_warmup)]
    pub warmup: Option<Warmup>,
    /// Adaptive sampling: after the minimum runs (--runs), keep taking interleaved runs
    /// until each cell's 95% interval of the median is within this fraction of it, e.g. 2%.
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    pub precision: Option<f64>,
    /// With --precision: most measured runs per cell.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_runs: u32,
    /// With --precision: most time per group of cells, e.g. 5m.
    #[arg(long, value_name = "DURATION", default_value = "5m")]
    pub max_time: String,
    /// Smallest difference called faster or slower, e.g. 1% (smaller ones are "indistinguishable").
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent, default_value = "1%")]
    pub noise: f64,
    /// Per-run time limit, e.g. 30s or 2m; a run over it is killed and the cell is `timeout`.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `--warmup`: a fixed number of runs, or until steady.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warmup {
    Runs(u32),
    Auto,
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
    let v = match s.trim().strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
        None => s.trim().parse::<f64>(),
    }
    .map_err(|_| format!("'{s}' is not a percentage such as 2%"))?;
    if !(v.is_finite() && (0.0..1.0).contains(&v)) {
        return Err(format!("'{s}' must be between 0% and 100%"));
    }
    Ok(v)
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The suite file (TOML).
    pub suite: PathBuf,
    /// Folder for results.json, cells.jsonl and report.md [default: versus-results/<suite name>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run only these implementations and/or operations (repeat the flag, or separate with commas).
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
    pub common: Common,
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
    /// A results.json written by `versus run` or `versus exec --json`.
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
    /// Markdown with the author's reading of this run (findings, surprises,
    /// caveats), shown after the summary of the HTML and Markdown reports.
    #[arg(long, value_name = "PATH")]
    pub notes: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The earlier results.json.
    pub old: PathBuf,
    /// The later results.json.
    pub new: PathBuf,
    /// Exit with status 4 when a cell got slower by more than this (e.g. 5%) with a `slower` verdict.
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    pub fail_above: Option<f64>,
    /// Also write the comparison as Markdown to PATH.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Compare even when the CPU model or core count differ (the verdicts then mean little).
    #[arg(long)]
    pub allow_different_machines: bool,
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
pub struct ExecArgs {
    /// The commands to compare, each one quoted argument.
    #[arg(required = true, value_name = "CMD")]
    pub commands: Vec<String>,
    /// Name of a command in reports, once per command in order (as in hyperfine).
    #[arg(long, short = 'n', value_name = "NAME")]
    pub name: Vec<String>,
    /// Run commands through `sh -c` (default: split into words and exec directly).
    #[arg(long, short = 'S')]
    pub shell: bool,
    /// Implementation ratios are computed against [default: the fastest].
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Write the results (same format as results.json) to PATH.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write a Markdown report to PATH.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}
