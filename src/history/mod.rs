//! The history store: every `versus run` and `versus exec` recorded, so that
//! each report can say what changed since the last run and `versus trend`
//! can show when a figure moved. By default an SQLite file in the project
//! (`.versus/history.db` at the root of the suite's git work tree, else
//! beside the suite); `--store postgres://…` (or `VERSUS_STORE`) puts many
//! machines' history into one PostgreSQL database. docs/history.md
//! describes the location, the schema and its migrations.
//!
//! - `backend`: the SQL the store needs, one trait for both databases.
//! - `sqlite`, `postgres`: the two backends.
//! - `schema`: tables and migrations.
//! - `store`: the open store, and the queries over the history.
//! - `record`: recording a run in a few statements.
//! - `document`: a run's results file as kept (compressed).
//! - `series`: what a trend reads.
//! - `space`: pruning, and the store's size.
//! - `context`: what a run records besides its results (git state, hashes).

pub mod backend;
pub mod context;
pub mod document;
pub mod postgres;
mod record;
pub mod schema;
pub mod series;
pub mod space;
pub mod sqlite;
pub mod store;

use std::path::{Path, PathBuf};

use anyhow::Result;

pub use document::Document;
pub use series::{CellSummary, Point, Series, TrendRun, Window};
pub use store::{Filter, Git, RunMeta, RunSummary, Store};

/// The environment variable that names a store when `--store` is not given.
pub const STORE_ENV: &str = "VERSUS_STORE";

/// Where a store lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Location {
    /// `postgres://…` or `postgresql://…` is a server; anything else a file path.
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Location::Postgres(text.to_string())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }

    /// The store for a project: `--store` (or `VERSUS_STORE`) when given,
    /// else `.versus/history.db` at the root of the git work tree holding
    /// `dir`, or in `dir` itself outside git.
    pub fn resolve(given: Option<&str>, dir: &Path) -> Location {
        match given {
            Some(t) if !t.is_empty() => Location::parse(t),
            _ => Location::Sqlite(project_root(dir).join(".versus").join("history.db")),
        }
    }

    /// How messages name it (no password).
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => postgres::redact(url),
        }
    }
}

/// The root of the git work tree that holds `dir` (a folder with `.git`), else `dir`.
pub fn project_root(dir: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    abs.ancestors()
        .find(|d| d.join(".git").exists())
        .map_or(abs.clone(), Path::to_path_buf)
}

/// Opens the store at `location`, creating and migrating it as needed.
pub fn open(location: &Location) -> Result<Store> {
    let db: Box<dyn backend::Backend> = match location {
        Location::Sqlite(p) => Box::new(sqlite::Sqlite::open(p)?),
        Location::Postgres(url) => Box::new(postgres::Postgres::connect(url)?),
    };
    Store::new(db, location.shown())
}

#[cfg(test)]
mod tests;
