//! The verdicts of a run at several revisions: in each group, every column
//! at a later revision against the same implementation at the first
//! revision, by the judge every table uses (`judge::pair`: paired where the
//! columns took turns, a verdict withheld for a carry-over); a column whose cell did not
//! end ok has no comparison, and its outcome says why. Also which of them
//! are regressions beyond a threshold (`--fail-above`), by the rule
//! `versus diff --fail-above` uses.

use std::collections::HashMap;

use crate::base::metric::Metric;
use crate::judge::judge_pair;
use crate::results::{Cell, Comparison, Results, Verdict, group_key};

/// Fills `results.revisions.comparisons`; nothing without revisions.
pub(super) fn analyze(results: &mut Results) {
    let Some(mut revisions) = results.revisions.take() else {
        return;
    };
    let settings = results.analysis.clone();
    let cells: HashMap<(&str, String), &Cell> = results
        .cells
        .iter()
        .map(|c| ((c.implementation.as_str(), group_key(&c.operation, &c.params)), c))
        .collect();
    let mut comparisons = Vec::new();
    if let Some(first) = revisions.revisions.first().map(|r| r.label.clone()) {
        let base_of: HashMap<&str, &str> = revisions
            .columns
            .iter()
            .filter(|c| c.revision == first)
            .map(|c| (c.of.as_str(), c.implementation.as_str()))
            .collect();
        for col in revisions.columns.iter().filter(|c| c.revision != first) {
            let Some(base_name) = base_of.get(col.of.as_str()) else {
                continue;
            };
            for cell in results.cells.iter().filter(|c| c.implementation == col.implementation) {
                let key = group_key(&cell.operation, &cell.params);
                let Some(base) = cells.get(&(*base_name, key)) else {
                    continue;
                };
                if let Some(judged) = judge_pair(Metric::Wall, cell, base, &settings) {
                    comparisons.push(judged.comparison);
                }
            }
        }
    }
    revisions.comparisons = comparisons;
    results.revisions = Some(revisions);
}

/// The revision comparisons that are regressions beyond `threshold` (0.05
/// = 5%): a `slower` verdict and a ratio above 1 + threshold, as for
/// `versus diff --fail-above`.
pub fn regressions(results: &Results, threshold: f64) -> Vec<&Comparison> {
    results
        .revisions
        .iter()
        .flat_map(|r| &r.comparisons)
        .filter(|c| c.verdict == Verdict::Slower && c.ratio > 1.0 + threshold)
        .collect()
}
