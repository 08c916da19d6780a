//! A team's site as data: every suite on every machine with its runs, each
//! cell's history and changes, what the newest run changed since the run
//! before, and the one list of changes the index and `versus site
//! --regressions` both show. Built by `app::site` from the history store's
//! per-cell summaries; `history::site` only formats it.
//!
//! A machine is never mixed with another: each (suite, machine) pair is its
//! own history, as `versus trend` keeps it. Changes come from the same two
//! places every other view asks: the judge's verdicts of the newest run
//! against the one before (`history::runs::diff::since`, as `versus run`
//! records them), and each cell's change points (`history::runs::trend`, each
//! step confirmed by `history::judge::change`).

use serde::Serialize;

use crate::history::StoredBisect;
pub(crate) use crate::history::TrendRun;
use crate::results::{RunNoise, Since, Verdict};
use crate::stats::changepoint::Change;

/// Runs of a suite on a machine whose reports the site renders, newest first.
pub(crate) const REPORTS_KEPT: usize = 20;

/// One cell's summary in one run where it finished ok.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellPoint {
    /// The run: an index into `SuiteHistory::runs`.
    pub run: usize,
    pub median_ns: f64,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
}

/// One cell of a suite on one machine over its runs.
#[derive(Debug, Clone, PartialEq)]
pub struct CellHistory {
    pub id: String,
    pub operation: String,
    pub implementation: String,
    /// The cell's parameters as its id spells them (`size=1KB`), or empty.
    pub params: String,
    /// Its ok runs, oldest first.
    pub points: Vec<CellPoint>,
    /// Each change point, `Change::index` counting `points`.
    pub changes: Vec<Change>,
    /// The run-to-run noise the judge learned for it, when it knows one.
    pub noise: Option<RunNoise>,
}

impl CellHistory {
    /// The run id each change starts at.
    pub fn change_run(&self, runs: &[TrendRun], change: &Change) -> i64 {
        runs[self.points[change.index].run].id
    }
}

/// What the newest run changed since the run before, counted by verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct SinceCounts {
    /// The earlier run the newest was compared with.
    pub against_run: i64,
    pub faster: usize,
    pub slower: usize,
    pub same: usize,
    pub unknown: usize,
}

/// A suite's history on one machine.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteHistory {
    pub suite: String,
    pub machine: String,
    pub hostname: Option<String>,
    pub cpu_model: String,
    /// Oldest first.
    pub runs: Vec<TrendRun>,
    /// The suite's baseline implementation in its newest run, if it names one.
    pub baseline: Option<String>,
    /// The newest run's command line, passwords hidden (`base::redact`).
    pub command: String,
    pub cells: Vec<CellHistory>,
    pub since: Option<SinceCounts>,
    /// Runs whose reports the site renders, newest first.
    pub reports: Vec<i64>,
}

impl SuiteHistory {
    pub fn newest(&self) -> Option<&TrendRun> {
        self.runs.last()
    }

    /// The operations, in the order their first cell appears.
    pub fn operations(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &self.cells {
            if !out.contains(&c.operation.as_str()) {
                out.push(&c.operation);
            }
        }
        out
    }
}

/// Where a change in the list comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// The newest run against the run before, as the judge called it.
    Newest,
    /// A step in the cell's history (a change point the judge confirms).
    Step,
    /// What a `versus bisect` of the cell concluded.
    Bisect,
}

/// One change of one cell, with the run and commit that brought it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangeEntry {
    pub kind: ChangeKind,
    pub suite: String,
    pub machine: String,
    pub cell: String,
    pub run_id: i64,
    pub started_at: String,
    pub commit: Option<String>,
    /// After / before: above 1 is slower.
    pub ratio: f64,
    pub slower: bool,
    /// A bisection's conclusion in words (its first bad commit is `commit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<String>,
}

/// Counts the verdicts of a "change since" (`history::runs::diff::since`).
pub(crate) fn counts(since: &Since) -> SinceCounts {
    let mut c = SinceCounts {
        against_run: since.run_id,
        ..Default::default()
    };
    for ch in &since.changes {
        match ch.verdict {
            Some(Verdict::Faster) => c.faster += 1,
            Some(Verdict::Slower) => c.slower += 1,
            Some(Verdict::Same | Verdict::Baseline) => c.same += 1,
            Some(Verdict::Unknown) | None => c.unknown += 1,
        }
    }
    c
}

/// A cell id's operation and parameters, given its implementation:
/// `OPERATION/IMPLEMENTATION[/PARAMS]`. Names may hold `/` themselves, so
/// the implementation, known from the store, is what splits it.
pub(crate) fn split_cell_id(id: &str, implementation: &str) -> (String, String) {
    let mark = format!("/{implementation}");
    let found = id
        .match_indices(&mark)
        .map(|(at, _)| at)
        .find(|&at| matches!(id[at + mark.len()..].chars().next(), None | Some('/')));
    match found {
        Some(at) => {
            let rest = &id[at + mark.len()..];
            (id[..at].to_string(), rest.strip_prefix('/').unwrap_or(rest).to_string())
        }
        None => (id.to_string(), String::new()),
    }
}

/// The newest run's changes, for the list: each cell the judge called
/// faster or slower.
pub(crate) fn newest_entries(h: &SuiteHistory, since: &Since) -> Vec<ChangeEntry> {
    let Some(run) = h.newest() else { return Vec::new() };
    since
        .changes
        .iter()
        .filter(|c| matches!(c.verdict, Some(Verdict::Faster | Verdict::Slower)))
        .map(|c| ChangeEntry {
            kind: ChangeKind::Newest,
            suite: h.suite.clone(),
            machine: h.machine.clone(),
            cell: c.id.clone(),
            run_id: run.id,
            started_at: run.started_at.clone(),
            commit: run.git_commit.clone(),
            ratio: c.ratio.unwrap_or(1.0),
            slower: c.verdict == Some(Verdict::Slower),
            conclusion: None,
        })
        .collect()
}

/// Every change point of every cell of `h`, for the list.
pub(crate) fn step_entries(h: &SuiteHistory) -> Vec<ChangeEntry> {
    let mut out = Vec::new();
    for c in &h.cells {
        for ch in &c.changes {
            let run = &h.runs[c.points[ch.index].run];
            out.push(ChangeEntry {
                kind: ChangeKind::Step,
                suite: h.suite.clone(),
                machine: h.machine.clone(),
                cell: c.id.clone(),
                run_id: run.id,
                started_at: run.started_at.clone(),
                commit: run.git_commit.clone(),
                ratio: ch.ratio(),
                slower: ch.ratio() > 1.0,
                conclusion: None,
            });
        }
    }
    out
}

/// Each bisection recorded in the store, for the list: filed under its
/// last run, its commit the first bad one (none when it found none).
pub(crate) fn bisect_entries(bisects: &[StoredBisect]) -> Vec<ChangeEntry> {
    bisects
        .iter()
        .map(|b| ChangeEntry {
            kind: ChangeKind::Bisect,
            suite: b.suite_name.clone(),
            machine: b.machine_id.clone(),
            cell: b.bisect.cell.clone(),
            run_id: b.bisect.run_id,
            started_at: b.bisect.finished_at.clone(),
            commit: b.bisect.first_bad.clone(),
            ratio: b.bisect.ratio.unwrap_or(1.0),
            slower: b.bisect.first_bad.is_some() && b.bisect.ratio.is_some_and(|r| r > 1.0),
            conclusion: Some(b.bisect.conclusion.clone()),
        })
        .collect()
}

/// The list, newest run first; within a run, slower first, then by suite and cell.
pub(crate) fn sort_entries(entries: &mut [ChangeEntry]) {
    entries.sort_by(|a, b| {
        b.run_id
            .cmp(&a.run_id)
            .then(b.slower.cmp(&a.slower))
            .then(a.kind.cmp_key().cmp(&b.kind.cmp_key()))
            .then(a.suite.cmp(&b.suite))
            .then(a.machine.cmp(&b.machine))
            .then(a.cell.cmp(&b.cell))
    });
}

impl ChangeKind {
    fn cmp_key(self) -> u8 {
        match self {
            ChangeKind::Newest => 0,
            ChangeKind::Step => 1,
            ChangeKind::Bisect => 2,
        }
    }
}

/// Whether the list holds a slowdown of some suite's newest run: what
/// `versus site --regressions` exits 4 on.
pub(crate) fn has_newest_slowdown(entries: &[ChangeEntry]) -> bool {
    entries.iter().any(|e| e.kind == ChangeKind::Newest && e.slower)
}

/// Each implementation's ratio to `baseline` per run in `operation`: the
/// geometric mean over the operation's parameters measured by both in that
/// run, as (run index, ratio), oldest first. The baseline itself is left out.
pub(crate) fn ratios(h: &SuiteHistory, operation: &str, baseline: &str) -> Vec<(String, Vec<(usize, f64)>)> {
    use std::collections::BTreeMap;
    let cells: Vec<&CellHistory> = h.cells.iter().filter(|c| c.operation == operation).collect();
    let mut base: BTreeMap<(&str, usize), f64> = BTreeMap::new();
    for c in cells.iter().filter(|c| c.implementation == baseline) {
        for p in &c.points {
            base.insert((c.params.as_str(), p.run), p.median_ns);
        }
    }
    // Per implementation: per run, the sum of log ratios and how many there are.
    type LogSums = BTreeMap<usize, (f64, usize)>;
    let mut by_impl: Vec<(String, LogSums)> = Vec::new();
    for c in cells.iter().filter(|c| c.implementation != baseline) {
        let at = match by_impl.iter().position(|(i, _)| *i == c.implementation) {
            Some(at) => at,
            None => {
                by_impl.push((c.implementation.clone(), BTreeMap::new()));
                by_impl.len() - 1
            }
        };
        for p in &c.points {
            if let Some(b) = base.get(&(c.params.as_str(), p.run)).filter(|b| **b > 0.0) {
                let e = by_impl[at].1.entry(p.run).or_insert((0.0, 0));
                e.0 += (p.median_ns.max(f64::MIN_POSITIVE) / b).ln();
                e.1 += 1;
            }
        }
    }
    by_impl
        .into_iter()
        .map(|(i, runs)| {
            (
                i,
                runs.into_iter().map(|(r, (s, n))| (r, (s / n as f64).exp())).collect(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_ids_split_at_the_known_implementation() {
        let s = |id, i| split_cell_id(id, i);
        assert_eq!(s("copy/cat/size=1KB", "cat"), ("copy".into(), "size=1KB".into()));
        assert_eq!(s("copy/cat", "cat"), ("copy".into(), String::new()));
        assert_eq!(
            s("copy/<script>alert(1)</script>/size=1KB", "<script>alert(1)</script>"),
            ("copy".into(), "size=1KB".into())
        );
        assert_eq!(s("a/catx/cat/v=1", "cat"), ("a/catx".into(), "v=1".into()));
    }

    fn cell(implementation: &str, medians: &[(usize, f64)]) -> CellHistory {
        CellHistory {
            id: format!("op/{implementation}/n=1"),
            operation: "op".into(),
            implementation: implementation.into(),
            params: "n=1".into(),
            points: medians
                .iter()
                .map(|&(run, median_ns)| CellPoint {
                    run,
                    median_ns,
                    ci_low_ns: None,
                    ci_high_ns: None,
                })
                .collect(),
            changes: vec![],
            noise: None,
        }
    }

    #[test]
    fn ratios_pair_each_run_with_the_baselines_own() {
        let h = SuiteHistory {
            suite: "s".into(),
            machine: "m".into(),
            hostname: None,
            cpu_model: String::new(),
            runs: vec![],
            baseline: Some("a".into()),
            command: String::new(),
            cells: vec![
                cell("a", &[(0, 100.0), (1, 200.0)]),
                cell("b", &[(0, 150.0), (1, 200.0), (2, 9.0)]),
            ],
            since: None,
            reports: vec![],
        };
        let r = ratios(&h, "op", "a");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0, "b");
        let got: Vec<(usize, f64)> = r[0]
            .1
            .iter()
            .map(|&(i, x)| (i, (x * 1000.0).round() / 1000.0))
            .collect();
        assert_eq!(got, [(0, 1.5), (1, 1.0)], "run 2 has no baseline");
    }
}
