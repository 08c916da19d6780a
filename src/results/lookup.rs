//! A cell's comparison found without reading every comparison.
//!
//! The reports ask for each cell's comparison with its baseline, once per
//! table the cell appears in; matched one by one, a suite of 20,000 cells
//! made 400 million matches per table. A renderer opens a `Scope` on the
//! document it draws: while the scope lives, the document is borrowed, so
//! it cannot change, and `Results::comparison_of` answers from a map made
//! once when the scope opened. Without a scope (or for another document,
//! such as a metric's view drawn inside it) the comparisons are read one by
//! one, as before. The map is the thread's own: pages drawn on several
//! threads open a scope each.

use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;

use super::{Cell, Comparison, Results};
use crate::base::params::Params;

/// The map of the document a scope is open on: its address and each key's first comparison.
struct Map {
    scope: u64,
    document: *const Results,
    positions: HashMap<String, usize>,
}

thread_local! {
    /// The open scopes of this thread, innermost last.
    static OPEN: RefCell<Vec<Map>> = const { RefCell::new(Vec::new()) };
    /// The number of the next scope opened on this thread.
    static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn key(operation: &str, params: &Params, implementation: &str) -> String {
    format!("{}\u{0}{implementation}", super::group_key(operation, params))
}

/// While it lives, `results` answers `comparison_of` from a map (see the
/// module header). Not `Send`: it closes on the thread that opened it.
pub struct Scope<'r> {
    number: u64,
    _document: PhantomData<&'r Results>,
    _thread: PhantomData<*const ()>,
}

impl Drop for Scope<'_> {
    fn drop(&mut self) {
        OPEN.with(|open| open.borrow_mut().retain(|m| m.scope != self.number));
    }
}

impl Results {
    /// Opens a scope on this document (see the module header).
    pub fn scope(&self) -> Scope<'_> {
        let mut positions = HashMap::with_capacity(self.comparisons.len());
        for (i, k) in self.comparisons.iter().enumerate() {
            positions
                .entry(key(&k.operation, &k.params, &k.implementation))
                .or_insert(i);
        }
        let number = NEXT.with(|n| n.replace(n.get() + 1));
        OPEN.with(|open| {
            open.borrow_mut().push(Map {
                scope: number,
                document: self as *const Results,
                positions,
            })
        });
        Scope {
            number,
            _document: PhantomData,
            _thread: PhantomData,
        }
    }

    /// The comparison of `cell` with its baseline, if it has one: the first
    /// with its operation, parameters and implementation.
    pub fn comparison_of(&self, cell: &Cell) -> Option<&Comparison> {
        let me = self as *const Results;
        let mapped = OPEN.with(|open| {
            let open = open.borrow();
            let map = open.iter().rev().find(|m| m.document == me)?;
            Some(
                map.positions
                    .get(&key(&cell.operation, &cell.params, &cell.implementation))
                    .copied(),
            )
        });
        match mapped {
            Some(at) => at.map(|i| &self.comparisons[i]),
            None => self.comparisons.iter().find(|k| {
                k.implementation == cell.implementation && k.operation == cell.operation && k.params == cell.params
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::results::Results;

    #[test]
    fn a_scope_answers_as_the_search_does_and_closes() {
        let mut r = crate::results::from_text(include_str!("../../tests/fixtures/results/blocked.json")).unwrap();
        crate::analysis::analyze(&mut r, &[]);
        let searched: Vec<_> = r.cells.iter().map(|c| r.comparison_of(c).cloned()).collect();
        assert!(searched.iter().any(Option::is_some));
        {
            let _scope = r.scope();
            let mapped: Vec<_> = r.cells.iter().map(|c| r.comparison_of(c).cloned()).collect();
            assert_eq!(mapped, searched);
            // Another document inside the scope is searched, not mapped.
            let other: Results = r.clone();
            assert_eq!(other.comparison_of(&other.cells[0]), r.comparison_of(&r.cells[0]));
        }
        super::OPEN.with(|open| assert!(open.borrow().is_empty()));
    }
}
