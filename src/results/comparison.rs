//! A comparison as the document records it: a ratio, its interval and the
//! judge's verdict, and the settings every verdict of a run was judged by.

use super::*;
use crate::base::metric::Metric;
use crate::base::params::Params;
use serde::{Deserialize, Serialize};

/// Why a verdict is `unknown` or withheld (or a ratio has no interval).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// Too few runs for an interval.
    TooFewRuns,
    /// Withheld: the run before changes the cell's time (`judge::withhold`).
    CarryOver,
    /// Between runs: the change lies within the cell's run-to-run noise,
    /// `band` either side (relative: 0.031 is ±3.1%).
    WithinNoise { band: f64 },
    /// Between runs: versus's speed reference moved with it.
    MachineMoved,
    /// Between runs: the other implementations of its group moved with it.
    GroupMoved,
    /// Between runs: its ratios to the two others of its group disagree.
    RatiosDisagree,
    /// A carry-over was found and the verdict kept: the runs after each
    /// predecessor give it on their own (`judge::withhold`).
    CarryOverKept,
}

/// The medians of a paired comparison over the runs it used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedMedians {
    /// Pairs the ratio used (`judge::compare::paired_runs`).
    pub rounds: usize,
    pub median_ns: f64,
    pub baseline_median_ns: f64,
}

/// A cell compared with the baseline implementation at the same operation and parameters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    pub implementation: String,
    pub baseline: String,
    pub operation: String,
    pub params: Params,
    /// Time of the implementation relative to the baseline, above 1 is slower:
    /// with paired runs the median of the per-pair ratios, else median / median.
    pub ratio: f64,
    /// 95% interval of the ratio: the median of the per-pair ratios'
    /// order-statistic interval when `paired`, widened by the variation
    /// between passes and forks (`levels`); else both medians' intervals
    /// combined. Null with fewer than 6 runs (`note` says so).
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Decided by the interval (`judge::verdict`): "faster", "slower", "same"
    /// (the interval lies inside the noise band), "unknown", or "baseline".
    pub verdict: Verdict,
    /// Whether the runs were taken side by side (the same group, interleaved).
    pub paired: bool,
    /// Values behind the estimate: pairs of runs when paired, else the smaller run count.
    #[serde(default)]
    pub n: usize,
    /// Which levels of repetition the interval covers.
    #[serde(default)]
    pub levels: Levels,
    /// The smallest relative change (0.032 = 3.2%) this comparison would
    /// call faster or slower four times in five, at its size and spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_detectable: Option<f64>,
    /// For an `unknown`: about how many runs (pairs) in all would settle it at the spread seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_runs: Option<u64>,
    /// Why there is no interval or verdict, when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why, as a type: what `note` says in words, for readers that decide
    /// on it (the report's words, the findings), so none parses the note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// For a paired ratio over fewer runs than one of its cells has (their
    /// counts differ, `--precision`): both medians over the runs it used,
    /// so that the figures beside the ratio can agree with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired_medians: Option<PairedMedians>,
    /// What was compared: wall time (absent), or "instructions" (the ratio
    /// is of instructions per call).
    #[serde(default, skip_serializing_if = "crate::base::metric::is_wall")]
    pub metric: Metric,
    /// Set where other work on the machine could have moved this
    /// comparison (`judge::contention`): the interval above is then the
    /// widened one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_dependent: Option<LoadDependent>,
}

/// A comparison of two implementations that use different numbers of
/// cores, measured while other work took a share of the machine.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct LoadDependent {
    /// CPU time over wall time of the implementation and of the baseline
    /// (medians over their runs).
    pub parallelism: f64,
    pub baseline_parallelism: f64,
    /// The interval the runs themselves gave, before it was widened.
    pub measured_low: f64,
    pub measured_high: f64,
    /// The verdict the runs themselves gave.
    pub measured_verdict: Verdict,
}

/// The answer of a comparison: three of them, and the baseline itself.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Faster,
    Slower,
    /// No difference as large as the noise band: the whole interval lies inside it.
    Same,
    /// Neither called nor ruled out: too few runs, or an interval that
    /// reaches past the band (schema 1 wrote "indistinguishable").
    #[serde(alias = "indistinguishable")]
    Unknown,
    Baseline,
}

impl Verdict {
    /// Whether it calls a difference: `faster` or `slower`.
    pub fn is_change(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower)
    }
}

/// How comparisons were decided; stored so re-rendering gives the same verdicts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AnalysisSettings {
    /// Confidence level of every interval.
    pub confidence: f64,
    /// Significance level of the tests.
    pub alpha: f64,
    /// Smallest relative difference called faster or slower (0.01 = 1%).
    pub noise: f64,
    pub bootstrap_resamples: usize,
    /// The noise band of instruction counts: the smallest relative
    /// difference in instructions called a change, where the cells' own
    /// counts repeat more closely than this (else their repeatability is
    /// the band; see `judge::counts`).
    #[serde(default = "default_instructions_noise")]
    pub instructions_noise: f64,
    /// Other work on the machine while the run went, where it took enough
    /// to warn about (set from `environment.load` by the analysis): time
    /// comparisons of implementations that use different numbers of cores
    /// are widened by what it could have cost each (`judge::contention`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contention: Option<Contention>,
}

/// What other processes wanted of the machine during a run.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct Contention {
    /// CPUs the machine has.
    pub cpus: f64,
    /// CPUs' worth of other work that wanted to run beside the measured
    /// programs: what other processes took, or what the run queue (the
    /// load average less versus's own CPUs) says they asked for, whichever
    /// is more.
    pub others_cpus: f64,
}

/// See `AnalysisSettings::instructions_noise`.
pub const INSTRUCTIONS_NOISE: f64 = 0.001;

fn default_instructions_noise() -> f64 {
    INSTRUCTIONS_NOISE
}

impl Default for AnalysisSettings {
    fn default() -> Self {
        AnalysisSettings {
            confidence: 0.95,
            alpha: 0.05,
            noise: 0.01,
            bootstrap_resamples: crate::stats::bootstrap::RESAMPLES,
            instructions_noise: INSTRUCTIONS_NOISE,
            contention: None,
        }
    }
}

impl AnalysisSettings {
    /// The settings a view in `metric` is judged with: that metric's noise band.
    pub fn for_metric(&self, metric: Metric) -> AnalysisSettings {
        match metric {
            Metric::Wall => self.clone(),
            Metric::Instructions => AnalysisSettings {
                noise: self.instructions_noise,
                ..self.clone()
            },
        }
    }
}

/// The smallest changes a set of comparisons could find
/// (`minimum_detectable` of each): (the median one, the largest), or `None`
/// when none could say.
pub fn detectable(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let mut mdes: Vec<f64> = values.collect();
    mdes.sort_unstable_by(f64::total_cmp);
    let worst = *mdes.last()?;
    Some((crate::stats::median_of_sorted(&mdes), worst))
}

/// About how many runs would settle half of a run's unknowns: the middle
/// (upper median) of their `settle_runs`.
pub fn settling_half(values: impl Iterator<Item = u64>) -> Option<u64> {
    let mut settle: Vec<u64> = values.collect();
    settle.sort_unstable();
    settle.get(settle.len() / 2).copied()
}
