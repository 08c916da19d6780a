//! The checker's rules on runs themselves, read again from the samples:
//! a cell whose every run was slower than every run of the fastest is never
//! named as possibly fastest (with 3 runs each there is no verdict, yet
//! 707–717 ms is not a contender against 31.5–34.9 ms), a cell said to be
//! behind in every run is, and no cell whose runs sit at two levels (or
//! spread widely) is in any implementation's overall mean.

use crate::base::metric::Metric;
use crate::judge::judge_pair;
use crate::results::{Cell, Results, SizeAnswer, SizeWinner, group_key};

/// The fastest and slowest run of `c` per call, from its samples (its
/// summary's where it holds no samples).
fn run_range(c: &Cell) -> Option<(f64, f64)> {
    let runs = c.samples.per_call_ns();
    if runs.is_empty() {
        return c.stats.as_ref().map(|s| (s.min_ns, s.max_ns));
    }
    let low = runs.iter().copied().fold(f64::INFINITY, f64::min);
    let high = runs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((low, high))
}

/// Whether every run of `slow` took longer than every run of `fast`.
fn behind_in_every_run(slow: &Cell, fast: &Cell) -> bool {
    match (run_range(slow), run_range(fast)) {
        (Some((slow_low, _)), Some((_, fast_high))) => slow_low > fast_high,
        _ => false,
    }
}

/// One size's answer against its cells' runs (`cells` fastest first): no
/// contender behind in every run, and every cell said to be behind so.
pub(super) fn outrun(cells: &[&Cell], w: &SizeWinner, at: &str) -> Vec<String> {
    let Some(fastest) = cells.first() else {
        return vec![];
    };
    let cell = |name: &str| cells[1..].iter().find(|c| c.implementation == name);
    let mut out = Vec::new();
    let mut contenders: Vec<&String> = w.also_unknown.iter().collect();
    if w.answer == SizeAnswer::Unknown && !w.behind_every_run.contains(&w.runner_up) {
        contenders.push(&w.runner_up);
    }
    for name in contenders {
        if cell(name).is_some_and(|c| behind_in_every_run(c, fastest)) {
            out.push(format!(
                "at {at}: {name} is named as possibly fastest, but every run of it was slower than every run of {}",
                w.fastest
            ));
        }
    }
    for name in &w.behind_every_run {
        if !cell(name).is_some_and(|c| behind_in_every_run(c, fastest)) {
            out.push(format!(
                "at {at}: {name} is said to be behind {} in every run, but their runs overlap",
                w.fastest
            ));
        }
    }
    if !w.behind_every_run.is_empty() && w.answer != SizeAnswer::Unknown {
        out.push(format!(
            "at {at}: cells behind in every run are described only where no verdict settles the answer"
        ));
    }
    out
}

/// Each overall row's mean counts only cells with an interval, stable runs
/// on both sides (assessed again, `super::unstable`) and a verdict no
/// carry-over withheld.
pub(super) fn means(results: &Results) -> Vec<String> {
    let Some(overall) = &results.overall else {
        return vec![];
    };
    let in_group = |c: &Cell| {
        format!(
            "{}|{}",
            group_key(&c.operation, &c.params),
            c.machine.as_deref().unwrap_or("")
        )
    };
    let mut out = Vec::new();
    for row in &overall.implementations {
        let eligible = results
            .cells
            .iter()
            .filter(|c| c.implementation == row.implementation)
            .filter_map(|mine| {
                let theirs = results
                    .cells
                    .iter()
                    .find(|c| c.implementation == overall.reference && in_group(c) == in_group(mine))?;
                let judged = judge_pair(Metric::Wall, mine, theirs, &results.analysis)?;
                let interval = judged.comparison.ci_low.is_some() && judged.comparison.ci_high.is_some();
                let stable = !super::unstable(mine) && !super::unstable(theirs);
                (interval && stable && !judged.withheld).then_some(())
            })
            .count();
        if row.cells != eligible {
            out.push(format!(
                "{}: a mean over {} cells, where {eligible} have an interval and stable runs on both sides",
                row.implementation, row.cells
            ));
        }
    }
    out
}
