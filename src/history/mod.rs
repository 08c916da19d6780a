//! The across-runs wing: everything that needs more than one run. One run's
//! layers (measuring, one document's analysis and reports) know nothing of
//! it; it reads their documents and adds what only a history can say.
//!
//! - `store`: the history store (SQLite or PostgreSQL), every run recorded.

pub mod store;

pub use store::*;
