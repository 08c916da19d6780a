//! The tables every text report shows, built once from a `Results` document
//! and rendered by the Markdown and terminal reporters. Formatting only: the
//! numbers are the ones `analysis` put in the document.

mod cells;
pub(super) mod compact;
pub(super) mod layout;
pub(super) mod paired;
pub(super) mod services;

pub(super) use cells::*;

use indexmap::IndexMap;

use crate::base::metric::Metric;
use crate::base::outcome::Outcome;
use crate::base::params::Params;
use crate::base::params::params_key;
use crate::base::units::{format_bytes, format_throughput};
use crate::results::{Cell, Results};

/// What a table shows, so each reporter can pick the ones it has room for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    Time,
    /// The fastest and slowest run: min … max.
    Range,
    /// Median user and system CPU time.
    Cpu,
    Ratio,
    Throughput,
    Memory,
    /// One row per implementation (suites without parameters).
    Summary,
    /// Each implementation against the reference over the whole suite.
    Overall,
    Info,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub kind: TableKind,
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// How many leading columns are labels (left-aligned) rather than figures.
    pub labels: usize,
    /// Measured runs behind each row ("10", or "8–10" when its cells
    /// differ); empty when the table has no such column. The terminal shows
    /// it as the column `n`; Markdown leaves it out (its tables state the
    /// runs in the method sentence).
    pub runs: Vec<String>,
    /// Sentences every reporter prints under the table (why two figures
    /// beside each other were computed over different runs).
    pub notes: Vec<String>,
}

/// The parameter that becomes table rows: `size` when there is one, else the first.
pub(super) fn row_param(results: &Results) -> Option<String> {
    if results.matrix.contains_key("size") {
        Some("size".into())
    } else {
        results.matrix.keys().next().cloned()
    }
}

/// The cells of one operation that share every parameter but the row
/// parameter: what one table (or chart) shows.
pub(super) struct Subset<'r> {
    pub operation: String,
    /// "armor=true, level=9": the other parameters' values; empty when there are none.
    pub label: String,
    pub cells: Vec<&'r Cell>,
}

/// Every operation's cells split into subsets, in report order.
pub(super) fn subsets(results: &Results) -> Vec<Subset<'_>> {
    let row = row_param(results);
    // One pass over the cells, then the operations in suite order.
    let mut by_operation: std::collections::HashMap<&str, IndexMap<String, Vec<&Cell>>> =
        std::collections::HashMap::new();
    for c in &results.cells {
        let rest: Params = c
            .params
            .iter()
            .filter(|(k, _)| Some(*k) != row.as_ref())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        by_operation
            .entry(c.operation.as_str())
            .or_default()
            .entry(params_key(&rest))
            .or_default()
            .push(c);
    }
    let mut out = Vec::new();
    for op in &results.operations {
        let by_rest = by_operation.remove(op.as_str()).unwrap_or_default();
        out.extend(by_rest.into_iter().map(|(rest, cells)| Subset {
            operation: op.clone(),
            label: rest.replace(',', ", "),
            cells,
        }));
    }
    out
}

/// Per operation (and per combination of the parameters other than the row
/// parameter): a time table, a ratio table and, where they apply, throughput,
/// memory and allocation tables.
pub(super) fn result_tables(results: &Results) -> Vec<(String, Vec<Table>)> {
    let mut sections: Vec<(String, Vec<Table>)> = Vec::new();
    for subset in subsets(results) {
        if sections.last().is_none_or(|(op, _)| *op != subset.operation) {
            sections.push((subset.operation.clone(), vec![]));
        }
        sections
            .last_mut()
            .expect("pushed above")
            .1
            .extend(subset_tables(results, &subset));
    }
    sections
}

/// The title of a ratio table: against what, the interval, the noise floor.
fn ratio_title(results: &Results) -> String {
    let against = results.suite.baseline.clone().unwrap_or_else(|| match results.view {
        Metric::Wall => "the fastest".to_string(),
        Metric::Instructions => "the one with the fewest".to_string(),
    });
    if results.view == Metric::Instructions {
        return format!(
            "Relative to {against}: instruction ratio with its {:.0}% interval (≈: the same within ±{noise}%, or within the counts' own repeatability where that is wider; unknown: the interval reaches past it)",
            results.analysis.confidence * 100.0,
            noise = results.analysis.noise * 100.0,
        );
    }
    format!(
        "Relative to {against}: time ratio with its {:.0}% interval (≈: the same within ±{noise}%; unknown: the interval reaches past ±{noise}%)",
        results.analysis.confidence * 100.0,
        noise = results.analysis.noise * 100.0,
    )
}

/// The tables of one subset.
pub(super) fn subset_tables(results: &Results, subset: &Subset) -> Vec<Table> {
    let impls = results.implementations_that_ran();
    let Some(row) = row_param(results) else {
        return vec![summary_table(results, &subset.cells)];
    };
    let ratio_title = ratio_title(results);
    let mut tables = Vec::new();
    let suffix = if subset.label.is_empty() {
        String::new()
    } else {
        format!(" — {}", subset.label)
    };
    let row_of = |c: &Cell| c.params.get(&row).map_or(String::new(), |v| v.to_string());
    let by_row = Rows::of(&subset.cells, &row_of);
    let row_values = &by_row.values;
    let find = |rv: &str, imp: &str| by_row.cell(rv, imp);
    let row_runs = |rv: &str| runs_text(impls.iter().filter_map(|imp| find(rv, imp)));
    let build = |kind: TableKind, title: String, f: &dyn Fn(&Cell) -> String| Table {
        notes: vec![],
        kind,
        title,
        labels: 1,
        runs: if matches!(
            kind,
            TableKind::Time | TableKind::Ratio | TableKind::Range | TableKind::Cpu
        ) {
            row_values.iter().map(|rv| row_runs(rv)).collect()
        } else {
            vec![]
        },
        header: std::iter::once(row.clone()).chain(impls.iter().cloned()).collect(),
        rows: row_values
            .iter()
            .map(|rv| {
                std::iter::once(rv.clone())
                    .chain(impls.iter().map(|imp| find(rv, imp).map_or_else(String::new, f)))
                    .collect()
            })
            .collect(),
    };
    tables.extend(time_tables(subset, &suffix, &build, results.view));
    let mut ratios = build(TableKind::Ratio, format!("{ratio_title}{suffix}"), &|c| {
        ratio_text(results, c)
    });
    if results.view == Metric::Wall {
        ratios.notes.extend(paired_note(results, &subset.cells, &|c| row_of(c)));
    }
    tables.push(ratios);
    tables.extend(size_tables(subset, &suffix, &build));
    tables.extend(services::cell_tables(results, &subset.cells, &suffix, &build));
    tables
}

/// The note under a ratio table when some ratio rests on fewer runs than
/// the medians beside it (`paired`); `row` labels a cell's row.
fn paired_note(results: &Results, cells: &[&Cell], row: &dyn Fn(&Cell) -> String) -> Option<String> {
    let rows: Vec<_> = cells
        .iter()
        .filter_map(|c| {
            let k = results.comparison_of(c)?;
            let m = k.paired_medians.clone()?;
            Some((row(c), c.implementation.clone(), k.baseline.clone(), m))
        })
        .collect();
    crate::report::tables::paired::note(&rows)
}

/// Time per call (median ± standard deviation), its range (fastest …
/// slowest run) and, for processes, the median user / system CPU time.
fn time_tables(subset: &Subset, suffix: &str, build: &services::TableBuilder, metric: Metric) -> Vec<Table> {
    let per_call = subset
        .cells
        .iter()
        .all(|c| !c.samples.iterations.is_empty() || c.samples.is_empty());
    let (figure, range) = match (metric, per_call) {
        (Metric::Instructions, true) => ("Instructions per call", "Range, fewest … most per call"),
        (Metric::Instructions, false) => ("Instructions per run", "Range, fewest … most in a run"),
        (Metric::Wall, true) => ("Time per call", "Range, fastest … slowest run"),
        (Metric::Wall, false) => ("Wall time", "Range, fastest … slowest run"),
    };
    let mut tables = vec![
        build(
            TableKind::Time,
            format!("{figure}, median ± standard deviation{suffix}"),
            &|c| time_text(c, metric),
        ),
        build(TableKind::Range, format!("{range}{suffix}"), &|c| range_text(c, metric)),
    ];
    if subset
        .cells
        .iter()
        .any(|c| c.stats.as_ref().is_some_and(|s| s.median_user_ns.is_some()))
    {
        tables.push(build(
            TableKind::Cpu,
            format!("CPU time, median user / system (of the process tree){suffix}"),
            &cpu_text,
        ));
    }
    tables
}

/// Throughput, peak memory and allocation, where some cell has them.
fn size_tables(subset: &Subset, suffix: &str, build: &services::TableBuilder) -> Vec<Table> {
    let mut tables = Vec::new();
    let any = |f: &dyn Fn(&crate::results::Stats) -> bool| subset.cells.iter().any(|c| c.stats.as_ref().is_some_and(f));
    if any(&|s| s.throughput_bytes_per_s.is_some()) {
        tables.push(build(
            TableKind::Throughput,
            format!("Throughput at the median{suffix}"),
            &|c| {
                c.stats
                    .as_ref()
                    .and_then(|s| s.throughput_bytes_per_s)
                    .map_or_else(|| not_ok(c), format_throughput)
            },
        ));
    }
    if any(&|s| s.max_rss_bytes.is_some()) {
        tables.push(build(
            TableKind::Memory,
            memory_title(subset, suffix),
            &|c| match &c.stats {
                Some(s) => s
                    .max_rss_bytes
                    .map_or_else(|| "n/a (in-process)".into(), |b| rss_text(b, s.max_rss_at_most)),
                None => not_ok(c),
            },
        ));
    }
    if any(&|s| s.alloc_bytes_per_call.is_some()) {
        tables.push(build(
            TableKind::Memory,
            format!("Allocated per call, where the runtime counts it{suffix}"),
            &|c| match &c.stats {
                Some(s) => s
                    .alloc_bytes_per_call
                    .map_or_else(|| "not counted".into(), |b| format_bytes(b.round() as u64)),
                None => not_ok(c),
            },
        ));
    }
    tables
}

/// The peak-memory table's title: what the figure is the peak of.
fn memory_title(subset: &Subset, suffix: &str) -> String {
    if subset
        .cells
        .iter()
        .all(|c| c.samples.worker_max_rss_bytes.is_some() || c.stats.is_none())
    {
        format!("Peak resident memory of the worker process over the cell, runtime included{suffix}")
    } else {
        format!(
            "Peak resident memory of the process tree (≤: an upper bound, where no run could measure it exactly){suffix}"
        )
    }
}

/// A table's cells by row: the row values in first-seen order, each row's
/// cells in document order, and each row's first cell of every
/// implementation. Made once per table, so a table of 10,000 rows does
/// not look through its cells once per row and column.
pub(crate) struct Rows<'c> {
    pub values: Vec<String>,
    rows: std::collections::HashMap<String, Row<'c>>,
}

#[derive(Default)]
struct Row<'c> {
    cells: Vec<&'c Cell>,
    by_implementation: std::collections::HashMap<&'c str, &'c Cell>,
}

impl<'c> Rows<'c> {
    pub(super) fn of(cells: &[&'c Cell], row_of: &dyn Fn(&Cell) -> String) -> Rows<'c> {
        let mut values = Vec::new();
        let mut rows: std::collections::HashMap<String, Row<'c>> = std::collections::HashMap::new();
        for c in cells {
            let value = row_of(c);
            let row = rows.entry(value.clone()).or_insert_with(|| {
                values.push(value);
                Row::default()
            });
            row.cells.push(c);
            row.by_implementation.entry(c.implementation.as_str()).or_insert(c);
        }
        Rows { values, rows }
    }

    /// The row's cells, in document order.
    pub(super) fn cells(&self, value: &str) -> &[&'c Cell] {
        self.rows.get(value).map_or(&[], |r| &r.cells)
    }

    /// The row's first cell of `implementation`.
    pub(super) fn cell(&self, value: &str, implementation: &str) -> Option<&'c Cell> {
        self.rows.get(value)?.by_implementation.get(implementation).copied()
    }
}

/// Without parameters there is one row per implementation, hyperfine-style.
/// Columns that no cell has a figure for (CPU and memory of in-process
/// cells, calls per second of processes) are left out.
fn summary_table(results: &Results, cells: &[&Cell]) -> Table {
    type Column<'a> = (String, Box<dyn Fn(&Cell) -> String + 'a>);
    let stat = |f: fn(&crate::results::Stats) -> Option<String>| {
        move |c: &Cell| {
            c.stats
                .as_ref()
                .map_or_else(String::new, |s| f(s).unwrap_or_else(|| "—".into()))
        }
    };
    let has = |f: fn(&crate::results::Stats) -> bool| cells.iter().any(|c| c.stats.as_ref().is_some_and(f));
    let in_process = cells.iter().any(|c| !c.samples.iterations.is_empty());
    let metric = results.view;
    let mut columns: Vec<Column> = vec![
        ("implementation".into(), Box::new(|c: &Cell| c.implementation.clone())),
        ("median ± σ".into(), Box::new(move |c: &Cell| time_text(c, metric))),
    ];
    if in_process && metric == Metric::Wall {
        columns.push(("calls/s [95% CI]".into(), Box::new(rate_text)));
    }
    let figure = move |v: f64| Some(metric.format(v));
    columns.push(("mean".into(), Box::new(stat_with(move |s| figure(s.mean_ns)))));
    columns.push(("min".into(), Box::new(stat_with(move |s| figure(s.min_ns)))));
    columns.push(("max".into(), Box::new(stat_with(move |s| figure(s.max_ns)))));
    if has(|s| s.median_user_ns.is_some()) {
        columns.push(("user".into(), Box::new(stat(|s| s.median_user_ns.map(cpu_time)))));
        columns.push(("sys".into(), Box::new(stat(|s| s.median_sys_ns.map(cpu_time)))));
    }
    if has(|s| s.max_rss_bytes.is_some()) {
        columns.push((
            "peak RSS".into(),
            Box::new(stat(|s| s.max_rss_bytes.map(|b| rss_text(b, s.max_rss_at_most)))),
        ));
    }
    if has(|s| s.alloc_bytes_per_call.is_some()) {
        columns.push((
            "allocated/call".into(),
            Box::new(stat(|s| s.alloc_bytes_per_call.map(|b| format_bytes(b.round() as u64)))),
        ));
    }
    for service in services::metered(results, cells) {
        let cpu = service.clone();
        columns.push((
            format!("{service} CPU/call"),
            Box::new(move |c: &Cell| services::figure(c, &cpu, services::cpu_text)),
        ));
        columns.push((
            format!("{service} peak RSS"),
            Box::new(move |c: &Cell| services::figure(c, &service, services::peak_text)),
        ));
    }
    columns.push(("ratio".into(), Box::new(|c: &Cell| ratio_text(results, c))));
    let notes = match metric {
        Metric::Wall => paired_note(results, cells, &|_| String::new()).into_iter().collect(),
        _ => vec![],
    };
    Table {
        notes,
        kind: TableKind::Summary,
        title: match (metric, in_process) {
            (Metric::Instructions, true) => "Instructions per call".into(),
            (Metric::Instructions, false) => "Instructions per run".into(),
            (Metric::Wall, true) => "Time per call".into(),
            (Metric::Wall, false) => "Wall time".into(),
        },
        labels: 1,
        runs: cells.iter().map(|c| runs_text(std::iter::once(*c))).collect(),
        header: columns.iter().map(|(h, _)| h.clone()).collect(),
        rows: cells
            .iter()
            .map(|c| columns.iter().map(|(_, f)| f(c)).collect())
            .collect(),
    }
}

/// Cells that are not ok, with why.
pub(super) fn outcome_rows(results: &Results) -> Vec<String> {
    results
        .cells
        .iter()
        .filter(|c| c.outcome != Outcome::Ok)
        .map(|c| {
            format!(
                "{}: {} — {}",
                c.label(),
                c.outcome.label(),
                c.message.clone().unwrap_or_default()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sections::grid::{Mark, summary_grid};
    use crate::results::Verdict;

    fn fixture() -> Results {
        serde_json::from_str(include_str!("../../../tests/fixtures/hostile-results.json")).unwrap()
    }

    #[test]
    fn the_summary_has_a_row_per_compared_implementation_and_a_column_per_size() {
        let r = fixture();
        let grid = summary_grid(&r).unwrap();
        assert_eq!(grid.header, ["operation", "implementation", "1KB", "100KB"]);
        // The baseline (plain) has no row of its own; the other two have one each.
        let names: Vec<&str> = grid.rows.iter().map(|row| row[1].text.as_str()).collect();
        assert_eq!(names, ["<img src=x onerror=alert(1)>", "sleepy"]);
        assert!(grid.rows.iter().all(|row| row[0].text == "copy, note=<i>x</i>"));
        let hostile = &grid.rows[0];
        assert!(hostile[2..].iter().all(|c| c.mark == Mark::Slower));
        assert!(hostile[2].text.ends_with("x slower") && hostile[2].detail.starts_with('['));
        // A cell that did not finish shows its outcome in place of a ratio.
        let sleepy = &grid.rows[1];
        assert!(
            sleepy[2..]
                .iter()
                .all(|c| c.mark == Mark::NotOk && c.text == Outcome::Timeout.label())
        );
        // The Markdown form keeps every figure.
        let t = grid.table();
        assert_eq!(t.labels, 2);
        assert!(t.rows[0][2].contains("x slower ["));
    }

    #[test]
    fn an_unknown_never_reads_as_equal() {
        let mut c = fixture().comparisons[1].clone();
        c.verdict = Verdict::Unknown;
        c.ratio = 0.63;
        c.ci_low = Some(0.37);
        c.ci_high = Some(1.08);
        let (main, detail) = verdict_parts(&c);
        assert_eq!(main, "unknown 0.63");
        assert_eq!(detail, "[0.37, 1.08]");
        (c.ci_low, c.ci_high, c.n) = (None, None, 3);
        assert_eq!(verdict_text(&c), "unknown 0.63 (n=3, no interval)");
        c.verdict = Verdict::Same;
        (c.ratio, c.ci_low, c.ci_high) = (1.004, Some(0.998), Some(1.009));
        assert_eq!(verdict_text(&c), "≈ 1.004 [0.998, 1.009]");
    }

    #[test]
    fn without_parameters_the_summary_has_a_column_per_implementation() {
        let mut r = fixture();
        r.matrix.clear();
        r.cells
            .retain(|c| c.params.get("size").is_some_and(|v| v.to_string() == "1KB"));
        r.comparisons
            .retain(|c| c.params.get("size").is_some_and(|v| v.to_string() == "1KB"));
        for c in &mut r.cells {
            c.params.clear();
        }
        for c in &mut r.comparisons {
            c.params.clear();
        }
        let grid = summary_grid(&r).unwrap();
        assert_eq!(grid.labels, 1);
        assert_eq!(grid.header, ["operation", "<img src=x onerror=alert(1)>", "sleepy"]);
        assert_eq!(grid.rows.len(), 1);
        assert_eq!(grid.rows[0][1].mark, Mark::Slower);
        assert_eq!(grid.rows[0][2].mark, Mark::NotOk);
        // The per-operation table drops columns nobody has and shows no rate for processes.
        let t = &subset_tables(&r, &subsets(&r)[0])[0];
        assert!(!t.header.iter().any(|h| h.starts_with("calls/s")));
    }

    #[test]
    fn no_summary_without_two_implementations() {
        let mut r = fixture();
        r.cells.retain(|c| c.implementation == "plain");
        r.environment.implementations.retain(|k, _| k == "plain");
        assert!(summary_grid(&r).is_none());
    }
}
