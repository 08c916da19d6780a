//! Where warm-up ends. A just-started process or JIT runtime is slower (or,
//! rarely, faster) at first; averaging those samples in misleads. Given the
//! whole series of a cell (warm-up and measured samples in order), this finds
//! the first index from which the series stays at its final level.
//!
//! Method: the final level is the median of the last half of the series, and
//! its noise is estimated from successive differences, σ ≈ 1.4826·MAD(Δ)/√2,
//! which a trend does not inflate (a spread taken around the level would
//! call a steady slide "noise"). Windows of `WINDOW` consecutive
//! samples are compared with the final level; a window whose median is off by
//! more than max(3σ, `rel_tolerance`·level) is still warming up. Steady state
//! starts right after the last such window that begins in the first half. A
//! deviating window in the last half means no steady state was found.

use crate::stats::robust::mad_in_place;
use crate::stats::summary::median;

pub(crate) const WINDOW: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Steady {
    /// The series is at its final level from this index on.
    From(usize),
    /// The series is still moving in its second half.
    NotReached,
    /// Too few samples to tell (fewer than 2·WINDOW).
    Unknown,
}

/// See the module documentation. `rel_tolerance` is the smallest relative
/// change that counts (e.g. 0.02), so tiny systematic drifts of a very quiet
/// series are not called warm-up.
pub(crate) fn steady_state(series: &[f64], rel_tolerance: f64) -> Steady {
    let n = series.len();
    if n < 2 * WINDOW {
        return Steady::Unknown;
    }
    let tail = &series[n / 2..];
    let level = median(tail);
    let sigma = {
        let mut steps: Vec<f64> = series.windows(2).map(|w| w[1] - w[0]).collect();
        1.4826 * mad_in_place(&mut steps).unwrap_or(0.0) / std::f64::consts::SQRT_2
    };
    let threshold = (3.0 * sigma).max(rel_tolerance * level.abs());
    let mut start = 0;
    for j in 0..=(n - WINDOW) {
        let off = (median(&series[j..j + WINDOW]) - level).abs() > threshold;
        if off {
            if j >= n / 2 {
                return Steady::NotReached;
            }
            start = j + WINDOW;
        }
    }
    Steady::From(start.min(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jit_like_series_settles_after_its_warm_up() {
        // 8 slow samples, then steady with small noise.
        let mut s: Vec<f64> = (0..8).map(|i| 200.0 - 10.0 * f64::from(i)).collect();
        s.extend((0..30).map(|i| 100.0 + f64::from(i % 3)));
        match steady_state(&s, 0.02) {
            Steady::From(k) => assert!((8..=12).contains(&k), "steady from {k}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_flat_series_is_steady_from_the_start() {
        let s: Vec<f64> = (0..20).map(|i| 100.0 + f64::from(i % 4)).collect();
        assert_eq!(steady_state(&s, 0.02), Steady::From(0));
    }

    #[test]
    fn a_series_still_falling_has_no_steady_state() {
        let s: Vec<f64> = (0..30).map(|i| 300.0 - 8.0 * f64::from(i)).collect();
        assert_eq!(steady_state(&s, 0.02), Steady::NotReached);
        assert_eq!(steady_state(&s[..6], 0.02), Steady::Unknown);
    }
}
