//! Cells that did not end ok, counted per implementation and operation by
//! outcome, with the payload sizes (or parameters) where: "sun-jdk17: 1
//! timeout at 100 MB". Skipped cells are left out: a skip is the suite's own
//! choice, or follows from a failure that is counted where it happened.

use indexmap::IndexMap;

use crate::base::outcome::Outcome;
use crate::base::params::params_key;
use crate::base::text;
use crate::results::{Cell, Finding, FindingKind, OutcomeCount, Results};

/// "1 timeout", "2 timeouts", "2 out of memory".
fn count(outcome: Outcome, n: usize) -> String {
    let words = match outcome {
        Outcome::Ok => "ok",
        Outcome::Failed => "failed",
        Outcome::Timeout if n == 1 => "timeout",
        Outcome::Timeout => "timeouts",
        Outcome::OutOfMemory => "out of memory",
        Outcome::WrongOutput => "wrong output",
        Outcome::Skipped => "skipped",
    };
    format!("{n} {words}")
}

/// Where a cell is: its payload size, else its parameters.
fn place(c: &Cell) -> String {
    match c.payload_bytes {
        Some(b) => text::payload(b),
        None if c.params.is_empty() => String::new(),
        None => params_key(&c.params),
    }
}

/// One finding per implementation and operation with failed cells.
pub(crate) fn findings(results: &Results) -> Vec<Finding> {
    let mut by_pair: IndexMap<(&str, &str), Vec<&Cell>> = IndexMap::new();
    for c in results.cells.iter().filter(|c| c.outcome.is_failure()) {
        by_pair
            .entry((c.operation.as_str(), c.implementation.as_str()))
            .or_default()
            .push(c);
    }
    by_pair
        .into_iter()
        .map(|((op, name), cells)| {
            let mut by_outcome: IndexMap<Outcome, Vec<&Cell>> = IndexMap::new();
            for c in &cells {
                by_outcome.entry(c.outcome).or_default().push(c);
            }
            let parts: Vec<String> = by_outcome
                .iter()
                .map(|(o, cs)| {
                    let places: Vec<String> = cs.iter().map(|c| place(c)).filter(|p| !p.is_empty()).collect();
                    if places.is_empty() {
                        count(*o, cs.len())
                    } else {
                        format!("{} at {}", count(*o, cs.len()), text::and_list(&places))
                    }
                })
                .collect();
            let mut f = Finding::new(
                FindingKind::NotOk,
                op,
                Default::default(),
                format!("{name}: {}", parts.join("; ")),
                cells.iter().map(|c| c.id.clone()).collect(),
            );
            f.implementation = Some(name.to_string());
            f.outcomes = by_outcome
                .iter()
                .map(|(o, cs)| OutcomeCount {
                    outcome: *o,
                    count: cs.len(),
                    payload_bytes: cs.iter().filter_map(|c| c.payload_bytes).collect(),
                })
                .collect();
            f
        })
        .collect()
}
