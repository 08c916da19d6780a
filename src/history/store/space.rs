//! Deleting runs, and what the store takes on disk. A prune hands the space
//! back: SQLite's freed pages are returned to the file system by an
//! incremental vacuum (a store made before incremental auto-vacuum is
//! rewritten once with a full `VACUUM`, which turns it on), PostgreSQL's are
//! made reusable by `VACUUM`. `versus history stats` says how big the store
//! is and what each run adds to it.

use anyhow::Result;

use super::backend::{Dialect, Param};
use super::runs::Store;

/// What `versus history stats` shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// The whole store: the SQLite file with its WAL, or the PostgreSQL database.
    pub store_bytes: u64,
    /// SQLite: pages free inside the file (reused before the file grows).
    pub free_bytes: Option<u64>,
    pub runs: u64,
    pub cells: u64,
    /// The runs' documents as stored (compressed, or text for runs recorded
    /// before schema 3), and uncompressed where that is known.
    pub document_bytes: u64,
    /// Each table with its indexes, largest first (where the database says).
    pub tables: Vec<(String, u64)>,
    /// Per suite and machine: runs, cells per run, and stored document bytes per run.
    pub suites: Vec<SuiteStats>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SuiteStats {
    pub suite: String,
    pub machine: String,
    pub runs: u64,
    pub cells_per_run: f64,
    pub document_bytes_per_run: f64,
    pub first_started_at: String,
    pub last_started_at: String,
}

const CHUNK: usize = 500;

/// The first column of the first row, as a count.
fn one(rows: Vec<super::backend::Row>) -> u64 {
    rows.first().and_then(|r| r[0].int()).unwrap_or(0).max(0) as u64
}

impl Store {
    /// Deletes the given runs (with their cells) and hands the space back;
    /// runs a baseline names are kept. Returns (deleted, kept because of a baseline).
    pub fn prune(&mut self, ids: &[i64]) -> Result<(usize, Vec<i64>)> {
        let (deleted, kept) = self.transaction(|db| {
            let (mut deleted, mut kept) = (0, Vec::new());
            for chunk in ids.chunks(CHUNK) {
                let marks = (1..=chunk.len())
                    .map(|i| format!("?{i}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let params: Vec<Param> = chunk.iter().map(|id| (*id).into()).collect();
                db.query_each(
                    &format!("SELECT DISTINCT run_id FROM baselines WHERE run_id IN ({marks})"),
                    &params,
                    &mut |r| {
                        kept.extend(r[0].int());
                        Ok(())
                    },
                )?;
                // Cells and versions go with their run (ON DELETE CASCADE).
                deleted += db.execute(
                    &format!(
                        "DELETE FROM runs WHERE id IN ({marks}) \
                         AND NOT EXISTS (SELECT 1 FROM baselines b WHERE b.run_id = runs.id)"
                    ),
                    &params,
                )? as usize;
            }
            if deleted > 0 {
                db.execute(
                    "DELETE FROM series WHERE NOT EXISTS (SELECT 1 FROM cells c WHERE c.series_id = series.id)",
                    &[],
                )?;
            }
            kept.sort_unstable();
            Ok((deleted, kept))
        })?;
        if deleted > 0 {
            self.give_back_space()?;
        }
        Ok((deleted, kept))
    }

    /// Returns freed pages to the file system (SQLite) or makes them reusable (PostgreSQL).
    fn give_back_space(&mut self) -> Result<()> {
        match self.db.dialect() {
            Dialect::Sqlite => {
                self.db.batch("PRAGMA incremental_vacuum")?;
                if one(self.db.query("PRAGMA freelist_count", &[])?) > 0 {
                    // Made before incremental auto-vacuum: rewritten once, which turns it on.
                    self.db.batch("PRAGMA auto_vacuum = INCREMENTAL; VACUUM")?;
                }
                self.db.batch("PRAGMA wal_checkpoint(TRUNCATE)")
            }
            Dialect::Postgres => self.db.batch("VACUUM runs, cells, versions, series"),
        }
    }

    /// The whole store's size in bytes (SQLite: the file's pages; PostgreSQL: the database).
    pub fn stats_size(&mut self) -> Result<u64> {
        let sql = match self.db.dialect() {
            Dialect::Sqlite => "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
            Dialect::Postgres => "SELECT pg_database_size(current_database())",
        };
        Ok(one(self.db.query(sql, &[])?))
    }

    /// The store's size and what each run adds to it.
    pub fn stats(&mut self) -> Result<Stats> {
        let mut s = Stats {
            runs: one(self.db.query("SELECT count(*) FROM runs", &[])?),
            cells: one(self.db.query("SELECT count(*) FROM cells", &[])?),
            document_bytes: one(self.db.query(
                "SELECT coalesce(sum(length(document_gzip)), 0) + coalesce(sum(length(document)), 0) FROM runs",
                &[],
            )?),
            ..Default::default()
        };
        match self.db.dialect() {
            Dialect::Sqlite => {
                let page = one(self.db.query("PRAGMA page_size", &[])?);
                s.store_bytes = self.stats_size()?;
                s.free_bytes = Some(one(self.db.query("PRAGMA freelist_count", &[])?) * page);
                // The table sizes need the dbstat table, which not every SQLite has.
                if let Ok(rows) = self.db.query(
                    "SELECT coalesce(t.tbl_name, d.name), sum(d.pgsize) FROM dbstat d \
                     LEFT JOIN sqlite_master t ON t.name = d.name GROUP BY 1 ORDER BY 2 DESC",
                    &[],
                ) {
                    s.tables = rows
                        .iter()
                        .map(|r| (r[0].text().unwrap_or_default(), r[1].int().unwrap_or(0) as u64))
                        .collect();
                }
            }
            Dialect::Postgres => {
                s.store_bytes = self.stats_size()?;
                s.tables = self
                    .db
                    .query(
                        "SELECT c.relname::text, pg_total_relation_size(c.oid) FROM pg_class c \
                         JOIN pg_namespace n ON n.oid = c.relnamespace \
                         WHERE c.relkind = 'r' AND n.nspname = current_schema() ORDER BY 2 DESC",
                        &[],
                    )?
                    .iter()
                    .map(|r| (r[0].text().unwrap_or_default(), r[1].int().unwrap_or(0) as u64))
                    .collect();
            }
        }
        s.suites = self
            .db
            .query(
                "SELECT suite_name, machine_id, count(*), CAST(avg(cell_count) AS DOUBLE PRECISION), \
                 CAST(avg(coalesce(length(document_gzip), 0) + length(document)) AS DOUBLE PRECISION), \
                 min(started_at), max(started_at) \
                 FROM runs GROUP BY suite_name, machine_id ORDER BY 3 DESC",
                &[],
            )?
            .iter()
            .map(|r| SuiteStats {
                suite: r[0].text().unwrap_or_default(),
                machine: r[1].text().unwrap_or_default(),
                runs: r[2].int().unwrap_or(0) as u64,
                cells_per_run: r[3].real().unwrap_or(0.0),
                document_bytes_per_run: r[4].real().unwrap_or(0.0),
                first_started_at: r[5].text().unwrap_or_default(),
                last_started_at: r[6].text().unwrap_or_default(),
            })
            .collect();
        Ok(s)
    }
}
