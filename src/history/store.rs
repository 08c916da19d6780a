//! The history store: every run recorded (its document, the machine, the
//! git state, each cell's statistics and samples), and the queries that
//! `versus history`, `diff`, `trend` and the "change since" column need.
//! Written once over `Backend`, so SQLite and PostgreSQL behave the same.
//!
//! A run is recorded in one transaction: a reader never sees half a run and
//! two writers never interleave. Its document is kept verbatim, so exporting
//! a run gives back the very `results.json` that was recorded.

use anyhow::{Context, Result, bail};

use super::backend::{Backend, Param, Row, Value};
use super::schema;
use crate::results::{Environment, Metric, Results};

/// An open store.
pub struct Store {
    db: Box<dyn Backend>,
    /// Where it is, for messages (a path, or a URL without its password).
    pub location: String,
}

/// The git state of the suite's repository when the run started.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Git {
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub dirty: Option<bool>,
}

/// What the store keeps about a run besides its document.
#[derive(Debug, Clone, Default)]
pub struct RunMeta {
    /// SHA-256 of the suite file (of the command line for `versus exec`).
    pub suite_hash: String,
    pub exit_status: Option<u8>,
    pub git: Git,
    /// "run", "exec" or "import".
    pub source: String,
    /// Overrides the document's machine identity (imports measured here).
    pub machine_id: Option<String>,
}

/// One line of `versus history list`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub id: i64,
    pub started_at: String,
    pub suite_name: String,
    pub machine_id: String,
    pub hostname: Option<String>,
    pub cpu_model: String,
    pub status: String,
    pub exit_status: Option<i64>,
    pub git: Git,
    pub source: String,
    pub cells: i64,
}

/// Filters of `versus history list`; `None` matches everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub suite: Option<String>,
    /// A machine id, or a host name.
    pub machine: Option<String>,
    pub branch: Option<String>,
    /// RFC 3339 time or date: runs that started at or after it.
    pub since: Option<String>,
}

/// One cell of one run, for trends.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendRow {
    pub run_id: i64,
    pub started_at: String,
    pub git_commit: Option<String>,
    pub cell_id: String,
    pub outcome: String,
    pub median_ns: Option<f64>,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
    pub version: Option<String>,
}

/// The machine identity of a results document: its own, else one derived
/// from what older files record (CPU model and cores).
pub fn machine_of(env: &Environment) -> String {
    env.machine.as_ref().map_or_else(
        || crate::environment::machine_id(None, None, &env.cpu_model, env.cores),
        |m| m.id.clone(),
    )
}

const SUMMARY_COLUMNS: &str = "r.id, r.started_at, r.suite_name, r.machine_id, m.hostname, m.cpu_model, r.status, \
     r.exit_status, r.git_commit, r.git_branch, r.git_dirty, r.source, \
     (SELECT count(*) FROM cells c WHERE c.run_id = r.id)";

fn summary(r: &Row) -> RunSummary {
    RunSummary {
        id: r[0].int().unwrap_or(0),
        started_at: r[1].text().unwrap_or_default(),
        suite_name: r[2].text().unwrap_or_default(),
        machine_id: r[3].text().unwrap_or_default(),
        hostname: r[4].text(),
        cpu_model: r[5].text().unwrap_or_default(),
        status: r[6].text().unwrap_or_default(),
        exit_status: r[7].int(),
        git: Git {
            commit: r[8].text(),
            branch: r[9].text(),
            dirty: r[10].int().map(|d| d != 0),
        },
        source: r[11].text().unwrap_or_default(),
        cells: r[12].int().unwrap_or(0),
    }
}

impl Store {
    /// Wraps an open connection, bringing its schema up to date.
    pub fn new(mut db: Box<dyn Backend>, location: String) -> Result<Store> {
        schema::migrate(db.as_mut(), schema::VERSION, &location)?;
        Ok(Store { db, location })
    }

    /// Wraps a connection without migrating (tests of older schemas).
    pub fn unmigrated(db: Box<dyn Backend>, location: String) -> Store {
        Store { db, location }
    }

    /// The store's schema version.
    pub fn schema_version(&mut self) -> Result<i64> {
        let rows = self.db.query("SELECT max(version) FROM versus_schema", &[])?;
        Ok(rows.first().and_then(|r| r[0].int()).unwrap_or(0))
    }

    /// Runs `f` in one write transaction.
    fn transaction<T>(&mut self, f: impl FnOnce(&mut dyn Backend) -> Result<T>) -> Result<T> {
        self.db.begin()?;
        match f(self.db.as_mut()) {
            Ok(v) => {
                self.db.commit()?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.db.rollback();
                Err(e)
            }
        }
    }

    /// Records a run: `document` is its results file's exact text. Returns the run's id.
    pub fn record(&mut self, results: &Results, document: &str, meta: &RunMeta) -> Result<i64> {
        let location = self.location.clone();
        self.transaction(|db| record_in(db, results, document, meta))
            .with_context(|| format!("history store {location}: cannot record the run"))
    }

    /// Runs matching `filter`, newest first, at most `limit`.
    pub fn list(&mut self, filter: &Filter, limit: usize) -> Result<Vec<RunSummary>> {
        let mut sql =
            format!("SELECT {SUMMARY_COLUMNS} FROM runs r JOIN machines m ON m.id = r.machine_id WHERE 1 = 1");
        let mut params: Vec<Param> = Vec::new();
        let mut add = |clause: &str, v: &str, params: &mut Vec<Param>| {
            params.push(v.into());
            sql.push_str(&clause.replace('#', &format!("?{}", params.len())));
        };
        if let Some(s) = &filter.suite {
            add(" AND r.suite_name = #", s, &mut params);
        }
        if let Some(m) = &filter.machine {
            add(" AND (r.machine_id = # OR m.hostname = #)", m, &mut params);
        }
        if let Some(b) = &filter.branch {
            add(" AND r.git_branch = #", b, &mut params);
        }
        if let Some(s) = &filter.since {
            add(" AND r.started_at >= #", s, &mut params);
        }
        sql.push_str(&format!(" ORDER BY r.id DESC LIMIT {limit}"));
        Ok(self.db.query(&sql, &params)?.iter().map(summary).collect())
    }

    /// One run's summary, or an error naming the id.
    pub fn run(&mut self, id: i64) -> Result<RunSummary> {
        let sql =
            format!("SELECT {SUMMARY_COLUMNS} FROM runs r JOIN machines m ON m.id = r.machine_id WHERE r.id = ?1");
        match self.db.query(&sql, &[id.into()])?.first() {
            Some(r) => Ok(summary(r)),
            None => bail!("history store {}: no run {id}", self.location),
        }
    }

    /// A run's results document, exactly as recorded.
    pub fn document(&mut self, id: i64) -> Result<String> {
        let rows = self.db.query("SELECT document FROM runs WHERE id = ?1", &[id.into()])?;
        match rows.first().and_then(|r| r[0].text()) {
            Some(d) => Ok(d),
            None => bail!("history store {}: no run {id}", self.location),
        }
    }

    /// The newest complete run of `suite` on `machine`, if any: an
    /// interrupted run stays in the store but is no baseline for "change since".
    /// `hash`, when given, narrows to runs of that suite content (an ad-hoc
    /// `versus exec` is named by its commands, not by a suite's title).
    pub fn last_run(&mut self, suite: &str, machine: &str, hash: Option<&str>) -> Result<Option<i64>> {
        let mut sql =
            "SELECT max(id) FROM runs WHERE suite_name = ?1 AND machine_id = ?2 AND status = 'complete'".to_string();
        let mut params: Vec<Param> = vec![suite.into(), machine.into()];
        if let Some(h) = hash {
            sql.push_str(" AND suite_hash = ?3");
            params.push(h.into());
        }
        let rows = self.db.query(&sql, &params)?;
        Ok(rows.first().and_then(|r| r[0].int()))
    }

    /// Names run `run_id` as baseline `name` for its suite and machine (replacing an older one).
    pub fn save_baseline(&mut self, name: &str, run_id: i64) -> Result<()> {
        let run = self.run(run_id)?;
        let now = crate::results::now_rfc3339();
        self.transaction(|db| {
            db.execute(
                "DELETE FROM baselines WHERE name = ?1 AND suite_name = ?2 AND machine_id = ?3",
                &[
                    name.into(),
                    run.suite_name.as_str().into(),
                    run.machine_id.as_str().into(),
                ],
            )?;
            db.execute(
                "INSERT INTO baselines (name, suite_name, machine_id, run_id, saved_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                &[
                    name.into(),
                    run.suite_name.as_str().into(),
                    run.machine_id.as_str().into(),
                    run_id.into(),
                    now.into(),
                ],
            )?;
            Ok(())
        })
    }

    /// The runs saved as baseline `name`, as (suite, machine, run id), newest first.
    pub fn baselines(&mut self, name: &str) -> Result<Vec<(String, String, i64)>> {
        let rows = self.db.query(
            "SELECT suite_name, machine_id, run_id FROM baselines WHERE name = ?1 ORDER BY saved_at DESC",
            &[name.into()],
        )?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r[0].text().unwrap_or_default(),
                    r[1].text().unwrap_or_default(),
                    r[2].int().unwrap_or(0),
                )
            })
            .collect())
    }

    /// Deletes the given runs and their cells; runs a baseline names are kept.
    /// Returns (deleted, kept because of a baseline).
    pub fn prune(&mut self, ids: &[i64]) -> Result<(usize, Vec<i64>)> {
        self.transaction(|db| {
            let (mut deleted, mut kept) = (0, Vec::new());
            for id in ids {
                let named = db.query("SELECT count(*) FROM baselines WHERE run_id = ?1", &[(*id).into()])?;
                if named.first().and_then(|r| r[0].int()).unwrap_or(0) > 0 {
                    kept.push(*id);
                    continue;
                }
                db.execute("DELETE FROM cell_metrics WHERE run_id = ?1", &[(*id).into()])?;
                db.execute("DELETE FROM cells WHERE run_id = ?1", &[(*id).into()])?;
                deleted += db.execute("DELETE FROM runs WHERE id = ?1", &[(*id).into()])? as usize;
            }
            Ok((deleted, kept))
        })
    }

    /// Suites with runs on `machine`, newest first.
    pub fn suites(&mut self, machine: &str) -> Result<Vec<String>> {
        let rows = self.db.query(
            "SELECT suite_name, max(id) AS newest FROM runs WHERE machine_id = ?1 GROUP BY suite_name ORDER BY newest DESC",
            &[machine.into()],
        )?;
        Ok(rows.iter().filter_map(|r| r[0].text()).collect())
    }

    /// Each ok cell's median over the last `runs` runs of `suite` on
    /// `machine` (of that content, with `hash`), oldest first: what run-to-run
    /// noise is learned from.
    pub fn recent_medians(
        &mut self,
        suite: &str,
        machine: &str,
        hash: Option<&str>,
        runs: usize,
    ) -> Result<Vec<(String, Vec<f64>)>> {
        // The hash narrows only when given: a NULL parameter has no type
        // PostgreSQL can infer, so the condition is left out instead.
        let narrow = if hash.is_some() { " AND suite_hash = ?4" } else { "" };
        let sql = format!(
            "SELECT c.cell_id, c.median_ns FROM cells c \
             WHERE c.outcome = 'ok' AND c.median_ns IS NOT NULL AND c.run_id IN \
             (SELECT id FROM runs WHERE suite_name = ?1 AND machine_id = ?2{narrow} \
             ORDER BY id DESC LIMIT ?3) \
             ORDER BY c.run_id"
        );
        let mut params: Vec<Param> = vec![suite.into(), machine.into(), (runs as i64).into()];
        if let Some(h) = hash {
            params.push(h.into());
        }
        let rows = self.db.query(&sql, &params)?;
        let mut by_cell: indexmap::IndexMap<String, Vec<f64>> = indexmap::IndexMap::new();
        for r in &rows {
            if let (Some(id), Some(m)) = (r[0].text(), r[1].real()) {
                by_cell.entry(id).or_default().push(m);
            }
        }
        Ok(by_cell.into_iter().collect())
    }

    /// Every cell of every run of `suite` on `machine`, oldest run first,
    /// with its median in `metric` (for instructions, only cells that were counted).
    pub fn trend_rows(&mut self, suite: &str, machine: &str, metric: Metric) -> Result<Vec<TrendRow>> {
        let rows = match metric {
            Metric::Wall => self.db.query(
                "SELECT r.id, r.started_at, r.git_commit, c.cell_id, c.outcome, c.median_ns, c.ci_low_ns, c.ci_high_ns, c.version \
                 FROM cells c JOIN runs r ON r.id = c.run_id \
                 WHERE r.suite_name = ?1 AND r.machine_id = ?2 ORDER BY r.id, c.cell_id",
                &[suite.into(), machine.into()],
            )?,
            other => self.db.query(
                "SELECT r.id, r.started_at, r.git_commit, c.cell_id, c.outcome, m.median, m.ci_low, m.ci_high, c.version \
                 FROM cells c JOIN runs r ON r.id = c.run_id \
                 JOIN cell_metrics m ON m.run_id = c.run_id AND m.cell_id = c.cell_id AND m.metric = ?3 \
                 WHERE r.suite_name = ?1 AND r.machine_id = ?2 ORDER BY r.id, c.cell_id",
                &[suite.into(), machine.into(), other.name().into()],
            )?,
        };
        Ok(rows
            .iter()
            .map(|r| TrendRow {
                run_id: r[0].int().unwrap_or(0),
                started_at: r[1].text().unwrap_or_default(),
                git_commit: r[2].text(),
                cell_id: r[3].text().unwrap_or_default(),
                outcome: r[4].text().unwrap_or_default(),
                median_ns: r[5].real(),
                ci_low_ns: r[6].real(),
                ci_high_ns: r[7].real(),
                version: r[8].text(),
            })
            .collect())
    }
}

fn upsert_machine(db: &mut dyn Backend, id: &str, env: &Environment) -> Result<()> {
    db.execute(
        "INSERT INTO machines (id, hostname, cpu_model, cores, memory_bytes, os, kernel, first_seen) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
         ON CONFLICT (id) DO UPDATE SET hostname = excluded.hostname, memory_bytes = excluded.memory_bytes, \
         os = excluded.os, kernel = excluded.kernel",
        &[
            id.into(),
            env.machine.as_ref().map(|m| m.hostname.clone()).into(),
            env.cpu_model.as_str().into(),
            (env.cores as i64).into(),
            (env.memory_bytes as i64).into(),
            env.os.as_str().into(),
            env.kernel.as_str().into(),
            crate::results::now_rfc3339().into(),
        ],
    )?;
    Ok(())
}

fn record_in(db: &mut dyn Backend, results: &Results, document: &str, meta: &RunMeta) -> Result<i64> {
    let machine = meta
        .machine_id
        .clone()
        .unwrap_or_else(|| machine_of(&results.environment));
    upsert_machine(db, &machine, &results.environment)?;
    let status = serde_json::to_value(results.status)?.as_str().unwrap_or("").to_string();
    let rows = db.query(
        "INSERT INTO runs (machine_id, suite_name, suite_hash, started_at, finished_at, status, exit_status, \
         versus_version, command, git_commit, git_branch, git_dirty, recorded_at, source, document) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) RETURNING id",
        &[
            machine.into(),
            results.suite.name.as_str().into(),
            meta.suite_hash.as_str().into(),
            results.started_at.as_str().into(),
            results.finished_at.clone().into(),
            status.into(),
            meta.exit_status.map(i64::from).into(),
            results.environment.versus_version.as_str().into(),
            results.suite.command.as_str().into(),
            meta.git.commit.clone().into(),
            meta.git.branch.clone().into(),
            meta.git.dirty.map(i64::from).into(),
            crate::results::now_rfc3339().into(),
            meta.source.as_str().into(),
            document.into(),
        ],
    )?;
    let Some(Value::Int(run_id)) = rows.first().and_then(|r| r.first()).cloned() else {
        bail!("the store gave no id for the new run");
    };
    for c in &results.cells {
        let s = c.stats.as_ref();
        let version = results
            .environment
            .implementations
            .get(&c.implementation)
            .and_then(|i| i.version.clone());
        db.execute(
            "INSERT INTO cells (run_id, cell_id, implementation, operation, params, outcome, n, median_ns, \
             ci_low_ns, ci_high_ns, mean_ns, stddev_ns, version, samples) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            &[
                run_id.into(),
                c.id.as_str().into(),
                c.implementation.as_str().into(),
                c.operation.as_str().into(),
                serde_json::to_string(&c.params)?.into(),
                serde_json::to_value(c.outcome)?
                    .as_str()
                    .unwrap_or("")
                    .to_string()
                    .into(),
                s.map(|s| s.n as i64).into(),
                s.map(|s| s.median_ns).into(),
                s.and_then(|s| s.ci_low_ns).into(),
                s.and_then(|s| s.ci_high_ns).into(),
                s.map(|s| s.mean_ns).into(),
                s.and_then(|s| s.stddev_ns).into(),
                version.into(),
                serde_json::to_string(&c.samples)?.into(),
            ],
        )?;
        if let Some(m) = s.and_then(|s| s.instructions.as_ref()) {
            db.execute(
                "INSERT INTO cell_metrics (run_id, cell_id, metric, n, median, ci_low, ci_high, mean, stddev) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                &[
                    run_id.into(),
                    c.id.as_str().into(),
                    Metric::Instructions.name().into(),
                    (m.n as i64).into(),
                    m.median.into(),
                    m.ci_low.into(),
                    m.ci_high.into(),
                    m.mean.into(),
                    m.stddev.into(),
                ],
            )?;
        }
    }
    Ok(run_id)
}
