//! Who is fastest where there is no size to compare across: each group
//! (one operation at one parameter set) whose cells belong to no series
//! (no payload size, or a single size) gets one `winner` finding, decided
//! by the rule every size of a series uses (`winner::decide`): a winner
//! only where the verdicts confirm it, "the same" only where the verdict
//! is `same`, and "unknown" said plainly otherwise.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::analysis::findings::winner::{decide, sentence};
use crate::base::metric::Metric;
use crate::base::params::params_key;
use crate::results::{AnalysisSettings, Cell, Finding, FindingKind, Results};

/// One finding per group outside every series, in document order.
pub(crate) fn findings(results: &Results, in_series: &HashSet<&str>, settings: &AnalysisSettings) -> Vec<Finding> {
    let mut groups: IndexMap<String, Vec<&Cell>> = IndexMap::new();
    for c in results.cells.iter().filter(|c| !in_series.contains(c.id.as_str())) {
        let key = format!(
            "{}/{}|{}",
            c.operation,
            params_key(&c.params),
            c.machine.as_deref().unwrap_or("")
        );
        groups.entry(key).or_default().push(c);
    }
    groups
        .into_values()
        .filter_map(|cells| finding(&cells, settings, results.view))
        .collect()
}

fn finding(cells: &[&Cell], settings: &AnalysisSettings, metric: Metric) -> Option<Finding> {
    let bytes = cells.iter().find_map(|c| c.payload_bytes).unwrap_or(0);
    let d = decide(bytes, cells, settings)?;
    let fast = d.compared[0];
    let ids = d.cells.iter().map(|c| c.id.clone()).collect();
    let text = sentence(&d, "", settings.noise, metric);
    let mut found = Finding::new(FindingKind::Winner, &fast.operation, fast.params.clone(), text, ids);
    found.implementation = d.winner.implementation.clone();
    found.winners = Some(vec![d.winner]);
    Some(found)
}
