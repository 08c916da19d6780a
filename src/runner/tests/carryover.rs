//! The run order and carry-over, end to end on the fake executor: the
//! orders the scheduler takes, what it records of them, and what analysis
//! makes of a program whose time depends on the program run before it
//! (detected, named, not called) and of identical programs with noise
//! (not detected in at least 95% of trials).

use super::super::tests::{analysed, run_on, suite};
use crate::base::order::Order;
use crate::plan::Selection;
use crate::results::{Cell, FindingKind, Results, Verdict};
use crate::runner::fake::Fake;
use crate::suite::Suite;

fn three(a: &str, b: &str, c: &str) -> Suite {
    suite(
        &format!(
            "[implementations.a]\nrun.x = \"{a}\"\n[implementations.b]\nrun.x = \"{b}\"\n[implementations.c]\nrun.x = \"{c}\""
        ),
        "[operations.x]\noutput = \"none\"",
    )
}

fn selection(order: Order, runs: u32) -> Selection {
    Selection {
        order: Some(order),
        runs: Some(runs),
        ..Default::default()
    }
}

fn cell<'r>(cells: &'r [Cell], imp: &str) -> &'r Cell {
    cells.iter().find(|c| c.implementation == imp).unwrap()
}

/// How often each cell's measured runs came right after each implementation.
fn predecessors(c: &Cell) -> Vec<(String, usize)> {
    let order = c.samples.order.as_ref().unwrap();
    order
        .implementations
        .iter()
        .enumerate()
        .map(|(i, name)| (name.clone(), order.after.iter().filter(|a| **a == i as i16).count()))
        .collect()
}

#[test]
fn the_balanced_order_lets_every_implementation_follow_every_one_itself_included() {
    let s = three("steady", "steady", "steady");
    // Two blocks of six rounds, after one warm-up round.
    let (cells, _) = run_on(&s, &selection(Order::Balanced, 12), Fake::new());
    for c in &cells {
        let counts: Vec<usize> = predecessors(c).into_iter().map(|(_, n)| n).collect();
        assert_eq!(counts, [4, 4, 4], "{}", c.implementation);
        let order = c.samples.order.as_ref().unwrap();
        // One run of each implementation per round: places 0 to 2.
        assert!(order.position.iter().all(|p| *p < 3));
    }
    // Interleaved from three on: nobody ever runs right after itself.
    let (cells, _) = run_on(&s, &selection(Order::Interleaved, 12), Fake::new());
    for c in &cells {
        let own = predecessors(c)
            .into_iter()
            .find(|(n, _)| *n == c.implementation)
            .unwrap();
        assert_eq!(own.1, 0, "{}", c.implementation);
    }
}

#[test]
fn the_blocked_order_runs_each_implementation_in_one_block() {
    let s = three("a", "b", "c");
    let (cells, log) = run_on(&s, &selection(Order::Blocked, 2), Fake::new());
    assert_eq!(log, ["a", "a", "a", "b", "b", "b", "c", "c", "c"]);
    let b = cell(&cells, "b");
    let order = b.samples.order.as_ref().unwrap();
    // After its own warm-up run, then after itself; every round holds one run.
    assert_eq!(order.after, [1, 1]);
    assert_eq!(order.position, [0, 0]);
    // The report says drift is then not cancelled, and compares unpaired.
    let r = analysed(cells, Some(Order::Blocked));
    assert!(r.warnings.iter().any(|w| w.kind == crate::analysis::BLOCKED));
    let method = crate::report::method_sentence(&r).unwrap();
    assert!(method.contains("drift of the machine is not cancelled"), "{method}");
}

#[test]
fn too_few_runs_to_test_for_carry_over_is_said_with_the_runs_it_takes() {
    // Ten runs over three implementations: three or four after each predecessor.
    let r = trial(["heavy", "afterheavy", "steady"], Order::Balanced, 10, 7, 0.03);
    assert!(detected(&r).is_empty());
    let method = crate::report::method_sentence(&r).unwrap();
    assert!(
        method.contains("tested in 0 of 3 cells") && method.contains("--runs 24 here"),
        "{method}"
    );
    // Enough runs: nothing to say.
    let r = trial(["steady", "steady", "steady"], Order::Balanced, 24, 7, 0.03);
    let method = crate::report::method_sentence(&r).unwrap();
    assert!(!method.contains("Carry-over"), "{method}");
}

#[test]
fn one_implementation_alone_has_no_carry_over_to_test_or_to_mention() {
    let s = suite(
        "[implementations.a]\nrun.x = \"steady\"",
        "[operations.x]\noutput = \"none\"",
    );
    let (cells, _) = run_on(&s, &selection(Order::Balanced, 10), Fake::new());
    assert!(cells[0].samples.order.is_some(), "the order is still recorded");
    let r = analysed(cells, Some(Order::Balanced));
    assert_eq!(r.cells[0].stats.as_ref().unwrap().carry_over, None);
    let method = crate::report::method_sentence(&r).unwrap();
    assert!(
        !method.contains("Carry-over") && !method.contains("carry-over"),
        "{method}"
    );
}

#[test]
fn each_run_records_its_place_its_predecessor_and_the_gap() {
    let s = three("a", "b", "c");
    let (cells, log) = run_on(&s, &selection(Order::Interleaved, 2), Fake::new());
    assert_eq!(log, ["a", "b", "c", "b", "c", "a", "c", "a", "b"]);
    let a = cell(&cells, "a").samples.order.as_ref().unwrap();
    assert_eq!(a.implementations, ["a", "b", "c"]);
    // Round 1: b c a (a third, after c); round 2: c a b (a second, after c).
    assert_eq!((a.position.as_slice(), a.after.as_slice()), (&[2, 1][..], &[2, 2][..]));
    // The fake's clock moves only while a program runs: no time between runs.
    assert_eq!(a.gap_ns, [0, 0]);
    // The journal keeps it: a cell read back has the same order.
    let text = serde_json::to_string(cell(&cells, "a")).unwrap();
    let back: Cell = serde_json::from_str(&text).unwrap();
    assert_eq!(back.samples.order.as_ref(), Some(a));
}

/// A balanced run of `impls` (three) with `runs` runs on a fake with noise, analysed.
fn trial(impls: [&str; 3], order: Order, runs: u32, seed: u64, noise: f64) -> Results {
    let s = three(impls[0], impls[1], impls[2]);
    let (cells, _) = run_on(&s, &selection(order, runs), Fake::with_noise(seed, noise));
    analysed(cells, Some(order))
}

fn detected(r: &Results) -> Vec<&str> {
    r.cells
        .iter()
        .filter(|c| crate::judge::detected(c).is_some())
        .map(|c| c.implementation.as_str())
        .collect()
}

#[test]
fn a_program_slower_after_another_is_detected_named_and_not_called() {
    let r = trial(["heavy", "afterheavy", "steady"], Order::Balanced, 24, 7, 0.03);
    assert_eq!(detected(&r), ["b"]);
    let co = r.cells[1].stats.as_ref().unwrap().carry_over.as_ref().unwrap();
    let e = co.effect.as_ref().unwrap();
    assert_eq!(
        (e.after.as_slice(), e.against.as_slice()),
        (&["a".to_string()][..], &["b".to_string()][..])
    );
    assert!(e.ratio > 1.7 && e.ratio < 2.3, "{e:?}");
    assert!(e.sys_delta_ns.unwrap() > 1000.0, "{e:?}");
    let (alone, turns) = (co.alone.as_ref().unwrap(), co.in_turns.as_ref().unwrap());
    assert_eq!((alone.runs, turns.runs), (8, 16));
    assert!(turns.median_ns > alone.median_ns);
    // Its comparisons say so; the one the carry-over could account for
    // (b against steady c: 2 µs alone, up to 4 µs after a) reads unknown,
    // while b against a (8 µs) stands whatever ran before b.
    let mut kept = 0;
    for c in r.comparisons.iter().filter(|c| c.verdict != Verdict::Baseline) {
        if c.implementation == "b" || c.baseline == "b" {
            assert!(c.note.as_deref().unwrap().contains("carry-over"), "{c:?}");
            let pair = [c.implementation.as_str(), c.baseline.as_str()];
            if pair.contains(&"c") {
                assert_eq!(c.verdict, Verdict::Unknown, "{c:?}");
            } else {
                assert_ne!(c.verdict, Verdict::Unknown, "{c:?}");
                assert!(
                    c.note.as_deref().unwrap().contains("give this verdict on their own"),
                    "{c:?}"
                );
                kept += 1;
            }
        }
    }
    // Unknown for the carry-over, not for its own interval: the warning counts those.
    let withheld = r
        .comparisons
        .iter()
        .filter(|c| {
            c.note
                .as_deref()
                .is_some_and(|n| n.starts_with("not called: carry-over"))
        })
        .count();
    let found: Vec<_> = r.findings.iter().filter(|f| f.kind == FindingKind::CarryOver).collect();
    assert_eq!(found.len(), 1);
    assert!(found[0].text.starts_with("b after a: "), "{}", found[0].text);
    assert!(found[0].text.contains("its time after itself"), "{}", found[0].text);
    // The warning counts both kinds, as the tables show them.
    let w = r.warnings.iter().find(|w| w.kind == "carry_over").unwrap();
    assert!(
        w.message
            .contains(&format!("{kept} kept, {withheld} unknown because of it")),
        "{}",
        w.message
    );
}

fn overall_row<'r>(r: &'r Results, name: &str) -> &'r crate::results::OverallRow {
    let rows = &r.overall.as_ref().unwrap().implementations;
    rows.iter().find(|o| o.implementation == name).unwrap()
}

#[test]
fn a_verdict_each_regime_gives_on_its_own_stands_beside_a_carry_over() {
    // b takes 2 µs alone and 4 µs after a; a takes 8 µs: b is faster than a
    // whichever ran before it, and the overall summary counts it so.
    let mut r = trial(["heavy", "afterheavy", "steady"], Order::Balanced, 24, 7, 0.03);
    r.suite.baseline = Some("a".into());
    crate::analysis::reanalyze(&mut r);
    let b = r.comparisons.iter().find(|c| c.implementation == "b").unwrap();
    assert_eq!(b.verdict, Verdict::Faster, "{b:?}");
    assert!(
        b.note.as_deref().unwrap().contains("give this verdict on their own"),
        "{b:?}"
    );
    let row = overall_row(&r, "b");
    assert_eq!((row.faster, row.carry_over), (1, 0), "{row:?}");
    // Against c (2 µs) the same carry-over could be the whole difference.
    r.suite.baseline = Some("c".into());
    crate::analysis::reanalyze(&mut r);
    let b = r.comparisons.iter().find(|c| c.implementation == "b").unwrap();
    assert_eq!(b.verdict, Verdict::Unknown, "{b:?}");
    let row = overall_row(&r, "b");
    // b's two modes (2 and 4 µs) also make its runs unstable; either way
    // the cell stays out of the mean, counted once.
    assert_eq!(
        (row.unknown, row.carry_over + row.unstable, row.cells),
        (1, 1, 0),
        "{row:?}"
    );
}

#[test]
fn a_program_slower_after_any_other_is_named_after_both() {
    let r = trial(["steady", "afterany", "steady"], Order::Balanced, 24, 3, 0.03);
    assert_eq!(detected(&r), ["b"]);
    let f = r.findings.iter().find(|f| f.kind == FindingKind::CarryOver).unwrap();
    assert!(f.text.starts_with("b after a or c: "), "{}", f.text);
}

#[test]
fn interleaved_runs_still_show_whom_a_carry_over_comes_from() {
    // No run after itself: the predecessors are tested against each other.
    let r = trial(["heavy", "afterheavy", "steady"], Order::Interleaved, 24, 5, 0.03);
    assert_eq!(detected(&r), ["b"]);
    let f = r.findings.iter().find(|f| f.kind == FindingKind::CarryOver).unwrap();
    assert!(f.text.starts_with("b after a: "), "{}", f.text);
    assert!(f.text.contains("no run-alone figure"), "{}", f.text);
}

/// `trials` independent groups of `impls` (one run of versus, a matrix
/// parameter `trial`), on a fake with 5% noise, analysed; for each group,
/// the implementations a carry-over was detected in.
fn trials(impls: [&str; 3], order: Order, runs: u32, trials: usize, seed: u64) -> Vec<Vec<String>> {
    let s = crate::suite::parse(
        std::path::Path::new("t.toml"),
        &format!(
            "[settings]\nwarmup = 1\n[matrix]\nsize = [\"100\"]\ntrial = [{}]\n[payload]\nsize = \"{{size}}\"\n[operations.x]\noutput = \"none\"\n[implementations.a]\nrun.x = \"{}\"\n[implementations.b]\nrun.x = \"{}\"\n[implementations.c]\nrun.x = \"{}\"",
            (1..=trials).map(|t| t.to_string()).collect::<Vec<_>>().join(", "),
            impls[0],
            impls[1],
            impls[2]
        ),
    )
    .unwrap();
    let (cells, _) = run_on(&s, &selection(order, runs), Fake::with_noise(seed, 0.05));
    let r = analysed(cells, Some(order));
    (1..=trials)
        .map(|t| {
            r.cells
                .iter()
                .filter(|c| c.params.get("trial").is_some_and(|v| v.to_string() == t.to_string()))
                .filter(|c| crate::judge::detected(c).is_some())
                .map(|c| c.implementation.clone())
                .collect()
        })
        .collect()
}

#[test]
fn carry_over_is_found_in_most_trials() {
    let found = trials(["heavy", "afterheavy", "steady"], Order::Balanced, 24, 40, 1000);
    let right = found.iter().filter(|f| *f == &["b"]).count();
    assert!(
        right * 10 >= found.len() * 9,
        "found in {right} of {}: {found:?}",
        found.len()
    );
}

/// Identical programs with noise: any detection is a false one.
#[test]
fn identical_implementations_are_not_flagged_in_95_percent_of_trials() {
    for (order, runs) in [(Order::Balanced, 24), (Order::Interleaved, 24), (Order::Balanced, 60)] {
        let found = trials(["steady", "steady", "steady"], order, runs, 200, runs.into());
        let flagged = found.iter().filter(|f| !f.is_empty()).count();
        assert!(
            flagged * 20 <= found.len(),
            "{order:?}, {runs} runs: flagged in {flagged} of {} A/A trials",
            found.len()
        );
    }
}

#[test]
fn the_runs_a_test_needs_grow_with_the_implementations_sharing_the_confidence() {
    use crate::judge::runs_needed;
    // Two take turns: 2 tests at 97.5% each, 7 runs (6 give 96.9%).
    assert_eq!(runs_needed(2, 0.95), 7);
    // Three: 6 tests at 99.17% each, 8 runs.
    assert_eq!(runs_needed(3, 0.95), 8);
    assert!(runs_needed(6, 0.95) > 8);
}
