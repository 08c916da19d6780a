//! Two cells compared: the ratio of their times per call with its interval,
//! and the verdict that interval supports (`verdict::decide`).
//!
//! Cells of one group were measured side by side, taking turns, so their
//! runs are compared pair by pair: the ratio is the median of the per-pair
//! ratios, and drift shared by a pair cancels in it. Pairs are only formed
//! within a segment (the same pass, the same fork), and the interval covers
//! the variation between segments too (`levels`). Cells of different runs
//! (two results files, a resumed group) are compared as two independent
//! medians: the ratio of the medians, with an interval from both cells' own.

use crate::base::metric::Metric;
use crate::judge::levels::{self, LogEstimate};
use crate::judge::verdict;
use crate::results::{AnalysisSettings, Cell, Comparison, Levels, Stats, Verdict};

/// The runs of two cells measured side by side, pair by pair (times per
/// call, positive), with the number of pairs in each segment. Segments are
/// matched by their pass, fork and start time (a group resumed in another run
/// is not side by side); within one, run i of each cell forms pair i. Empty
/// when no segment of the two was measured together.
pub(super) fn paired_runs(cell: &Cell, base: &Cell) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
    let (a, b) = (cell.samples.per_call_ns(), base.samples.per_call_ns());
    let theirs = base.segment_spans();
    let (mut xs, mut ys, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
    for mine in cell.segment_spans() {
        let Some(other) = theirs
            .iter()
            .find(|o| o.key == mine.key && o.started_at == mine.started_at)
        else {
            continue;
        };
        let n = mine.runs.len().min(other.runs.len());
        let pairs = a[mine.runs.start..mine.runs.start + n]
            .iter()
            .zip(&b[other.runs.start..other.runs.start + n])
            .filter(|(x, y)| **x > 0.0 && **y > 0.0);
        let before = xs.len();
        for (x, y) in pairs {
            xs.push(*x);
            ys.push(*y);
        }
        if xs.len() > before {
            lengths.push(xs.len() - before);
        }
    }
    (xs, ys, lengths)
}

/// The pairs of `paired_runs` as log ratios, with their segments' lengths.
pub(crate) fn paired_log_ratios(cell: &Cell, base: &Cell) -> (Vec<f64>, Vec<usize>) {
    let (xs, ys, lengths) = paired_runs(cell, base);
    (xs.iter().zip(&ys).map(|(x, y)| x.ln() - y.ln()).collect(), lengths)
}

/// A cell's median on the log scale with its interval, from its statistics.
pub(crate) fn log_estimate(stats: &Stats) -> Option<LogEstimate> {
    if stats.median_ns <= 0.0 {
        return None;
    }
    let center = stats.median_ns.ln();
    let interval = match (stats.ci_low_ns, stats.ci_high_ns) {
        (Some(lo), Some(hi)) if lo > 0.0 && hi > 0.0 => Some((lo.ln(), hi.ln())),
        _ => None,
    };
    let levels = stats.levels.clone().unwrap_or_default();
    Some(LogEstimate {
        center,
        interval,
        n: stats.n,
        segments: levels.segments.max(1),
        between_share: levels.between_share,
        widened: levels.widened,
    })
}

/// The log ratio `a / b` of two independent estimates: each side of the
/// interval combines the matching half-widths of both (in quadrature).
pub(crate) fn unpaired(a: &LogEstimate, b: &LogEstimate) -> LogEstimate {
    let interval = match (a.half_widths(), b.half_widths()) {
        (Some((a_lo, a_hi)), Some((b_lo, b_hi))) => {
            let c = a.center - b.center;
            Some((c - a_lo.hypot(b_hi), c + a_hi.hypot(b_lo)))
        }
        _ => None,
    };
    LogEstimate {
        center: a.center - b.center,
        interval,
        n: a.n.min(b.n),
        segments: a.segments.min(b.segments),
        between_share: None,
        widened: a.widened || b.widened,
    }
}

/// Why an estimate has no interval, for the reader.
pub(super) fn missing_interval_note(n: usize) -> String {
    format!("too few runs (n={n}) for an interval: at least 6 are needed")
}

/// The noise band of comparing `cell` with `base` (relative): the
/// settings' noise, widened to either figure's own repeatability where it
/// has one (counts in a metric view: `judge::counts`).
pub(super) fn noise_band(cell: &Cell, base: &Cell, settings: &AnalysisSettings) -> f64 {
    let rep = |c: &Cell| c.stats.as_ref().and_then(|s| s.repeatability).unwrap_or(0.0);
    settings.noise.max(rep(cell)).max(rep(base))
}

/// A comparison made from a log-ratio estimate.
pub(crate) fn from_estimate(
    cell: &Cell,
    base: &Cell,
    est: &LogEstimate,
    paired: bool,
    settings: &AnalysisSettings,
) -> Comparison {
    let band = (1.0 + noise_band(cell, base, settings)).ln();
    let exp = |(lo, hi): (f64, f64)| (lo.exp(), hi.exp());
    Comparison {
        implementation: cell.implementation.clone(),
        baseline: base.implementation.clone(),
        operation: cell.operation.clone(),
        params: cell.params.clone(),
        ratio: est.center.exp(),
        ci_low: est.interval.map(|i| exp(i).0),
        ci_high: est.interval.map(|i| exp(i).1),
        verdict: verdict::decide(est, band),
        paired,
        n: est.n,
        levels: Levels::of(est),
        minimum_detectable: verdict::minimum_detectable(est, band, settings.confidence).map(|m| m.exp() - 1.0),
        settle_runs: verdict::runs_to_settle(est, band),
        note: est.interval.is_none().then(|| missing_interval_note(est.n)),
        reason: est.interval.is_none().then_some(crate::results::Reason::TooFewRuns),
        paired_medians: None,
        metric: Metric::Wall,
        load_dependent: None,
    }
}

/// Compares `cell` with `base`: pair by pair where their runs were taken
/// side by side (`paired` asks for it; segments measured together decide
/// it), else as two independent medians.
pub(crate) fn compare(cell: &Cell, base: &Cell, paired: bool, settings: &AnalysisSettings) -> Option<Comparison> {
    let (sa, sb) = (cell.stats.as_ref()?, base.stats.as_ref()?);
    if sb.median_ns <= 0.0 || sa.median_ns <= 0.0 {
        return None;
    }
    // The same cell, not merely the same id: `diff` compares cells of equal ids from two files.
    if std::ptr::eq(cell, base) {
        let mut c = from_estimate(cell, base, &log_estimate(sa)?, true, settings);
        (c.ratio, c.ci_low, c.ci_high, c.verdict) = (1.0, Some(1.0), Some(1.0), Verdict::Baseline);
        (c.minimum_detectable, c.settle_runs, c.note) = (None, None, None);
        return Some(c);
    }
    let (logs, lengths) = if paired {
        paired_log_ratios(cell, base)
    } else {
        (vec![], vec![])
    };
    let paired = !logs.is_empty();
    let est = if paired {
        levels::estimate(&logs, &lengths, settings.confidence)?
    } else {
        unpaired(&log_estimate(sa)?, &log_estimate(sb)?)
    };
    Some(from_estimate(cell, base, &est, paired, settings))
}

/// The medians over the paired runs, when the ratio used fewer runs than one
/// of the two cells has; `None` when it used them all (or is not paired).
pub(crate) fn paired_medians(
    cell: &Cell,
    base: &Cell,
    comparison: &Comparison,
) -> Option<crate::results::PairedMedians> {
    if !comparison.paired || std::ptr::eq(cell, base) {
        return None;
    }
    let (a, b, _) = paired_runs(cell, base);
    let rounds = a.len();
    if rounds == 0 || (cell.samples.len() == rounds && base.samples.len() == rounds) {
        return None;
    }
    let median = |mut s: Vec<f64>| {
        s.sort_unstable_by(f64::total_cmp);
        crate::stats::median_of_sorted(&s)
    };
    Some(crate::results::PairedMedians {
        rounds,
        median_ns: median(a),
        baseline_median_ns: median(b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{PairedMedians, Samples};

    fn cell(name: &str, wall: &[u64]) -> Cell {
        let mut c: Cell = serde_json::from_value(serde_json::json!({
            "id": name, "implementation": name, "operation": "op", "params": {},
            "outcome": "ok", "warmup_runs": 0, "runs_requested": wall.len(), "warmup_wall_ns": [],
            "samples": {"wall_ns": [], "user_ns": [], "sys_ns": [], "max_rss_bytes": []}
        }))
        .unwrap();
        c.samples = Samples {
            wall_ns: wall.to_vec().into(),
            ..Default::default()
        };
        c
    }

    fn comparison(paired: bool) -> Comparison {
        Comparison {
            implementation: "a".into(),
            baseline: "b".into(),
            operation: "op".into(),
            params: Default::default(),
            ratio: 1.0,
            ci_low: None,
            ci_high: None,
            n: 0,
            levels: Default::default(),
            minimum_detectable: None,
            settle_runs: None,
            note: None,
            reason: None,
            paired_medians: None,
            metric: Default::default(),
            load_dependent: None,
            // Any verdict: the medians do not depend on it.
            verdict: Verdict::Baseline,
            paired,
        }
    }

    #[test]
    fn medians_over_the_runs_both_cells_have() {
        // a stopped after 3 runs; b went on and got slower.
        let a = cell("a", &[10, 11, 12]);
        let b = cell("b", &[9, 10, 11, 30, 31, 32, 33]);
        let m = paired_medians(&a, &b, &comparison(true)).unwrap();
        assert_eq!(
            m,
            PairedMedians {
                rounds: 3,
                median_ns: 11.0,
                baseline_median_ns: 10.0
            }
        );
        // Equal counts, or an unpaired comparison: nothing to explain.
        assert!(paired_medians(&a, &cell("c", &[1, 2, 3]), &comparison(true)).is_none());
        assert!(paired_medians(&a, &b, &comparison(false)).is_none());
    }
}
