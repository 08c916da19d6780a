//! Sharding: one plan split into N pieces that an existing scheduler (a
//! Slurm job array, a CI matrix, a Kubernetes Indexed Job) runs on separate
//! machines, and `versus merge` puts back together.
//!
//! The unit of the split is a *parameter point*: every group (operation) at
//! one parameter set, with every implementation in it. Implementations of a
//! group are interleaved and compared as pairs, so a group must stay on one
//! machine; and a chained operation (`input = "compress"`) reads what its
//! producer wrote at the same point, so the operations of a point stay
//! together too.
//!
//! The split is a pure function of the plan and the costs, so every machine
//! computes the same one without talking to the others: points are taken in
//! decreasing cost (ties in plan order) and each goes to the piece with the
//! least cost so far (ties to the lowest index) — Graham's LPT rule. Its
//! largest piece is within `total/N + (1 - 1/N)·largest point` (the list
//! scheduling bound), and within 4/3 of the best possible split.

use std::collections::HashMap;

use super::{Plan, params_key};
use crate::suite::Suite;

/// Piece `index` (0-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    pub index: u32,
    pub count: u32,
}

/// What the costs of the split were estimated from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Basis {
    /// Measured wall time (warm-up and measured runs) of an earlier run.
    History,
    /// The suite's `weight` in `[[override]]` × planned runs.
    Weight,
    /// Planned runs (cells × (warm-up + measured runs)).
    Runs,
}

impl Basis {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Basis::History => "history",
            Basis::Weight => "weight",
            Basis::Runs => "runs",
        }
    }
}

/// The split of a plan: its points, their costs and which piece runs each.
#[derive(Debug, Clone)]
pub(crate) struct Split {
    /// Each point's groups (indices into `Plan::groups`), points in plan order.
    pub points: Vec<Vec<usize>>,
    /// Estimated cost of each point (unit depends on `basis`).
    pub costs: Vec<u64>,
    /// The piece (0-based) that runs each point.
    pub piece: Vec<u32>,
    pub basis: Basis,
}

impl Split {
    /// The plan's groups this piece runs, in plan order.
    pub(crate) fn groups_of(&self, index: u32) -> Vec<usize> {
        let mut out: Vec<usize> = (0..self.points.len())
            .filter(|&p| self.piece[p] == index)
            .flat_map(|p| self.points[p].iter().copied())
            .collect();
        out.sort_unstable();
        out
    }

    /// This piece's share of the total estimated cost, 0 to 1.
    pub(crate) fn cost_share(&self, index: u32) -> f64 {
        let total: u64 = self.costs.iter().sum();
        let mine: u64 = (0..self.costs.len())
            .filter(|&p| self.piece[p] == index)
            .map(|p| self.costs[p])
            .sum();
        if total == 0 { 0.0 } else { mine as f64 / total as f64 }
    }
}

/// The plan's groups gathered by parameter point, points in plan order.
pub(super) fn points(plan: &Plan) -> Vec<Vec<usize>> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (gi, g) in plan.groups.iter().enumerate() {
        let p = *index.entry(params_key(&g.params)).or_insert_with(|| {
            out.push(vec![]);
            out.len() - 1
        });
        out[p].push(gi);
    }
    out
}

/// Which piece (0-based, below `count`) runs each point: LPT, deterministic.
pub(super) fn assign(costs: &[u64], count: u32) -> Vec<u32> {
    let count = count.max(1);
    let mut order: Vec<usize> = (0..costs.len()).collect();
    // Stable sort: equal costs keep plan order.
    order.sort_by(|a, b| costs[*b].cmp(&costs[*a]));
    let mut load = vec![0u64; count as usize];
    let mut piece = vec![0u32; costs.len()];
    for p in order {
        let (least, _) = load
            .iter()
            .enumerate()
            .min_by_key(|(i, l)| (**l, *i))
            .expect("count is at least 1");
        load[least] += costs[p];
        piece[p] = least as u32;
    }
    piece
}

/// Cost of one run of each group's cells: the suite's override `weight`
/// (last applying one wins) in thousandths, 1000 where none applies.
fn weight_milli(suite: &Suite, plan: &Plan, gi: usize) -> Option<u64> {
    let g = &plan.groups[gi];
    suite
        .overrides
        .iter()
        .rev()
        .filter(|o| o.applies(g.operation, &g.params))
        .find_map(|o| o.weight)
        .map(|w| (w * 1000.0).round().max(1.0) as u64)
}

/// Planned runs of a group: its measured cells × (warm-up + measured runs).
fn planned_runs(plan: &Plan, gi: usize) -> u64 {
    let g = &plan.groups[gi];
    u64::from(g.runs + g.warmup) * g.implementations.len() as u64
}

/// Splits `plan`. `history` maps cell ids to the wall time (ns) an earlier
/// run spent on them; where it knows a cell, the split balances measured
/// time, and cells it does not know are estimated at the average time per
/// planned run of those it does. Without history, the suite's weights;
/// without weights, planned runs.
pub(crate) fn split(suite: &Suite, plan: &Plan, count: u32, history: &HashMap<String, u64>) -> Split {
    let points = points(plan);
    let cell_ids = |gi: usize| -> Vec<String> {
        let g = &plan.groups[gi];
        let op = &suite.operations[g.operation].name;
        g.implementations
            .iter()
            .map(|&i| super::cell_id(op, &suite.implementations[i].name, &g.params))
            .collect()
    };
    let known: Vec<(u64, u64)> = (0..plan.groups.len())
        .flat_map(|gi| {
            let runs = u64::from(plan.groups[gi].runs + plan.groups[gi].warmup);
            cell_ids(gi)
                .into_iter()
                .filter_map(move |id| history.get(&id).map(|ns| (*ns, runs)))
                .collect::<Vec<_>>()
        })
        .collect();
    let (basis, group_cost): (Basis, Box<dyn Fn(usize) -> u64>) = if !known.is_empty() {
        let ns_per_run = known.iter().map(|k| k.0).sum::<u64>() / known.iter().map(|k| k.1).sum::<u64>().max(1);
        let runs_of = |gi: usize| u64::from(plan.groups[gi].runs + plan.groups[gi].warmup);
        let cost = move |gi: usize| -> u64 {
            cell_ids(gi)
                .iter()
                .map(|id| history.get(id).copied().unwrap_or(ns_per_run * runs_of(gi)))
                .sum()
        };
        (Basis::History, Box::new(cost))
    } else if (0..plan.groups.len()).any(|gi| weight_milli(suite, plan, gi).is_some()) {
        let cost = |gi: usize| weight_milli(suite, plan, gi).unwrap_or(1000) * planned_runs(plan, gi);
        (Basis::Weight, Box::new(cost))
    } else {
        (Basis::Runs, Box::new(|gi: usize| planned_runs(plan, gi)))
    };
    let costs: Vec<u64> = points
        .iter()
        .map(|p| p.iter().map(|&gi| group_cost(gi)).sum())
        .collect();
    let piece = assign(&costs, count);
    Split {
        points,
        costs,
        piece,
        basis,
    }
}

/// The plan narrowed to one piece's groups, in plan order.
pub(crate) fn narrow(plan: &Plan, groups: &[usize]) -> Plan {
    Plan {
        groups: groups.iter().map(|&gi| plan.groups[gi].clone()).collect(),
        ..*plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn loads(costs: &[u64], piece: &[u32], count: u32) -> Vec<u64> {
        let mut load = vec![0u64; count as usize];
        for (c, p) in costs.iter().zip(piece) {
            load[*p as usize] += c;
        }
        load
    }

    #[test]
    fn every_point_goes_to_exactly_one_piece_for_any_count() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
        for _ in 0..200 {
            let n_points = rng.random_range(0..60);
            let costs: Vec<u64> = (0..n_points).map(|_| rng.random_range(1..10_000)).collect();
            let count = rng.random_range(1..20);
            let piece = assign(&costs, count);
            // Deterministic: the same input gives the same split.
            assert_eq!(piece, assign(&costs, count));
            // Complete and disjoint: each point has one piece, and it exists.
            assert_eq!(piece.len(), costs.len());
            assert!(piece.iter().all(|p| *p < count));
            // The pieces' points, put together, are every point once.
            let piece = &piece;
            let mut all: Vec<usize> = (0..count)
                .flat_map(|k| (0..costs.len()).filter(move |&p| piece[p] == k))
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..costs.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn balance_is_within_the_list_scheduling_bound() {
        // Synthetic weights, skewed like real suites (a few large payloads).
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        for _ in 0..500 {
            let n_points = rng.random_range(1..80);
            let costs: Vec<u64> = (0..n_points)
                .map(|_| {
                    let e: u32 = rng.random_range(0..4);
                    rng.random_range(1..100) * 10u64.pow(e)
                })
                .collect();
            let count = rng.random_range(1..12);
            let load = loads(&costs, &assign(&costs, count), count);
            let total: u64 = costs.iter().sum();
            let largest = *costs.iter().max().unwrap() as f64;
            let max = *load.iter().max().unwrap() as f64;
            let n = f64::from(count);
            assert!(max <= total as f64 / n + (1.0 - 1.0 / n) * largest + 1e-9);
            // And within 4/3 of the lower bound of any split's largest piece.
            let lower = (total as f64 / n).max(largest);
            assert!(max <= lower * 4.0 / 3.0 + 1e-9, "{max} > 4/3 × {lower}");
        }
    }

    fn suite(extra: &str) -> Suite {
        let text = format!(
            r#"
            [settings]
            runs = 4
            warmup = 1
            [matrix]
            size = ["1KB", "1MB", "10MB"]
            [operations.enc]
            [operations.dec]
            input = "enc"
            [implementations.a]
            run = {{ enc = "a e", dec = "a d" }}
            [implementations.b]
            run = {{ enc = "b e", dec = "b d" }}
            {extra}
            "#
        );
        crate::suite::parse(std::path::Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn a_point_keeps_its_operations_together_and_costs_follow_the_basis() {
        let s = suite("");
        let plan = super::super::build(&s, &Default::default()).unwrap();
        let split = split(&s, &plan, 2, &HashMap::new());
        // enc and dec of one size (a producer and its consumer) are one point.
        assert_eq!(split.points, [vec![0, 1], vec![2, 3], vec![4, 5]]);
        assert_eq!(split.basis, Basis::Runs);
        assert_eq!(split.costs, [20, 20, 20]);
        let mine: Vec<usize> = split.groups_of(0).into_iter().chain(split.groups_of(1)).collect();
        assert_eq!(mine.len(), 6);

        let s = suite("[[override]]\nwhen = { size = \"10MB\" }\nweight = 50");
        let split = super::split(&s, &plan, 2, &HashMap::new());
        assert_eq!(split.basis, Basis::Weight);
        assert_eq!(split.costs, [20_000, 20_000, 1_000_000]);
        assert_eq!(split.piece, [1, 1, 0]);

        // History: known cells at their time, unknown ones at the average per run.
        let history: HashMap<String, u64> = [("enc/a/size=1KB", 500), ("enc/b/size=1KB", 500)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let split = super::split(&s, &plan, 2, &history);
        assert_eq!(split.basis, Basis::History);
        // 1000 ns over 10 planned runs: 100 ns a run, 500 per unknown cell.
        assert_eq!(split.costs, [2000, 2000, 2000]);
    }

    #[test]
    fn equal_costs_deal_out_round_robin_in_plan_order() {
        assert_eq!(assign(&[1; 7], 3), [0, 1, 2, 0, 1, 2, 0]);
        assert_eq!(assign(&[5, 1, 1, 1, 1, 1], 2), [0, 1, 1, 1, 1, 1]);
        // More pieces than points: the extra pieces are empty.
        assert_eq!(assign(&[3, 2], 4), [0, 1]);
        assert!(assign(&[], 3).is_empty());
    }
}
