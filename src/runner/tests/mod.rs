//! The scheduler driven by a fake executor: exact run order, outcomes and
//! checks, with no process started and no clock read.

mod carryover;
mod carryover_screen;

use std::path::Path;

use super::*;
use crate::plan::{Selection, build};
use crate::results::StopRule;
use crate::runner::fake::Fake;
use crate::suite::{Warmup, parse};

pub(super) fn suite(impls: &str, ops: &str) -> Suite {
    let text = format!(
        r#"
        [settings]
        runs = 2
        warmup = 1
        [matrix]
        size = ["100"]
        [payload]
        size = "{{size}}"
        {ops}
        {impls}
        "#
    );
    parse(Path::new("t.toml"), &text).unwrap()
}

fn run(suite: &Suite) -> (Vec<Cell>, Vec<String>) {
    run_with(suite, &Selection::default())
}

fn run_with(suite: &Suite, sel: &Selection) -> (Vec<Cell>, Vec<String>) {
    run_on(suite, sel, Fake::new())
}

/// Runs `suite` with `sel` on `fake`: the cells of every visit, and the
/// programs run, in order.
pub(super) fn run_on(suite: &Suite, sel: &Selection, mut fake: Fake) -> (Vec<Cell>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let plan = build(suite, sel).unwrap();
    let mut runner = Runner::new(
        suite,
        &plan,
        dir.path().join("work"),
        dir.path().join("tmp"),
        dir.path().join("cache"),
    );
    runner.clock = Box::new(fake.clock.clone());
    let mut cells = Vec::new();
    runner.setup(&mut fake, &mut NoEvents).unwrap();
    let end = runner
        .run(&mut fake, &mut NoEvents, &mut |c: Vec<Cell>| {
            cells.extend(c);
            Ok(())
        })
        .unwrap();
    assert_eq!(end, End::Complete);
    (
        cells,
        fake.log
            .into_iter()
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect(),
    )
}

fn outcome(cells: &[Cell], op: &str, imp: &str) -> Outcome {
    cells
        .iter()
        .find(|c| c.operation == op && c.implementation == imp)
        .unwrap()
        .outcome
}

#[test]
fn implementations_take_turns_in_the_balanced_order_by_default() {
    let s = suite(
        r#"
        [implementations.a]
        run.x = "a"
        [implementations.b]
        run.x = "b"
        [implementations.c]
        run.x = "c"
        "#,
        "[operations.x]\noutput = \"none\"",
    );
    let (cells, log) = run(&s);
    // warm-up round, then two measured rounds, each starting with the one
    // that ended the round before (`plan::order`).
    assert_eq!(log, ["a", "b", "c", "c", "a", "b", "b", "c", "a"]);
    assert!(
        cells
            .iter()
            .all(|c| c.outcome == Outcome::Ok && c.samples.len() == 2 && c.warmup_wall_ns.len() == 1)
    );
}

#[test]
fn each_fault_gets_its_outcome_and_the_others_still_run() {
    let s = suite(
        r#"
        [implementations.good]
        run.x = "copy {in}"
        [implementations.crash]
        run.x = "fail"
        [implementations.slow]
        run.x = "hang"
        [implementations.hungry]
        run.x = "hog"
        [implementations.liar]
        run.x = "garble {in}"
        "#,
        "[operations.x]\nroundtrip = true",
    );
    let (cells, log) = run(&s);
    assert_eq!(outcome(&cells, "x", "good"), Outcome::Ok);
    assert_eq!(outcome(&cells, "x", "crash"), Outcome::Failed);
    assert_eq!(outcome(&cells, "x", "slow"), Outcome::Timeout);
    assert_eq!(outcome(&cells, "x", "hungry"), Outcome::OutOfMemory);
    assert_eq!(outcome(&cells, "x", "liar"), Outcome::WrongOutput);
    // A failing cell is not run again; the good one runs all 3 rounds.
    assert_eq!(log.iter().filter(|p| *p == "copy").count(), 3);
    assert_eq!(log.iter().filter(|p| *p == "fail").count(), 1);
    let good = cells.iter().find(|c| c.implementation == "good").unwrap();
    assert_eq!(good.samples.wall_ns, [1000, 1000]);
    assert_eq!(good.payload_bytes, Some(100));
    let bad = cells.iter().find(|c| c.implementation == "crash").unwrap();
    assert!(bad.samples.is_empty() && bad.message.is_some());
}

#[test]
fn chains_feed_outputs_forward_and_skip_after_a_failed_producer() {
    let s = suite(
        r#"
        [implementations.good]
        run = { enc = "copy {in}", dec = "copy {enc.out}" }
        [implementations.broken]
        run = { enc = "fail", dec = "copy {in}" }
        [implementations.lossy]
        run = { enc = "garble {in}", dec = "copy {in}" }
        "#,
        "[operations.enc]\n[operations.dec]\ninput = \"enc\"\nroundtrip = true",
    );
    let (cells, _) = run(&s);
    assert_eq!(outcome(&cells, "enc", "good"), Outcome::Ok);
    assert_eq!(outcome(&cells, "dec", "good"), Outcome::Ok);
    assert_eq!(outcome(&cells, "enc", "broken"), Outcome::Failed);
    assert_eq!(outcome(&cells, "dec", "broken"), Outcome::Skipped);
    assert_eq!(outcome(&cells, "enc", "lossy"), Outcome::Ok);
    assert_eq!(outcome(&cells, "dec", "lossy"), Outcome::WrongOutput);
}

#[test]
fn a_run_versus_could_not_start_is_its_own_fault_and_so_is_the_skip_it_causes() {
    let s = suite(
        r#"
        [implementations.starved]
        run = { enc = "nofork", dec = "copy {enc.out}" }
        [implementations.broken]
        run = { enc = "fail", dec = "copy {enc.out}" }
        "#,
        "[operations.enc]\n[operations.dec]\ninput = \"enc\"\nroundtrip = true",
    );
    let (cells, _) = run(&s);
    let fault = |op: &str, imp: &str| {
        let c = cells
            .iter()
            .find(|c| c.operation == op && c.implementation == imp)
            .unwrap();
        (c.outcome, c.harness_fault)
    };
    use crate::base::outcome::HarnessFault::CannotStart;
    assert_eq!(fault("enc", "starved"), (Outcome::Failed, Some(CannotStart)));
    assert_eq!(fault("dec", "starved"), (Outcome::Skipped, Some(CannotStart)));
    // The code's own failure, and the skip it causes, are the code's.
    assert_eq!(fault("enc", "broken"), (Outcome::Failed, None));
    assert_eq!(fault("dec", "broken"), (Outcome::Skipped, None));
}

#[test]
fn same_output_compares_against_the_first_good_implementation() {
    let s = suite(
        r#"
        [implementations.one]
        run.x = "copy {in}"
        [implementations.two]
        run.x = "copy {in}"
        [implementations.odd]
        run.x = "garble {in}"
        "#,
        "[operations.x]\nsame_output = true",
    );
    let (cells, _) = run(&s);
    assert_eq!(outcome(&cells, "x", "one"), Outcome::Ok);
    assert_eq!(outcome(&cells, "x", "two"), Outcome::Ok);
    let odd = cells.iter().find(|c| c.implementation == "odd").unwrap();
    assert_eq!(odd.outcome, Outcome::WrongOutput);
    assert!(odd.message.as_deref().unwrap().contains("one"));
}

#[test]
fn finished_cells_are_not_run_again() {
    let s = suite(
        "[implementations.a]\nrun.x = \"a\"\n[implementations.b]\nrun.x = \"b\"",
        "[operations.x]\noutput = \"none\"",
    );
    let (cells, _) = run(&s);
    let dir = tempfile::tempdir().unwrap();
    let plan = build(&s, &Selection::default()).unwrap();
    let mut runner = Runner::new(
        &s,
        &plan,
        dir.path().join("w"),
        dir.path().join("t"),
        dir.path().join("c"),
    );
    runner.done = cells.iter().map(|c| (c.id.clone(), c.clone())).collect();
    let mut fake = Fake::new();
    runner.clock = Box::new(fake.clock.clone());
    let mut sunk = 0;
    runner
        .run(&mut fake, &mut NoEvents, &mut |c: Vec<Cell>| {
            sunk += c.len();
            Ok(())
        })
        .unwrap();
    assert!(fake.log.is_empty());
    assert_eq!(sunk, 0);
}

#[test]
fn adaptive_sampling_stops_each_cell_by_its_own_rule() {
    let s = suite(
        "[implementations.steady]\nrun.x = \"copy {in}\"\n[implementations.noisy]\nrun.x = \"jitter\"",
        "[operations.x]\noutput = \"none\"",
    );
    let sel = Selection {
        runs: Some(6),
        warmup: Some(Warmup::Runs(0)),
        sampling: crate::plan::Sampling::Precision {
            precision: 0.05,
            max_runs: 20,
            max_time: std::time::Duration::from_secs(3600),
        },
        ..Default::default()
    };
    let (cells, _) = run_with(&s, &sel);
    let steady = cells.iter().find(|c| c.implementation == "steady").unwrap();
    assert_eq!((steady.stop_rule, steady.samples.len()), (StopRule::Precision, 6));
    let noisy = cells.iter().find(|c| c.implementation == "noisy").unwrap();
    assert_eq!((noisy.stop_rule, noisy.samples.len()), (StopRule::MaxRuns, 20));
}

#[test]
fn auto_warm_up_lasts_until_the_samples_are_level() {
    let by_flag = (
        suite(
            "[implementations.j]\nrun.x = \"jit\"",
            "[operations.x]\noutput = \"none\"",
        ),
        Selection {
            warmup: Some(Warmup::Auto),
            runs: Some(5),
            ..Default::default()
        },
    );
    // The same asked by the suite, for this point of the matrix.
    let by_suite = (
        suite(
            "[implementations.j]\nrun.x = \"jit\"\n[[override]]\nwhen = { size = \"100\" }\nwarmup = \"auto\"",
            "[operations.x]\noutput = \"none\"",
        ),
        Selection {
            runs: Some(5),
            ..Default::default()
        },
    );
    for (s, sel) in [by_flag, by_suite] {
        let (cells, _) = run_with(&s, &sel);
        let c = &cells[0];
        // Level from call 11 on. Windows of 5 are judged by their median, so warm-up
        // may end with up to two slow samples still in the last window.
        assert!((16..=20).contains(&c.warmup_runs), "{:?}", c.warmup_wall_ns);
        assert!(c.samples.wall_ns.iter().all(|w| w == 1000));
    }
}

/// The whole measured outcome of a fixed fake run (cells after analysis,
/// comparisons, warnings), as JSON with timestamps taken out: a refactoring
/// of the scheduler must leave it exactly as it was.
#[test]
fn a_fake_run_analyses_to_the_same_results() {
    let s = suite(
        r#"
        [implementations.good]
        run = { enc = "copy {in}", dec = "copy {enc.out}" }
        [implementations.jittery]
        run = { enc = "jitter {in}", dec = "copy {in}" }
        [implementations.broken]
        run = { enc = "fail", dec = "copy {in}" }
        [implementations.lossy]
        run = { enc = "garble {in}", dec = "copy {in}" }
        "#,
        "[operations.enc]\noutput = \"stdout\"\n[operations.dec]\ninput = \"enc\"\nroundtrip = true",
    );
    let (mut cells, _) = run(&s);
    for c in &mut cells {
        c.started_at = None;
    }
    let results = analysed(cells, None);
    let measured = serde_json::json!({
        "cells": results.cells,
        "comparisons": results.comparisons,
        "warnings": results.warnings,
    });
    insta::assert_json_snapshot!(measured);
}

/// A results document of `cells`, analysed, taken in `order` (when given).
pub(super) fn analysed(cells: Vec<Cell>, order: Option<crate::base::order::Order>) -> crate::results::Results {
    let mut results: crate::results::Results = serde_json::from_value(serde_json::json!({
        "schema_version": 1,
        "suite": { "name": "fake", "command": "versus run fake.toml" },
        "started_at": "2026-01-01T00:00:00Z",
        "finished_at": null,
        "status": "complete",
        "environment": {
            "versus_version": "0", "cpu_model": "fake", "cores": 1, "memory_bytes": 0,
            "os": "fake", "kernel": "fake", "load_average": null, "cpu_governor": null,
            "memory_limit_mechanism": "none", "implementations": {}
        },
        "matrix": { "size": ["100"] },
        "operations": ["enc", "dec"],
        "cells": [], "comparisons": [], "warnings": []
    }))
    .unwrap();
    results.operations = cells.iter().fold(Vec::new(), |mut ops, c| {
        if !ops.contains(&c.operation) {
            ops.push(c.operation.clone());
        }
        ops
    });
    results.cells = cells;
    results.design = order.map(|order| crate::results::Design {
        passes: 1,
        forks: 1,
        order_seed: 0,
        order: Some(order),
        lead_in: None,
    });
    crate::analysis::analyze(&mut results, &[]);
    results
}

/// With a clock that moves only when the fake runs something, `max_time`
/// stops sampling after an exact number of runs.
#[test]
fn max_time_stops_after_exactly_the_time_it_allows() {
    let s = suite(
        "[implementations.noisy]\nrun.x = \"jitter\"",
        "[operations.x]\noutput = \"none\"",
    );
    let sel = Selection {
        runs: Some(2),
        warmup: Some(Warmup::Runs(1)),
        sampling: crate::plan::Sampling::Precision {
            precision: 0.001,
            max_runs: 1000,
            max_time: std::time::Duration::from_micros(20),
        },
        ..Default::default()
    };
    let (cells, log) = run_with(&s, &sel);
    // Runs alternate 3 µs and 1 µs of fake time: the warm-up (3) and nine
    // measured runs bring the clock to exactly 20 µs, where the rule stops.
    assert_eq!(log.len(), 10);
    assert_eq!((cells[0].stop_rule, cells[0].samples.len()), (StopRule::MaxTime, 9));
}

/// A precise cell stops at its minimum runs while a noisy one in the same
/// group goes on until the time limit.
#[test]
fn precision_and_max_time_stop_cells_of_one_group_separately() {
    let s = suite(
        "[implementations.steady]\nrun.x = \"copy {in}\"\n[implementations.noisy]\nrun.x = \"jitter\"",
        "[operations.x]\noutput = \"none\"",
    );
    let sel = Selection {
        runs: Some(6),
        warmup: Some(Warmup::Runs(0)),
        sampling: crate::plan::Sampling::Precision {
            precision: 0.05,
            max_runs: 1000,
            max_time: std::time::Duration::from_micros(30),
        },
        ..Default::default()
    };
    let (cells, _) = run_with(&s, &sel);
    let steady = cells.iter().find(|c| c.implementation == "steady").unwrap();
    assert_eq!((steady.stop_rule, steady.samples.len()), (StopRule::Precision, 6));
    // Six rounds of both (6 x 1 µs + 3 x (1+3) µs = 18 µs), then noisy alone
    // (3, 1, 3, 1, 3, 1 µs) until 30 µs.
    let noisy = cells.iter().find(|c| c.implementation == "noisy").unwrap();
    assert_eq!((noisy.stop_rule, noisy.samples.len()), (StopRule::MaxTime, 12));
}

/// An operation an implementation declares it does not offer is a skipped
/// cell with the reason, never run, and a chain reading its output is
/// skipped too; the others still run.
#[test]
fn unsupported_operations_are_skipped_with_their_reason() {
    let s = suite(
        r#"
        [implementations.full]
        run = { enc = "copy {in}", dec = "copy {enc.out}" }
        [implementations.half]
        run.dec = "copy {enc.out}"
        unsupported = { enc = "no encoder in this SDK" }
        "#,
        "[operations.enc]\n[operations.dec]\ninput = \"enc\"\nroundtrip = true",
    );
    let (cells, log) = run(&s);
    assert_eq!(outcome(&cells, "enc", "full"), Outcome::Ok);
    assert_eq!(outcome(&cells, "dec", "full"), Outcome::Ok);
    let enc = cells
        .iter()
        .find(|c| c.operation == "enc" && c.implementation == "half")
        .unwrap();
    assert_eq!(enc.outcome, Outcome::Skipped);
    assert!(enc.message.as_deref().unwrap().contains("no encoder in this SDK"));
    assert_eq!(outcome(&cells, "dec", "half"), Outcome::Skipped);
    // Only `full` ran: 3 runs of each of its two operations.
    assert_eq!(log.len(), 6);
}

/// Runs `suite` with `sel` and joins each visit's cells as the session does.
fn run_gathered(suite: &Suite, sel: &Selection) -> (Vec<Cell>, Vec<String>) {
    let (visits, log) = run_with(suite, sel);
    let mut all = indexmap::IndexMap::new();
    crate::results::gather(&mut all, visits);
    (all.into_values().collect(), log)
}

#[test]
fn passes_take_each_cells_runs_in_segments_side_by_side() {
    let s = suite(
        r#"
        [implementations.a]
        run.x = "a"
        [implementations.b]
        run.x = "b"
        "#,
        "[operations.x]\noutput = \"none\"",
    );
    let sel = Selection {
        runs: Some(6),
        passes: Some(3),
        ..Default::default()
    };
    let (cells, log) = run_gathered(&s, &sel);
    // Three visits, each warming up afresh: (1 + 2) runs of each, three times.
    assert_eq!(log.iter().filter(|p| *p == "a").count(), 9);
    for c in &cells {
        assert_eq!(c.samples.len(), 6);
        assert_eq!(c.warmup_wall_ns.len(), 3);
        let passes: Vec<(u32, u32)> = c.segments.iter().map(|g| (g.pass, g.runs)).collect();
        assert_eq!(passes, [(0, 2), (1, 2), (2, 2)]);
    }
    // The two cells' segments were measured together: paired segment by segment.
    let (logs, lengths) = crate::judge::paired_log_ratios(&cells[0], &cells[1]);
    assert_eq!((logs.len(), lengths), (6, vec![2, 2, 2]));
}

#[test]
fn a_cell_that_fails_in_a_later_pass_ends_there_and_keeps_its_outcome() {
    let s = suite(
        r#"
        [implementations.good]
        run.x = "a"
        [implementations.flaky]
        run.x = "flaky"
        "#,
        "[operations.x]\noutput = \"none\"",
    );
    let sel = Selection {
        runs: Some(6),
        passes: Some(3),
        ..Default::default()
    };
    let (cells, log) = run_gathered(&s, &sel);
    assert_eq!(outcome(&cells, "x", "good"), Outcome::Ok);
    assert_eq!(outcome(&cells, "x", "flaky"), Outcome::Failed);
    // Its fourth run (the second pass's warm-up) failed; the third pass never ran it.
    assert_eq!(log.iter().filter(|p| *p == "flaky").count(), 4);
    let flaky = cells.iter().find(|c| c.implementation == "flaky").unwrap();
    assert_eq!(flaky.segments.len(), 2);
    assert_eq!(flaky.samples.len(), 2);
}

#[test]
fn resumed_passes_are_not_measured_again() {
    let s = suite(
        r#"
        [implementations.a]
        run.x = "a"
        "#,
        "[operations.x]\noutput = \"none\"",
    );
    let sel = Selection {
        runs: Some(4),
        passes: Some(2),
        ..Default::default()
    };
    let (visits, _) = run_with(&s, &sel);
    // Keep the first pass only, as a journal cut after it would.
    let first: Vec<Cell> = visits.into_iter().filter(|c| c.segments[0].pass == 0).collect();
    let dir = tempfile::tempdir().unwrap();
    let plan = build(&s, &sel).unwrap();
    let mut runner = Runner::new(
        &s,
        &plan,
        dir.path().join("w"),
        dir.path().join("t"),
        dir.path().join("c"),
    );
    runner.done = first.into_iter().map(|c| (c.id.clone(), c)).collect();
    let mut fake = Fake::new();
    let mut more = Vec::new();
    runner
        .run(&mut fake, &mut NoEvents, &mut |c: Vec<Cell>| {
            more.extend(c);
            Ok(())
        })
        .unwrap();
    assert_eq!(fake.calls("a"), 3, "only the second pass: one warm-up and two runs");
    assert!(more.iter().all(|c| c.segments[0].pass == 1));
}

#[test]
fn resolve_samples_until_every_comparison_is_settled() {
    let sel = |max_runs| Selection {
        runs: Some(6),
        warmup: Some(Warmup::Runs(0)),
        sampling: crate::plan::Sampling::Resolve {
            band: 0.02,
            max_runs,
            max_time: std::time::Duration::from_secs(3600),
        },
        ..Default::default()
    };
    // A clear 2x difference is settled at the minimum runs.
    let s = suite(
        "[implementations.a]\nrun.x = \"copy {in}\"\n[implementations.b]\nrun.x = \"garble {in}\"",
        "[operations.x]\noutput = \"none\"",
    );
    let (cells, _) = run_with(&s, &sel(50));
    assert!(
        cells
            .iter()
            .all(|c| c.stop_rule == StopRule::Resolved && c.samples.len() == 6)
    );
    // A steady 2 µs against a cell that alternates 1 and 3 µs: the ratio
    // swings ±50% round by round and never settles; both go on to the limit.
    let s = suite(
        "[implementations.a]\nrun.x = \"garble {in}\"\n[implementations.b]\nrun.x = \"jitter\"",
        "[operations.x]\noutput = \"none\"",
    );
    let (cells, _) = run_with(&s, &sel(30));
    assert!(
        cells
            .iter()
            .all(|c| c.stop_rule == StopRule::MaxRuns && c.samples.len() == 30),
        "{:?}",
        cells.iter().map(|c| (c.stop_rule, c.samples.len())).collect::<Vec<_>>()
    );
}
