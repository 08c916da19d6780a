//! What `versus trend` reads: the runs of a suite on a machine (all, the
//! last N, or those since a date), its cells (`series`), and each cell's
//! summary per run, streamed a row at a time. A cell row is a handful of
//! numbers; samples stay in the documents, which a trend never opens.

use std::collections::HashMap;

use anyhow::Result;

use super::backend::Param;
use super::runs::Store;
use crate::base::metric::Metric;

/// A run as a trend shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendRun {
    pub id: i64,
    pub started_at: String,
    pub git_commit: Option<String>,
}

/// Which runs a trend covers: all of them, the newest `last`, those started
/// at or after `since` (RFC 3339 time or date), or both limits at once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Window {
    pub last: Option<usize>,
    pub since: Option<String>,
}

/// One cell of a suite on a machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub id: i64,
    pub cell_id: String,
    pub implementation: String,
}

/// One cell's summary in one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub series_id: i64,
    pub run_id: i64,
    /// The outcome was ok (only then is there a median).
    pub ok: bool,
    pub median_ns: Option<f64>,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
}

/// One cell of a run as recorded: its summary, without its samples (which
/// stay in the run's document).
#[derive(Debug, Clone, PartialEq)]
pub struct CellSummary {
    pub cell_id: String,
    pub outcome: String,
    pub n: Option<i64>,
    pub median_ns: Option<f64>,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
    pub mean_ns: Option<f64>,
    pub stddev_ns: Option<f64>,
}

impl Store {
    /// Every cell's summary in run `run_id`, by cell id: one query, no
    /// document read (for a comparison judged on summaries).
    pub fn summaries(&mut self, run_id: i64) -> Result<Vec<CellSummary>> {
        let mut out = Vec::new();
        self.db.query_each(
            "SELECT s.cell_id, c.outcome, c.n, c.median_ns, c.ci_low_ns, c.ci_high_ns, c.mean_ns, c.stddev_ns \
             FROM cells c JOIN series s ON s.id = c.series_id WHERE c.run_id = ?1 ORDER BY s.cell_id",
            &[run_id.into()],
            &mut |r| {
                out.push(CellSummary {
                    cell_id: r[0].text().unwrap_or_default(),
                    outcome: r[1].text().unwrap_or_default(),
                    n: r[2].int(),
                    median_ns: r[3].real(),
                    ci_low_ns: r[4].real(),
                    ci_high_ns: r[5].real(),
                    mean_ns: r[6].real(),
                    stddev_ns: r[7].real(),
                });
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// The runs of `suite` on `machine` in `window`, oldest first.
    pub fn trend_runs(&mut self, suite: &str, machine: &str, window: &Window) -> Result<Vec<TrendRun>> {
        let mut params: Vec<Param> = vec![suite.into(), machine.into()];
        let mut sql =
            "SELECT id, started_at, git_commit FROM runs WHERE suite_name = ?1 AND machine_id = ?2".to_string();
        if let Some(since) = &window.since {
            params.push(since.as_str().into());
            sql.push_str(" AND started_at >= ?3");
        }
        sql.push_str(" ORDER BY id DESC");
        if let Some(n) = window.last {
            sql.push_str(&format!(" LIMIT {n}"));
        }
        let mut runs = Vec::new();
        self.db.query_each(&sql, &params, &mut |r| {
            runs.push(TrendRun {
                id: r[0].int().unwrap_or(0),
                started_at: r[1].text().unwrap_or_default(),
                git_commit: r[2].text(),
            });
            Ok(())
        })?;
        runs.reverse();
        Ok(runs)
    }

    /// The cells of `suite` on `machine`, by cell id.
    pub fn series(&mut self, suite: &str, machine: &str) -> Result<Vec<Series>> {
        let mut out = Vec::new();
        self.db.query_each(
            "SELECT id, cell_id, implementation FROM series WHERE suite_name = ?1 AND machine_id = ?2 ORDER BY cell_id",
            &[suite.into(), machine.into()],
            &mut |r| {
                out.push(Series {
                    id: r[0].int().unwrap_or(0),
                    cell_id: r[1].text().unwrap_or_default(),
                    implementation: r[2].text().unwrap_or_default(),
                });
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Each cell's median in `metric` in the runs of `suite` on `machine`
    /// from run `from_run` on (of the series `only`, when given), as (series,
    /// run, median when the cell was ok), in no particular order: the least a
    /// trend reads to find changes, three numbers a row. In a metric other
    /// than wall time, only the cells that measured it.
    pub fn trend_medians(
        &mut self,
        suite: &str,
        machine: &str,
        from_run: i64,
        only: Option<&[i64]>,
        metric: Metric,
        each: &mut dyn FnMut(i64, i64, Option<f64>),
    ) -> Result<()> {
        if only.is_some_and(|ids| ids.is_empty()) {
            return Ok(());
        }
        let (sql, params) = points_query(
            "c.series_id, c.run_id, CASE WHEN c.outcome = 'ok' THEN {median} END",
            suite,
            machine,
            from_run,
            only,
            metric,
        );
        self.db.query_each(&sql, &params, &mut |r| {
            each(r[0].int().unwrap_or(0), r[1].int().unwrap_or(0), r[2].real());
            Ok(())
        })
    }

    /// Every cell summary in `metric` of the runs of `suite` on `machine`
    /// from run `from_run` on (of the series `only`, when given), handed to
    /// `each` as it is read, in no particular order.
    pub fn trend_points(
        &mut self,
        suite: &str,
        machine: &str,
        from_run: i64,
        only: Option<&[i64]>,
        metric: Metric,
        each: &mut dyn FnMut(Point),
    ) -> Result<()> {
        if only.is_some_and(|ids| ids.is_empty()) {
            return Ok(());
        }
        let (sql, params) = points_query(
            "c.series_id, c.run_id, CASE WHEN c.outcome = 'ok' THEN 1 ELSE 0 END, {median}, {ci_low}, {ci_high}",
            suite,
            machine,
            from_run,
            only,
            metric,
        );
        self.db.query_each(&sql, &params, &mut |r| {
            each(Point {
                series_id: r[0].int().unwrap_or(0),
                run_id: r[1].int().unwrap_or(0),
                ok: r[2].int() == Some(1),
                median_ns: r[3].real(),
                ci_low_ns: r[4].real(),
                ci_high_ns: r[5].real(),
            });
            Ok(())
        })
    }

    /// The implementations' version lines in the runs of `suite` on
    /// `machine` from run `from_run` on, by (run, implementation).
    pub fn versions(&mut self, suite: &str, machine: &str, from_run: i64) -> Result<HashMap<(i64, String), String>> {
        let mut out = HashMap::new();
        self.db.query_each(
            "SELECT v.run_id, v.implementation, v.version FROM versions v JOIN runs r ON r.id = v.run_id \
             WHERE r.suite_name = ?1 AND r.machine_id = ?2 AND r.id >= ?3",
            &[suite.into(), machine.into(), from_run.into()],
            &mut |r| {
                if let (Some(run), Some(i), Some(v)) = (r[0].int(), r[1].text(), r[2].text()) {
                    out.insert((run, i), v);
                }
                Ok(())
            },
        )?;
        Ok(out)
    }
}

/// The query for cell rows of a suite on a machine from a run on, of some
/// series; `{median}`, `{ci_low}` and `{ci_high}` in `columns` are the
/// figures of `metric` (wall time: the cell row's; another: `cell_metrics`').
fn points_query(
    columns: &str,
    suite: &str,
    machine: &str,
    from_run: i64,
    only: Option<&[i64]>,
    metric: Metric,
) -> (String, Vec<Param>) {
    let mut params: Vec<Param> = vec![suite.into(), machine.into(), from_run.into()];
    let (columns, join) = match metric {
        Metric::Wall => (
            columns
                .replace("{median}", "c.median_ns")
                .replace("{ci_low}", "c.ci_low_ns")
                .replace("{ci_high}", "c.ci_high_ns"),
            String::new(),
        ),
        other => {
            params.push(other.name().into());
            (
                columns
                    .replace("{median}", "m.median")
                    .replace("{ci_low}", "m.ci_low")
                    .replace("{ci_high}", "m.ci_high"),
                " JOIN cell_metrics m ON m.run_id = c.run_id AND m.series_id = c.series_id AND m.metric = ?4"
                    .to_string(),
            )
        }
    };
    let mut sql = format!(
        "SELECT {columns} FROM cells c JOIN runs r ON r.id = c.run_id{join} \
         WHERE r.suite_name = ?1 AND r.machine_id = ?2 AND r.id >= ?3"
    );
    if let Some(ids) = only {
        let first = params.len() + 1;
        let marks: Vec<String> = (first..first + ids.len()).map(|i| format!("?{i}")).collect();
        params.extend(ids.iter().map(|id| Param::from(*id)));
        sql.push_str(&format!(" AND c.series_id IN ({})", marks.join(", ")));
    }
    (sql, params)
}
