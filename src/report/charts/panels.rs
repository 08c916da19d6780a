//! Which cells a report draws every run of (`runs::distribution`). A strip
//! is a few kilobytes, so a thousand cells made a ten-megabyte page that
//! a browser opens slowly and a site cannot afford. A report draws strips
//! up to [`BUDGET_BYTES`], starting with the cells whose runs a reader
//! most needs to see — those with outliers, two levels or no steady state,
//! then the widest interval for their median — and counts the rest, whose
//! every run stays in results.json.

use crate::report::tables::Subset;
use crate::results::{Cell, SteadyState};

/// The SVG bytes of run strips one report draws at most.
pub(crate) const BUDGET_BYTES: usize = 800_000;

/// Each subset's strips in table order, and how many of its drawable cells were left out.
pub(crate) struct Panels {
    pub svgs: Vec<Vec<String>>,
    pub left: Vec<usize>,
}

/// How much a cell's runs need looking at: larger first.
fn attention(cell: &Cell) -> (bool, f64) {
    let Some(s) = cell.stats.as_ref() else {
        return (false, 0.0);
    };
    let odd = !s.outliers.is_empty() || s.levels.is_some() || s.steady_state == SteadyState::NotReached;
    let width = match (s.ci_low_ns, s.ci_high_ns) {
        (Some(lo), Some(hi)) if s.median_ns > 0.0 => (hi - lo) / s.median_ns,
        _ => 0.0,
    };
    (odd, width)
}

/// The strips of `subsets`, most needed first until `budget` bytes are spent.
pub(crate) fn panels(subsets: &[Subset], budget: usize) -> Panels {
    let mut order: Vec<(usize, usize)> = subsets
        .iter()
        .enumerate()
        .flat_map(|(i, s)| (0..s.cells.len()).map(move |k| (i, k)))
        .collect();
    order.sort_by(|&(i, k), &(j, l)| {
        let (a, b) = (attention(subsets[i].cells[k]), attention(subsets[j].cells[l]));
        b.0.cmp(&a.0).then(b.1.total_cmp(&a.1))
    });
    let mut drawn: Vec<Vec<Option<String>>> = subsets.iter().map(|s| vec![None; s.cells.len()]).collect();
    let mut left = vec![0; subsets.len()];
    let (mut spent, mut full) = (0, false);
    for (i, k) in order {
        let s = &subsets[i];
        let c = s.cells[k];
        if full {
            // Once a strip did not fit, the rest are counted, not drawn.
            left[i] += usize::from(c.stats.is_some());
            continue;
        }
        let group = s.cells.iter().copied().filter(|o| o.params == c.params);
        let Some(svg) = super::run_range(group).and_then(|r| super::distribution(c, r)) else {
            continue;
        };
        if spent + svg.len() > budget {
            (full, left[i]) = (true, left[i] + 1);
            continue;
        }
        spent += svg.len();
        drawn[i][k] = Some(svg);
    }
    Panels {
        svgs: drawn.into_iter().map(|d| d.into_iter().flatten().collect()).collect(),
        left,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tables::subsets;
    use crate::results::Results;

    fn age() -> Results {
        serde_json::from_str(include_str!("../../../tests/fixtures/results/age.json")).unwrap()
    }

    #[test]
    fn within_the_budget_every_cell_is_drawn_and_none_counted_out() {
        let r = age();
        let s = subsets(&r);
        let p = panels(&s, usize::MAX);
        for (k, sub) in s.iter().enumerate() {
            let drawable = sub.cells.iter().filter(|c| c.stats.is_some()).count();
            assert_eq!((p.svgs[k].len(), p.left[k]), (drawable, 0), "{}", sub.operation);
        }
    }

    #[test]
    fn over_the_budget_the_odd_cell_is_drawn_first_and_the_rest_are_counted() {
        let mut r = age();
        for c in &mut r.cells {
            if let Some(s) = c.stats.as_mut() {
                s.outliers.clear();
                s.levels = None;
                s.steady_state = SteadyState::Reached;
            }
        }
        let odd = r.cells.iter().rposition(|c| c.stats.is_some()).unwrap();
        r.cells[odd].stats.as_mut().unwrap().outliers = vec![0];
        let s = subsets(&r);
        let drawable: usize = s
            .iter()
            .map(|x| x.cells.iter().filter(|c| c.stats.is_some()).count())
            .sum();
        // Room for one strip and a little: the cell with an outlier, although it comes last.
        let one = panels(&s, usize::MAX)
            .svgs
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap();
        let p = panels(&s, one + one / 2);
        let drawn: Vec<&String> = p.svgs.iter().flatten().collect();
        assert_eq!(drawn.len(), 1);
        let cell = &r.cells[odd];
        let sub = s
            .iter()
            .find(|x| x.cells.iter().any(|c| std::ptr::eq(*c, cell)))
            .unwrap();
        let group = sub.cells.iter().copied().filter(|o| o.params == cell.params);
        let expected = super::super::distribution(cell, super::super::run_range(group).unwrap()).unwrap();
        assert_eq!(drawn[0], &expected, "the odd cell's strip");
        assert_eq!(
            p.left.iter().sum::<usize>(),
            drawable - 1,
            "every other cell counted out"
        );
    }
}
