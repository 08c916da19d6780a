//! Run-to-run noise: how much a cell's median moves between runs on one
//! machine when nothing changed. Inside one run the runs of a cell share an
//! afternoon, a kernel's page cache and a host's neighbours; the next run
//! does not, and on a shared machine that difference is larger than any
//! interval computed inside one run. Comparing two runs against their
//! within-run intervals alone called a third of unchanged cells changed.
//!
//! The noise is learned as rustc-perf and Bencher learn their thresholds:
//! from the cell's own history on the machine. Each recorded run gives one
//! log median; the spread of successive differences (robust to a real step
//! somewhere in the history, which is one large difference among many) over
//! √2 is the standard deviation of one run's median. A cell with fewer than
//! `MIN_RUNS` recorded runs borrows the machine's figure: the median of the
//! noise of the suite's cells that have enough. With neither, only the
//! intervals of the two runs themselves are known, and the report says so.
//!
//! The same history gives each cell its level: the median of its last
//! `REFERENCE_RUNS` runs, what "the change since the last run" is measured
//! from (as Bencher and conbench measure against a window of recent runs).
//! One earlier run carries all of its own noise into every change; the
//! median of five carries about a third of it, so the same change stands
//! out of a narrower interval.

use crate::results::{NoiseSource as Source, RunNoise};
use crate::stats::changepoint::noise_sigma;

/// Recorded runs a cell needs before its own run-to-run noise is used.
pub(crate) const MIN_RUNS: usize = 5;
/// Most recent runs a noise figure is learned from: the machine of a year
/// ago is not today's.
pub(crate) const WINDOW: usize = 30;

/// Recorded runs a cell's level (the reference of a change since) is the median of.
pub(crate) const REFERENCE_RUNS: usize = 5;

/// Where a cell stood over its last runs: the median of their log medians.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    pub log_median: f64,
    /// Runs it is the median of (1 to `REFERENCE_RUNS`).
    pub runs: usize,
}

impl Level {
    /// The variance of the level over one run's (both in units of a run's
    /// noise): 1 for one run, ½ for the mean of two, π/2k for the median of
    /// k ≥ 3 (its large-sample value; a little above the exact one at k = 5).
    pub fn variance_share(&self) -> f64 {
        match self.runs {
            0 | 1 => 1.0,
            2 => 0.5,
            k => std::f64::consts::PI / (2.0 * k as f64),
        }
    }
}

/// A cell's level from its recorded medians (oldest first, nanoseconds).
pub(crate) fn level_of(medians_ns: &[f64]) -> Option<Level> {
    level_of_logs(&logs_of(medians_ns))
}

/// The same from a series already on the log scale (oldest first).
pub(crate) fn level_of_logs(logs: &[f64]) -> Option<Level> {
    let recent = &logs[logs.len().saturating_sub(REFERENCE_RUNS)..];
    (!recent.is_empty()).then(|| Level {
        log_median: crate::stats::median(recent),
        runs: recent.len(),
    })
}

/// The positive medians of a series on the log scale.
fn logs_of(medians_ns: &[f64]) -> Vec<f64> {
    medians_ns.iter().filter(|m| **m > 0.0).map(|m| m.ln()).collect()
}

/// Each cell's recorded medians (nanoseconds), oldest first, with the id of
/// the run each was measured in.
pub(crate) type Recorded = Vec<(String, Vec<(i64, f64)>)>;

/// A cell's noise from its recorded medians (oldest first, nanoseconds, at
/// most the last `WINDOW` used); `None` with fewer than `MIN_RUNS`.
pub(crate) fn of_cell(medians_ns: &[f64]) -> Option<RunNoise> {
    of_logs(&logs_of(medians_ns))
}

/// The same from a series already on the log scale (oldest first).
pub(crate) fn of_logs(logs: &[f64]) -> Option<RunNoise> {
    let recent = &logs[logs.len().saturating_sub(WINDOW)..];
    if recent.len() < MIN_RUNS {
        return None;
    }
    Some(RunNoise {
        sigma: noise_sigma(recent),
        runs: recent.len(),
        source: Source::Cell,
    })
}

/// The machine's figure: the median of the cells' own figures; `None` when
/// no cell has one.
pub(crate) fn of_machine(cells: &[RunNoise]) -> Option<RunNoise> {
    let mut own: Vec<&RunNoise> = cells.iter().filter(|n| n.source == Source::Cell).collect();
    if own.is_empty() {
        return None;
    }
    own.sort_by(|a, b| a.sigma.total_cmp(&b.sigma));
    Some(RunNoise {
        sigma: own[own.len() / 2].sigma,
        runs: own.iter().map(|n| n.runs).min().unwrap_or(0),
        source: Source::Machine,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_needs_a_few_runs_and_a_step_barely_moves_its_noise() {
        assert!(of_cell(&[100.0, 101.0, 99.0, 100.0]).is_none());
        let flat = [100.0, 102.0, 98.0, 101.0, 99.0, 100.0, 102.0, 98.0];
        let n = of_cell(&flat).unwrap();
        assert!(n.sigma > 0.005 && n.sigma < 0.03, "{n:?}");
        // The same wobble with a 30% step in the middle: one large difference among many.
        let mut stepped = flat.to_vec();
        for m in &mut stepped[4..] {
            *m *= 1.3;
        }
        let s = of_cell(&stepped).unwrap();
        assert!(s.sigma < 3.0 * n.sigma, "{s:?} against {n:?}");
    }

    #[test]
    fn a_level_is_the_median_of_the_last_runs() {
        let l = level_of(&[500.0, 100.0, 104.0, 98.0, 130.0, 101.0]).unwrap();
        assert_eq!(l.runs, REFERENCE_RUNS);
        assert!((l.log_median - 101.0f64.ln()).abs() < 1e-12, "{l:?}");
        assert!(l.variance_share() < 0.35);
        let one = level_of(&[100.0]).unwrap();
        assert_eq!((one.runs, one.variance_share()), (1, 1.0));
        assert!(level_of(&[]).is_none());
    }

    #[test]
    fn the_machine_figure_is_the_median_of_the_cells() {
        let cell = |sigma, runs| RunNoise {
            sigma,
            runs,
            source: Source::Cell,
        };
        let m = of_machine(&[cell(0.01, 8), cell(0.03, 6), cell(0.02, 12)]).unwrap();
        assert_eq!((m.sigma, m.runs, m.source), (0.02, 6, Source::Machine));
        assert!(of_machine(&[]).is_none());
    }
}
