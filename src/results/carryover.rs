//! What the run before did to a cell's runs, as stored with its statistics
//! (`Stats::carry_over`): its runs grouped by the implementation that ran
//! just before each, the figures run alone and in turns, the test
//! `judge::carryover` decided by, and the screen `judge::carryover_screen`
//! decides by when the runs are too few for that test.
//! docs/results-format.md documents it.

use serde::{Deserialize, Serialize};

/// A cell's runs after one predecessor, or after several.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunsAfter {
    /// The predecessor; absent for a group of several (`alone`, `in_turns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
    pub runs: usize,
    /// Median time per call of those runs (ns).
    pub median_ns: f64,
    /// Median system CPU time of those runs (ns); null in-process.
    pub median_sys_ns: Option<f64>,
}

/// The runs after some predecessors against the runs after others.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Effect {
    /// The predecessors of the runs measured…
    pub after: Vec<String>,
    /// …against the runs after these (the cell's own implementation alone
    /// when it ran after itself often enough).
    pub against: Vec<String>,
    /// Median of the first over median of the second, above 1 is slower,
    /// with its interval at `CarryOver::confidence` (null with too few runs).
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Difference of their median system CPU times (ns); null in-process.
    pub sys_delta_ns: Option<f64>,
}

/// What the run before did to a cell (`judge::carryover`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CarryOver {
    /// Runs right after the cell's own implementation: what it costs run
    /// alone, as in hyperfine's order. Null when it never followed itself.
    pub alone: Option<RunsAfter>,
    /// Runs right after any other implementation: what it costs in turns.
    pub in_turns: Option<RunsAfter>,
    /// By predecessor (itself included), in the order of
    /// `samples.order.implementations`; runs after none are left out.
    pub after: Vec<RunsAfter>,
    /// The runs after every predecessor whose test found an effect (on the
    /// side of the strongest), pooled, against the tests' reference; else
    /// the first test planned; null when the runs were too few to plan one.
    pub effect: Option<Effect>,
    /// Whether the predecessor changed the time: an interval clear of 1 and
    /// a ratio beyond the noise floor, or, with too few runs for an
    /// interval, the screen fired (`screen`).
    pub detected: bool,
    /// The level of the intervals: the analysis's confidence shared out over
    /// the tests of the cell's group (Bonferroni), so that a group of
    /// identical implementations is flagged at most 5% of the time.
    pub confidence: f64,
    /// The screen, when the runs were too few for the test to give an
    /// interval (absent otherwise, and in files written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<Screen>,
}

/// What the screen looks at: time per call, or system CPU time per run.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ScreenMetric {
    Wall,
    Sys,
}

/// The carry-over screen of one cell (`judge::carryover_screen`): whether
/// every run after another implementation was slower than every run after
/// itself.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Screen {
    /// The metrics in which every run after others lay above every run
    /// after itself; empty when none did.
    pub apart_in: Vec<ScreenMetric>,
    /// The chance of that in one metric when the predecessor changes
    /// nothing: 1 / C(n, k) for n runs, k of them after itself.
    pub chance: f64,
    /// The looks of the cell's group (metrics screened × cells) the
    /// analysis's 1 − confidence is shared over (Bonferroni).
    pub looks: usize,
    /// Whether it fired: apart in some metric, with `chance` × `looks` at
    /// most 1 − confidence.
    pub fired: bool,
}

impl CarryOver {
    /// The screen's finding, where the screen (not the test) found it.
    pub fn screened(&self) -> Option<&Screen> {
        self.screen.as_ref().filter(|s| s.fired && self.detected)
    }
}
