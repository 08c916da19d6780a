//! The across-runs wing: everything that needs more than one run. One run's
//! layers (measuring, one document's analysis and reports) know nothing of
//! it; it reads their documents and adds what only a history can say.
//!
//! - `store`: the history store (SQLite or PostgreSQL), every run recorded.
//! - `judge`: the run-to-run judge: noise learned from history, a change
//!   between two runs, withheld when the group or the machine moved.
//! - `runs`: runs compared with runs: `versus diff`, the change since the
//!   last run, `versus trend`.
//! - `site`: the team's static site of every suite's history.
//! - `bisect`: the search for the commit that made a cell slower.

pub mod bisect;
pub mod judge;
pub mod runs;
pub mod site;
pub mod store;

pub use store::*;
