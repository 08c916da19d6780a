//! The store's schema and its migrations. The schema version lives in the
//! store itself (table `versus_schema`, one row); opening a store brings it
//! up to `VERSION` by running each missing migration in order, inside one
//! transaction that holds the write lock (and, on PostgreSQL, an advisory
//! lock), so two versus processes opening a new store at once do not both
//! create it. A store of a newer version than this versus knows is refused,
//! never written. docs/history.md describes every table.
//!
//! Migrations are only ever appended: a store written by any earlier versus
//! opens in a later one.

use anyhow::{Result, bail};

use super::backend::{Backend, Dialect};

/// The schema version this versus writes.
pub const VERSION: i64 = 3;

/// Each migration: the version it brings the store to, and its statements.
/// `{id}`, `{int}` and `{real}` become each dialect's types.
pub const MIGRATIONS: &[(i64, &str)] = &[
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
        "CREATE TABLE cell_metrics (
            run_id {int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            cell_id TEXT NOT NULL,
            metric TEXT NOT NULL,
            n {int},
            median {real},
            ci_low {real},
            ci_high {real},
            mean {real},
            stddev {real},
            PRIMARY KEY (run_id, cell_id, metric)
        )",
    ),
];

/// A migration's statements in `dialect`.
pub fn sql(dialect: Dialect, template: &str) -> String {
    let (id, int, real) = match dialect {
        Dialect::Sqlite => ("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", "REAL"),
        Dialect::Postgres => ("BIGSERIAL PRIMARY KEY", "BIGINT", "DOUBLE PRECISION"),
    };
    template
        .replace("{id}", id)
        .replace("{int}", int)
        .replace("{real}", real)
}

/// The store's schema version (0 for an empty database). Call inside a transaction.
fn current(db: &mut dyn Backend) -> Result<i64> {
    db.batch("CREATE TABLE IF NOT EXISTS versus_schema (version BIGINT NOT NULL)")?;
    let rows = db.query("SELECT max(version) FROM versus_schema", &[])?;
    Ok(rows.first().and_then(|r| r.first()).and_then(|v| v.int()).unwrap_or(0))
}

/// Brings the store to `target` (normally `VERSION`); `location` names it in messages.
pub fn migrate(db: &mut dyn Backend, target: i64, location: &str) -> Result<i64> {
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
