//! Who is fastest where there is no size to compare across: each group
//! (one operation at one parameter set) whose cells belong to no series
//! (no payload size, or a single size) gets one `winner` finding, decided
//! by the same rule as a size of a series (`crossover::decide`): the
//! fastest wins when its median's interval lies below the runner-up's or
//! the report's own verdict confirms the runner-up slower; otherwise the
//! two tie.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::findings::crossover::{decide, pair_text};
use crate::plan::params_key;
use crate::results::{AnalysisSettings, Cell, Finding, FindingKind, Metric, Results};

/// One finding per group outside every series, in document order.
pub fn findings(results: &Results, in_series: &HashSet<&str>, settings: &AnalysisSettings) -> Vec<Finding> {
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
    let d = decide(0, cells, settings)?;
    let [fast, slow] = d.compared;
    let (f, s) = (fast.stats.as_ref()?, slow.stats.as_ref()?);
    let evidence = pair_text(metric, f.median_ns, s.median_ns, d.winner.ratio.as_ref());
    let text = match &d.winner.implementation {
        Some(w) => format!(
            "{w} {}, ahead of {} ({evidence})",
            metric.is_fastest(),
            slow.implementation
        ),
        None => format!(
            "{} and {} tie for {} ({evidence})",
            fast.implementation,
            slow.implementation,
            metric.fastest()
        ),
    };
    let ids = d.cells.iter().map(|c| c.id.clone()).collect();
    let mut found = Finding::new(FindingKind::Winner, &fast.operation, fast.params.clone(), text, ids);
    found.implementation = d.winner.implementation.clone();
    found.winners = Some(vec![d.winner]);
    Some(found)
}
