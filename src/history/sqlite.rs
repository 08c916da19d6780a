//! The default store: one SQLite file (bundled SQLite, no server). WAL
//! journal and a generous busy timeout let several `versus` processes write
//! into the same file at once; each records its run in one transaction that
//! takes the write lock up front.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use super::backend::{Backend, Dialect, Param, Row, Value};

pub struct Sqlite {
    conn: Connection,
    path: PathBuf,
}

impl Sqlite {
    /// Opens (creating when missing) the database file at `path`, and its folder.
    pub fn open(path: &Path) -> Result<Sqlite> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| {
                format!(
                    "history store {}: cannot create the folder {}",
                    path.display(),
                    dir.display()
                )
            })?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("history store {}: cannot open it as an SQLite database", path.display()))?;
        conn.busy_timeout(Duration::from_secs(60))?;
        let mut s = Sqlite {
            conn,
            path: path.to_path_buf(),
        };
        s.batch("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON")
            .with_context(|| format!("history store {}: not an SQLite database it can write", path.display()))?;
        Ok(s)
    }
}

fn bind(params: &[Param]) -> Vec<rusqlite::types::Value> {
    use rusqlite::types::Value as V;
    params
        .iter()
        .map(|p| match p {
            Param::Int(Some(v)) => V::Integer(*v),
            Param::Real(Some(v)) => V::Real(*v),
            Param::Text(Some(v)) => V::Text(v.clone()),
            _ => V::Null,
        })
        .collect()
}

impl Backend for Sqlite {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        self.conn
            .execute_batch(sql)
            .with_context(|| format!("history store {}", self.path.display()))
    }

    fn execute(&mut self, sql: &str, params: &[Param]) -> Result<u64> {
        let n = self
            .conn
            .execute(sql, rusqlite::params_from_iter(bind(params)))
            .with_context(|| format!("history store {}", self.path.display()))?;
        Ok(n as u64)
    }

    fn query(&mut self, sql: &str, params: &[Param]) -> Result<Vec<Row>> {
        let ctx = || format!("history store {}", self.path.display());
        let mut stmt = self.conn.prepare(sql).with_context(ctx)?;
        let width = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(bind(params))).with_context(ctx)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().with_context(ctx)? {
            let mut r = Vec::with_capacity(width);
            for i in 0..width {
                r.push(match row.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Real(v) => Value::Real(v),
                    ValueRef::Text(t) | ValueRef::Blob(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                });
            }
            out.push(r);
        }
        Ok(out)
    }

    fn begin(&mut self) -> Result<()> {
        self.batch("BEGIN IMMEDIATE")
    }

    fn commit(&mut self) -> Result<()> {
        self.batch("COMMIT")
    }

    fn rollback(&mut self) -> Result<()> {
        self.batch("ROLLBACK")
    }
}
