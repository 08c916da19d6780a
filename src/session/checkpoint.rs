//! Recording finished cells as the run goes, so that a crash, Ctrl-C or
//! kill loses nothing finished: each group's cells are appended to the
//! journal (synced before the next group starts), and the results file is
//! brought up to date.

use std::path::PathBuf;

use anyhow::Result;
use indexmap::IndexMap;

use crate::analysis;
use crate::plan::Plan;
use crate::results::{self, Cell, Journal, Results};
use crate::session::document::in_plan_order;
use crate::suite::Suite;

/// Where a run records its finished cells.
pub struct Checkpoint {
    pub journal: Journal,
    pub results_path: PathBuf,
}

impl Checkpoint {
    /// Records one group's finished cells; `all` holds every finished cell so far.
    pub fn record(
        &mut self,
        cells: &[Cell],
        all: &IndexMap<String, Cell>,
        results: &mut Results,
        suite: &Suite,
        plan: &Plan,
    ) -> Result<()> {
        self.journal.append_group(cells)?;
        results.cells = in_plan_order(suite, plan, all);
        analysis::analyze(results, &[]);
        results::write_json_atomic(&self.results_path, results)
    }
}
