//! The plan: the parameter matrix expanded into groups of cells. A group is
//! one operation at one parameter set; its cells (one per implementation) are
//! measured together, interleaved, so machine drift hits all of them alike.

mod order;
mod schedule;
mod shard;
mod work;

pub(crate) use order::round;
pub(crate) use schedule::{Visit, schedule, visit_group};
pub(crate) use shard::{Shard, narrow, split};
pub(crate) use work::params_used;

use std::time::Duration;

use indexmap::IndexMap;

use crate::base::order::Order;
use crate::base::params::ParamValue;
use crate::base::params::{Params, params_key};
use crate::suite::{Suite, Warmup};

/// Warm-up runs planned (for progress and shard balance) for a cell warmed up
/// until steady: the fewest that rule takes, two windows of five samples.
pub(crate) const AUTO_WARMUP_PLANNED: u32 = 10;

/// Command-line choices that narrow or change the suite's own settings.
#[derive(Debug, Clone, Default)]
pub(crate) struct Selection {
    /// Implementation or operation names; empty means everything.
    pub only: Vec<String>,
    pub runs: Option<u32>,
    pub passes: Option<u32>,
    pub forks: Option<u32>,
    pub order: Option<Order>,
    pub warmup: Option<Warmup>,
    pub timeout: Option<Duration>,
    pub sampling: Sampling,
    /// `--measure`: the metrics measured, replacing the suite's `measure`.
    pub measure: Option<Vec<crate::base::metric::Metric>>,
    /// `--counted-runs`: counted runs per cell, replacing the suite's `counted_runs`.
    pub counted_runs: Option<u32>,
}

/// `--max-runs` and `--max-time` when the command line gives none.
pub(crate) const DEFAULT_MAX_RUNS: u32 = 1000;
pub(crate) const DEFAULT_MAX_TIME: Duration = Duration::from_secs(300);

/// When to stop taking measured runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Sampling {
    /// Exactly the planned runs.
    #[default]
    Fixed,
    /// At least the planned runs, then until the median's interval half-width is within
    /// `precision` of it, or `max_runs`, or `max_time` for the group.
    Precision {
        precision: f64,
        max_runs: u32,
        max_time: Duration,
    },
    /// At least the planned runs, then until every comparison of the group
    /// against its baseline is settled (faster, slower, or the same within
    /// `band`: `judge::verdict`), or `max_runs`, or `max_time` for the group.
    Resolve {
        band: f64,
        max_runs: u32,
        max_time: Duration,
    },
    /// hyperfine's rule (`exec --min-runs`): each cell takes as many runs as fit in
    /// `min_time` at the pace of its first measured run, at least the planned runs
    /// and at most `max_runs`.
    MinTime { min_time: Duration, max_runs: u32 },
}

#[derive(Debug, Clone)]
pub struct Group {
    /// Index into `Suite::operations`.
    pub operation: usize,
    /// The point as cells and reports know it (a labelled parameter by its label).
    pub params: Params,
    /// The point as commands get it: labelled parameters by their values.
    pub values: Params,
    pub runs: u32,
    pub warmup: u32,
    pub warmup_auto: bool,
    pub sampling: Sampling,
    pub timeout: Duration,
    /// The suite's `[vars]` with this point's overrides applied.
    pub vars: IndexMap<String, String>,
    /// Indices into `Suite::implementations` measured in this group, in column order.
    pub implementations: Vec<usize>,
    /// Implementations excluded here by an override, with the reason.
    pub skipped: Vec<(usize, String)>,
    /// Whether an implementation measured here is served by an in-process worker.
    pub in_process: bool,
    /// Runs of each cell counted under the instruction counter, after its
    /// timed runs (0: instructions are not measured).
    pub counted: u32,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub groups: Vec<Group>,
    /// Visits of every group (`schedule`), at least 1.
    pub passes: u32,
    /// Worker processes per in-process cell over the run, at least 1.
    pub forks: u32,
    /// The order a group's implementations take their runs in (`order`).
    pub order: Order,
    /// In-process cells: an untimed batch before each timed one that follows
    /// another process's turn (`settings.lead_in`).
    pub lead_in: bool,
    /// What counts instructions, for groups with counted runs.
    pub counter: crate::suite::CounterChoice,
}

impl Plan {
    /// Total runs (warm-up and measured) the plan will execute, for progress
    /// and ETA: every visit of a group warms up afresh.
    pub fn total_runs(&self) -> u64 {
        self.groups.iter().map(|g| self.group_runs(g)).sum()
    }

    /// Runs (warm-up and measured) of one group over all its visits.
    pub fn group_runs(&self, g: &Group) -> u64 {
        let (passes, forks) = self.visits_of(g, g.in_process);
        u64::from(g.runs + g.counted + g.warmup * passes * forks) * g.implementations.len() as u64
    }

    /// Whether any group counts instructions.
    pub fn counts(&self) -> bool {
        self.groups.iter().any(|g| g.counted > 0)
    }

    /// Whether a cell's runs are taken in more than one visit of its group.
    pub fn segmented(&self) -> bool {
        self.passes > 1 || self.forks > 1
    }
}

/// Cartesian product of the matrix, first parameter outermost. An empty matrix
/// gives one empty parameter set.
pub(crate) fn expand(matrix: &IndexMap<String, Vec<ParamValue>>) -> Vec<Params> {
    let mut points = vec![Params::new()];
    for (name, values) in matrix {
        points = points
            .into_iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.insert(name.clone(), v.clone());
                    q
                })
            })
            .collect();
    }
    points
}

/// The point with each labelled parameter's label replaced by its value.
pub(crate) fn values_of(params: &Params, labels: &IndexMap<String, IndexMap<String, ParamValue>>) -> Params {
    params
        .iter()
        .map(|(k, v)| {
            let value = labels.get(k).and_then(|l| l.get(&v.to_string())).unwrap_or(v);
            (k.clone(), value.clone())
        })
        .collect()
}

/// The id of a cell in results and journals: `operation/implementation/k=v,...`.
pub(crate) fn cell_id(operation: &str, implementation: &str, params: &Params) -> String {
    format!("{operation}/{implementation}/{}", params_key(params))
}

/// Why a selection makes no plan.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlanError {
    #[error("--only {0}: no implementation or operation has this name (known: {1})")]
    UnknownName(String, String),
    #[error(
        "resolve samples a group until its comparisons are settled, which needs the implementations to take turns: it cannot be combined with order = \"blocked\" (use --order balanced or interleaved, or fixed --runs)"
    )]
    ResolveBlocked,
}

/// Whether `--only NAME` picks this implementation: by its own name, by
/// the declared name that stands for all of its variants, or by its name
/// before `@<revision>` (every revision of it).
fn only_picks(i: &crate::suite::Implementation, name: &str) -> bool {
    i.name == name || i.declared == name || i.unrevised() == name
}

/// Every `--only` name names an implementation or an operation.
fn check_only(suite: &Suite, sel: &Selection) -> Result<(), PlanError> {
    for name in &sel.only {
        let known = suite.implementations.iter().any(|i| only_picks(i, name))
            || suite.operations.iter().any(|o| &o.name == name);
        if !known {
            let all: Vec<&str> = suite
                .implementations
                .iter()
                .map(|i| i.name.as_str())
                .chain(suite.operations.iter().map(|o| o.name.as_str()))
                .collect();
            return Err(PlanError::UnknownName(name.clone(), all.join(", ")));
        }
    }
    Ok(())
}

pub(crate) fn build(suite: &Suite, sel: &Selection) -> Result<Plan, PlanError> {
    check_only(suite, sel)?;
    let picks_impl = sel
        .only
        .iter()
        .any(|n| suite.implementations.iter().any(|i| only_picks(i, n)));
    let picks_op = sel.only.iter().any(|n| suite.operations.iter().any(|o| &o.name == n));
    let impls: Vec<usize> = (0..suite.implementations.len())
        .filter(|&i| !picks_impl || sel.only.iter().any(|n| only_picks(&suite.implementations[i], n)))
        .collect();

    let measure = sel.measure.as_ref().unwrap_or(&suite.settings.measure);
    let counting = measure.contains(&crate::base::metric::Metric::Instructions);
    // The suite's own `resolve`, unless the command line chose a rule.
    let sampling = match (sel.sampling, suite.settings.resolve) {
        (Sampling::Fixed, Some(band)) => Sampling::Resolve {
            band,
            max_runs: DEFAULT_MAX_RUNS,
            max_time: DEFAULT_MAX_TIME,
        },
        (chosen, _) => chosen,
    };
    let mut groups = Vec::new();
    for params in expand(&suite.matrix) {
        for (oi, op) in suite.operations.iter().enumerate() {
            if picks_op && !sel.only.contains(&op.name) {
                continue;
            }
            let applying: Vec<_> = suite.overrides.iter().filter(|o| o.applies(oi, &params)).collect();
            let last = |f: &dyn Fn(&crate::suite::Override) -> Option<u32>| applying.iter().rev().find_map(|o| f(o));
            let runs = sel.runs.or(last(&|o| o.runs)).unwrap_or(suite.settings.runs).max(1);
            let warmup = sel
                .warmup
                .or(applying.iter().rev().find_map(|o| o.warmup))
                .unwrap_or(suite.settings.warmup);
            let (warmup, warmup_auto) = match warmup {
                Warmup::Runs(n) => (n, false),
                Warmup::Auto => (AUTO_WARMUP_PLANNED, true),
            };
            let timeout = sel
                .timeout
                .or(applying.iter().rev().find_map(|o| o.timeout))
                .unwrap_or(suite.settings.timeout);
            let mut vars = suite.vars.clone();
            for o in &applying {
                vars.extend(o.vars.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            let mut measured = Vec::new();
            let mut skipped = Vec::new();
            for &ii in &impls {
                let name = suite.implementations[ii].unrevised();
                if let Some((_, why)) = suite.implementations[ii].unsupported.iter().find(|(o, _)| *o == oi) {
                    skipped.push((ii, format!("not offered: {why}")));
                    continue;
                }
                match applying.iter().find(|o| o.skip.iter().any(|s| s == name)) {
                    Some(o) => skipped.push((ii, o.reason.clone().unwrap_or_else(|| "skipped by the suite".into()))),
                    None => measured.push(ii),
                }
            }
            let in_process = measured
                .iter()
                .any(|&i| suite.implementations[i].commands[oi].is_none());
            groups.push(Group {
                in_process,
                operation: oi,
                params: params.clone(),
                values: values_of(&params, &suite.labels),
                runs,
                warmup,
                warmup_auto,
                sampling,
                timeout,
                vars,
                implementations: measured,
                skipped,
                counted: if counting {
                    sel.counted_runs.or(suite.settings.counted_runs).unwrap_or(runs)
                } else {
                    0
                },
            });
        }
    }
    let passes = sel.passes.unwrap_or(suite.settings.passes).max(1);
    let forks = sel.forks.or(sel.passes).unwrap_or(suite.settings.forks).max(1);
    let order = sel.order.unwrap_or(suite.settings.order);
    if order == Order::Blocked && matches!(sampling, Sampling::Resolve { .. }) {
        return Err(PlanError::ResolveBlocked);
    }
    Ok(Plan {
        groups,
        passes,
        forks,
        order,
        lead_in: suite.settings.lead_in,
        counter: suite.settings.counter,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::parse;
    use std::path::Path;

    fn suite(extra: &str) -> Suite {
        let text = format!(
            r#"
            [matrix]
            size = ["1KB", "1MB"]
            armor = [false, true]
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
        parse(Path::new("t.toml"), &text).unwrap()
    }

    #[test]
    fn matrix_is_a_cartesian_product_first_parameter_outermost() {
        let s = suite("");
        let points = expand(&s.matrix);
        let keys: Vec<String> = points.iter().map(params_key).collect();
        assert_eq!(
            keys,
            [
                "size=1KB,armor=false",
                "size=1KB,armor=true",
                "size=1MB,armor=false",
                "size=1MB,armor=true"
            ]
        );
    }

    #[test]
    fn empty_matrix_is_one_point() {
        assert_eq!(expand(&IndexMap::new()).len(), 1);
    }

    #[test]
    fn resolve_needs_turns_and_is_refused_with_the_blocked_order() {
        // [settings] must come before the tables: a suite of its own.
        let s = parse(
            Path::new("t.toml"),
            "[settings]\nresolve = \"2%\"\norder = \"blocked\"\n[operations.x]\n[implementations.a]\nrun.x = \"a\"",
        )
        .unwrap();
        let err = build(&s, &Selection::default()).unwrap_err();
        assert!(matches!(err, PlanError::ResolveBlocked), "{err}");
        let turns = Selection {
            order: Some(Order::Balanced),
            ..Default::default()
        };
        assert_eq!(build(&s, &turns).unwrap().order, Order::Balanced);
    }

    #[test]
    fn groups_run_producers_before_consumers_at_each_point() {
        let plan = build(&suite(""), &Selection::default()).unwrap();
        assert_eq!(plan.groups.len(), 8);
        let ops: Vec<usize> = plan.groups.iter().map(|g| g.operation).collect();
        assert_eq!(ops, [0, 1, 0, 1, 0, 1, 0, 1]);
        assert_eq!(plan.total_runs(), 8 * 2 * (10 + 1));
    }

    #[test]
    fn overrides_apply_to_matching_values_and_flags_win() {
        let s = suite(
            r#"
            [[override]]
            when = { size = "1MB" }
            runs = 3
            skip = ["b"]
            reason = "too slow"
            "#,
        );
        let plan = build(&s, &Selection::default()).unwrap();
        let big: Vec<&Group> = plan
            .groups
            .iter()
            .filter(|g| g.params["size"].to_string() == "1MB")
            .collect();
        assert!(
            big.iter()
                .all(|g| g.runs == 3 && g.implementations == [0] && g.skipped[0].1 == "too slow")
        );
        let plan = build(
            &s,
            &Selection {
                runs: Some(2),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(plan.groups.iter().all(|g| g.runs == 2));
    }

    /// An override with `operations` changes only those operations' groups:
    /// here b's decryption is skipped at 1MB while its encryption runs.
    #[test]
    fn an_override_for_one_operation_leaves_the_others_alone() {
        let s = suite(
            r#"
            [[override]]
            when = { size = "1MB" }
            operations = ["dec"]
            runs = 3
            timeout = "5s"
            skip = ["b"]
            reason = "decryption too slow"
            "#,
        );
        let plan = build(&s, &Selection::default()).unwrap();
        for g in plan.groups.iter().filter(|g| g.params["size"].to_string() == "1MB") {
            let dec = g.operation == 1;
            assert_eq!(g.implementations, if dec { vec![0] } else { vec![0, 1] });
            assert_eq!(g.runs, if dec { 3 } else { 10 });
            let timeout = if dec {
                Duration::from_secs(5)
            } else {
                s.settings.timeout
            };
            assert_eq!(g.timeout, timeout);
            assert_eq!(g.skipped.len(), usize::from(dec));
        }
    }

    #[test]
    fn only_selects_implementations_or_operations() {
        let s = suite("");
        let plan = build(
            &s,
            &Selection {
                only: vec!["b".into()],
                ..Default::default()
            },
        )
        .unwrap();
        assert!(plan.groups.iter().all(|g| g.implementations == [1]));
        let plan = build(
            &s,
            &Selection {
                only: vec!["dec".into()],
                ..Default::default()
            },
        )
        .unwrap();
        assert!(plan.groups.iter().all(|g| g.operation == 1));
        assert!(
            build(
                &s,
                &Selection {
                    only: vec!["zzz".into()],
                    ..Default::default()
                }
            )
            .is_err()
        );
    }

    /// `--only` takes a declared name for all of its variants, as `skip` does.
    #[test]
    fn only_takes_a_declared_name_for_its_variants() {
        let s = suite(
            r#"
            [implementations.j]
            run = { enc = "j {v} e", dec = "j {v} d" }
            variants.v17 = { v = "17" }
            variants.v25 = { v = "25" }
            "#,
        );
        let pick = |names: &[&str]| {
            let only = names.iter().map(|n| n.to_string()).collect();
            build(
                &s,
                &Selection {
                    only,
                    ..Default::default()
                },
            )
            .unwrap()
            .groups[0]
                .implementations
                .iter()
                .map(|&i| s.implementations[i].name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(&["j"]), ["j-v17", "j-v25"]);
        assert_eq!(pick(&["j-v25", "a"]), ["a", "j-v25"]);
    }
}
