//! The little SQL the store needs, behind one trait so that the store's logic
//! (migrations, recording, queries) is written once for SQLite and
//! PostgreSQL. Statements are written in SQLite's spelling with numbered
//! parameters (`?1`); a backend translates what differs (`$1`, column types).

use anyhow::Result;

/// A parameter bound into a statement. Typed even when null, because
/// PostgreSQL wants to know the type of every parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
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
}

pub type Row = Vec<Value>;

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
    fn query(&mut self, sql: &str, params: &[Param]) -> Result<Vec<Row>>;
    /// Starts a transaction that takes the write lock at once (SQLite's
    /// `BEGIN IMMEDIATE`), so two writers queue instead of failing mid-way.
    fn begin(&mut self) -> Result<()>;
    fn commit(&mut self) -> Result<()>;
    fn rollback(&mut self) -> Result<()>;
}
