//! What the judge concludes about one cell that the document keeps: why its
//! runs do not describe one level (`judge::stability`), and how far its
//! median moves between runs (`history::judge::noise`). The rules live in `judge`;
//! the document only holds their answers.

use serde::{Deserialize, Serialize};

/// Why a cell's runs do not describe one level.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum InstabilityKind {
    /// The runs fall into two groups far apart.
    TwoModes,
    /// The runs spread over a range as wide as their level.
    Spread,
    /// Passes or forks settled at different levels.
    Segments,
    /// A kind a later versus wrote.
    #[serde(other)]
    Other,
}

/// What makes a cell unstable, with the figures a reader checks it by.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Instability {
    pub kind: InstabilityKind,
    /// The two levels (ns per call): the modes' or segments' medians, or
    /// for `spread` the first and third quartiles.
    pub low_ns: f64,
    pub high_ns: f64,
    /// Robust coefficient of variation of the runs (1.4826 · MAD / median).
    pub spread: f64,
}

/// The standard deviation of one run's log median between runs, and what it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunNoise {
    /// Log units (≈ relative): 0.02 is about ±2% for one run.
    pub sigma: f64,
    /// Recorded runs it was learned from (for the machine figure: the
    /// fewest any contributing cell had).
    pub runs: usize,
    pub source: NoiseSource,
}

/// Where a noise figure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseSource {
    /// The cell's own history.
    Cell,
    /// The median over the suite's cells on this machine (the cell has too little history).
    Machine,
}
