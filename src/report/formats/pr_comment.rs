//! The summary a pull request gets as a comment: what the change did to
//! each cell, measured against the base in the same run (paired). The
//! regressions come first, largest first, then the improvements, then the
//! cells with no change and those it could not tell, counted and folded
//! away, and the cells that did not end ok, with why (a failed build names
//! its log). It opens with a hidden marker, so a bot finds its own comment
//! and updates it instead of adding another. Formatting only: the verdicts
//! are `analysis`'s.

use std::fmt::Write;

use crate::base::sink::markdown_code as code;
use crate::report::formats::markdown::escape;
use crate::report::sections::revisions::{Row, change_text, first, later, pct, rows, time_of, why_not};
use crate::results::{Results, Verdict};

/// The first line of every comment versus writes, for finding it again.
pub const MARKER: &str = "<!-- versus:pr-comment -->";

/// The comment for `results`; `report_url` is linked as the full report.
pub fn render(results: &Results, report_url: Option<&str>) -> String {
    // Each cell's comparison from a map, not a search of them all (`results::lookup`).
    let _scope = results.scope();
    // No control character from a name, a commit subject or a message reaches the comment.
    crate::base::sink::file_text(&compose(results, report_url)).into_owned()
}

fn compose(results: &Results, report_url: Option<&str>) -> String {
    let mut out = format!("{MARKER}\n");
    let Some(revs) = &results.revisions else {
        let _ = writeln!(
            out,
            "## versus\n\nThis run measured no revisions (`--rev`): nothing to compare."
        );
        return out;
    };
    let base = first(revs);
    for label in later(revs) {
        section(&mut out, results, base, label, report_url);
    }
    let _ = writeln!(out, "{}", footer(results));
    out
}

/// Counts of a revision's rows by what they show.
struct Counts {
    slower: usize,
    faster: usize,
    same: usize,
    unknown: usize,
    not_ok: usize,
}

fn counts(rows: &[Row]) -> Counts {
    let verdict = |v: Verdict| {
        rows.iter()
            .filter(|r| r.comparison.is_some_and(|c| c.verdict == v))
            .count()
    };
    Counts {
        slower: verdict(Verdict::Slower),
        faster: verdict(Verdict::Faster),
        same: verdict(Verdict::Same),
        unknown: verdict(Verdict::Unknown),
        not_ok: rows.iter().filter(|r| r.comparison.is_none()).count(),
    }
}

/// "**2 slower**, 1 faster, 10 with no change, 1 unknown, 1 not measured (of 15 cells)".
fn headline(c: &Counts, total: usize) -> String {
    let mut parts = vec![if c.slower > 0 {
        format!("**{} slower**", c.slower)
    } else {
        "0 slower".to_string()
    }];
    parts.push(format!("{} faster", c.faster));
    parts.push(format!("{} with no change", c.same));
    if c.unknown > 0 {
        parts.push(format!("{} unknown", c.unknown));
    }
    if c.not_ok > 0 {
        parts.push(format!("**{} not measured**", c.not_ok));
    }
    let cells = if total == 1 { "cell" } else { "cells" };
    format!("{} (of {total} {cells})", parts.join(", "))
}

/// The commit a revision's columns were built at, with its subject.
fn commit_line(results: &Results, label: &str) -> String {
    let col = results
        .revisions
        .as_ref()
        .and_then(|r| r.columns.iter().find(|c| c.revision == label));
    match col {
        Some(c) => {
            let short: String = c.commit.chars().take(10).collect();
            match &c.subject {
                Some(s) => format!("{} = `{short}` ({})", code(label, false), escape(s)),
                None => format!("{} = `{short}`", code(label, false)),
            }
        }
        None => code(label, false),
    }
}

fn section(out: &mut String, results: &Results, base: &str, label: &str, report_url: Option<&str>) {
    let rows = rows(results, label);
    let c = counts(&rows);
    let _ = writeln!(out, "## versus: {} against {}\n", code(label, false), code(base, false));
    let link = report_url.map(|u| format!(" · [full report]({u})")).unwrap_or_default();
    let _ = writeln!(out, "{}{link}\n", headline(&c, rows.len()));
    let _ = writeln!(
        out,
        "Both measured in one run, taking turns, and compared run by run (paired): {}, {}. A change is called only when its 95% interval clears the noise band (±{:.0}%).\n",
        commit_line(results, base),
        commit_line(results, label),
        results.analysis.noise * 100.0
    );
    let with = |v: Verdict| {
        let mut picked: Vec<&Row> = rows
            .iter()
            .filter(|r| r.comparison.is_some_and(|c| c.verdict == v))
            .collect();
        picked.sort_by(|a, b| {
            let (ra, rb) = (
                a.comparison.map_or(1.0, |c| c.ratio),
                b.comparison.map_or(1.0, |c| c.ratio),
            );
            if v == Verdict::Slower {
                rb.total_cmp(&ra)
            } else {
                ra.total_cmp(&rb)
            }
        });
        picked
    };
    table(out, "### Slower", &with(Verdict::Slower), base, label);
    table(out, "### Faster", &with(Verdict::Faster), base, label);
    let failed: Vec<&Row> = rows.iter().filter(|r| r.comparison.is_none()).collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "### Not measured\n");
        for r in &failed {
            let _ = writeln!(out, "- {}: {}", code(&r.id, false), escape(&why_not(r, base, label)));
        }
        out.push('\n');
    }
    let quiet: Vec<&Row> = rows
        .iter()
        .filter(|r| {
            r.comparison
                .is_some_and(|c| matches!(c.verdict, Verdict::Same | Verdict::Unknown))
        })
        .collect();
    if !quiet.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} with no change, {} unknown</summary>\n",
            c.same, c.unknown
        );
        unknown_table(out, &quiet, base, label);
        let _ = writeln!(out, "</details>\n");
    }
}

/// A table of called changes: cell, both medians, the change and its interval.
fn table(out: &mut String, heading: &str, rows: &[&Row], base: &str, label: &str) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "{heading}\n");
    let _ = writeln!(
        out,
        "| cell | {} | {} | change | 95% interval |",
        escape(base),
        escape(label)
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---|");
    for r in rows {
        let Some(c) = r.comparison else { continue };
        let interval = match (c.ci_low, c.ci_high) {
            (Some(lo), Some(hi)) => format!("[{}, {}]", pct(lo), pct(hi)),
            _ => "—".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | **{}** | {interval} |",
            code(&r.id, true),
            time_of(r.base),
            time_of(Some(r.cell)),
            pct(c.ratio)
        );
    }
    out.push('\n');
}

/// The cells with no change or no verdict, with what would settle an unknown.
fn unknown_table(out: &mut String, rows: &[&Row], base: &str, label: &str) {
    let _ = writeln!(
        out,
        "| cell | {} | {} | change | verdict |",
        escape(base),
        escape(label)
    );
    let _ = writeln!(out, "|---|---:|---:|---|---|");
    for r in rows {
        let Some(c) = r.comparison else { continue };
        let verdict = match c.verdict {
            Verdict::Unknown => match c.settle_runs {
                Some(n) => format!("unknown: about {n} runs would settle it"),
                None => "unknown".into(),
            },
            _ => "no change".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {verdict} |",
            code(&r.id, true),
            time_of(r.base),
            time_of(Some(r.cell)),
            change_text(c)
        );
    }
    out.push('\n');
}

/// The machine and method, small.
fn footer(results: &Results) -> String {
    let env = &results.environment;
    let load = env.load_average.map(|l| format!(", load {l:.2}")).unwrap_or_default();
    let runs = match crate::report::sections::method::run_counts(results) {
        Some((lo, hi)) if lo == hi => format!(" · {lo} runs per cell"),
        Some((lo, hi)) => format!(" · {lo}–{hi} runs per cell"),
        None => String::new(),
    };
    format!(
        "<sub>versus {} · {} ({} cores{load}){}</sub>",
        env.versus_version,
        escape(&env.cpu_model),
        env.cores,
        escape(&runs)
    )
}
