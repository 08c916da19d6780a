//! `report.md`: the shape of the hand-made reports versus replaces — the
//! findings first, then one section per operation with rows per parameter value and a column per
//! implementation, ratios against the baseline, the environment, versions,
//! outcomes and warnings.

use std::fmt::Write as _;

use crate::base::metric::Metric;
use crate::report::formats::html;
use crate::report::sections::{lead, method};
use crate::report::tables::{self, Table};
use crate::results::{NotesAt, Results, RunStatus};

/// Escapes text for a Markdown table cell or paragraph: no raw pipes, HTML,
/// newlines or control characters, and no backslash left to undo an escape.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in crate::base::sink::file_text(text).chars() {
        match c {
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes the suite author's prose (the description, notes) for Markdown:
/// HTML is neutralised and links that could run or fetch something are
/// reduced to their text, but Markdown such as `code` is kept, since the
/// author wrote it for the report.
fn escape_prose(text: &str) -> String {
    crate::report::sections::notes::safe_markdown(&crate::base::sink::file_text(text))
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn table(out: &mut String, t: &Table, heading: &str) {
    let _ = writeln!(out, "{heading} {}\n", escape(&t.title));
    let _ = writeln!(
        out,
        "| {} |",
        t.header.iter().map(|h| escape(h)).collect::<Vec<_>>().join(" | ")
    );
    let align: Vec<&str> = (0..t.header.len())
        .map(|i| if i < t.labels.max(1) { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "| {} |", align.join(" | "));
    for row in &t.rows {
        let _ = writeln!(
            out,
            "| {} |",
            row.iter().map(|c| escape(c)).collect::<Vec<_>>().join(" | ")
        );
    }
    out.push('\n');
    for n in &t.notes {
        let _ = writeln!(out, "{}\n", escape(n));
    }
}

/// "## Findings" (the lead's: `findings::leads`) or "### Findings in
/// detail" (the rest): a bold title per operation (and value of its other
/// parameters), a bullet per finding; a view in another metric titles its own.
fn findings(out: &mut String, results: &Results, lead: bool) {
    let keep = |f: &crate::results::Finding| crate::report::sections::findings::leads(results)(f) == lead;
    let groups = crate::report::sections::findings::groups_of(results, &keep);
    if groups.is_empty() {
        return;
    }
    let (heading, title) = if lead {
        ("##", "Findings")
    } else {
        ("###", "Findings in detail")
    };
    match results.view {
        Metric::Wall => {
            let _ = writeln!(out, "{heading} {title}\n");
        }
        m => {
            let _ = writeln!(out, "{heading} {title} in {}\n", m.name());
        }
    }
    for g in groups {
        let _ = writeln!(out, "**{}**\n", escape(&g.title));
        for line in g.lines {
            let _ = writeln!(out, "- {}", escape(&line.text));
        }
        out.push('\n');
    }
}

/// " in instructions" for a view in another metric than time; empty for time.
fn in_metric(results: &Results) -> String {
    match results.view {
        Metric::Wall => String::new(),
        m => format!(" in {}", m.name()),
    }
}

/// The `versus diff` comparison as Markdown.
pub fn render_diff(t: &Table, notes: &[String]) -> String {
    let mut out = String::from("# versus diff\n\n");
    table(&mut out, t, "##");
    for n in notes {
        let _ = writeln!(out, "- {}", escape(n));
    }
    out
}

/// The report without charts.
pub fn render(results: &Results) -> String {
    render_with_charts(results, &[], None)
}

/// The report, linking the given chart files (stem, SVG) from `html::chart_files`,
/// which the caller writes beside it as `<stem>.svg`.
pub fn render_with_charts(results: &Results, charts: &[(String, String)], notes: Option<&str>) -> String {
    // Each cell's comparison from a map, not a search of them all (`results::lookup`).
    let _scope = results.scope();
    // No control character from a name or message reaches the file.
    crate::base::sink::file_text(&compose(results, charts, notes)).into_owned()
}

fn compose(results: &Results, charts: &[(String, String)], notes: Option<&str>) -> String {
    let mut out = String::new();
    let notes_lead = notes.filter(|_| results.suite.report.notes_at == NotesAt::Lead);
    let compact = tables::compact::tables(results);
    let first = tables::compact::lead_index(results, &compact);
    lead(&mut out, results, notes_lead, first.map(|i| &compact[i]));
    let views = crate::report::metric_views(results);
    body(&mut out, results, &views, &compact, first);
    let _ = writeln!(out, "## Appendix\n");
    let _ = writeln!(
        out,
        "Everything measured, for checking the lead above: the method, every comparison with its interval, every cell's tables and charts, the record of the run and each warning in full.\n"
    );
    method_section(&mut out, results);
    overview(&mut out, results, &views);
    operations(&mut out, results, &views, charts);
    let problems = tables::outcome_rows(results);
    if !problems.is_empty() {
        let _ = writeln!(out, "### Cells that did not finish ok\n");
        for p in problems {
            let _ = writeln!(out, "- {}", escape(&p));
        }
        out.push('\n');
    }
    closing(&mut out, results);
    if let Some(n) = notes.filter(|_| notes_lead.is_none()) {
        let _ = writeln!(out, "### Notes\n\n{}\n", escape_prose(n.trim()));
    }
    out
}

/// The first screen: the title, one line on what was measured, the
/// headline and the first compact table; then the author's notes when they lead.
fn lead(out: &mut String, results: &Results, notes: Option<&str>, first: Option<&Table>) {
    let _ = writeln!(out, "# {}\n", escape(&crate::report::sections::record::title(results)));
    let _ = writeln!(out, "{}\n", escape(&lead::measured_line(results)));
    let lines = lead::headline_lines(results);
    if !lines.is_empty() {
        let _ = writeln!(out, "## Headline\n");
        for l in lines {
            let q = l
                .question
                .as_ref()
                .map_or(String::new(), |q| format!("*{}* ", escape(q)));
            let _ = writeln!(out, "- {q}**{}**: {}", escape(&l.place), escape(&l.figures));
        }
        out.push('\n');
        if let Some(s) = lead::headline_source(results) {
            let _ = writeln!(out, "{}\n", escape(&s));
        }
    }
    if let Some(first) = first {
        table(out, first, "###");
        let _ = writeln!(out, "{}\n", escape(&tables::compact::legend(results)));
    }
    if let Some(n) = notes {
        let _ = writeln!(out, "## Notes\n\n{}\n", escape_prose(n.trim()));
    }
}

/// After the first screen: what the suite measures, the other compact
/// tables, the findings, the means, the change since the last run, the
/// cells that did not finish and the warnings, each in brief.
fn body(out: &mut String, results: &Results, views: &[(Metric, Results)], compact: &[Table], first: Option<usize>) {
    if let Some(d) = &results.suite.description {
        let _ = writeln!(out, "## What was measured\n\n{}\n", escape_prose(d.trim()));
    }
    if compact.len() > 1 {
        let _ = writeln!(out, "## Medians\n");
        for (i, t) in compact.iter().enumerate() {
            if Some(i) != first {
                table(out, t, "###");
            }
        }
        let _ = writeln!(out, "{}\n", escape(&tables::compact::legend(results)));
    }
    findings(out, results, true);
    for (_, view) in views {
        findings(out, view, true);
    }
    match crate::report::sections::overall::by_operation_table(results) {
        Some(t) => {
            let _ = writeln!(out, "## Overall\n");
            table(out, &t, "###");
        }
        None => {
            if let Some(mut t) = crate::report::sections::overall::table(results) {
                let _ = writeln!(out, "## Overall\n");
                t.notes = vec![OVERALL_NOTE.into()];
                table(out, &t, "###");
            }
        }
    }
    if let Some((sentence, changed)) = lead::since_brief(results) {
        let _ = writeln!(out, "## Change since the last run\n");
        if let Some(w) = results.since.as_ref().and_then(|s| s.warning.as_ref()) {
            let _ = writeln!(out, "**WARNING: {}**\n", escape(w));
        }
        let _ = writeln!(out, "{}\n", escape(&sentence));
        if let Some(t) = changed {
            table(out, &t, "###");
        }
    }
    let (failed, skipped) = lead::outcome_lines(results);
    if !failed.is_empty() {
        let _ = writeln!(out, "## Did not finish ok\n");
        for l in &failed {
            let _ = writeln!(out, "- {}", escape(l));
        }
        out.push('\n');
    }
    if !skipped.is_empty() {
        let _ = writeln!(out, "## Not run: the suite skips them\n");
        for l in &skipped {
            let _ = writeln!(out, "- {}", escape(l));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "## Warnings\n");
    if results.warnings.is_empty() {
        let _ = writeln!(out, "None.\n");
    }
    for w in &results.warnings {
        let _ = writeln!(out, "- {}", escape(&lead::warning_line(w)));
    }
    out.push('\n');
}

/// Under the lead's overall table: where its method and exclusions are.
const OVERALL_NOTE: &str = "Geometric means over the cells with an interval and stable runs; how they are made, and which cells are left out, under the same table in the appendix.";

/// How the figures were made: the version, the command, the method.
fn method_section(out: &mut String, results: &Results) {
    let _ = writeln!(out, "### Method\n");
    let status = match results.status {
        RunStatus::Complete => "complete",
        RunStatus::Interrupted => "**interrupted**: only the cells below were finished",
        RunStatus::Running => "**in progress**",
    };
    let _ = writeln!(
        out,
        "Measured by versus {}, run started {} ({status}).\n",
        results.environment.versus_version, results.started_at
    );
    let _ = writeln!(out, "Command: `{}`\n", results.suite.command.replace('`', "'"));
    if let Some(m) = method::method_sentence(results) {
        let _ = writeln!(out, "{m}\n");
    }
    if let Some(m) = method::counting_sentence(results) {
        let _ = writeln!(out, "{}\n", escape(&m));
    }
}

/// Every comparison with its interval (the summary grid, in time and in
/// each other metric of `views`), the change since an earlier run cell by
/// cell, the whole-suite means where the lead gave them per operation, and revisions.
fn overview(out: &mut String, results: &Results, views: &[(Metric, Results)]) {
    findings(out, results, false);
    for (_, view) in views {
        findings(out, view, false);
    }
    if let Some(grid) = crate::report::sections::grid::summary_grid(results) {
        let _ = writeln!(out, "### Summary\n");
        table(out, &grid.table(), "####");
        let _ = writeln!(out, "{}\n", escape(&method::verdict_note(results)));
        for (_, view) in views {
            if let Some(grid) = crate::report::sections::grid::summary_grid(view) {
                table(out, &grid.table(), "####");
                let _ = writeln!(out, "{}\n", escape(&method::verdict_note(view)));
            }
        }
    }
    if let Some(t) = crate::report::sections::overall::table(results) {
        table(out, &t, "###");
    }
    for doc in std::iter::once(results).chain(views.iter().map(|(_, v)| v)) {
        if let Some(t) = crate::report::sections::since::table(doc) {
            let _ = writeln!(out, "### Change since an earlier run{}\n", in_metric(doc));
            table(out, &t, "####");
        }
    }
    let revisions = crate::report::sections::revisions::tables(results);
    if !revisions.is_empty() {
        let _ = writeln!(out, "### Revisions\n");
        for t in &revisions {
            table(out, t, "####");
        }
    }
}

/// One section per operation: its charts, then each subset's tables in
/// time and in each other metric of `views`.
fn operations(out: &mut String, results: &Results, views: &[(Metric, Results)], charts: &[(String, String)]) {
    let mut last_op = None;
    for (i, subset) in tables::subsets(results).iter().enumerate() {
        if last_op != Some(&subset.operation) {
            let _ = writeln!(out, "### {}\n", escape(&subset.operation));
            last_op = Some(&subset.operation);
        }
        for (stem, _) in charts
            .iter()
            .filter(|(s, _)| s.contains(&html::chart_stem(i, &subset.operation)))
        {
            let _ = writeln!(out, "![{}]({stem}.svg)\n", escape(&stem.replace(['-', '_'], " ")));
        }
        for t in &tables::subset_tables(results, subset) {
            table(out, t, "####");
        }
        for (_, view) in views {
            if let Some(vs) = tables::subsets(view).get(i) {
                for t in &tables::subset_tables(view, vs) {
                    table(out, t, "####");
                }
            }
        }
    }
}

/// The record of the run: levels, versions, labels, services, environment,
/// pieces, warnings.
fn closing(out: &mut String, results: &Results) {
    if let Some(t) = crate::report::sections::levels::levels_table(results) {
        table(out, &t, "###");
    }
    table(out, &crate::report::sections::info::versions_table(results), "###");
    if let Some(t) = crate::report::sections::info::labels_table(results) {
        table(out, &t, "###");
    }
    if let Some(t) = crate::report::tables::services::services_table(results) {
        table(out, &t, "###");
    }
    table(out, &crate::report::sections::info::environment_table(results), "###");
    if let Some(t) = crate::report::sections::pieces::pieces_table(results) {
        table(out, &t, "###");
        let _ = writeln!(
            out,
            "Each row of the tables above was measured on one machine; ratios compare cells of one machine only.\n"
        );
    }
    if results.warnings.is_empty() {
        return;
    }
    let _ = writeln!(out, "### Warnings in full\n");
    for w in &results.warnings {
        let _ = writeln!(out, "- **{}**: {}", escape(&w.kind), escape(&w.message));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_neutralises_markup() {
        assert_eq!(escape("a|b"), "a\\|b");
        assert_eq!(
            escape("<img src=x onerror=alert(1)>"),
            "&lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(escape("line\nbreak"), "line break");
        assert_eq!(
            escape_prose("`code` and <script>x</script> & more"),
            "`code` and &lt;script&gt;x&lt;/script&gt; &amp; more"
        );
    }
}
