//! What a report says before its detail: one line on what was measured,
//! the headline (`analysis::headline`), the changed cells since the last
//! run with a count of the rest, the cells that did not finish as one line
//! per implementation and operation, and each warning in one line. Every
//! format lays these out first and leaves the rest to its appendix.
//! Formatting only.

use indexmap::IndexMap;

use crate::base::outcome::Outcome;
use crate::report::tables::{Table, TableKind};
use crate::results::{Results, RunStatus, Verdict, Warning};

/// "9 implementations × 5 operations × 8 sizes (360 cells), 3 runs each
/// in-process, against go-sdk; a complete run started 2026-11-27T08:55Z."
pub(crate) fn measured_line(results: &Results) -> String {
    let ran = results.implementations_that_ran();
    let mut dims = vec![
        count(ran.len(), "implementation"),
        count(results.operations.len(), "operation"),
    ];
    for (name, values) in &results.matrix {
        if values.len() > 1 {
            dims.push(count(values.len(), name));
        }
    }
    let runs: Vec<usize> = results
        .cells
        .iter()
        .filter_map(|c| c.stats.as_ref().map(|s| s.n))
        .collect();
    let runs = match (runs.iter().min(), runs.iter().max()) {
        (Some(lo), Some(hi)) if lo == hi => format!("{lo} measured runs each"),
        (Some(lo), Some(hi)) => format!("{lo}–{hi} measured runs each"),
        _ => "no measured runs".into(),
    };
    let how = if results.cells.iter().any(|c| !c.samples.iterations.is_empty()) {
        " (in-process, per call)"
    } else {
        ""
    };
    let against = match &results.suite.baseline {
        Some(b) => format!("against {b}"),
        None => "against the fastest of each group".into(),
    };
    let status = match results.status {
        RunStatus::Complete => "a complete",
        RunStatus::Interrupted => "an interrupted",
        RunStatus::Running => "an unfinished",
    };
    format!(
        "{} ({} cells), {runs}{how}, {against}; {status} run started {}.",
        dims.join(" × "),
        results.cells.len(),
        results.started_at
    )
}

/// "3 operations", "1 size".
fn count(n: usize, noun: &str) -> String {
    let plural = match noun {
        "size" | "implementation" | "operation" => format!("{noun}s"),
        _ => format!("values of {noun}"),
    };
    if n == 1 && plural.starts_with("values") {
        format!("1 value of {noun}")
    } else if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {plural}")
    }
}

/// One headline line as reports lay it out.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct HeadlineLine {
    /// The suite's question, when it asked one.
    pub question: Option<String>,
    /// "encrypt at size=100MiB": what the figures are of.
    pub place: String,
    /// The figures: the reference's median, then each implementation against it.
    pub figures: String,
}

impl HeadlineLine {
    /// The line as one sentence, for plain text.
    pub(crate) fn text(&self) -> String {
        let q = self.question.as_ref().map_or(String::new(), |q| format!("{q} "));
        format!("{q}{}: {}", self.place, self.figures)
    }
}

/// The headline as lines.
pub(crate) fn headline_lines(results: &Results) -> Vec<HeadlineLine> {
    results
        .headline
        .iter()
        .map(|h| {
            let place = crate::results::place(&h.operation, &h.params);
            let figures = h
                .text
                .strip_prefix(&format!("{place}: "))
                .unwrap_or(&h.text)
                .to_string();
            HeadlineLine {
                question: h.question.clone(),
                place,
                figures,
            }
        })
        .collect()
}

/// Where the headline comes from, said under it.
pub(crate) fn headline_source(results: &Results) -> Option<String> {
    let first = results.headline.first()?;
    Some(if first.declared {
        "The comparisons the suite states ([[report.headline]]).".into()
    } else {
        "Picked by versus, as the suite states none: each operation's largest size, then its smallest and where the fastest changes.".into()
    })
}

/// The most changed cells the lead lists; the appendix has every cell.
pub(crate) const CHANGED_IN_LEAD: usize = 10;

/// Change since the last run in brief: a sentence with the counts, and a
/// table of the cells that changed (none when nothing did).
pub(crate) fn since_brief(results: &Results) -> Option<(String, Option<Table>)> {
    let full = crate::report::sections::since::table(results)?;
    let since = results.since.as_ref()?;
    let changed: Vec<usize> = since
        .changes
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.verdict, Some(Verdict::Faster | Verdict::Slower)))
        .map(|(i, _)| i)
        .collect();
    let slower = changed
        .iter()
        .filter(|i| since.changes[**i].verdict == Some(Verdict::Slower))
        .count();
    let sentence = format!(
        "Since {} (run {}, {}): {} of {} cells changed ({slower} slower, {} faster); the other {} read the same or unknown (every cell is in the appendix).",
        since.label,
        since.run_id,
        since.started_at,
        changed.len(),
        since.changes.len(),
        changed.len() - slower,
        since.changes.len() - changed.len()
    );
    let sentence = match crate::report::sections::since::shared_note(since) {
        Some(machine) => format!("{sentence} {machine}"),
        None => sentence,
    };
    let size = |i: &usize| since.changes[*i].ratio.map_or(0.0, |r| r.ln().abs());
    let mut largest = changed.clone();
    largest.sort_by(|a, b| size(b).total_cmp(&size(a)));
    largest.truncate(CHANGED_IN_LEAD);
    largest.sort_unstable();
    let title = if largest.len() < changed.len() {
        format!("The {} largest changes", largest.len())
    } else {
        "Cells that changed".into()
    };
    let table = (!changed.is_empty()).then(|| Table {
        rows: largest.iter().filter_map(|i| full.rows.get(*i).cloned()).collect(),
        notes: vec![],
        title,
        kind: TableKind::Summary,
        ..full
    });
    Some((sentence, table))
}

/// The cells that did not end ok, one line per implementation, outcome and
/// reason, naming the operations: failures first, then the cells the suite skips.
pub(crate) fn outcome_lines(results: &Results) -> (Vec<String>, Vec<String>) {
    type Key = (String, Outcome, Option<String>);
    let mut groups: IndexMap<Key, IndexMap<String, Vec<String>>> = IndexMap::new();
    for c in results.cells.iter().filter(|c| c.outcome != Outcome::Ok) {
        let key = (
            c.implementation.clone(),
            c.outcome,
            c.message.as_deref().map(first_sentence),
        );
        let ops = groups.entry(key).or_default();
        ops.entry(c.operation.clone())
            .or_default()
            .push(crate::base::params::params_key(&c.params));
    }
    let (mut failed, mut skipped) = (Vec::new(), Vec::new());
    for ((imp, outcome, why), ops) in groups {
        let places: Vec<String> = ops
            .into_iter()
            .map(|(op, at)| {
                let at: Vec<String> = at.into_iter().filter(|p| !p.is_empty()).collect();
                let every = results
                    .cells
                    .iter()
                    .filter(|c| c.operation == op && c.implementation == imp)
                    .count();
                match at.len() {
                    0 => op,
                    n if n == every && n > 2 => format!("{op} (every cell)"),
                    1..=2 => format!("{op} at {}", at.join("; ")),
                    n => format!("{op} ({n} cells)"),
                }
            })
            .collect();
        let why = why.map_or(String::new(), |w| format!(": {w}"));
        let line = format!("{imp}, {} — {}{why}", places.join(", "), outcome.label());
        if outcome == Outcome::Skipped {
            skipped.push(line);
        } else {
            failed.push(line);
        }
    }
    (failed, skipped)
}

/// A warning in one line: its kind and its first sentence.
pub(crate) fn warning_line(w: &Warning) -> String {
    format!("{}: {}", w.kind, first_sentence(&w.message))
}

/// The text up to its first full stop followed by a space (at most 300 characters).
fn first_sentence(text: &str) -> String {
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    let s = &text[..end];
    if s.chars().count() > 300 {
        format!("{}…", s.chars().take(300).collect::<String>())
    } else {
        s.to_string()
    }
}
