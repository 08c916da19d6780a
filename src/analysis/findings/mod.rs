//! Findings: the takeaways of a report, computed from the cells instead of
//! typed by hand (hand-written notes drift from their own tables). A pure
//! step over the `Results` document, after `analysis` has filled the
//! statistics; reports print the sentences it writes, first.
//!
//! Size findings look at a series (`series`: one operation at one value of
//! every parameter that does not set the payload size):
//! - `cost`: time ≈ fixed + per byte, with intervals, or why not: a `cliff`
//!   (sizes far slower than both neighbours), super-linear `growth` ("time
//!   ×4.0 per doubling of size: quadratic"), or "not linear in size";
//! - `crossover`: the fastest implementation at each size, and where it changes;
//! - `memory`: peak memory about constant, or growing k bytes per payload byte.
//!
//! Groups outside every series (no payload size, or one) get `fastest`.
//! Both decide a group by `winner`: a winner only where the judge's
//! verdicts confirm it, "the same" only where the verdict is `same`,
//! "unknown" otherwise, nothing from unstable runs.
//!
//! Whole-run findings: `unstable` (cells whose runs do not describe one
//! level, left out of every other finding), `warmup` (first run against
//! the steady median), `carryover` (a cell slower or faster after some
//! implementation than after itself), `drift` (identical work whose
//! intervals do not overlap, also a warning) and `failures` (cells that did
//! not end ok).
//!
//! `check` reads a document's findings against its verdicts and names any
//! finding a verdict contradicts: CI runs it over every committed report.

pub(super) mod carryover;
pub(super) mod carryover_screen;
pub(super) mod check;
pub(super) mod cliff;
pub(super) mod cost;
pub(super) mod crossover;
pub(super) mod drift;
pub(super) mod failures;
pub(super) mod fastest;
pub(super) mod growth;
pub(super) mod memory;
pub(super) mod series;
pub(super) mod unstable;
pub(super) mod warmup;
pub(super) mod winner;

#[cfg(test)]
pub(crate) mod tests;

use crate::base::params::params_key;
use crate::results::{Finding, FindingKind, Results, Warning};

/// Where a kind sits among an operation's findings: who wins first, then
/// costs, memory, warm-up, carry-over, drift and failures.
fn rank(kind: FindingKind) -> usize {
    match kind {
        FindingKind::Crossover | FindingKind::Winner => 0,
        FindingKind::Cost | FindingKind::NotLinear => 1,
        FindingKind::Memory => 2,
        FindingKind::FirstRun => 3,
        FindingKind::CarryOver => 4,
        FindingKind::Drift => 5,
        FindingKind::NotOk => 6,
        FindingKind::Unstable => 7,
        FindingKind::Other => 8,
    }
}

/// Every finding of `results`, grouped by operation (in suite order) and
/// the values of its other parameters, and
/// the drift warning when there is drift. Reads only cells and their stats.
pub(super) fn compute(results: &Results) -> (Vec<Finding>, Option<Warning>) {
    let settings = &results.analysis;
    let mut found = Vec::new();
    let all = series::all(results);
    for s in &all {
        let fits = cost::fits(s, settings.confidence);
        found.extend(crossover::findings(s, &fits, settings));
        found.extend(fits.iter().map(|f| cost::finding(s, f)));
        found.extend(memory::findings(s));
    }
    let in_series: std::collections::HashSet<&str> =
        all.iter().flat_map(|s| s.cells.iter().map(|c| c.id.as_str())).collect();
    found.extend(fastest::findings(results, &in_series, settings));
    found.extend(unstable::findings(results));
    found.extend(warmup::findings(results));
    found.extend(carryover::findings(results));
    let (drifted, warning) = drift::check(results);
    found.extend(drifted);
    found.extend(failures::findings(results));
    // By operation, then by the other parameters' values (in the order the
    // series came), then by kind: a report lists each series' findings together.
    let operations: std::collections::HashMap<&str, usize> = results
        .operations
        .iter()
        .enumerate()
        .rev()
        .map(|(i, o)| (o.as_str(), i))
        .collect();
    let mut labels: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut order = Vec::with_capacity(found.len());
    for f in &found {
        let next = labels.len();
        let label = *labels.entry(params_key(&f.params)).or_insert(next);
        let op = operations.get(f.operation.as_str()).copied().unwrap_or(usize::MAX);
        order.push((op, label, rank(f.kind)));
    }
    // A stable sort by the keys made once, each finding with its own.
    let mut keyed: Vec<_> = order.into_iter().zip(found).collect();
    keyed.sort_by_key(|(k, _)| *k);
    let found: Vec<Finding> = keyed.into_iter().map(|(_, f)| f).collect();
    (found, warning)
}

/// Puts fresh findings and the drift warning in `results`, replacing any it
/// held: what `analysis::analyze` ends with, and what `versus report` does
/// to a results file, so findings follow this versus, not the one that ran.
pub(super) fn refresh(results: &mut Results) {
    let (findings, warning) = compute(results);
    results.findings = findings;
    results.warnings.retain(|w| w.kind != drift::KIND);
    results.warnings.extend(warning);
}
