//! The terminal at the end of a run: the headline, the compact tables and
//! the rest of the lead on stdout, fitted to the terminal's width and
//! coloured only when the caller says so (`--color`, `NO_COLOR`). The
//! progress while the plan runs is `progress`'s.

use crate::base::outcome::Outcome;
use crate::report::sections::lead;

pub use crate::report::formats::progress::Progress;
use crate::report::tables::layout::{self, Align, Breaks, Grid};
use crate::report::tables::{self, Table, TableKind};
use crate::results::Results;

fn width(s: &str) -> usize {
    console::measure_text_width(s)
}

/// How the end-of-run text is laid out: the terminal's width and whether to colour.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    pub columns: usize,
    pub colour: bool,
}

impl Layout {
    /// Plain text at `columns` wide.
    pub fn plain(columns: usize) -> Self {
        Layout { columns, colour: false }
    }

    /// The terminal's width (`terminal_width`).
    pub fn stdout(colour: bool) -> Self {
        Layout {
            columns: terminal_width(),
            colour,
        }
    }

    fn paint(&self, text: &str, style: &console::Style) -> String {
        if self.colour {
            style.clone().force_styling(true).apply_to(text).to_string()
        } else {
            text.to_string()
        }
    }
}

/// Renders a table as aligned plain text at the default width.
pub fn render_table(t: &Table) -> String {
    render_table_with(t, Layout::plain(DEFAULT_WIDTH))
}

/// Renders a table fitted to `layout.columns` (see `layout`): the column
/// `n` (measured runs) after the labels when the table has it, figures
/// right-aligned, a figure never split from its spread nor a word in two,
/// and a table too wide for the terminal stacked in blocks. Verdicts are
/// coloured when `layout.colour` is set.
pub fn render_table_with(t: &Table, layout: Layout) -> String {
    let with_runs = !t.runs.is_empty();
    let at = t.labels.min(t.header.len()).max(1);
    let insert = |row: &[String], n: &str| -> Vec<String> {
        let mut r = row.to_vec();
        if with_runs {
            r.insert(at.min(r.len()), n.to_string());
        }
        r
    };
    let header = if t.header.iter().any(|h| !h.is_empty()) {
        insert(&t.header, "n")
    } else {
        vec![]
    };
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| insert(row, t.runs.get(i).map_or("", String::as_str)))
        .collect();
    let count = header.len().max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let repeat = at + usize::from(with_runs);
    let text = t.kind == TableKind::Info;
    let align: Vec<Align> = (0..count)
        .map(|i| if i < at || text { Align::Left } else { Align::Right })
        .collect();
    let breaks: Vec<Breaks> = (0..count)
        .map(|i| {
            if i < at || text {
                Breaks::Words
            } else {
                Breaks::Evidence
            }
        })
        .collect();
    let grid = Grid {
        header: &header,
        rows: &rows,
        repeat,
        align: &align,
        breaks: &breaks,
    };
    let mut out = format!(
        "{}\n",
        layout.paint(&fit_title(&t.title, layout.columns), &console::Style::new().bold())
    );
    let paint = |cell: &str, line: &str| paint_cell(cell, line, t.kind, layout);
    for line in layout::render(&grid, layout.columns, &paint) {
        out.push_str(&line);
        out.push('\n');
    }
    for note in &t.notes {
        out.push_str(&fit_title(note, layout.columns));
        out.push('\n');
    }
    out
}

const NBSP: char = '\u{a0}';

/// A title longer than the width is wrapped at spaces.
fn fit_title(title: &str, columns: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for word in title.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && width(last) + 1 + width(word) > columns {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines.join("\n")
}

const NOT_OK: [Outcome; 4] = [
    Outcome::Failed,
    Outcome::Timeout,
    Outcome::OutOfMemory,
    Outcome::WrongOutput,
];

/// A line of a table cell coloured by the cell's verdict: slower red,
/// faster green, not-ok in bold red.
fn paint_cell(text: &str, line: &str, kind: TableKind, layout: Layout) -> String {
    if !layout.colour || !matches!(kind, TableKind::Ratio | TableKind::Summary | TableKind::Overall) {
        return line.to_string();
    }
    let word = |w: &str| text.split(' ').any(|t| t == w);
    let style = if (text.contains("slower") || word("more")) && !text.starts_with("not confirmed") {
        console::Style::new().red()
    } else if (text.contains("faster") || word("fewer")) && !text.starts_with("not confirmed") {
        console::Style::new().green()
    } else if NOT_OK.iter().any(|o| o.label() == text) {
        console::Style::new().red().bold()
    } else {
        return line.to_string();
    };
    layout.paint(line, &style)
}

/// The end-of-run summary printed to stdout, warnings one line each, plain,
/// at the default width.
pub fn summary(results: &Results) -> String {
    summary_with(results, false, Layout::plain(DEFAULT_WIDTH))
}

/// Columns assumed when the width of the terminal is unknown.
pub const DEFAULT_WIDTH: usize = 100;

/// The width to lay the end-of-run text out at: the terminal's, asked of
/// standard output and then standard error (`versus run … | tee log` still
/// has its terminal there), else `COLUMNS`, else `DEFAULT_WIDTH`.
pub fn terminal_width() -> usize {
    let asked = [libc::STDOUT_FILENO, libc::STDERR_FILENO]
        .into_iter()
        .find_map(window_columns);
    asked
        .or_else(|| {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse::<usize>().ok())
                .filter(|c| *c > 0)
        })
        .unwrap_or(DEFAULT_WIDTH)
}

/// The column count of the terminal on `fd` (TIOCGWINSZ), if it is one.
fn window_columns(fd: libc::c_int) -> Option<usize> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes one `winsize` into the struct it is given.
    let r = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut size) };
    (r == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// The end-of-run summary, the answer first: what was measured, the
/// headline, the compact tables, the lead's findings and means, the change
/// since the last run in brief, what did not finish, the run and its
/// warnings. `verbose` adds every operation's tables and each warning in
/// full with the cells it names; otherwise a warning is one line of at most
/// the width. Tables are fitted to the width.
pub fn summary_with(results: &Results, verbose: bool, layout: Layout) -> String {
    // Each cell's comparison from a map, not a search of them all (`results::lookup`).
    let _scope = results.scope();
    let columns = layout.columns;
    let heading = console::Style::new().bold();
    let views = crate::report::metric_views(results);
    let mut out = String::new();
    out.push_str(&layout.paint(
        &fit_title(&crate::report::sections::record::title(results), columns),
        &heading,
    ));
    out.push('\n');
    out.push_str(&hanging(&lead::measured_line(results), "", "", columns));
    out.push('\n');
    out.push_str(&headline(results, layout, verbose));
    out.push_str(&findings(results, layout));
    for (_, view) in &views {
        out.push_str(&findings(view, layout));
    }
    let overall = crate::report::sections::overall::by_operation_table(results)
        .or_else(|| crate::report::sections::overall::table(results));
    if let Some(mut t) = overall {
        t.notes.truncate(1);
        out.push_str(&render_table_with(&t, layout));
        out.push('\n');
    }
    if verbose {
        out.push_str(&operation_tables(results, &views, layout));
    }
    since(&mut out, results, &views, verbose, layout);
    for t in crate::report::sections::revisions::tables(results) {
        out.push_str(&render_table_with(&t, layout));
        out.push('\n');
    }
    let (failed, skipped) = lead::outcome_lines(results);
    for (title, lines, style) in [
        ("Not ok:", &failed, console::Style::new().red().bold()),
        (
            "Not run (the suite skips them):",
            &skipped,
            console::Style::new().bold(),
        ),
    ] {
        if !lines.is_empty() {
            out.push_str(&layout.paint(title, &style));
            out.push('\n');
            for p in lines {
                out.push_str(&hanging(p, "  ", "    ", columns));
            }
        }
    }
    out.push_str(&layout.paint("== Run ==", &heading));
    out.push('\n');
    for line in crate::report::sections::record::terminal_lines(results) {
        out.push_str(&hanging(&line, "  ", "    ", columns));
    }
    let warning = layout.paint("warning:", &console::Style::new().yellow());
    for w in &results.warnings {
        if verbose {
            // Wrapped to the width, then painted.
            let text = hanging(&format!("warning: {}", w.message), "", "  ", columns);
            out.push_str(&text.replacen("warning:", &warning, 1));
        } else {
            // Cut before painting, so the escape codes do not count toward the width.
            let line = one_line(&format!("warning: {}", w.message), columns);
            out.push_str(&line.replacen("warning:", &warning, 1));
            out.push('\n');
        }
    }
    if !verbose {
        out.push_str(&hanging(
            "(--verbose: every operation's tables, each warning in full with the cells it names)",
            "",
            " ",
            columns,
        ));
    }
    out
}

/// "== Headline ==": each line as a bullet, where it comes from, and the
/// compact tables (the one the first line is about first).
fn headline(results: &Results, layout: Layout, verbose: bool) -> String {
    let mut out = String::new();
    let lines = lead::headline_lines(results);
    if !lines.is_empty() {
        out.push_str(&layout.paint("== Headline ==", &console::Style::new().bold()));
        out.push('\n');
        let shown = if verbose {
            lines.len()
        } else {
            HEADLINE_LINES.min(lines.len())
        };
        let more = lines.len() - shown;
        for l in lines.into_iter().take(shown) {
            let text = l.text();
            out.push_str(&hanging(&glue(&text), "  - ", "    ", layout.columns).replace(NBSP, " "));
        }
        if more > 0 {
            let note = format!("({more} more in report.md, or with --verbose)");
            out.push_str(&hanging(&note, "  ", "   ", layout.columns));
        }
        out.push('\n');
    }
    // One operation without parameters (`versus exec`): its one row per
    // implementation, hyperfine's table, says more than a compact row.
    if results.operations.len() == 1 && tables::row_param(results).is_none() {
        for (_, ts) in tables::result_tables(results) {
            for t in ts.iter().filter(|t| t.kind == TableKind::Summary) {
                out.push_str(&render_table_with(t, layout));
                out.push('\n');
            }
        }
        return out;
    }
    let compact = tables::compact::tables(results);
    let first = tables::compact::lead_index(results, &compact).unwrap_or(0);
    let order = (first..first + 1).chain((0..compact.len()).filter(|i| *i != first));
    let mut medians_only = false;
    for t in order.filter_map(|i| compact.get(i)) {
        let (text, stripped) = compact_table(t, layout);
        medians_only |= stripped;
        out.push_str(&text);
        out.push('\n');
    }
    if !compact.is_empty() {
        let legend = if medians_only {
            format!(
                "{} Tables too wide for the terminal show medians only.",
                tables::compact::legend(results)
            )
        } else {
            tables::compact::legend(results)
        };
        out.push_str(&hanging(&legend, "", "", layout.columns));
        out.push('\n');
    }
    out
}

/// Headline lines the terminal shows without `--verbose`: the rest are in report.md.
const HEADLINE_LINES: usize = 3;

/// A compact table fitted to the width: with each ratio where a row fits
/// on one line, else medians only (the headline gives the ratios).
fn compact_table(t: &Table, layout: Layout) -> (String, bool) {
    let full = render_table_with(t, layout);
    if full.lines().count() <= t.rows.len() + 2 {
        return (full, false);
    }
    let mut bare = t.clone();
    for row in &mut bare.rows {
        for cell in row.iter_mut().skip(bare.labels) {
            if let (Some(a), Some(b)) = (cell.find(" ("), cell.rfind(')')) {
                cell.replace_range(a..=b, "");
            }
        }
    }
    (render_table_with(&bare, layout), true)
}

/// Every operation's tables in time and each other metric (`--verbose`).
fn operation_tables(results: &Results, views: &[(crate::base::metric::Metric, Results)], layout: Layout) -> String {
    let mut out = String::new();
    let mut sections = tables::result_tables(results);
    for (_, view) in views {
        for (op, ts) in tables::result_tables(view) {
            if let Some((_, wall)) = sections.iter_mut().find(|(o, _)| *o == op) {
                wall.extend(ts);
            }
        }
    }
    for (op, ts) in sections {
        out.push_str(&layout.paint(&format!("== {op} =="), &console::Style::new().bold()));
        out.push('\n');
        for t in ts.iter().filter(|t| {
            matches!(
                t.kind,
                TableKind::Time | TableKind::Range | TableKind::Cpu | TableKind::Ratio | TableKind::Summary
            )
        }) {
            out.push_str(&render_table_with(t, layout));
        }
        out.push('\n');
    }
    out
}

/// Change since the last run: in brief (the changed cells and a count), or
/// every cell with `verbose`, in time and each other metric.
fn since(
    out: &mut String,
    results: &Results,
    views: &[(crate::base::metric::Metric, Results)],
    verbose: bool,
    layout: Layout,
) {
    for doc in std::iter::once(results).chain(views.iter().map(|(_, v)| v)) {
        if let Some(w) = doc.since.as_ref().and_then(|s| s.warning.as_ref()) {
            out.push_str(&format!("WARNING: {w}\n"));
        }
        if verbose {
            if let Some(t) = crate::report::sections::since::table(doc) {
                out.push_str(&render_table_with(&t, layout));
                out.push('\n');
            }
        } else if let Some((sentence, changed)) = lead::since_brief(doc) {
            out.push_str(&hanging(&sentence, "", "", layout.columns));
            if let Some(t) = changed {
                out.push_str(&render_table_with(&t, layout));
            }
            out.push('\n');
        }
    }
}

/// "== Findings ==": the findings under their titles, one bullet each, wrapped
/// to the width under a hanging indent; empty when there are none.
fn findings(results: &Results, layout: Layout) -> String {
    let groups =
        crate::report::sections::findings::groups_of(results, &crate::report::sections::findings::leads(results));
    if groups.is_empty() {
        return String::new();
    }
    let title = match results.view {
        crate::base::metric::Metric::Wall => "== Findings ==".to_string(),
        m => format!("== Findings in {} ==", m.name()),
    };
    let mut out = layout.paint(&title, &console::Style::new().bold());
    out.push('\n');
    for g in groups {
        out.push_str(&layout.paint(&fit_title(&g.title, layout.columns), &console::Style::new().bold()));
        out.push('\n');
        for line in g.lines {
            let wrapped = hanging(&glue(&line.text), "  - ", "    ", layout.columns);
            out.push_str(&wrapped.replace(NBSP, " "));
        }
    }
    out.push('\n');
    out
}

/// `text` with the spaces that must not become line breaks made
/// non-breaking: inside "[…]" intervals, and between a number and its unit
/// ("2.30 ms", "100 MB"). The spaces come back after wrapping.
fn glue(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut previous = ' ';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let unit_follows = chars.peek().is_some_and(|n| n.is_alphabetic());
        if c == ' ' && (depth > 0 || (previous.is_ascii_digit() && unit_follows)) {
            out.push(NBSP);
        } else {
            out.push(c);
        }
        previous = c;
    }
    out
}

/// `text` wrapped at spaces to `columns`, the first line after `first`, the
/// rest after `rest`; a word longer than a line stays whole on its own line.
fn hanging(text: &str, first: &str, rest: &str, columns: usize) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ') {
        if !empty && width(&line) + 1 + width(word) > columns {
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `text` cut at a word boundary to fit `width` columns, "…" marking the cut.
fn one_line(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    let mut out = String::new();
    for word in text.split(' ') {
        if width(&out) + 1 + width(word) + 2 > columns {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    let out = out.trim_end_matches([',', ':', ';', '.']);
    format!("{out} …")
}
