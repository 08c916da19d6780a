//! The parts a report is made of, each built from the document and shared
//! by every format: findings, the summary grid, the overall table, change
//! since the last run, revisions, the record of the run, the method, and
//! the author's notes.

pub mod findings;
pub mod grid;
pub mod info;
pub mod lead;
pub mod levels;
pub mod method;
pub mod notes;
pub mod overall;
pub mod pieces;
pub mod record;
pub mod revisions;
pub mod since;
