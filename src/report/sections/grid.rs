//! The summary grid that opens every report: each implementation against
//! the baseline, per operation and parameter set, as a verdict with its
//! interval and a mark the HTML report colours by. Formatting only, over
//! the comparisons `analysis` computed.

use crate::base::outcome::Outcome;
use crate::report::tables::{Rows, Table, TableKind, not_ok, row_param, subsets, verdict_parts};
use crate::results::{Cell, Comparison, Results, Verdict};

/// How a summary cell reads at a glance; the HTML report colours by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Mark {
    Faster,
    Slower,
    Same,
    Unknown,
    Baseline,
    NotOk,
    Empty,
}

/// Every comparison of a run in one grid: a row per operation (with its other
/// parameters) and implementation, a column per value of the row parameter.
/// It is what a reader wants first — who is faster where, by how much, and
/// how sure — before the per-operation tables.
pub(crate) struct SummaryGrid {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<GridCell>>,
    /// Leading label columns: 2 (operation, implementation) with a row
    /// parameter, 1 (operation) without, when implementations are the columns.
    pub labels: usize,
}

/// One cell of the summary grid: the verdict, its evidence, and its mark.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(crate) struct GridCell {
    pub text: String,
    pub detail: String,
    pub mark: Mark,
}

impl GridCell {
    fn label(text: &str) -> Self {
        GridCell {
            text: text.to_string(),
            detail: String::new(),
            mark: Mark::Empty,
        }
    }
}

impl SummaryGrid {
    pub(crate) fn table(&self) -> Table {
        Table {
            notes: vec![],
            runs: vec![],
            kind: TableKind::Ratio,
            title: self.title.clone(),
            labels: self.labels,
            header: self.header.clone(),
            rows: self
                .rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|c| {
                            if c.detail.is_empty() {
                                c.text.clone()
                            } else {
                                format!("{} {}", c.text, c.detail)
                            }
                        })
                        .collect()
                })
                .collect(),
        }
    }
}

fn mark(cell: &Cell, comparison: Option<&Comparison>) -> Mark {
    if cell.outcome != Outcome::Ok {
        return Mark::NotOk;
    }
    match comparison.map(|c| c.verdict) {
        Some(Verdict::Faster) => Mark::Faster,
        Some(Verdict::Slower) => Mark::Slower,
        Some(Verdict::Same) => Mark::Same,
        Some(Verdict::Unknown) => Mark::Unknown,
        Some(Verdict::Baseline) => Mark::Baseline,
        None => Mark::Empty,
    }
}

/// The summary grid, or `None` when there is nothing to compare (one implementation).
pub(crate) fn summary_grid(results: &Results) -> Option<SummaryGrid> {
    let impls = results.implementations_that_ran();
    if impls.len() < 2 {
        return None;
    }
    let fixed = results.suite.baseline.as_deref();
    let (what, best) = match results.view {
        crate::base::metric::Metric::Wall => ("time", "the fastest of each cell"),
        crate::base::metric::Metric::Instructions => {
            ("instruction", "the one with the fewest instructions in each cell")
        }
    };
    let title = format!(
        "Against {}: {what} ratio with its {:.0}% interval",
        fixed.unwrap_or(best),
        results.analysis.confidence * 100.0
    );
    let grid_cell = |cell: Option<&&Cell>| {
        let Some(cell) = cell else {
            return GridCell::label("");
        };
        let comparison = results.comparison_of(cell);
        let (text, detail) = if cell.outcome != Outcome::Ok {
            (not_ok(cell), String::new())
        } else {
            comparison.map_or_else(|| ("—".to_string(), String::new()), verdict_parts)
        };
        GridCell {
            text,
            detail,
            mark: mark(cell, comparison),
        }
    };
    let compared: Vec<&String> = impls.iter().filter(|i| Some(i.as_str()) != fixed).collect();
    let Some(row) = row_param(results) else {
        // No parameters: one row per operation, a column per implementation.
        let mut header = vec!["operation".to_string()];
        header.extend(compared.iter().map(|i| i.to_string()));
        let rows = subsets(results)
            .iter()
            .map(|subset| {
                let mut r = vec![GridCell::label(&subset.operation)];
                let mut first: std::collections::HashMap<&str, &&Cell> = std::collections::HashMap::new();
                for c in &subset.cells {
                    first.entry(c.implementation.as_str()).or_insert(c);
                }
                r.extend(compared.iter().map(|imp| grid_cell(first.get(imp.as_str()).copied())));
                r
            })
            .collect();
        return Some(SummaryGrid {
            title,
            header,
            rows,
            labels: 1,
        });
    };
    let column_of = |c: &Cell| c.params.get(&row).map_or_else(String::new, |v| v.to_string());
    let all: Vec<&Cell> = results.cells.iter().collect();
    let columns = Rows::of(&all, &column_of).values;
    let mut rows = Vec::new();
    for subset in subsets(results) {
        let what = if subset.label.is_empty() {
            subset.operation.clone()
        } else {
            format!("{}, {}", subset.operation, subset.label)
        };
        // The subset's cells by implementation, then by column.
        let mut mine: std::collections::HashMap<&str, Vec<&Cell>> = std::collections::HashMap::new();
        for c in &subset.cells {
            mine.entry(c.implementation.as_str()).or_default().push(c);
        }
        for imp in &compared {
            let Some(cells) = mine.get(imp.as_str()) else {
                continue;
            };
            let by_column = Rows::of(cells, &column_of);
            let mut r = vec![GridCell::label(&what), GridCell::label(imp)];
            r.extend(columns.iter().map(|col| grid_cell(by_column.cell(col, imp).as_ref())));
            rows.push(r);
        }
    }
    let mut header = vec!["operation".to_string(), "implementation".to_string()];
    header.extend(columns);
    Some(SummaryGrid {
        title,
        header,
        rows,
        labels: 2,
    })
}
