//! `versus diff OLD.json NEW.json`: every cell present in both results files,
//! old against new, with the change's interval and a verdict, and the
//! geometric mean of the changes — benchstat's job, for versus results.
//!
//! The two files come from different runs, so nothing is paired, and each
//! change is judged against the cell's run-to-run noise where the history
//! store knows it (`history::judge::change`).

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::base::metric::Metric;
use crate::base::outcome::Outcome;
use crate::history::judge::noise::REFERENCE_RUNS;
use crate::history::judge::prior::Prior;
use crate::history::judge::references;
use crate::history::judge::relative;
use crate::results::RunNoise;
use crate::results::{Beside, Cell, Change, Comparison, MachineShift, Results, SharedShift, Shift, Since, Verdict};

/// One row: a cell of both files.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub old: Option<f64>,
    pub new: Option<f64>,
    /// `None` when either side is not ok or has fewer than 2 runs; `note` says why.
    pub change: Option<Comparison>,
    pub note: Option<String>,
    /// The cell's run-to-run noise the change was judged against, when known.
    pub noise: Option<RunNoise>,
    /// The change beside the other implementations of its group, where
    /// history has one: the verdict that counts (`Row::verdict`).
    pub beside: Option<Beside>,
    /// Without `beside`: the change beyond its group's and the machine's
    /// own change (`history::judge::references`), which withheld `change`'s verdict
    /// when one of them explains it.
    pub shared: Vec<SharedShift>,
}

impl Row {
    /// The verdict that counts: beside the others where judged so, else the change's own.
    pub fn verdict(&self) -> Option<Verdict> {
        self.beside
            .as_ref()
            .map(|b| b.verdict)
            .or(self.change.as_ref().map(|c| c.verdict))
    }

    /// The ratio that verdict rests on.
    pub fn judged_ratio(&self) -> Option<f64> {
        self.beside
            .as_ref()
            .map(|b| b.ratio)
            .or(self.change.as_ref().map(|c| c.ratio))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    /// What the medians and changes are of.
    pub metric: Metric,
    pub rows: Vec<Row>,
    /// Geometric mean of new/old over the rows that have a change.
    pub geomean: Option<f64>,
    /// Cells in only one of the files.
    pub only_old: Vec<String>,
    pub only_new: Vec<String>,
    /// Environment differences that make the comparison less meaningful.
    pub version_changes: Vec<String>,
    /// What the noise the changes were judged against rests on; `None`
    /// when no history knew it (only the runs' own intervals were used).
    pub noise: Option<String>,
    /// The machine's own change in wall time, where both runs read versus's speed reference.
    pub machine: Option<MachineShift>,
}

/// Differences of machine that make old and new incomparable.
pub(crate) fn machine_differences(old: &Results, new: &Results) -> Vec<String> {
    let (a, b) = (&old.environment, &new.environment);
    let mut out = Vec::new();
    if a.cpu_model != b.cpu_model {
        out.push(format!("CPU model: '{}' vs '{}'", a.cpu_model, b.cpu_model));
    }
    if a.cores != b.cores {
        out.push(format!("cores: {} vs {}", a.cores, b.cores));
    }
    out
}

fn version_changes(old: &Results, new: &Results) -> Vec<String> {
    let mut out = Vec::new();
    for (name, info) in &new.environment.implementations {
        if let Some(before) = old.environment.implementations.get(name)
            && before.version != info.version
        {
            out.push(format!(
                "{name}: {} -> {}",
                before.version.as_deref().unwrap_or("?"),
                info.version.as_deref().unwrap_or("?")
            ));
        }
    }
    if old.environment.versus_version != new.environment.versus_version {
        out.push(format!(
            "versus: {} -> {}",
            old.environment.versus_version, new.environment.versus_version
        ));
    }
    out
}

fn usable(c: &Cell, metric: Metric) -> Result<f64, String> {
    let figure = |s: &crate::results::Stats| match metric {
        Metric::Wall => Some((s.n, s.median_ns)),
        Metric::Instructions => s.instructions.as_ref().map(|m| (m.n, m.median)),
    };
    match (c.stats.as_ref().map(figure), c.outcome) {
        (Some(Some((n, median))), Outcome::Ok) if n >= 2 => Ok(median),
        (Some(Some((n, _))), Outcome::Ok) => Err(format!("only {n} ok run")),
        (Some(None), Outcome::Ok) => Err(format!("no {}", metric.name())),
        _ => Err(c.outcome.label().to_string()),
    }
}

/// Compares every cell of `new` with the same cell of `old` in `metric`
/// (wall time, or instructions per call). Both must be analysed. Wall time
/// is judged against each cell's run-to-run noise from `noise` where known;
/// counts against their own repeatability (`history::judge::change::change_in`).
pub fn diff(old: &Results, new: &Results, metric: Metric, noise: &Prior) -> Diff {
    diff_from(old, new, metric, noise, false)
}

/// `diff`, with wall time measured from each cell's level over its last
/// runs (`noise`'s levels, `old` the newest of them) where `from_levels`
/// asks for it and history has one: "then" is that level.
fn diff_from(old: &Results, new: &Results, metric: Metric, noise: &Prior, from_levels: bool) -> Diff {
    let settings = new.analysis.clone();
    let olds: IndexMap<&str, &Cell> = old.cells.iter().map(|c| (c.id.as_str(), c)).collect();
    let (new_logs, old_logs) = (relative::logs_of(new), relative::logs_of(old));
    let (new_cells, old_cells) = (relative::cells_of(new), relative::cells_of(old));
    let from = if from_levels {
        relative::From::Levels
    } else {
        relative::From::Run(&old_logs, &old_cells)
    };
    let machine = (metric == Metric::Wall)
        .then(|| {
            references::machine_shift(
                old.environment.speed.as_ref(),
                new.environment.speed.as_ref(),
                settings.confidence,
            )
        })
        .flatten();
    let groups = group_members(new);
    let mut rows = Vec::new();
    let mut logs = Vec::new();
    for n in &new.cells {
        let Some(o) = olds.get(n.id.as_str()) else { continue };
        let (ov, nv) = (usable(o, metric), usable(n, metric));
        // History's run-to-run noise is learned from wall-time medians.
        let cell_noise = (metric == Metric::Wall).then(|| noise.for_cell(&n.id)).flatten();
        let level = (metric == Metric::Wall && from_levels)
            .then(|| noise.level(&n.id))
            .flatten();
        let ov = ov.map(|v| level.map_or(v, |l| l.log_median.exp()));
        let (change, note) = match (&ov, &nv) {
            (Ok(_), Ok(_)) => {
                match crate::history::judge::change::change_in(
                    metric,
                    n,
                    o,
                    cell_noise.as_ref(),
                    level.as_ref(),
                    &settings,
                ) {
                    Some(c) => (Some(c), None),
                    None => (None, Some("cannot compare".to_string())),
                }
            }
            (Err(e), _) => (None, Some(format!("old: {e}"))),
            (_, Err(e)) => (None, Some(format!("new: {e}"))),
        };
        if let Some(c) = &change {
            logs.push(c.ratio.ln());
        }
        let beside = change
            .as_ref()
            .filter(|_| metric == Metric::Wall)
            .and_then(|_| beside(new, (n, o), noise, (&new_logs, &new_cells), from, &settings));
        rows.push(Row {
            id: n.id.clone(),
            old: ov.ok(),
            new: nv.ok(),
            change,
            note,
            noise: cell_noise,
            beside,
            shared: Vec::new(),
        });
    }
    if metric == Metric::Wall {
        let runs = Runs {
            olds: &olds,
            now: (&new_logs, &new_cells),
            then: (&old_logs, &old_cells),
        };
        hold_shared(&mut rows, &runs, &groups, machine.as_ref(), from_levels, &settings);
    }
    let geomean = (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp());
    let news: IndexMap<&str, ()> = new.cells.iter().map(|c| (c.id.as_str(), ())).collect();
    Diff {
        metric,
        rows,
        geomean,
        only_old: old
            .cells
            .iter()
            .filter(|c| !news.contains_key(c.id.as_str()))
            .map(|c| c.id.clone())
            .collect(),
        only_new: new
            .cells
            .iter()
            .filter(|c| !olds.contains_key(c.id.as_str()))
            .map(|c| c.id.clone())
            .collect(),
        version_changes: version_changes(old, new),
        noise: noise.summary(settings.confidence),
        machine: machine.as_ref().map(|m| machine_change(m, &settings)),
    }
}

/// The two runs of a diff: the old cells by id, and each run's log medians and cells.
struct Runs<'a> {
    olds: &'a IndexMap<&'a str, &'a Cell>,
    now: (&'a HashMap<&'a str, f64>, &'a relative::Cells<'a>),
    then: (&'a HashMap<&'a str, f64>, &'a relative::Cells<'a>),
}

/// Withholds each change no learned reference judged (`beside`) that its
/// group or the machine explains (`history::judge::references`). The group counts only
/// where it moved too: the others of the cell's group called the same way
/// on their own, most of them. It is asked only of a change from the last
/// run itself: from a level, a change that stays would read as moving with
/// the group.
fn hold_shared(
    rows: &mut [Row],
    runs: &Runs<'_>,
    groups: &HashMap<String, Vec<&Cell>>,
    machine: Option<&crate::judge::LogEstimate>,
    from_levels: bool,
    settings: &crate::results::AnalysisSettings,
) {
    let own: HashMap<String, Verdict> = rows
        .iter()
        .filter_map(|r| Some((r.id.clone(), r.change.as_ref()?.verdict)))
        .collect();
    for r in rows.iter_mut().filter(|r| r.beside.is_none()) {
        let (Some(c), Some(n), Some(o)) = (
            r.change.as_mut().filter(|c| c.verdict.is_change()),
            runs.now.1.get(r.id.as_str()),
            runs.olds.get(r.id.as_str()),
        ) else {
            continue;
        };
        let others = others_in_both(groups, n, runs.now.0, runs.then.0);
        let moved = others.iter().filter(|o| own.get(*o) == Some(&c.verdict)).count();
        if !from_levels && !others.is_empty() && 2 * moved > others.len() {
            r.shared.extend(references::beyond_group(
                (n, o),
                &others,
                runs.now,
                runs.then,
                c,
                settings,
            ));
        }
        if let Some(m) = machine {
            r.shared
                .push(references::beyond_machine(c, m, (1.0 + settings.noise).ln()));
        }
        references::withhold(c, &r.shared);
    }
}

/// Each group's cells of `new`, by group key.
fn group_members(new: &Results) -> HashMap<String, Vec<&Cell>> {
    let mut out: HashMap<String, Vec<&Cell>> = std::collections::HashMap::new();
    for c in &new.cells {
        out.entry(crate::results::group_key(&c.operation, &c.params))
            .or_default()
            .push(c);
    }
    out
}

/// The other cells of `n`'s group that finished in both runs.
fn others_in_both(
    groups: &HashMap<String, Vec<&Cell>>,
    n: &Cell,
    new_logs: &HashMap<&str, f64>,
    old_logs: &HashMap<&str, f64>,
) -> Vec<String> {
    groups
        .get(&crate::results::group_key(&n.operation, &n.params))
        .into_iter()
        .flatten()
        .filter(|c| c.id != n.id && new_logs.contains_key(c.id.as_str()) && old_logs.contains_key(c.id.as_str()))
        .map(|c| c.id.clone())
        .collect()
}

/// `n`'s change beside the others of its group in `new`, where history has
/// references for it and every one of them is in both runs.
fn beside(
    new: &Results,
    (n, o): (&Cell, &Cell),
    noise: &Prior,
    run: (&HashMap<&str, f64>, &relative::Cells<'_>),
    from: relative::From<'_>,
    settings: &crate::results::AnalysisSettings,
) -> Option<Beside> {
    let refs = noise.beside().references(&n.id);
    let (c, against) = relative::change_beside((n, o), refs, run, from, settings)?;
    let implementation = |id: &String| {
        new.cells
            .iter()
            .find(|c| &c.id == id)
            .map_or_else(|| id.clone(), |c| c.implementation.clone())
    };
    let r = refs.iter().find(|r| r.against == against)?;
    Some(Beside {
        against: against.iter().map(implementation).collect(),
        ratio: c.ratio,
        ci_low: c.ci_low,
        ci_high: c.ci_high,
        verdict: c.verdict,
        minimum_detectable: c.minimum_detectable,
        note: c.note,
        reason: c.reason,
        noise: r.noise,
    })
}

/// Each group's change as a whole since the earlier run: the median of its
/// implementations against the level of that median (or its value in `old`).
fn shifts(old: &Results, new: &Results, noise: &Prior, from_levels: bool) -> Vec<Shift> {
    let (new_logs, old_logs) = (relative::logs_of(new), relative::logs_of(old));
    let settings = &new.analysis;
    let band = (1.0 + settings.noise).ln();
    noise
        .beside()
        .groups()
        .filter_map(|(key, g)| {
            let now = relative::together_in(&g.cells, &new_logs)?;
            let (then, share) = if from_levels {
                (g.level.log_median, g.level.variance_share())
            } else {
                (relative::together_in(&g.cells, &old_logs)?, 1.0)
            };
            let est = relative::shift(&g.noise, now - then, share, settings.confidence);
            let implementations = g
                .cells
                .iter()
                .filter_map(|id| new.cells.iter().find(|c| &c.id == id))
                .map(|c| c.implementation.clone())
                .collect();
            let (lo, hi) = est.interval?;
            Some(Shift {
                group: key.clone(),
                implementations,
                ratio: est.center.exp(),
                ci_low: lo.exp(),
                ci_high: hi.exp(),
                verdict: crate::judge::decide(&est, band),
                noise: g.noise,
            })
        })
        .collect()
}

/// Each cell of `new` against `old` as the "change since" of a report, in
/// wall time and in each other metric both measured. Both must be
/// analysed; `run_id`, `label` and `warning` say what `old` is. With
/// `from_levels` (`old` is the last run, not one the user named), time is
/// measured from each cell's level over its last runs where history has one.
pub(crate) fn since(
    old: &Results,
    new: &Results,
    noise: &Prior,
    (run_id, label): (i64, &str),
    from_levels: bool,
    warning: Option<String>,
) -> Since {
    let from_levels = from_levels && !noise.is_empty();
    let changes = |d: Diff| -> Vec<Change> {
        d.rows
            .into_iter()
            .map(|r| Change {
                verdict: r.verdict(),
                id: r.id,
                old_median_ns: r.old,
                new_median_ns: r.new,
                ratio: r.change.as_ref().map(|c| c.ratio),
                ci_low: r.change.as_ref().and_then(|c| c.ci_low),
                ci_high: r.change.as_ref().and_then(|c| c.ci_high),
                minimum_detectable: r
                    .beside
                    .as_ref()
                    .map(|b| b.minimum_detectable)
                    .unwrap_or_else(|| r.change.as_ref().and_then(|c| c.minimum_detectable)),
                reason: match &r.note {
                    Some(_) => None,
                    None => r.change.as_ref().and_then(|c| c.reason),
                },
                note: r.note.or_else(|| r.change.as_ref().and_then(|c| c.note.clone())),
                noise: r.noise,
                beside: r.beside,
                shared: r.shared,
            })
            .collect()
    };
    let wall = diff_from(old, new, Metric::Wall, noise, from_levels);
    let machine = wall.machine.clone();
    let both = crate::results::measured(old);
    let label = if from_levels {
        format!("each cell's median over its last {REFERENCE_RUNS} runs, the newest")
    } else {
        label.to_string()
    };
    Since {
        run_id,
        label,
        started_at: old.started_at.clone(),
        warning,
        changes: changes(wall),
        metrics: crate::results::measured(new)
            .into_iter()
            .filter(|m| *m != Metric::Wall && both.contains(m))
            .map(|m| (m, changes(diff_from(old, new, m, noise, from_levels))))
            .collect(),
        noise: noise.summary(new.analysis.confidence),
        shifts: shifts(old, new, noise, from_levels),
        machine,
    }
}

/// The machine's own change (`references::machine_shift`) as a results document records it.
fn machine_change(est: &crate::judge::LogEstimate, settings: &crate::results::AnalysisSettings) -> MachineShift {
    let (lo, hi) = est.interval.unzip();
    MachineShift {
        ratio: est.center.exp(),
        ci_low: lo.map(f64::exp),
        ci_high: hi.map(f64::exp),
        verdict: crate::judge::decide(est, (1.0 + settings.noise).ln()),
    }
}

/// Rows that are slower (with a `slower` verdict) by more than `threshold` (0.05 = 5%).
pub(crate) fn regressions(d: &Diff, threshold: f64) -> Vec<&Row> {
    d.rows
        .iter()
        .filter(|r| {
            r.verdict() == Some(Verdict::Slower) && r.judged_ratio().is_some_and(|ratio| ratio > 1.0 + threshold)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Environment, RunStatus, Samples, SuiteInfo};

    fn results(cells: &[(&str, &[u64], Outcome)]) -> Results {
        let mut r = Results {
            schema_version: 1,
            suite: SuiteInfo::default(),
            started_at: String::new(),
            finished_at: None,
            status: RunStatus::Complete,
            environment: Environment::default(),
            analysis: Default::default(),
            design: None,
            matrix: Default::default(),
            operations: vec!["op".into()],
            cells: cells
                .iter()
                .map(|(id, wall, outcome)| Cell {
                    outcome: *outcome,
                    ..Cell::of_samples(
                        id,
                        Samples {
                            wall_ns: wall.to_vec().into(),
                            ..Default::default()
                        },
                    )
                })
                .collect(),
            ..Default::default()
        };
        crate::analysis::analyze(&mut r, &[]);
        r
    }

    #[test]
    fn a_clear_regression_is_found_and_gated() {
        let same = [100, 101, 99, 100, 102, 98, 100, 101, 99, 100];
        let slow = [120, 121, 119, 120, 122, 118, 120, 121, 119, 120];
        let old = results(&[
            ("a", &same, Outcome::Ok),
            ("b", &same, Outcome::Ok),
            ("gone", &same, Outcome::Ok),
        ]);
        let new = results(&[
            ("a", &same, Outcome::Ok),
            ("b", &slow, Outcome::Ok),
            ("c", &same, Outcome::Ok),
        ]);
        let d = diff(&old, &new, Metric::Wall, &Prior::default());
        assert_eq!(d.rows.len(), 2);
        // Unchanged, but ten runs at ±1% cannot place the change within ±1%.
        assert_eq!(d.rows[0].change.as_ref().unwrap().verdict, Verdict::Unknown);
        assert_eq!(d.rows[1].change.as_ref().unwrap().verdict, Verdict::Slower);
        assert_eq!(regressions(&d, 0.05).len(), 1);
        assert!(regressions(&d, 0.25).is_empty());
        assert_eq!(
            (d.only_old.as_slice(), d.only_new.as_slice()),
            (&["gone".to_string()][..], &["c".to_string()][..])
        );
        let g = d.geomean.unwrap();
        assert!((g - 1.2f64.sqrt()).abs() < 0.01, "{g}");
    }

    /// Twenty runs around `m` (±2).
    fn around(m: u64) -> Vec<u64> {
        (0..20).map(|i| m - 2 + (i * 7) % 5).collect()
    }

    fn verdicts(d: &Diff) -> Vec<Verdict> {
        d.rows.iter().map(|r| r.verdict().unwrap()).collect()
    }

    #[test]
    fn a_shift_the_whole_group_shares_is_withheld_and_one_cell_apart_is_not() {
        let four = |ms: [u64; 4]| {
            let runs: Vec<Vec<u64>> = ms.iter().map(|m| around(*m)).collect();
            let ids = ["a", "b", "c", "d"];
            let cells: Vec<(&str, &[u64], Outcome)> = ids
                .iter()
                .zip(&runs)
                .map(|(id, r)| (*id, r.as_slice(), Outcome::Ok))
                .collect();
            results(&cells)
        };
        let old = four([1000; 4]);
        // The machine slowed by 35% between the runs: every cell moved.
        let d = diff(&old, &four([1350, 1352, 1349, 1351]), Metric::Wall, &Prior::default());
        assert_eq!(verdicts(&d), vec![Verdict::Unknown; 4]);
        let c = d.rows[0].change.as_ref().unwrap();
        assert!(c.note.as_deref().unwrap().starts_with(references::GROUP_MOVED), "{c:?}");
        assert_eq!(c.reason, Some(crate::results::Reason::GroupMoved));
        assert_eq!(d.rows[0].shared[0].by, crate::results::SharedBy::Group);
        // The same from a run as the store gives it back: statistics, no runs.
        let mut stored = old.clone();
        for c in &mut stored.cells {
            c.samples = Default::default();
        }
        let d = diff(
            &stored,
            &four([1350, 1352, 1349, 1351]),
            Metric::Wall,
            &Prior::default(),
        );
        assert_eq!(verdicts(&d), vec![Verdict::Unknown; 4]);
        // One cell moved on its own: still called, and the others were not asked.
        let d = diff(&old, &four([1000, 1350, 1000, 1000]), Metric::Wall, &Prior::default());
        assert_eq!(verdicts(&d)[1], Verdict::Slower);
        assert!(d.rows[1].shared.is_empty());
    }

    #[test]
    fn a_shift_the_machines_speed_reference_shows_is_withheld_for_a_lone_cell() {
        let speed = |ns: u64| crate::results::SpeedReadings {
            workload: "w".into(),
            samples_ns: (0..10).map(|i| ns + i % 3).collect(),
        };
        let mut old = results(&[("a", &around(1000), Outcome::Ok)]);
        old.environment.speed = Some(speed(1_000_000));
        let mut new = results(&[("a", &around(1350), Outcome::Ok)]);
        // Without readings the change alone is called.
        assert_eq!(
            verdicts(&diff(&old, &new, Metric::Wall, &Prior::default())),
            vec![Verdict::Slower]
        );
        new.environment.speed = Some(speed(1_350_000));
        let d = diff(&old, &new, Metric::Wall, &Prior::default());
        assert_eq!(verdicts(&d), vec![Verdict::Unknown]);
        let note = d.rows[0].change.as_ref().unwrap().note.clone().unwrap();
        assert!(
            note.starts_with(references::MACHINE_MOVED) && note.contains("35% slower"),
            "{note}"
        );
        assert_eq!(
            d.rows[0].change.as_ref().unwrap().reason,
            Some(crate::results::Reason::MachineMoved)
        );
        assert!(d.machine.as_ref().is_some_and(|m| m.verdict == Verdict::Slower));
        // Twice as slow on a machine 35% slower: the cell changed too.
        let mut worse = results(&[("a", &around(2000), Outcome::Ok)]);
        worse.environment.speed = Some(speed(1_350_000));
        assert_eq!(
            verdicts(&diff(&old, &worse, Metric::Wall, &Prior::default())),
            vec![Verdict::Slower]
        );
    }

    #[test]
    fn cells_that_cannot_be_compared_say_why_and_never_give_nan() {
        let old = results(&[("a", &[100], Outcome::Ok), ("b", &[], Outcome::Timeout)]);
        let new = results(&[("a", &[100, 101], Outcome::Ok), ("b", &[100, 100], Outcome::Ok)]);
        let d = diff(&old, &new, Metric::Wall, &Prior::default());
        assert!(d.rows.iter().all(|r| r.change.is_none() && r.note.is_some()));
        assert_eq!(d.geomean, None);
    }

    #[test]
    fn the_change_since_the_last_runs_is_measured_from_each_cells_level() {
        let at = |m: u64| -> Vec<u64> { (0..20).map(|i| m - 2 + (i * 7) % 5).collect() };
        // The last run happened to be fast (960); the four before sat at 1000.
        let (last, now) = (at(960), at(1000));
        let old = results(&[("a", &last, Outcome::Ok)]);
        let new = results(&[("a", &now, Outcome::Ok)]);
        let medians = [1000.0, 1002.0, 998.0, 1001.0, 960.0];
        let history = vec![(
            "a".to_string(),
            medians.iter().enumerate().map(|(i, m)| (i as i64, *m)).collect(),
        )];
        let book = Prior::from_history(history, &Default::default());
        let s = since(&old, &new, &book, (9, "the last run"), true, None);
        let c = &s.changes[0];
        assert!((c.old_median_ns.unwrap() - 1000.0).abs() < 1e-6, "{c:?}");
        assert!((c.ratio.unwrap() - 1.0).abs() < 0.002, "{c:?}");
        assert!(s.label.contains("last 5 runs"), "{}", s.label);
        // A named run is the reference itself: +4% from the fast run.
        let named = since(&old, &new, &book, (9, "run 9"), false, None);
        assert!((named.changes[0].ratio.unwrap() - 1.0 / 0.96).abs() < 0.002);
        assert_eq!(named.label, "run 9");
    }

    #[test]
    fn the_change_since_needs_no_samples_of_the_earlier_run() {
        // A real run with several groups and counted instructions: read as
        // the store reads an earlier run (samples left out), it gives the
        // same change since as read whole.
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/sha256-instructions/results.json");
        let text = std::fs::read_to_string(path).unwrap();
        let whole: Results = serde_json::from_str(&text).unwrap();
        let lean: Results = crate::results::without_runs(|| serde_json::from_str(&text)).unwrap();
        assert!(lean.cells.iter().all(|c| c.samples.is_empty()));
        let mut new = whole.clone();
        for c in &mut new.cells {
            if let Some(s) = c.stats.as_mut() {
                s.median_ns *= 1.5;
            }
        }
        let from = |old: &Results| since(old, &new, &Prior::default(), (3, "run 3"), false, None);
        let (a, b) = (from(&whole), from(&lean));
        assert!(
            a.changes
                .iter()
                .all(|c| c.ratio.is_some_and(|r| (r - 1.5).abs() < 1e-9))
        );
        assert!(!a.metrics.is_empty(), "instructions compared too");
        assert_eq!(a, b);
    }

    /// A run of a, b, c and d (one group) with these runs.
    fn four(a: &[u64], b: &[u64], c: &[u64], d: &[u64]) -> Results {
        results(&[
            ("a", a, Outcome::Ok),
            ("b", b, Outcome::Ok),
            ("c", c, Outcome::Ok),
            ("d", d, Outcome::Ok),
        ])
    }

    /// Eight recorded runs of a, b, c, d (one group), each run moving all of
    /// them by up to ±2% together and each by ±0.2% of its own.
    fn shared_history() -> (Prior, f64) {
        let common = [0.0, 0.02, -0.02, 0.01, -0.01, 0.02, 0.0, -0.02];
        let ids = ["a", "b", "c", "d"];
        let history = ids
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let runs = common
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (i as i64, 1000.0 * (s + 0.002 * (((i + k) % 3) as f64 - 1.0)).exp()))
                    .collect();
                (id.to_string(), runs)
            })
            .collect();
        let groups = ids.iter().map(|i| (i.to_string(), "op/".to_string())).collect();
        (Prior::from_history(history, &groups), 1000.0 * (-0.02f64).exp())
    }

    #[test]
    fn a_group_that_moved_together_is_a_shift_not_four_changes() {
        let (book, last) = shared_history();
        let at = |m: f64| -> Vec<u64> { (0..20).map(|i| (m as u64) - 2 + (i * 7) % 5).collect() };
        let old = four(&at(last), &at(last), &at(last), &at(last));
        // Everything 10% slower than its level: the machine.
        let all = at(1100.0);
        let new = four(&all, &all, &all, &all);
        let s = since(&old, &new, &book, (7, "the last run"), true, None);
        for c in &s.changes {
            let b = c.beside.as_ref().unwrap();
            assert_eq!(b.against.len(), 3, "{c:?}");
            assert!(!matches!(c.verdict, Some(Verdict::Slower | Verdict::Faster)), "{c:?}");
        }
        assert_eq!(s.shifts.len(), 1);
        assert_eq!(s.shifts[0].verdict, Verdict::Slower, "{:?}", s.shifts[0]);
        // Only d 5% slower: d is called, beside the others; they are not.
        let d = at(1050.0);
        let same = at(1000.0);
        let new = four(&same, &same, &same, &d);
        let s = since(&old, &new, &book, (7, "the last run"), true, None);
        let verdicts: Vec<_> = s.changes.iter().map(|c| c.verdict).collect();
        assert_eq!(verdicts[3], Some(Verdict::Slower), "{:?}", s.changes[3]);
        assert!(
            verdicts[..3]
                .iter()
                .all(|v| !matches!(v, Some(Verdict::Slower | Verdict::Faster))),
            "{verdicts:?}"
        );
        assert!((s.changes[3].beside.as_ref().unwrap().ratio - 1.05).abs() < 0.01);
    }

    #[test]
    fn two_implementations_are_judged_each_on_its_own() {
        let (book, _) = shared_history();
        let at = |m: u64| -> Vec<u64> { (0..20).map(|i| m - 2 + (i * 7) % 5).collect() };
        let old = results(&[("a", &at(1000), Outcome::Ok), ("b", &at(1000), Outcome::Ok)]);
        let new = results(&[("a", &at(1000), Outcome::Ok), ("b", &at(1000), Outcome::Ok)]);
        // The book was learned with four in the group; here the run has two, and the references name absent cells.
        let s = since(&old, &new, &book, (7, "the last run"), true, None);
        assert!(s.changes.iter().all(|c| c.beside.is_none()), "{:?}", s.changes);
    }

    #[test]
    fn drift_the_rounds_share_cancels_in_the_interval_beside_the_others() {
        let (book, last) = shared_history();
        // Every round of the new run drifts by up to ±15% for all four alike.
        let drift = [
            1.0, 1.15, 0.9, 1.1, 0.85, 1.0, 1.12, 0.88, 1.05, 0.95, 1.0, 1.15, 0.9, 1.1, 0.85, 1.0, 1.12, 0.88, 1.05,
            0.95,
        ];
        let run = |m: f64| -> Vec<u64> { drift.iter().map(|d| (m * d) as u64).collect() };
        let at = |m: f64| -> Vec<u64> { (0..20).map(|i| (m as u64) - 2 + (i * 7) % 5).collect() };
        let old = four(&at(last), &at(last), &at(last), &at(last));
        let new = four(&run(1000.0), &run(1000.0), &run(1000.0), &run(1050.0));
        let s = since(&old, &new, &book, (7, "the last run"), true, None);
        let d = &s.changes[3];
        let b = d.beside.as_ref().unwrap();
        assert_eq!(d.verdict, Some(Verdict::Slower), "{d:?}");
        assert!(b.ci_high.unwrap() / b.ci_low.unwrap() < 1.05, "{b:?}");
        // On its own the drift leaves it unknown.
        assert!(d.ci_high.unwrap() / d.ci_low.unwrap() > 1.1, "{d:?}");
    }
}
