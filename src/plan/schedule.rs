//! The order a run visits its groups in, and what each visit takes.
//!
//! With one pass (the default) the run visits every group once, in plan
//! order. With `passes = N` it visits every group N times, each pass in a
//! fresh random order, and shares each cell's measured runs out over the
//! visits: a cell's runs then come from N stretches of time, between which
//! other groups ran, and its interval covers the variation between those
//! stretches (`judge::levels`). A group holding in-process cells may be
//! visited more than once per pass (`forks`), each visit with fresh worker
//! processes, so a runtime's JIT and collector state is sampled rather than
//! fixed by one process (JMH's forks). Every visit warms up afresh.
//!
//! A group that consumes another operation's output at the same parameters
//! keeps its place right after its producer: they move through the shuffle
//! as one unit.

use std::time::Duration;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Group, Plan, Sampling, params_key};
use crate::suite::{Input, Suite};

/// One visit of a group: which pass and fork, and how many measured runs
/// (at least; adaptive sampling may take more) it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Visit {
    /// Index into `Plan::groups`.
    pub group: usize,
    pub pass: u32,
    pub fork: u32,
    /// The visit's index among the group's visits, and their number.
    pub segment: u32,
    pub segments: u32,
}

impl Plan {
    /// Visits per pass of a group: the forks spread over the passes for a
    /// group with in-process cells, else one.
    fn forks_per_pass(&self, in_process: bool) -> u32 {
        if in_process {
            self.forks.div_ceil(self.passes).max(1)
        } else {
            1
        }
    }

    /// The (passes, forks per pass) a group is visited in: as planned, unless
    /// its runs are too few to give every visit two (then fewer passes, one
    /// fork each).
    pub fn visits_of(&self, g: &Group, in_process: bool) -> (u32, u32) {
        let per_pass = self.forks_per_pass(in_process);
        if g.runs >= 2 * self.passes * per_pass {
            (self.passes, per_pass)
        } else {
            ((g.runs / 2).clamp(1, self.passes), 1)
        }
    }
}

/// The group as one visit of `segments` takes it: its share of the
/// measured runs, and the adaptive-sampling limits shared out likewise
/// (a precision that, met in each visit, gives about the asked precision
/// over all of them).
pub(crate) fn visit_group(g: &Group, segment: u32, segments: u32) -> Group {
    let mut v = g.clone();
    if segments <= 1 {
        return v;
    }
    v.runs = share(g.runs, segments, segment);
    v.counted = share(g.counted, segments, segment);
    let s = f64::from(segments);
    v.sampling = match g.sampling {
        Sampling::Fixed => Sampling::Fixed,
        Sampling::Precision {
            precision,
            max_runs,
            max_time,
        } => Sampling::Precision {
            precision: precision * s.sqrt(),
            max_runs: max_runs.div_ceil(segments).max(v.runs),
            max_time: max_time.div_f64(s),
        },
        Sampling::Resolve {
            band,
            max_runs,
            max_time,
        } => Sampling::Resolve {
            band,
            max_runs: max_runs.div_ceil(segments).max(v.runs),
            max_time: max_time.div_f64(s),
        },
        Sampling::MinTime { min_time, max_runs } => Sampling::MinTime {
            min_time: min_time.div_f64(s).max(Duration::from_millis(1)),
            max_runs: max_runs.div_ceil(segments).max(v.runs),
        },
    };
    v
}

/// Visit `segment`'s share of `total` runs over `segments` visits: the
/// first `total % segments` visits take one more.
pub(super) fn share(total: u32, segments: u32, segment: u32) -> u32 {
    total / segments + u32::from(segment < total % segments)
}

/// Groups that must run together, in plan order: each group with the
/// producer of its input at the same parameters.
fn units(suite: &Suite, plan: &Plan) -> Vec<Vec<usize>> {
    let mut unit_of: Vec<usize> = (0..plan.groups.len()).collect();
    for (gi, g) in plan.groups.iter().enumerate() {
        if let Input::Operation(j) = suite.operations[g.operation].input {
            let key = params_key(&g.params);
            if let Some(p) =
                (0..gi).find(|&h| plan.groups[h].operation == j && params_key(&plan.groups[h].params) == key)
            {
                unit_of[gi] = unit_of[p];
            }
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut first: Vec<Option<usize>> = vec![None; plan.groups.len()];
    for (gi, &u) in unit_of.iter().enumerate() {
        match first[u] {
            Some(k) => out[k].push(gi),
            None => {
                first[u] = Some(out.len());
                out.push(vec![gi]);
            }
        }
    }
    out
}

/// Every visit of the run, in order. `seed` fixes the shuffles.
pub(crate) fn schedule(suite: &Suite, plan: &Plan, seed: u64) -> Vec<Visit> {
    let mut units = units(suite, plan);
    let visits: Vec<(u32, u32)> = plan.groups.iter().map(|g| plan.visits_of(g, g.in_process)).collect();
    let mut out = Vec::new();
    for pass in 0..plan.passes {
        if plan.passes > 1 {
            units.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed ^ u64::from(pass)));
        }
        for unit in &units {
            for &gi in unit {
                let (passes, forks) = visits[gi];
                if pass >= passes {
                    continue;
                }
                for fork in 0..forks {
                    out.push(Visit {
                        group: gi,
                        pass,
                        fork,
                        segment: pass * forks + fork,
                        segments: passes * forks,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Selection, build};
    use crate::suite::parse;
    use std::path::Path;

    fn suite(extra: &str) -> Suite {
        let text = format!(
            r#"
            [matrix]
            size = ["1KB", "1MB", "10MB"]
            [operations.enc]
            [operations.dec]
            input = "enc"
            [operations.hash]
            [implementations.a]
            run = {{ enc = "a e", dec = "a d", hash = "a h" }}
            [implementations.w]
            worker = "w"
            run = {{ enc = "w e", dec = "w d" }}
            [settings]
            runs = 12
            {extra}
            "#
        );
        parse(Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn one_pass_visits_every_group_once_in_plan_order() {
        let s = suite("");
        let plan = build(&s, &Selection::default()).unwrap();
        let order: Vec<usize> = schedule(&s, &plan, 7).iter().map(|v| v.group).collect();
        assert_eq!(order, (0..plan.groups.len()).collect::<Vec<_>>());
    }

    #[test]
    fn passes_shuffle_the_groups_and_keep_each_consumer_after_its_producer() {
        let s = suite("passes = 3");
        let plan = build(&s, &Selection::default()).unwrap();
        let visits = schedule(&s, &plan, 7);
        // Three passes of nine groups; the worker's groups once per pass (forks = passes).
        assert_eq!(visits.len(), 27);
        let pass = |p: u32| {
            visits
                .iter()
                .filter(|v| v.pass == p)
                .map(|v| v.group)
                .collect::<Vec<_>>()
        };
        assert_ne!(pass(0), pass(1), "each pass in its own order");
        for p in 0..3 {
            let order = pass(p);
            for (i, g) in order.iter().enumerate() {
                if plan.groups[*g].operation == 1 {
                    assert_eq!(plan.groups[order[i - 1]].operation, 0, "dec right after its enc");
                }
            }
        }
        // Runs are shared out: 12 over 3 visits.
        assert!(visits.iter().all(|v| v.segments == 3));
        assert_eq!((0..3).map(|i| share(12, 3, i)).sum::<u32>(), 12);
    }

    #[test]
    fn forks_add_visits_for_in_process_groups_only() {
        let s = suite("passes = 2\nforks = 4");
        let plan = build(&s, &Selection::default()).unwrap();
        let visits = schedule(&s, &plan, 1);
        for (gi, g) in plan.groups.iter().enumerate() {
            let n = visits.iter().filter(|v| v.group == gi).count();
            assert_eq!(n, if g.in_process { 4 } else { 2 }, "{gi}");
        }
        // Too few runs for every visit to take two: fewer visits.
        let few = build(
            &s,
            &Selection {
                runs: Some(3),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(schedule(&s, &few, 1).iter().all(|v| v.segments == 1));
    }

    #[test]
    fn shares_add_up() {
        for total in [1, 5, 10, 101] {
            for segments in 1..6 {
                let sum: u32 = (0..segments).map(|i| share(total, segments, i)).sum();
                assert_eq!(sum, total);
            }
        }
    }
}
