//! The parts a report is made of, each built from the document and shared
//! by every format: findings, the summary grid, the overall table, change
//! since the last run, revisions, the record of the run, the method, and
//! the author's notes.

pub(super) mod findings;
pub(super) mod grid;
pub(super) mod info;
pub(super) mod lead;
pub(super) mod levels;
pub(super) mod method;
pub(super) mod notes;
pub(super) mod overall;
pub(super) mod pieces;
pub(super) mod record;
pub(super) mod revisions;
pub(crate) mod since;
