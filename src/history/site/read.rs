//! What the site reads from the history store: the runs (one listing), each
//! (suite, machine) pair's cells and their per-run summaries (never the
//! documents' samples), and the newest run's document without its samples,
//! for the baseline, the command line and the change since the run before.
//! The per-run summaries of runs an earlier publish read come from its
//! cache (`cache`), the rest from the store.

use std::collections::HashMap;

use anyhow::{Context, Result};

use super::cache;

use crate::base::metric::Metric;
use crate::history::judge::prior::Prior;
use crate::history::runs::since::prior;
use crate::history::runs::trend::{self, Medians};
use crate::history::site::model::{self as model, CellHistory, CellPoint, ChangeEntry, SuiteHistory};
use crate::history::{Filter, RunSummary, Store, TrendRun};
use crate::results::{Results, Since};
use crate::stats::changepoint;

/// Every (suite, machine) pair's runs, oldest first, the pairs in the order of their newest run, newest first.
pub(crate) fn pairs(store: &mut Store) -> Result<Vec<Vec<RunSummary>>> {
    let all = store.list(&Filter::default(), i64::MAX as usize)?;
    let mut order: Vec<(String, String)> = Vec::new();
    let mut by_pair: HashMap<(String, String), Vec<RunSummary>> = HashMap::new();
    for r in all {
        let key = (r.suite_name.clone(), r.machine_id.clone());
        if !by_pair.contains_key(&key) {
            order.push(key.clone());
        }
        by_pair.entry(key).or_default().push(r);
    }
    Ok(order
        .into_iter()
        .filter_map(|k| by_pair.remove(&k))
        .map(|mut runs| {
            runs.reverse();
            runs
        })
        .collect())
}

/// Each cell of the pair with its ok points, oldest first (no changes or
/// noise yet): the runs `cache` covers from there, the rest from the store.
fn cells(store: &mut Store, suite: &str, machine: &str, runs: &[TrendRun]) -> Result<Vec<CellHistory>> {
    let series = store.series(suite, machine)?;
    let index: HashMap<i64, usize> = series.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
    let by_run: HashMap<i64, usize> = runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let mut cells: Vec<CellHistory> = series
        .iter()
        .map(|s| {
            let (operation, params) = model::split_cell_id(&s.cell_id, &s.implementation);
            CellHistory {
                id: s.cell_id.clone(),
                operation,
                implementation: s.implementation.clone(),
                params,
                points: Vec::new(),
                changes: Vec::new(),
                noise: None,
            }
        })
        .collect();
    let mut add = |p: cache::Raw| {
        if let Some(&i) = index.get(&p.series_id) {
            cells[i].points.push(CellPoint {
                run: p.run,
                median_ns: p.median_ns,
                ci_low_ns: p.ci_low_ns,
                ci_high_ns: p.ci_high_ns,
            });
        }
    };
    let kept = cache::path(&store.location, suite, machine);
    let covered = cache::read(&kept, runs, &mut add);
    if let Some(from) = runs.get(covered) {
        store.trend_points(suite, machine, from.id, None, Metric::Wall, &mut |p| {
            if let (Some(&run), true, Some(median_ns)) = (by_run.get(&p.run_id), p.ok, p.median_ns) {
                add(cache::Raw {
                    series_id: p.series_id,
                    run,
                    median_ns,
                    ci_low_ns: p.ci_low_ns,
                    ci_high_ns: p.ci_high_ns,
                });
            }
        })?;
    }
    for c in &mut cells {
        c.points.sort_unstable_by_key(|p| p.run);
    }
    if covered < runs.len() {
        let count = cells.iter().map(|c| c.points.len()).sum();
        let mut all = series.iter().zip(&cells).flat_map(|(s, c)| {
            c.points.iter().map(|p| cache::Raw {
                series_id: s.id,
                run: p.run,
                median_ns: p.median_ns,
                ci_low_ns: p.ci_low_ns,
                ci_high_ns: p.ci_high_ns,
            })
        });
        cache::write(&kept, runs, count, &mut all);
    }
    cells.retain(|c| !c.points.is_empty());
    Ok(cells)
}

/// Each cell's change points, as `versus trend` finds them.
fn detect(cells: &mut [CellHistory], runs: &[TrendRun]) {
    let medians: Vec<Medians> = cells
        .iter()
        .map(|c| Medians {
            id: c.id.clone(),
            run_ids: c.points.iter().map(|p| runs[p.run].id).collect(),
            median_ns: c.points.iter().map(|p| p.median_ns).collect(),
        })
        .collect();
    let found = trend::detect(&medians, &changepoint::Options::default(), Metric::Wall);
    for (c, d) in cells.iter_mut().zip(found) {
        c.changes = d.changes;
    }
}

/// The newest run against the run before: as the newest run recorded it
/// when it was compared with that very run, else judged now, the same way.
fn since(store: &mut Store, newest: &Results, runs: &[TrendRun], noise: &Prior) -> Result<Option<Since>> {
    let Some(before) = runs.len().checked_sub(2).map(|i| runs[i].id) else {
        return Ok(None);
    };
    if let Some(s) = newest.since.as_ref().filter(|s| s.run_id == before) {
        return Ok(Some(s.clone()));
    }
    let old = store
        .document(before)?
        .results_without_runs()
        .with_context(|| format!("history store {}: run {before}", store.location))?;
    let label = (before, "the run before");
    Ok(Some(crate::history::runs::diff::since(
        &old, newest, noise, label, false, None,
    )))
}

/// One (suite, machine) pair's history, and its entries for the list of changes.
fn pair(store: &mut Store, summaries: &[RunSummary]) -> Result<(SuiteHistory, Vec<ChangeEntry>)> {
    let last = summaries.last().context("a pair has runs")?;
    let (suite, machine) = (last.suite_name.clone(), last.machine_id.clone());
    let runs: Vec<TrendRun> = summaries
        .iter()
        .map(|r| TrendRun {
            id: r.id,
            started_at: r.started_at.clone(),
            git_commit: r.git.commit.clone(),
        })
        .collect();
    let mut cells = cells(store, &suite, &machine, &runs)?;
    detect(&mut cells, &runs);
    let newest = store
        .document(last.id)?
        .results_without_runs()
        .with_context(|| format!("history store {}: run {}", store.location, last.id))?;
    let noise = prior(store, &newest, &machine);
    for c in &mut cells {
        c.noise = noise.for_cell(&c.id);
    }
    let since = since(store, &newest, &runs, &noise)?;
    let mut h = SuiteHistory {
        suite,
        machine,
        hostname: last.hostname.clone(),
        cpu_model: last.cpu_model.clone(),
        reports: runs.iter().rev().take(model::REPORTS_KEPT).map(|r| r.id).collect(),
        runs,
        baseline: newest.suite.baseline.clone(),
        // Read back through the document, which hides any password (`base::redact`), as every report does.
        command: newest.suite.command.clone(),
        cells,
        since: since.as_ref().map(model::counts),
    };
    h.cells.sort_by(|a, b| a.id.cmp(&b.id));
    let mut entries = model::step_entries(&h);
    if let Some(s) = &since {
        entries.extend(model::newest_entries(&h, s));
    }
    Ok((h, entries))
}

/// The runs whose reports the site links: each pair's last `REPORTS_KEPT`.
pub(crate) fn reported(pairs: &[Vec<RunSummary>]) -> Vec<i64> {
    let mut ids: Vec<i64> = pairs
        .iter()
        .flat_map(|runs| runs.iter().rev().take(model::REPORTS_KEPT).map(|r| r.id))
        .collect();
    ids.sort_unstable();
    ids
}

/// Every suite on every machine in the store (`pairs`), and the list of changes, newest first.
pub(crate) fn site(store: &mut Store, pairs: Vec<Vec<RunSummary>>) -> Result<(Vec<SuiteHistory>, Vec<ChangeEntry>)> {
    let mut suites = Vec::new();
    let mut changes = Vec::new();
    for summaries in pairs {
        let (h, entries) = pair(store, &summaries)?;
        suites.push(h);
        changes.extend(entries);
    }
    changes.extend(model::bisect_entries(&store.bisects()?));
    model::sort_entries(&mut changes);
    Ok((suites, changes))
}
