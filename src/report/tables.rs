//! The tables every text report shows, built once from a `Results` document
//! and rendered by the Markdown and terminal reporters. Formatting only: the
//! numbers are the ones `analysis` put in the document.

use indexmap::IndexMap;

use crate::outcome::Outcome;
use crate::plan::{Params, params_key};
use crate::results::{Cell, Comparison, Results, Verdict};
use crate::units::{format_bytes, format_nanos, format_throughput};

/// What a table shows, so each reporter can pick the ones it has room for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    Time,
    Ratio,
    Throughput,
    Memory,
    /// One row per implementation (suites without parameters).
    Summary,
    Info,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub kind: TableKind,
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// What a cell shows in place of a number when it is not ok.
fn not_ok(cell: &Cell) -> String {
    cell.outcome.label().to_string()
}

fn time_text(cell: &Cell) -> String {
    match &cell.stats {
        Some(s) => match s.stddev_ns {
            Some(sd) => format!("{} ± {}", format_nanos(s.median_ns), format_nanos(sd)),
            None => format_nanos(s.median_ns),
        },
        None => not_ok(cell),
    }
}

fn ratio_text(results: &Results, cell: &Cell) -> String {
    if cell.outcome != Outcome::Ok {
        return not_ok(cell);
    }
    results
        .comparisons
        .iter()
        .find(|c| c.implementation == cell.implementation && c.operation == cell.operation && c.params == cell.params)
        .map_or_else(|| "—".to_string(), verdict_text)
}

/// "1.27x slower [1.21, 1.33]", "1.25x faster [1.20, 1.31]", "≈ 1.01 [0.98, 1.03]", "baseline".
/// A faster ratio is shown inverted, so the factor always reads as "times".
pub fn verdict_text(c: &Comparison) -> String {
    let interval = |lo: Option<f64>, hi: Option<f64>| match (lo, hi) {
        (Some(lo), Some(hi)) => format!(" [{lo:.2}, {hi:.2}]"),
        _ => String::new(),
    };
    match c.verdict {
        Verdict::Baseline => "baseline".into(),
        Verdict::Slower => format!("{:.2}x slower{}", c.ratio, interval(c.ci_low, c.ci_high)),
        Verdict::Faster => {
            format!(
                "{:.2}x faster{}",
                1.0 / c.ratio,
                interval(c.ci_high.map(|h| 1.0 / h), c.ci_low.map(|l| 1.0 / l))
            )
        }
        // A large ratio the test could not confirm (too few runs, too much noise)
        // must not read as "about equal".
        Verdict::Indistinguishable if (c.ratio.ln()).abs() > 0.05 => {
            format!("{:.2}x, not significant{}", c.ratio, interval(c.ci_low, c.ci_high))
        }
        Verdict::Indistinguishable => format!("≈ {:.2}{}", c.ratio, interval(c.ci_low, c.ci_high)),
    }
}

/// The parameter that becomes table rows: `size` when there is one, else the first.
pub fn row_param(results: &Results) -> Option<String> {
    if results.matrix.contains_key("size") {
        Some("size".into())
    } else {
        results.matrix.keys().next().cloned()
    }
}

pub fn implementations(results: &Results) -> Vec<String> {
    let mut names: Vec<String> = results.environment.implementations.keys().cloned().collect();
    for c in &results.cells {
        if !names.contains(&c.implementation) {
            names.push(c.implementation.clone());
        }
    }
    names.retain(|n| results.cells.iter().any(|c| &c.implementation == n));
    names
}

/// The cells of one operation that share every parameter but the row
/// parameter: what one table (or chart) shows.
pub struct Subset<'r> {
    pub operation: String,
    /// "armor=true, level=9": the other parameters' values; empty when there are none.
    pub label: String,
    pub cells: Vec<&'r Cell>,
}

/// Every operation's cells split into subsets, in report order.
pub fn subsets(results: &Results) -> Vec<Subset<'_>> {
    let row = row_param(results);
    let mut out = Vec::new();
    for op in &results.operations {
        let mut by_rest: IndexMap<String, Vec<&Cell>> = IndexMap::new();
        for c in results.cells.iter().filter(|c| &c.operation == op) {
            let rest: Params = c
                .params
                .iter()
                .filter(|(k, _)| Some(*k) != row.as_ref())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            by_rest.entry(params_key(&rest)).or_default().push(c);
        }
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
pub fn result_tables(results: &Results) -> Vec<(String, Vec<Table>)> {
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

/// The tables of one subset.
pub fn subset_tables(results: &Results, subset: &Subset) -> Vec<Table> {
    let impls = implementations(results);
    let Some(row) = row_param(results) else {
        return vec![summary_table(results, &subset.cells)];
    };
    let against = results
        .suite
        .baseline
        .clone()
        .unwrap_or_else(|| "the fastest".to_string());
    let ratio_title = format!(
        "Relative to {against}: time ratio with its {:.0}% interval (≈: no difference of at least {} at α = {})",
        results.analysis.confidence * 100.0,
        format_args!("{}%", results.analysis.noise * 100.0),
        results.analysis.alpha
    );
    let mut tables = Vec::new();
    let suffix = if subset.label.is_empty() {
        String::new()
    } else {
        format!(" — {}", subset.label)
    };
    let row_of = |c: &Cell| c.params.get(&row).map_or(String::new(), |v| v.to_string());
    let mut row_values: Vec<String> = Vec::new();
    for c in &subset.cells {
        if !row_values.contains(&row_of(c)) {
            row_values.push(row_of(c));
        }
    }
    let find = |rv: &str, imp: &str| {
        subset
            .cells
            .iter()
            .copied()
            .find(|c| c.implementation == imp && row_of(c) == rv)
    };
    let build = |kind: TableKind, title: String, f: &dyn Fn(&Cell) -> String| Table {
        kind,
        title,
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
    tables.push(build(
        TableKind::Time,
        format!("Wall time, median ± standard deviation{suffix}"),
        &time_text,
    ));
    tables.push(build(TableKind::Ratio, format!("{ratio_title}{suffix}"), &|c| {
        ratio_text(results, c)
    }));
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
            format!("Peak resident memory of the process tree (largest run){suffix}"),
            &|c| match &c.stats {
                Some(s) => s.max_rss_bytes.map_or_else(|| "n/a (in-process)".into(), format_bytes),
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

/// Without parameters there is one row per implementation, hyperfine-style.
fn summary_table(results: &Results, cells: &[&Cell]) -> Table {
    let header = [
        "implementation",
        "median ± σ",
        "mean",
        "min",
        "max",
        "user",
        "sys",
        "peak RSS",
        "ratio",
    ];
    Table {
        kind: TableKind::Summary,
        title: "Wall time".into(),
        header: header.iter().map(|h| h.to_string()).collect(),
        rows: cells
            .iter()
            .map(|c| {
                let mut row = vec![c.implementation.clone(), time_text(c)];
                match &c.stats {
                    Some(s) => row.extend([
                        format_nanos(s.mean_ns),
                        format_nanos(s.min_ns),
                        format_nanos(s.max_ns),
                        s.median_user_ns.map_or_else(|| "—".into(), format_nanos),
                        s.median_sys_ns.map_or_else(|| "—".into(), format_nanos),
                        s.max_rss_bytes.map_or_else(|| "—".into(), format_bytes),
                    ]),
                    None => row.extend(std::iter::repeat_n(String::new(), 6)),
                }
                row.push(ratio_text(results, c));
                row
            })
            .collect(),
    }
}

/// `versus diff`: one row per cell in both files.
pub fn diff_table(d: &crate::diff::Diff) -> Table {
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), format_nanos);
    let mut rows: Vec<Vec<String>> = d
        .rows
        .iter()
        .map(|r| {
            let (change, verdict) = match &r.change {
                Some(c) => {
                    let pct = |x: f64| format!("{:+.1}%", (x - 1.0) * 100.0);
                    let interval = match (c.ci_low, c.ci_high) {
                        (Some(lo), Some(hi)) => format!(" [{}, {}]", pct(lo), pct(hi)),
                        _ => String::new(),
                    };
                    (format!("{}{interval}", pct(c.ratio)), verdict_text(c))
                }
                None => ("—".into(), r.note.clone().unwrap_or_default()),
            };
            vec![r.id.clone(), fmt(r.old), fmt(r.new), change, verdict]
        })
        .collect();
    if let Some(g) = d.geomean {
        rows.push(vec![
            "geomean".into(),
            String::new(),
            String::new(),
            format!("{:+.1}%", (g - 1.0) * 100.0),
            String::new(),
        ]);
    }
    Table {
        kind: TableKind::Summary,
        title: "Median time per cell, old → new (change with its 95% interval; unpaired)".into(),
        header: ["cell", "old", "new", "change", "verdict"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    }
}

pub fn environment_table(results: &Results) -> Table {
    let e = &results.environment;
    let rows = vec![
        ("CPU", e.cpu_model.clone()),
        ("Cores", e.cores.to_string()),
        ("Memory", format_bytes(e.memory_bytes)),
        ("OS", e.os.clone()),
        ("Kernel", e.kernel.clone()),
        (
            "Load average at start",
            e.load_average.map_or("unknown".into(), |l| format!("{l:.2}")),
        ),
        (
            "CPU governor",
            e.cpu_governor.clone().unwrap_or_else(|| "not readable".into()),
        ),
        ("Memory limits enforced by", e.memory_limit_mechanism.clone()),
        ("versus", e.versus_version.clone()),
    ];
    Table {
        kind: TableKind::Info,
        title: "Environment".into(),
        header: vec!["".into(), "".into()],
        rows: rows.into_iter().map(|(k, v)| vec![k.to_string(), v]).collect(),
    }
}

pub fn versions_table(results: &Results) -> Table {
    Table {
        kind: TableKind::Info,
        title: "Implementations".into(),
        header: vec!["implementation".into(), "version".into(), "note".into()],
        rows: results
            .environment
            .implementations
            .iter()
            .map(|(name, info)| {
                vec![
                    name.clone(),
                    info.version.clone().unwrap_or_else(|| "(not given)".into()),
                    info.note.clone().unwrap_or_default(),
                ]
            })
            .collect(),
    }
}

/// Cells that are not ok, with why.
pub fn outcome_rows(results: &Results) -> Vec<String> {
    results
        .cells
        .iter()
        .filter(|c| c.outcome != Outcome::Ok)
        .map(|c| {
            let p = params_key(&c.params);
            let at = if p.is_empty() { String::new() } else { format!(" [{p}]") };
            format!(
                "{} {}{at}: {} — {}",
                c.implementation,
                c.operation,
                c.outcome.label(),
                c.message.clone().unwrap_or_default()
            )
        })
        .collect()
}
