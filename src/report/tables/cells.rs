//! A cell's figures as a table shows them: its time, range, CPU, memory,
//! rate and runs, its ratio and verdict, or why it has none.

use crate::base::metric::Metric;
use crate::base::outcome::Outcome;
use crate::base::units::{format_bytes, format_nanos, format_rate};
use crate::results::{Cell, Comparison, Results, Verdict};

/// What a cell shows in place of a number when it is not ok.
pub(crate) fn not_ok(cell: &Cell) -> String {
    cell.outcome.label().to_string()
}

/// What a cell shows for a figure it lacks: its outcome when not ok; "—"
/// when ok but not measured in the metric shown (not counted).
pub(crate) fn missing(cell: &Cell) -> String {
    if cell.outcome == Outcome::Ok {
        "—".into()
    } else {
        not_ok(cell)
    }
}

pub(crate) fn time_text(cell: &Cell, metric: Metric) -> String {
    match &cell.stats {
        Some(s) => match s.stddev_ns {
            Some(sd) => format!("{} ± {}", metric.format(s.median_ns), metric.format(sd)),
            None => metric.format(s.median_ns),
        },
        None => missing(cell),
    }
}

/// "3.40 ms … 5.10 ms": the fastest and the slowest measured run.
pub(crate) fn range_text(cell: &Cell, metric: Metric) -> String {
    match &cell.stats {
        Some(s) => format!("{} … {}", metric.format(s.min_ns), metric.format(s.max_ns)),
        None => missing(cell),
    }
}

/// "2.30 ms / 1.50 ms": median user and system CPU time; "—" for in-process cells.
pub(crate) fn cpu_text(cell: &Cell) -> String {
    match &cell.stats {
        Some(s) => match (s.median_user_ns, s.median_sys_ns) {
            (Some(user), Some(sys)) => format!("{} / {}", cpu_time(user), cpu_time(sys)),
            _ => "—".into(),
        },
        None => not_ok(cell),
    }
}

/// A CPU time as `wait4` gave it. The kernel splits a process's CPU time
/// between user and system by which of them its clock ticks caught, so a
/// share no tick caught reads 0 (and is counted in the other): that is
/// shown as "< 1 tick", never as a time of zero.
pub(crate) fn cpu_time(ns: f64) -> String {
    if ns <= 0.0 { "< 1 tick".into() } else { format_nanos(ns) }
}

pub(crate) fn ratio_text(results: &Results, cell: &Cell) -> String {
    if cell.outcome != Outcome::Ok {
        return not_ok(cell);
    }
    results
        .comparison_of(cell)
        .map_or_else(|| "—".to_string(), verdict_text)
}

/// "1.27x slower [1.21, 1.33]", "1.25x faster [1.20, 1.31]", "≈ 1.00 [0.99, 1.01]",
/// "unknown 1.05 [0.97, 1.13]", "baseline"; in instructions "1.27x more",
/// "1.25x fewer". A faster ratio is shown inverted, so the factor always
/// reads as "times".
pub(crate) fn verdict_text(c: &Comparison) -> String {
    let (main, detail) = verdict_parts(c);
    if detail.is_empty() {
        main
    } else {
        format!("{main} {detail}")
    }
}

/// `verdict_text` in two parts: the verdict with its factor ("1.27x slower")
/// and the evidence ("[1.21, 1.33]"; "(n=3, no interval)").
pub(crate) fn verdict_parts(c: &Comparison) -> (String, String) {
    let (main, detail) = verdict_and_interval(c);
    if c.load_dependent.is_some() {
        // Widened for other work on the machine (`judge::contention`).
        return (main, format!("{detail} load-dependent"));
    }
    (main, detail)
}

fn verdict_and_interval(c: &Comparison) -> (String, String) {
    // Three decimals where two would print an interval as one number, or
    // hide whether it leaves a 1% band ("unknown 1.01 [1.01, 1.01]").
    let digits = match (c.ci_low, c.ci_high) {
        (Some(lo), Some(hi)) if hi - lo < 0.02 && matches!(c.verdict, Verdict::Same | Verdict::Unknown) => 3,
        _ => 2,
    };
    let interval = |lo: Option<f64>, hi: Option<f64>| match (lo, hi) {
        (Some(lo), Some(hi)) => format!("[{lo:.digits$}, {hi:.digits$}]"),
        _ => String::new(),
    };
    let (slower, faster) = c.metric.verdict_words();
    match c.verdict {
        Verdict::Baseline => ("baseline".into(), String::new()),
        Verdict::Slower => (format!("{:.digits$}x {slower}", c.ratio), interval(c.ci_low, c.ci_high)),
        Verdict::Faster => (
            format!("{:.digits$}x {faster}", 1.0 / c.ratio),
            interval(c.ci_high.map(|h| 1.0 / h), c.ci_low.map(|l| 1.0 / l)),
        ),
        Verdict::Same => (format!("≈ {:.digits$}", c.ratio), interval(c.ci_low, c.ci_high)),
        Verdict::Unknown if c.ci_low.is_none() => (
            format!("unknown {:.digits$}", c.ratio),
            format!("(n={}, no interval)", c.n),
        ),
        Verdict::Unknown => (format!("unknown {:.digits$}", c.ratio), interval(c.ci_low, c.ci_high)),
    }
}

/// How many measured runs `cells` had: "10", or "8–10" when they differ;
/// empty when none was measured.
pub(crate) fn runs_text<'c>(cells: impl Iterator<Item = &'c Cell>) -> String {
    let counts: Vec<usize> = cells.map(|c| c.samples.len()).filter(|n| *n > 0).collect();
    match (counts.iter().min(), counts.iter().max()) {
        (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
        (Some(lo), Some(hi)) => format!("{lo}–{hi}"),
        _ => String::new(),
    }
}

/// A peak-memory figure, "≤ 5.54 MB" when it is only an upper bound.
pub(crate) fn rss_text(bytes: u64, at_most: bool) -> String {
    if at_most {
        format!("≤ {}", format_bytes(bytes))
    } else {
        format_bytes(bytes)
    }
}

/// Calls per second at the median, with the interval of the median turned
/// into rates: in-process cells, whose figure readers compare as ops/sec.
pub(crate) fn rate_text(cell: &Cell) -> String {
    let Some(s) = cell.stats.as_ref().filter(|_| !cell.samples.iterations.is_empty()) else {
        return "—".into();
    };
    let rate = |ns: f64| 1e9 / ns;
    match (s.ci_low_ns, s.ci_high_ns) {
        (Some(lo), Some(hi)) => format!(
            "{} [{}, {}]",
            format_rate(rate(s.median_ns)),
            format_rate(rate(hi)),
            format_rate(rate(lo))
        ),
        _ => format_rate(rate(s.median_ns)),
    }
}

/// A column of a statistic: its text, "—" where the statistic is missing.
pub(crate) fn stat_with(f: impl Fn(&crate::results::Stats) -> Option<String>) -> impl Fn(&Cell) -> String {
    move |c: &Cell| {
        c.stats
            .as_ref()
            .map_or_else(String::new, |s| f(s).unwrap_or_else(|| "—".into()))
    }
}
