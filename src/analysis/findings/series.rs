//! Which cells a size finding looks at together: one operation at one value
//! of every parameter that does not set the payload size, on one machine —
//! a "series" over payload sizes. A parameter sets the size when two cells
//! of the operation that differ only in it have different `payload_bytes`;
//! the rest (`armor`, `level`) split series. Cells without a payload size
//! are in no series: nothing is fitted against a size they do not have.

use indexmap::IndexMap;

use crate::base::metric::Metric;
use crate::base::params::Params;
use crate::base::params::params_key;
use crate::results::{Cell, Results, Stats};

/// One operation's cells at one value of its other parameters.
pub(crate) struct Series<'r> {
    pub operation: &'r str,
    /// The parameters that do not set the payload size, and their values here.
    pub params: Params,
    /// Every cell of the series with a payload size, ok or not, in document order.
    pub cells: Vec<&'r Cell>,
    /// What the cells' figures are (`Results::view`): findings word and format them by it.
    pub metric: Metric,
}

/// An ok cell's statistics and payload size.
pub(crate) fn sized_stats(c: &Cell) -> Option<(&Stats, u64)> {
    Some((c.stats.as_ref()?, c.payload_bytes.filter(|b| *b > 0)?))
}

impl<'r> Series<'r> {
    /// The ok cells of each implementation, smallest payload first.
    pub(crate) fn by_implementation(&self) -> IndexMap<&'r str, Vec<&'r Cell>> {
        let mut out: IndexMap<&str, Vec<&Cell>> = IndexMap::new();
        for c in self.cells.iter().copied().filter(|c| sized_stats(c).is_some()) {
            out.entry(c.implementation.as_str()).or_default().push(c);
        }
        for cells in out.values_mut() {
            cells.sort_by_key(|c| c.payload_bytes);
        }
        out
    }

    /// The series' groups (cells of one parameter set), smallest payload first,
    /// each with its payload size and its ok cells.
    pub(crate) fn by_size(&self) -> Vec<(u64, Vec<&'r Cell>)> {
        let mut groups: IndexMap<String, (u64, Vec<&Cell>)> = IndexMap::new();
        for c in &self.cells {
            let Some(bytes) = c.payload_bytes.filter(|b| *b > 0) else {
                continue;
            };
            let entry = groups.entry(params_key(&c.params)).or_insert((bytes, vec![]));
            if c.stats.is_some() {
                entry.1.push(c);
            }
        }
        let mut out: Vec<(u64, Vec<&Cell>)> = groups.into_values().collect();
        out.sort_by_key(|(b, _)| *b);
        out
    }
}

/// The parameters of `operation` that set its payload size.
fn size_params(cells: &[&Cell]) -> Vec<String> {
    let names: Vec<&String> = cells.iter().flat_map(|c| c.params.keys()).collect();
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if out.contains(name) {
            continue;
        }
        let mut seen: IndexMap<String, u64> = IndexMap::new();
        let sets_size = cells.iter().any(|c| {
            let rest = without(&c.params, std::slice::from_ref(name));
            let bytes = c.payload_bytes.unwrap_or(0);
            *seen.entry(params_key(&rest)).or_insert(bytes) != bytes
        });
        if sets_size {
            out.push(name.clone());
        }
    }
    out
}

fn without(params: &Params, names: &[String]) -> Params {
    params
        .iter()
        .filter(|(k, _)| !names.contains(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Every series with at least two payload sizes, operations in suite order.
pub(crate) fn all(results: &Results) -> Vec<Series<'_>> {
    let mut out = Vec::new();
    for op in &results.operations {
        let cells: Vec<&Cell> = results
            .cells
            .iter()
            .filter(|c| &c.operation == op && c.payload_bytes.is_some_and(|b| b > 0))
            .collect();
        let sizing = size_params(&cells);
        let mut by_rest: IndexMap<String, Series> = IndexMap::new();
        for c in cells {
            let rest = without(&c.params, &sizing);
            let key = format!("{}|{}", params_key(&rest), c.machine.as_deref().unwrap_or(""));
            by_rest
                .entry(key)
                .or_insert_with(|| Series {
                    operation: op.as_str(),
                    params: rest,
                    cells: vec![],
                    metric: results.view,
                })
                .cells
                .push(c);
        }
        out.extend(by_rest.into_values().filter(|s| {
            let mut sizes: Vec<u64> = s.cells.iter().filter_map(|c| c.payload_bytes).collect();
            sizes.sort_unstable();
            sizes.dedup();
            sizes.len() >= 2
        }));
    }
    out
}
