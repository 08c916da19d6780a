//! The levels of repetition behind each cell's interval: how many segments
//! (passes of the suite, worker processes) its runs were taken in, how much
//! of their variance lies between segments, and whether that widened the
//! interval (`judge::levels`). Shown only when some cell was measured in more
//! than one segment. Formatting only.

use crate::report::tables::{Table, TableKind};
use crate::results::Results;

/// The table, or `None` when every cell was measured in one go.
pub fn levels_table(results: &Results) -> Option<Table> {
    let rows: Vec<Vec<String>> = results
        .cells
        .iter()
        .filter_map(|c| {
            let levels = c.stats.as_ref()?.levels.as_ref()?;
            let what = if c.samples.iterations.is_empty() {
                "passes"
            } else {
                "forks"
            };
            let modes = crate::analysis::segment_modes(c).map_or_else(
                || "—".to_string(),
                |m| format!("{} of {} {:.2}x slower", m.slow.len(), m.of, m.ratio),
            );
            Some(vec![
                c.label(),
                format!("{} {what}", levels.segments),
                levels
                    .between_share
                    .map_or_else(|| "—".into(), |s| format!("{:.0}%", s * 100.0)),
                if levels.widened { "yes" } else { "no" }.into(),
                modes,
            ])
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    Some(Table {
        notes: vec![
            "Each interval covers the variation between runs and, where it was larger than the runs explain, between segments: the share is of one run's variance. Two levels name segments that settled apart."
                .into(),
        ],
        runs: vec![],
        kind: TableKind::Info,
        title: "Levels of repetition".into(),
        labels: 1,
        header: ["cell", "segments", "between segments", "interval widened", "two levels"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows,
    })
}
