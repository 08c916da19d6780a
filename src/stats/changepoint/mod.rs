//! Change points in a cell's history: where its median time per call moved
//! and stayed moved. Pure functions over a series of per-run medians, oldest
//! first.
//!
//! The method is PELT (Killick, Fearnhead & Eckley, "Optimal detection of
//! changepoints with a linear computational cost", JASA 2012) with the
//! normal change-in-mean cost, on the logarithm of the medians (a slowdown
//! is a ratio, so steps of equal ratio weigh the same at any speed):
//!
//! - The noise σ is learned from the cell's own history, from successive
//!   differences (which cancel the level): the larger of 1.4826 × their
//!   median absolute deviation and their standard deviation, divided by √2.
//! - The cost of a segment is Σ (y − ȳ)² / σ², each change point costs the
//!   penalty β = `penalty_factor` × ln n (3 ln n by default, a little above
//!   the BIC's 2 ln n, which called too many changes in pure noise in
//!   `bench/trend.sh`), and segments have at least `min_segment` runs, so one
//!   slow run alone is never a change.
//! - A change is kept only when its step exceeds the cell's noise threshold:
//!   `effect_sigmas` × σ, and never less than `min_effect` (1%, the verdicts'
//!   noise floor). Steps under it are merged away, smallest first.
//! - The newest run may start a change on its own: the history before it is
//!   segmented, and the newest run starts a change when splitting it off the
//!   last segment pays PELT's own penalty, i.e. when z² · m/(m+1) > β with z
//!   its distance from the segment's mean in σ and m the segment's length,
//!   and its step exceeds the noise threshold. Otherwise the whole series is
//!   segmented with the newest run in it.
//! - Nothing is called a change before the cell has `min_runs` (6) runs: its
//!   noise has to be learned first.

/// Tuning of `detect`; `Default` is what `versus trend` uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Options {
    /// β = penalty_factor × ln n.
    pub penalty_factor: f64,
    /// Fewest runs in a segment (the newest run's own check aside).
    pub min_segment: usize,
    /// Smallest relative step ever called a change (0.01 = 1%).
    pub min_effect: f64,
    /// Smallest step called a change, in units of the cell's noise σ.
    pub effect_sigmas: f64,
    /// σ is never taken below this (log units), so a perfectly flat history
    /// does not call every wobble a change.
    pub sigma_floor: f64,
    /// Fewest runs before any change is called: the noise must be learned first.
    pub min_runs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            penalty_factor: 3.0,
            min_segment: 2,
            min_effect: 0.01,
            effect_sigmas: 2.0,
            sigma_floor: 0.002,
            min_runs: 6,
        }
    }
}

/// A change: the series moved from `before` to `after` at `index` (the first
/// run of the new level). Levels are geometric means of their segments, in
/// the series' units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub index: usize,
    pub before: f64,
    pub after: f64,
}

impl Change {
    /// after / before: above 1 is slower.
    pub fn ratio(&self) -> f64 {
        self.after / self.before
    }
}

/// What `detect` found in a series.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Detection {
    /// Changes in order; the last may be at the newest run.
    pub changes: Vec<Change>,
    /// The cell's noise σ (log units, ≈ relative run-to-run spread).
    pub sigma: f64,
    /// The smallest relative step that could be called a change here.
    pub threshold: f64,
}

/// The median of `v` (which must not be empty).
fn median(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Noise of a series (same units as `y`), from its successive differences
/// (which cancel the level): the larger of the robust estimate
/// 1.4826·MAD/√2 and the root mean square deviation (from their median,
/// the largest left out)/√2. The robust one alone is often
/// far too small in short series, and an underestimated σ calls noise a
/// change; the classical one grows a little with real steps, which only
/// makes detection more cautious.
pub(crate) fn noise_sigma(y: &[f64]) -> f64 {
    if y.len() < 3 {
        return 0.0;
    }
    let mut d: Vec<f64> = y.windows(2).map(|w| w[1] - w[0]).collect();
    let m = median(&mut d);
    let mut dev: Vec<f64> = d.iter().map(|x| (x - m).abs()).collect();
    let robust = 1.4826 * median(&mut dev);
    // The classical estimate without the largest difference: one step is one
    // large difference, which would otherwise dominate a short series.
    dev.sort_unstable_by(f64::total_cmp);
    dev.pop();
    let classical = if dev.len() >= 2 {
        (dev.iter().map(|x| x * x).sum::<f64>() / (dev.len() - 1) as f64).sqrt()
    } else {
        0.0
    };
    robust.max(classical) / std::f64::consts::SQRT_2
}

/// Prefix sums for O(1) segment costs.
struct Costs {
    sum: Vec<f64>,
    sq: Vec<f64>,
}

impl Costs {
    fn new(y: &[f64]) -> Costs {
        let (mut sum, mut sq) = (vec![0.0], vec![0.0]);
        for v in y {
            sum.push(sum.last().unwrap() + v);
            sq.push(sq.last().unwrap() + v * v);
        }
        Costs { sum, sq }
    }

    /// Σ (y − ȳ)² over y[s..t].
    fn cost(&self, s: usize, t: usize) -> f64 {
        let n = (t - s) as f64;
        let sum = self.sum[t] - self.sum[s];
        ((self.sq[t] - self.sq[s]) - sum * sum / n).max(0.0)
    }

    fn mean(&self, s: usize, t: usize) -> f64 {
        (self.sum[t] - self.sum[s]) / (t - s) as f64
    }
}

/// PELT's optimum: the segmentation of `y` (already scaled so its noise σ
/// is 1) minimising Σ cost + β × changes. Returns the start index of each
/// segment after the first. Found by functional pruning (`fpop`), which
/// gives the same partition in close to linear time.
#[cfg(test)]
pub(crate) fn pelt(y: &[f64], penalty: f64, min_segment: usize) -> Vec<usize> {
    fpop::partitions(y, penalty, min_segment).changes(y.len())
}

/// Drops change points of the first `n` values whose step is under
/// `threshold` (log units), smallest first; `c` holds the prefix sums of
/// the whole series (those of a prefix are its first entries).
fn merge_small(c: &Costs, n: usize, mut cps: Vec<usize>, threshold: f64) -> Vec<usize> {
    loop {
        let bounds: Vec<usize> = std::iter::once(0).chain(cps.iter().copied()).chain([n]).collect();
        let steps: Vec<f64> = (0..cps.len())
            .map(|i| (c.mean(bounds[i + 1], bounds[i + 2]) - c.mean(bounds[i], bounds[i + 1])).abs())
            .collect();
        match steps.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)) {
            Some((i, s)) if *s < threshold => {
                cps.remove(i);
            }
            _ => return cps,
        }
    }
}

/// Change points of `y` where its newest value may start a change on its
/// own: the history before it is segmented (`depth` more levels of this
/// rule, then `segment`), and the newest value starts a change when
/// splitting it off that history's last segment (of at least 2 runs) pays
/// PELT's penalty for a one-run final segment and exceeds the threshold.
/// Otherwise the whole series is segmented with the newest value in it.
/// `c` holds the prefix sums of the whole series.
fn with_newest(
    y: &[f64],
    c: &Costs,
    depth: usize,
    segment: &dyn Fn(&[f64]) -> Vec<usize>,
    sigma: f64,
    penalty: f64,
    threshold_log: f64,
) -> Vec<usize> {
    let n = y.len();
    if n < 4 {
        return segment(y);
    }
    let mut cps = match depth {
        0 => segment(&y[..n - 1]),
        _ => with_newest(&y[..n - 1], c, depth - 1, segment, sigma, penalty, threshold_log),
    };
    let start = cps.last().copied().unwrap_or(0);
    if n - 1 - start >= 2 {
        let m = (n - 1 - start) as f64;
        let mean = c.mean(start, n - 1);
        let z = (y[n - 1] - mean) / sigma;
        if z * z * m / (m + 1.0) > penalty && (y[n - 1] - mean).abs() >= threshold_log {
            cps.push(n - 1);
            return cps;
        }
    }
    segment(y)
}

/// Change points of a series of positive values (per-run medians, oldest first).
pub(crate) fn detect(values: &[f64], opts: &Options) -> Detection {
    let y: Vec<f64> = values.iter().map(|v| v.max(f64::MIN_POSITIVE).ln()).collect();
    let sigma = noise_sigma(&y).max(opts.sigma_floor);
    let threshold_log = (opts.effect_sigmas * sigma).max((1.0 + opts.min_effect).ln());
    let threshold = threshold_log.exp() - 1.0;
    if y.len() < opts.min_runs.max(3) {
        return Detection {
            changes: vec![],
            sigma,
            threshold,
        };
    }
    let penalty = opts.penalty_factor * (y.len() as f64).ln();
    // One pass gives the optimum of every prefix; `with_newest` asks for three.
    let scaled: Vec<f64> = y.iter().map(|v| v / sigma).collect();
    let partitions = fpop::partitions(&scaled, penalty, opts.min_segment);
    // Prefix sums once for the series and every prefix the rules look at.
    let c = Costs::new(&y);
    let segment = |y: &[f64]| merge_small(&c, y.len(), partitions.changes(y.len()), threshold_log);
    let cps = with_newest(&y, &c, 1, &|y: &[f64]| segment(y), sigma, penalty, threshold_log);
    let n = y.len();
    let bounds: Vec<usize> = std::iter::once(0).chain(cps.iter().copied()).chain([n]).collect();
    let changes = (0..cps.len())
        .map(|i| Change {
            index: bounds[i + 1],
            before: c.mean(bounds[i], bounds[i + 1]).exp(),
            after: c.mean(bounds[i + 1], bounds[i + 2]).exp(),
        })
        .collect();
    Detection {
        changes,
        sigma,
        threshold,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal};

    /// A series of `n` medians around 1 ms with relative noise `noise`, stepping by the given ratios.
    fn series(seed: u64, n: usize, noise: f64, steps: &[(usize, f64)]) -> Vec<f64> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let normal = Normal::new(0.0, noise).unwrap();
        (0..n)
            .map(|i| {
                let level: f64 = steps.iter().filter(|(at, _)| i >= *at).map(|(_, r)| *r).product();
                1e6 * level * (1.0 + normal.sample(&mut rng))
            })
            .collect()
    }

    #[test]
    fn a_clear_step_is_found_where_it_is() {
        let d = detect(&series(1, 30, 0.01, &[(15, 1.10)]), &Options::default());
        assert_eq!(d.changes.len(), 1, "{d:?}");
        assert!((14..=16).contains(&d.changes[0].index), "{d:?}");
        assert!((d.changes[0].ratio() - 1.10).abs() < 0.02, "{d:?}");
    }

    #[test]
    fn pure_noise_has_no_change() {
        for seed in 0..20 {
            let d = detect(&series(seed, 30, 0.02, &[]), &Options::default());
            assert!(d.changes.is_empty(), "seed {seed}: {d:?}");
        }
    }

    #[test]
    fn a_step_within_the_cells_own_noise_is_not_a_change() {
        // 5% noise: a 3% step is under the learned threshold (2σ ≈ 10%).
        let d = detect(&series(3, 40, 0.05, &[(20, 1.03)]), &Options::default());
        assert!(d.changes.is_empty(), "{d:?}");
        assert!(d.threshold > 0.05, "{d:?}");
    }

    #[test]
    fn up_and_down_are_two_changes() {
        let d = detect(&series(4, 40, 0.01, &[(10, 1.2), (25, 1.0 / 1.2)]), &Options::default());
        let at: Vec<usize> = d.changes.iter().map(|c| c.index).collect();
        assert_eq!(at.len(), 2, "{d:?}");
        assert!(d.changes[0].ratio() > 1.1 && d.changes[1].ratio() < 0.9, "{d:?}");
    }

    #[test]
    fn the_newest_run_can_start_a_change_but_one_old_outlier_cannot() {
        let mut s = series(5, 20, 0.01, &[]);
        *s.last_mut().unwrap() *= 1.3;
        let d = detect(&s, &Options::default());
        assert_eq!(d.changes.iter().map(|c| c.index).collect::<Vec<_>>(), [19], "{d:?}");
        let mut s = series(5, 20, 0.01, &[]);
        s[10] *= 1.3;
        assert!(detect(&s, &Options::default()).changes.is_empty());
    }

    #[test]
    fn short_or_flat_series_are_quiet() {
        assert!(detect(&[], &Options::default()).changes.is_empty());
        assert!(detect(&[5.0, 5.0], &Options::default()).changes.is_empty());
        assert!(detect(&[5.0; 30], &Options::default()).changes.is_empty());
        assert_eq!(pelt(&[0.0, 0.0, 10.0, 10.0], 1.0, 2), vec![2]);
    }
}

mod fpop;

#[cfg(test)]
mod bench;
