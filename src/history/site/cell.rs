//! A cell's page: its median over the runs with each median's interval,
//! its change points, the noise the judge learned for it, and its runs in
//! a table, the newest first, each of the suite's last runs linked to its
//! report. Older reports are not rendered; the page says how to make one.

use super::chart::{self, Chart, Series};
use super::layout::{a, change, commit, page, table};
use super::paths;
use crate::base::sink::html;
use crate::base::text;
use crate::history::site::model::{CellHistory, SuiteHistory};
use crate::results::NoiseSource;

/// Runs listed in the table, newest first.
pub(crate) const RUNS_LISTED: usize = 50;

fn noise_text(c: &CellHistory) -> String {
    match &c.noise {
        Some(n) => {
            let from = match n.source {
                NoiseSource::Cell => format!("learned from this cell's last {} runs", n.runs),
                _ => format!("the machine's figure (the median over the suite's cells; the fewest runs any had: {})", n.runs),
            };
            format!(
                "<p>Run-to-run noise the judge uses for this cell: ±{:.1}% for one run's median, {from}. A change smaller than the noise is not called.</p>\n",
                n.sigma * 100.0
            )
        }
        None => "<p>The judge has no run-to-run noise for this cell yet (too few runs): changes are judged by each run's own interval.</p>\n".into(),
    }
}

fn changes_text(h: &SuiteHistory, c: &CellHistory) -> String {
    if c.changes.is_empty() {
        return "<p>No change in its history.</p>\n".into();
    }
    let items: Vec<String> = c
        .changes
        .iter()
        .map(|ch| {
            let run = &h.runs[c.points[ch.index].run];
            format!(
                "run {} (commit {}): {}",
                run.id,
                commit(run.git_commit.as_deref()),
                change(ch.ratio())
            )
        })
        .collect();
    format!("<p>Changes: {}.</p>\n", items.join("; "))
}

fn history_chart(h: &SuiteHistory, c: &CellHistory) -> String {
    let series = [Series {
        label: c.id.clone(),
        points: c.points.iter().map(|p| (p.run, p.median_ns)).collect(),
        band: c
            .points
            .iter()
            .filter_map(|p| Some((p.run, p.ci_low_ns?, p.ci_high_ns?)))
            .collect(),
    }];
    let marks: Vec<(usize, usize)> = c.changes.iter().map(|ch| (c.points[ch.index].run, 0)).collect();
    chart::svg(&Chart {
        runs: h.runs.len(),
        series: &series,
        marks: &marks,
        format: &text::time,
        rule: None,
    })
}

fn runs_table(from: &str, h: &SuiteHistory, c: &CellHistory) -> String {
    let rows: Vec<Vec<String>> = c
        .points
        .iter()
        .rev()
        .take(RUNS_LISTED)
        .map(|p| {
            let run = &h.runs[p.run];
            let report = if h.reports.contains(&run.id) {
                a(&paths::link(from, &paths::report(run.id)), "report")
            } else {
                String::new()
            };
            vec![
                run.id.to_string(),
                html(&run.started_at),
                commit(run.git_commit.as_deref()),
                html(&text::time_ci(p.median_ns, p.ci_low_ns, p.ci_high_ns)),
                report,
            ]
        })
        .collect();
    table(
        &["Run", "Started", "Commit", "Median [95% interval]", "Report"],
        &rows,
        &[0, 3],
    )
}

/// The page of cell `c` of `h`.
pub(crate) fn render(h: &SuiteHistory, c: &CellHistory) -> String {
    let from = paths::cell(&h.suite, &h.machine, &c.id);
    let mut body = format!(
        "<p>Suite {} on {}: {} ok runs of {}.</p>\n",
        a(&paths::link(&from, &paths::suite(&h.suite)), &h.suite),
        html(h.hostname.as_deref().unwrap_or(&h.machine)),
        c.points.len(),
        h.runs.len()
    );
    body.push_str(&history_chart(h, c));
    body.push_str(&changes_text(h, c));
    body.push_str(&noise_text(c));
    body.push_str("<h2>Runs</h2>\n");
    body.push_str(&runs_table(&from, h, c));
    if c.points.len() > RUNS_LISTED {
        body.push_str(&format!(
            "<p class=\"muted\">{} older runs not listed.</p>\n",
            c.points.len() - RUNS_LISTED
        ));
    }
    body.push_str(
        "<p class=\"muted\">Only the reports of the suite's last runs are published. To render any other run's: \
<code>versus history export RUN --out run.json</code>, then <code>versus report run.json --html run.html</code>.</p>\n",
    );
    let crumbs = [
        (paths::link(&from, paths::INDEX), "All suites".to_string()),
        (paths::link(&from, &paths::suite(&h.suite)), h.suite.clone()),
    ];
    page(&c.id, &crumbs, &body)
}
