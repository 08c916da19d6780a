//! The subcommands as pipelines: flags → suite and plan → a session → the
//! outputs. Everything with an idea of its own lives in the layers below;
//! this is glue.

/// `println!` through `say`: stops quietly when the reader went away.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::app::say(&format!("{}\n", format_args!($($arg)*)))
    };
}

mod adhoc;
mod bisect;
pub mod cli;
mod conformance;
mod diff;
mod docs;
mod exec;
pub mod exit;
mod history;
mod import;
mod notes;
mod recording;
mod report;
mod revisions;
mod run;
mod shards;
mod site;
mod trend;

pub use bisect::bisect;
pub use conformance::conformance;
pub use diff::diff;
pub use docs::{completions, man, schema};
pub use exec::exec;
pub use history::history;
pub use import::import;
pub use report::report;
use run::run_session;
pub use run::run_suite;
pub use shards::merge;
pub use site::site;
pub use trend::trend;

use anyhow::{Context, Result, bail};

use crate::app::cli::{ColorChoice, Common, Style};
use crate::base::units::parse_duration;
use crate::plan::{Sampling, Selection};
use crate::report::Outputs;
use crate::report::formats::terminal;
use crate::results::Results;

/// Writes to standard output. A reader that went away (`versus schema |
/// head`) is not an error: what it did not read it did not want.
pub(crate) fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(crate::base::sink::terminal(text).as_bytes())
        .and_then(|()| out.flush());
}

/// A duration flag's value: parsed, and more than zero.
fn positive_duration(flag: &str, text: &str) -> Result<std::time::Duration> {
    let d = parse_duration(text).with_context(|| flag.to_string())?;
    if d.is_zero() {
        bail!("{flag} {text}: must be more than zero");
    }
    Ok(d)
}

fn selection(common: &Common, only: Vec<String>) -> Result<Selection> {
    let timeout = common
        .timeout
        .as_deref()
        .map(|t| positive_duration("--timeout", t))
        .transpose()?;
    let max_time = positive_duration("--max-time", &common.max_time)?;
    let sampling = match (common.precision, common.resolve) {
        (Some(precision), _) => Sampling::Precision {
            precision,
            max_runs: common.max_runs,
            max_time,
        },
        (None, Some(band)) => Sampling::Resolve {
            band,
            max_runs: common.max_runs,
            max_time,
        },
        (None, None) => Sampling::Fixed,
    };
    Ok(Selection {
        only,
        runs: common.runs,
        passes: common.passes,
        forks: common.forks,
        order: common.order,
        warmup: common.warmup,
        timeout,
        sampling,
        measure: common
            .measure
            .as_deref()
            .map(crate::suite::parse_measure)
            .transpose()
            .map_err(|e| anyhow::anyhow!("--measure: {e}"))?,
        counted_runs: common.counted_runs,
    })
}

/// The end-of-run summary at the terminal's width (stdout's, else 100
/// columns), coloured as `colour` says.
fn summary(results: &Results, verbose: bool, colour: bool) -> String {
    terminal::summary_with(results, verbose, terminal::Layout::stdout(colour))
}

/// Whether to colour: `--color` when given, else `exec --style color/nocolor/basic`,
/// else colour when standard output is a terminal and `NO_COLOR` is unset or empty.
fn colour(choice: ColorChoice, style: Style) -> bool {
    let auto = || {
        std::io::IsTerminal::is_terminal(&std::io::stdout())
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
    };
    match (choice, style) {
        (ColorChoice::Always, _) => true,
        (ColorChoice::Never, _) => false,
        (ColorChoice::Auto, Style::Color) => true,
        (ColorChoice::Auto, Style::Nocolor | Style::Basic) => false,
        (ColorChoice::Auto, _) => auto(),
    }
}

/// The outputs in other tools' formats that `--hyperfine` and friends ask for.
pub(crate) fn exports(e: &crate::app::cli::Exports) -> Outputs {
    Outputs {
        hyperfine: e.hyperfine.clone(),
        pyperf: e.pyperf.clone(),
        go_bench: e.go_bench.clone(),
        github_action: e.github_action.clone(),
        ..Default::default()
    }
}
