//! The carry-over screen on made-up cells with known answers: its
//! arithmetic (1 in 120, six looks at 5%), the jq case (system time ten
//! times higher after others) that fires, separations it must not call
//! (overlapping runs, ties, faster after others, too few runs alone for the
//! looks), and the false-flag rate of groups of identical implementations
//! at the default ten runs in the balanced order, from seeded noise.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, LogNormal};

use super::super::carryover::judge_group;
use super::super::carryover_screen::{choose, fires, screen};
use crate::base::order::Order;
use crate::results::{AnalysisSettings, Cell, RunOrder, Samples, ScreenMetric};

const MS: f64 = 1e6;

/// A process cell of `me` in a group of `names`, its runs after `after`
/// (indices into `names`) with the given times (ns).
fn cell(me: &str, names: &[&str], after: &[i16], wall_ns: &[f64], sys_ns: &[f64]) -> Cell {
    let order = RunOrder {
        implementations: names.iter().map(|n| n.to_string()).collect(),
        position: vec![0; after.len()],
        after: after.to_vec(),
        gap_ns: vec![0; after.len()].into(),
    };
    Cell {
        id: format!("x/{me}"),
        operation: "x".into(),
        warmup_runs: 1,
        runs_requested: after.len() as u32,
        ..Cell::of_samples(
            me,
            Samples {
                wall_ns: wall_ns.iter().map(|w| *w as u64).collect::<Vec<u64>>().into(),
                sys_ns: sys_ns.iter().map(|s| *s as u64).collect::<Vec<u64>>().into(),
                order: Some(order),
                ..Default::default()
            },
        )
    }
}

/// jaq among jq (0), gojq (1) and jaq (2), as measured on a 50 MB file:
/// three runs after itself, seven after the others.
const JAQ_AFTER: [i16; 10] = [2, 0, 1, 2, 0, 1, 0, 2, 1, 0];

fn by_predecessor(alone: &[f64], turns: &[f64]) -> Vec<f64> {
    let (mut a, mut t) = (alone.iter(), turns.iter());
    JAQ_AFTER
        .iter()
        .map(|p| *if *p == 2 { a.next() } else { t.next() }.unwrap())
        .collect()
}

#[test]
fn three_runs_alone_below_seven_in_turns_is_one_chance_in_120_and_fires_over_six_looks() {
    assert_eq!(choose(10, 3), 120.0);
    assert_eq!(choose(10, 4), 210.0);
    assert_eq!(choose(10, 7), 120.0);
    // Two metrics × three implementations: 6 × 1/120 = 0.05, at the bound.
    assert!(fires(1.0 / 120.0, 6, 0.05));
    assert!(!fires(1.0 / 120.0, 7, 0.05));
    // Six implementations at ten runs: one or two runs alone, twelve looks.
    assert!(!fires(1.0 / 45.0, 12, 0.05));
}

#[test]
fn the_jq_case_fires_in_system_time_though_wall_times_overlap() {
    let names = ["jq", "gojq", "jaq"];
    // Wall: one run in turns (1.38 s) among those alone; system time apart
    // by ten times.
    let wall = by_predecessor(&[1.39, 1.41, 1.44], &[1.38, 2.1, 2.2, 2.3, 2.4, 2.6, 2.2]);
    let sys = by_predecessor(&[0.068, 0.076, 0.084], &[0.665, 0.9, 1.0, 1.1, 1.266, 0.8, 0.7]);
    let jaq = cell(
        "jaq",
        &names,
        &JAQ_AFTER,
        &wall.iter().map(|s| s * 1e3 * MS).collect::<Vec<_>>(),
        &sys.iter().map(|s| s * 1e3 * MS).collect::<Vec<_>>(),
    );
    let s = screen(&jaq, 6, 0.05).unwrap();
    assert_eq!(s.apart_in, [ScreenMetric::Sys]);
    assert_eq!((s.chance * 120.0, s.looks, s.fired), (1.0, 6, true));
    // One look more than the arithmetic allows, and it stays quiet.
    assert!(!screen(&jaq, 7, 0.05).unwrap().fired);
}

#[test]
fn overlapping_ties_or_faster_after_others_do_not_fire() {
    let names = ["jq", "gojq", "jaq"];
    let make = |alone: &[f64], turns: &[f64]| {
        let w = by_predecessor(alone, turns);
        cell("jaq", &names, &JAQ_AFTER, &w, &w)
    };
    // One run in turns below the slowest run alone.
    let overlap = make(
        &[100.0, 101.0, 130.0],
        &[120.0, 200.0, 210.0, 220.0, 230.0, 240.0, 250.0],
    );
    // The slowest alone equals the fastest in turns: a tie is no separation.
    let tie = make(
        &[100.0, 101.0, 120.0],
        &[120.0, 200.0, 210.0, 220.0, 230.0, 240.0, 250.0],
    );
    // Faster after others: a predecessor that helps is the full test's to find.
    let faster = make(
        &[300.0, 301.0, 302.0],
        &[120.0, 200.0, 210.0, 220.0, 230.0, 240.0, 250.0],
    );
    for c in [overlap, tie, faster] {
        let s = screen(&c, 6, 0.05).unwrap();
        assert!(s.apart_in.is_empty() && !s.fired, "{s:?}");
    }
}

/// Each cell's predecessors (indices into the group) at `runs` measured
/// rounds of `k` implementations in the balanced order after one warm-up
/// round, as the runner takes them.
fn balanced_after(k: usize, runs: usize) -> Vec<Vec<i16>> {
    let sequence: Vec<usize> = (0..=runs)
        .flat_map(|r| crate::plan::round(Order::Balanced, k, r))
        .collect();
    let mut after = vec![Vec::new(); k];
    for (i, me) in sequence.iter().enumerate().skip(k) {
        after[*me].push(sequence[i - 1] as i16);
    }
    after
}

/// In how many of `trials` groups of `k` identical implementations (wall
/// noise 5%, system time noise 10%, independent) the carry-over was
/// detected at `runs` runs.
fn flagged(k: usize, runs: usize, trials: usize, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (wall, sys) = (LogNormal::new(0.0, 0.05).unwrap(), LogNormal::new(0.0, 0.10).unwrap());
    let names: Vec<String> = (0..k).map(|i| format!("i{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let after = balanced_after(k, runs);
    let settings = AnalysisSettings::default();
    (0..trials)
        .filter(|_| {
            let cells: Vec<Cell> = (0..k)
                .map(|i| {
                    let w: Vec<f64> = (0..runs).map(|_| 40.0 * MS * wall.sample(&mut rng)).collect();
                    let s: Vec<f64> = (0..runs).map(|_| 20.0 * MS * sys.sample(&mut rng)).collect();
                    cell(refs[i], &refs, &after[i], &w, &s)
                })
                .collect();
            let refs: Vec<&Cell> = cells.iter().collect();
            judge_group(&refs, &settings).iter().flatten().any(|c| c.detected)
        })
        .count()
}

#[test]
fn identical_trios_and_sextets_at_ten_runs_are_not_flagged_in_95_percent_of_trials() {
    // 20,000 trials pin the rate to about ±0.15%: three implementations
    // give about 4.3% (4/120 + 2/210 with independent metrics), six none.
    let trials = 20_000;
    for k in [3, 6] {
        let n = flagged(k, 10, trials, 41 + k as u64);
        assert!(
            n * 20 <= trials,
            "{k} identical implementations: flagged in {n} of {trials}"
        );
        // Not vacuous: the trios' screen does fire by chance, near the bound.
        assert!(k == 6 || n * 100 >= trials * 3, "{k}: flagged in {n} of {trials}");
    }
}

#[test]
fn the_balanced_order_at_ten_runs_gives_three_gets_three_or_four_runs_alone() {
    for (me, after) in balanced_after(3, 10).iter().enumerate() {
        let alone = after.iter().filter(|p| **p as usize == me).count();
        assert!((3..=4).contains(&alone), "{me}: {after:?}");
    }
    // Six implementations: at most two, too few to fire over twelve looks.
    for (me, after) in balanced_after(6, 10).iter().enumerate() {
        let alone = after.iter().filter(|p| **p as usize == me).count();
        assert!(alone <= 2, "{me}: {after:?}");
    }
}
