//! Why a ratio and the medians beside it can disagree. A paired ratio
//! compares run i of an implementation with run i of the baseline, so when
//! adaptive sampling (`--precision`) stopped the cells of a group at
//! different counts, the ratio rests on the runs both have while each
//! median covers all of its own: a ratio table could rank two
//! implementations opposite to the medians printed next to it. Where that
//! happens the table says so, with the medians over the runs the ratio used.
//!
//! The medians are the document's (`Comparison::paired_medians`, made by
//! `judge::compare::paired_medians` when the run is analysed); this module
//! only says them.

use crate::base::units::format_nanos;
use crate::results::PairedMedians;

/// The note under a ratio table whose cells took different numbers of
/// runs: `rows` are (row label, implementation, baseline, medians).
pub(crate) fn note(rows: &[(String, String, String, PairedMedians)]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let each: Vec<String> = rows
        .iter()
        .map(|(row, imp, base, m)| {
            let at = if row.is_empty() {
                String::new()
            } else {
                format!("{row}: ")
            };
            format!(
                "{at}{imp} {} against {base} {} over the {} runs they took side by side",
                format_nanos(m.median_ns),
                format_nanos(m.baseline_median_ns),
                m.rounds
            )
        })
        .collect();
    Some(format!(
        "Where a group's cells took different numbers of runs (n shows the range), a paired ratio \
compares run i with run i over the runs both have, while each median covers all of its cell's runs; \
over the runs the ratio used, the medians are: {}.",
        each.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_each_row_and_the_runs_both_had() {
        let m = PairedMedians {
            rounds: 3,
            median_ns: 11.0,
            baseline_median_ns: 10.0,
        };
        let text = note(&[("1MB".into(), "a".into(), "b".into(), m)]).unwrap();
        assert!(
            text.contains("1MB: a 11.0 ns against b 10.0 ns over the 3 runs they took side by side"),
            "{text}"
        );
        assert!(note(&[]).is_none());
    }
}
