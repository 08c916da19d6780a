//! Contention the order cannot cancel. Taking turns cancels a machine that
//! is slower for everyone alike; it cannot cancel a neighbour that costs
//! one implementation more than the other, and that is what a neighbour
//! does to two programs that use different numbers of cores: one that
//! keeps two cores busy loses one of them to a busy loop, a single-threaded
//! one beside it does not notice. Such a comparison measured under load is
//! exact about that load and says little about a quiet machine.
//!
//! So when other work took a share of the machine
//! (`AnalysisSettings::contention`) and the two cells' parallelism (CPU
//! time over wall time, medians over their runs) differs by
//! `PARALLELISM_APART` or more, the comparison in time is load-dependent:
//! its interval is widened by what the neighbours could have cost each
//! side, its verdict is decided again from the widened interval, and the
//! measured interval and verdict are kept beside it (`LoadDependent`).
//!
//! The bound assumes nothing about how the kernel shares the CPUs (per
//! thread, per process, per cgroup: measured, a two-thread program beside
//! one busy loop kept 1.2 CPUs, not the 4/3 fair shares per thread give).
//! A program seen at parallelism `p` on `n` CPUs could, on a quiet
//! machine, use at most all `n` of them: at most `n/p` times as fast. And
//! with `d` CPUs' worth of other work beside it, spread over the run, it
//! lost at most what that work took from the CPUs: at most `n/(n−d)`
//! times. The quiet ratio then lies within [ratio ÷ the cell's bound,
//! ratio × the baseline's]. That is wide, on purpose: the load hides how
//! many cores each could have used, so only a difference larger than
//! what it could hide keeps a verdict. In-process cells have no CPU time
//! per run and are left as measured.

use super::levels::LogEstimate;
use super::verdict;
use crate::results::{AnalysisSettings, Cell, Comparison, Contention, LoadDependent, Verdict};
use crate::stats::summary::median;

/// How far apart two cells' parallelism must be (as a ratio) for other
/// work to move their comparison: under load a single thread and two
/// threads squeezed onto fewer CPUs both read below 1 and still differ.
pub(super) const PARALLELISM_APART: f64 = 1.15;

/// CPU time over wall time: the median over the cell's runs; `None`
/// without CPU time per run (in-process cells).
pub(super) fn parallelism(cell: &Cell) -> Option<f64> {
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
/// `load` could run on a quiet machine, at most (see the module header).
pub(super) fn quiet_speedup(p: f64, load: &Contention) -> f64 {
    let (n, d) = (load.cpus, load.others_cpus);
    let all_cpus = if p > 0.0 { n / p } else { f64::INFINITY };
    let all_taken = if d < n { n / (n - d) } else { f64::INFINITY };
    all_cpus.min(all_taken).max(1.0)
}

/// Whether two parallelisms are far enough apart for other work to move
/// the comparison of their cells.
pub(super) fn apart(p: f64, q: f64) -> bool {
    p > 0.0 && q > 0.0 && p.max(q) / p.min(q) >= PARALLELISM_APART
}

/// Widens `comparison` of `cell` against `base` where the run's contention
/// could have moved it, and decides its verdict again from the widened
/// interval (`band`: the comparison's noise band, log scale). Returns
/// whether it did.
pub(super) fn apply(
    comparison: &mut Comparison,
    cell: &Cell,
    base: &Cell,
    band: f64,
    settings: &AnalysisSettings,
) -> bool {
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
    fn the_bound_is_what_all_the_cpus_or_all_that_was_taken_could_give() {
        let one = Contention {
            cpus: 2.0,
            others_cpus: 1.0,
        };
        // A program that kept 1.2 CPUs could use both: 1.67x; one that
        // kept 1 could at most get back what was taken: 2x.
        assert!((quiet_speedup(1.2, &one) - 2.0 / 1.2).abs() < 1e-9);
        assert_eq!(quiet_speedup(1.0, &one), 2.0);
        assert_eq!(quiet_speedup(2.0, &one), 1.0);
        // A little other work bounds it closely.
        let little = Contention {
            cpus: 2.0,
            others_cpus: 0.2,
        };
        assert!((quiet_speedup(0.5, &little) - 2.0 / 1.8).abs() < 1e-9);
        // Every CPU taken: only the program's own parallelism bounds it.
        let all = Contention {
            cpus: 2.0,
            others_cpus: 2.5,
        };
        assert_eq!(quiet_speedup(0.5, &all), 4.0);
        assert!(apart(2.0, 1.0) && apart(1.0, 1.3) && apart(0.66, 0.98));
        assert!(!apart(1.1, 1.0) && !apart(0.0, 1.0));
    }
}
