//! The "Findings" section every report opens with: the document's
//! findings grouped by operation and the values of its other parameters
//! ("encrypt — armor=true"), one line each. Where many implementations
//! share a kind of finding that reads the same way (a time that is not
//! linear in size, memory growth), they share one line, so a suite with ten
//! implementations still opens with a page, not a chapter. Formatting only:
//! the sentences and figures are the ones `findings` wrote into the document.

use serde::Serialize;

use crate::base::params::params_key;
use crate::base::text;
use crate::results::{Finding, FindingKind, FitProblem, Results};

/// From this many findings of one mergeable kind in a group, they share a line.
const MERGE_FROM: usize = 3;

/// One finding (or several merged) as a report line.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Line {
    /// The finding's kind as the results file writes it (`cost`, `crossover`…).
    pub kind: String,
    pub text: String,
}

/// The findings of one operation at one value of its other parameters.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Group {
    /// "encrypt", or "encrypt — armor=true" (as the tables title a subset).
    pub title: String,
    pub lines: Vec<Line>,
}

fn kind_name(kind: FindingKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// Whether a finding belongs in a report's lead: who wins and where that
/// changes, and what makes a figure unsafe to read (unstable runs, time
/// not linear in size beyond a fit's residual, drift, carry-over, failures).
/// Fitted costs, a line's residual misfit, memory growth and warm-up are
/// detail, for the appendix; so is a carry-over only the screen found
/// (too few runs for the test) that left no verdict of its cells unknown.
pub(crate) fn leads(results: &Results) -> impl Fn(&Finding) -> bool + '_ {
    move |f| {
        let residual = f.kind == FindingKind::NotLinear
            && f.cost.as_ref().is_some_and(|c| c.problem == Some(FitProblem::Residual));
        let quiet_screen = f.kind == FindingKind::CarryOver && screened_only(results, f) && !withheld_any(results, f);
        !residual && !quiet_screen && !matches!(f.kind, FindingKind::Cost | FindingKind::Memory | FindingKind::FirstRun)
    }
}

/// The cells of `f` in `results`.
fn cells_of<'a>(results: &'a Results, f: &'a Finding) -> impl Iterator<Item = &'a crate::results::Cell> {
    results.cells.iter().filter(|c| f.cells.contains(&c.id))
}

/// Whether every carry-over of `f`'s cells was found by the screen alone.
fn screened_only(results: &Results, f: &Finding) -> bool {
    cells_of(results, f).all(|c| c.carry_over_found().is_none_or(|co| co.screened().is_some()))
}

/// Whether a comparison of one of `f`'s cells was withheld for a carry-over.
fn withheld_any(results: &Results, f: &Finding) -> bool {
    cells_of(results, f).any(|cell| {
        results.comparisons.iter().any(|c| {
            c.operation == cell.operation
                && c.params == cell.params
                && (c.implementation == cell.implementation || c.baseline == cell.implementation)
                && c.reason == Some(crate::results::Reason::CarryOver)
        })
    })
}

/// The findings in groups, in the document's order; empty when there are none.
pub(crate) fn groups(results: &Results) -> Vec<Group> {
    groups_of(results, &|_| true)
}

/// The findings `keep` accepts, in groups.
pub(crate) fn groups_of(results: &Results, keep: &dyn Fn(&Finding) -> bool) -> Vec<Group> {
    let mut grouped: Vec<(String, Vec<&Finding>)> = Vec::new();
    for f in results.findings.iter().filter(|f| keep(f)) {
        let label = params_key(&f.params).replace(',', ", ");
        let title = if label.is_empty() {
            f.operation.clone()
        } else {
            format!("{} — {label}", f.operation)
        };
        match grouped.last_mut() {
            Some((t, list)) if *t == title => list.push(f),
            _ => grouped.push((title, vec![f])),
        }
    }
    grouped
        .into_iter()
        .map(|(title, list)| Group {
            title,
            lines: lines(&list),
        })
        .collect()
}

/// A group's lines: each finding's own sentence, except that residual
/// misfits and memory findings share a line when there are enough of them.
fn lines(list: &[&Finding]) -> Vec<Line> {
    let misfit = |f: &Finding| {
        f.kind == FindingKind::NotLinear && f.cost.as_ref().is_some_and(|c| c.problem == Some(FitProblem::Residual))
    };
    let memory = |f: &Finding| f.kind == FindingKind::Memory && f.memory.is_some();
    let misfits: Vec<&Finding> = list.iter().copied().filter(|f| misfit(f)).collect();
    let memories: Vec<&Finding> = list.iter().copied().filter(|f| memory(f)).collect();
    let (merge_misfits, merge_memory) = (misfits.len() >= MERGE_FROM, memories.len() >= MERGE_FROM);
    let mut out = Vec::new();
    for f in list {
        if merge_misfits && misfit(f) {
            if std::ptr::eq(*f, misfits[0]) {
                out.push(misfit_line(&misfits));
            }
        } else if merge_memory && memory(f) {
            if std::ptr::eq(*f, memories[0]) {
                out.push(memory_line(&memories));
            }
        } else {
            out.push(Line {
                kind: kind_name(f.kind),
                text: f.text.clone(),
            });
        }
    }
    out
}

fn name(f: &Finding) -> &str {
    f.implementation.as_deref().unwrap_or("?")
}

/// "not linear in size (...): a (34% at 1 MiB), b (28% at 64 KiB)".
fn misfit_line(list: &[&Finding]) -> Line {
    let items: Vec<String> = list
        .iter()
        .filter_map(|f| {
            let c = f.cost.as_ref()?;
            Some(format!(
                "{} ({} at {})",
                name(f),
                text::percent(c.max_residual),
                text::payload(c.max_residual_at_bytes)
            ))
        })
        .collect();
    Line {
        kind: kind_name(FindingKind::NotLinear),
        text: format!(
            "not linear in size (the best fixed + per-byte line misses a median by the share given, at that size): {}",
            items.join(", ")
        ),
    }
}

/// "peak memory: a grows about 8.40 bytes per payload byte, from …; b about
/// constant, 4.59–4.88 MB from 1 KB to 100 MB": each finding's own sentence
/// after its "NAME: peak memory ", so the figures stay the finding's.
fn memory_line(list: &[&Finding]) -> Line {
    let items: Vec<String> = list
        .iter()
        .map(|f| match f.text.split_once("peak memory ") {
            Some((_, rest)) => format!("{} {rest}", name(f)),
            None => f.text.clone(),
        })
        .collect();
    Line {
        kind: kind_name(FindingKind::Memory),
        text: format!("peak memory: {}", items.join("; ")),
    }
}
