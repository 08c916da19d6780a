//! The compact tables a report leads with, the shape the hand-made reports
//! use: one per operation (and value of its other parameters), a row per
//! size and a column per implementation, each cell the median with its
//! time against the reference. A suite without parameters gets one table
//! with a row per operation. Verdicts are marked, not spelled out: the
//! intervals are in the appendix's grid.

use super::{Rows, Subset, Table, TableKind, not_ok, row_param, subsets};
use crate::base::metric::Metric;
use std::collections::HashMap;

use crate::base::params::ParamValue;
use crate::results::{Cell, Finding, FindingKind, Results, Verdict};

/// The mark of the confirmed fastest of a row.
pub(crate) const FASTEST: &str = "★";

/// The sentence under every compact table.
pub(crate) fn legend(results: &Results) -> String {
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
pub(crate) fn tables(results: &Results) -> Vec<Table> {
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
    let winners = Winners::of(results);
    let rows = values
        .iter()
        .map(|v| {
            let fastest = by_row.cells(v).first().and_then(|c| winners.fastest(c));
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

/// The winner and crossover findings, by operation and parameters, so each
/// row finds its own without reading them all (a table of 10,000 rows has
/// 10,000 of them, one a row).
struct Winners<'r> {
    /// (operation, the finding's parameters in name order) → the findings, in document order.
    by_key: HashMap<(&'r str, String), Vec<(usize, &'r Finding)>>,
    all: Vec<&'r Finding>,
}

/// The parameters as text in name order, whatever order they are kept in.
fn canonical<'p>(params: impl Iterator<Item = (&'p String, &'p ParamValue)>) -> String {
    let mut pairs: Vec<String> = params.map(|(k, v)| format!("{k}={v}")).collect();
    pairs.sort();
    pairs.join(",")
}

impl<'r> Winners<'r> {
    fn of(results: &'r Results) -> Winners<'r> {
        let all: Vec<&Finding> = results
            .findings
            .iter()
            .filter(|f| matches!(f.kind, FindingKind::Winner | FindingKind::Crossover))
            .collect();
        let mut by_key: HashMap<(&str, String), Vec<(usize, &Finding)>> = HashMap::new();
        for (i, f) in all.iter().enumerate() {
            by_key
                .entry((f.operation.as_str(), canonical(f.params.iter())))
                .or_default()
                .push((i, f));
        }
        Winners { by_key, all }
    }

    /// The implementation the first finding that covers `cell` (its
    /// operation, parameters it names with the cell's values) confirms
    /// fastest at the cell's size, if it does.
    fn fastest(&self, cell: &Cell) -> Option<String> {
        let bytes = cell.payload_bytes.unwrap_or(0);
        let covers =
            |f: &Finding| f.operation == cell.operation && f.params.iter().all(|(k, v)| cell.params.get(k) == Some(v));
        fn at(f: &Finding, bytes: u64) -> Option<&crate::results::SizeWinner> {
            f.winners.iter().flatten().find(|w| w.payload_bytes == bytes)
        }
        let at_size = |f: &'r Finding| at(f, bytes);
        let params: Vec<(&String, &ParamValue)> = cell.params.iter().collect();
        if params.len() > 8 {
            // Too many subsets of parameters to look up: read them all.
            let w = self.all.iter().copied().filter(|f| covers(f)).find_map(at_size)?;
            return w.implementation.clone();
        }
        // A finding covers the cell when its parameters are a subset of the
        // cell's: look each subset up, and keep the first finding in order.
        let mut first: Option<(usize, &Finding)> = None;
        for mask in 0u32..(1 << params.len()) {
            let subset = params.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0);
            let key = (cell.operation.as_str(), canonical(subset.map(|(_, p)| *p)));
            let Some(found) = self.by_key.get(&key) else { continue };
            let hit = found
                .iter()
                .find(|(i, f)| first.is_none_or(|(j, _)| i < &j) && covers(f) && at_size(f).is_some());
            if let Some(&(i, f)) = hit {
                first = Some((i, f));
            }
        }
        first.and_then(|(_, f)| at_size(f)?.implementation.clone())
    }
}

/// The compact table the headline's first line is about (else the first).
pub(crate) fn lead_index(results: &Results, compact: &[Table]) -> Option<usize> {
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

#[cfg(test)]
mod winner_tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::analysis::fixtures::{cell, document, runs};

    /// The rule as first written: every winner finding read for every row.
    fn fastest_by_reading_all(results: &Results, cell: &Cell) -> Option<String> {
        let bytes = cell.payload_bytes.unwrap_or(0);
        results
            .findings
            .iter()
            .filter(|f| matches!(f.kind, FindingKind::Winner | FindingKind::Crossover))
            .filter(|f| f.operation == cell.operation)
            .filter(|f| f.params.iter().all(|(k, v)| cell.params.get(k) == Some(v)))
            .flat_map(|f| f.winners.iter().flatten())
            .find(|w| w.payload_bytes == bytes)
            .and_then(|w| w.implementation.clone())
    }

    #[test]
    fn each_row_finds_the_winner_reading_them_all_finds() {
        let mut rng = ChaCha8Rng::seed_from_u64(51);
        let mut cells = Vec::new();
        for level in [1i64, 9] {
            for size in [1_000u64, 1_000_000] {
                for (name, k) in [("A", 1.0), ("B", 3.0), ("C", 0.9)] {
                    let extra = [("level", ParamValue::Int(level))];
                    let k = if level == 9 && name == "C" { 5.0 } else { k };
                    cells.push(cell(name, "op", size, &extra, runs(&mut rng, 1e6 * k, 0.01, 12)));
                }
            }
        }
        let mut r = document(cells);
        crate::analysis::analyze(&mut r, &[]);
        // Findings that cover more cells (no parameters, or one) and come
        // first or last, so the first in document order must win.
        let template = r
            .findings
            .iter()
            .find(|f| f.kind == FindingKind::Winner)
            .cloned()
            .expect("a winner");
        let mut broad = template.clone();
        broad.params.clear();
        for w in broad.winners.iter_mut().flatten() {
            w.implementation = Some("broad".into());
        }
        let mut narrow = template.clone();
        narrow.params.retain(|k, _| k == "level");
        for w in narrow.winners.iter_mut().flatten() {
            w.implementation = Some("narrow".into());
        }
        r.findings.push(broad.clone());
        r.findings.insert(0, narrow);
        let winners = Winners::of(&r);
        let mut named = 0;
        for c in &r.cells {
            let expected = fastest_by_reading_all(&r, c);
            named += usize::from(expected.is_some());
            assert_eq!(winners.fastest(c), expected, "{}", c.id);
        }
        assert!(named > 0, "some row has a confirmed fastest");
        // The broad finding first: it covers every cell.
        r.findings.insert(0, broad);
        let winners = Winners::of(&r);
        for c in &r.cells {
            assert_eq!(winners.fastest(c), fastest_by_reading_all(&r, c), "{}", c.id);
        }
    }
}
