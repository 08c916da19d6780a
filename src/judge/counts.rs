//! Judging a metric other than wall time, by the same rule.
//!
//! Instruction counts repeat exactly or nearly so: a run's count does not
//! move with the machine's load, only with what the program did (a hash
//! seed, a garbage collection, a JIT that compiled a little later). Their
//! intervals are therefore narrow, and the question a verdict answers is
//! whether a difference lies beyond that repeatability. The answer comes
//! from `compare` and `verdict::decide`, as for time, on the cells' views in
//! the metric (`results::metric::view_cell`); only the noise band differs:
//! the larger of `instructions_noise` (the run-to-run repeatability of
//! counts, default 0.1%) and the two cells' own repeatability (the
//! interquartile range of their counted runs over the median:
//! `compare::noise_band`), so a cell whose counts wobble (a collector
//! running in some batches) needs a change beyond that wobble to be called one.

use super::compare;
use crate::base::metric::Metric;
use crate::results::view_cell;
use crate::results::{AnalysisSettings, Cell, Comparison};

/// `cell` against `base` in `metric`: wall time as `compare::compare`
/// does it; another metric on both cells' views in it, with that metric's
/// band. `None` when either cell has no figure of the metric.
pub(crate) fn compare_in(
    metric: Metric,
    cell: &Cell,
    base: &Cell,
    paired: bool,
    settings: &AnalysisSettings,
) -> Option<Comparison> {
    if metric == Metric::Wall {
        return compare::compare(cell, base, paired, settings);
    }
    let settings = settings.for_metric(metric);
    let a = view_cell(cell, metric)?;
    let mut c = if std::ptr::eq(cell, base) {
        compare::compare(&a, &a, paired, &settings)?
    } else {
        compare::compare(&a, &view_cell(base, metric)?, paired, &settings)?
    };
    c.metric = metric;
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Samples, Verdict};

    fn counted(name: &str, counts: &[u64]) -> Cell {
        let mut c: Cell = serde_json::from_value(serde_json::json!({
            "id": name, "implementation": name, "operation": "op", "params": {},
            "outcome": "ok", "message": null, "payload_bytes": null, "warmup_runs": 0,
            "runs_requested": counts.len(), "warmup_wall_ns": [], "started_at": "t",
            "samples": {"wall_ns": vec![1000; counts.len()], "user_ns": [], "sys_ns": [], "max_rss_bytes": []},
            "stats": null
        }))
        .unwrap();
        c.samples = Samples {
            instructions: counts.to_vec(),
            ..c.samples
        };
        crate::analysis::fill_stats(&mut c, &AnalysisSettings::default());
        c
    }

    #[test]
    fn a_change_beyond_the_repeatability_is_called_and_one_within_it_is_not() {
        let base = counted(
            "base",
            &[1_000_000, 1_000_020, 999_990, 1_000_000, 1_000_010, 1_000_000],
        );
        let more = counted(
            "more",
            &[1_010_000, 1_010_020, 1_009_990, 1_010_000, 1_010_010, 1_010_000],
        );
        let s = AnalysisSettings::default();
        let c = compare_in(Metric::Instructions, &more, &base, true, &s).unwrap();
        assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
        assert!((c.ratio - 1.01).abs() < 1e-4);
        // A 0.01% difference lies inside the 0.1% band: the same.
        let close = counted(
            "close",
            &[1_000_100, 1_000_120, 1_000_090, 1_000_100, 1_000_110, 1_000_100],
        );
        let c = compare_in(Metric::Instructions, &close, &base, true, &s).unwrap();
        assert_eq!(c.verdict, Verdict::Same, "{c:?}");
        // The same counts in wall time are judged with the wall band (1%): not slower.
        let c = compare_in(Metric::Wall, &more, &base, true, &s).unwrap();
        assert_eq!(c.verdict, Verdict::Same);
    }

    #[test]
    fn wobbling_counts_widen_the_band() {
        // Every other batch pays for a collection: the middle half spans 5%.
        let wobbly = counted("w", &[1_000_000, 1_050_000, 1_000_000, 1_050_000, 1_000_000, 1_050_000]);
        let steady = counted("s", &[1_030_000; 6]);
        let s = AnalysisSettings::default();
        let (a, b) = (
            view_cell(&steady, Metric::Instructions).unwrap(),
            view_cell(&wobbly, Metric::Instructions).unwrap(),
        );
        assert!(compare::noise_band(&a, &b, &s.for_metric(Metric::Instructions)) > 0.04);
        let c = compare_in(Metric::Instructions, &steady, &wobbly, false, &s).unwrap();
        assert_ne!(c.verdict, Verdict::Slower, "{c:?}");
    }
}
