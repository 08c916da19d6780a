//! Small samples and anomalies, as findings say them and as the checker
//! reads them: runs apart below 6 runs described and never a winner, no
//! cell behind in every run named as possibly fastest, no cell at two
//! levels in a mean, and "linear" by one tolerance. Each seeded fault is
//! one the checker must name.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::contradictions;
use crate::analysis::findings::tests::{cell, document, find, runs};
use crate::results::{Cell, FindingKind, FitProblem, Results, SizeAnswer, SizeWinner};

fn unsized_cell(name: &str, wall: Vec<u64>) -> Cell {
    let mut c = cell(name, "op", 0, &[], wall);
    c.payload_bytes = None;
    c
}

fn only_winner(r: &Results) -> (String, SizeWinner) {
    let f = &find(r, FindingKind::Winner, None)[0];
    (f.text.clone(), f.winners.as_ref().unwrap()[0].clone())
}

fn assert_holds(r: &Results) {
    let wrong = contradictions(r);
    assert!(wrong.is_empty(), "{wrong:#?}\n{:#?}", r.findings);
}

/// opentdf's encrypt at 100 MiB, 3 runs each: go-writer 31.5–34.9 ms,
/// go-sdk 54.7–60.0 ms, ts-sdk 707–717 ms.
fn three_runs_apart() -> Results {
    document(vec![
        unsized_cell("go-writer", vec![31_500_000, 32_500_000, 34_900_000]),
        unsized_cell("go-sdk", vec![54_700_000, 57_700_000, 60_000_000]),
        unsized_cell("ts-sdk", vec![707_000_000, 712_000_000, 717_000_000]),
    ])
}

#[test]
fn below_six_runs_runs_apart_are_described_with_both_ranges_and_no_winner() {
    let r = three_runs_apart();
    let (text, w) = only_winner(&r);
    assert_eq!((w.answer, w.implementation.as_deref()), (SizeAnswer::Unknown, None));
    assert_eq!(w.behind_every_run, ["go-sdk", "ts-sdk"]);
    assert!(w.also_unknown.is_empty(), "{w:?}");
    assert_eq!(
        text,
        "all 3 runs of go-writer, 31.5–34.9 ms, below all 3 of go-sdk, 54.7–60.0 ms, and of 1 other (n=3: no verdict below 6 runs)"
    );
    assert_holds(&r);
}

#[test]
fn a_cell_behind_in_every_run_is_never_named_as_possibly_fastest() {
    // go-sdk's runs overlap go-writer's; ts-sdk's are all far behind.
    let r = document(vec![
        unsized_cell("go-writer", vec![31_500_000, 32_500_000, 34_900_000]),
        unsized_cell("go-sdk", vec![33_000_000, 34_000_000, 36_000_000]),
        unsized_cell("ts-sdk", vec![707_000_000, 712_000_000, 717_000_000]),
    ]);
    let (text, w) = only_winner(&r);
    assert_eq!(w.answer, SizeAnswer::Unknown);
    assert_eq!(w.behind_every_run, ["ts-sdk"]);
    assert!(
        text.starts_with("unknown which of go-writer and go-sdk is faster ("),
        "{text}"
    );
    assert!(!text.contains("ts-sdk"), "{text}");
    assert_holds(&r);
    // The checker: ts-sdk listed as open, or go-sdk said to be behind in every run.
    let at = r.findings.iter().position(|f| f.kind == FindingKind::Winner).unwrap();
    let mut listed = r.clone();
    let w = &mut listed.findings[at].winners.as_mut().unwrap()[0];
    w.behind_every_run.clear();
    w.also_unknown.push("ts-sdk".into());
    let wrong = contradictions(&listed);
    assert!(
        wrong
            .iter()
            .any(|c| c.problem.contains("ts-sdk is named as possibly fastest")),
        "{wrong:#?}"
    );
    let mut overlap = r.clone();
    overlap.findings[at].winners.as_mut().unwrap()[0]
        .behind_every_run
        .push("go-sdk".into());
    assert!(!contradictions(&overlap).is_empty());
}

#[test]
fn the_checker_finds_a_cell_at_two_levels_in_a_mean() {
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let mut cells = Vec::new();
    for size in [1_000u64, 1_000_000] {
        cells.push(cell("A", "op", size, &[], runs(&mut rng, 1e6, 0.002, 10)));
        cells.push(cell("B", "op", size, &[], runs(&mut rng, 2e6, 0.002, 10)));
    }
    // B at 1 KB as aes-gcm-java's sun-jdk21 at 10 MB: 90 ms, one run in passing, 2.36 ms.
    let ms = [89.9, 89.4, 89.4, 89.8, 90.3, 89.5, 11.5, 2.36, 2.33, 2.40];
    cells[1].samples.wall_ns = ms.iter().map(|m| (m * 1e6) as u64).collect::<Vec<u64>>().into();
    let mut r = document(cells);
    r.suite.baseline = Some("A".into());
    crate::analysis::analyze(&mut r, &[]);
    assert_eq!(r.overall.as_ref().unwrap().implementations[0].cells, 1);
    assert_holds(&r);
    // Its summary as an older versus wrote it, blind to the run in passing:
    // the mean takes it in, and the checker, assessing the runs again, objects.
    r.cells[1].stats.as_mut().unwrap().unstable = None;
    crate::analysis::overall::refresh(&mut r);
    assert_eq!(r.overall.as_ref().unwrap().implementations[0].cells, 2);
    let wrong = contradictions(&r);
    assert!(
        wrong
            .iter()
            .any(|c| c.problem.contains("B: a mean over 2 cells, where 1 have")),
        "{wrong:#?}"
    );
}

#[test]
fn the_checker_holds_linear_to_one_tolerance() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let cells = [1_000u64, 100_000, 10_000_000]
        .iter()
        .map(|&s| cell("A", "op", s, &[], runs(&mut rng, 1e6 + s as f64, 0.01, 10)))
        .collect();
    let r = document(cells);
    assert_holds(&r);
    let at = r.findings.iter().position(|f| f.kind == FindingKind::Cost).unwrap();
    // A line half as steep misses the 10 MB median by far more than 25%.
    let mut steeper = r.clone();
    steeper.findings[at].cost.as_mut().unwrap().per_byte_ns /= 2.0;
    assert!(
        contradictions(&steeper)
            .iter()
            .any(|c| c.problem.starts_with("called linear"))
    );
    // The same line refused, on the old zero-tolerance rule or as a misfit.
    for problem in [FitProblem::FixedAboveSmallest, FitProblem::Residual] {
        let mut refused = r.clone();
        let f = &mut refused.findings[at];
        f.kind = FindingKind::NotLinear;
        let fit = f.cost.as_mut().unwrap();
        (fit.holds, fit.problem) = (false, Some(problem));
        assert!(!contradictions(&refused).is_empty(), "{problem:?}");
    }
}

#[test]
fn the_checker_reads_a_growth_exponent_and_a_cliff_from_the_medians() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    // Quadratic from 100 KB up, and a second implementation with a cliff at 1 MB.
    let mut cells = Vec::new();
    for s in [10_000u64, 100_000, 1_000_000, 10_000_000] {
        let k = s as f64 / 1e3;
        cells.push(cell("q", "op", s, &[], runs(&mut rng, 1e4 + 100.0 * k * k, 0.01, 10)));
        let slow = if s == 1_000_000 { 50.0 } else { 1.0 };
        cells.push(cell(
            "jit",
            "op",
            s,
            &[],
            runs(&mut rng, 5e4 + slow * s as f64, 0.01, 10),
        ));
    }
    let r = document(cells);
    assert_holds(&r);
    let q = r
        .findings
        .iter()
        .position(|f| f.implementation.as_deref() == Some("q") && f.kind == FindingKind::NotLinear)
        .unwrap();
    assert_eq!(
        r.findings[q].cost.as_ref().unwrap().problem,
        Some(FitProblem::SuperLinear)
    );
    let mut wrong_exponent = r.clone();
    *wrong_exponent.findings[q]
        .cost
        .as_mut()
        .unwrap()
        .exponent
        .as_mut()
        .unwrap() = 1.5;
    assert!(
        contradictions(&wrong_exponent)
            .iter()
            .any(|c| c.problem.starts_with("exponent"))
    );
    let jit = r
        .findings
        .iter()
        .position(|f| f.implementation.as_deref() == Some("jit") && f.kind == FindingKind::NotLinear)
        .unwrap();
    let mut moved = r.clone();
    moved.findings[jit].cost.as_mut().unwrap().cliffs[0].payload_bytes = vec![100_000];
    assert!(
        contradictions(&moved)
            .iter()
            .any(|c| c.problem.starts_with("a cliff at"))
    );
}
