//! Contention the order cannot cancel. Taking turns cancels a machine that
//! is slower for everyone alike; it cannot cancel a neighbour that costs
//! one implementation more than the other, and that is what a neighbour
//! does to two programs that use different numbers of cores: one that
//! keeps two cores busy loses one of them to a busy loop, a single-threaded
//! one beside it does not notice. Such a comparison measured under load is
//! exact about that load and says little about a quiet machine.
//!
//! So when other work wanted a share of the machine
//! (`AnalysisSettings::contention`) and the two cells' parallelism (CPU
//! time over wall time, medians over their runs) differs by
//! `PARALLELISM_APART` or more, the comparison in time is load-dependent:
//! its interval is widened by what the neighbours could have cost each
//! side, its verdict is decided again from the widened interval, and the
//! measured interval and verdict are kept beside it (`LoadDependent`).
//!
//! The bound, from fair sharing: with `d` CPUs' worth of other work on `n`
//! CPUs, a program that wanted `q` CPUs gets `q·n/(q+d)` of them when they
//! do not all fit. Seen running at parallelism `p` beside that work, it
//! wanted `q = p·d/(n−p)`, so on a quiet machine it runs up to
//! `q/p = d/(n−p)` times as fast, never less than 1 and never more than
//! `1 + d/n` (what the neighbours take from a program that wanted every
//! CPU). The quiet ratio then lies within [ratio ÷ its own factor, ratio ×
//! the baseline's]. In-process cells have no CPU time per run and are left
//! as measured.

use super::levels::LogEstimate;
use super::verdict;
use crate::results::{AnalysisSettings, Cell, Comparison, Contention, LoadDependent, Verdict};
use crate::stats::summary::median;

/// How far apart two cells' parallelism must be (as a ratio, each counted
/// as at least one CPU) for other work to move their comparison.
pub const PARALLELISM_APART: f64 = 1.15;

/// CPU time over wall time: the median over the cell's runs; `None`
/// without CPU time per run (in-process cells).
pub fn parallelism(cell: &Cell) -> Option<f64> {
    let s = &cell.samples;
    if s.user_ns.len() != s.wall_ns.len() || s.sys_ns.len() != s.wall_ns.len() || s.wall_ns.is_empty() {
        return None;
    }
    let per_run: Vec<f64> = (s.wall_ns.iter().zip(s.user_ns.iter()).zip(s.sys_ns.iter()))
        .filter(|((wall, _), _)| *wall > 0)
        .map(|((wall, user), sys)| (user + sys) as f64 / wall as f64)
        .collect();
    (!per_run.is_empty()).then(|| median(&per_run))
}

/// How many times as fast a program seen at parallelism `p` beside
/// `load` could run on a quiet machine (see the module header).
pub fn quiet_speedup(p: f64, load: &Contention) -> f64 {
    let (n, d) = (load.cpus, load.others_cpus);
    let cap = 1.0 + d / n;
    if n - p <= 0.0 {
        return cap;
    }
    (d / (n - p)).clamp(1.0, cap)
}

/// Whether two parallelisms are far enough apart for other work to move
/// the comparison of their cells.
pub fn apart(p: f64, q: f64) -> bool {
    let (p, q) = (p.max(1.0), q.max(1.0));
    p.max(q) / p.min(q) >= PARALLELISM_APART
}

/// Widens `comparison` of `cell` against `base` where the run's contention
/// could have moved it, and decides its verdict again from the widened
/// interval (`band`: the comparison's noise band, log scale). Returns
/// whether it did.
pub fn apply(comparison: &mut Comparison, cell: &Cell, base: &Cell, band: f64, settings: &AnalysisSettings) -> bool {
    let Some(load) = settings.contention else {
        return false;
    };
    let (Some(lo), Some(hi)) = (comparison.ci_low, comparison.ci_high) else {
        return false;
    };
    if comparison.verdict == Verdict::Baseline || lo <= 0.0 {
        return false;
    }
    let (Some(p), Some(q)) = (parallelism(cell), parallelism(base)) else {
        return false;
    };
    if !apart(p, q) {
        return false;
    }
    let (wide_lo, wide_hi) = (lo / quiet_speedup(p, &load), hi * quiet_speedup(q, &load));
    let est = LogEstimate {
        center: comparison.ratio.ln(),
        interval: Some((wide_lo.ln(), wide_hi.ln())),
        n: comparison.n,
        segments: 1,
        between_share: None,
        widened: false,
    };
    comparison.load_dependent = Some(LoadDependent {
        parallelism: p,
        baseline_parallelism: q,
        measured_low: lo,
        measured_high: hi,
        measured_verdict: comparison.verdict,
    });
    comparison.ci_low = Some(wide_lo);
    comparison.ci_high = Some(wide_hi);
    comparison.verdict = verdict::decide(&est, band);
    // More runs under the same load would not narrow what the load adds.
    comparison.settle_runs = None;
    comparison.minimum_detectable = None;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_follows_fair_shares_and_stops_at_what_the_neighbours_take() {
        let one = Contention {
            cpus: 2.0,
            others_cpus: 1.0,
        };
        // A single thread beside one busy loop on 2 CPUs had a CPU of its own.
        assert_eq!(quiet_speedup(1.0, &one), 1.0);
        assert_eq!(quiet_speedup(0.4, &one), 1.0);
        // Two threads beside it got 4/3 CPUs: on a quiet machine, 2 (1.5x).
        assert!((quiet_speedup(4.0 / 3.0, &one) - 1.5).abs() < 1e-9);
        // Never more than what a program wanting every CPU could lose.
        assert_eq!(quiet_speedup(1.99, &one), 1.5);
        assert_eq!(quiet_speedup(2.0, &one), 1.5);
        assert!(apart(2.0, 1.0) && apart(1.0, 1.3) && !apart(1.1, 1.0) && !apart(0.5, 0.9));
    }
}
