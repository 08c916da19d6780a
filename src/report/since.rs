//! The "change since" table: each cell of this run against the same cell of
//! an earlier run from the history store (`Results::since`), with the change's
//! interval and verdict as `versus diff` shows them. Formatting only.

use crate::report::tables::{Table, TableKind};
use crate::results::{Results, Verdict};

fn pct(x: f64) -> String {
    format!("{:+.1}%", (x - 1.0) * 100.0)
}

/// The table, or None when the document has no earlier run to compare with.
pub fn table(results: &Results) -> Option<Table> {
    let since = results.since.as_ref().filter(|s| !s.changes.is_empty())?;
    // A view in another metric (`results::metric::view`) formats its own figures.
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| results.view.format(x));
    let rows = since
        .changes
        .iter()
        .map(|c| {
            let change = match (c.ratio, c.ci_low, c.ci_high) {
                (Some(r), Some(lo), Some(hi)) => format!("{} [{}, {}]", pct(r), pct(lo), pct(hi)),
                (Some(r), _, _) => pct(r),
                _ => "—".into(),
            };
            let verdict = match c.verdict {
                Some(Verdict::Slower) => "slower".to_string(),
                Some(Verdict::Faster) => "faster".to_string(),
                Some(_) => "≈ same".to_string(),
                None => c.note.clone().unwrap_or_default(),
            };
            vec![
                c.id.clone(),
                fmt(c.old_median_ns),
                fmt(c.new_median_ns),
                change,
                verdict,
            ]
        })
        .collect();
    Some(Table {
        notes: vec![],
        kind: TableKind::Summary,
        title: format!(
            "Change since {} (run {}, {}): median {} per call, change with its 95% interval (unpaired)",
            since.label,
            since.run_id,
            since.started_at,
            results.view.noun()
        ),
        labels: 1,
        runs: vec![],
        header: ["cell", "then", "now", "change since", "verdict"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    })
}
