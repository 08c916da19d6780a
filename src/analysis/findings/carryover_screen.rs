//! The warning of the carry-over screen (`judge::carryover_screen`): the
//! cells whose every run after another implementation was slower than all
//! their runs after themselves, at run counts too small for the full test.
//! It gives each one's figures run alone (after itself) and in turns (after
//! others), says its comparisons were withheld, and what to run next.
//!
//! The advice. `--runs N`, N the runs the full test needs in the balanced
//! order, keeps the turns (drift cancelled, runs paired) and gives the full
//! test: it names who slows whom with an interval, and a comparison is
//! called where the runs alone and the runs in turns each give its verdict.
//! `--order blocked` measures each implementation run alone, hyperfine's
//! figure, the one to compare when the programs never run back to back in
//! use; but it cancels no drift and sees no carry-over, so it comes second.

use crate::base::text;
use crate::judge::runs_needed;
use crate::judge::{detected, screen_clause, screened};
use crate::results::{Cell, Results, RunsAfter, Verdict, Warning};

/// The warning's kind in `results.warnings`.
pub(crate) const KIND: &str = "carry_over_screen";

/// "1.40 s, 75.0 ms system time" (none said when none was counted).
fn figures(r: &RunsAfter) -> String {
    match r.median_sys_ns.filter(|s| *s > 0.0) {
        Some(sys) => format!("{}, {} system time", text::time(r.median_ns), text::time(sys)),
        None => text::time(r.median_ns),
    }
}

/// One cell: "jaq filter: alone (after itself) 1.40 s, …; in turns (after
/// others) 2.40 s, …; every one of the 7 runs …".
fn describe(cell: &Cell) -> Option<String> {
    let co = detected(cell)?;
    let screen = screened(co)?;
    Some(format!(
        "{}: alone (after itself) {}; in turns (after others) {}; {}",
        cell.label(),
        figures(co.alone.as_ref()?),
        figures(co.in_turns.as_ref()?),
        screen_clause(co, screen)
    ))
}

/// The runs the full test takes in the balanced order, for the largest
/// group of the cells named.
fn runs_for_test(results: &Results, cells: &[&Cell]) -> usize {
    let most = cells
        .iter()
        .filter_map(|c| c.samples.order.as_ref())
        .map(|o| o.implementations.len())
        .max()
        .unwrap_or(2);
    runs_needed(most, results.analysis.confidence) * most
}

/// How many comparisons of `cells` read `unknown` with a carry-over in
/// their note: withheld, or unknown by their own interval already.
fn unknown(results: &Results, cells: &[&Cell]) -> usize {
    results
        .comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Unknown)
        .filter(|c| c.note.as_deref().is_some_and(|n| n.contains("carry-over")))
        .filter(|c| {
            cells.iter().any(|cell| {
                c.operation == cell.operation
                    && c.params == cell.params
                    && (c.implementation == cell.implementation || c.baseline == cell.implementation)
            })
        })
        .count()
}

/// The warning naming every cell the screen found a carry-over in, if any.
pub(crate) fn warning(results: &Results) -> Option<Warning> {
    let cells: Vec<&Cell> = results
        .cells
        .iter()
        .filter(|c| detected(c).and_then(screened).is_some())
        .collect();
    if cells.is_empty() {
        return None;
    }
    let described: Vec<String> = cells.iter().filter_map(|c| describe(c)).collect();
    Some(Warning {
        kind: KIND.into(),
        message: format!(
            "{} cell(s) ran slower after another implementation than after themselves in every run: too few runs for the full carry-over test, but more surely than chance allows (the screen). What one run leaves behind was charged to the next, so each one's median mixes two regimes and depends on the order: {} comparison(s) with them read unknown. {}. To settle them, rerun with --runs {}: the full test then names who slows whom, with an interval, and calls a comparison where the runs alone and in turns each give its verdict. To compare each one's cost run alone (hyperfine's figure, right if they never run back to back in use), use --order blocked, which cancels no drift.",
            cells.len(),
            unknown(results, &cells),
            described.join("; "),
            runs_for_test(results, &cells)
        ),
    })
}
