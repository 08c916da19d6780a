//! Levels of repetition: runs within segments, segments within a run.
//!
//! A segment is a stretch of a cell's runs taken in one go — one pass of the
//! suite over the cell's group, in one worker process for in-process cells.
//! Runs inside a segment share the machine's state of that moment and, in
//! process, one JIT's and one collector's decisions; the segments of a run do
//! not. An interval computed from the runs alone covers only the variation
//! between runs, and calls a difference between two moments, or two worker
//! processes, real. This module estimates how much of the variation lies
//! between segments and widens the interval by it, as Kalibera and Jones
//! ("Rigorous Benchmarking in Reasonable Time", 2013) do for executions and
//! iterations: the variance of the estimate is the within-segment part plus
//! the between-segment variance over the number of segments, and the
//! quantile is Student's t with Welch–Satterthwaite degrees of freedom, so
//! three segments with real differences between them give the wide interval
//! three values deserve, and segments that agree leave it as the runs gave it.
//!
//! Values are on a log scale (log time per call, log ratio of a pair), so
//! spreads are relative and intervals turn into ratios by `exp`.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::results::Levels;
use crate::stats::order::median_interval_sorted;
use crate::stats::summary::median_of_sorted;

/// A center and its interval, on the log scale, and where the spread lies.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEstimate {
    /// Median of every value.
    pub center: f64,
    /// `None` with too few values for an interval at the level asked.
    pub interval: Option<(f64, f64)>,
    /// Values (runs, or pairs of runs).
    pub n: usize,
    /// Segments the values came from (1 when unstructured).
    pub segments: usize,
    /// Share of one value's variance that lies between segments, 0 to 1;
    /// `None` with one segment or too few values per segment to tell.
    pub between_share: Option<f64>,
    /// Whether the variation between segments widened the interval.
    pub widened: bool,
}

impl Levels {
    /// The document's record of where an estimate's spread lay.
    pub fn of(est: &LogEstimate) -> Levels {
        Levels {
            segments: est.segments,
            between_share: est.between_share,
            widened: est.widened,
            modes: None,
        }
    }
}

impl LogEstimate {
    /// Half-widths below and above the center; `None` without an interval.
    pub fn half_widths(&self) -> Option<(f64, f64)> {
        self.interval.map(|(lo, hi)| (self.center - lo, hi - self.center))
    }
}

/// The two-sided quantile of the standard normal distribution at `level`.
pub(super) fn z_quantile(level: f64) -> f64 {
    Normal::new(0.0, 1.0)
        .expect("standard normal")
        .inverse_cdf(0.5 + level / 2.0)
}

/// The two-sided quantile of Student's t with `df` degrees of freedom.
pub(crate) fn t_quantile(level: f64, df: f64) -> f64 {
    if !df.is_finite() || df > 1e6 {
        return z_quantile(level);
    }
    StudentsT::new(0.0, 1.0, df.max(1.0))
        .expect("positive degrees of freedom")
        .inverse_cdf(0.5 + level / 2.0)
}

/// Splits `values` (in sample order) into consecutive segments of `lengths`;
/// lengths that do not add up to the values' count are treated as one segment.
fn split<'a>(values: &'a [f64], lengths: &[usize]) -> Vec<&'a [f64]> {
    if lengths.len() < 2 || lengths.iter().sum::<usize>() != values.len() {
        return vec![values];
    }
    let mut out = Vec::with_capacity(lengths.len());
    let mut at = 0;
    for len in lengths {
        out.push(&values[at..at + len]);
        at += len;
    }
    out
}

fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut s = xs.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    s
}

fn variance(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
}

/// What the variation between segments would be taken to be if the runs
/// alone varied is discounted only by this share: the between-segment
/// variance is estimated from a handful of segment medians, and subtracting
/// all of the expected within-segment part leaves it at zero too often when
/// it is real. 0.6 keeps the interval's coverage within 92.5–97.5% from five
/// segments on, whatever the share between them (simulation test below:
/// 92.75–97.35% measured). With two or three segments no estimate of the
/// between part is good: coverage falls to about 90% where the segments
/// differ by about as much as the runs' own error, which is why the forks
/// and passes a report calls reliable number five or more.
const WITHIN_DISCOUNT: f64 = 0.6;

/// The estimate of every value taken as one sample: the median of `pooled`
/// (sorted) and its order-statistic interval.
fn pooled(pooled: &[f64], level: f64) -> LogEstimate {
    LogEstimate {
        center: median_of_sorted(pooled),
        interval: median_interval_sorted(pooled, level),
        n: pooled.len(),
        segments: 1,
        between_share: None,
        widened: false,
    }
}

/// `estimate`, taking the values: with one segment they are sorted in
/// place rather than copied (a cell may hold 100,000 runs).
pub(crate) fn estimate_owned(mut values: Vec<f64>, lengths: &[usize], level: f64) -> Option<LogEstimate> {
    if split(&values, lengths).len() > 1 {
        return estimate(&values, lengths, level);
    }
    if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    values.sort_unstable_by(f64::total_cmp);
    Some(pooled(&values, level))
}

/// The median of `values` (log scale, finite, in sample order) with its
/// `level` interval, widened by the variation between the segments of
/// `lengths` (see the module header). Empty `values` give `None`.
///
/// With segments that agree, the center is the median of every value and
/// the interval its order-statistic one. Where they differ by more than the
/// runs explain, each segment counts once: the center is the mean of the
/// segment medians and the interval Student's t over them, with the
/// within-segment part taken from the runs' deviations from their own
/// segment's median (Welch–Satterthwaite degrees of freedom).
pub(crate) fn estimate(values: &[f64], lengths: &[usize], level: f64) -> Option<LogEstimate> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mut est = pooled(&sorted(values), level);
    let parts = split(values, lengths);
    est.segments = parts.len();
    if parts.len() < 2 || parts.iter().any(|p| p.len() < 2) {
        return Some(est);
    }
    let Some((lo, hi)) = est.interval else {
        return Some(est);
    };
    let medians: Vec<f64> = parts.iter().map(|p| median_of_sorted(&sorted(p))).collect();
    let centered: Vec<f64> = sorted(
        &parts
            .iter()
            .zip(&medians)
            .flat_map(|(p, m)| p.iter().map(move |x| x - m))
            .collect::<Vec<f64>>(),
    );
    let z = z_quantile(level);
    let se_w = median_interval_sorted(&centered, level).map_or(0.0, |(l, h)| (h - l) / 2.0 / z);
    let (n, k) = (values.len() as f64, parts.len() as f64);
    // What a segment median scatters by when only the runs vary: the pooled
    // median's variance times the share of the runs the segment holds.
    let expected = se_w * se_w * n * parts.iter().map(|p| 1.0 / p.len() as f64).sum::<f64>() / k;
    let observed = variance(&medians);
    let sigma_w2 = (1.4826 * median_of_sorted(&sorted(&centered.iter().map(|x| x.abs()).collect::<Vec<_>>()))).powi(2);
    let sigma_b2 = (observed - expected).max(0.0);
    est.between_share = Some(if sigma_b2 + sigma_w2 > 0.0 {
        sigma_b2 / (sigma_b2 + sigma_w2)
    } else {
        0.0
    });
    let excess = (observed - WITHIN_DISCOUNT * expected).max(0.0);
    if excess == 0.0 {
        return Some(est);
    }
    let (v_w, v_b) = (se_w * se_w, excess / k);
    let df = (v_w + v_b).powi(2) / (v_b * v_b / (k - 1.0) + v_w * v_w / (n - k).max(1.0));
    let half = t_quantile(level, df) * (v_w + v_b).sqrt();
    if half <= (hi - lo) / 2.0 {
        return Some(est);
    }
    let mean = medians.iter().sum::<f64>() / k;
    est.center = mean;
    est.interval = Some((mean - half, mean + half));
    est.widened = true;
    Some(est)
}

/// Segments that settled at two different levels: a JIT that took its slow
/// path in some worker processes and not in others, a pass that ran while
/// the machine was busy. Averaging them would describe neither.
#[derive(Debug, Clone, PartialEq)]
pub struct Modes {
    /// Indices (in sample order) of the segments at the slower level.
    pub slow: Vec<usize>,
    /// Segments in all.
    pub of: usize,
    /// Median of the slow segments' medians over that of the fast ones.
    pub ratio: f64,
}

/// The smallest gap between two levels of segment medians called modes
/// (log units, 25%): below it the variation between segments is widening
/// enough, and a report would only repeat the interval.
const MODE_GAP: f64 = 0.223;

/// Whether the segments' medians (log scale) split into two levels: the
/// widest gap between neighbouring medians is at least 25% and six times a
/// segment median's own error, with every segment on one side or the other.
/// Needs three segments of at least three runs.
pub(crate) fn modes(values: &[f64], lengths: &[usize]) -> Option<Modes> {
    let parts = split(values, lengths);
    if parts.len() < 3 || parts.iter().any(|p| p.len() < 3) {
        return None;
    }
    let medians: Vec<f64> = parts.iter().map(|p| median_of_sorted(&sorted(p))).collect();
    let mut order: Vec<usize> = (0..medians.len()).collect();
    order.sort_by(|a, b| medians[*a].total_cmp(&medians[*b]));
    let (cut, gap) = (1..order.len())
        .map(|i| (i, medians[order[i]] - medians[order[i - 1]]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let deviations: Vec<f64> = parts
        .iter()
        .zip(&medians)
        .flat_map(|(p, m)| p.iter().map(move |x| (x - m).abs()))
        .collect();
    let sigma = 1.4826 * median_of_sorted(&sorted(&deviations));
    let shortest = parts.iter().map(|p| p.len()).min().unwrap_or(1) as f64;
    let segment_error = 1.2533 * sigma / shortest.sqrt();
    if gap < MODE_GAP || gap < 6.0 * segment_error {
        return None;
    }
    let level = |ids: &[usize]| {
        let m: Vec<f64> = ids.iter().map(|i| medians[*i]).collect();
        median_of_sorted(&sorted(&m))
    };
    let (fast, slow) = order.split_at(cut);
    let mut slow = slow.to_vec();
    slow.sort_unstable();
    Some(Modes {
        ratio: (level(&slow) - level(fast)).exp(),
        slow,
        of: medians.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal};

    #[test]
    fn taking_the_values_gives_the_same_estimate() {
        let values: Vec<f64> = (0..60)
            .map(|i| ((i * 37) % 23) as f64 / 10.0 + (i / 20) as f64)
            .collect();
        for lengths in [vec![], vec![60], vec![20, 20, 20], vec![30, 30]] {
            let borrowed = estimate(&values, &lengths, 0.95);
            assert!(borrowed.is_some());
            assert_eq!(estimate_owned(values.clone(), &lengths, 0.95), borrowed, "{lengths:?}");
        }
        assert_eq!(estimate_owned(vec![1.0, f64::NAN], &[], 0.95), None);
        assert_eq!(estimate_owned(vec![], &[], 0.95), None);
    }

    #[test]
    fn one_segment_is_the_order_statistic_interval() {
        let xs: Vec<f64> = (1..=20).map(|i| f64::from(i) / 100.0).collect();
        let e = estimate(&xs, &[20], 0.95).unwrap();
        assert_eq!(e.segments, 1);
        assert!(!e.widened && e.between_share.is_none());
        let (lo, hi) = e.interval.unwrap();
        assert!(lo < e.center && e.center < hi);
        assert!(estimate(&xs[..5], &[5], 0.95).unwrap().interval.is_none());
    }

    #[test]
    fn two_levels_of_forks_are_modes_and_one_level_is_not() {
        let fork = |level: f64| (0..8).map(move |i| level + f64::from(i % 4) * 0.01);
        let mut xs: Vec<f64> = Vec::new();
        for level in [0.0, 1.1, 0.02, 1.08, 0.01] {
            xs.extend(fork(level));
        }
        let m = modes(&xs, &[8; 5]).unwrap();
        assert_eq!((m.slow.clone(), m.of), (vec![1, 3], 5));
        assert!((m.ratio - 1.08f64.exp()).abs() < 0.1, "{m:?}");
        let level: Vec<f64> = [0.0, 0.02, 0.01, 0.03, 0.0].iter().flat_map(|l| fork(*l)).collect();
        assert_eq!(modes(&level, &[8; 5]), None);
        assert_eq!(modes(&xs[..16], &[8, 8]), None, "two segments cannot tell");
    }

    #[test]
    fn segments_that_disagree_widen_the_interval() {
        let mut xs = Vec::new();
        for level in [0.0, 0.1, -0.05] {
            xs.extend((0..10).map(|i| level + f64::from(i % 3) * 0.001));
        }
        let apart = estimate(&xs, &[10, 10, 10], 0.95).unwrap();
        let pooled = estimate(&xs, &[30], 0.95).unwrap();
        assert!(apart.widened);
        assert!(apart.between_share.unwrap() > 0.9);
        let width = |e: &LogEstimate| e.interval.map(|(l, h)| h - l).unwrap();
        assert!(width(&apart) > 2.5 * width(&pooled), "{apart:?} {pooled:?}");
    }

    /// Coverage of the true center 0 by intervals from `segments` segments
    /// of `runs` values, between-segment sd `between`, within sd `within`.
    fn coverage(segments: usize, runs: usize, between: f64, within: f64, seed: u64) -> f64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (b, w) = (
            Normal::new(0.0, between.max(1e-12)).unwrap(),
            Normal::new(0.0, within).unwrap(),
        );
        let lengths = vec![runs; segments];
        let trials = 2000;
        let hits = (0..trials)
            .filter(|_| {
                let mut xs = Vec::with_capacity(segments * runs);
                for _ in 0..segments {
                    let shift = b.sample(&mut rng);
                    xs.extend((0..runs).map(|_| shift + w.sample(&mut rng)));
                }
                let (lo, hi) = estimate(&xs, &lengths, 0.95).unwrap().interval.unwrap();
                lo <= 0.0 && 0.0 <= hi
            })
            .count();
        hits as f64 / trials as f64
    }

    #[test]
    fn intervals_cover_95_percent_whatever_the_share_between_segments() {
        let mut table = Vec::new();
        for (segments, runs) in [(5, 10), (5, 30), (10, 6), (10, 20)] {
            for between in [0.0, 0.002, 0.005, 0.01, 0.03] {
                let c = coverage(segments, runs, between, 0.02, (segments * 1000 + runs) as u64);
                table.push((segments, runs, between, c));
            }
        }
        let bad: Vec<_> = table.iter().filter(|t| !(0.925..=0.975).contains(&t.3)).collect();
        assert!(bad.is_empty(), "coverage outside 92.5-97.5%: {bad:?} of {table:?}");
    }
}
