//! A cell's change between runs judged beside the implementations measured
//! with it.
//!
//! On a shared machine most of what moves a cell's median from one run to the
//! next moves every cell measured in the same stretch of time: a host that is
//! busier this hour, a CPU that runs slower for a minute. Measured on this
//! project's 2-core VM (`bench/aa-runs.sh`), whole groups stepped by 2–4%
//! together between runs while the ratios between their implementations
//! moved by a tenth of that, and those steps were most of the unchanged cells
//! called changed. The implementations of a group take turns within one
//! stretch of time, so each is the others' companion, as in duet
//! benchmarking: the ratio of a cell to the others carries little of what
//! they shared.
//!
//! So where a group has at least three implementations with history, a
//! cell's change is also judged on its ratio to the others: to the median of
//! them from three others on (one of them changing barely moves a median of
//! three), to each of the two otherwise (both must agree, or it is not
//! called: with two, one that changed moves a mean of two by half). That
//! ratio's level and its run-to-run noise are learned from the same history
//! as the cell's own. With only one other implementation a changed ratio
//! cannot say which of the two moved, and the cell is judged on its own.
//!
//! What the group did as a whole — the median of its implementations —
//! is judged beside, against its own run-to-run noise, and reported as a
//! shift: more often the machine than a change every implementation shares,
//! but the report says it either way.

use std::collections::{BTreeMap, HashMap};

use super::change;
use super::noise::{Level, Recorded, level_of_logs, of_logs};
use crate::judge::{self, LogEstimate};
use crate::judge::{paired_log_ratios, unpaired};
use crate::results::RunNoise;
use crate::results::{AnalysisSettings, Cell, Comparison, Results, Verdict};

/// Other implementations a group needs for a cell to be judged beside them.
pub(crate) const MIN_OTHERS: usize = 2;

/// One reference a cell is measured against in its group.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The cells (ids) whose median it is: all the others of the group, or one.
    pub against: Vec<String>,
    /// The run-to-run noise of the cell's log ratio to it.
    pub noise: RunNoise,
    /// Where that log ratio stood over its last runs.
    pub level: Level,
}

/// A group's implementations taken together: the median of their log medians.
#[derive(Debug, Clone, PartialEq)]
pub struct Together {
    pub cells: Vec<String>,
    pub noise: RunNoise,
    pub level: Level,
}

/// What history says of each cell beside the others of its group.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupHistory {
    references: HashMap<String, Vec<Reference>>,
    groups: BTreeMap<String, Together>,
}

impl GroupHistory {
    /// From the recorded medians and each cell's group in the run being
    /// judged (cell id → group key).
    pub fn learn(recorded: &Recorded, groups: &HashMap<String, String>) -> GroupHistory {
        let runs: HashMap<&str, HashMap<i64, f64>> = recorded
            .iter()
            .map(|(id, rs)| {
                let logs = rs.iter().filter(|(_, m)| *m > 0.0).map(|(r, m)| (*r, m.ln()));
                (id.as_str(), logs.collect())
            })
            .collect();
        let mut beside = GroupHistory::default();
        for (key, cells) in members(groups) {
            let known: Vec<&String> = cells.iter().filter(|c| runs.contains_key(c.as_str())).collect();
            if known.len() < MIN_OTHERS + 1 {
                continue;
            }
            for cell in &known {
                let others: Vec<String> = known.iter().filter(|o| *o != cell).map(|o| o.to_string()).collect();
                let refs: Vec<Reference> = reference_sets(&others)
                    .into_iter()
                    .filter_map(|against| {
                        let series = ratio_series(&runs[cell.as_str()], &against, &runs);
                        Some(Reference {
                            noise: of_logs(&series)?,
                            level: level_of_logs(&series)?,
                            against,
                        })
                    })
                    .collect();
                if !refs.is_empty() {
                    beside.references.insert(cell.to_string(), refs);
                }
            }
            let all: Vec<String> = known.iter().map(|c| c.to_string()).collect();
            let series = median_series(&all, &runs);
            if let (Some(noise), Some(level)) = (of_logs(&series), level_of_logs(&series)) {
                beside.groups.insert(
                    key,
                    Together {
                        cells: all,
                        noise,
                        level,
                    },
                );
            }
        }
        beside
    }

    /// The references a cell is judged against; empty when its group is too
    /// small or history too short.
    pub fn references(&self, id: &str) -> &[Reference] {
        self.references.get(id).map_or(&[], Vec::as_slice)
    }

    /// Each group with enough history, by group key.
    pub fn groups(&self) -> impl Iterator<Item = (&String, &Together)> {
        self.groups.iter()
    }
}

/// What a cell is measured against, given the others of its group: the
/// median of all of them from three on, each of two on its own.
fn reference_sets(others: &[String]) -> Vec<Vec<String>> {
    match others.len() {
        n if n > MIN_OTHERS => vec![others.to_vec()],
        MIN_OTHERS => others.iter().map(|o| vec![o.clone()]).collect(),
        _ => vec![],
    }
}

/// The cells of each group, by group key, in a stable order.
fn members(groups: &HashMap<String, String>) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (cell, key) in groups {
        out.entry(key.clone()).or_default().push(cell.clone());
    }
    for cells in out.values_mut() {
        cells.sort();
    }
    out
}

/// The median of `xs` (not empty).
fn median(xs: &[f64]) -> f64 {
    crate::stats::median(xs)
}

/// A cell's log ratio to the median of `against`, over the runs where all of
/// them were measured, oldest first.
fn ratio_series(cell: &HashMap<i64, f64>, against: &[String], runs: &HashMap<&str, HashMap<i64, f64>>) -> Vec<f64> {
    let mut ids: Vec<i64> = cell.keys().copied().collect();
    ids.sort_unstable();
    ids.into_iter()
        .filter_map(|run| {
            let theirs: Option<Vec<f64>> = against
                .iter()
                .map(|a| runs.get(a.as_str())?.get(&run).copied())
                .collect();
            Some(cell[&run] - median(&theirs?))
        })
        .collect()
}

/// The median of `cells`' log medians over the runs where all were measured, oldest first.
fn median_series(cells: &[String], runs: &HashMap<&str, HashMap<i64, f64>>) -> Vec<f64> {
    let Some(first) = cells.first().and_then(|c| runs.get(c.as_str())) else {
        return vec![];
    };
    let mut ids: Vec<i64> = first.keys().copied().collect();
    ids.sort_unstable();
    ids.into_iter()
        .filter_map(|run| {
            let all: Option<Vec<f64>> = cells.iter().map(|c| runs.get(c.as_str())?.get(&run).copied()).collect();
            Some(median(&all?))
        })
        .collect()
}

/// The log ratio of `cell` to the median of `against` in one run, from its
/// cells' log medians; `None` when any of them is missing there.
pub(crate) fn ratio_in(cell: &str, against: &[String], logs: &HashMap<&str, f64>) -> Option<f64> {
    let theirs: Option<Vec<f64>> = against.iter().map(|a| logs.get(a.as_str()).copied()).collect();
    Some(logs.get(cell)? - median(&theirs?))
}

/// The median of `cells`' log medians in one run; `None` when any is missing.
pub(crate) fn together_in(cells: &[String], logs: &HashMap<&str, f64>) -> Option<f64> {
    let all: Option<Vec<f64>> = cells.iter().map(|c| logs.get(c.as_str()).copied()).collect();
    Some(median(&all?))
}

/// A group's change as a whole, `center` (log) from its reference, as an
/// estimate whose interval is the run-to-run noise of the group's median
/// (with the reference's `share` of it).
pub(crate) fn shift(noise: &RunNoise, center: f64, share: f64, level: f64) -> LogEstimate {
    let half = change::reference_half_width(noise, level, share);
    LogEstimate {
        center,
        interval: Some((center - half, center + half)),
        n: noise.runs,
        segments: 1,
        between_share: None,
        widened: false,
    }
}

/// The log medians of a run's ok cells, by id.
pub(crate) fn logs_of(results: &Results) -> HashMap<&str, f64> {
    results
        .cells
        .iter()
        .filter(|c| c.outcome == crate::base::outcome::Outcome::Ok)
        .filter_map(|c| {
            Some((
                c.id.as_str(),
                c.stats.as_ref().filter(|s| s.median_ns > 0.0)?.median_ns.ln(),
            ))
        })
        .collect()
}

/// The runs of one run's cells, by id, for the paired part of an interval.
pub(crate) type Cells<'a> = HashMap<&'a str, &'a Cell>;

/// The cells of a run by id.
pub(crate) fn cells_of(results: &Results) -> Cells<'_> {
    results.cells.iter().map(|c| (c.id.as_str(), c)).collect()
}

/// One run's own interval of a cell's log ratio to the median of `against`:
/// round by round (the runs of a group are taken in turns, so run i of each
/// was measured side by side), what the machine did to all of them in that
/// round cancels, and the segments (passes, forks) count as `levels` says.
pub(crate) fn within(cell: &Cell, against: &[String], cells: &Cells<'_>, level: f64) -> Option<LogEstimate> {
    let mut per_mate = Vec::new();
    let mut lengths = None;
    for a in against {
        let (ratios, l) = paired_log_ratios(cell, cells.get(a.as_str())?);
        if ratios.is_empty() || lengths.as_ref().is_some_and(|k: &Vec<usize>| *k != l) {
            return None;
        }
        lengths = Some(l);
        per_mate.push(ratios);
    }
    let n = per_mate.first()?.len();
    // log(cell / median of the others) = median over the others of log(cell / other).
    let rounds: Vec<f64> = (0..n)
        .map(|i| median(&per_mate.iter().map(|r| r[i]).collect::<Vec<f64>>()))
        .collect();
    judge::estimate(&rounds, &lengths?, level)
}

/// Where a change beside the others is measured from: the level of the
/// ratio over its last runs, or its value in one earlier run (with that
/// run's log medians and cells).
#[derive(Debug, Clone, Copy)]
pub(crate) enum From<'a> {
    Levels,
    Run(&'a HashMap<&'a str, f64>, &'a Cells<'a>),
}

/// `new`'s change beside the others of its group (`refs`, from `GroupHistory`),
/// `old` the same cell in the earlier run; `logs` and `cells` are the new
/// run's. `None` when the cell has no reference or one of its others is
/// missing from a run. The interval is the runs' own (paired, round by
/// round) widened to the ratio's run-to-run noise. With two references both
/// must give the same verdict, else it is `unknown`; the one printed is the
/// smaller change.
pub(crate) fn change_beside(
    (new, old): (&Cell, &Cell),
    refs: &[Reference],
    (logs, cells): (&HashMap<&str, f64>, &Cells<'_>),
    from: From<'_>,
    settings: &AnalysisSettings,
) -> Option<(Comparison, Vec<String>)> {
    let mut judged = Vec::new();
    for r in refs {
        let now = ratio_in(&new.id, &r.against, logs)?;
        let mut own = within(new, &r.against, cells, settings.confidence)?;
        let (then, share) = match from {
            From::Levels => (r.level.log_median, r.level.variance_share()),
            From::Run(old_logs, old_cells) => {
                // A stored run is read without its runs: its ratio's own
                // interval is then taken as wide as this run's.
                let before = within(old, &r.against, old_cells, settings.confidence).unwrap_or_else(|| LogEstimate {
                    center: 0.0,
                    ..own.clone()
                });
                own = unpaired(&own, &before);
                (ratio_in(&old.id, &r.against, old_logs)?, 1.0)
            }
        };
        let c = change::judged_within(new, old, own, now - then, Some((&r.noise, share)), settings);
        judged.push((c, r.against.clone()));
    }
    let agree = judged.windows(2).all(|w| w[0].0.verdict == w[1].0.verdict);
    let (mut c, against) = judged
        .into_iter()
        .min_by(|a, b| a.0.ratio.ln().abs().total_cmp(&b.0.ratio.ln().abs()))?;
    if !agree {
        c.verdict = Verdict::Unknown;
        c.note = Some("the ratios to the two others do not agree".into());
        c.reason = Some(crate::results::Reason::RatiosDisagree);
    }
    Some((c, against))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs 1..=n of cells "g/a" .. "g/d": each run shifts every cell by
    /// `common[i]`; `own` adds a cell's own wobble.
    fn recorded(common: &[f64], own: impl Fn(&str, usize) -> f64) -> Recorded {
        ["g/a", "g/b", "g/c", "g/d"]
            .iter()
            .map(|id| {
                let runs = common
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (i as i64 + 1, 1000.0 * (s + own(id, i)).exp()))
                    .collect();
                (id.to_string(), runs)
            })
            .collect()
    }

    fn groups(ids: &[&str]) -> HashMap<String, String> {
        ids.iter().map(|i| (i.to_string(), "g".to_string())).collect()
    }

    #[test]
    fn what_a_group_shares_is_not_in_the_noise_beside_the_others() {
        // Whole runs move by ±3%; each cell wobbles by ±0.2% of its own.
        let common = [0.0, 0.03, -0.03, 0.02, 0.0, -0.02, 0.03, 0.01];
        let wobble =
            |id: &str, i: usize| 0.002 * (((i * 7 + id.len() * 3 + id.as_bytes()[2] as usize) % 5) as f64 - 2.0) / 2.0;
        let beside = GroupHistory::learn(&recorded(&common, wobble), &groups(&["g/a", "g/b", "g/c", "g/d"]));
        let refs = beside.references("g/a");
        assert_eq!(refs.len(), 1, "three others: one reference, their median");
        assert_eq!(refs[0].against, vec!["g/b", "g/c", "g/d"]);
        assert!(refs[0].noise.sigma < 0.005, "{:?}", refs[0].noise);
        let own = crate::history::judge::noise::of_cell(
            &recorded(&common, wobble)[0].1.iter().map(|r| r.1).collect::<Vec<_>>(),
        );
        assert!(own.unwrap().sigma > 0.015, "{own:?}");
        let (_, together) = beside.groups().next().unwrap();
        assert!(
            together.noise.sigma > 0.015,
            "the group as a whole keeps what it shares"
        );
    }

    #[test]
    fn two_others_are_two_references_and_one_is_none() {
        let common = [0.0, 0.01, -0.01, 0.0, 0.01, 0.0];
        let rec = recorded(&common, |_, _| 0.0);
        let three = GroupHistory::learn(&rec, &groups(&["g/a", "g/b", "g/c"]));
        assert_eq!(three.references("g/a").len(), 2);
        assert_eq!(three.references("g/a")[1].against, vec!["g/c"]);
        let two = GroupHistory::learn(&rec, &groups(&["g/a", "g/b"]));
        assert!(two.references("g/a").is_empty());
        assert_eq!(two.groups().count(), 0);
    }

    #[test]
    fn a_short_history_gives_no_reference() {
        let rec = recorded(&[0.0, 0.01, 0.0], |_, _| 0.0);
        assert!(
            GroupHistory::learn(&rec, &groups(&["g/a", "g/b", "g/c", "g/d"]))
                .references("g/a")
                .is_empty()
        );
    }

    #[test]
    fn ratios_in_one_run_use_the_median_of_the_others() {
        let logs: HashMap<&str, f64> = [("a", 1.0), ("b", 0.5), ("c", 0.7), ("d", 5.0)].into_iter().collect();
        let against = ["b", "c", "d"].map(String::from);
        assert!((ratio_in("a", &against, &logs).unwrap() - 0.3).abs() < 1e-12);
        assert!(ratio_in("a", &["x".to_string()], &logs).is_none());
        assert!((together_in(&["a", "b", "c"].map(String::from), &logs).unwrap() - 0.7).abs() < 1e-12);
    }
}
