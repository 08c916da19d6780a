//! Sampling policy: when a cell has warmed up, and when it has been measured
//! precisely enough. Pure functions over the samples taken so far; the
//! scheduler asks them after every round.

use crate::stats::order;
use crate::stats::steady::{self, Steady, WINDOW};

/// `--warmup auto` stops warming a cell up after this many runs, steady or not.
pub(super) const AUTO_WARMUP_MAX: u32 = 100;
/// `--warmup auto`: relative level change that still counts as level.
pub(super) const AUTO_WARMUP_TOLERANCE: f64 = 0.02;

/// Whether the last `2·WINDOW` warm-up samples (per call) are level: no window
/// of them differs from their common level, and the newest sample is within
/// the band the others span (or the tolerance). Window medians cannot see a
/// change that has only reached the last two samples, such as a JIT switching
/// to its fast code: without the second test, a JVM's 100 MiB calls ended
/// warm-up at 1.4 s, 0.68 s, 0.34 s and measured whatever came next. Needs
/// at least `2·WINDOW` samples.
pub(super) fn warmed_up(warmup_per_call: &[f64]) -> bool {
    let n = warmup_per_call.len();
    if n < 2 * WINDOW {
        return false;
    }
    let recent = &warmup_per_call[n - 2 * WINDOW..];
    if steady::steady_state(recent, AUTO_WARMUP_TOLERANCE) != Steady::From(0) {
        return false;
    }
    let (last, before) = recent.split_last().expect("2·WINDOW samples");
    let level = crate::stats::median(before);
    let band = before
        .iter()
        .map(|x| (x - level).abs())
        .fold(AUTO_WARMUP_TOLERANCE * level.abs(), f64::max);
    (last - level).abs() <= band
}

/// Whether the 95% interval of the median is within `precision` (relative
/// half-width) of the median: the report's own interval (order statistics,
/// no resampling, so it can be asked after every round).
pub(crate) fn precise(per_call: &[f64], precision: f64) -> bool {
    let Some((lo, hi)) = order::median_interval(per_call, 0.95) else {
        return false;
    };
    let median = crate::stats::median(per_call);
    median > 0.0 && (hi - lo) / 2.0 / median <= precision
}

/// `--resolve`: whether every comparison against the baseline is settled —
/// faster, slower, or the same within `band` (`judge::verdict`), from the
/// pairs taken so far. `cells` holds each ok cell's samples per call, taken
/// in the same rounds; `baseline` indexes it. A comparison with a non-positive
/// time cannot be judged and counts as settled (nothing more would help).
pub(super) fn settled(cells: &[Vec<f64>], baseline: usize, band: f64) -> bool {
    let base = &cells[baseline];
    cells.iter().enumerate().filter(|(i, _)| *i != baseline).all(|(_, c)| {
        let n = c.len().min(base.len());
        if c[..n].iter().chain(&base[..n]).any(|x| *x <= 0.0) {
            return true;
        }
        let logs: Vec<f64> = c[..n].iter().zip(&base[..n]).map(|(a, b)| a.ln() - b.ln()).collect();
        crate::judge::estimate(&logs, &[n], 0.95)
            .is_some_and(|e| crate::judge::decide(&e, (1.0 + band).ln()) != crate::results::Verdict::Unknown)
    })
}

/// The baseline of a group while it is measured: the named one among `names`
/// when it is still going, else the cell with the smallest median so far.
pub(super) fn running_baseline(names: &[&str], cells: &[Vec<f64>], named: Option<&str>) -> Option<usize> {
    if let Some(i) = named.and_then(|n| names.iter().position(|x| *x == n)) {
        return Some(i);
    }
    let medians: Vec<f64> = cells.iter().map(|c| crate::stats::median(c)).collect();
    crate::stats::argmin(&medians)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_is_settled_once_every_comparison_has_an_answer() {
        let base: Vec<f64> = (0..10).map(|i| 100.0 + f64::from(i % 3)).collect();
        let slow: Vec<f64> = base.iter().map(|x| x * 1.2).collect();
        let wobbly: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, x)| if i % 2 == 0 { x * 1.1 } else { x * 0.93 })
            .collect();
        assert!(settled(&[base.clone(), slow.clone()], 0, 0.02));
        assert!(!settled(&[base.clone(), slow, wobbly], 0, 0.02));
        assert!(
            !settled(&[base[..4].to_vec(), base[..4].to_vec()], 0, 0.02),
            "too few pairs"
        );
        assert_eq!(running_baseline(&["a", "b"], &[vec![2.0], vec![1.0]], None), Some(1));
        assert_eq!(
            running_baseline(&["a", "b"], &[vec![2.0], vec![1.0]], Some("a")),
            Some(0)
        );
    }

    #[test]
    fn warm_up_ends_when_the_recent_samples_are_level() {
        let falling: Vec<f64> = (0..12).map(|i| 500.0 - 30.0 * f64::from(i)).collect();
        assert!(!warmed_up(&falling));
        let mut settled = falling.clone();
        settled.extend([100.0, 101.0, 99.0, 100.0, 100.5, 99.5, 100.0, 101.0, 100.0, 99.0]);
        assert!(warmed_up(&settled));
        assert!(!warmed_up(&[100.0; 5]));
    }

    /// A drop that has reached only the newest samples (the JDK 17 series of
    /// a 100 MiB call, ms) is not level yet, though every window median is.
    #[test]
    fn a_change_in_the_newest_samples_keeps_the_warm_up_going() {
        let jit = [
            1302.0, 1283.0, 1291.0, 1309.0, 1309.0, 1340.0, 1361.0, 1305.0, 684.0, 340.0,
        ];
        assert!(!warmed_up(&jit));
        let first_fast = [
            1302.0, 1302.0, 1283.0, 1291.0, 1309.0, 1309.0, 1340.0, 1361.0, 1305.0, 684.0,
        ];
        assert!(!warmed_up(&first_fast));
        let mut noisy_but_level = jit[..8].to_vec();
        noisy_but_level.extend([1330.0, 1290.0]);
        assert!(warmed_up(&noisy_but_level));
    }

    #[test]
    fn precision_needs_enough_quiet_samples() {
        let noisy: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { 80.0 } else { 120.0 }).collect();
        assert!(!precise(&noisy, 0.02));
        let quiet: Vec<f64> = (0..30).map(|i| 100.0 + f64::from(i % 3) * 0.1).collect();
        assert!(precise(&quiet, 0.02));
        assert!(!precise(&[100.0], 0.5));
    }
}
