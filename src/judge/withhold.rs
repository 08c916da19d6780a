//! The carry-over rule that can change a verdict: a comparison of a cell
//! whose time depends on the implementation run just before it
//! (`judge::carryover`) is called only where the runs after each
//! predecessor give that verdict on their own; otherwise it reads
//! `unknown`, and its note says who slows whom and by how much. A
//! carry-over only the screen found (`judge::carryover_screen`, too few
//! runs after each predecessor for an interval) withholds a verdict only
//! where those runs could turn it round: it is kept when every run after
//! each predecessor lies beyond every run of the other side by more than
//! the band, the verdict's way, and its note says what the screen saw — a
//! 3x difference is not withheld for a 4% carry-over.

use super::compare::unpaired;
use super::verdict;
use crate::base::text;
use crate::results::{AnalysisSettings, CarryOver, Cell, Comparison, Screen, ScreenMetric, Verdict};

/// The start of the note of a comparison a carry-over leaves unknown.
pub(crate) const WITHHELD: &str = "not called: carry-over";

/// The end of the note of a comparison that keeps its verdict beside one.
pub(super) const KEPT: &str = "but the runs after each predecessor give this verdict on their own";

/// The cell's carry-over when one was detected.
pub(crate) fn detected(cell: &Cell) -> Option<&CarryOver> {
    cell.carry_over_found()
}

/// The screen of a carry-over the screen found, not the test.
pub(crate) fn screened(co: &CarryOver) -> Option<&Screen> {
    co.screened()
}

/// "every one of the 7 runs after others slower than all 3 after itself,
/// in system time (1 chance in 120)".
pub(crate) fn screen_clause(co: &CarryOver, screen: &Screen) -> String {
    let runs = |r: &Option<crate::results::RunsAfter>| r.as_ref().map_or(0, |r| r.runs);
    let metrics: Vec<&str> = screen
        .apart_in
        .iter()
        .map(|m| match m {
            ScreenMetric::Wall => "wall time",
            ScreenMetric::Sys => "system time",
        })
        .collect();
    format!(
        "every one of the {} runs after others slower than all {} after itself, in {} (1 chance in {:.0} if the order changed nothing)",
        runs(&co.in_turns),
        runs(&co.alone),
        metrics.join(" and "),
        1.0 / screen.chance
    )
}

/// "a or b", naming the cell's own implementation "itself".
pub(crate) fn who(cell: &Cell, names: &[String]) -> String {
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
pub(crate) fn sentence(cell: &Cell, co: &CarryOver) -> Option<String> {
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
    let seen = screened(co).map_or_else(String::new, |s| format!("; {}", screen_clause(co, s)));
    Some(format!(
        "{} after {}: {ratio} its time after {}{sys}{figures}{seen}",
        cell.implementation,
        who(cell, &e.after),
        who(cell, &e.against)
    ))
}

/// Why a comparison that involves `cell` is not called.
pub(super) fn note(cell: &Cell) -> Option<String> {
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
pub(super) fn apply(comparison: &mut Comparison, cell: &Cell, base: &Cell, band: f64, level: f64) -> bool {
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
    let regimes = super::carryover::regimes;
    // A carry-over only the screen found has too few runs after each
    // predecessor for an interval: there the verdict stands when every
    // regime's median lies beyond the band the same way (the order cannot
    // turn it round), and is withheld only where it could.
    let by_figures = [cell, base].iter().any(|c| detected(c).and_then(screened).is_some());
    let holds = if by_figures {
        let runs = super::carryover::regime_runs;
        match (runs(cell), runs(base)) {
            (Some(mine), Some(theirs)) => mine
                .iter()
                .all(|m| theirs.iter().all(|t| apart_beyond(m, t, band, comparison.verdict))),
            _ => false,
        }
    } else {
        match (regimes(cell, level), regimes(base, level)) {
            (Some(mine), Some(theirs)) => mine.iter().all(|m| {
                theirs.iter().all(|t| {
                    let est = unpaired(m, t);
                    est.interval.is_some() && verdict::decide(&est, band) == comparison.verdict
                })
            }),
            _ => false,
        }
    };
    if holds {
        add_note(comparison, format!("a carry-over was found ({found}), {KEPT}"));
        comparison.reason = Some(crate::results::Reason::CarryOverKept);
        return false;
    }
    comparison.verdict = Verdict::Unknown;
    // More runs in the same order would not settle it.
    comparison.settle_runs = None;
    add_note(comparison, why);
    comparison.reason = Some(crate::results::Reason::CarryOver);
    true
}

/// Whether every run of `mine` lies beyond every run of `theirs` by more
/// than the band (log units), on `verdict`'s side: too few runs for an
/// interval, so no run of one may come near any run of the other.
fn apart_beyond(mine: &[f64], theirs: &[f64], band: f64, verdict: Verdict) -> bool {
    let low = |xs: &[f64]| xs.iter().copied().fold(f64::INFINITY, f64::min);
    let high = |xs: &[f64]| xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if mine.is_empty() || theirs.is_empty() || low(mine) <= 0.0 || low(theirs) <= 0.0 {
        return false;
    }
    match verdict {
        Verdict::Slower => (low(mine) / high(theirs)).ln() > band,
        Verdict::Faster => (low(theirs) / high(mine)).ln() > band,
        _ => false,
    }
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
pub(super) fn judge(comparison: &mut Comparison, cell: &Cell, base: &Cell, settings: &AnalysisSettings) -> bool {
    let band = (1.0 + super::compare::noise_band(cell, base, settings)).ln();
    apply(comparison, cell, base, band, settings.confidence)
}
