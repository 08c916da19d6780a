//! The change since an earlier run, as a results document records it
//! (`since`): each cell's change, in wall time and each other metric both
//! runs measured, and each group's as a whole. `diff::since` computes it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{Reason, Verdict};
use crate::base::metric::Metric;

/// The run a results document is compared with, and each cell's change since it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Since {
    /// The earlier run's id in the history store.
    pub run_id: i64,
    /// How it was chosen: "last run", "baseline NAME" or "run N".
    pub label: String,
    /// When the earlier run started (RFC 3339).
    pub started_at: String,
    /// Set when the earlier run was measured on another machine: its ratios mislead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// What the run-to-run noise the changes were judged against rests on;
    /// absent when no history knew it (only the two runs' own intervals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<String>,
    /// One per cell present in both runs, in this run's cell order.
    #[serde(deserialize_with = "changes_with_reasons")]
    pub changes: Vec<Change>,
    /// The same in each other metric both runs measured (`instructions`:
    /// medians are instructions per call).
    #[serde(
        default,
        skip_serializing_if = "IndexMap::is_empty",
        deserialize_with = "metric_changes_with_reasons"
    )]
    pub metrics: IndexMap<Metric, Vec<Change>>,
    /// Each group's change as a whole, where history has one (wall time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shifts: Vec<Shift>,
    /// The machine's own change, where both runs read versus's speed reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<MachineShift>,
}

impl Since {
    /// The changes in `metric` as the changes of a view in that metric.
    pub fn for_metric(&self, metric: Metric) -> Since {
        let changes = match metric {
            Metric::Wall => self.changes.clone(),
            other => self.metrics.get(&other).cloned().unwrap_or_default(),
        };
        Since {
            changes,
            metrics: IndexMap::new(),
            ..self.clone()
        }
    }
}

/// One cell's change since an earlier run (unpaired, as `versus diff` computes it).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Change {
    pub id: String,
    /// Median time per call before and now; null when that side is not ok.
    pub old_median_ns: Option<f64>,
    pub new_median_ns: Option<f64>,
    /// now / before, above 1 is slower, with its 95% interval; null when not comparable.
    pub ratio: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Option<Verdict>,
    /// The smallest change this comparison could have found (relative, 0.04 = 4%).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_detectable: Option<f64>,
    /// Why there is no ratio, or why its verdict is unknown ("within run-to-run noise ±3.1% …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why its verdict is unknown, as a type (`note` says it in words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// The cell's run-to-run noise the change was judged against, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<crate::results::RunNoise>,
    /// The change beside the other implementations of its group, where
    /// history has one (`history::judge::relative`); `verdict` is then its verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside: Option<Beside>,
    /// Where no learned reference judged it (`beside`): the change beyond
    /// what its group and the machine did between the two runs
    /// (`history::judge::references`); `verdict` is `unknown` when one of them explains it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<SharedShift>,
}

/// The changes as written, each given its `reason` where a document
/// written before reasons were typed has only the note: the one place a
/// note's words are read, for those documents alone.
fn changes_with_reasons<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Change>, D::Error> {
    let mut changes = Vec::<Change>::deserialize(d)?;
    give_reasons(&mut changes);
    Ok(changes)
}

/// `changes_with_reasons` for the changes in each other metric.
fn metric_changes_with_reasons<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<IndexMap<Metric, Vec<Change>>, D::Error> {
    let mut metrics = IndexMap::<Metric, Vec<Change>>::deserialize(d)?;
    metrics.values_mut().for_each(|changes| give_reasons(changes));
    Ok(metrics)
}

fn give_reasons(changes: &mut [Change]) {
    for c in changes {
        if c.reason.is_none() {
            c.reason = c.note.as_deref().and_then(reason_of_note);
        }
        if let Some(b) = c.beside.as_mut().filter(|b| b.reason.is_none()) {
            b.reason = b.note.as_deref().and_then(reason_of_note);
        }
    }
}

/// The reason an untyped note gives, by the words the judge wrote it in.
fn reason_of_note(note: &str) -> Option<Reason> {
    if let Some(rest) = note.strip_prefix("within run-to-run noise ±") {
        let pct: f64 = rest.split('%').next()?.parse().ok()?;
        return Some(Reason::WithinNoise { band: pct / 100.0 });
    }
    [
        ("too few runs", Reason::TooFewRuns),
        (MACHINE_MOVED, Reason::MachineMoved),
        (GROUP_MOVED, Reason::GroupMoved),
        ("the ratios to the two others do not agree", Reason::RatiosDisagree),
    ]
    .into_iter()
    .find_map(|(words, reason)| note.starts_with(words).then_some(reason))
}

/// How a change's `note` begins when a reference withheld it
/// (`history::judge::references::explain`), for readers of the note.
pub const MACHINE_MOVED: &str = "moved with the machine";
pub const GROUP_MOVED: &str = "moved with the other implementations";

/// What a change was held against: the group's or the machine's own change.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SharedBy {
    /// The other implementations of the cell's group (the median of them).
    Group,
    /// versus's speed reference (`environment.speed`).
    Machine,
}

/// A cell's change beyond a shift its group or the machine shared.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SharedShift {
    pub by: SharedBy,
    /// For `group`: the implementations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
    /// What the group or the machine did: now / before.
    pub shift: f64,
    /// The cell's change beyond it (now / before over `shift`), its
    /// interval and verdict.
    pub beyond: f64,
    pub beyond_low: Option<f64>,
    pub beyond_high: Option<f64>,
    pub verdict: Verdict,
}

/// The machine's own change between the two runs: versus's speed
/// reference (`environment.speed`) now against then.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MachineShift {
    /// now / before, above 1 is slower, with its interval and verdict.
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Verdict,
}

/// A cell's change between runs measured as its ratio to the other
/// implementations of its group (the median of them, or each of two).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Beside {
    /// The implementations the ratio is to.
    pub against: Vec<String>,
    /// now / before of that ratio, above 1 is slower, with its interval.
    pub ratio: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub verdict: Verdict,
    /// The smallest change of the ratio this comparison could have found (relative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_detectable: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why its verdict is unknown, as a type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// The run-to-run noise of the ratio it was judged against.
    pub noise: crate::results::RunNoise,
}

/// A group's change between runs as a whole: the median of its
/// implementations' medians, judged against that median's run-to-run noise.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Shift {
    /// The group (`operation/params`).
    pub group: String,
    pub implementations: Vec<String>,
    /// now / before, above 1 is slower, with its interval.
    pub ratio: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub verdict: Verdict,
    pub noise: crate::results::RunNoise,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `since` as a document written before reasons were typed holds it:
    /// notes only.
    fn written_with_notes(notes: &[&str]) -> String {
        let changes: Vec<String> = notes
            .iter()
            .map(|n| {
                format!(
                    r#"{{"id": "op/a", "old_median_ns": 1.0, "new_median_ns": 1.0, "ratio": 1.0, "ci_low": 0.9, "ci_high": 1.1, "verdict": "unknown", "note": "{n}"}}"#
                )
            })
            .collect();
        format!(
            r#"{{"run_id": 1, "label": "the last run", "started_at": "t", "changes": [{}], "metrics": {{"instructions": [{}]}}}}"#,
            changes.join(","),
            changes.join(",")
        )
    }

    #[test]
    fn an_older_document_gets_each_reason_its_note_gives_and_a_typed_one_keeps_its_own() {
        let notes = [
            "within run-to-run noise ±3.1% (8 runs of this cell)",
            "too few runs (n=3) for an interval: at least 6 are needed",
            "moved with the machine: versus's speed reference ran 35% slower than at that run",
            "moved with the other implementations of its group (b, c: 9% slower)",
            "the ratios to the two others do not agree",
            "old: skipped",
        ];
        let since: Since = serde_json::from_str(&written_with_notes(&notes)).unwrap();
        let want = [
            Some(Reason::WithinNoise { band: 0.031 }),
            Some(Reason::TooFewRuns),
            Some(Reason::MachineMoved),
            Some(Reason::GroupMoved),
            Some(Reason::RatiosDisagree),
            None,
        ];
        let got: Vec<Option<Reason>> = since.changes.iter().map(|c| c.reason).collect();
        assert_eq!(got, want);
        let in_counts: Vec<Option<Reason>> = since.metrics[&Metric::Instructions].iter().map(|c| c.reason).collect();
        assert_eq!(in_counts, want);
        // Written again, the reason is a field of its own, and read back as it is.
        let mut typed = since.changes[1].clone();
        typed.reason = Some(Reason::GroupMoved);
        let text = serde_json::to_string(&typed).unwrap();
        assert!(text.contains(r#""reason":{"kind":"group_moved"}"#), "{text}");
        let back: Since = serde_json::from_str(&format!(
            r#"{{"run_id": 1, "label": "l", "started_at": "t", "changes": [{text}]}}"#
        ))
        .unwrap();
        assert_eq!(back.changes[0].reason, Some(Reason::GroupMoved));
    }
}
