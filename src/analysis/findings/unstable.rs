//! Cells whose runs do not describe one level (`judge::stability`), named
//! once per operation: "unstable runs, their medians not used as evidence
//! (…): wasm-wazero at 1 MiB (two modes, 2.01 and 45.3 ms)". Every other
//! finding leaves their medians out: no crossover, cost line or drift rests
//! on them, and a winner among them only where every run of the fastest
//! beat every run of the others (`winner`).

use indexmap::IndexMap;

use crate::base::text;
use crate::results::{Cell, Finding, FindingKind, Instability, InstabilityKind, Results, UnstableCell};

/// Whether `c` is ok with unstable runs.
pub(crate) fn is_unstable(c: &Cell) -> bool {
    c.stats.as_ref().is_some_and(|s| s.unstable.is_some())
}

/// "two modes, 2.01 and 45.3 ms", "runs spread widely, middle half
/// 2.10–60.2 ms", "passes or forks at 1.00 and 1.80 ms".
pub(crate) fn why(i: &Instability) -> String {
    let pair = text::time_pair(i.low_ns, i.high_ns).replace(" against ", " and ");
    match i.kind {
        InstabilityKind::TwoModes => format!("two modes, {pair}"),
        InstabilityKind::Spread => format!(
            "runs spread widely, middle half {}",
            text::time_range(i.low_ns, i.high_ns)
        ),
        InstabilityKind::Segments => format!("passes or forks settled at {pair}"),
        InstabilityKind::Other => format!("unstable, {pair}"),
    }
}

/// Where a cell is: its payload size, else its parameters.
fn place(c: &Cell) -> String {
    match c.payload_bytes {
        Some(b) => text::payload(b),
        None => crate::base::params::params_key(&c.params),
    }
}

/// One finding per operation with unstable cells.
pub(crate) fn findings(results: &Results) -> Vec<Finding> {
    let mut by_op: IndexMap<&str, Vec<&Cell>> = IndexMap::new();
    for c in results.cells.iter().filter(|c| is_unstable(c)) {
        by_op.entry(c.operation.as_str()).or_default().push(c);
    }
    by_op
        .into_iter()
        .map(|(op, cells)| {
            let listed: Vec<UnstableCell> = cells
                .iter()
                .filter_map(|c| {
                    Some(UnstableCell {
                        cell: c.id.clone(),
                        implementation: c.implementation.clone(),
                        payload_bytes: c.payload_bytes,
                        instability: c.stats.as_ref()?.unstable.clone()?,
                    })
                })
                .collect();
            let parts: Vec<String> = listed
                .iter()
                .zip(&cells)
                .map(|(u, c)| match place(c) {
                    // A cell without parameters has no place to name.
                    p if p.is_empty() => format!("{} ({})", c.implementation, why(&u.instability)),
                    p => format!("{} at {p} ({})", c.implementation, why(&u.instability)),
                })
                .collect();
            let sentence = format!(
                "unstable runs, their medians not used as evidence (a winner only where every run is ahead): {}",
                parts.join(", ")
            );
            let mut f = Finding::new(
                FindingKind::Unstable,
                op,
                Default::default(),
                sentence,
                cells.iter().map(|c| c.id.clone()).collect(),
            );
            if let [one] = listed.as_slice() {
                f.implementation = Some(one.implementation.clone());
            }
            f.unstable = listed;
            f
        })
        .collect()
}
