//! Drift across the run, seen where the suite measured the same work more
//! than once. Cells of one implementation and operation (on one machine)
//! that agree on every parameter their work uses (`cells[].work_params`,
//! recorded at plan time) did identical work, whatever the other parameters
//! say: a cold start that ignores the payload, run at every size. Their
//! medians should agree within their intervals. When some do not overlap,
//! each cell's interval (runs of one group, taken side by side) misses how
//! much the machine moved between groups, which ran one after another: a
//! difference between groups smaller than that spread is not confirmed.
//!
//! Results written before `work_params` was recorded cannot tell identical
//! work from different work, and get no drift check.

use indexmap::IndexMap;

use crate::base::params::Params;
use crate::base::params::params_key;
use crate::base::text;
use crate::results::{Cell, Drift, Finding, FindingKind, Results, Warning};

/// The warning's kind in `results.warnings`.
pub(crate) const KIND: &str = "drift";

/// The cells of `results` that did the same work, in sets of two or more.
fn identical_work(results: &Results) -> Vec<(Params, Vec<&Cell>)> {
    let mut sets: IndexMap<String, (Params, Vec<&Cell>)> = IndexMap::new();
    for c in &results.cells {
        let (Some(used), Some(_)) = (&c.work_params, &c.stats) else {
            continue;
        };
        // Two modes already say the cell moved; its interval is no evidence of drift.
        if crate::analysis::findings::unstable::is_unstable(c) {
            continue;
        }
        let shared: Params = c
            .params
            .iter()
            .filter(|(k, _)| used.contains(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let key = format!(
            "{}|{}|{}|{}",
            c.machine.as_deref().unwrap_or(""),
            c.implementation,
            c.operation,
            params_key(&shared)
        );
        sets.entry(key).or_insert_with(|| (shared, vec![])).1.push(c);
    }
    sets.into_values().filter(|(_, cells)| cells.len() >= 2).collect()
}

/// A drift finding for each set of identical work whose intervals do not
/// all overlap, and one warning naming them all.
pub(crate) fn check(results: &Results) -> (Vec<Finding>, Option<Warning>) {
    let mut found = Vec::new();
    let mut named = Vec::new();
    for (shared, cells) in identical_work(results) {
        let interval = |c: &Cell| c.stats.as_ref().and_then(|s| Some((s.ci_low_ns?, s.ci_high_ns?)));
        let intervals: Vec<(f64, f64)> = cells.iter().filter_map(|c| interval(c)).collect();
        let highest_low = intervals.iter().map(|i| i.0).fold(f64::MIN, f64::max);
        let lowest_high = intervals.iter().map(|i| i.1).fold(f64::MAX, f64::min);
        if intervals.len() < 2 || highest_low <= lowest_high {
            continue;
        }
        let medians: Vec<f64> = cells
            .iter()
            .filter_map(|c| c.stats.as_ref())
            .map(|s| s.median_ns)
            .collect();
        let low = medians.iter().copied().fold(f64::MAX, f64::min);
        let high = medians.iter().copied().fold(f64::MIN, f64::max);
        let mut differing: Vec<String> = Vec::new();
        for c in &cells {
            for (k, v) in &c.params {
                if !shared.contains_key(k) && cells[0].params.get(k) != Some(v) && !differing.contains(k) {
                    differing.push(k.clone());
                }
            }
        }
        let first = cells[0];
        let sentence = format!(
            "{}: identical work in {} groups (differing only in {}, which it does not use) gave medians of {} ({} apart) with intervals that do not overlap: the intervals understate the spread between groups",
            first.implementation,
            cells.len(),
            text::and_list(&differing),
            text::time_range(low, high),
            text::ratio(high / low),
        );
        named.push(format!(
            "{} {} ({}, {})",
            first.implementation,
            first.operation,
            text::time_range(low, high),
            text::ratio(high / low)
        ));
        let mut f = Finding::new(
            FindingKind::Drift,
            &first.operation,
            shared,
            sentence,
            cells.iter().map(|c| c.id.clone()).collect(),
        );
        f.implementation = Some(first.implementation.clone());
        f.drift = Some(Drift {
            low_ns: low,
            high_ns: high,
            params: differing,
        });
        found.push(f);
    }
    let warning = (!named.is_empty()).then(|| Warning {
        kind: KIND.into(),
        message: format!(
            "{} set(s) of cells did identical work (same implementation, operation and command; only parameters the command does not use differ), yet their medians' intervals do not overlap. Groups run one after another, so how much the machine drifted between them is in no cell's interval: a difference between groups smaller than this spread is not confirmed. Re-run on a quieter machine, and repeat the run to see which differences between groups hold (versus diff). Sets: {}.",
            named.len(),
            named.join(", ")
        ),
    });
    (found, warning)
}
