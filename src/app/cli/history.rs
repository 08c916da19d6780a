//! The flags of the commands that read the history store: `history`,
//! `trend` and `bisect`.

use super::*;
use clap::{Args, Subcommand};
use std::path::PathBuf;

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
pub(super) const BISECT_HELP: &str = "\
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
    pub metric: crate::base::metric::Metric,
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
