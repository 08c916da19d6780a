//! The AsciiDoc export (`versus exec --export-asciidoc`): the tables the
//! terminal summary shows (times, ratios), as AsciiDoc tables. Formatting
//! only, like every renderer.

use std::fmt::Write as _;

use crate::report::tables::{self, Table, TableKind};
use crate::results::Results;

/// Escapes a table cell: `|` separates cells in AsciiDoc.
fn escape(text: &str) -> String {
    text.replace('|', "\\|")
}

fn table(out: &mut String, t: &Table) {
    let _ = writeln!(out, ".{}", escape(&t.title));
    let cols = t.header.len().max(1);
    let align: Vec<&str> = (0..cols).map(|i| if i < t.labels.max(1) { "<" } else { ">" }).collect();
    let _ = writeln!(out, "[cols=\"{}\", options=\"header\"]", align.join(","));
    out.push_str("|===\n");
    for row in std::iter::once(&t.header).chain(&t.rows) {
        let cells: Vec<String> = row.iter().map(|c| format!("| {}", escape(c))).collect();
        let _ = writeln!(out, "{}", cells.join(" "));
    }
    out.push_str("|===\n\n");
}

/// The time, range, CPU time and ratio tables of every operation.
pub fn render(results: &Results) -> String {
    let mut out = String::new();
    for (op, ts) in tables::result_tables(results) {
        let _ = writeln!(out, "== {}\n", escape(&op));
        for t in ts.iter().filter(|t| {
            matches!(
                t.kind,
                TableKind::Time | TableKind::Range | TableKind::Cpu | TableKind::Ratio | TableKind::Summary
            )
        }) {
            table(&mut out, t);
        }
    }
    out
}
