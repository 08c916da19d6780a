//! What `--resume` keeps from the journal: every recorded group, except
//! those holding a cell that failed for versus's own reasons (its output
//! folder full, a run it could not start; see `HarnessFault`). Those groups
//! are measured again, whole: a group's cells were interleaved and are
//! compared as pairs, so a group is kept whole or not at all. A failure of
//! the code under test stays its outcome and is not run again.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::base::outcome::HarnessFault;
use crate::results::{Cell, Results, group_key};

/// The journal's cells, split into those kept and those measured again.
#[derive(Debug, Default)]
pub(crate) struct Resumed {
    /// Cells of the groups kept, by id.
    pub keep: IndexMap<String, Cell>,
    /// The cells whose failure was versus's own (their groups are measured again): id and fault.
    pub again: Vec<(String, HarnessFault)>,
    /// How many groups are measured again.
    pub groups_again: usize,
}

/// Splits recorded cells into the groups kept and those measured again.
pub(crate) fn split(cells: IndexMap<String, Cell>) -> Resumed {
    let faulted: Vec<&Cell> = cells.values().filter(|c| c.harness_fault.is_some()).collect();
    let again_groups: HashSet<String> = faulted.iter().map(|c| group_key(&c.operation, &c.params)).collect();
    let again = faulted
        .iter()
        .filter_map(|c| Some((c.id.clone(), c.harness_fault?)))
        .collect();
    let groups_again = again_groups.len();
    let keep = cells
        .into_iter()
        .filter(|(_, c)| !again_groups.contains(&group_key(&c.operation, &c.params)))
        .collect();
    Resumed {
        keep,
        again,
        groups_again,
    }
}

/// Says which cells are measured again and why, for the terminal and the report.
pub(crate) fn notice(resumed: &Resumed) -> Option<String> {
    if resumed.again.is_empty() {
        return None;
    }
    Some(format!(
        "measuring again {} group(s): {} cell(s) had failed for versus's own reasons, not the code's ({})",
        resumed.groups_again,
        resumed.again.len(),
        listed(resumed.again.iter().map(|(id, f)| (id.as_str(), *f)))
    ))
}

/// After a run: the cells that failed for versus's own reasons, and how to
/// measure them again.
pub(crate) fn hint(results: &Results, dir: &std::path::Path) -> Option<String> {
    let faulted: Vec<(&str, HarnessFault)> = results
        .cells
        .iter()
        .filter_map(|c| Some((c.id.as_str(), c.harness_fault?)))
        .collect();
    if faulted.is_empty() {
        return None;
    }
    Some(format!(
        "{} cell(s) failed for versus's own reasons, not the code's ({}); once that is fixed, --resume {} measures them again",
        faulted.len(),
        listed(faulted.into_iter()),
        dir.display()
    ))
}

/// "id: why; id: why", at most five, then how many more.
fn listed<'a>(cells: impl Iterator<Item = (&'a str, HarnessFault)>) -> String {
    let all: Vec<String> = cells.map(|(id, f)| format!("{id}: {}", f.describe())).collect();
    let mut text = all.iter().take(5).cloned().collect::<Vec<_>>().join("; ");
    if all.len() > 5 {
        text.push_str(&format!("; and {} more", all.len() - 5));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::outcome::Outcome;
    use crate::base::params::ParamValue;
    use crate::base::params::Params;

    fn cell(imp: &str, n: i64, outcome: Outcome, fault: Option<HarnessFault>) -> (String, Cell) {
        let params: Params = [("n".to_string(), ParamValue::Int(n))].into_iter().collect();
        let json = serde_json::json!({
            "id": format!("x/{imp}/n={n}"), "implementation": imp, "operation": "x",
            "params": params, "outcome": outcome, "message": null, "payload_bytes": null,
            "warmup_runs": 0, "runs_requested": 1, "warmup_wall_ns": [],
            "samples": {"wall_ns": [], "user_ns": [], "sys_ns": [], "max_rss_bytes": []},
            "harness_fault": fault, "stats": null
        });
        let c: Cell = serde_json::from_value(json).unwrap();
        (c.id.clone(), c)
    }

    #[test]
    fn a_group_with_a_harness_failure_is_measured_again_whole() {
        let cells: IndexMap<String, Cell> = [
            cell("a", 1, Outcome::Ok, None),
            cell("b", 1, Outcome::Failed, Some(HarnessFault::OutputFull)),
            cell("a", 2, Outcome::Ok, None),
            // The code's own failure stays its outcome.
            cell("b", 2, Outcome::Failed, None),
        ]
        .into_iter()
        .collect();
        let r = split(cells);
        assert_eq!(r.keep.keys().collect::<Vec<_>>(), ["x/a/n=2", "x/b/n=2"]);
        assert_eq!(r.again, [("x/b/n=1".to_string(), HarnessFault::OutputFull)]);
        assert_eq!(r.groups_again, 1);
        assert!(notice(&r).unwrap().contains("x/b/n=1"));
    }

    #[test]
    fn nothing_is_said_when_every_failure_was_the_codes() {
        let cells: IndexMap<String, Cell> = [cell("a", 1, Outcome::Failed, None)].into_iter().collect();
        let r = split(cells);
        assert_eq!(r.keep.len(), 1);
        assert!(notice(&r).is_none());
    }
}
