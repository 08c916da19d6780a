//! A suite's trend on one machine: for every cell, its median time per call
//! over the recorded runs, oldest first, and where it changed
//! (`stats::changepoint`). Built from the history store's rows; renderers in
//! `report::trend` only format it.

use indexmap::IndexMap;

use crate::history::TrendRow;
use crate::results::{AnalysisSettings, Metric, Verdict};
use crate::stats::changepoint::{self, Change, Options};

/// One run of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub run_id: i64,
    pub started_at: String,
    pub git_commit: Option<String>,
    /// The implementation's version line in that run.
    pub version: Option<String>,
    pub median_ns: f64,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
}

/// One cell over the runs where it finished ok.
#[derive(Debug, Clone, PartialEq)]
pub struct CellTrend {
    pub id: String,
    pub points: Vec<Point>,
    pub changes: Vec<Change>,
    /// The cell's run-to-run noise (≈ relative spread) and the smallest step called a change.
    pub sigma: f64,
    pub threshold: f64,
}

impl CellTrend {
    /// The change the newest run starts, if any.
    pub fn newest_change(&self) -> Option<&Change> {
        self.changes
            .last()
            .filter(|c| c.index + 1 == self.points.len() && self.points.len() > 1)
    }
}

/// A suite's trend on one machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    pub suite: String,
    /// What the medians are of: time per call, or instructions per call.
    pub metric: Metric,
    pub machine: String,
    /// Runs of the suite on the machine, oldest first.
    pub runs: Vec<i64>,
    pub cells: Vec<CellTrend>,
}

impl Trend {
    /// Cells whose newest run starts a slowdown: `versus trend` exits 4.
    pub fn newest_regressions(&self) -> Vec<&CellTrend> {
        self.cells
            .iter()
            .filter(|c| c.newest_change().is_some_and(|ch| ch.ratio() > 1.0))
            .collect()
    }
}

/// The change points whose step the judge confirms (`judge::change::step`),
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
                crate::judge::change::step(before, after, sigma, logs.len(), &settings),
                Verdict::Slower | Verdict::Faster
            )
        })
        .map(|(_, c)| c)
        .collect()
}

/// Groups `rows` (oldest run first) into cells and finds each cell's
/// changes; the rows' medians are of `metric`.
pub fn build(suite: &str, machine: &str, rows: &[TrendRow], opts: &Options, metric: Metric) -> Trend {
    let mut runs: Vec<i64> = rows.iter().map(|r| r.run_id).collect();
    runs.dedup();
    let mut by_cell: IndexMap<&str, Vec<Point>> = IndexMap::new();
    for r in rows {
        let entry = by_cell.entry(r.cell_id.as_str()).or_default();
        let (Some(m), "ok") = (r.median_ns, r.outcome.as_str()) else {
            continue;
        };
        entry.push(Point {
            run_id: r.run_id,
            started_at: r.started_at.clone(),
            git_commit: r.git_commit.clone(),
            version: r.version.clone(),
            median_ns: m,
            ci_low_ns: r.ci_low_ns,
            ci_high_ns: r.ci_high_ns,
        });
    }
    by_cell.sort_keys();
    let cells = by_cell
        .into_iter()
        .map(|(id, points)| {
            let medians: Vec<f64> = points.iter().map(|p| p.median_ns).collect();
            let d = changepoint::detect(&medians, opts);
            CellTrend {
                id: id.to_string(),
                changes: confirmed(&medians, d.changes, d.sigma, metric),
                points,
                sigma: d.sigma,
                threshold: d.threshold,
            }
        })
        .collect();
    Trend {
        suite: suite.to_string(),
        metric,
        machine: machine.to_string(),
        runs,
        cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(run: i64, cell: &str, median: f64) -> TrendRow {
        TrendRow {
            run_id: run,
            started_at: format!("2026-01-{run:02}T00:00:00Z"),
            git_commit: None,
            cell_id: cell.into(),
            outcome: "ok".into(),
            median_ns: Some(median),
            ci_low_ns: None,
            ci_high_ns: None,
            version: None,
        }
    }

    #[test]
    fn the_newest_run_starting_a_slowdown_is_a_regression() {
        let wobble = [1.0, 1.004, 0.997, 1.002, 0.999, 1.003, 0.998, 1.001];
        let mut rows = Vec::new();
        for (i, w) in wobble.iter().enumerate() {
            rows.push(row(i as i64 + 1, "a", 1000.0 * w));
            rows.push(row(i as i64 + 1, "b", 1000.0 * w));
        }
        rows.push(row(9, "a", 1300.0));
        rows.push(row(9, "b", 1000.0));
        let t = build("s", "m", &rows, &Options::default(), Metric::Wall);
        assert_eq!(t.runs.len(), 9);
        let bad: Vec<&str> = t.newest_regressions().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(bad, ["a"]);
    }
}
