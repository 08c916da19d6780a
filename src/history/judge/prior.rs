//! The prior: what a suite's history on one machine tells of each
//! cell — its run-to-run noise (`noise`), its level over its last runs, and
//! where it stood beside the other cells of its group (`relative`) — read
//! once per run and asked by the change judge for every cell.

use std::collections::HashMap;

use super::change::describe;
use super::noise::{Level, Recorded, WINDOW, level_of, of_cell, of_machine};
use super::relative::GroupHistory;
use crate::results::RunNoise;

/// The noise of every cell of a suite on one machine, as far as its history tells.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prior {
    cells: HashMap<String, RunNoise>,
    machine: Option<RunNoise>,
    levels: HashMap<String, Level>,
    beside: GroupHistory,
}

impl Prior {
    /// From each cell's recorded medians (oldest first), with each cell's
    /// group (`results::group_key`) in the run being judged: cells of one
    /// group were measured side by side and are also judged against each
    /// other (`history::judge::relative`).
    pub fn from_history(by_cell: Recorded, groups: &HashMap<String, String>) -> Prior {
        let medians = |runs: &[(i64, f64)]| runs.iter().map(|(_, m)| *m).collect::<Vec<f64>>();
        let cells: HashMap<String, RunNoise> = by_cell
            .iter()
            .filter_map(|(id, runs)| Some((id.clone(), of_cell(&medians(runs))?)))
            .collect();
        let levels = by_cell
            .iter()
            .filter_map(|(id, runs)| Some((id.clone(), level_of(&medians(runs))?)))
            .collect();
        let machine = of_machine(&cells.values().copied().collect::<Vec<_>>());
        let beside = GroupHistory::learn(&by_cell, groups);
        Prior {
            cells,
            machine,
            levels,
            beside,
        }
    }

    /// What history says of each cell beside the others of its group.
    pub fn beside(&self) -> &GroupHistory {
        &self.beside
    }

    /// The cell's level over its last runs, when history has one.
    pub fn level(&self, id: &str) -> Option<Level> {
        self.levels.get(id).copied()
    }

    /// The cell's own noise, else the machine's; `None` when history knows neither.
    pub fn for_cell(&self, id: &str) -> Option<RunNoise> {
        self.cells.get(id).copied().or(self.machine)
    }

    pub fn is_empty(&self) -> bool {
        self.machine.is_none()
    }

    /// What the noise rests on, for the report: how many cells have their
    /// own figure and what the machine's is; `None` when there is none.
    pub fn summary(&self, level: f64) -> Option<String> {
        let machine = self.machine?;
        Some(format!(
            "Run-to-run noise learned from this machine's history: {} cell(s) from their own last runs (at most {WINDOW}), the others from the machine's median {}",
            self.cells.len(),
            describe(&machine, level)
        ))
    }
}
