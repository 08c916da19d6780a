//! Carry-over findings: each cell whose time depends on the implementation
//! run just before it (`judge::carryover`, stored in `stats.carry_over`),
//! naming who slows whom and by how much, with the cell's figures run alone
//! and in turns; the warning that names them all; and what becomes of each
//! comparison of such a cell (`apply`: not called, unless the runs after
//! each predecessor give its verdict on their own).

use crate::findings::text;
use crate::judge::compare::unpaired;
use crate::judge::verdict;
use crate::results::{AnalysisSettings, CarryOver, Cell, Comparison, Finding, FindingKind, Results, Verdict, Warning};

/// The warning's kind in `results.warnings`.
pub const KIND: &str = "carry_over";

/// The start of the note of a comparison a carry-over leaves unknown.
const WITHHELD: &str = "not called: carry-over";

/// The end of the note of a comparison that keeps its verdict beside one.
const KEPT: &str = "but the runs after each predecessor give this verdict on their own";

/// The cell's carry-over when one was detected.
pub fn detected(cell: &Cell) -> Option<&CarryOver> {
    cell.stats.as_ref()?.carry_over.as_ref().filter(|c| c.detected)
}

/// "a or b", naming the cell's own implementation "itself".
fn who(cell: &Cell, names: &[String]) -> String {
    let names: Vec<String> = names
        .iter()
        .map(|n| {
            if *n == cell.implementation {
                "itself".to_string()
            } else {
                n.clone()
            }
        })
        .collect();
    match names.as_slice() {
        [rest @ .., last] if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// One sentence: "c after a or b: 1.94x [1.71, 2.20] its time after itself,
/// +1.20 s system time (run alone 1.38 s, in turns 2.67 s; 10 and 20 runs)".
pub fn sentence(cell: &Cell, co: &CarryOver) -> Option<String> {
    let e = co.effect.as_ref()?;
    let ratio = match (e.ci_low, e.ci_high) {
        (Some(lo), Some(hi)) => {
            let [r, lo, hi] = text::numbers([e.ratio, lo, hi]);
            format!("{r}x [{lo}, {hi}]")
        }
        _ => text::ratio(e.ratio),
    };
    let sys = e.sys_delta_ns.filter(|d| d.abs() >= 1.0).map_or_else(String::new, |d| {
        let sign = if d < 0.0 { "-" } else { "+" };
        format!(", {sign}{} system time", text::time(d.abs()))
    });
    let figures = match (&co.alone, &co.in_turns) {
        (Some(alone), Some(turns)) => format!(
            " (run alone {}, in turns {}; {} and {} runs)",
            text::time(alone.median_ns),
            text::time(turns.median_ns),
            alone.runs,
            turns.runs
        ),
        (None, Some(turns)) => format!(
            " (in turns {}; it never ran right after itself, so no run-alone figure: --order balanced gives one)",
            text::time(turns.median_ns)
        ),
        _ => String::new(),
    };
    Some(format!(
        "{} after {}: {ratio} its time after {}{sys}{figures}",
        cell.implementation,
        who(cell, &e.after),
        who(cell, &e.against)
    ))
}

/// Why a comparison that involves `cell` is not called.
pub fn note(cell: &Cell) -> Option<String> {
    let co = detected(cell)?;
    Some(format!(
        "{WITHHELD}, the run before changes {}'s time ({}); its median mixes runs after different implementations, so the ratio depends on the order",
        cell.label(),
        sentence(cell, co)?
    ))
}

/// A comparison of `cell` with `base` (in time) where either has a
/// carry-over: its verdict stands only if the runs of each regime the
/// carry-over separates (after the predecessors that change the cell's
/// time, and after the others: `judge::carryover::regimes`) give the same
/// verdict on their own, against each regime of the other cell — a 2 µs
/// program that takes 4 µs after a heavy one is faster than an 8 µs one
/// either way; against another 2 µs program, one regime says `same` and
/// the other `slower`, and the comparison is `unknown`. Either way the
/// note says so. `band` is the comparison's noise band (log scale), `level`
/// its confidence. Returns whether the verdict was withheld for it.
pub fn apply(comparison: &mut Comparison, cell: &Cell, base: &Cell, band: f64, level: f64) -> bool {
    if comparison.verdict == Verdict::Baseline || (detected(cell).is_none() && detected(base).is_none()) {
        return false;
    }
    let why = note(cell).or_else(|| note(base)).unwrap_or_default();
    let found = why.trim_start_matches(WITHHELD).trim_start_matches(", ");
    // An unknown is unknown already, whatever ran before: not the carry-over's doing.
    if comparison.verdict == Verdict::Unknown {
        add_note(comparison, format!("a carry-over was also found ({found})"));
        return false;
    }
    let regimes = crate::judge::carryover::regimes;
    let holds = match (regimes(cell, level), regimes(base, level)) {
        (Some(mine), Some(theirs)) => mine.iter().all(|m| {
            theirs.iter().all(|t| {
                let est = unpaired(m, t);
                est.interval.is_some() && verdict::decide(&est, band) == comparison.verdict
            })
        }),
        _ => false,
    };
    if holds {
        add_note(comparison, format!("a carry-over was found ({found}), {KEPT}"));
        return false;
    }
    comparison.verdict = Verdict::Unknown;
    // More runs in the same order would not settle it.
    comparison.settle_runs = None;
    add_note(comparison, why);
    true
}

/// `text` after the comparison's note, if it has one.
fn add_note(comparison: &mut Comparison, text: String) {
    comparison.note = Some(match comparison.note.take() {
        Some(earlier) => format!("{earlier}; {text}"),
        None => text,
    });
}

/// `apply` with the comparison's own noise band (`judge::compare::noise_band`):
/// the one rule of the tables, the overall table and the findings.
pub fn judge(comparison: &mut Comparison, cell: &Cell, base: &Cell, settings: &AnalysisSettings) -> bool {
    let band = (1.0 + crate::judge::compare::noise_band(cell, base, settings)).ln();
    apply(comparison, cell, base, band, settings.confidence)
}

/// One finding per cell with a detected carry-over, in document order.
pub fn findings(results: &Results) -> Vec<Finding> {
    results
        .cells
        .iter()
        .filter_map(|cell| {
            let co = detected(cell)?;
            let named: Vec<&String> = co
                .effect
                .iter()
                .flat_map(|e| e.after.iter().chain(&e.against))
                .collect();
            let mut cells = vec![cell.id.clone()];
            cells.extend(
                results
                    .cells
                    .iter()
                    .filter(|c| {
                        c.id != cell.id
                            && c.operation == cell.operation
                            && c.params == cell.params
                            && named.contains(&&c.implementation)
                    })
                    .map(|c| c.id.clone()),
            );
            let mut f = Finding::new(
                FindingKind::CarryOver,
                &cell.operation,
                cell.params.clone(),
                sentence(cell, co)?,
                cells,
            );
            f.implementation = Some(cell.implementation.clone());
            f.carry_over = Some(co.clone());
            Some(f)
        })
        .collect()
}

/// How many of the run's comparisons (in time) carry this note.
fn count(results: &Results, marker: &str) -> usize {
    results
        .comparisons
        .iter()
        .filter(|c| c.note.as_deref().is_some_and(|n| n.contains(marker)))
        .count()
}

/// The warning naming every cell with a carry-over, if any.
pub fn warning(results: &Results) -> Option<Warning> {
    let named: Vec<String> = results
        .cells
        .iter()
        .filter_map(|c| {
            let e = detected(c)?.effect.as_ref()?;
            Some(format!(
                "{} ({} after {})",
                c.label(),
                text::ratio(e.ratio),
                who(c, &e.after)
            ))
        })
        .collect();
    (!named.is_empty()).then(|| Warning {
        kind: KIND.into(),
        message: format!(
            "{} cell(s) ran at a different speed depending on which implementation ran just before them: what one run leaves behind (memory to reclaim or caches evicted, for example: the run does not measure which) was charged to the next. Taking turns cannot cancel that, so a comparison with one of them keeps its verdict only where the runs after each predecessor give it on their own: {} kept, {} unknown because of it. The findings give each one's time run alone and in turns. Compare them with --order blocked (each implementation's runs in one block, as hyperfine does), or find what the run before leaves behind. Cells: {}.",
            named.len(),
            count(results, KEPT),
            count(results, WITHHELD),
            named.join(", ")
        ),
    })
}

/// What the method sentence says of the carry-over test when some cells
/// with a recorded order could not be tested: too few runs after each
/// predecessor (`judge::carryover::MIN_RUNS` on each side). `None` when
/// every such cell was tested, or none has an order.
pub fn coverage(results: &Results) -> Option<String> {
    let ordered: Vec<&CarryOver> = results
        .cells
        .iter()
        .filter_map(|c| c.stats.as_ref()?.carry_over.as_ref())
        .collect();
    // Tested: an effect with an interval (an effect planned on too few runs
    // for one can neither find nor rule out anything).
    let tested = ordered
        .iter()
        .filter(|c| {
            c.effect
                .as_ref()
                .is_some_and(|e| e.ci_low.is_some() && e.ci_high.is_some())
        })
        .count();
    if ordered.is_empty() || tested == ordered.len() {
        return None;
    }
    // Implementations taking turns in a group, whether or not each got to
    // run before each other in so few runs.
    let most = results
        .cells
        .iter()
        .filter_map(|c| c.samples.order.as_ref().map(|o| o.implementations.len()))
        .max()
        .unwrap_or(1)
        .max(1);
    // The group's tests share the confidence, so more implementations need
    // more runs after each for any test to have an interval.
    let min = crate::judge::carryover::runs_needed(most, results.analysis.confidence);
    let hint = match results.order() {
        crate::suite::Order::Balanced => format!(" (--runs {} here)", min * most),
        _ => String::new(),
    };
    Some(format!(
        "Carry-over (a run slowed or sped up by the one before it) was tested in {tested} of {} cells: with {most} implementations taking turns the test takes at least {min} runs after each predecessor{hint}.",
        ordered.len()
    ))
}
