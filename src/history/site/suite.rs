//! A suite's page: for each machine (never mixed), the newest run's report
//! linked, and per operation its implementations over the runs on one
//! chart — each one's ratio to the baseline, change points marked — with
//! the newest median of every size, each linking to its cell's page.

use super::chart::{self, Chart, Series};
use super::layout::{a, commit, page, table};
use super::paths;
use crate::base::sink::html;
use crate::base::text;
use crate::history::site::model::{self as model, CellHistory, SuiteHistory};

/// An operation with at most this many cells also gets each cell's median over the runs drawn.
const TIME_CHART_UP_TO: usize = 8;

fn ratio_chart(h: &SuiteHistory, op: &str) -> String {
    let Some(base) = h.baseline.as_deref() else {
        return String::new();
    };
    let lines = model::ratios(h, op, base);
    if lines.iter().all(|(_, points)| points.is_empty()) {
        return format!(
            "<p class=\"muted\">No run has a ratio to {} in this operation (it did not finish beside the others).</p>\n",
            html(base)
        );
    }
    let series: Vec<Series> = lines
        .into_iter()
        .map(|(label, points)| Series {
            label: format!("{label} / {base}"),
            points,
            band: vec![],
        })
        .collect();
    let marks = change_marks(h, op, |c| {
        series
            .iter()
            .position(|s| s.label.starts_with(&format!("{} /", c.implementation)))
    });
    let format = |r: f64| format!("×{r:.2}");
    let svg = chart::svg(&Chart {
        runs: h.runs.len(),
        series: &series,
        marks: &marks,
        format: &format,
        rule: Some(1.0),
    });
    format!(
        "<p>Each implementation's median over {}'s in the same run (geometric mean over sizes), run by run; dashed lines mark the runs where one of its cells changed.</p>\n{svg}{}",
        html(base),
        chart::legend(&series)
    )
}

/// The runs where a cell of `op` changed, with the series `which` gives it.
fn change_marks(h: &SuiteHistory, op: &str, which: impl Fn(&CellHistory) -> Option<usize>) -> Vec<(usize, usize)> {
    let mut marks = Vec::new();
    for c in h.cells.iter().filter(|c| c.operation == op) {
        if let Some(i) = which(c) {
            marks.extend(c.changes.iter().map(|ch| (c.points[ch.index].run, i)));
        }
    }
    marks.sort_unstable();
    marks.dedup();
    marks
}

fn time_chart(h: &SuiteHistory, op: &str) -> String {
    let cells: Vec<&CellHistory> = h.cells.iter().filter(|c| c.operation == op).collect();
    if cells.len() > TIME_CHART_UP_TO || h.runs.len() < 2 {
        return String::new();
    }
    let series: Vec<Series> = cells
        .iter()
        .map(|c| Series {
            label: format!("{} {}", c.implementation, c.params),
            points: c.points.iter().map(|p| (p.run, p.median_ns)).collect(),
            band: vec![],
        })
        .collect();
    let marks = change_marks(h, op, |c| cells.iter().position(|x| x.id == c.id));
    let svg = chart::svg(&Chart {
        runs: h.runs.len(),
        series: &series,
        marks: &marks,
        format: &text::time,
        rule: None,
    });
    format!(
        "<p>Median time per call, run by run.</p>\n{svg}{}",
        chart::legend(&series)
    )
}

/// The newest median of each size (rows) by implementation (columns), each a link to its cell.
fn sizes_table(from: &str, h: &SuiteHistory, op: &str) -> String {
    let cells: Vec<&CellHistory> = h.cells.iter().filter(|c| c.operation == op).collect();
    let mut impls: Vec<&str> = Vec::new();
    let mut params: Vec<&str> = Vec::new();
    for c in &cells {
        if !impls.contains(&c.implementation.as_str()) {
            impls.push(&c.implementation);
        }
        if !params.contains(&c.params.as_str()) {
            params.push(&c.params);
        }
    }
    let newest = h.runs.len().checked_sub(1);
    let rows: Vec<Vec<String>> = params
        .iter()
        .map(|p| {
            let mut row = vec![html(p)];
            for i in &impls {
                let cell = cells.iter().find(|c| c.params == *p && c.implementation == *i);
                row.push(cell.map_or_else(String::new, |c| {
                    let last = c.points.last().filter(|x| Some(x.run) == newest);
                    let shown = last.map_or_else(|| "not ok in the newest run".into(), |x| text::time(x.median_ns));
                    a(&paths::link(from, &paths::cell(&h.suite, &h.machine, &c.id)), &shown)
                }));
            }
            row
        })
        .collect();
    let header: Vec<&str> = std::iter::once("Size").chain(impls.iter().copied()).collect();
    let numeric: Vec<usize> = (1..header.len()).collect();
    table(&header, &rows, &numeric)
}

fn reports_list(from: &str, h: &SuiteHistory) -> String {
    let links: Vec<String> = h
        .reports
        .iter()
        .map(|id| a(&paths::link(from, &paths::report(*id)), &format!("run {id}")))
        .collect();
    format!(
        "<p>Reports of the last {} runs: {}</p>\n",
        h.reports.len(),
        links.join(", ")
    )
}

fn machine_section(from: &str, h: &SuiteHistory) -> String {
    let Some(run) = h.newest() else { return String::new() };
    let mut s = format!(
        "<h2>On {} — {}</h2>\n<p>{} runs. Newest: {}, started {}, commit {}. Its command: <code>{}</code></p>\n",
        html(h.hostname.as_deref().unwrap_or(&h.machine)),
        html(&h.cpu_model),
        h.runs.len(),
        a(
            &paths::link(from, &paths::report(run.id)),
            &format!("the report of run {}", run.id)
        ),
        html(&run.started_at),
        commit(run.git_commit.as_deref()),
        html(&h.command),
    );
    s.push_str(&reports_list(from, h));
    for op in h.operations() {
        s.push_str(&format!("<h3>{}</h3>\n", html(op)));
        s.push_str(&ratio_chart(h, op));
        s.push_str(&time_chart(h, op));
        s.push_str(&sizes_table(from, h, op));
    }
    s
}

/// The page of suite `name`, with its history on each machine.
pub(crate) fn render(name: &str, machines: &[&SuiteHistory]) -> String {
    let from = paths::suite(name);
    let body: String = machines.iter().map(|h| machine_section(&from, h)).collect();
    page(name, &[(paths::link(&from, paths::INDEX), "All suites".into())], &body)
}
