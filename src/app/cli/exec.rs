//! `versus exec`'s flags: hyperfine's, one for one, and versus's own.

use super::*;
use clap::Args;
use std::path::PathBuf;

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
