//! `versus diff`'s table: every cell of both runs, then the geometric mean,
//! in the words of a report's change-since table (`report::sections::since`).

use super::diff::Diff;
use crate::report::pct;
use crate::report::since_words::{BESIDE, change_text, covered, machine_note, noise_notes, verdict_word};
use crate::report::{Table, TableKind};

/// The table of `d`; `noise_floor` is the band of the diff's metric.
pub fn table(d: &Diff, noise_floor: f64) -> Table {
    let fmt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| d.metric.format(x));
    let with_beside = d.rows.iter().any(|r| r.beside.is_some());
    let mut rows: Vec<Vec<String>> = d
        .rows
        .iter()
        .map(|r| {
            let c = r.change.as_ref();
            let (note, reason) = match &r.beside {
                Some(b) => (b.note.as_deref(), b.reason),
                None => (
                    c.and_then(|c| c.note.as_deref()).or(r.note.as_deref()),
                    c.and_then(|c| c.reason),
                ),
            };
            let mut cells = vec![
                r.id.clone(),
                fmt(r.old),
                fmt(r.new),
                change_text(c.map(|c| c.ratio), c.and_then(|c| c.ci_low), c.and_then(|c| c.ci_high)),
            ];
            if with_beside {
                cells.push(
                    r.beside
                        .as_ref()
                        .map_or_else(|| "—".into(), |b| change_text(Some(b.ratio), b.ci_low, b.ci_high)),
                );
            }
            cells.push(verdict_word(r.verdict(), reason, note, noise_floor, d.metric));
            cells
        })
        .collect();
    if let Some(g) = d.geomean {
        let mut last = vec!["geomean".into(), String::new(), String::new(), pct(g), String::new()];
        if with_beside {
            last.push(String::new());
        }
        rows.push(last);
    }
    let mut header = vec!["cell", "old", "new", "change"];
    if with_beside {
        header.push("beside the others");
    }
    header.push("verdict");
    let mut notes = noise_notes(d.noise.as_ref(), d.metric);
    let held = d
        .rows
        .iter()
        .filter(|r| !r.shared.is_empty())
        .filter_map(|r| r.change.as_ref()?.reason);
    notes.extend(machine_note(held, d.machine.as_ref()));
    if with_beside {
        notes.push(BESIDE.to_string());
    }
    Table {
        notes,
        runs: vec![],
        kind: TableKind::Summary,
        title: format!(
            "Median {} per cell, old → new: {}",
            d.metric.noun(),
            covered(d.noise.as_deref(), d.metric)
        ),
        labels: 1,
        header: header.iter().map(|s| s.to_string()).collect(),
        rows,
    }
}
