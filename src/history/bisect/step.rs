//! One step of a bisection, judged: the middle commit was measured in one
//! run beside both ends of the range, taking turns, so each of its two
//! comparisons is paired. The verdicts are `judge`'s; this only reads them.
//!
//! The middle is *good* when it is like the good end (no slower than it,
//! or faster than the bad end) and not like the bad one; *bad* the other
//! way round. When it is like both — a regression made of several smaller
//! steps, or a noise band wider than the step — it goes to the end it is
//! nearer on the log scale. When it is like neither, the step is unclear
//! and is measured again; after the last attempt the nearer end decides,
//! and the step says it was forced.

use serde::{Deserialize, Serialize};

use crate::results::{Comparison, Verdict};

/// A ratio with its interval and verdict, as a step records it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct Evidence {
    /// Time of the first commit over the second's, above 1 is slower.
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Verdict,
}

impl From<&Comparison> for Evidence {
    fn from(c: &Comparison) -> Self {
        Evidence {
            ratio: c.ratio,
            ci_low: c.ci_low,
            ci_high: c.ci_high,
            verdict: c.verdict,
        }
    }
}

impl Evidence {
    /// "+5.1% [+3.9%, +6.3%] slower".
    pub(crate) fn text(&self) -> String {
        let pct = |r: f64| format!("{:+.1}%", (r - 1.0) * 100.0);
        let interval = match (self.ci_low, self.ci_high) {
            (Some(lo), Some(hi)) => format!(" [{}, {}]", pct(lo), pct(hi)),
            _ => " (no interval)".into(),
        };
        format!(
            "{}{interval} {}",
            pct(self.ratio),
            crate::report::revision_verdict_word(self.verdict)
        )
    }
}

/// One measurement of a step: the middle against both ends, and the ends
/// against each other, from one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Attempt {
    /// middle / good; absent when the step had no middle (the ends alone).
    pub mid_vs_good: Option<Evidence>,
    /// middle / bad.
    pub mid_vs_bad: Option<Evidence>,
    /// bad / good.
    pub bad_vs_good: Evidence,
    /// Where the run's results are (its folder), and its run id in the history store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<i64>,
}

/// What a step says of its middle commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Call {
    Good,
    Bad,
    Unclear,
}

/// The middle's call from one attempt's verdicts.
pub(crate) fn classify(a: &Attempt) -> Call {
    let (Some(g), Some(b)) = (a.mid_vs_good, a.mid_vs_bad) else {
        return Call::Unclear;
    };
    let like_good = matches!(g.verdict, Verdict::Same | Verdict::Faster) || b.verdict == Verdict::Faster;
    let like_bad = matches!(b.verdict, Verdict::Same | Verdict::Slower) || g.verdict == Verdict::Slower;
    match (like_good, like_bad) {
        (true, false) => Call::Good,
        (false, true) => Call::Bad,
        (true, true) => nearer(a),
        (false, false) => Call::Unclear,
    }
}

/// The end the middle is nearer to, by the point estimates (log scale).
pub(crate) fn nearer(a: &Attempt) -> Call {
    match (a.mid_vs_good, a.mid_vs_bad) {
        (Some(g), Some(b)) if g.ratio > 0.0 && b.ratio > 0.0 => {
            if g.ratio.ln().abs() <= b.ratio.ln().abs() {
                Call::Good
            } else {
                Call::Bad
            }
        }
        _ => Call::Unclear,
    }
}

/// What the ends say: whether bad is slower than good by more than
/// `threshold` (a `slower` verdict and a ratio above 1 + threshold, the
/// rule of `--fail-above`); `None` while the verdict is unknown.
pub(crate) fn ends_regressed(a: &Attempt, threshold: f64) -> Option<bool> {
    match a.bad_vs_good.verdict {
        Verdict::Unknown => None,
        Verdict::Slower => Some(a.bad_vs_good.ratio > 1.0 + threshold),
        _ => Some(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(ratio: f64, verdict: Verdict) -> Option<Evidence> {
        Some(Evidence {
            ratio,
            ci_low: Some(ratio - 0.01),
            ci_high: Some(ratio + 0.01),
            verdict,
        })
    }

    fn attempt(g: Option<Evidence>, b: Option<Evidence>) -> Attempt {
        Attempt {
            mid_vs_good: g,
            mid_vs_bad: b,
            bad_vs_good: ev(1.05, Verdict::Slower).unwrap(),
            results: None,
            run_id: None,
        }
    }

    #[test]
    fn the_middle_goes_to_the_end_it_is_like() {
        use Verdict::*;
        // Like the good end: the same as it, faster than the bad one.
        assert_eq!(classify(&attempt(ev(1.0, Same), ev(0.952, Faster))), Call::Good);
        // The bad end's interval is wide, but good says the same: good.
        assert_eq!(classify(&attempt(ev(1.0, Same), ev(0.96, Unknown))), Call::Good);
        // Like the bad end.
        assert_eq!(classify(&attempt(ev(1.05, Slower), ev(1.0, Same))), Call::Bad);
        assert_eq!(classify(&attempt(ev(1.05, Slower), ev(1.0, Unknown))), Call::Bad);
        // Halfway (two smaller steps): the nearer end.
        assert_eq!(classify(&attempt(ev(1.03, Slower), ev(0.98, Faster))), Call::Bad);
        assert_eq!(classify(&attempt(ev(1.01, Slower), ev(0.96, Faster))), Call::Good);
        // Like neither: measured again.
        assert_eq!(classify(&attempt(ev(1.02, Unknown), ev(0.98, Unknown))), Call::Unclear);
        assert_eq!(classify(&attempt(None, ev(0.98, Faster))), Call::Unclear);
    }

    #[test]
    fn the_ends_must_differ_by_more_than_the_threshold() {
        let mut a = attempt(None, None);
        assert_eq!(ends_regressed(&a, 0.03), Some(true));
        assert_eq!(ends_regressed(&a, 0.06), Some(false));
        a.bad_vs_good.verdict = Verdict::Unknown;
        assert_eq!(ends_regressed(&a, 0.03), None);
        a.bad_vs_good.verdict = Verdict::Same;
        assert_eq!(ends_regressed(&a, 0.03), Some(false));
    }
}
