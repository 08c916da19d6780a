//! The run-to-run judge: whether a cell changed between two runs of a suite
//! on one machine. It asks the one-run judge (`judge::compare`,
//! `judge::levels`, `judge::verdict`) for every interval and decision, and
//! adds what only a history can say:
//!
//! - `noise`: how much a cell moves between runs on one machine, learned
//!   from its history.
//! - `change`: a cell between two runs, judged against that noise.
//! - `relative`: the same beside the other implementations of its group,
//!   which shared the machine's moods with it, and the group's shift as a
//!   whole.
//! - `references`: until that history exists, a change withheld when the
//!   group or the machine's own speed (`exec::speed`) moved with it.
//! - `prior`: what a suite's earlier runs on one machine tell of each
//!   cell, read once per run and asked for every cell.

pub(in crate::history) mod change;
pub(in crate::history) mod noise;
pub(in crate::history) mod prior;
pub(in crate::history) mod references;
pub(in crate::history) mod relative;

pub use prior::Prior;
