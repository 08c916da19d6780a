//! A suite's trend on one machine: for every cell, its median time per call
//! over the recorded runs, oldest first, and where it changed
//! (`stats::changepoint`). Built from the history store's per-cell
//! summaries (`history::series`); renderers in `report::trend` only format it.
//!
//! At a team's scale (thousands of runs of a thousand cells) most cells
//! never change, so a trend keeps every run's point only for the cells it
//! draws in full (those with a change, or every cell of a small suite); the
//! rest are a line of summary. Change points are found once per cell, the
//! cells shared out over the cores.

use std::collections::HashMap;
use std::sync::Arc;

use crate::base::metric::Metric;
pub(crate) use crate::history::TrendRun;
use crate::results::{AnalysisSettings, Verdict};
use crate::stats::changepoint::{self, Change, Detection, Options};

/// Suites with at most this many cells are drawn in full whatever changed.
pub(crate) const DRAW_ALL_UP_TO: usize = 24;

/// At most this many cells are drawn in full: those whose newest run starts
/// a change first, then the largest changes. The others with a change stay
/// a line of the summary (`--cell` draws any one).
pub(crate) const DRAW_AT_MOST: usize = 60;

/// One run of one cell.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Point {
    /// The run: an index into `Trend::runs`.
    pub run: usize,
    /// The implementation's version line in that run.
    pub version: Option<Arc<str>>,
    pub median_ns: f64,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
}

/// One cell's medians over the runs where it finished ok, oldest first:
/// what change detection reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Medians {
    pub id: String,
    pub run_ids: Vec<i64>,
    pub median_ns: Vec<f64>,
}

/// One cell over the runs where it finished ok.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CellTrend {
    pub id: String,
    /// Runs where the cell finished ok.
    pub runs: usize,
    pub newest_median_ns: Option<f64>,
    /// Each change, with the run it starts at; `Change::index` counts the cell's ok runs.
    pub changes: Vec<Change>,
    pub change_runs: Vec<i64>,
    /// The cell's run-to-run noise (≈ relative spread) and the smallest step called a change.
    pub sigma: f64,
    pub threshold: f64,
    /// Every ok run's point when the cell is drawn in full, else empty.
    pub points: Vec<Point>,
}

impl CellTrend {
    /// The change the newest run starts, if any.
    pub(crate) fn newest_change(&self) -> Option<&Change> {
        self.changes
            .last()
            .filter(|c| c.index + 1 == self.runs && self.runs > 1)
    }

    /// Drawn in full (every run's point kept).
    pub(crate) fn drawn(&self) -> bool {
        !self.points.is_empty()
    }
}

/// A suite's trend on one machine.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Trend {
    pub suite: String,
    /// What the medians are of: time per call, or instructions per call.
    pub metric: Metric,
    pub machine: String,
    /// Runs of the suite on the machine, oldest first.
    pub runs: Vec<TrendRun>,
    pub cells: Vec<CellTrend>,
    /// Set when the trend covers part of the history (`--last`, `--since`, `--cell`).
    pub scope: Option<String>,
    /// Cells with a change not drawn in full (over `DRAW_AT_MOST`).
    pub undrawn_changes: usize,
}

impl Trend {
    /// Cells whose newest run starts a slowdown: `versus trend` exits 4.
    pub(crate) fn newest_regressions(&self) -> Vec<&CellTrend> {
        self.cells
            .iter()
            .filter(|c| c.newest_change().is_some_and(|ch| ch.ratio() > 1.0))
            .collect()
    }
}

/// The change points whose step the judge confirms (`history::judge::change::step`),
/// with `metric`'s band: the segmentation says where a cell moved, the one
/// rule of every verdict says whether that is a change.
fn confirmed(medians: &[f64], changes: Vec<Change>, sigma: f64, metric: Metric) -> Vec<Change> {
    let logs: Vec<f64> = medians.iter().map(|m| m.max(f64::MIN_POSITIVE).ln()).collect();
    let mut bounds: Vec<usize> = std::iter::once(0).chain(changes.iter().map(|c| c.index)).collect();
    bounds.push(logs.len());
    let settings = AnalysisSettings::default().for_metric(metric);
    changes
        .into_iter()
        .enumerate()
        .filter(|(i, _)| {
            let (before, after) = (&logs[bounds[*i]..bounds[i + 1]], &logs[bounds[i + 1]..bounds[i + 2]]);
            matches!(
                crate::history::judge::change::step(before, after, sigma, logs.len(), &settings),
                Verdict::Slower | Verdict::Faster
            )
        })
        .map(|(_, c)| c)
        .collect()
}

/// The change rule, applied to one cell's medians.
/// The segmentation's changes are kept only where `confirmed` agrees.
pub(crate) fn detect_cell(m: &Medians, opts: &Options, metric: Metric) -> Detection {
    let mut d = changepoint::detect(&m.median_ns, opts);
    d.changes = confirmed(&m.median_ns, std::mem::take(&mut d.changes), d.sigma, metric);
    d
}

/// Each cell's changes, once per cell, the cells shared out over the cores.
pub(crate) fn detect(cells: &[Medians], opts: &Options, metric: Metric) -> Vec<Detection> {
    crate::base::parallel::map(cells, |m| detect_cell(m, opts, metric))
}

/// Which cells are drawn in full: those with a change (at most
/// `DRAW_AT_MOST`, the newest changes and then the largest first), or all
/// of a small suite.
pub(crate) fn to_draw(cells: &[Medians], detections: &[Detection]) -> Vec<bool> {
    if cells.len() <= DRAW_ALL_UP_TO {
        return vec![true; cells.len()];
    }
    let mut changed: Vec<(bool, f64, usize)> = cells
        .iter()
        .zip(detections)
        .enumerate()
        .filter(|(_, (_, d))| !d.changes.is_empty())
        .map(|(i, (m, d))| {
            let newest = d.changes.last().is_some_and(|c| c.index + 1 == m.median_ns.len());
            let largest = d.changes.iter().map(|c| c.ratio().ln().abs()).fold(0.0, f64::max);
            (newest, largest, i)
        })
        .collect();
    changed.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut draw = vec![false; cells.len()];
    for (_, _, i) in changed.into_iter().take(DRAW_AT_MOST) {
        draw[i] = true;
    }
    draw
}

/// The trend of `cells` over `runs`, with `detections` from `detect`;
/// `points` holds every point of the cells drawn in full, by cell id.
pub(crate) fn build(
    suite: &str,
    machine: &str,
    runs: Vec<TrendRun>,
    cells: Vec<Medians>,
    detections: Vec<Detection>,
    mut points: HashMap<String, Vec<Point>>,
) -> Trend {
    let cells: Vec<CellTrend> = cells
        .into_iter()
        .zip(detections)
        .map(|(m, d)| CellTrend {
            change_runs: d.changes.iter().map(|c| m.run_ids[c.index]).collect(),
            runs: m.median_ns.len(),
            newest_median_ns: m.median_ns.last().copied(),
            points: points.remove(&m.id).unwrap_or_default(),
            id: m.id,
            changes: d.changes,
            sigma: d.sigma,
            threshold: d.threshold,
        })
        .collect();
    let undrawn_changes = cells.iter().filter(|c| !c.changes.is_empty() && !c.drawn()).count();
    Trend {
        suite: suite.to_string(),
        metric: Metric::Wall,
        machine: machine.to_string(),
        runs,
        cells,
        scope: None,
        undrawn_changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_run_starting_a_slowdown_is_a_regression() {
        let wobble = [1.0, 1.004, 0.997, 1.002, 0.999, 1.003, 0.998, 1.001];
        let mut a = Medians {
            id: "a".into(),
            ..Default::default()
        };
        let mut b = Medians {
            id: "b".into(),
            ..Default::default()
        };
        for (i, w) in wobble.iter().enumerate() {
            for m in [&mut a, &mut b] {
                m.run_ids.push(i as i64 + 1);
                m.median_ns.push(1000.0 * w);
            }
        }
        a.run_ids.push(9);
        a.median_ns.push(1300.0);
        b.run_ids.push(9);
        b.median_ns.push(1000.0);
        let cells = vec![a, b];
        let d = detect(&cells, &Options::default(), Metric::Wall);
        assert_eq!(to_draw(&cells, &d), [true, true], "a small suite is drawn in full");
        let runs = (1..=9)
            .map(|id| TrendRun {
                id,
                started_at: String::new(),
                git_commit: None,
            })
            .collect();
        let t = build("s", "m", runs, cells, d, HashMap::new());
        assert_eq!(t.runs.len(), 9);
        let bad: Vec<&str> = t.newest_regressions().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(bad, ["a"]);
        assert_eq!(t.cells[0].change_runs, [9]);
    }

    #[test]
    fn at_most_sixty_cells_are_drawn_the_newest_changes_first() {
        let wobble = |i: usize| 1000.0 * (1.0 + 0.002 * ((i * 7 % 5) as f64 - 2.0));
        let cell = |k: usize, newest: bool| {
            let median_ns: Vec<f64> = (0..20)
                .map(|i| {
                    let step = if newest { i == 19 } else { i >= 10 };
                    wobble(i) * if step { 1.3 } else { 1.0 }
                })
                .collect();
            Medians {
                id: format!("c{k:03}"),
                run_ids: (1..=20).collect(),
                median_ns,
            }
        };
        let cells: Vec<Medians> = (0..100).map(|k| cell(k, k >= 90)).collect();
        let d = detect(&cells, &Options::default(), Metric::Wall);
        assert!(d.iter().all(|d| !d.changes.is_empty()), "every cell changes");
        let draw = to_draw(&cells, &d);
        assert_eq!(draw.iter().filter(|x| **x).count(), DRAW_AT_MOST);
        assert!(draw[90..].iter().all(|x| *x), "the newest changes are drawn");
        let t = build("s", "m", vec![], cells, d, HashMap::new());
        assert_eq!(t.undrawn_changes, 100, "none drawn without points");
    }
}
