//! `versus trend` as text: a self-contained HTML page (inline CSS and one
//! inline SVG chart per cell, no script) and a Markdown page, from a
//! `trend::Trend`. Each cell shows its median per run with the median's 95%
//! interval, the level of each segment between change points, and the
//! changes themselves. Formatting only: the change points come from
//! `stats::changepoint` through `trend::build`.

use std::fmt::Write as _;

use crate::report::markdown::escape;
use crate::trend::{CellTrend, Trend};

/// Escapes text for HTML element content and attribute values.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn pct(ratio: f64) -> String {
    format!("{:+.1}%", (ratio - 1.0) * 100.0)
}

/// "run 12 (+9.8%)" for each change of a cell.
fn change_list(c: &CellTrend) -> String {
    if c.changes.is_empty() {
        return "none".into();
    }
    c.changes
        .iter()
        .map(|ch| format!("run {} ({})", c.points[ch.index].run_id, pct(ch.ratio())))
        .collect::<Vec<_>>()
        .join(", ")
}

fn newest_text(c: &CellTrend) -> String {
    match c.newest_change() {
        Some(ch) if ch.ratio() > 1.0 => format!("REGRESSION {}", pct(ch.ratio())),
        Some(ch) => format!("improvement {}", pct(ch.ratio())),
        None => "steady".into(),
    }
}

/// " (instructions)" after the title of a trend in another metric than time.
fn in_metric(t: &Trend) -> String {
    match t.metric {
        crate::results::Metric::Wall => String::new(),
        m => format!(" ({})", m.name()),
    }
}

/// The summary rows: cell, runs, newest median, noise, changes, newest run.
fn rows(t: &Trend) -> Vec<[String; 6]> {
    t.cells
        .iter()
        .map(|c| {
            [
                c.id.clone(),
                c.points.len().to_string(),
                c.points.last().map_or("—".into(), |p| t.metric.format(p.median_ns)),
                format!("±{:.1}% (threshold {:.1}%)", c.sigma * 100.0, c.threshold * 100.0),
                change_list(c),
                newest_text(c),
            ]
        })
        .collect()
}

const HEADER: [&str; 6] = ["cell", "runs", "newest median", "noise", "changes", "newest run"];

const METHOD: &str = "Change points: PELT (Killick, Fearnhead & Eckley 2012) on the log of each run's median, \
with the cell's noise σ learned from its own history (robust spread of successive differences), penalty 3·ln n, \
segments of at least 2 runs, and steps under max(2σ, 1%) merged away; the newest run alone starts a change when \
splitting it off pays the same penalty; nothing is called before a cell has 6 runs. See docs/history.md.";

/// The Markdown page.
pub fn markdown(t: &Trend) -> String {
    let mut out = format!("# Trend: {}{}\n\n", escape(&t.suite), in_metric(t));
    let _ = writeln!(
        out,
        "Machine `{}`, {} run(s): {}.\n\n{METHOD}\n",
        escape(&t.machine),
        t.runs.len(),
        t.runs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ")
    );
    let _ = writeln!(out, "| {} |\n|---|---:|---:|---:|---|---|", HEADER.join(" | "));
    for r in rows(t) {
        let cells: Vec<String> = r.iter().map(|x| escape(x)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    for c in &t.cells {
        let _ = writeln!(
            out,
            "\n## {}\n\n| run | started | commit | median | 95% interval |\n|---:|---|---|---:|---|",
            escape(&c.id)
        );
        for p in &c.points {
            let ci = match (p.ci_low_ns, p.ci_high_ns) {
                (Some(lo), Some(hi)) => format!("[{}, {}]", t.metric.format(lo), t.metric.format(hi)),
                _ => "—".into(),
            };
            let commit: String = p
                .git_commit
                .as_deref()
                .map_or_else(|| "—".to_string(), |c| c.chars().take(10).collect());
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                p.run_id,
                escape(&p.started_at),
                escape(&commit),
                t.metric.format(p.median_ns),
                ci
            );
        }
    }
    out
}

/// One cell's chart: medians with interval whiskers, segment levels, changes in red.
fn chart(c: &CellTrend, metric: crate::results::Metric) -> String {
    let (w, h, left, right, top, bottom) = (720.0, 200.0, 70.0, 10.0, 10.0, 30.0);
    let n = c.points.len();
    if n == 0 {
        return String::new();
    }
    let lo = c
        .points
        .iter()
        .map(|p| p.ci_low_ns.unwrap_or(p.median_ns).min(p.median_ns))
        .fold(f64::INFINITY, f64::min);
    let hi = c
        .points
        .iter()
        .map(|p| p.ci_high_ns.unwrap_or(p.median_ns).max(p.median_ns))
        .fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.1).max(hi * 0.01);
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    let x = |i: usize| left + (w - left - right) * if n == 1 { 0.5 } else { i as f64 / (n - 1) as f64 };
    let y = |v: f64| top + (h - top - bottom) * (1.0 - (v - lo) / (hi - lo));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\">\
<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/>\
<text x=\"4\" y=\"{}\" font-size=\"11\">{}</text><text x=\"4\" y=\"{}\" font-size=\"11\">{}</text>",
        w - left - right,
        h - top - bottom,
        top + 10.0,
        html(&metric.format(hi)),
        h - bottom,
        html(&metric.format(lo))
    );
    let mut bounds = vec![0];
    bounds.extend(c.changes.iter().map(|ch| ch.index));
    bounds.push(n);
    for seg in bounds.windows(2) {
        let level =
            (c.points[seg[0]..seg[1]].iter().map(|p| p.median_ns.ln()).sum::<f64>() / (seg[1] - seg[0]) as f64).exp();
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>",
            x(seg[0]),
            x(seg[1] - 1),
            y(level),
            y(level)
        );
    }
    for ch in &c.changes {
        let cx = (x(ch.index) + x(ch.index.saturating_sub(1))) / 2.0;
        let _ = write!(
            s,
            "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{top}\" y2=\"{}\" stroke=\"#c00\"/><text x=\"{:.1}\" y=\"{}\" font-size=\"11\" fill=\"#c00\">{}</text>",
            h - bottom,
            cx + 3.0,
            top + 22.0,
            html(&pct(ch.ratio()))
        );
    }
    let path: Vec<String> = c
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.median_ns)))
        .collect();
    let _ = write!(
        s,
        "<polyline fill=\"none\" stroke=\"#36c\" points=\"{}\"/>",
        path.join(" ")
    );
    let every = n.div_ceil(12).max(1);
    for (i, p) in c.points.iter().enumerate() {
        if let (Some(a), Some(b)) = (p.ci_low_ns, p.ci_high_ns) {
            let _ = write!(
                s,
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#36c\"/>",
                x(i),
                y(a),
                y(b)
            );
        }
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#36c\"><title>run {} {}: {}</title></circle>",
            x(i),
            y(p.median_ns),
            p.run_id,
            html(p.version.as_deref().unwrap_or("")),
            html(&metric.format(p.median_ns))
        );
        if i.is_multiple_of(every) || i + 1 == n {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
                x(i),
                h - 12.0,
                p.run_id
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The self-contained HTML page.
pub fn html_page(t: &Trend) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Trend: {0}{4}</title>\
<style>body{{font-family:system-ui,sans-serif;max-width:1000px;margin:2rem auto;padding:0 1rem}}\
table{{border-collapse:collapse}}td,th{{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left}}\
.reg{{color:#c00;font-weight:600}}.muted{{color:#666}}</style></head><body>\n<h1>Trend: {0}{4}</h1>\n\
<p>Machine <code>{1}</code>, {2} run(s). X axis: run id, oldest first; dots: each run's median with its 95% interval; \
dashed: the level between change points; red: a change.</p>\n<p class=\"muted\">{3}</p>\n<table><thead><tr>",
        html(&t.suite),
        html(&t.machine),
        t.runs.len(),
        html(METHOD),
        html(&in_metric(t))
    );
    for h in HEADER {
        let _ = write!(out, "<th>{h}</th>");
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in rows(t) {
        let class = if r[5].starts_with("REGRESSION") {
            " class=\"reg\""
        } else {
            ""
        };
        let cells: String = r.iter().map(|x| format!("<td>{}</td>", html(x))).collect();
        let _ = writeln!(out, "<tr{class}>{cells}</tr>");
    }
    out.push_str("</tbody></table>\n");
    for c in &t.cells {
        let _ = writeln!(
            out,
            "<section><h2>{}</h2><figure>{}</figure></section>",
            html(&c.id),
            chart(c, t.metric)
        );
    }
    out.push_str("</body></html>\n");
    out
}
