//! Changes between two runs as tables: the "change since" table of a report
//! (`Results::since`, each cell against the same cell of an earlier run from
//! the history store), in the words `versus diff`'s table
//! (`history::runs::diff_table`) shares. The verdicts are the run-to-run
//! judge's (`history::judge`), recorded in the document; this module only
//! formats them. A view
//! in another metric (`results::metric::view`) or a diff in one formats its
//! own figures and words ("more", "fewer" for instructions).

use crate::base::metric::Metric;
use crate::report::tables::{Table, TableKind};
use crate::results::{Change, MachineShift, Reason, Results, Since, Verdict};

use crate::report::sections::revisions::{bound, pct};

/// "+4.2% [-1.0%, +9.5%]", or "—" without a ratio.
pub(crate) fn change_text(ratio: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (ratio, low, high) {
        (Some(r), Some(lo), Some(hi)) => format!("{} [{}, {}]", pct(r), bound(lo), bound(hi)),
        (Some(r), _, _) => pct(r),
        _ => "—".into(),
    }
}

/// The verdict of a change in words: "slower", "faster", "same", "within
/// noise ±3.1%", "unknown (too few runs)", or why there is none (its
/// `note`); in instructions "more" and "fewer".
pub(crate) fn verdict_word(
    verdict: Option<Verdict>,
    reason: Option<Reason>,
    note: Option<&str>,
    noise_floor: f64,
    metric: Metric,
) -> String {
    let (slower, faster) = metric.verdict_words();
    match verdict {
        Some(Verdict::Slower) => slower.into(),
        Some(Verdict::Faster) => faster.into(),
        Some(Verdict::Same) => format!("same (±{}%)", noise_floor * 100.0),
        Some(_) => match reason {
            Some(Reason::WithinNoise { band }) if verdict == Some(Verdict::Unknown) => {
                format!("within noise ±{:.1}%", band * 100.0)
            }
            Some(Reason::TooFewRuns) => "unknown (too few runs)".into(),
            Some(Reason::MachineMoved) => "unknown (the machine moved)".into(),
            Some(Reason::GroupMoved) => "unknown (its group moved)".into(),
            _ => "unknown".into(),
        },
        None => note.unwrap_or_default().to_string(),
    }
}

fn row(c: &Change, noise_floor: f64, metric: Metric, with_beside: bool) -> Vec<String> {
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| metric.format(x));
    let (note, reason) = c
        .beside
        .as_ref()
        .map_or((c.note.as_deref(), c.reason), |b| (b.note.as_deref(), b.reason));
    let mut cells = vec![
        // A cell without parameters has an id ending in "/": shown without it.
        c.id.trim_end_matches('/').to_string(),
        fmt(c.old_median_ns),
        fmt(c.new_median_ns),
        change_text(c.ratio, c.ci_low, c.ci_high),
    ];
    if with_beside {
        cells.push(
            c.beside
                .as_ref()
                .map_or_else(|| "—".into(), |b| change_text(Some(b.ratio), b.ci_low, b.ci_high)),
        );
    }
    cells.push(verdict_word(c.verdict, reason, note, noise_floor, metric));
    cells
}

/// What the "beside the others" column means.
pub(crate) const BESIDE: &str = "Beside the others: the change of a cell's ratio to the other implementations of its group (the median of them, or each of two), which took turns with it and shared what the machine did; where a group has three or more implementations with history, the verdict is judged on it.";

/// What the "beside the others" column means, and every group that moved as
/// a whole beyond its noise.
fn beside_notes(since: &Since) -> Vec<String> {
    let mut notes = vec![BESIDE.to_string()];
    for s in since
        .shifts
        .iter()
        .filter(|s| matches!(s.verdict, Verdict::Slower | Verdict::Faster))
    {
        notes.push(format!(
            "All of {} ({}) moved {} [{}, {}] together since their last runs, beyond their run-to-run noise: the machine, or a change they all share.",
            s.group,
            s.implementations.join(", "),
            pct(s.ratio),
            pct(s.ci_low),
            pct(s.ci_high)
        ));
    }
    notes
}

/// What the machine did between the two runs, and how many changes its
/// group or the machine explained (`judge::shared`); `None` when neither
/// has anything to say.
pub(crate) fn shared_note(since: &Since) -> Option<String> {
    let held = since
        .changes
        .iter()
        .filter(|c| c.verdict == Some(Verdict::Unknown) && !c.shared.is_empty())
        .filter_map(|c| c.reason);
    machine_note(held, since.machine.as_ref())
}

/// `shared_note` from the reasons of the changes a reference withheld.
pub(crate) fn machine_note(held: impl Iterator<Item = Reason>, machine: Option<&MachineShift>) -> Option<String> {
    let (mut group, mut by_machine) = (0, 0);
    for reason in held {
        group += usize::from(reason == Reason::GroupMoved);
        by_machine += usize::from(reason == Reason::MachineMoved);
    }
    if group + by_machine == 0 && !machine.is_some_and(|m| m.verdict.is_change()) {
        return None;
    }
    let mut parts: Vec<String> = machine
        .map(|m| {
            let bounds = match (m.ci_low, m.ci_high) {
                (Some(lo), Some(hi)) => format!(" [{}, {}]", bound(lo), bound(hi)),
                _ => String::new(),
            };
            let held = if m.verdict.is_change() {
                "the machine changed"
            } else {
                "the machine held"
            };
            format!(
                "versus's speed reference, timed between rounds, ran {}{bounds} against that run ({held})",
                pct(m.ratio)
            )
        })
        .into_iter()
        .collect();
    if group + by_machine > 0 {
        parts.push(format!(
            "{group} change(s) read unknown because the other implementations of their group moved with them, {by_machine} because the machine did"
        ));
    }
    let text = parts.join("; ");
    let mut chars = text.chars();
    let first = chars.next()?.to_uppercase().collect::<String>();
    Some(format!("{first}{}.", chars.as_str()))
}

/// What the intervals cover, for a table title. Counts are judged against
/// their own repeatability only: history's noise is learned from time.
pub(crate) fn covered(noise: Option<&str>, metric: Metric) -> &'static str {
    match (noise, metric) {
        (_, Metric::Instructions) => "change with its 95% interval (the two runs' own counts)",
        (Some(_), Metric::Wall) => "change with its 95% interval, widened to the cell's run-to-run noise",
        (None, Metric::Wall) => "change with its 95% interval (the two runs' own; no history of run-to-run noise yet)",
    }
}

/// The notes under a table: what the run-to-run noise rests on (time only).
pub(crate) fn noise_notes(noise: Option<&String>, metric: Metric) -> Vec<String> {
    noise.filter(|_| metric == Metric::Wall).cloned().into_iter().collect()
}

/// The smallest change these comparisons could have found: "could find
/// changes of 4.2% or more in its median cell, 9.8% in its least precise".
fn could_find(changes: &[Change]) -> Option<String> {
    let (median, worst) = crate::results::detectable(changes.iter().filter_map(|c| c.minimum_detectable))?;
    Some(format!(
        "Against this reference, a change of {:.1}% or more would be found in the median cell, {:.1}% in the least precise one (four times in five).",
        median * 100.0,
        worst * 100.0
    ))
}

/// The table, or None when the document has no earlier run to compare with.
pub(crate) fn table(results: &Results) -> Option<Table> {
    let since = results.since.as_ref().filter(|s| !s.changes.is_empty())?;
    let (floor, metric) = (results.analysis.noise, results.view);
    let mut notes = noise_notes(since.noise.as_ref(), metric);
    notes.extend(shared_note(since).filter(|_| metric == Metric::Wall));
    notes.extend(could_find(&since.for_metric(metric).changes));
    let with_beside = metric == Metric::Wall && since.changes.iter().any(|c| c.beside.is_some());
    if with_beside {
        notes.extend(beside_notes(since));
    }
    let mut header = vec!["cell", "then", "now", "change since"];
    if with_beside {
        header.push("beside the others");
    }
    header.push("verdict");
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
        header: header.iter().map(|s| s.to_string()).collect(),
        rows: since
            .changes
            .iter()
            .map(|c| row(c, floor, metric, with_beside))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::NoiseSource as Source;
    use crate::results::RunNoise;
    use crate::results::{Beside, Shift};

    fn noise() -> RunNoise {
        RunNoise {
            sigma: 0.01,
            runs: 8,
            source: Source::Cell,
        }
    }

    #[test]
    fn a_bound_just_past_zero_keeps_its_side() {
        assert_eq!(bound(0.99981), "-0.02%");
        assert_eq!(bound(1.00013), "+0.01%");
        assert_eq!(bound(1.042), "+4.2%");
        assert_eq!(bound(1.0), "+0.0%");
        assert_eq!(
            change_text(Some(1.0002), Some(0.997), Some(1.002)),
            "+0.0% [-0.3%, +0.2%]"
        );
    }

    fn change(id: &str, beside: Option<Beside>) -> Change {
        Change {
            id: id.into(),
            old_median_ns: Some(1e6),
            new_median_ns: Some(1.09e6),
            ratio: Some(1.09),
            ci_low: Some(1.07),
            ci_high: Some(1.11),
            verdict: Some(beside.as_ref().map_or(Verdict::Slower, |b| b.verdict)),
            minimum_detectable: Some(0.03),
            note: None,
            reason: None,
            noise: Some(noise()),
            beside,
            shared: vec![],
        }
    }

    #[test]
    fn a_change_beside_the_others_has_its_column_and_its_verdict_and_a_shift_its_sentence() {
        let mut r: Results =
            serde_json::from_str(include_str!("../../../tests/fixtures/hostile-results.json")).unwrap();
        let beside = Beside {
            against: vec!["b".into(), "c".into(), "d".into()],
            ratio: 1.002,
            ci_low: Some(0.99),
            ci_high: Some(1.014),
            verdict: Verdict::Unknown,
            minimum_detectable: Some(0.02),
            note: None,
            reason: None,
            noise: noise(),
        };
        r.since = Some(Since {
            run_id: 3,
            label: "the last run".into(),
            started_at: "2026-11-27T00:00:00Z".into(),
            warning: None,
            noise: Some("learned".into()),
            changes: vec![change("op/a", Some(beside)), change("op/x", None)],
            metrics: Default::default(),
            shifts: vec![Shift {
                group: "op/".into(),
                implementations: vec!["a".into(), "b".into(), "c".into(), "d".into()],
                ratio: 1.09,
                ci_low: 1.05,
                ci_high: 1.13,
                verdict: Verdict::Slower,
                noise: noise(),
            }],
            machine: None,
        });
        let t = table(&r).unwrap();
        assert_eq!(t.header[4], "beside the others");
        // The absolute change is +9%, but beside the others nothing moved: not called.
        assert_eq!(t.rows[0][4], "+0.2% [-1.0%, +1.4%]");
        assert_eq!(t.rows[0][5], "unknown");
        assert_eq!((t.rows[1][4].as_str(), t.rows[1][5].as_str()), ("—", "slower"));
        assert!(
            t.notes
                .iter()
                .any(|n| n.starts_with("All of op/ (a, b, c, d) moved +9.0%")),
            "{:?}",
            t.notes
        );
    }
}
