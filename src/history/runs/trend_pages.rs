//! `versus trend` as text: a self-contained HTML page (inline CSS and one
//! inline SVG chart per cell, no script) and a Markdown page, from a
//! `trend::Trend`. Each cell shows its median per run with the median's 95%
//! interval, the level of each segment between change points, and the
//! changes themselves. Formatting only: the change points come from
//! `stats::changepoint` through `trend::build`.
//!
//! A page stays small at a team's scale: every cell has a line in the
//! summary table, but only the cells drawn in full (those with a change, or
//! all of a small suite) get a chart and a section, and a long series is
//! drawn as a line and a band rather than a mark per run, and listed by its
//! segments and the runs around each change rather than run by run.

use std::fmt::Write as _;
use std::path::Path;

use crate::base::sink::html;
use crate::history::runs::trend::{CellTrend, Point, Trend};
use crate::report::formats::markdown::escape;
use crate::report::write_file;

/// Writes a suite's trend (`versus trend`) as HTML and/or Markdown.
pub(crate) fn write(trend: &Trend, html_path: Option<&Path>, markdown_path: Option<&Path>) -> anyhow::Result<()> {
    if let Some(p) = html_path {
        write_file(p, &html_page(trend))?;
    }
    if let Some(p) = markdown_path {
        write_file(p, &markdown(trend))?;
    }
    Ok(())
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
        .zip(&c.change_runs)
        .map(|(ch, run)| format!("run {run} ({})", pct(ch.ratio())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Series longer than this are listed by segment and drawn without a mark per run.
const LIST_EVERY_RUN_UP_TO: usize = 30;
const MARK_EVERY_RUN_UP_TO: usize = 200;

fn newest_text(c: &CellTrend) -> String {
    match c.newest_change() {
        Some(ch) if ch.ratio() > 1.0 => format!("REGRESSION {}", pct(ch.ratio())),
        Some(ch) => format!("improvement {}", pct(ch.ratio())),
        None => "steady".into(),
    }
}

/// The summary rows: cell, runs, newest median, noise, changes, newest run.
fn rows(t: &Trend) -> Vec<[String; 6]> {
    t.cells
        .iter()
        .map(|c| {
            [
                c.id.clone(),
                c.runs.to_string(),
                c.newest_median_ns.map_or("—".into(), |v| t.metric.format(v)),
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

/// " (instructions)" after the title of a trend in another metric than time.
fn in_metric(t: &Trend) -> String {
    match t.metric {
        crate::base::metric::Metric::Wall => String::new(),
        m => format!(" ({})", m.name()),
    }
}

/// What the trend covers, and which changed cells it does not draw.
fn scope_text(t: &Trend) -> String {
    let mut text = t.scope.as_ref().map(|s| format!(" Covers {s}.")).unwrap_or_default();
    if t.undrawn_changes > 0 {
        text += &format!(
            " {} more cell(s) with a change are in the table only (the newest and largest changes are drawn; \
             `versus trend --cell ID` draws any cell).",
            t.undrawn_changes
        );
    }
    text
}

fn runs_text(t: &Trend) -> String {
    match (t.runs.first(), t.runs.last()) {
        (Some(a), Some(b)) if t.runs.len() > 12 => format!("runs {} to {}", a.id, b.id),
        _ => t.runs.iter().map(|r| r.id.to_string()).collect::<Vec<_>>().join(", "),
    }
}

fn point_row(t: &Trend, p: &Point) -> String {
    let run = &t.runs[p.run];
    let ci = match (p.ci_low_ns, p.ci_high_ns) {
        (Some(lo), Some(hi)) => format!("[{}, {}]", t.metric.format(lo), t.metric.format(hi)),
        _ => "—".into(),
    };
    let commit: String = run
        .git_commit
        .as_deref()
        .map_or_else(|| "—".to_string(), |c| c.chars().take(10).collect());
    format!(
        "| {} | {} | {} | {} | {} |",
        run.id,
        escape(&run.started_at),
        escape(&commit),
        t.metric.format(p.median_ns),
        ci
    )
}

/// (first point, end) of each segment between changes.
fn segments(c: &CellTrend) -> Vec<(usize, usize)> {
    let mut bounds = vec![0];
    bounds.extend(c.changes.iter().map(|ch| ch.index));
    bounds.push(c.points.len());
    bounds.windows(2).map(|w| (w[0], w[1])).collect()
}

/// A long series in Markdown: its segments, then the runs on either side of each change.
fn markdown_long(out: &mut String, t: &Trend, c: &CellTrend) {
    let _ = writeln!(out, "| from run | to run | runs | level |\n|---:|---:|---:|---:|");
    for (a, b) in segments(c) {
        let level = (c.points[a..b].iter().map(|p| p.median_ns.ln()).sum::<f64>() / (b - a) as f64).exp();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            t.runs[c.points[a].run].id,
            t.runs[c.points[b - 1].run].id,
            b - a,
            t.metric.format(level)
        );
    }
    let _ = writeln!(
        out,
        "\nAround each change:\n\n| run | started | commit | median | 95% interval |\n|---:|---|---|---:|---|"
    );
    let mut shown = std::collections::BTreeSet::new();
    for ch in &c.changes {
        shown.extend(ch.index.saturating_sub(2)..(ch.index + 2).min(c.points.len()));
    }
    for i in shown {
        let _ = writeln!(out, "{}", point_row(t, &c.points[i]));
    }
}

/// The Markdown page.
pub(crate) fn markdown(t: &Trend) -> String {
    let mut out = format!("# Trend: {}{}\n\n", escape(&t.suite), in_metric(t));
    let _ = writeln!(
        out,
        "Machine `{}`, {} run(s): {}.{}\n\n{METHOD}\n",
        escape(&t.machine),
        t.runs.len(),
        runs_text(t),
        scope_text(t)
    );
    let _ = writeln!(out, "| {} |\n|---|---:|---:|---:|---|---|", HEADER.join(" | "));
    for r in rows(t) {
        let cells: Vec<String> = r.iter().map(|x| escape(x)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    for c in t.cells.iter().filter(|c| c.drawn()) {
        let _ = writeln!(out, "\n## {}\n", escape(&c.id));
        if c.points.len() <= LIST_EVERY_RUN_UP_TO {
            let _ = writeln!(
                out,
                "| run | started | commit | median | 95% interval |\n|---:|---|---|---:|---|"
            );
            for p in &c.points {
                let _ = writeln!(out, "{}", point_row(t, p));
            }
        } else {
            markdown_long(&mut out, t, c);
        }
    }
    out
}

/// A chart's geometry: the plot area and the value range of one cell.
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    n: usize,
    lo: f64,
    hi: f64,
}

impl Frame {
    fn new(c: &CellTrend) -> Frame {
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
        Frame {
            w: 720.0,
            h: 200.0,
            left: 70.0,
            right: 10.0,
            top: 10.0,
            bottom: 30.0,
            n: c.points.len(),
            lo: (lo - pad).max(0.0),
            hi: hi + pad,
        }
    }

    fn x(&self, i: usize) -> f64 {
        let at = if self.n == 1 {
            0.5
        } else {
            i as f64 / (self.n - 1) as f64
        };
        self.left + (self.w - self.left - self.right) * at
    }

    fn y(&self, v: f64) -> f64 {
        self.top + (self.h - self.top - self.bottom) * (1.0 - (v - self.lo) / (self.hi - self.lo))
    }
}

/// The dashed level of each segment, and a red line at each change.
fn levels_and_changes(s: &mut String, f: &Frame, c: &CellTrend) {
    let mut bounds = vec![0];
    bounds.extend(c.changes.iter().map(|ch| ch.index));
    bounds.push(f.n);
    for seg in bounds.windows(2) {
        let level =
            (c.points[seg[0]..seg[1]].iter().map(|p| p.median_ns.ln()).sum::<f64>() / (seg[1] - seg[0]) as f64).exp();
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>",
            f.x(seg[0]),
            f.x(seg[1] - 1),
            f.y(level),
            f.y(level)
        );
    }
    for ch in &c.changes {
        let cx = (f.x(ch.index) + f.x(ch.index.saturating_sub(1))) / 2.0;
        let _ = write!(
            s,
            "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{}\" y2=\"{}\" stroke=\"#c00\"/><text x=\"{:.1}\" y=\"{}\" font-size=\"11\" fill=\"#c00\">{}</text>",
            f.top,
            f.h - f.bottom,
            cx + 3.0,
            f.top + 22.0,
            html(&pct(ch.ratio()))
        );
    }
}

/// The medians as a line; over a long series, the 95% intervals as one band
/// beneath it (a mark per run would be most of the page).
fn line_and_band(s: &mut String, f: &Frame, c: &CellTrend) {
    if f.n > MARK_EVERY_RUN_UP_TO {
        let upper = c
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| (i, p.ci_high_ns.unwrap_or(p.median_ns)));
        let lower = c
            .points
            .iter()
            .enumerate()
            .rev()
            .map(|(i, p)| (i, p.ci_low_ns.unwrap_or(p.median_ns)));
        let band: Vec<String> = upper
            .chain(lower)
            .map(|(i, v)| format!("{:.0},{:.0}", f.x(i), f.y(v)))
            .collect();
        let _ = write!(
            s,
            "<polygon fill=\"#36c\" fill-opacity=\"0.2\" points=\"{}\"/>",
            band.join(" ")
        );
    }
    let path: Vec<String> = c
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", f.x(i), f.y(p.median_ns)))
        .collect();
    let _ = write!(
        s,
        "<polyline fill=\"none\" stroke=\"#36c\" points=\"{}\"/>",
        path.join(" ")
    );
}

/// A mark per run with its interval (over a long series, only either side
/// of each change), and run ids along the axis.
fn marks(s: &mut String, f: &Frame, t: &Trend, c: &CellTrend) {
    let every = f.n.div_ceil(12).max(1);
    let all = f.n <= MARK_EVERY_RUN_UP_TO;
    let at_change: std::collections::HashSet<usize> =
        c.changes.iter().flat_map(|ch| [ch.index - 1, ch.index]).collect();
    for (i, p) in c.points.iter().enumerate() {
        let run = t.runs[p.run].id;
        if all || at_change.contains(&i) {
            if let (Some(a), Some(b)) = (p.ci_low_ns, p.ci_high_ns) {
                let _ = write!(
                    s,
                    "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#36c\"/>",
                    f.x(i),
                    f.y(a),
                    f.y(b)
                );
            }
            let _ = write!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#36c\"><title>run {run} {}: {}</title></circle>",
                f.x(i),
                f.y(p.median_ns),
                html(p.version.as_deref().unwrap_or("")),
                html(&t.metric.format(p.median_ns))
            );
        }
        if i.is_multiple_of(every) || i + 1 == f.n {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{run}</text>",
                f.x(i),
                f.h - 12.0
            );
        }
    }
}

/// One cell's chart: medians with their 95% intervals, segment levels, changes in red.
fn chart(t: &Trend, c: &CellTrend) -> String {
    if c.points.is_empty() {
        return String::new();
    }
    let f = Frame::new(c);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\">\
<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/>\
<text x=\"4\" y=\"{}\" font-size=\"11\">{}</text><text x=\"4\" y=\"{}\" font-size=\"11\">{}</text>",
        f.w - f.left - f.right,
        f.h - f.top - f.bottom,
        f.top + 10.0,
        html(&t.metric.format(f.hi)),
        f.h - f.bottom,
        html(&t.metric.format(f.lo)),
        w = f.w,
        h = f.h,
        left = f.left,
        top = f.top,
    );
    levels_and_changes(&mut s, &f, c);
    line_and_band(&mut s, &f, c);
    marks(&mut s, &f, t, c);
    s.push_str("</svg>");
    s
}

/// The self-contained HTML page.
pub(crate) fn html_page(t: &Trend) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Trend: {0}{5}</title>\
<style>body{{font-family:system-ui,sans-serif;max-width:1000px;margin:2rem auto;padding:0 1rem}}\
table{{border-collapse:collapse}}td,th{{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left}}\
.reg{{color:#c00;font-weight:600}}.muted{{color:#666}}</style></head><body>\n<h1>Trend: {0}{5}</h1>\n\
<p>Machine <code>{1}</code>, {2} run(s).{4} Charts for the cells with a change (every cell of a small suite); \
X axis: run id, oldest first; blue: each run's median with its 95% interval (a band over long series); \
dashed: the level between change points; red: a change.</p>\n<p class=\"muted\">{3}</p>\n<table><thead><tr>",
        html(&t.suite),
        html(&t.machine),
        t.runs.len(),
        html(METHOD),
        html(&scope_text(t)),
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
    for c in t.cells.iter().filter(|c| c.drawn()) {
        let _ = writeln!(
            out,
            "<section><h2>{}</h2><figure>{}</figure></section>",
            html(&c.id),
            chart(t, c)
        );
    }
    out.push_str("</body></html>\n");
    out
}
