//! Recording finished cells as the run goes, so that a crash, Ctrl-C or
//! kill loses nothing finished: each group's cells are appended to the
//! journal as one line, synced before the next group starts, after a line
//! with the run's header.
//!
//! The journal is the durable record; the results file is written once, at
//! the end (or at an interruption), from the same cells. Rewriting it after
//! every group, with every cell analysed again, made a run's own cost grow
//! with the square of its number of groups.

use anyhow::Result;

use crate::results::{Cell, Journal, Results};

/// Where a run records its finished cells.
pub struct Checkpoint {
    pub journal: Journal,
}

impl Checkpoint {
    /// Records the run's header (its document without cells) before the
    /// first group, so the journal alone can be rendered (`versus report DIR`).
    pub fn begin(&mut self, header: &Results) -> Result<()> {
        self.journal.append_run(header)
    }

    /// Records one group's finished cells.
    pub fn record(&mut self, cells: &[Cell]) -> Result<()> {
        self.journal.append_group(cells)
    }
}
