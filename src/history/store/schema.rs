//! The store's schema and its migrations. The schema version lives in the
//! store itself (table `versus_schema`, one row); opening a store brings it
//! up to `VERSION` by running each missing migration in order, inside one
//! transaction that holds the write lock (and, on PostgreSQL, an advisory
//! lock), so two versus processes opening a new store at once do not both
//! create it. A store of a newer version than this versus knows is refused,
//! never written. docs/history.md describes every table.
//!
//! Migrations are only ever appended: a store written by any earlier versus
//! opens in a later one. Opening a store that is already up to date costs
//! one statement (the version read), so a server a round trip away is not
//! asked more than once.

use anyhow::{Result, bail};

use super::backend::{Backend, Dialect};

/// The schema version this versus writes.
pub(crate) const VERSION: i64 = 6;

/// Each migration: the version it brings the store to, and its statements.
/// `{id}`, `{int}`, `{real}` and `{blob}` become each dialect's types;
/// `{clustered}` ends a table kept in its primary key's order (SQLite's
/// `WITHOUT ROWID`; nothing on PostgreSQL). A migration that begins with
/// `{postgres}` runs on PostgreSQL only (on SQLite it only moves the version).
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE machines (
            id TEXT PRIMARY KEY,
            hostname TEXT,
            cpu_model TEXT NOT NULL,
            cores {int} NOT NULL,
            memory_bytes {int} NOT NULL,
            os TEXT NOT NULL,
            kernel TEXT NOT NULL,
            first_seen TEXT NOT NULL
        );
        CREATE TABLE runs (
            id {id},
            machine_id TEXT NOT NULL REFERENCES machines(id),
            suite_name TEXT NOT NULL,
            suite_hash TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL,
            exit_status {int},
            versus_version TEXT NOT NULL,
            command TEXT NOT NULL,
            git_commit TEXT,
            git_branch TEXT,
            git_dirty {int},
            recorded_at TEXT NOT NULL,
            source TEXT NOT NULL,
            document TEXT NOT NULL
        );
        CREATE INDEX runs_by_suite ON runs (suite_name, machine_id, id);
        CREATE TABLE cells (
            run_id {int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            cell_id TEXT NOT NULL,
            implementation TEXT NOT NULL,
            operation TEXT NOT NULL,
            params TEXT NOT NULL,
            outcome TEXT NOT NULL,
            n {int},
            median_ns {real},
            ci_low_ns {real},
            ci_high_ns {real},
            mean_ns {real},
            stddev_ns {real},
            version TEXT,
            samples TEXT NOT NULL,
            PRIMARY KEY (run_id, cell_id)
        )",
    ),
    (
        2,
        "CREATE TABLE baselines (
            name TEXT NOT NULL,
            suite_name TEXT NOT NULL,
            machine_id TEXT NOT NULL,
            run_id {int} NOT NULL REFERENCES runs(id),
            saved_at TEXT NOT NULL,
            PRIMARY KEY (name, suite_name, machine_id)
        )",
    ),
    (
        3,
        // Samples are kept once, in the run's document (now compressed);
        // a cell row keeps only its summary, and names its cell through
        // `series` (one row per suite, machine and cell), so that a trend
        // reads a few numbers per run and cell. Versions are per
        // implementation and run. Existing rows are carried over.
        "CREATE TABLE series (
            id {id},
            suite_name TEXT NOT NULL,
            machine_id TEXT NOT NULL,
            cell_id TEXT NOT NULL,
            implementation TEXT NOT NULL,
            operation TEXT NOT NULL,
            params TEXT NOT NULL,
            UNIQUE (suite_name, machine_id, cell_id)
        );
        INSERT INTO series (suite_name, machine_id, cell_id, implementation, operation, params)
            SELECT r.suite_name, r.machine_id, c.cell_id, min(c.implementation), min(c.operation), min(c.params)
            FROM cells c JOIN runs r ON r.id = c.run_id
            GROUP BY r.suite_name, r.machine_id, c.cell_id
            ORDER BY r.suite_name, r.machine_id, c.cell_id;
        CREATE TABLE versions (
            run_id {int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            implementation TEXT NOT NULL,
            version TEXT NOT NULL,
            PRIMARY KEY (run_id, implementation)
        ){clustered};
        INSERT INTO versions (run_id, implementation, version)
            SELECT run_id, implementation, min(version) FROM cells
            WHERE version IS NOT NULL GROUP BY run_id, implementation;
        CREATE TABLE cell_rows (
            run_id {int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            series_id {int} NOT NULL REFERENCES series(id),
            outcome TEXT NOT NULL,
            n {int},
            median_ns {real},
            ci_low_ns {real},
            ci_high_ns {real},
            mean_ns {real},
            stddev_ns {real},
            PRIMARY KEY (run_id, series_id)
        ){clustered};
        INSERT INTO cell_rows (run_id, series_id, outcome, n, median_ns, ci_low_ns, ci_high_ns, mean_ns, stddev_ns)
            SELECT c.run_id, s.id, c.outcome, c.n, c.median_ns, c.ci_low_ns, c.ci_high_ns, c.mean_ns, c.stddev_ns
            FROM cells c JOIN runs r ON r.id = c.run_id
            JOIN series s ON s.suite_name = r.suite_name AND s.machine_id = r.machine_id AND s.cell_id = c.cell_id;
        DROP TABLE cells;
        ALTER TABLE cell_rows RENAME TO cells;
        CREATE INDEX cells_by_series ON cells (series_id, run_id);
        ALTER TABLE runs ADD COLUMN cell_count {int};
        UPDATE runs SET cell_count = (SELECT count(*) FROM cells c WHERE c.run_id = runs.id);
        ALTER TABLE runs ADD COLUMN document_gzip {blob}",
    ),
    (
        4,
        // A cell's statistics in each metric other than wall time
        // (`instructions` per call), for the cells that measured it.
        "CREATE TABLE cell_metrics (
            run_id {int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            series_id {int} NOT NULL REFERENCES series(id),
            metric TEXT NOT NULL,
            n {int},
            median {real},
            ci_low {real},
            ci_high {real},
            mean {real},
            stddev {real},
            PRIMARY KEY (run_id, series_id, metric)
        ){clustered}",
    ),
    (
        5,
        // A cell row is most of what a run costs PostgreSQL beside its
        // document: 4-byte ids and count (a store of 2^31 runs is far off)
        // make a row 84 bytes instead of 100, and the index by series goes.
        // Every read of cell rows starts from runs (a trend from the
        // suite's runs, a run's cells, the last runs' medians), which the
        // primary key serves; the only query by series alone is pruning's
        // sweep of series left without cells, one scan. Its foreign key
        // goes with it, since each series deleted would have scanned the
        // table to check it: a series row is deleted only by that sweep,
        // when no cell names it. SQLite's rows are already as small as
        // their values; it keeps both.
        "{postgres}
        DROP INDEX IF EXISTS cells_by_series;
        ALTER TABLE cells DROP CONSTRAINT IF EXISTS cell_rows_series_id_fkey;
        ALTER TABLE cells
            ALTER COLUMN run_id TYPE INTEGER,
            ALTER COLUMN series_id TYPE INTEGER,
            ALTER COLUMN n TYPE INTEGER",
    ),
    (
        6,
        // What each `versus bisect` concluded, so a team's site can list it
        // beside the changes it explains: named by its last recorded run
        // (its suite and machine), which takes it along when pruned.
        "CREATE TABLE bisects (
            id {id},
            run_id {int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            cell_id TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            first_bad TEXT,
            ratio {real},
            conclusion TEXT NOT NULL,
            summary TEXT NOT NULL
        )",
    ),
];

/// A migration's statements in `dialect`.
pub(crate) fn sql(dialect: Dialect, template: &str) -> String {
    let template = match template.strip_prefix("{postgres}") {
        Some(_) if dialect == Dialect::Sqlite => return String::new(),
        Some(rest) => rest,
        None => template,
    };
    let (id, int, real, blob, clustered) = match dialect {
        Dialect::Sqlite => (
            "INTEGER PRIMARY KEY AUTOINCREMENT",
            "INTEGER",
            "REAL",
            "BLOB",
            " WITHOUT ROWID",
        ),
        Dialect::Postgres => ("BIGSERIAL PRIMARY KEY", "BIGINT", "DOUBLE PRECISION", "BYTEA", ""),
    };
    template
        .replace("{id}", id)
        .replace("{int}", int)
        .replace("{real}", real)
        .replace("{blob}", blob)
        .replace("{clustered}", clustered)
}

/// The store's schema version (0 for an empty database). Call inside a transaction.
fn current(db: &mut dyn Backend) -> Result<i64> {
    db.batch("CREATE TABLE IF NOT EXISTS versus_schema (version BIGINT NOT NULL)")?;
    let rows = db.query("SELECT max(version) FROM versus_schema", &[])?;
    Ok(rows.first().and_then(|r| r.first()).and_then(|v| v.int()).unwrap_or(0))
}

/// Brings the store to `VERSION`, in one statement when it is already there.
pub(crate) fn open(db: &mut dyn Backend, location: &str) -> Result<i64> {
    // Outside a transaction: on a new store the table is missing and this fails.
    let known = db
        .query("SELECT max(version) FROM versus_schema", &[])
        .ok()
        .and_then(|rows| rows.first().and_then(|r| r.first()).and_then(|v| v.int()));
    match known {
        Some(VERSION) => Ok(VERSION),
        _ => migrate(db, VERSION, location),
    }
}

/// Brings the store to `target` (normally `VERSION`); `location` names it in messages.
pub(crate) fn migrate(db: &mut dyn Backend, target: i64, location: &str) -> Result<i64> {
    db.begin()?;
    let out = migrate_locked(db, target, location);
    match out {
        Ok(v) => {
            db.commit()?;
            Ok(v)
        }
        Err(e) => {
            let _ = db.rollback();
            Err(e)
        }
    }
}

fn migrate_locked(db: &mut dyn Backend, target: i64, location: &str) -> Result<i64> {
    if db.dialect() == Dialect::Postgres {
        // Any constant works; it only has to be the same for every versus.
        db.execute("SELECT pg_advisory_xact_lock(7236001)", &[])?;
    }
    let version = current(db)?;
    if version > VERSION {
        bail!(
            "history store {location}: its schema is version {version}, newer than this versus knows ({VERSION}); \
             use a newer versus, or another store (--store PATH, or --no-history)"
        );
    }
    for (v, template) in MIGRATIONS.iter().filter(|(v, _)| *v > version && *v <= target) {
        db.batch(&sql(db.dialect(), template))?;
        db.execute("DELETE FROM versus_schema", &[])?;
        db.execute("INSERT INTO versus_schema (version) VALUES (?1)", &[(*v).into()])?;
    }
    current(db)
}
