//! The first run against the steady state, per implementation and operation.
//! A cell's first run is the first of its whole series (warm-up, then
//! measured); its steady median is the median from where the series
//! reached its final level (`stats.steady_from`), or the cell's median when
//! no level was found. Only cells where warm-up was measured count: warm-up
//! runs were taken, or the series settled after its start. An
//! implementation's ratios over its cells of an operation are summarised
//! (smallest, median, largest) and named when the typical cell shows an
//! effect of at least `NOTABLE` either way; one finding per operation names
//! them all: "first run against the steady median: age-js 3.2x–5.1x over 8
//! cells (typically 4.0x), rage 1.4x". In-process cells' first "run" is the
//! first warm-up batch, which follows the batch-size calibration.

use indexmap::IndexMap;

use crate::base::text;
use crate::results::{Cell, Finding, FindingKind, FirstRun, Results, SteadyState};
use crate::stats::summary::median_of_sorted;

/// Median ratio (or its inverse) from which a first-run effect is reported.
pub(crate) const NOTABLE: f64 = 1.2;

/// first run / steady median of one cell, where warm-up was measured.
pub(crate) fn first_run_ratio(cell: &Cell) -> Option<f64> {
    let s = cell.stats.as_ref()?;
    // In-process warm-up without its batch sizes (older files) cannot be
    // turned into time per call: calibration grows the batch after warm-up.
    let in_process = !cell.samples.iterations.is_empty();
    if in_process
        && !cell.warmup_wall_ns.is_empty()
        && cell.samples.warmup_iterations.len() != cell.warmup_wall_ns.len()
    {
        return None;
    }
    let mut series = cell.lead_in_per_call_ns();
    series.extend(cell.samples.per_call_ns());
    let settled_late = s.steady_state == SteadyState::Reached && s.steady_from.is_some_and(|k| k > 0);
    let warmed = settled_late || !cell.warmup_wall_ns.is_empty();
    if series.len() < 2 || !warmed {
        return None;
    }
    let steady = match s.steady_from {
        Some(k) if s.steady_state == SteadyState::Reached && k > 0 && k < series.len() => {
            crate::stats::median(&series[k..])
        }
        _ => s.median_ns,
    };
    (steady > 0.0 && series[0] > 0.0).then(|| series[0] / steady)
}

/// One implementation's cells of one operation, summarised; `None` unless notable.
fn summary(name: &str, cells: &[(&Cell, f64)]) -> Option<FirstRun> {
    let mut ratios: Vec<f64> = cells.iter().map(|(_, r)| *r).collect();
    ratios.sort_unstable_by(f64::total_cmp);
    let typical = median_of_sorted(&ratios);
    if typical < NOTABLE && typical > 1.0 / NOTABLE {
        return None;
    }
    Some(FirstRun {
        implementation: name.to_string(),
        ratio_min: ratios[0],
        ratio_median: typical,
        ratio_max: ratios[ratios.len() - 1],
        cells: ratios.len(),
        in_process: cells.iter().all(|(c, _)| !c.samples.iterations.is_empty()),
    })
}

/// "age 1.10x–1.30x over 10 cells (typically 1.20x)", or "rage 1.40x" for one cell.
fn part(f: &FirstRun) -> String {
    if f.cells == 1 {
        format!("{} {}", f.implementation, text::ratio(f.ratio_median))
    } else {
        format!(
            "{} {}–{} over {} cells (typically {})",
            f.implementation,
            text::ratio(f.ratio_min),
            text::ratio(f.ratio_max),
            f.cells,
            text::ratio(f.ratio_median)
        )
    }
}

/// An operation's cells with their ratios, by implementation.
type ByImplementation<'r> = IndexMap<&'r str, Vec<(&'r Cell, f64)>>;

/// One finding per operation naming each implementation whose first run
/// stands out from its steady median.
pub(crate) fn findings(results: &Results) -> Vec<Finding> {
    let mut by_op: IndexMap<&str, ByImplementation> = IndexMap::new();
    for c in &results.cells {
        if let Some(r) = first_run_ratio(c) {
            by_op
                .entry(c.operation.as_str())
                .or_default()
                .entry(c.implementation.as_str())
                .or_default()
                .push((c, r));
        }
    }
    by_op
        .into_iter()
        .filter_map(|(op, by_impl)| {
            let notable: Vec<(FirstRun, Vec<String>)> = by_impl
                .iter()
                .filter_map(|(name, cells)| {
                    let ids = cells.iter().map(|(c, _)| c.id.clone()).collect();
                    Some((summary(name, cells)?, ids))
                })
                .collect();
            if notable.is_empty() {
                return None;
            }
            let what = if notable.iter().all(|(f, _)| f.in_process) {
                "first warm-up batch (after calibration)"
            } else if notable.iter().any(|(f, _)| f.in_process) {
                "first run (in-process: first batch)"
            } else {
                "first run"
            };
            let parts: Vec<String> = notable.iter().map(|(f, _)| part(f)).collect();
            let sentence = format!("{what} against the steady median: {}", parts.join(", "));
            let cells = notable.iter().flat_map(|(_, ids)| ids.iter().cloned()).collect();
            let mut f = Finding::new(FindingKind::FirstRun, op, Default::default(), sentence, cells);
            if let [(one, _)] = notable.as_slice() {
                f.implementation = Some(one.implementation.clone());
            }
            f.first_runs = notable.into_iter().map(|(f, _)| f).collect();
            Some(f)
        })
        .collect()
}
