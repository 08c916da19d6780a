//! Percentile bootstrap, for the statistics that have no exact interval: a
//! cell's mean, and fits across sizes built from several cells' medians
//! (medians and ratios of medians use order statistics, `stats::order`).
//! Resampling is driven by a xoshiro256++ generator
//! seeded from the cell's id, so the same samples always give the same
//! interval. xoshiro and not a cryptographic generator: the draws only need to
//! be uniform and reproducible, and with 2000 resamples of a 1000-run cell
//! (two million draws per interval) ChaCha8 made the statistics a visible part
//! of a short `versus exec` (measured against hyperfine in bench/harness.sh).
//!
//! Why percentile and not BCa: with the sample sizes benchmarks use (10–200)
//! and statistics that are medians or ratios of medians, the simulation tests
//! in this module's tests show coverage within a point or two of nominal,
//! and percentile intervals are easy to explain in a report.

use std::borrow::Cow;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Resamples per interval.
pub(crate) const RESAMPLES: usize = 2000;

/// Above this many values a sample is not resampled value by value (2000
/// resamples of a million runs are two billion draws: a hostile or merely
/// huge file would take minutes): the median's interval comes from order
/// statistics and the mean's from the central limit theorem, which at this
/// size agree with the bootstrap to well within its own resampling noise.
pub(crate) const LARGE: usize = 20_000;

/// A two-sided interval, `low <= high`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    #[cfg(test)]
    pub(crate) fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// A stable 64-bit seed from text (FNV-1a), so intervals do not change between runs of the tool.
pub(crate) fn seed_for(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn interval_of(mut stats: Vec<f64>, level: f64) -> Option<Interval> {
    stats.retain(|x| x.is_finite());
    if stats.is_empty() {
        return None;
    }
    stats.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - level) / 2.0;
    Some(Interval {
        low: percentile(&stats, tail),
        high: percentile(&stats, 1.0 - tail),
    })
}

/// Which statistic of a sample an interval is for.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Statistic {
    Mean,
    Median,
}

/// Draws bootstrap resamples of one sample. The sample is sorted once; a
/// resample is kept as a count per sorted position, so its median is found by
/// walking the counts (no sort or selection per resample) and its mean by a
/// running sum. Each resample costs n draws and two passes over n counters,
/// which keeps 2000 resamples of a 1000-run cell to a few milliseconds.
struct Resampler<'a> {
    sorted: Cow<'a, [f64]>,
    counts: Vec<u32>,
}

impl<'a> Resampler<'a> {
    /// `xs` must be non-empty and finite.
    fn new(xs: &[f64]) -> Self {
        let mut sorted = xs.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        Resampler::of_sorted(Cow::Owned(sorted))
    }

    /// `sorted` must be sorted, non-empty and finite.
    fn of_sorted(sorted: Cow<'a, [f64]>) -> Self {
        Resampler {
            counts: vec![0; sorted.len()],
            sorted,
        }
    }

    /// One resample of n draws with replacement: its (median, mean).
    fn draw(&mut self, rng: &mut Xoshiro256PlusPlus) -> (f64, f64) {
        let n = self.sorted.len();
        self.counts.fill(0);
        let mut sum = 0.0;
        for _ in 0..n {
            let i = rng.random_range(0..n);
            self.counts[i] += 1;
            sum += self.sorted[i];
        }
        // The middle ranks (0-based) of n values: equal when n is odd.
        let (lower_rank, upper_rank) = ((n - 1) / 2, n / 2);
        let (mut lower, mut upper) = (f64::NAN, f64::NAN);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c as usize;
            if lower.is_nan() && lower_rank < seen {
                lower = self.sorted[i];
            }
            if upper_rank < seen {
                upper = self.sorted[i];
                break;
            }
        }
        ((lower + upper) / 2.0, sum / n as f64)
    }
}

fn usable(xs: &[f64]) -> bool {
    xs.len() >= 2 && xs.iter().all(|x| x.is_finite())
}

/// Interval for `stat` of `xs` at confidence `level` (e.g. 0.95). `None` with
/// fewer than 2 samples or non-finite values.
#[cfg(test)]
pub(crate) fn interval(xs: &[f64], stat: Statistic, level: f64, seed: u64) -> Option<Interval> {
    let (median, mean) = intervals(xs, level, seed)?;
    Some(match stat {
        Statistic::Median => median,
        Statistic::Mean => mean,
    })
}

/// Intervals for the median and the mean of `xs`, from the same resamples.
#[cfg(test)]
pub(crate) fn intervals(xs: &[f64], level: f64, seed: u64) -> Option<(Interval, Interval)> {
    if !usable(xs) {
        return None;
    }
    both_intervals(Resampler::new(xs), level, seed)
}

/// `intervals` of values already sorted (ascending), which are not copied.
/// The same resamples as of the values in any order.
pub(crate) fn intervals_of_sorted(sorted: &[f64], level: f64, seed: u64) -> Option<(Interval, Interval)> {
    if !usable(sorted) {
        return None;
    }
    debug_assert!(sorted.is_sorted_by(|a, b| a.total_cmp(b).is_le()));
    both_intervals(Resampler::of_sorted(Cow::Borrowed(sorted)), level, seed)
}

fn both_intervals(mut resampler: Resampler<'_>, level: f64, seed: u64) -> Option<(Interval, Interval)> {
    if resampler.sorted.len() > LARGE {
        return large_intervals(&resampler.sorted, level);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (medians, means): (Vec<f64>, Vec<f64>) = (0..RESAMPLES).map(|_| resampler.draw(&mut rng)).unzip();
    Some((interval_of(medians, level)?, interval_of(means, level)?))
}

/// The two-sided standard normal quantile at `level` (1.96 at 0.95).
fn normal_quantile(level: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::new(0.0, 1.0).map_or(1.96, |n| n.inverse_cdf(0.5 + level / 2.0))
}

/// The median's order-statistic interval and the mean's normal one, for a
/// sample past `LARGE` values (sorted, finite).
fn large_intervals(sorted: &[f64], level: f64) -> Option<(Interval, Interval)> {
    let (low, high) = super::order::median_interval_sorted(sorted, level)?;
    let n = sorted.len() as f64;
    let mean = sorted.iter().sum::<f64>() / n;
    let variance = sorted.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = normal_quantile(level) * (variance / n).sqrt();
    Some((
        Interval { low, high },
        Interval {
            low: mean - half,
            high: mean + half,
        },
    ))
}

/// `count` draws of a large sample's median from the normal law its
/// order-statistic interval gives (`LARGE`): the bootstrap's draws at that
/// size, without n draws each.
fn large_median_draws(xs: &[f64], count: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    let mut sorted = xs.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let median = super::summary::median_of_sorted(&sorted);
    let Some((low, high)) = super::order::median_interval_sorted(&sorted, 0.95) else {
        return vec![median; count];
    };
    let sigma = (high - low) / (2.0 * normal_quantile(0.95));
    (0..count)
        .map(|_| {
            // Box-Muller: one standard normal from two uniforms.
            let (u, v): (f64, f64) = (rng.random_range(f64::EPSILON..1.0), rng.random());
            median + sigma * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        })
        .collect()
}

/// `count` bootstrap medians of `xs`: each the median of n draws with
/// replacement, seeded by `seed`. The sampling spread of a cell's median,
/// for statistics built from several cells' medians (a fit across sizes).
/// Every draw is the median itself when `xs` has one value; empty when
/// `xs` is empty or holds a non-finite value.
pub(crate) fn median_draws(xs: &[f64], count: usize, seed: u64) -> Vec<f64> {
    if xs.is_empty() || xs.iter().any(|x| !x.is_finite()) {
        return vec![];
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    if xs.len() > LARGE {
        return large_median_draws(xs, count, &mut rng);
    }
    let mut resampler = Resampler::new(xs);
    (0..count).map(|_| resampler.draw(&mut rng).0).collect()
}

/// The central `level` percentile interval of `values` (bootstrap draws of
/// some statistic), non-finite draws left out; `None` when none is finite.
pub(crate) fn percentile_interval(values: Vec<f64>, level: f64) -> Option<Interval> {
    interval_of(values, level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::summary::median_of_sorted;
    use rand_chacha::ChaCha8Rng;
    use rand_distr::{Distribution, LogNormal, Normal};

    #[test]
    fn sorted_values_give_the_same_intervals_without_a_copy() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let dist = LogNormal::new(5.0, 0.3).unwrap();
        let xs: Vec<f64> = (0..501).map(|_| dist.sample(&mut rng)).collect();
        let mut sorted = xs.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        assert_eq!(intervals_of_sorted(&sorted, 0.95, 11), intervals(&xs, 0.95, 11));
        assert!(intervals_of_sorted(&sorted, 0.95, 11).is_some());
        assert_eq!(intervals_of_sorted(&sorted[..1], 0.95, 11), None);
    }

    #[test]
    fn a_resample_has_the_median_and_mean_of_its_draws() {
        for xs in [
            vec![3.0, 1.0, 2.0],
            vec![4.0, 1.0, 3.0, 2.0],
            vec![2.0, 2.0, 1.0, 9.0, 7.0, 7.0],
        ] {
            let mut resampler = Resampler::new(&xs);
            let (mut rng, mut same_draws) = (
                Xoshiro256PlusPlus::seed_from_u64(5),
                Xoshiro256PlusPlus::seed_from_u64(5),
            );
            for _ in 0..50 {
                let (median, mean) = resampler.draw(&mut rng);
                // The same draws, resampled the plain way.
                let sorted = &resampler.sorted;
                let mut drawn: Vec<f64> = (0..xs.len())
                    .map(|_| sorted[same_draws.random_range(0..xs.len())])
                    .collect();
                drawn.sort_unstable_by(f64::total_cmp);
                assert_eq!(median, median_of_sorted(&drawn), "{xs:?}");
                let plain_mean = drawn.iter().sum::<f64>() / drawn.len() as f64;
                assert!((mean - plain_mean).abs() < 1e-12, "{xs:?}");
            }
        }
    }

    #[test]
    fn same_input_same_interval() {
        let xs: Vec<f64> = (1..=20).map(f64::from).collect();
        let a = interval(&xs, Statistic::Median, 0.95, 1).unwrap();
        assert_eq!(a, interval(&xs, Statistic::Median, 0.95, 1).unwrap());
        assert!(a.contains(10.5) && a.low >= 1.0 && a.high <= 20.0);
        assert_eq!(interval(&[1.0], Statistic::Mean, 0.95, 1), None);
    }

    /// Fraction of `trials` intervals that contain the true value.
    fn coverage(trials: u64, f: impl Fn(&mut ChaCha8Rng, u64) -> bool) -> f64 {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        (0..trials).filter(|t| f(&mut rng, *t)).count() as f64 / trials as f64
    }

    // Simulations with known distributions: 95% intervals must cover the
    // true value 93–97% of the time. Fixed seeds make these exact, not flaky.
    #[test]
    fn median_and_mean_intervals_cover_95_percent() {
        let noise = LogNormal::new(0.0, 0.05).unwrap();
        let median = coverage(1000, |rng, t| {
            let xs: Vec<f64> = (0..30).map(|_| 100.0 * noise.sample(rng)).collect();
            interval(&xs, Statistic::Median, 0.95, t).unwrap().contains(100.0)
        });
        assert!((0.93..=0.97).contains(&median), "median coverage {median}");
        let normal = Normal::new(50.0, 5.0).unwrap();
        let mean = coverage(1000, |rng, t| {
            let xs: Vec<f64> = (0..30).map(|_| normal.sample(rng)).collect();
            interval(&xs, Statistic::Mean, 0.95, t).unwrap().contains(50.0)
        });
        assert!((0.93..=0.97).contains(&mean), "mean coverage {mean}");
    }

    /// Past `LARGE` values the intervals come without resampling: they must
    /// still be what the bootstrap gives (its 400 resamples here, so the
    /// bands allow for its own noise), and so must the median's draws.
    #[test]
    fn past_large_the_intervals_and_draws_agree_with_the_bootstrap() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let law = LogNormal::new(0.0, 0.3).unwrap();
        let mut xs: Vec<f64> = (0..=LARGE).map(|_| law.sample(&mut rng)).collect();
        xs.sort_unstable_by(f64::total_cmp);
        let (median, mean) = intervals_of_sorted(&xs, 0.95, 1).unwrap();
        let mut r = Resampler::of_sorted(Cow::Borrowed(&xs));
        let mut g = Xoshiro256PlusPlus::seed_from_u64(1);
        let (ms, ns): (Vec<f64>, Vec<f64>) = (0..400).map(|_| r.draw(&mut g)).unzip();
        let (bm, bn) = (interval_of(ms, 0.95).unwrap(), interval_of(ns, 0.95).unwrap());
        let width = |i: &Interval| i.high - i.low;
        let mid = |i: &Interval| (i.high + i.low) / 2.0;
        assert!(
            (width(&mean) / width(&bn) - 1.0).abs() < 0.25,
            "{mean:?} against {bn:?}"
        );
        assert!(
            (width(&median) / width(&bm) - 1.0).abs() < 0.35,
            "{median:?} against {bm:?}"
        );
        assert!((mid(&mean) - mid(&bn)).abs() < width(&bn) / 4.0);
        assert!((mid(&median) - mid(&bm)).abs() < width(&bm) / 4.0);
        let draws = interval_of(median_draws(&xs, 2000, 3), 0.95).unwrap();
        assert!(
            (width(&draws) / width(&median) - 1.0).abs() < 0.2,
            "{draws:?} against {median:?}"
        );
    }
}
