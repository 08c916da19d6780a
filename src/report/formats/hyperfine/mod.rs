//! hyperfine's JSON export, field for field (`versus exec --export-json`,
//! `versus report --hyperfine`), so that hyperfine's own `scripts/` and
//! every `jq '.results[0].mean'` written against hyperfine keep working.
//!
//! The shape is hyperfine 1.20's: `{"results": [...]}`, one entry per
//! command and parameter value, in the order they were planned (each
//! parameter value, every command in it), each with `command`, `mean`,
//! `stddev` (null under two runs), `median`, `user`, `system`, `min`, `max`,
//! `times`, `memory_usage_byte`, `exit_codes` and `parameters` (omitted when
//! empty, keys sorted). Times are seconds; memory is bytes, one figure per
//! run. hyperfine's file has no version field, so this module is where its
//! shape is pinned: `tests` checks every key and its type.
//!
//! Where versus has less than hyperfine would write: `user`/`system` are
//! null for cells that measured no CPU time (in-process and imported
//! cells), `memory_usage_byte` is left out where no run has a figure of its
//! own, and `exit_codes` is empty where no process exited (in-process
//! cells). A run's memory that versus could only bound is given as the
//! command's exact peak where versus measured one (see `memory`). Cells
//! that did not end ok are left out: hyperfine stops at a
//! failing command instead. `user` and `system` are means, as hyperfine's;
//! the document's (`Cell::mean_cpu_seconds`), not computed here.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::results::{Cell, Results};

/// Seconds, as hyperfine writes every time.
type Second = f64;

/// One command at one parameter value, as hyperfine's `BenchmarkResult` serialises.
#[derive(Debug, Serialize)]
pub struct Entry {
    pub command: String,
    pub mean: Second,
    pub stddev: Option<Second>,
    pub median: Second,
    pub user: Option<Second>,
    pub system: Option<Second>,
    pub min: Second,
    pub max: Second,
    pub times: Vec<Second>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_usage_byte: Option<Vec<u64>>,
    pub exit_codes: Vec<Option<i32>>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, String>,
}

#[derive(Debug, Serialize)]
struct Export<'a> {
    results: &'a [Entry],
}

/// The entries of every ok cell, in the document's cell order.
pub fn entries(results: &Results) -> Vec<Entry> {
    results.cells.iter().filter_map(entry).collect()
}

/// The cells left out because they did not end ok (for a note to the user).
pub fn left_out(results: &Results) -> Vec<String> {
    results
        .cells
        .iter()
        .filter(|c| c.stats.is_none())
        .map(Cell::label)
        .collect()
}

/// The file's text: pretty JSON ending in a newline, as hyperfine writes it.
pub fn render(results: &Results) -> serde_json::Result<String> {
    Ok(serde_json::to_string_pretty(&Export {
        results: &entries(results),
    })? + "\n")
}

fn entry(cell: &Cell) -> Option<Entry> {
    let s = cell.stats.as_ref()?;
    let secs = |ns: f64| ns / 1e9;
    let samples = &cell.samples;
    let process = samples.iterations.is_empty() && !samples.user_ns.is_empty();
    let (user, system) = cell.mean_cpu_seconds();
    Some(Entry {
        command: command(cell),
        mean: secs(s.mean_ns),
        stddev: s.stddev_ns.map(secs),
        median: secs(s.median_ns),
        user,
        system,
        min: secs(s.min_ns),
        max: secs(s.max_ns),
        times: samples.per_call_ns().into_iter().map(secs).collect(),
        memory_usage_byte: (process && samples.max_rss_bytes.len() == samples.len()).then(|| memory(cell)),
        exit_codes: if process {
            samples.exit_code_of_each_run().into_iter().map(Some).collect()
        } else {
            vec![]
        },
        parameters: cell.params.iter().map(|(k, v)| (k.clone(), v.to_string())).collect(),
    })
}

/// Each run's peak memory. A run whose figure stayed at its floor (versus's
/// own peak when it started the run, which `wait4` cannot go under) only
/// bounds it; where the cell has an exact peak (`stats.max_rss_bytes`, not
/// `max_rss_at_most`, taken as the same for every run of one command, as
/// the report does), that stands in for such a run's bound.
fn memory(cell: &Cell) -> Vec<u64> {
    let samples = &cell.samples;
    let exact_peak = cell
        .stats
        .as_ref()
        .filter(|s| !s.max_rss_at_most)
        .and_then(|s| s.max_rss_bytes);
    let slack = crate::exec::RSS_FLOOR_SLACK.0;
    let floors: Vec<u64> = samples.rss_floor_bytes.iter().collect();
    samples
        .max_rss_bytes
        .iter()
        .enumerate()
        .map(|(i, rss)| match (floors.get(i), exact_peak) {
            (Some(floor), Some(peak)) if rss <= floor + slack => peak,
            _ => rss,
        })
        .collect()
}

/// The command's name with its parameters filled in, as hyperfine names a
/// parametrised command (`sleep {t}` at t=0.1 is `sleep 0.1`).
fn command(cell: &Cell) -> String {
    cell.params.iter().fold(cell.implementation.clone(), |name, (k, v)| {
        name.replace(&format!("{{{k}}}"), &v.to_string())
    })
}

#[cfg(test)]
mod tests;
