//! The little SQL the store needs, behind one trait so that the store's logic
//! (migrations, recording, queries) is written once for SQLite and
//! PostgreSQL. Statements are written in SQLite's spelling with numbered
//! parameters (`?1`); a backend translates what differs (`$1`, column types).
//!
//! A team's server may be a round trip away, so the trait is shaped by
//! round trips: each statement is one (PostgreSQL: typed parameters, no
//! separate prepare), many rows go in with one statement (`insert_many`),
//! and a large result is streamed row by row (`query_each`) rather than
//! held whole. Every backend counts the statements it sends, so tests can
//! hold recording to a fixed number of them.

use anyhow::Result;

/// A parameter bound into a statement. Typed even when null, because
/// PostgreSQL wants to know the type of every parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
    /// Shared, so a run's document is not copied to be bound.
    Blob(Option<std::sync::Arc<Vec<u8>>>),
}

impl From<i64> for Param {
    fn from(v: i64) -> Self {
        Param::Int(Some(v))
    }
}

impl From<Option<i64>> for Param {
    fn from(v: Option<i64>) -> Self {
        Param::Int(v)
    }
}

impl From<f64> for Param {
    fn from(v: f64) -> Self {
        Param::Real(Some(v))
    }
}

impl From<Option<f64>> for Param {
    fn from(v: Option<f64>) -> Self {
        Param::Real(v)
    }
}

impl From<&str> for Param {
    fn from(v: &str) -> Self {
        Param::Text(Some(v.to_string()))
    }
}

impl From<String> for Param {
    fn from(v: String) -> Self {
        Param::Text(Some(v))
    }
}

impl From<Option<String>> for Param {
    fn from(v: Option<String>) -> Self {
        Param::Text(v)
    }
}

impl From<Option<&str>> for Param {
    fn from(v: Option<&str>) -> Self {
        Param::Text(v.map(str::to_string))
    }
}

/// A value read back from a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    pub fn int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            Value::Real(v) => Some(*v as i64),
            _ => None,
        }
    }

    pub fn real(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::Real(v) => Some(*v),
            _ => None,
        }
    }

    pub fn text(&self) -> Option<String> {
        match self {
            Value::Text(v) => Some(v.clone()),
            _ => None,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Text(v) => Some(v),
            _ => None,
        }
    }

    pub fn blob(&self) -> Option<&[u8]> {
        match self {
            Value::Blob(v) => Some(v),
            _ => None,
        }
    }
}

/// One column of many rows for `insert_many`, all of one type.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    Int(Vec<Option<i64>>),
    Real(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Int(v) => v.len(),
            Column::Real(v) => v.len(),
            Column::Text(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i` as a parameter.
    pub fn param(&self, i: usize) -> Param {
        match self {
            Column::Int(v) => Param::Int(v[i]),
            Column::Real(v) => Param::Real(v[i]),
            Column::Text(v) => Param::Text(v[i].clone()),
        }
    }
}

pub(crate) type Row = Vec<Value>;

/// What `Backend::query_each` hands each row to.
pub(crate) type EachRow<'a> = dyn FnMut(&[Value]) -> Result<()> + 'a;

/// Which SQL dialect a backend speaks, for the few statements that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One connection to a store's database.
pub trait Backend {
    fn dialect(&self) -> Dialect;
    /// Runs statements without parameters (schema changes), separated by `;`.
    fn batch(&mut self, sql: &str) -> Result<()>;
    /// Runs one statement; returns the number of rows changed.
    fn execute(&mut self, sql: &str, params: &[Param]) -> Result<u64>;
    /// Runs one query; returns its rows.
    fn query(&mut self, sql: &str, params: &[Param]) -> Result<Vec<Row>> {
        let mut rows = Vec::new();
        self.query_each(sql, params, &mut |r| {
            rows.push(r.to_vec());
            Ok(())
        })?;
        Ok(rows)
    }
    /// Runs one query, handing each row to `each` as it arrives, so a large
    /// result is never held whole.
    fn query_each(&mut self, sql: &str, params: &[Param], each: &mut EachRow) -> Result<()>;
    /// Inserts many rows with one statement: `head` is `INSERT INTO t (a, b)`,
    /// `tail` what follows the values (an `ON CONFLICT` clause, or empty),
    /// `columns` the values, one `Column` per named column, all of one length.
    /// Returns the number of rows inserted.
    fn insert_many(&mut self, head: &str, tail: &str, columns: &[Column]) -> Result<u64>;
    /// Starts a transaction that takes the write lock at once (SQLite's
    /// `BEGIN IMMEDIATE`), so two writers queue instead of failing mid-way.
    fn begin(&mut self) -> Result<()>;
    fn commit(&mut self) -> Result<()>;
    fn rollback(&mut self) -> Result<()>;
    /// Statements sent so far (on PostgreSQL, each one round trip), for tests.
    fn statements(&self) -> u64;
    /// Writes `bytes` into the blob `column` of row `row` of `table`, whose
    /// room a `zeroblob(N)` of that length reserved, in pieces (SQLite's
    /// incremental blob I/O: the whole is never copied). Not a statement.
    fn write_blob(&mut self, table: &str, column: &str, row: i64, _bytes: &[u8]) -> Result<()> {
        anyhow::bail!("this store cannot write {table}.{column} of row {row} in pieces")
    }
    /// Says that what follows writes much that is not read again (a run's
    /// document passing through once), or, with `false`, that this is over.
    /// SQLite keeps a small page cache meanwhile; a server has nothing to do.
    fn one_pass(&mut self, _on: bool) -> Result<()> {
        Ok(())
    }
}
