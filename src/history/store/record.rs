//! Recording a run in a few statements whatever its size: the machine, the
//! run with its compressed document, then every cell's summary in one
//! statement (`Backend::insert_many`), so a team's server a round trip away
//! costs a fixed handful of round trips per run, not two per cell. A cell
//! row names its cell through `series` (suite, machine and cell id, one row
//! each), which a run only adds to when it has cells no earlier run had.

use std::collections::HashMap;

use anyhow::{Context, Result, bail};

use super::backend::{Backend, Column, Dialect, Param, Value};
use super::document::Document;
use super::runs::{RunMeta, Store, machine_of};
use crate::base::metric::Metric;
use crate::results::{Environment, Results};

impl Store {
    /// Records a run whose results file is `document`. Returns the run's id.
    pub fn record(&mut self, results: &Results, document: &Document, meta: &RunMeta) -> Result<i64> {
        let location = self.location.clone();
        let id = self
            .db
            .one_pass(true)
            .and_then(|()| self.transaction(|db| record_in(db, results, document, meta)));
        let restored = self.db.one_pass(false);
        let id = id.with_context(|| format!("history store {location}: cannot record the run"))?;
        restored?;
        Ok(id)
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

fn insert_run(
    db: &mut dyn Backend,
    machine: &str,
    results: &Results,
    document: &Document,
    meta: &RunMeta,
) -> Result<i64> {
    let status = serde_json::to_value(results.status)?.as_str().unwrap_or("").to_string();
    // SQLite: the row reserves the document's room (a zeroblob, never built
    // in memory) and the bytes are written into it in pieces: binding them
    // would copy the whole document once to bind and once more to build
    // the row. A server takes them bound, by reference.
    let streamed = db.dialect() == Dialect::Sqlite;
    let (room, bytes) = match streamed {
        true => ("zeroblob(?15)", Param::Int(Some(document.packed().len() as i64))),
        false => ("?15", Param::Blob(Some(document.shared()))),
    };
    let rows = db.query(
        &format!(
            "INSERT INTO runs (machine_id, suite_name, suite_hash, started_at, finished_at, status, exit_status, \
             versus_version, command, git_commit, git_branch, git_dirty, recorded_at, source, document, \
             document_gzip, cell_count) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, '', {room}, ?16) RETURNING id"
        ),
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
            bytes,
            (results.cells.len() as i64).into(),
        ],
    )?;
    let Some(Value::Int(id)) = rows.first().and_then(|r| r.first()) else {
        bail!("the store gave no id for the new run")
    };
    if streamed {
        db.write_blob("runs", "document_gzip", *id, document.packed())?;
    }
    Ok(*id)
}

/// The series id of every cell of `results`, adding the series no earlier
/// run had: one statement when they all exist, three when some are new.
fn series_ids(db: &mut dyn Backend, machine: &str, results: &Results) -> Result<HashMap<String, i64>> {
    let suite = results.suite.name.as_str();
    let read = |db: &mut dyn Backend| -> Result<HashMap<String, i64>> {
        let mut ids = HashMap::new();
        db.query_each(
            "SELECT cell_id, id FROM series WHERE suite_name = ?1 AND machine_id = ?2",
            &[suite.into(), machine.into()],
            &mut |r| {
                if let (Some(cell), Some(id)) = (r[0].str(), r[1].int()) {
                    ids.insert(cell.to_string(), id);
                }
                Ok(())
            },
        )?;
        Ok(ids)
    };
    let ids = read(db)?;
    let new: Vec<_> = results.cells.iter().filter(|c| !ids.contains_key(&c.id)).collect();
    if new.is_empty() {
        return Ok(ids);
    }
    let texts = |f: &dyn Fn(&crate::results::Cell) -> String| Column::Text(new.iter().map(|c| Some(f(c))).collect());
    let params = new
        .iter()
        .map(|c| serde_json::to_string(&c.params).map(Some))
        .collect::<Result<Vec<_>, _>>()?;
    db.insert_many(
        "INSERT INTO series (suite_name, machine_id, cell_id, implementation, operation, params)",
        "ON CONFLICT (suite_name, machine_id, cell_id) DO NOTHING",
        &[
            texts(&|_| suite.to_string()),
            texts(&|_| machine.to_string()),
            texts(&|c| c.id.clone()),
            texts(&|c| c.implementation.clone()),
            texts(&|c| c.operation.clone()),
            Column::Text(params),
        ],
    )?;
    read(db)
}

fn insert_cells(db: &mut dyn Backend, run_id: i64, results: &Results, series: &HashMap<String, i64>) -> Result<()> {
    let cells = &results.cells;
    let stat = |f: &dyn Fn(&crate::results::Stats) -> Option<f64>| {
        Column::Real(cells.iter().map(|c| c.stats.as_ref().and_then(f)).collect())
    };
    let mut series_id = Vec::with_capacity(cells.len());
    for c in cells {
        match series.get(&c.id) {
            Some(id) => series_id.push(Some(*id)),
            None => bail!("cell {} has no series in the store", c.id),
        }
    }
    let outcomes = cells
        .iter()
        .map(|c| Ok(serde_json::to_value(c.outcome)?.as_str().map(str::to_string)))
        .collect::<Result<Vec<_>>>()?;
    db.insert_many(
        "INSERT INTO cells (run_id, series_id, outcome, n, median_ns, ci_low_ns, ci_high_ns, mean_ns, stddev_ns)",
        "",
        &[
            Column::Int(vec![Some(run_id); cells.len()]),
            Column::Int(series_id),
            Column::Text(outcomes),
            Column::Int(cells.iter().map(|c| c.stats.as_ref().map(|s| s.n as i64)).collect()),
            stat(&|s| Some(s.median_ns)),
            stat(&|s| s.ci_low_ns),
            stat(&|s| s.ci_high_ns),
            stat(&|s| Some(s.mean_ns)),
            stat(&|s| s.stddev_ns),
        ],
    )?;
    Ok(())
}

/// The instruction statistics of the cells that counted them (`cell_metrics`).
fn insert_metrics(db: &mut dyn Backend, run_id: i64, results: &Results, series: &HashMap<String, i64>) -> Result<()> {
    let counted: Vec<(i64, &crate::results::MetricStats)> = results
        .cells
        .iter()
        .filter_map(|c| Some((*series.get(&c.id)?, c.stats.as_ref()?.instructions.as_ref()?)))
        .collect();
    if counted.is_empty() {
        return Ok(());
    }
    let real = |f: &dyn Fn(&crate::results::MetricStats) -> Option<f64>| {
        Column::Real(counted.iter().map(|(_, m)| f(m)).collect())
    };
    db.insert_many(
        "INSERT INTO cell_metrics (run_id, series_id, metric, n, median, ci_low, ci_high, mean, stddev)",
        "",
        &[
            Column::Int(vec![Some(run_id); counted.len()]),
            Column::Int(counted.iter().map(|(id, _)| Some(*id)).collect()),
            Column::Text(vec![Some(Metric::Instructions.name().to_string()); counted.len()]),
            Column::Int(counted.iter().map(|(_, m)| Some(m.n as i64)).collect()),
            real(&|m| Some(m.median)),
            real(&|m| m.ci_low),
            real(&|m| m.ci_high),
            real(&|m| Some(m.mean)),
            real(&|m| m.stddev),
        ],
    )?;
    Ok(())
}

fn insert_versions(db: &mut dyn Backend, run_id: i64, env: &Environment) -> Result<()> {
    let known: Vec<(&String, &String)> = env
        .implementations
        .iter()
        .filter_map(|(name, i)| i.version.as_ref().map(|v| (name, v)))
        .collect();
    if known.is_empty() {
        return Ok(());
    }
    db.insert_many(
        "INSERT INTO versions (run_id, implementation, version)",
        "",
        &[
            Column::Int(vec![Some(run_id); known.len()]),
            Column::Text(known.iter().map(|(n, _)| Some(n.to_string())).collect()),
            Column::Text(known.iter().map(|(_, v)| Some(v.to_string())).collect()),
        ],
    )?;
    Ok(())
}

fn record_in(db: &mut dyn Backend, results: &Results, document: &Document, meta: &RunMeta) -> Result<i64> {
    let machine = meta
        .machine_id
        .clone()
        .unwrap_or_else(|| machine_of(&results.environment));
    upsert_machine(db, &machine, &results.environment)?;
    let run_id = insert_run(db, &machine, results, document, meta)?;
    if !results.cells.is_empty() {
        let series = series_ids(db, &machine, results)?;
        insert_cells(db, run_id, results, &series)?;
        insert_metrics(db, run_id, results, &series)?;
    }
    insert_versions(db, run_id, &results.environment)?;
    Ok(run_id)
}
