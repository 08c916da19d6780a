//! The default store: one SQLite file (bundled SQLite, no server). WAL
//! journal and a generous busy timeout let several `versus` processes write
//! into the same file at once; each records its run in one transaction that
//! takes the write lock up front. A new file is made with incremental
//! auto-vacuum, so that `versus history prune` can hand freed pages back to
//! the file system without rewriting the whole file.
//!
//! Recording a run writes its document once and never reads it back, so
//! it goes into room its row reserved, in pieces (`write_blob`), and
//! meanwhile the page cache is held to `ONE_PASS_CACHE_KIB` instead of
//! SQLite's 2 MB: at 100,000 runs the document is about 0.75 MB, and bound
//! whole and cached it cost several times that at the very end of the run,
//! the moment of its peak memory.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags};

use super::backend::{Backend, Column, Dialect, EachRow, Param, Value};

pub(crate) struct Sqlite {
    conn: Connection,
    path: PathBuf,
    statements: u64,
    /// The page cache's size as opened (a `cache_size` pragma value), while
    /// `one_pass` holds it smaller.
    cache_before: Option<i64>,
}

/// The page cache while a document passes through (KiB).
const ONE_PASS_CACHE_KIB: i64 = 256;

impl Sqlite {
    /// Opens (creating when missing) the database file at `path`, and its folder.
    pub(crate) fn open(path: &Path) -> Result<Sqlite> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            super::create_folder(dir).with_context(|| {
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
            statements: 0,
            cache_before: None,
        };
        // auto_vacuum only takes on a file without tables: a new store.
        s.batch("PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON")
            .with_context(|| format!("history store {}: not an SQLite database it can write", path.display()))?;
        Ok(s)
    }
}

/// A parameter bound by reference: a run's document is not copied to be bound.
struct Bound<'a>(&'a Param);

impl rusqlite::ToSql for Bound<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self.0 {
            Param::Int(Some(v)) => ValueRef::Integer(*v),
            Param::Real(Some(v)) => ValueRef::Real(*v),
            Param::Text(Some(v)) => ValueRef::Text(v.as_bytes()),
            Param::Blob(Some(v)) => ValueRef::Blob(v.as_slice()),
            _ => ValueRef::Null,
        }))
    }
}

fn bind(params: &[Param]) -> impl rusqlite::Params + '_ {
    rusqlite::params_from_iter(params.iter().map(Bound))
}

impl Backend for Sqlite {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        self.statements += 1;
        self.conn
            .execute_batch(sql)
            .with_context(|| format!("history store {}", self.path.display()))
    }

    fn execute(&mut self, sql: &str, params: &[Param]) -> Result<u64> {
        self.statements += 1;
        let n = self
            .conn
            .prepare_cached(sql)
            .and_then(|mut st| st.execute(bind(params)))
            .with_context(|| format!("history store {}", self.path.display()))?;
        Ok(n as u64)
    }

    fn query_each(&mut self, sql: &str, params: &[Param], each: &mut EachRow) -> Result<()> {
        self.statements += 1;
        let ctx = || format!("history store {}", self.path.display());
        let mut stmt = self.conn.prepare_cached(sql).with_context(ctx)?;
        let width = stmt.column_count();
        let mut rows = stmt.query(bind(params)).with_context(ctx)?;
        let mut r = Vec::with_capacity(width);
        while let Some(row) = rows.next().with_context(ctx)? {
            r.clear();
            for i in 0..width {
                r.push(match row.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Real(v) => Value::Real(v),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Value::Blob(b.to_vec()),
                });
            }
            each(&r)?;
        }
        Ok(())
    }

    fn insert_many(&mut self, head: &str, tail: &str, columns: &[Column]) -> Result<u64> {
        self.statements += 1;
        let ctx = || format!("history store {}", self.path.display());
        let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
        let sql = format!("{head} VALUES ({}) {tail}", marks.join(", "));
        let mut stmt = self.conn.prepare_cached(&sql).with_context(ctx)?;
        let mut n = 0;
        for i in 0..columns.first().map_or(0, Column::len) {
            let row: Vec<Param> = columns.iter().map(|c| c.param(i)).collect();
            n += stmt.execute(bind(&row)).with_context(ctx)? as u64;
        }
        Ok(n)
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

    fn statements(&self) -> u64 {
        self.statements
    }

    fn write_blob(&mut self, table: &str, column: &str, row: i64, bytes: &[u8]) -> Result<()> {
        let ctx = || format!("history store {}: {table}.{column} of row {row}", self.path.display());
        let mut blob = self
            .conn
            .blob_open(rusqlite::MAIN_DB, table, column, row, false)
            .with_context(ctx)?;
        std::io::Write::write_all(&mut blob, bytes).with_context(ctx)?;
        blob.close().with_context(ctx)
    }

    fn one_pass(&mut self, on: bool) -> Result<()> {
        let ctx = || format!("history store {}", self.path.display());
        match (on, self.cache_before) {
            (true, None) => {
                let before: i64 = self
                    .conn
                    .pragma_query_value(None, "cache_size", |r| r.get(0))
                    .with_context(ctx)?;
                self.conn
                    .pragma_update(None, "cache_size", -ONE_PASS_CACHE_KIB)
                    .with_context(ctx)?;
                self.cache_before = Some(before);
            }
            (false, Some(before)) => {
                self.conn.pragma_update(None, "cache_size", before).with_context(ctx)?;
                self.cache_before = None;
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes the connection's page cache holds now.
    fn cache_used(s: &Sqlite) -> i64 {
        let (mut now, mut high) = (0, 0);
        // SAFETY: the handle is the open connection's; sqlite3_db_status only reads counters.
        unsafe {
            rusqlite::ffi::sqlite3_db_status(
                s.conn.handle(),
                rusqlite::ffi::SQLITE_DBSTATUS_CACHE_USED,
                &mut now,
                &mut high,
                0,
            );
        }
        i64::from(now)
    }

    /// The page cache after 2 MiB of barely compressible bytes are written in one transaction.
    fn cache_after_a_document(one_pass: bool) -> i64 {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Sqlite::open(&dir.path().join("h.db")).unwrap();
        s.batch("CREATE TABLE runs (id INTEGER PRIMARY KEY, document BLOB)")
            .unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let bytes: Vec<u8> = (0..2 << 20)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        s.one_pass(one_pass).unwrap();
        s.begin().unwrap();
        s.execute(
            "INSERT INTO runs (document) VALUES (?1)",
            &[Param::Blob(Some(std::sync::Arc::new(bytes)))],
        )
        .unwrap();
        s.commit().unwrap();
        let used = cache_used(&s);
        s.one_pass(false).unwrap();
        assert_eq!(
            s.conn
                .pragma_query_value(None, "cache_size", |r| r.get::<_, i64>(0))
                .unwrap(),
            -2000
        );
        used
    }

    #[test]
    fn a_document_passing_through_leaves_only_a_small_page_cache() {
        let (default, one_pass) = (cache_after_a_document(false), cache_after_a_document(true));
        assert!(
            default > 1 << 20,
            "SQLite's default cache keeps the document's pages: {default}"
        );
        assert!(one_pass <= 2 * ONE_PASS_CACHE_KIB * 1024, "{one_pass}");
    }
}
