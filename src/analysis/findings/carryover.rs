//! Carry-over findings: each cell whose time depends on the implementation
//! run just before it (`judge::carryover`, stored in `stats.carry_over`),
//! naming who slows whom and by how much, with the cell's figures run alone
//! and in turns; and the warning that names those the full test found
//! (`carryover_screen` warns of those its screen found). What becomes of
//! each comparison of such a cell is the judge's (`judge::withhold`).

use crate::base::text;
use crate::judge::{detected, screened, sentence, who};
use crate::results::{CarryOver, Cell, Finding, FindingKind, Results, Warning};

/// The warning's kind in `results.warnings`.
pub(crate) const KIND: &str = "carry_over";

/// One finding per cell with a detected carry-over, in document order.
pub(crate) fn findings(results: &Results) -> Vec<Finding> {
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

/// How many of the run's comparisons (in time) of one of `cells` the judge
/// gave `reason`.
fn count(results: &Results, cells: &[&Cell], reason: crate::results::Reason) -> usize {
    let involves = |c: &crate::results::Comparison, cell: &Cell| {
        c.operation == cell.operation
            && c.params == cell.params
            && (c.implementation == cell.implementation || c.baseline == cell.implementation)
    };
    results
        .comparisons
        .iter()
        .filter(|c| cells.iter().any(|cell| involves(c, cell)))
        .filter(|c| c.reason == Some(reason))
        .count()
}

/// The warning naming every cell the test found a carry-over in, if any.
pub(crate) fn warning(results: &Results) -> Option<Warning> {
    let cells: Vec<&Cell> = results
        .cells
        .iter()
        .filter(|c| detected(c).is_some_and(|co| screened(co).is_none()))
        .collect();
    let named: Vec<String> = cells
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
            count(results, &cells, crate::results::Reason::CarryOverKept),
            count(results, &cells, crate::results::Reason::CarryOver),
            named.join(", ")
        ),
    })
}

/// What the method sentence says of the carry-over test when some cells
/// with a recorded order could not be tested: too few runs after each
/// predecessor (`judge::carryover::MIN_RUNS` on each side), and what the
/// screen made of them (`judge::carryover_screen`). `None` when every such
/// cell was tested, or none has an order.
pub(crate) fn coverage(results: &Results) -> Option<String> {
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
    let most = most_taking_turns(results);
    // The group's tests share the confidence, so more implementations need
    // more runs after each for any test to have an interval.
    let min = crate::judge::runs_needed(most, results.analysis.confidence);
    let hint = match results.order() {
        crate::base::order::Order::Balanced => format!(" (--runs {} here)", min * most),
        _ => String::new(),
    };
    Some(format!(
        "Carry-over (a run slowed or sped up by the one before it) was tested in {tested} of {} cells: with {most} implementations taking turns the test takes at least {min} runs after each predecessor{hint}.{}",
        ordered.len(),
        screen_coverage(&ordered, results.analysis.confidence)
    ))
}

/// The most implementations taking turns in a group, whether or not each
/// got to run before each other in so few runs: those that ran in it, not
/// every one the suite names (one that skips an operation takes no turns
/// there).
fn most_taking_turns(results: &Results) -> usize {
    let mut per_group: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for c in results.cells.iter().filter(|c| c.samples.order.is_some()) {
        *per_group
            .entry(crate::results::group_key(&c.operation, &c.params))
            .or_default() += 1;
    }
    per_group.into_values().max().unwrap_or(1).max(1)
}

/// " Below that, a screen: …" for the cells screened instead of tested;
/// empty when none was (no runs after itself: `--order interleaved`).
fn screen_coverage(ordered: &[&CarryOver], confidence: f64) -> String {
    let screens: Vec<_> = ordered.iter().filter_map(|c| c.screen.as_ref()).collect();
    if screens.is_empty() {
        return String::new();
    }
    let fired = screens.iter().filter(|s| s.fired).count();
    let able = screens
        .iter()
        .filter(|s| crate::judge::fires(s.chance, s.looks, 1.0 - confidence))
        .count();
    let outcome = if able == 0 {
        "here it could not fire: too few runs after each implementation itself to rule out chance".to_string()
    } else {
        format!("{fired} of them did")
    };
    format!(
        " Below that, {} cell(s) were screened instead: a cell whose every run after another implementation is slower than all its runs after itself, in wall or system time, more surely than chance allows, has its verdicts withheld; {outcome}.",
        screens.len()
    )
}
