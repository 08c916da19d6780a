//! The revisions table: each implementation at a later revision against
//! itself at the first, cell by cell, as `analysis` judged it (paired, in
//! the same groups). One table per later revision; a cell that did not end
//! ok shows its outcome and why (a failed build names its log). Formatting
//! only; `pr_comment` sorts the same rows for a pull request.

use crate::base::units::format_nanos;
use crate::plan::cell_id;
use crate::report::tables::{Table, TableKind, not_ok};
use crate::results::{Cell, Comparison, Results, Revisions, Verdict, group_key};

/// One cell of a column at a later revision, beside the same
/// implementation's cell at the first revision.
pub(crate) struct Row<'a> {
    /// The cell's id without the revision: `op/impl/params`.
    pub id: String,
    pub base: Option<&'a Cell>,
    pub cell: &'a Cell,
    pub comparison: Option<&'a Comparison>,
}

/// The revisions after the first, by label.
pub(crate) fn later(revisions: &Revisions) -> Vec<&str> {
    revisions.revisions.iter().skip(1).map(|r| r.label.as_str()).collect()
}

/// The label of the revision the others are compared with.
pub(crate) fn first(revisions: &Revisions) -> &str {
    revisions.revisions.first().map_or("", |r| r.label.as_str())
}

/// The rows of revision `label`, in column and then cell order.
pub(crate) fn rows<'a>(results: &'a Results, label: &str) -> Vec<Row<'a>> {
    let Some(revs) = &results.revisions else { return vec![] };
    let first = first(revs);
    let mut out = Vec::new();
    for col in revs.columns.iter().filter(|c| c.revision == label) {
        let base_name = revs
            .columns
            .iter()
            .find(|b| b.of == col.of && b.revision == first)
            .map(|b| b.implementation.as_str());
        for cell in results.cells.iter().filter(|c| c.implementation == col.implementation) {
            let key = group_key(&cell.operation, &cell.params);
            let base = base_name.and_then(|b| {
                results
                    .cells
                    .iter()
                    .find(|c| c.implementation == b && group_key(&c.operation, &c.params) == key)
            });
            let comparison = revs.comparisons.iter().find(|c| {
                c.implementation == col.implementation && c.operation == cell.operation && c.params == cell.params
            });
            out.push(Row {
                id: cell_id(&cell.operation, &col.of, &cell.params),
                base,
                cell,
                comparison,
            });
        }
    }
    out
}

/// A change as a signed percentage: 1.051 → "+5.1%".
pub(crate) fn pct(ratio: f64) -> String {
    format!("{:+.1}%", (ratio - 1.0) * 100.0)
}

/// An interval's bound as a change: as `pct`, but a bound just past zero is
/// printed as such, never as "-0.0%" (the verdict beside it rests on which
/// side of zero it lies).
pub(crate) fn bound(ratio: f64) -> String {
    let p = (ratio - 1.0) * 100.0;
    let mut decimals = 1;
    while decimals < 4 && p != 0.0 && (p * 10f64.powi(decimals)).round() == 0.0 {
        decimals += 1;
    }
    format!("{p:+.*}%", decimals as usize)
}

/// "+5.1% [+3.9%, +6.3%]", or the ratio alone without an interval.
pub(crate) fn change_text(c: &Comparison) -> String {
    match (c.ci_low, c.ci_high) {
        (Some(lo), Some(hi)) => format!("{} [{}, {}]", pct(c.ratio), bound(lo), bound(hi)),
        _ => pct(c.ratio),
    }
}

/// The verdict in a word.
pub(crate) fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Slower => "slower",
        Verdict::Faster => "faster",
        Verdict::Same => "≈ same",
        Verdict::Unknown => "unknown",
        Verdict::Baseline => "baseline",
    }
}

/// The median time of a cell, or its outcome.
pub(crate) fn time_of(cell: Option<&Cell>) -> String {
    match cell {
        Some(c) => c
            .stats
            .as_ref()
            .map_or_else(|| not_ok(c), |s| format_nanos(s.median_ns)),
        None => "—".into(),
    }
}

/// The side of a row that did not end ok, with its revision's label.
fn not_ok_side<'a>(row: &Row<'a>, first: &'a str, label: &'a str) -> Option<(&'a Cell, &'a str)> {
    [(row.cell, label)]
        .into_iter()
        .chain(row.base.map(|b| (b, first)))
        .find(|(c, _)| c.stats.is_none())
}

/// Why a row has no comparison: the outcome and message of whichever side did not end ok.
pub(crate) fn why_not(row: &Row, first: &str, label: &str) -> String {
    match not_ok_side(row, first, label) {
        Some((c, at)) => format!(
            "{} at {at}{}",
            c.outcome.label(),
            c.message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
        ),
        None => "not compared".into(),
    }
}

/// `why_not` without the message (tables list the messages under "Not ok").
fn why_not_short(row: &Row, first: &str, label: &str) -> String {
    match not_ok_side(row, first, label) {
        Some((c, at)) => format!("{} at {at}", c.outcome.label()),
        None => "not compared".into(),
    }
}

/// One table per later revision; none without revisions.
pub fn tables(results: &Results) -> Vec<Table> {
    let Some(revs) = &results.revisions else { return vec![] };
    let first = first(revs);
    later(revs)
        .into_iter()
        .map(|label| {
            let rows = rows(results, label)
                .iter()
                .map(|r| {
                    let (change, verdict) = match r.comparison {
                        Some(c) => (change_text(c), verdict_word(c.verdict).to_string()),
                        None => ("—".into(), why_not_short(r, first, label)),
                    };
                    vec![r.id.clone(), time_of(r.base), time_of(Some(r.cell)), change, verdict]
                })
                .collect();
            Table {
                notes: vec![],
                kind: TableKind::Summary,
                title: format!(
                    "{label} against {first} (measured in the same groups, taking turns): median time per call, change with its 95% interval (paired)"
                ),
                labels: 1,
                runs: vec![],
                header: vec!["cell".into(), first.into(), label.into(), "change".into(), "verdict".into()],
                rows,
            }
        })
        .collect()
}
