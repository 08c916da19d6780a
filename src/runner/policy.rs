//! Sampling policy: when a cell has warmed up, and when it has been measured
//! precisely enough. Pure functions over the samples taken so far; the
//! scheduler asks them after every round.

use crate::stats::robust;
use crate::stats::steady::{self, Steady, WINDOW};

/// `--warmup auto` stops warming a cell up after this many runs, steady or not.
pub const AUTO_WARMUP_MAX: u32 = 100;
/// `--warmup auto`: relative level change that still counts as level.
pub const AUTO_WARMUP_TOLERANCE: f64 = 0.02;

/// Whether the last `2·WINDOW` warm-up samples (per call) are level: no window
/// of them differs from their common level. Needs at least `2·WINDOW` samples.
pub fn warmed_up(warmup_per_call: &[f64]) -> bool {
    let n = warmup_per_call.len();
    n >= 2 * WINDOW
        && steady::steady_state(&warmup_per_call[n - 2 * WINDOW..], AUTO_WARMUP_TOLERANCE) == Steady::From(0)
}

/// Whether the 95% interval of the median is within `precision` (relative
/// half-width) of the median. Uses the order-statistic interval, which needs
/// no resampling (it is asked after every round); the report's bootstrap
/// interval of the same median is close to it.
pub fn precise(per_call: &[f64], precision: f64) -> bool {
    let Some((lo, hi)) = robust::median_interval(per_call) else {
        return false;
    };
    let mut sorted = per_call.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let median = crate::stats::median_of_sorted(&sorted);
    median > 0.0 && (hi - lo) / 2.0 / median <= precision
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_ends_when_the_recent_samples_are_level() {
        let falling: Vec<f64> = (0..12).map(|i| 500.0 - 30.0 * f64::from(i)).collect();
        assert!(!warmed_up(&falling));
        let mut settled = falling.clone();
        settled.extend([100.0, 101.0, 99.0, 100.0, 100.5, 99.5, 100.0, 101.0, 100.0, 99.0]);
        assert!(warmed_up(&settled));
        assert!(!warmed_up(&[100.0; 5]));
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
