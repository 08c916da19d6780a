//! The compact tables a report leads with, the shape the hand-made reports
//! use: one per operation (and value of its other parameters), a row per
//! size and a column per implementation, each cell the median with its
//! time against the reference. A suite without parameters gets one table
//! with a row per operation. Verdicts are marked, not spelled out: the
//! intervals are in the appendix's grid.

use super::{Rows, Subset, Table, TableKind, not_ok, row_param, subsets};
use crate::base::metric::Metric;
use crate::results::{Cell, FindingKind, Results, Verdict};

/// The mark of the confirmed fastest of a row.
pub const FASTEST: &str = "★";

/// The sentence under every compact table.
pub fn legend(results: &Results) -> String {
    let against = results
        .suite
        .baseline
        .clone()
        .unwrap_or_else(|| "the fastest".to_string());
    format!(
        "Median time; in brackets, its time over {against}'s (below 1: faster; ≈ the same, ? unknown); {FASTEST} confirmed fastest."
    )
}

/// One table per subset; one table in all when the suite has no parameters.
pub fn tables(results: &Results) -> Vec<Table> {
    if results.view != Metric::Wall {
        return vec![];
    }
    let impls = results.implementations_that_ran();
    let Some(row) = row_param(results) else {
        let cells: Vec<&Cell> = results.cells.iter().collect();
        let ops = results.operations.clone();
        let title = "Median time per call".to_string();
        return vec![build(results, &impls, "operation", title, &ops, &cells, &|c| {
            c.operation.clone()
        })];
    };
    subsets(results)
        .iter()
        .map(|s: &Subset| {
            let row_of = |c: &Cell| c.params.get(&row).map_or(String::new(), |v| v.to_string());
            let values = super::Rows::of(&s.cells, &row_of).values;
            let title = if s.label.is_empty() {
                s.operation.clone()
            } else {
                format!("{} — {}", s.operation, s.label)
            };
            build(results, &impls, &row, title, &values, &s.cells, &row_of)
        })
        .collect()
}

fn build(
    results: &Results,
    impls: &[String],
    row: &str,
    title: String,
    values: &[String],
    cells: &[&Cell],
    row_of: &dyn Fn(&Cell) -> String,
) -> Table {
    // An implementation that did not run in this table at all has no column here.
    let ran: std::collections::HashSet<&str> = cells
        .iter()
        .filter(|c| c.outcome != crate::base::outcome::Outcome::Skipped)
        .map(|c| c.implementation.as_str())
        .collect();
    let impls: Vec<String> = impls.iter().filter(|imp| ran.contains(imp.as_str())).cloned().collect();
    let by_row = Rows::of(cells, row_of);
    let rows = values
        .iter()
        .map(|v| {
            let fastest = confirmed_fastest(results, by_row.cells(v));
            std::iter::once(v.clone())
                .chain(impls.iter().map(|imp| {
                    by_row
                        .cell(v, imp)
                        .map_or_else(String::new, |c| figure(results, c, fastest.as_deref()))
                }))
                .collect()
        })
        .collect();
    Table {
        kind: TableKind::Time,
        title,
        header: std::iter::once(row.to_string()).chain(impls.iter().cloned()).collect(),
        rows,
        labels: 1,
        runs: vec![],
        notes: vec![],
    }
}

/// "5.46 ms (3.26x)", "57.7 ms" for the reference, the outcome when not ok.
fn figure(results: &Results, cell: &Cell, fastest: Option<&str>) -> String {
    let Some(s) = &cell.stats else {
        return not_ok(cell);
    };
    let mut out = Metric::Wall.format(s.median_ns);
    if let Some(k) = results.comparison_of(cell).filter(|k| k.verdict != Verdict::Baseline) {
        let mark = match k.verdict {
            Verdict::Same => "≈",
            Verdict::Unknown => "?",
            _ => "",
        };
        out.push_str(&format!(" ({}x{mark})", crate::base::units::three_digits(k.ratio)));
    }
    if fastest == Some(cell.implementation.as_str()) {
        out.push_str(&format!(" {FASTEST}"));
    }
    out
}

/// The implementation the findings confirm fastest among `cells` (one
/// group), if they do.
fn confirmed_fastest(results: &Results, cells: &[&Cell]) -> Option<String> {
    let first = cells.first()?;
    let bytes = first.payload_bytes.unwrap_or(0);
    results
        .findings
        .iter()
        .filter(|f| matches!(f.kind, FindingKind::Winner | FindingKind::Crossover))
        .filter(|f| f.operation == first.operation)
        .filter(|f| f.params.iter().all(|(k, v)| first.params.get(k) == Some(v)))
        .flat_map(|f| f.winners.iter().flatten())
        .find(|w| w.payload_bytes == bytes)
        .and_then(|w| w.implementation.clone())
}

/// The compact table the headline's first line is about (else the first).
pub fn lead_index(results: &Results, compact: &[Table]) -> Option<usize> {
    if compact.is_empty() {
        return None;
    }
    let Some(h) = results.headline.first() else {
        return Some(0);
    };
    let row = row_param(results);
    let title: Vec<String> = h
        .params
        .iter()
        .filter(|(k, _)| Some(*k) != row.as_ref())
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let want = if title.is_empty() {
        h.operation.clone()
    } else {
        format!("{} — {}", h.operation, title.join(", "))
    };
    Some(compact.iter().position(|t| t.title == want).unwrap_or(0))
}
