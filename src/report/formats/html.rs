//! `report.html`: one self-contained file — inline CSS and inline SVG charts,
//! no script, no fetch — rendered with `minijinja`, whose automatic HTML
//! escaping covers every string that comes from a suite (names, parameters,
//! version output, error text). Only the SVG, which `plotters` wrote and
//! escaped itself, is inserted as markup.

use minijinja::{Environment, Value, context};
use serde::Serialize;

use crate::base::outcome::Outcome;
use crate::report::charts;
use crate::report::sections::{lead, method};
use crate::report::tables;
use crate::results::{Results, RunStatus};

const TEMPLATE: &str = include_str!("report.html.j2");

#[derive(Serialize)]
struct TableView {
    title: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Leading text columns (left-aligned); the rest are figures.
    labels: usize,
    notes: Vec<String>,
}

impl From<tables::Table> for TableView {
    fn from(t: tables::Table) -> Self {
        let labels = if t.kind == tables::TableKind::Info {
            t.header.len()
        } else {
            t.labels.max(1)
        };
        let rows = t
            .rows
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .enumerate()
                    .map(|(k, cell)| if k < labels { cell } else { breakable(&cell) })
                    .collect()
            })
            .collect();
        TableView {
            title: t.title,
            header: t.header,
            rows,
            labels,
            notes: t.notes,
        }
    }
}

/// A figure cell's text, breakable only where a reader would break it: a
/// number keeps its unit ("8.82\u{a0}µs") and an interval stays whole
/// ("[1.10,\u{a0}1.34]"), so a wide table can wrap its cells to fit the
/// page instead of hiding its right-hand columns behind a scroll bar.
fn breakable(text: &str) -> String {
    const UNITS: [&str; 19] = [
        "ns", "µs", "ms", "s", "B", "KB", "MB", "GB", "KiB", "MiB", "GiB", "k", "M", "G", "KB/s", "MB/s", "GB/s",
        "M/s", "%",
    ];
    let is_unit = |w: &str| UNITS.contains(&w.trim_end_matches([',', ')', ']', ';']));
    let mut out = String::with_capacity(text.len() + 8);
    let (mut previous, mut open) = ("", 0i32);
    for (k, word) in text.split(' ').enumerate() {
        if k > 0 {
            let unit = previous.ends_with(|c: char| c.is_ascii_digit()) && is_unit(word);
            out.push(if open > 0 || unit { '\u{a0}' } else { ' ' });
        }
        open += word.matches('[').count() as i32 - word.matches(']').count() as i32;
        out.push_str(word);
        previous = word;
    }
    out
}

#[derive(Serialize)]
struct SubsetView {
    label: String,
    scaling: Option<Value>,
    relative: Option<Value>,
    /// Number of implementations drawn in the scaling chart (checked by the browser test).
    series: usize,
    tables: Vec<TableView>,
    distributions: Vec<Value>,
    /// Cells of the subset whose runs were not drawn (`charts::panels`).
    distributions_left: usize,
    /// The same subset in each other metric measured (instructions): its charts and tables.
    metric_charts: Vec<Value>,
    metric_tables: Vec<TableView>,
}

/// What a report shows of a metric other than time, above the operations.
#[derive(Serialize)]
struct MetricView {
    name: &'static str,
    findings: Vec<crate::report::sections::findings::Group>,
    summary: Option<GridView>,
    verdict_note: String,
    since: Option<TableView>,
}

#[derive(Serialize)]
struct SectionView {
    operation: String,
    subsets: Vec<SubsetView>,
}

#[derive(Serialize)]
struct GridView {
    labels: usize,
    title: String,
    header: Vec<String>,
    rows: Vec<Vec<crate::report::sections::grid::GridCell>>,
}

#[derive(Serialize)]
struct Problem {
    outcome: &'static str,
    text: String,
}

/// A serializable value for the template (safe SVG strings inside it stay safe).
fn ser<T: Serialize>(x: T) -> Value {
    Value::from(minijinja::value::Serde(x))
}

fn safe(svg: String) -> Value {
    Value::from_safe_string(svg)
}

/// The charts of every subset, for Markdown's SVG files: (file stem, SVG),
/// those of other metrics than time after time's ("…-instructions-scaling").
pub fn chart_files(results: &Results) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let views = crate::report::metric_views(results);
    let all = std::iter::once((None, results)).chain(views.iter().map(|(m, v)| (Some(*m), v)));
    for (metric, doc) in all {
        let row = tables::row_param(doc);
        let infix = metric.map_or_else(String::new, |m| format!("{}-", m.name()));
        for (i, s) in tables::subsets(doc).iter().enumerate() {
            let stem = format!("{}{infix}", chart_stem(i, &s.operation));
            if let Some(svg) = row.as_deref().and_then(|r| charts::scaling(doc, s, r)) {
                out.push((format!("{stem}scaling"), svg));
            }
            if let Some(svg) = charts::relative(doc, s, row.as_deref()) {
                out.push((format!("{stem}relative"), svg));
            }
        }
    }
    out
}

/// File-name stem shared by the charts of subset `i` (in `tables::subsets` order).
pub fn chart_stem(i: usize, operation: &str) -> String {
    format!("chart-{}-{}-", i + 1, sanitize(operation))
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .collect()
}

/// One section per operation: each subset's tables and charts, in time and
/// in each other metric (`views`).
fn sections(results: &Results, views: &[(crate::base::metric::Metric, Results)]) -> Vec<SectionView> {
    let row = tables::row_param(results);
    let view_subsets: Vec<_> = views.iter().map(|(_, v)| (v, tables::subsets(v))).collect();
    let mut sections: Vec<SectionView> = Vec::new();
    let subsets = tables::subsets(results);
    // One time axis per group (the implementations at one parameter set),
    // so the panels of a row compare at a glance; across sizes times differ
    // by orders of magnitude and would flatten each other.
    let panels = charts::panels::panels(&subsets, charts::panels::BUDGET_BYTES);
    for (i, s) in subsets.into_iter().enumerate() {
        if sections.last().is_none_or(|v| v.operation != s.operation) {
            sections.push(SectionView {
                operation: s.operation.clone(),
                subsets: vec![],
            });
        }
        let ts: Vec<TableView> = tables::subset_tables(results, &s)
            .into_iter()
            .map(TableView::from)
            .collect();
        let series = s
            .cells
            .iter()
            .filter(|c| c.stats.is_some())
            .map(|c| c.implementation.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let scaling = row.as_deref().and_then(|r| charts::scaling(results, &s, r));
        let (mut metric_charts, mut metric_tables) = (Vec::new(), Vec::new());
        for (view, subsets) in &view_subsets {
            let Some(vs) = subsets.get(i) else { continue };
            metric_charts.extend(row.as_deref().and_then(|r| charts::scaling(view, vs, r)).map(safe));
            metric_charts.extend(charts::relative(view, vs, row.as_deref()).map(safe));
            metric_tables.extend(tables::subset_tables(view, vs).into_iter().map(TableView::from));
        }
        sections.last_mut().expect("pushed above").subsets.push(SubsetView {
            metric_charts,
            metric_tables,
            label: s.label.clone(),
            series: if scaling.is_some() { series } else { 0 },
            scaling: scaling.map(safe),
            relative: charts::relative(results, &s, row.as_deref()).map(safe),
            tables: ts,
            distributions: panels.svgs[i].iter().cloned().map(safe).collect(),
            distributions_left: panels.left[i],
        });
    }
    sections
}

/// The page; `notes` is the author's Markdown (`versus report --notes`).
pub fn render(results: &Results, notes: Option<&str>) -> Result<String, minijinja::Error> {
    // Each cell's comparison from a map, not a search of them all (`results::lookup`).
    let _scope = results.scope();
    let views = crate::report::metric_views(results);
    let sections = sections(results, &views);
    let grid_view = |g: crate::report::sections::grid::SummaryGrid| GridView {
        labels: g.labels,
        title: g.title,
        header: g.header,
        rows: g.rows,
    };
    let summary = crate::report::sections::grid::summary_grid(results).map(grid_view);
    let metrics: Vec<MetricView> = views
        .iter()
        .map(|(m, v)| MetricView {
            name: m.name(),
            findings: crate::report::sections::findings::groups(v),
            summary: crate::report::sections::grid::summary_grid(v).map(grid_view),
            verdict_note: method::verdict_note(v),
            since: crate::report::sections::since::table(v).map(TableView::from),
        })
        .collect();
    let problems: Vec<Problem> = results
        .cells
        .iter()
        .filter(|c| c.outcome != Outcome::Ok)
        .map(|c| Problem {
            outcome: c.outcome.label(),
            text: format!("{} — {}", c.label(), c.message.clone().unwrap_or_default()),
        })
        .collect();
    let status = match results.status {
        RunStatus::Complete => "complete",
        RunStatus::Interrupted => "interrupted: only the finished cells are shown",
        RunStatus::Running => "in progress",
    };
    let compact = tables::compact::tables(results);
    let first = tables::compact::lead_index(results, &compact);
    let mut compact: Vec<Option<TableView>> = compact.into_iter().map(|t| Some(TableView::from(t))).collect();
    let compact_first = first.and_then(|i| compact[i].take());
    let compact_rest: Vec<TableView> = compact.into_iter().flatten().collect();
    let lead_overall = crate::report::sections::overall::by_operation_table(results)
        .or_else(|| {
            crate::report::sections::overall::table(results).map(|mut t| {
                t.notes.truncate(1);
                t
            })
        })
        .map(TableView::from);
    let since_brief = lead::since_brief(results);
    let (failed, skipped) = lead::outcome_lines(results);
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template("report.html", TEMPLATE)?;
    let html = env.get_template("report.html")?.render(context! {
        title => crate::report::sections::record::title(results),
        measured => lead::measured_line(results),
        headline => ser(lead::headline_lines(results)),
        headline_source => lead::headline_source(results),
        compact_first => ser(compact_first),
        compact_rest => ser(&compact_rest),
        compact_legend => tables::compact::legend(results),
        notes_lead => results.suite.report.notes_at == crate::results::NotesAt::Lead,
        findings_detail => ser(crate::report::sections::findings::groups_of(results, &|f| !crate::report::sections::findings::leads(results)(f))),
        lead_overall => ser(lead_overall),
        since_brief => since_brief.as_ref().map(|(s, _)| s.clone()),
        since_changed => ser(since_brief.and_then(|(_, t)| t).map(TableView::from)),
        failed => failed,
        skipped => skipped,
        warning_lines => results.warnings.iter().map(lead::warning_line).collect::<Vec<_>>(),
        description => results.suite.description.as_deref().map(str::trim),
        versus_version => results.environment.versus_version.clone(),
        started_at => results.started_at.clone(),
        status => status,
        command => results.suite.command.clone(),
        method => method::method_sentence(results),
        counting => method::counting_sentence(results),
        metrics => ser(&metrics),
        findings => ser(crate::report::sections::findings::groups_of(results, &crate::report::sections::findings::leads(results))),
        summary => ser(&summary),
        since => ser(crate::report::sections::since::table(results).map(TableView::from)),
        since_warning => results.since.as_ref().and_then(|s| s.warning.clone()),
        revisions => ser(crate::report::sections::revisions::tables(results).into_iter().map(TableView::from).collect::<Vec<_>>()),
        verdict_note => method::verdict_note(results),
        notes => notes.map(|n| safe(crate::report::sections::notes::to_html(n))),
        problems => ser(&problems),
        sections => ser(&sections),
        versions => ser({
            let t = crate::report::sections::info::versions_table(results);
            (t.header, t.rows, t.notes)
        }),
        overall => ser(crate::report::sections::overall::table(results).map(TableView::from)),
        labels => ser(crate::report::sections::info::labels_table(results).map(TableView::from)),
        levels => ser(crate::report::sections::levels::levels_table(results).map(TableView::from)),
        services => ser(crate::report::tables::services::services_table(results).map(|t| (t.header, t.rows))),
        environment => ser(crate::report::sections::info::environment_table(results).rows),
        pieces => ser(crate::report::sections::pieces::pieces_table(results).map(|t| (t.header, t.rows))),
        warnings => ser(&results.warnings),
    })?;
    // No control character from a name or message reaches the page.
    Ok(crate::base::sink::file_text(&html).into_owned())
}

#[cfg(test)]
mod tests {
    use super::breakable;

    #[test]
    fn figures_break_between_figures_only() {
        let nb = |s: &str| s.replace('_', "\u{a0}");
        assert_eq!(breakable("64.7 µs ± 8.82 µs"), nb("64.7_µs ± 8.82_µs"));
        assert_eq!(breakable("1.27x slower [1.10, 1.34]"), nb("1.27x slower [1.10,_1.34]"));
        assert_eq!(breakable("57.2 µs … 102 µs"), nb("57.2_µs … 102_µs"));
        assert_eq!(breakable("3.96 MB/s"), nb("3.96_MB/s"));
        assert_eq!(
            breakable("unknown 0.55 (n=3, no interval)"),
            "unknown 0.55 (n=3, no interval)"
        );
    }
}
