//! Three answers, decided by the interval printed beside them.
//!
//! A comparison is an estimate of a log ratio with its interval. With `band`
//! the equivalence band (the noise floor, ln(1 + noise)):
//!
//! - `slower` when the interval lies above zero *and* the estimate is beyond
//!   the band (a real difference, of a size worth naming); `faster` likewise
//!   below;
//! - `same` when the whole interval lies inside the band: the data rule out
//!   any difference as large as the band (two one-sided tests, read off the
//!   interval);
//! - `unknown` otherwise — too few runs for an interval, an interval that
//!   spans the band's edge, or a real difference smaller than the band that
//!   the interval cannot place inside it — with what would settle it.
//!
//! The decision is the interval itself, so a verdict never stands beside an
//! interval that does not support it, and no interval that excludes 1 by
//! more than the band reads "not confirmed". Chromium's Pinpoint answers the
//! same way: different, same, or unknown (add repeats).

use crate::judge::levels::{LogEstimate, z_quantile};
use crate::results::Verdict;

/// The power `minimum_detectable` is computed for.
pub(super) const POWER: f64 = 0.8;
/// Runs beyond which "more runs would settle it" is not offered.
pub(super) const SETTLE_CAP: u64 = 100_000;

/// The verdict of `est` against an equivalence band of ±`band` (log scale).
pub(crate) fn decide(est: &LogEstimate, band: f64) -> Verdict {
    let Some((lo, hi)) = est.interval else {
        return Verdict::Unknown;
    };
    if lo > 0.0 && est.center > band {
        Verdict::Slower
    } else if hi < 0.0 && est.center < -band {
        Verdict::Faster
    } else if -band < lo && hi < band {
        Verdict::Same
    } else {
        Verdict::Unknown
    }
}

/// The standard error the interval implies (its mean half-width over the
/// level's normal quantile); `None` without an interval.
fn standard_error(est: &LogEstimate, level: f64) -> Option<f64> {
    let (below, above) = est.half_widths()?;
    Some((below + above) / 2.0 / z_quantile(level))
}

/// The smallest true change (log scale) this comparison would call faster or
/// slower with probability `POWER`, at its sample size and spread: the
/// change must clear both the interval (z·SE) and the band, plus the power
/// margin. `None` without an interval.
pub(super) fn minimum_detectable(est: &LogEstimate, band: f64, level: f64) -> Option<f64> {
    let se = standard_error(est, level)?;
    let power = z_quantile(2.0 * POWER - 1.0);
    Some((z_quantile(level) * se).max(band) + power * se)
}

/// About how many values (runs, or pairs) in all would settle an `unknown`
/// at the spread seen: enough to shrink the interval inside the band, or
/// clear of zero when the estimate lies outside it. `None` when already
/// settled, without an interval, or past `SETTLE_CAP`.
pub(super) fn runs_to_settle(est: &LogEstimate, band: f64) -> Option<u64> {
    if decide(est, band) != Verdict::Unknown {
        return None;
    }
    let (below, above) = est.half_widths()?;
    let half = below.max(above);
    let room = if est.center.abs() < band {
        band - est.center.abs()
    } else {
        est.center.abs()
    };
    if half <= 0.0 || room <= half * 1e-3 {
        return None;
    }
    // Widths shrink with the square root of the count.
    let needed = (est.n as f64 * (half / room).powi(2)).ceil();
    (needed <= SETTLE_CAP as f64).then_some((needed as u64).max(est.n as u64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(center: f64, lo: f64, hi: f64) -> LogEstimate {
        LogEstimate {
            center,
            interval: Some((lo, hi)),
            n: 10,
            segments: 1,
            between_share: None,
            widened: false,
        }
    }

    #[test]
    fn three_answers_from_the_interval() {
        let band = 0.01;
        assert_eq!(decide(&est(0.2, 0.15, 0.25), band), Verdict::Slower);
        assert_eq!(decide(&est(-0.2, -0.25, -0.15), band), Verdict::Faster);
        assert_eq!(decide(&est(0.001, -0.005, 0.006), band), Verdict::Same);
        // Excludes no change but reaches past the band: not "same".
        assert_eq!(decide(&est(0.0, -0.2, 0.2), band), Verdict::Unknown);
        // A real difference below the band whose interval pokes out of it.
        assert_eq!(decide(&est(0.008, 0.002, 0.015), band), Verdict::Unknown);
        // An interval that excludes zero and an estimate past the band: called.
        assert_eq!(decide(&est(0.05, 0.01, 0.06), band), Verdict::Slower);
        let mut none = est(0.5, 0.4, 0.6);
        none.interval = None;
        assert_eq!(decide(&none, band), Verdict::Unknown);
    }

    #[test]
    fn what_would_settle_an_unknown() {
        let band = 0.01;
        // Centered, ±2%: the interval must shrink to ±1%, four times the runs.
        let wide = est(0.0, -0.02, 0.02);
        assert_eq!(runs_to_settle(&wide, band), Some(40));
        assert_eq!(runs_to_settle(&est(0.2, 0.15, 0.25), band), None);
        let m = minimum_detectable(&wide, band, 0.95).unwrap();
        assert!(m > 0.02 && m < 0.04, "{m}");
    }
}
