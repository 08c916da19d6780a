//! Changes between two runs as tables: the "change since" table of a report
//! (`Results::since`, each cell against the same cell of an earlier run from
//! the history store) and `versus diff`'s table, in the same words. The
//! verdicts are `judge::change`'s; this module only formats them. A view
//! in another metric (`results::metric::view`) or a diff in one formats its
//! own figures and words ("more", "fewer" for instructions).

use crate::diff::Diff;
use crate::report::tables::{Table, TableKind};
use crate::results::{Change, Metric, Results, Verdict};

fn pct(x: f64) -> String {
    format!("{:+.1}%", (x - 1.0) * 100.0)
}

/// "+4.2% [-1.0%, +9.5%]", or "—" without a ratio.
fn change_text(ratio: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (ratio, low, high) {
        (Some(r), Some(lo), Some(hi)) => format!("{} [{}, {}]", pct(r), pct(lo), pct(hi)),
        (Some(r), _, _) => pct(r),
        _ => "—".into(),
    }
}

/// The verdict of a change in words: "slower", "faster", "same", "within
/// noise ±3.1%", "unknown (n=3)", or why there is none; in instructions
/// "more" and "fewer".
pub fn verdict_word(verdict: Option<Verdict>, note: Option<&str>, noise_floor: f64, metric: Metric) -> String {
    let within = note.and_then(|n| n.strip_prefix("within run-to-run noise "));
    let (slower, faster) = metric.verdict_words();
    match (verdict, within) {
        (Some(Verdict::Slower), _) => slower.into(),
        (Some(Verdict::Faster), _) => faster.into(),
        (Some(Verdict::Same), _) => format!("same (±{}%)", noise_floor * 100.0),
        (Some(Verdict::Unknown), Some(w)) => format!("within noise {}", w.split(' ').next().unwrap_or(w)),
        (Some(_), _) => match note {
            Some(n) if n.starts_with("too few runs") => "unknown (too few runs)".into(),
            _ => "unknown".into(),
        },
        (None, _) => note.unwrap_or_default().to_string(),
    }
}

fn row(c: &Change, noise_floor: f64, metric: Metric) -> Vec<String> {
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| metric.format(x));
    vec![
        c.id.clone(),
        fmt(c.old_median_ns),
        fmt(c.new_median_ns),
        change_text(c.ratio, c.ci_low, c.ci_high),
        verdict_word(c.verdict, c.note.as_deref(), noise_floor, metric),
    ]
}

/// What the intervals cover, for a table title. Counts are judged against
/// their own repeatability only: history's noise is learned from time.
fn covered(noise: Option<&str>, metric: Metric) -> &'static str {
    match (noise, metric) {
        (_, Metric::Instructions) => "change with its 95% interval (the two runs' own counts)",
        (Some(_), Metric::Wall) => "change with its 95% interval, widened to the cell's run-to-run noise",
        (None, Metric::Wall) => "change with its 95% interval (the two runs' own; no history of run-to-run noise yet)",
    }
}

/// The notes under a table: what the run-to-run noise rests on (time only).
fn noise_notes(noise: Option<&String>, metric: Metric) -> Vec<String> {
    noise.filter(|_| metric == Metric::Wall).cloned().into_iter().collect()
}

/// The smallest change these comparisons could have found: "could find
/// changes of 4.2% or more in its median cell, 9.8% in its least precise".
fn could_find(changes: &[Change]) -> Option<String> {
    let mut mdes: Vec<f64> = changes.iter().filter_map(|c| c.minimum_detectable).collect();
    mdes.sort_unstable_by(f64::total_cmp);
    let worst = *mdes.last()?;
    Some(format!(
        "Against this reference, a change of {:.1}% or more would be found in the median cell, {:.1}% in the least precise one (four times in five).",
        crate::stats::median_of_sorted(&mdes) * 100.0,
        worst * 100.0
    ))
}

/// The table, or None when the document has no earlier run to compare with.
pub fn table(results: &Results) -> Option<Table> {
    let since = results.since.as_ref().filter(|s| !s.changes.is_empty())?;
    let (floor, metric) = (results.analysis.noise, results.view);
    let mut notes = noise_notes(since.noise.as_ref(), metric);
    notes.extend(could_find(&since.for_metric(metric).changes));
    Some(Table {
        notes,
        kind: TableKind::Summary,
        title: format!(
            "Change since {} (run {}, {}): median {} per call, {}",
            since.label,
            since.run_id,
            since.started_at,
            metric.noun(),
            covered(since.noise.as_deref(), metric)
        ),
        labels: 1,
        runs: vec![],
        header: ["cell", "then", "now", "change since", "verdict"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows: since.changes.iter().map(|c| row(c, floor, metric)).collect(),
    })
}

/// `versus diff`'s table: every cell of both runs, then the geometric mean.
/// `noise_floor` is the band of the diff's metric.
pub fn diff_table(d: &Diff, noise_floor: f64) -> Table {
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| d.metric.format(x));
    let mut rows: Vec<Vec<String>> = d
        .rows
        .iter()
        .map(|r| {
            let c = r.change.as_ref();
            vec![
                r.id.clone(),
                fmt(r.old),
                fmt(r.new),
                change_text(c.map(|c| c.ratio), c.and_then(|c| c.ci_low), c.and_then(|c| c.ci_high)),
                verdict_word(
                    c.map(|c| c.verdict),
                    c.and_then(|c| c.note.as_deref()).or(r.note.as_deref()),
                    noise_floor,
                    d.metric,
                ),
            ]
        })
        .collect();
    if let Some(g) = d.geomean {
        rows.push(vec![
            "geomean".into(),
            String::new(),
            String::new(),
            pct(g),
            String::new(),
        ]);
    }
    Table {
        notes: noise_notes(d.noise.as_ref(), d.metric),
        runs: vec![],
        kind: TableKind::Summary,
        title: format!(
            "Median {} per cell, old → new: {}",
            d.metric.noun(),
            covered(d.noise.as_deref(), d.metric)
        ),
        labels: 1,
        header: ["cell", "old", "new", "change", "verdict"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    }
}
