//! Findings: the takeaways a reader looks for first (who wins where, the size
//! at which the winner changes, start-up against per-byte cost, warm-up,
//! memory growth, drift, failures), computed from the cells by `findings`
//! rather than typed by hand. Each holds one sentence for people, the ids
//! of the cells it rests on, and its numbers as fields for programs.
//! docs/results-format.md, "Findings", documents every field.

use serde::{Deserialize, Serialize};

use crate::base::outcome::Outcome;
use crate::base::params::Params;

/// One conclusion drawn from the cells.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Finding {
    pub kind: FindingKind,
    pub operation: String,
    /// The parameters it holds for, other than those that set the payload
    /// size (e.g. `{"armor": true}`); empty when there are none.
    #[serde(default)]
    pub params: Params,
    /// The implementation it is about; null when it compares several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
    /// One sentence with sizes and times formatted for people. It does not
    /// repeat the operation or `params`, which reports show beside it.
    pub text: String,
    /// Ids of the cells it rests on.
    pub cells: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostFit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<SizeWinner>>,
    /// The first of `crossovers`, for readers of earlier files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crossover: Option<Crossover>,
    /// Every change of winner along a series, in size order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crossovers: Vec<Crossover>,
    /// A series' sizes as consecutive stretches that say the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<SizeSegment>,
    /// `unstable`: the cells whose runs are unstable, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unstable: Vec<UnstableCell>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryGrowth>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_runs: Vec<FirstRun>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift: Option<Drift>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<OutcomeCount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry_over: Option<super::CarryOver>,
}

/// What a finding says. Readers must accept kinds they do not know (read
/// here as `other`): later versions may add some.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Time is a fixed cost plus a cost per byte (`cost`).
    Cost,
    /// A fixed-plus-per-byte line does not describe the time (`cost` holds the attempt).
    NotLinear,
    /// One implementation is the confirmed fastest wherever a size settles
    /// it, or none is (`winners`, `segments`).
    Winner,
    /// The confirmed fastest changes along the sizes (`crossovers`, `winners`, `segments`).
    Crossover,
    /// Cells whose runs do not describe one level, left out of every
    /// other finding (`unstable`).
    Unstable,
    /// Peak memory against payload size (`memory`).
    Memory,
    /// The first run against the steady level (`first_runs`).
    FirstRun,
    /// Cells doing identical work whose intervals do not overlap (`drift`).
    Drift,
    /// Cells that did not end ok (`outcomes`).
    NotOk,
    /// A cell whose time depends on the implementation run just before it (`carry_over`).
    CarryOver,
    #[serde(other)]
    Other,
}

/// Time per call ≈ fixed + per_byte · payload bytes, fitted over one
/// implementation's ok cells at three or more sizes, weighted for relative
/// error; intervals from a seeded bootstrap of every cell's median.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CostFit {
    /// The intercept (ns): start-up and any other cost that does not grow
    /// with the payload. May be negative within its interval.
    pub fixed_ns: f64,
    pub fixed_ci_low_ns: f64,
    pub fixed_ci_high_ns: f64,
    /// The slope (ns per payload byte).
    pub per_byte_ns: f64,
    pub per_byte_ci_low_ns: f64,
    pub per_byte_ci_high_ns: f64,
    /// 1 / slope in bytes per second, with the interval turned round; null
    /// where the slope (or that end of its interval) is not above 0.
    pub throughput_bytes_per_s: Option<f64>,
    pub throughput_ci_low_bytes_per_s: Option<f64>,
    pub throughput_ci_high_bytes_per_s: Option<f64>,
    /// Largest |median − fitted| / median over the sizes, and the size where.
    pub max_residual: f64,
    pub max_residual_at_bytes: u64,
    /// Whether the line describes the medians (`problem` is null). A fixed
    /// cost confirmed negative (its interval below 0) does not stop it: the
    /// time per byte rises with the size, and the text says so.
    pub holds: bool,
    /// Why the line does not describe the medians; null when it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<FitProblem>,
    /// Distinct payload sizes fitted.
    pub sizes: usize,
    /// Bootstrap resamples behind the intervals.
    pub resamples: usize,
    /// How the median grows with the size over the upper sizes (the larger
    /// half, at least 3): the least-squares slope of log(median) against
    /// log(payload bytes), so 1 is linear, 2 quadratic, and time is ×2^k
    /// per doubling of size. Absent in files written before versus said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent: Option<f64>,
    /// The smallest and largest of the sizes `exponent` is fitted over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent_from_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent_to_bytes: Option<u64>,
    /// Sizes whose throughput falls far below both neighbours' (problem `cliff`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cliffs: Vec<Cliff>,
}

/// Neighbouring sizes of one implementation whose throughput is at most
/// 1 / `findings::cliff::CLIFF` of the sizes on either side of them (a slow
/// path taken at those sizes only). Figures per byte are the median over
/// the payload size, in the cells' metric (ns for time).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Cliff {
    /// The sizes in the cliff, in order.
    pub payload_bytes: Vec<u64>,
    /// The lowest and highest figure per byte among them.
    pub per_byte_low_ns: f64,
    pub per_byte_high_ns: f64,
    /// The size just below the cliff and its figure per byte.
    pub before_bytes: u64,
    pub before_per_byte_ns: f64,
    /// The size just above the cliff and its figure per byte.
    pub after_bytes: u64,
    pub after_per_byte_ns: f64,
}

/// Why a cost line does not describe the medians.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FitProblem {
    /// A median lies more than `findings::cost::MAX_RESIDUAL` from the line.
    Residual,
    /// Written by versus before one tolerance decided "linear": the fixed
    /// cost's interval lay above the smallest size's whole time. A line
    /// within `MAX_RESIDUAL` of every median now holds.
    FixedAboveSmallest,
    /// The per-byte cost is confirmed negative: the time falls as the payload grows.
    NegativePerByte,
    /// A median lies more than `MAX_RESIDUAL` from the line, and over the
    /// upper sizes the time grows faster than the size by more than that
    /// too (`exponent`).
    SuperLinear,
    /// Some sizes' throughput falls far below both neighbours' (`cliffs`).
    Cliff,
    #[serde(other)]
    Other,
}

/// The fastest implementation at one payload size (or in one group
/// without sizes), and what the verdicts let a finding say about it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SizeWinner {
    pub payload_bytes: u64,
    /// The fastest, named only when `answer` is `winner`: the verdict of
    /// every other ok cell against it (`judge::compare`) is `slower`.
    pub implementation: Option<String>,
    /// The fastest by median.
    pub fastest: String,
    /// What the answer rests on: the runner-up by median, or a slower cell
    /// the fastest is not confirmed ahead of.
    pub runner_up: String,
    /// `runner_up`'s time over `fastest`'s, with the judge's verdict.
    pub ratio: Option<Ratio>,
    /// `winner`, `same`, `unknown` or `unstable`; absent (read `unknown`)
    /// in files written before versus said.
    #[serde(default)]
    pub answer: SizeAnswer,
    /// Which of the two cells' runs are unstable (answer `unstable`, or a
    /// `winner` that is `every_run`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unstable: Vec<String>,
    /// A winner despite unstable runs among the two: every run of the
    /// winner was faster than every run of every other cell, so no median
    /// of an unstable cell is needed to tell.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub every_run: bool,
    /// The other cells the fastest is not confirmed ahead of either,
    /// besides `runner_up`, fastest first (answer `unknown`): the finding
    /// names them all. Empty otherwise, and in files written before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_unknown: Vec<String>,
    /// The other cells every run of which was slower than every run of the
    /// fastest, though no verdict confirms it (below 6 runs, or an interval
    /// that reaches past the noise band), fastest first (answer `unknown`):
    /// never named as possibly fastest; where they are all that is left
    /// open, the finding describes both cells' runs instead of a verdict.
    /// Empty otherwise, and in files written before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub behind_every_run: Vec<String>,
}

/// What one size says about who is fastest.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum SizeAnswer {
    /// The fastest is confirmed faster than every other ok cell.
    Winner,
    /// The fastest and the runner-up are the same within the noise band
    /// (the verdict is `same`).
    Same,
    /// No verdict settles it: an interval that reaches past the band, or
    /// too few runs for one (below 6).
    #[default]
    Unknown,
    /// The fastest or the runner-up has unstable runs (`stats.unstable`),
    /// and their runs overlap: nothing is concluded from them.
    Unstable,
    #[serde(other)]
    Other,
}

/// One cell's time over another's, as `comparisons[]` computes it: paired
/// (median of per-run ratios) where their runs were interleaved.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Ratio {
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub paired: bool,
    /// Whether the verdict is `slower` (the first is confirmed slower).
    pub confirmed: bool,
    /// The judge's verdict of the slower cell against the faster one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<crate::results::Verdict>,
    /// Values behind the estimate (pairs of runs when paired).
    #[serde(default)]
    pub n: usize,
}

/// Consecutive sizes of a series that say the same: one winner, or the
/// same kind of unsettled answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SizeSegment {
    pub answer: SizeAnswer,
    /// The winner with `winner`; null otherwise.
    pub implementation: Option<String>,
    /// Its sizes, in order (neighbours in the series).
    pub payload_bytes: Vec<u64>,
}

/// The winner changes between two sizes, each with a confirmed winner,
/// with no confirmed winner between them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Crossover {
    /// The confirmed winner at `below_bytes` (and the sizes of its segment).
    pub before: String,
    /// The confirmed winner at `above_bytes`.
    pub after: String,
    pub below_bytes: u64,
    pub above_bytes: u64,
    /// Sizes between the two where no winner is confirmed.
    #[serde(default, alias = "tied_bytes", skip_serializing_if = "Vec::is_empty")]
    pub unsettled_bytes: Vec<u64>,
    /// Both implementations' medians and intervals at both sizes.
    pub evidence: Vec<Evidence>,
    /// `after`'s time over `before`'s at `below_bytes`, and `before`'s over
    /// `after`'s at `above_bytes`: how much slower the loser was at each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below_ratio: Option<Ratio>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above_ratio: Option<Ratio>,
    /// Where the two cost lines cross, when both hold and it lies between
    /// the sizes, with its bootstrap interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_ci_low_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_ci_high_bytes: Option<f64>,
}

/// One cell's median and its interval, cited as evidence.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Evidence {
    pub cell: String,
    pub implementation: String,
    pub payload_bytes: u64,
    pub median_ns: f64,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
}

/// A cell whose runs are unstable (`stats.unstable`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct UnstableCell {
    pub cell: String,
    pub implementation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload_bytes: Option<u64>,
    pub instability: crate::results::Instability,
}

/// How peak memory grows with the payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MemoryGrowth {
    pub growth: Growth,
    /// Least-squares slope of peak memory over payload size.
    pub bytes_per_payload_byte: f64,
    /// The smallest and largest payload sizes and the peak memory there.
    pub smallest_payload_bytes: u64,
    pub smallest_rss_bytes: u64,
    pub largest_payload_bytes: u64,
    pub largest_rss_bytes: u64,
    /// Some figures used are upper bounds (`stats.max_rss_at_most`).
    pub upper_bounds: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Growth {
    /// Grows by less than `findings::memory::CONSTANT_BELOW` bytes per
    /// payload byte, or by less than `findings::memory::SMALL_GROWTH` of itself.
    Constant,
    /// Grows with the payload, by `bytes_per_payload_byte`.
    Proportional,
    /// Does not grow with the payload, yet its cells lie more than
    /// `findings::memory::CONSTANT_SPREAD` apart (a heap sized on the first
    /// call, a collector): neither constant nor proportional.
    Varies,
    /// A class a later versus wrote.
    #[serde(other)]
    Other,
}

/// The first run (warm-up included) against the steady median, over one
/// implementation's cells of an operation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FirstRun {
    pub implementation: String,
    /// first run / steady median: smallest, median and largest over the cells.
    pub ratio_min: f64,
    pub ratio_median: f64,
    pub ratio_max: f64,
    /// How many cells the ratios come from.
    pub cells: usize,
    /// In-process cells: the first "run" is the first warm-up batch, taken
    /// after the batch size was calibrated (so after some calls already ran).
    pub in_process: bool,
}

/// Cells of one implementation and operation that did identical work (they
/// differ only in parameters their work does not use, `cells[].work_params`)
/// yet whose median intervals do not overlap.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Drift {
    /// The lowest and highest median among them (ns).
    pub low_ns: f64,
    pub high_ns: f64,
    /// The parameters that differ between them.
    pub params: Vec<String>,
}

/// How many cells ended with one outcome, and at which payload sizes.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OutcomeCount {
    pub outcome: Outcome,
    pub count: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub payload_bytes: Vec<u64>,
}

impl Finding {
    /// A finding with no numbers yet.
    pub fn new(kind: FindingKind, operation: &str, params: Params, text: String, cells: Vec<String>) -> Finding {
        Finding {
            kind,
            operation: operation.to_string(),
            params,
            implementation: None,
            text,
            cells,
            cost: None,
            winners: None,
            crossover: None,
            crossovers: vec![],
            segments: vec![],
            unstable: vec![],
            memory: None,
            first_runs: vec![],
            drift: None,
            outcomes: vec![],
            carry_over: None,
        }
    }
}
