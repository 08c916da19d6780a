//! The history store: every run recorded (its document, the machine, the
//! git state, each cell's statistics and samples), and the queries that
//! `versus history`, `diff`, `trend` and the "change since" column need.
//! Written once over `Backend`, so SQLite and PostgreSQL behave the same.
//!
//! A run is recorded in one transaction: a reader never sees half a run and
//! two writers never interleave. Its document is kept verbatim (compressed),
//! so exporting a run gives back the very `results.json` that was recorded.
//! Recording is in `record`, the trend's reads in `series`, pruning and the
//! store's size in `space`.

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use super::backend::{Backend, Param, Row, Value};
use super::document::Document;
use super::schema;
use crate::results::Environment;

/// An open store.
pub struct Store {
    pub(super) db: Box<dyn Backend>,
    /// Where it is, for messages (a path, or a URL without its password).
    pub location: String,
}

/// The git state of the suite's repository when the run started.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Git {
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub dirty: Option<bool>,
}

/// What the store keeps about a run besides its document (also written
/// beside a document left to import when the store could not take it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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

/// The machine identity of a results document: its own, else one derived
/// from what older files record (CPU model and cores).
pub fn machine_of(env: &Environment) -> String {
    env.machine.as_ref().map_or_else(
        || crate::environment::machine_id(None, None, &env.cpu_model, env.cores),
        |m| m.id.clone(),
    )
}

// The cell count is stored with the run: a listing never counts cells.
const SUMMARY_COLUMNS: &str = "r.id, r.started_at, r.suite_name, r.machine_id, m.hostname, m.cpu_model, r.status, \
     r.exit_status, r.git_commit, r.git_branch, r.git_dirty, r.source, r.cell_count";

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
        schema::open(db.as_mut(), &location)?;
        Ok(Store { db, location })
    }

    /// How this store's documents are packed (`packing`).
    pub fn packing(&self) -> super::Packing {
        super::Packing::for_dialect(self.db.dialect())
    }

    /// The store's schema version.
    pub fn schema_version(&mut self) -> Result<i64> {
        let rows = self.db.query("SELECT max(version) FROM versus_schema", &[])?;
        Ok(rows.first().and_then(|r| r[0].int()).unwrap_or(0))
    }

    /// Statements sent to the database so far (tests hold recording to a few).
    pub fn statements(&self) -> u64 {
        self.db.statements()
    }

    /// Runs `f` in one write transaction.
    pub(super) fn transaction<T>(&mut self, f: impl FnOnce(&mut dyn Backend) -> Result<T>) -> Result<T> {
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
    pub fn document(&mut self, id: i64) -> Result<Document> {
        let rows = self
            .db
            .query("SELECT document, document_gzip FROM runs WHERE id = ?1", &[id.into()])?;
        let Some(row) = rows.into_iter().next() else {
            bail!("history store {}: no run {id}", self.location);
        };
        let mut row = row.into_iter();
        match (row.next(), row.next()) {
            // Runs recorded before schema 3 keep their text as it was.
            (_, Some(Value::Blob(packed))) => Ok(Document::from_stored(packed)),
            (Some(Value::Text(text)), _) => Ok(Document::from_text(&text, super::Packing::Gzip)),
            _ => bail!("history store {}: run {id} has no document", self.location),
        }
    }

    /// The newest complete run of `suite` on `machine`, if any: an
    /// interrupted run stays in the store but is no baseline for "change since".
    /// `hash`, when given, narrows to runs of that suite content (an ad-hoc
    /// `versus exec` is named by its commands, not by a suite's title).
    pub fn last_run(&mut self, suite: &str, machine: &str, hash: Option<&str>) -> Result<Option<i64>> {
        let mut params: Vec<Param> = vec![suite.into(), machine.into()];
        let narrow = hash_condition(hash, &mut params);
        let sql = format!(
            "SELECT max(id) FROM runs WHERE suite_name = ?1 AND machine_id = ?2 AND status = 'complete'{narrow}"
        );
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

    /// Suites with runs on `machine`, newest first.
    pub fn suites(&mut self, machine: &str) -> Result<Vec<String>> {
        let rows = self.db.query(
            "SELECT suite_name, max(id) AS newest FROM runs WHERE machine_id = ?1 GROUP BY suite_name ORDER BY newest DESC",
            &[machine.into()],
        )?;
        Ok(rows.iter().filter_map(|r| r[0].text()).collect())
    }

    /// Each ok cell's median over the last `runs` runs of `suite` on
    /// `machine` (of that content, with `hash`), oldest first, each with the
    /// id of its run: what run-to-run noise is learned from (the run ids line
    /// up the cells measured side by side in one run).
    pub fn recent_medians(
        &mut self,
        suite: &str,
        machine: &str,
        hash: Option<&str>,
        runs: usize,
    ) -> Result<crate::history::judge::noise::Recorded> {
        let mut params: Vec<Param> = vec![suite.into(), machine.into(), (runs as i64).into()];
        let narrow = hash_condition(hash, &mut params);
        let sql = format!(
            "SELECT s.cell_id, c.median_ns, c.run_id FROM cells c JOIN series s ON s.id = c.series_id \
             WHERE c.outcome = 'ok' AND c.median_ns IS NOT NULL AND c.run_id IN \
             (SELECT id FROM runs WHERE suite_name = ?1 AND machine_id = ?2{narrow} \
             ORDER BY id DESC LIMIT ?3) \
             ORDER BY c.run_id"
        );
        let rows = self.db.query(&sql, &params)?;
        let mut by_cell: indexmap::IndexMap<String, Vec<(i64, f64)>> = indexmap::IndexMap::new();
        for r in &rows {
            if let (Some(id), Some(m), Some(run)) = (r[0].text(), r[1].real(), r[2].int()) {
                by_cell.entry(id).or_default().push((run, m));
            }
        }
        Ok(by_cell.into_iter().collect())
    }
}

/// " AND suite_hash = ?N", the hash pushed as parameter N, when a hash is
/// given; nothing otherwise. A NULL parameter has no type PostgreSQL can
/// infer, so "(?N IS NULL OR …)" is not an option: the condition is left out.
fn hash_condition(hash: Option<&str>, params: &mut Vec<Param>) -> String {
    match hash {
        Some(h) => {
            params.push(h.into());
            format!(" AND suite_hash = ?{}", params.len())
        }
        None => String::new(),
    }
}
