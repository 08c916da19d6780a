//! `versus trend`: reads a suite's per-cell summaries from the history store
//! (never its documents), finds each cell's changes, reads every point only
//! of the cells it draws in full, and writes the pages. `--cell`, `--last`
//! and `--since` narrow what is read.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, bail};

use super::recording::open;
use crate::app::cli::TrendArgs;
use crate::app::exit;
use crate::base::metric::Metric;
use crate::history::runs::this_machine;
use crate::history::runs::{self, Medians, Point};
use crate::history::{Filter, Outside, Series, Store, TrendRun, Window};
use crate::stats::changepoint;

/// `pattern` with `*` matching any text (also none), against the whole of `text`.
fn matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The machine `--machine` names (an id or a host name), else this one.
fn machine(store: &mut Store, given: Option<&str>) -> Result<String> {
    let Some(m) = given else { return Ok(this_machine()) };
    let filter = Filter {
        machine: Some(m.to_string()),
        ..Default::default()
    };
    match store.list(&filter, 1)?.first() {
        Some(r) => Ok(r.machine_id.clone()),
        None => bail!(
            "--machine {m}: no runs of that machine in the history store {}",
            store.location
        ),
    }
}

fn suite(store: &mut Store, given: Option<&str>, machine: &str) -> Result<String> {
    let suites = store.suites(machine)?;
    match given {
        Some(s) if suites.iter().any(|x| x == s) => Ok(s.to_string()),
        Some(s) => bail!(
            "--suite {s}: no runs of it on machine {machine} in {} (suites there: {})",
            store.location,
            suites.join(", ")
        ),
        None => match suites.first() {
            Some(s) => Ok(s.clone()),
            None => bail!("no runs on machine {machine} in the history store {}", store.location),
        },
    }
}

/// `--since`: a date or an RFC 3339 time, compared as text with the runs' start times.
fn check_since(since: &str) -> Result<()> {
    let date = since.get(..10).unwrap_or("");
    let ok = date.len() == 10
        && date
            .char_indices()
            .all(|(i, c)| if i == 4 || i == 7 { c == '-' } else { c.is_ascii_digit() });
    if !ok {
        bail!("--since {since}: give a date such as 2026-05-01, or an RFC 3339 time");
    }
    Ok(())
}

/// Each cell's ok medians over `runs`, oldest first, read as summaries.
fn medians(
    store: &mut Store,
    suite: &str,
    machine: &str,
    runs: &[TrendRun],
    series: &[Series],
    only: Option<&[i64]>,
    metric: Metric,
) -> Result<Vec<Medians>> {
    let index: HashMap<i64, usize> = series.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
    let in_window: HashSet<i64> = runs.iter().map(|r| r.id).collect();
    let mut cells: Vec<Medians> = series
        .iter()
        .map(|s| Medians {
            id: s.cell_id.clone(),
            ..Default::default()
        })
        .collect();
    let mut seen = vec![false; series.len()];
    store.trend_medians(suite, machine, runs[0].id, only, metric, &mut |series, run, median| {
        let Some(&i) = index.get(&series) else { return };
        if !in_window.contains(&run) {
            return;
        }
        seen[i] = true;
        if let Some(m) = median {
            cells[i].run_ids.push(run);
            cells[i].median_ns.push(m);
        }
    })?;
    for c in &mut cells {
        if !c.run_ids.is_sorted() {
            let mut pairs: Vec<(i64, f64)> = c.run_ids.iter().copied().zip(c.median_ns.iter().copied()).collect();
            pairs.sort_unstable_by_key(|p| p.0);
            (c.run_ids, c.median_ns) = pairs.into_iter().unzip();
        }
    }
    let mut seen = seen.into_iter();
    cells.retain(|_| seen.next().unwrap_or(false));
    Ok(cells)
}

/// Every ok point of the cells `drawn` (series ids), by cell id, oldest first.
fn full_points(
    store: &mut Store,
    suite: &str,
    machine: &str,
    runs: &[TrendRun],
    series: &[Series],
    drawn: &[i64],
    metric: Metric,
) -> Result<HashMap<String, Vec<Point>>> {
    let mut out: HashMap<String, Vec<Point>> = HashMap::new();
    if drawn.is_empty() {
        return Ok(out);
    }
    let by_id: HashMap<i64, &Series> = series.iter().map(|s| (s.id, s)).collect();
    let by_run: HashMap<i64, usize> = runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    // One shared copy of each version line.
    let versions: HashMap<(i64, String), Arc<str>> = store
        .versions(suite, machine, runs[0].id)?
        .into_iter()
        .map(|(k, v)| (k, Arc::from(v)))
        .collect();
    store.trend_points(suite, machine, runs[0].id, Some(drawn), metric, &mut |p| {
        let (Some(s), Some(&run), true, Some(m)) = (by_id.get(&p.series_id), by_run.get(&p.run_id), p.ok, p.median_ns)
        else {
            return;
        };
        out.entry(s.cell_id.clone()).or_default().push(Point {
            run,
            version: versions.get(&(p.run_id, s.implementation.clone())).cloned(),
            median_ns: m,
            ci_low_ns: p.ci_low_ns,
            ci_high_ns: p.ci_high_ns,
        });
    })?;
    for points in out.values_mut() {
        points.sort_unstable_by_key(|p| p.run);
    }
    Ok(out)
}

/// What part of the history the trend covers, when not all of it.
fn scope(args: &TrendArgs) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(n) = args.last {
        parts.push(format!("the last {n} run(s)"));
    }
    if let Some(s) = &args.since {
        parts.push(format!("runs since {s}"));
    }
    if !args.cell.is_empty() {
        parts.push(format!("cells matching {}", args.cell.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

pub fn trend(args: TrendArgs) -> Result<ExitCode> {
    if let Some(s) = &args.since {
        check_since(s)?;
    }
    let mut store = open(&args.store, Path::new("."), &Outside::user_data())?;
    let machine = machine(&mut store, args.machine.as_deref())?;
    let suite = suite(&mut store, args.suite.as_deref(), &machine)?;
    let window = Window {
        last: args.last.map(|n| n as usize),
        since: args.since.clone(),
    };
    let runs = store.trend_runs(&suite, &machine, &window)?;
    if runs.is_empty() {
        bail!(
            "no runs of suite {suite} on machine {machine} since {}",
            args.since.as_deref().unwrap_or("?")
        );
    }
    let mut series = store.series(&suite, &machine)?;
    if !args.cell.is_empty() {
        series.retain(|s| args.cell.iter().any(|p| matches(p, &s.cell_id)));
        if series.is_empty() {
            bail!(
                "--cell {}: no cell of suite {suite} matches",
                args.cell.join(" --cell ")
            );
        }
    }
    let only: Option<Vec<i64>> = (!args.cell.is_empty()).then(|| series.iter().map(|s| s.id).collect());
    let cells = medians(
        &mut store,
        &suite,
        &machine,
        &runs,
        &series,
        only.as_deref(),
        args.metric,
    )?;
    if cells.is_empty() {
        bail!(
            "no {} recorded for suite {suite} on machine {machine} in {}",
            args.metric.name(),
            store.location
        );
    }
    let opts = changepoint::Options::default();
    let detections = runs::detect_trend(&cells, &opts, args.metric);
    let ids: HashMap<&str, i64> = series.iter().map(|s| (s.cell_id.as_str(), s.id)).collect();
    let drawn: Vec<i64> = cells
        .iter()
        .zip(runs::to_draw(&cells, &detections))
        .filter(|(_, d)| *d)
        .filter_map(|(c, _)| ids.get(c.id.as_str()).copied())
        .collect();
    let points = full_points(&mut store, &suite, &machine, &runs, &series, &drawn, args.metric)?;
    let mut t = runs::build_trend(&suite, &machine, runs, cells, detections, points);
    t.scope = scope(&args);
    t.metric = args.metric;
    write(&args, &t)
}

fn write(args: &TrendArgs, t: &runs::Trend) -> Result<ExitCode> {
    let (mut html, mut md) = (args.html.clone(), args.markdown.clone());
    if html.is_none() && md.is_none() {
        let dir = Path::new("versus-results").join(crate::base::folder::for_title(&t.suite));
        html = Some(dir.join("trend.html"));
        md = Some(dir.join("trend.md"));
    }
    runs::write_trend(t, html.as_deref(), md.as_deref())?;
    let small = t.cells.len() <= runs::DRAW_ALL_UP_TO;
    for c in t.cells.iter().filter(|c| small || !c.changes.is_empty()) {
        let changes: Vec<String> = c
            .changes
            .iter()
            .zip(&c.change_runs)
            .map(|(ch, run)| format!("run {run} {:+.1}%", (ch.ratio() - 1.0) * 100.0))
            .collect();
        say!(
            "{}: {} run(s), changes: {}",
            c.id,
            c.runs,
            if changes.is_empty() {
                "none".into()
            } else {
                changes.join(", ")
            }
        );
    }
    let changed = t.cells.iter().filter(|c| !c.changes.is_empty()).count();
    say!(
        "{}: {} cell(s) over {} run(s), {changed} with a change",
        t.suite,
        t.cells.len(),
        t.runs.len()
    );
    for p in html.iter().chain(md.iter()) {
        say!("Trend:   {}", p.display());
    }
    let bad = t.newest_regressions();
    if bad.is_empty() {
        return Ok(ExitCode::from(exit::OK));
    }
    tell!(
        "the newest run (run {}) starts a regression in {} cell(s): {}",
        t.runs.last().map_or(0, |r| r.id),
        bad.len(),
        bad.iter().map(|c| c.id.as_str()).collect::<Vec<_>>().join(", ")
    );
    Ok(ExitCode::from(exit::REGRESSION))
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn cell_patterns() {
        assert!(matches("a/b/v=1", "a/b/v=1"));
        assert!(!matches("a/b/v=1", "a/b/v=10"));
        assert!(matches("a/*", "a/b/v=1"));
        assert!(matches("*/v=1", "a/b/v=1"));
        assert!(matches("a/*/v=*", "a/b/v=1"));
        assert!(!matches("a/*/w=*", "a/b/v=1"));
        assert!(matches("*", ""));
        assert!(!matches("ab*ba", "aba"));
    }
}
