//! The levels of repetition behind each cell's interval: how many segments
//! (passes of the suite, worker processes) its runs were taken in, how much
//! of their variance lies between segments, and whether that widened the
//! interval (`judge::levels`). Shown only when some cell was measured in more
//! than one segment. Formatting only.

use crate::report::tables::{Table, TableKind};
use crate::results::Results;

/// The table, or `None` when every cell was measured in one go.
pub(crate) fn levels_table(results: &Results) -> Option<Table> {
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
            let modes = levels.modes.as_ref().map_or_else(
                || "—".to_string(),
                |m| format!("{} of {} {:.2}x slower", m.slow, m.of, m.ratio),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Cell, Samples, Segment};

    /// A cell of three passes of six runs: the middle one 1.8x slower.
    fn three_passes(name: &str, middle: u64) -> Cell {
        let wall: Vec<u64> = [1_000_000, middle, 1_000_000]
            .iter()
            .flat_map(|level| (0..6).map(move |i| level + i * 1_000))
            .collect();
        let mut c = Cell::of_samples(
            name,
            Samples {
                wall_ns: wall.into(),
                ..Default::default()
            },
        );
        c.segments = (0..3)
            .map(|pass| Segment {
                pass,
                fork: 0,
                runs: 6,
                warmup_runs: 0,
                started_at: format!("t{pass}"),
                counted: 0,
            })
            .collect();
        crate::analysis::fill_stats(&mut c, &crate::results::AnalysisSettings::default());
        c
    }

    #[test]
    fn the_two_levels_column_says_what_the_analysis_found() {
        let mut r: Results =
            serde_json::from_str(include_str!("../../../tests/fixtures/hostile-results.json")).unwrap();
        r.cells = vec![three_passes("apart", 1_800_000), three_passes("together", 1_000_000)];
        let modes = r.cells[0]
            .stats
            .as_ref()
            .unwrap()
            .levels
            .as_ref()
            .unwrap()
            .modes
            .clone();
        assert_eq!(modes.as_ref().map(|m| (m.slow, m.of)), Some((1, 3)), "{modes:?}");
        let t = levels_table(&r).unwrap();
        let column = |row: usize| t.rows[row][4].clone();
        assert!(
            column(0).starts_with("1 of 3 1.8") && column(0).ends_with("x slower"),
            "{:?}",
            t.rows
        );
        assert_eq!(column(1), "—");
    }
}
