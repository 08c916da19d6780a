//! The terminal: a progress bar with an ETA on stderr while the plan runs,
//! and the result tables on stdout at the end.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::report::tables::{self, Table, TableKind};
use crate::results::Results;
use crate::runner::Events;

/// Progress on stderr; hidden when stderr is not a terminal or `quiet` is set.
pub struct Progress {
    bar: ProgressBar,
    /// The group being measured, shown again once a note (such as generating a payload) is over.
    group: String,
}

impl Progress {
    pub fn new(quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        if quiet {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            // `wide_msg` takes the rest of the line and is cut to the terminal's width.
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:20} {pos}/{len} runs, ETA {eta} {wide_msg}",
            )
            .expect("valid template"),
        );
        Progress {
            bar,
            group: String::new(),
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Events for Progress {
    fn start(&mut self, total_runs: u64) {
        self.bar.set_length(total_runs);
    }
    fn group_start(&mut self, label: &str) {
        self.group = label.to_string();
        self.bar.set_message(label.to_string());
    }
    fn run_done(&mut self) {
        if self.bar.message() != self.group {
            self.bar.set_message(self.group.clone());
        }
        self.bar.inc(1);
    }
    fn runs_dropped(&mut self, count: u64) {
        let len = self.bar.length().unwrap_or(0);
        self.bar.set_length(len.saturating_sub(count));
    }
    fn runs_added(&mut self, count: u64) {
        let len = self.bar.length().unwrap_or(0);
        self.bar.set_length(len + count);
    }
    fn note(&mut self, text: &str) {
        self.bar.set_message(text.to_string());
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Renders a table as aligned plain text.
pub fn render_table(t: &Table) -> String {
    let cols = t.header.len();
    let mut widths = vec![0; cols];
    for row in std::iter::once(&t.header).chain(&t.rows) {
        for (i, c) in row.iter().enumerate().take(cols) {
            widths[i] = widths[i].max(width(c));
        }
    }
    let line = |row: &Vec<String>| {
        row.iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(widths[i] - width(c));
                if i == 0 {
                    format!("{c}{pad}")
                } else {
                    format!("{pad}{c}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut out = format!("{}\n", t.title);
    if t.header.iter().any(|h| !h.is_empty()) {
        out.push_str(&format!("  {}\n", line(&t.header)));
    }
    for r in &t.rows {
        out.push_str(&format!("  {}\n", line(r)));
    }
    out
}

/// The end-of-run summary printed to stdout, warnings one line each.
pub fn summary(results: &Results) -> String {
    summary_with(results, false, DEFAULT_WIDTH)
}

/// Columns assumed when the width of the terminal is unknown.
pub const DEFAULT_WIDTH: usize = 100;

/// The end-of-run summary; `verbose` gives each warning in full with the
/// cells it names; otherwise a warning is one line of at most `width` columns.
pub fn summary_with(results: &Results, verbose: bool, columns: usize) -> String {
    let mut out = String::new();
    for (op, ts) in tables::result_tables(results) {
        out.push_str(&format!("== {op} ==\n"));
        for t in ts
            .iter()
            .filter(|t| matches!(t.kind, TableKind::Time | TableKind::Ratio | TableKind::Summary))
        {
            out.push_str(&render_table(t));
        }
        out.push('\n');
    }
    if let Some(t) = crate::report::since::table(results) {
        if let Some(w) = results.since.as_ref().and_then(|s| s.warning.as_ref()) {
            out.push_str(&format!("WARNING: {w}\n"));
        }
        out.push_str(&render_table(&t));
        out.push('\n');
    }
    let problems = tables::outcome_rows(results);
    if !problems.is_empty() {
        out.push_str("Not ok:\n");
        for p in problems {
            out.push_str(&format!("  {p}\n"));
        }
    }
    for w in &results.warnings {
        if verbose {
            out.push_str(&format!("warning: {}\n", w.message));
        } else {
            out.push_str(&one_line(&format!("warning: {}", w.message), columns));
            out.push('\n');
        }
    }
    if !verbose && !results.warnings.is_empty() {
        out.push_str("(--verbose: each warning in full, with the cells it names)\n");
    }
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
