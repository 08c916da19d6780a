//! The "Overall" table every report shows after the findings: each
//! implementation against the reference over the whole suite, as
//! `overall` computed it (the geometric mean of its ratios with its
//! interval and verdict, and its comparisons counted by verdict).
//! Formatting only.

use crate::base::text;
use crate::report::tables::{Table, TableKind, verdict_text};
use crate::results::{Comparison, Levels, OverallRow, Results};

/// The geometric mean as a verdict reads in the tables: "1.27x slower
/// [1.21, 1.33]", "≈ 1.00 [0.99, 1.01]", "unknown 1.05 [0.97, 1.13]".
fn mean_text(r: &OverallRow, reference: &str) -> String {
    let Some(ratio) = r.ratio else {
        return "— (no cell with an interval)".into();
    };
    verdict_text(&Comparison {
        implementation: r.implementation.clone(),
        baseline: reference.to_string(),
        operation: String::new(),
        params: Default::default(),
        ratio,
        ci_low: r.ci_low,
        ci_high: r.ci_high,
        verdict: r.verdict,
        paired: false,
        n: r.cells,
        levels: Levels::default(),
        minimum_detectable: None,
        settle_runs: None,
        note: None,
        reason: None,
        paired_medians: None,
        metric: Default::default(),
        load_dependent: None,
    })
}

/// A ratio as a factor: "96.6x faster", "1.27x slower".
fn factor(r: f64) -> String {
    if r < 1.0 {
        format!("{} faster", text::ratio(1.0 / r))
    } else {
        format!("{} slower", text::ratio(r))
    }
}

/// "96.6x faster … 1.27x slower": the smallest and largest ratio in the mean.
fn spread_text(r: &OverallRow) -> String {
    match (r.ratio_min, r.ratio_max) {
        (Some(lo), Some(hi)) if lo == hi => factor(lo),
        (Some(lo), Some(hi)) => format!("{} … {}", factor(lo), factor(hi)),
        _ => "—".into(),
    }
}

/// The table; `None` without a summary.
pub(crate) fn table(results: &Results) -> Option<Table> {
    let o = results.overall.as_ref()?;
    let rows = o
        .implementations
        .iter()
        .map(|r| {
            vec![
                r.implementation.clone(),
                mean_text(r, &o.reference),
                format!("{} of {}", r.cells, r.faster + r.slower + r.same + r.unknown),
                spread_text(r),
                r.faster.to_string(),
                r.slower.to_string(),
                r.same.to_string(),
                r.unknown.to_string(),
            ]
        })
        .collect();
    let mut notes = vec![format!(
        "Geometric mean of each implementation's time ratios against {} over the cells with a {:.0}% interval and neither side's runs unstable (bimodal or widely spread; a cell that never reached a steady state still counts, and the no_steady_state warning names it); its interval combines theirs (log scale, in quadrature: the cells are the suite's grid, not a sample of workloads). Counts are of every comparison's verdict, as the tables give them.",
        o.reference,
        results.analysis.confidence * 100.0
    )];
    if !o.named {
        notes.push(format!(
            "The suite names no baseline: the overall ratios are against its first implementation, {}, while the tables' are against each group's fastest.",
            o.reference
        ));
    }
    let left_out: Vec<String> = o
        .implementations
        .iter()
        .filter(|r| r.no_interval + r.unstable + r.carry_over > 0)
        .map(|r| {
            let carry = if r.carry_over > 0 {
                format!(", {} with a carry-over that could change the verdict", r.carry_over)
            } else {
                String::new()
            };
            format!(
                "{}: {} without an interval (below 6 runs), {} unstable{carry}",
                r.implementation, r.no_interval, r.unstable
            )
        })
        .collect();
    if !left_out.is_empty() {
        notes.push(format!("Left out of the mean: {}.", left_out.join("; ")));
    }
    Some(Table {
        kind: TableKind::Overall,
        title: format!("Each implementation against {} over the whole suite", o.reference),
        header: [
            "implementation",
            "geometric mean",
            "cells in mean",
            "range over those cells",
            "faster",
            "slower",
            "same",
            "unknown",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        labels: 1,
        runs: vec![],
        notes,
    })
}

/// Each operation's own mean, a column per operation, when some
/// implementation's operations disagree in direction (`Overall::by_operation`):
/// what a reader should take instead of the whole-suite mean.
pub(crate) fn by_operation_table(results: &Results) -> Option<Table> {
    let o = results.overall.as_ref()?;
    if o.by_operation.is_empty() {
        return None;
    }
    let rows = o
        .implementations
        .iter()
        .map(|r| {
            let per_op = o.by_operation.iter().map(|op| {
                op.implementations
                    .iter()
                    .find(|x| x.implementation == r.implementation)
                    .map_or_else(|| "—".into(), |x| mean_text(x, &o.reference))
            });
            std::iter::once(r.implementation.clone()).chain(per_op).collect()
        })
        .collect();
    Some(Table {
        kind: TableKind::Overall,
        title: format!(
            "Each implementation against {} per operation (the operations disagree in direction, so one mean over the suite would average opposite answers)",
            o.reference
        ),
        header: std::iter::once("implementation".to_string())
            .chain(o.by_operation.iter().map(|op| op.operation.clone()))
            .collect(),
        rows,
        labels: 1,
        runs: vec![],
        notes: vec![],
    })
}
