//! Why a ratio and the medians beside it can disagree. A paired ratio
//! compares run i of an implementation with run i of the baseline, so when
//! adaptive sampling (`--precision`) stopped the cells of a group at
//! different counts, the ratio rests on the runs both have while each
//! median covers all of its own: a ratio table could rank two
//! implementations opposite to the medians printed next to it. Where that
//! happens the table says so, with the medians over the runs the ratio used.
//!
//! This is the one place a reporter touches samples: the medians it shows
//! are of a prefix of a cell's series, restated so that numbers beside each
//! other agree; the statistics themselves stay `analysis`'s.

use crate::base::units::format_nanos;
use crate::results::{Cell, Comparison};
use crate::stats::summary::median_of_sorted;

/// The medians of a paired comparison over the runs it used.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedMedians {
    /// Pairs the ratio used (`judge::compare::paired_runs`).
    pub rounds: usize,
    pub median_ns: f64,
    pub baseline_median_ns: f64,
}

/// The medians over the paired runs, when the ratio used fewer runs than one
/// of the two cells has; `None` when it used them all (or is not paired).
pub fn paired_medians(cell: &Cell, base: &Cell, comparison: &Comparison) -> Option<PairedMedians> {
    if !comparison.paired || std::ptr::eq(cell, base) {
        return None;
    }
    let (a, b, _) = crate::judge::compare::paired_runs(cell, base);
    let rounds = a.len();
    if rounds == 0 || (cell.samples.len() == rounds && base.samples.len() == rounds) {
        return None;
    }
    let median = |mut s: Vec<f64>| {
        s.sort_unstable_by(f64::total_cmp);
        median_of_sorted(&s)
    };
    Some(PairedMedians {
        rounds,
        median_ns: median(a),
        baseline_median_ns: median(b),
    })
}

/// The note under a ratio table whose cells took different numbers of
/// runs: `rows` are (row label, implementation, baseline, medians).
pub fn note(rows: &[(String, String, String, PairedMedians)]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let each: Vec<String> = rows
        .iter()
        .map(|(row, imp, base, m)| {
            let at = if row.is_empty() {
                String::new()
            } else {
                format!("{row}: ")
            };
            format!(
                "{at}{imp} {} against {base} {} over the {} runs they took side by side",
                format_nanos(m.median_ns),
                format_nanos(m.baseline_median_ns),
                m.rounds
            )
        })
        .collect();
    Some(format!(
        "Where a group's cells took different numbers of runs (n shows the range), a paired ratio \
compares run i with run i over the runs both have, while each median covers all of its cell's runs; \
over the runs the ratio used, the medians are: {}.",
        each.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Samples, Verdict};

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
        let text = note(&[("1MB".into(), "a".into(), "b".into(), m)]).unwrap();
        assert!(
            text.contains("1MB: a 11.0 ns against b 10.0 ns over the 3 runs they took side by side"),
            "{text}"
        );
    }
}
