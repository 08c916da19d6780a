//! The store: every `versus run` and `versus exec` recorded, so that
//! each report can say what changed since the last run and `versus trend`
//! can show when a figure moved. By default an SQLite file in the project
//! (`.versus/history.db` at the root of the suite's git work tree, else
//! beside the suite; `versus exec` and the history commands outside any git
//! work tree use the user's data folder, so a scratch folder is not left
//! with a `.versus/`); `--store postgres://…` (or `VERSUS_STORE`) puts many
//! machines' history into one PostgreSQL database. docs/history.md
//! describes the location, the schema and its migrations.
//!
//! - `backend`: the SQL the store needs, one trait for both databases.
//! - `sqlite`, `postgres`: the two backends; `tls`: PostgreSQL's sslmode, with rustls.
//! - `schema`: tables and migrations.
//! - `runs`: the open store, and the queries over its runs.
//! - `record`: recording a run in a few statements.
//! - `document`: a run's results file as kept (compressed), and `hidden`:
//!   any password in its command line hidden on the way in and out.
//! - `series`: what a trend reads.
//! - `space`: pruning, and the store's size.
//! - `context`: what a run records besides its results (git state, hashes).

mod backend;
mod bisects;
mod context;
mod document;
mod hidden;
mod packing;
mod postgres;
mod record;
mod runs;
mod schema;
mod series;
mod space;
mod sqlite;
mod tls;

use std::path::{Path, PathBuf};

use anyhow::Result;

pub use bisects::{Bisect, StoredBisect};
pub(crate) use context::git_state;
pub use document::Document;
pub use packing::Packing;
pub use runs::{Filter, Git, RunMeta, RunSummary, Store, machine_of};
pub use series::{CellSummary, Point, Series, TrendRun, Window};
pub(crate) use space::Stats as StoreStats;

/// The environment variable that names a store when `--store` is not given.
pub const STORE_ENV: &str = "VERSUS_STORE";

/// Where a store lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Location {
    /// How documents are packed for this store (`packing`).
    pub fn packing(&self) -> Packing {
        Packing::for_dialect(match self {
            Location::Sqlite(_) => backend::Dialect::Sqlite,
            Location::Postgres(_) => backend::Dialect::Postgres,
        })
    }

    /// `postgres://…` or `postgresql://…` is a server, and so is a libpq
    /// keyword/value string (`host=… dbname=…`); anything else a file path.
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") || postgres::is_keywords(text) {
            Location::Postgres(text.to_string())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }

    /// The store for a project: `--store` (or `VERSUS_STORE`) when given,
    /// else `.versus/history.db` at the root of the git work tree holding
    /// `dir`; outside git, as `outside` says.
    pub fn resolve(given: Option<&str>, dir: &Path, outside: &Outside) -> Location {
        if let Some(t) = given.filter(|t| !t.is_empty()) {
            return Location::parse(t);
        }
        let here = || Location::Sqlite(project_root(dir).join(STORE_FILE));
        match (git_root(dir), outside) {
            (Some(root), _) => Location::Sqlite(root.join(STORE_FILE)),
            (None, Outside::Here) => here(),
            // A store made here before (by an older versus, or a suite run) is still used.
            (None, Outside::UserData(_)) if dir.join(STORE_FILE).is_file() => here(),
            (None, Outside::UserData(Some(data))) => Location::Sqlite(data.join("history.db")),
            (None, Outside::UserData(None)) => here(),
        }
    }

    /// Whether this is the user's data folder's store rather than a project's.
    pub fn is_user_data(&self, outside: &Outside) -> bool {
        match (self, outside) {
            (Location::Sqlite(p), Outside::UserData(Some(data))) => p.starts_with(data),
            _ => false,
        }
    }

    /// How messages name it (no password).
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => crate::base::redact::word(url).into_owned(),
        }
    }
}

/// The store's file under a project root.
const STORE_FILE: &str = ".versus/history.db";

/// Where the default store goes for a folder in no git work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outside {
    /// In the folder itself (a suite's folder is its project).
    Here,
    /// In the user's data folder (`versus exec` and the history commands,
    /// run from any folder): `$XDG_DATA_HOME/versus`, else
    /// `~/.local/share/versus`; None when neither can be found (then `Here`).
    UserData(Option<PathBuf>),
}

impl Outside {
    /// The user's data folder for versus, from the environment (XDG base directories).
    pub fn user_data() -> Outside {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let data = var("XDG_DATA_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| var("HOME").map(|h| h.join(".local/share")));
        Outside::UserData(data.map(|d| d.join("versus")))
    }
}

/// The folder of versus's own files under a project root.
const OWN_FOLDER: &str = ".versus";

/// Creates `dir` with its parents; where it is, or lies in, a `.versus`
/// folder, that folder gets an ignore file first. Its store and the runs
/// not yet recorded hold command lines and host names: git must not offer
/// them for a commit (they showed as untracked at the repository's root).
pub fn create_folder(dir: &Path) -> std::io::Result<()> {
    if let Some(own) = dir.ancestors().find(|d| d.file_name().is_some_and(|n| n == OWN_FOLDER)) {
        std::fs::create_dir_all(own)?;
        let ignore = own.join(".gitignore");
        if !ignore.exists() {
            std::fs::write(
                ignore,
                "# versus's own files (the history store, runs not yet recorded): not for commits\n*\n",
            )?;
        }
    }
    std::fs::create_dir_all(dir)
}

/// The root of the git work tree that holds `dir` (a folder with `.git`), else `dir`.
pub fn project_root(dir: &Path) -> PathBuf {
    git_root(dir).unwrap_or_else(|| std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()))
}

/// The root of the git work tree that holds `dir`, if any.
fn git_root(dir: &Path) -> Option<PathBuf> {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    abs.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf)
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
