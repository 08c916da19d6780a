//! From samples to conclusions: per-cell statistics and intervals,
//! comparisons against the baseline with verdicts, and warnings about the
//! quality of the measurement. Pure over the `Results` document; the reports
//! only print what this computes.
//!
//! Comparisons and their verdicts are `judge`'s: this module picks each
//! group's baseline and asks `judge::compare` for every other cell, and
//! `judge::carryover` whether the run before changes a cell's time; a
//! comparison of such a cell is not called (its verdict becomes `unknown`,
//! with the reason in its `note`), since its median mixes runs after
//! different implementations and the ratio depends on the order.

use std::collections::HashMap;

use crate::analysis::findings::carryover;
use crate::base::metric::Metric;
use crate::base::order::Order;
use crate::base::outcome::Outcome;
use crate::judge;
use crate::judge::{Judged, judge_pair};
use crate::results::group_key;
use crate::results::view_cell;
use crate::results::{
    AnalysisSettings, Cell, Comparison, Environment, MetricResults, Results, SteadyState, Verdict, Warning,
};
use crate::stats::{self, summarize};

mod cell;
mod contention;
mod findings;
mod headline;
mod overall;
mod revisions;
pub use cell::{cell_stats, fill_stats, metric_cell_stats};
pub use findings::check::contradictions;
#[cfg(test)]
pub(crate) use findings::tests as fixtures;
pub use headline::DERIVED;
pub use revisions::regressions;

/// Coefficient of variation above which a cell is flagged as noisy.
pub const HIGH_CV: f64 = 0.10;
/// A first measured run this many times the median of the rest is flagged as warm-up leaking in.
pub const SLOW_FIRST_RUN: f64 = 1.5;
/// Smallest relative level change the steady-state detector counts.
pub const STEADY_TOLERANCE: f64 = 0.02;

/// The baseline of a group of cells (same operation and parameters): the
/// suite's baseline if it ran fine, else — when the suite names none — the fastest.
/// `None` when the named baseline did not run fine: no ratio is better than a ratio
/// to something else than the reader was promised.
pub fn baseline_of<'c>(cells: &[&'c Cell], named: Option<&str>) -> Option<&'c Cell> {
    match named {
        Some(name) => cells
            .iter()
            .copied()
            .find(|c| c.implementation == name && c.stats.is_some()),
        None => {
            let ok: Vec<&Cell> = cells.iter().copied().filter(|c| c.stats.is_some()).collect();
            let medians: Vec<f64> = ok
                .iter()
                .map(|c| c.stats.as_ref().map_or(f64::MAX, |s| s.median_ns))
                .collect();
            stats::argmin(&medians).map(|i| ok[i])
        }
    }
}

/// Fills in `stats`, `comparisons`, the measurement warnings, the overall
/// summary (`overall::refresh`) and the findings (`findings::refresh`). Idempotent.
pub fn analyze(results: &mut Results, extra_warnings: &[Warning]) {
    results.analysis.contention = results.environment.load.as_ref().and_then(|l| l.contention());
    let settings = results.analysis.clone();
    // Each cell on its own, shared out over the cores.
    let fresh = crate::base::parallel::map(&results.cells, |cell| {
        // An imported cell may hold only its harness's summary: nothing to recompute it from.
        let summary_only = cell.samples.is_empty() && cell.outcome == Outcome::Ok && cell.stats.is_some();
        (!summary_only).then(|| cell::stats_of(cell, &settings))
    });
    for (cell, stats) in results.cells.iter_mut().zip(fresh) {
        if let Some(stats) = stats {
            cell.stats = stats;
        }
    }
    judge_carry_over(results, &settings);
    let (comparisons, untestable) = compare_groups(results, Metric::Wall);
    results.comparisons = comparisons;
    results.metrics.clear();
    for metric in crate::results::measured(results).into_iter().skip(1) {
        let (comparisons, _) = compare_groups(results, metric);
        let view = crate::results::view(results, metric);
        // Outcomes, warm-up and memory are the same whatever the metric:
        // only who wins, and what size costs, are its own.
        let mut findings = crate::analysis::findings::compute(&view).0;
        findings.retain(|f| {
            use crate::results::FindingKind::*;
            matches!(f.kind, Winner | Crossover | Cost | NotLinear)
        });
        results.metrics.insert(metric, MetricResults { comparisons, findings });
    }
    crate::analysis::revisions::analyze(results);
    let mut warnings = environment_warnings(&results.environment);
    if !untestable.is_empty() {
        warnings.push(Warning {
            kind: "too_few_runs".into(),
            message: format!(
                "{} comparison(s) had too few runs for a {:.0}% interval: no interval, verdict or winner exists below {} runs (however large the difference, these read 'unknown'). Use --runs {} or more. Comparisons: {}.",
                untestable.len(),
                settings.confidence * 100.0,
                stats::order::min_samples(settings.confidence),
                stats::order::min_samples(settings.confidence),
                untestable.join(", ")
            ),
        });
    }
    warnings.extend(cell_warnings(&results.cells));
    warnings.extend(not_counted_warning(&results.cells));
    warnings.extend(carryover::warning(results));
    warnings.extend(contention::warning(results));
    warnings.extend(crate::analysis::findings::carryover_screen::warning(results));
    if results.order() == Order::Blocked {
        warnings.push(Warning {
            kind: BLOCKED.into(),
            message: "Runs were taken in blocks, each implementation's runs one after another (--order blocked, hyperfine's order): a machine that drifts during the run is not cancelled, so ratios are computed unpaired, as between two runs. Each figure is what the implementation costs run alone. --order balanced takes turns and still gives the run-alone figures.".into(),
        });
    }
    warnings.extend(extra_warnings.iter().cloned());
    results.warnings = warnings;
    crate::analysis::overall::refresh(results);
    crate::analysis::findings::refresh(results);
    crate::analysis::headline::refresh(results);
    results.carry_over_coverage = carryover::coverage(results);
}

/// The cells of each group (one operation at one parameter set), in document order.
fn groups(cells: &[Cell]) -> Vec<Vec<&Cell>> {
    group_indices(cells)
        .into_iter()
        .map(|g| g.into_iter().map(|i| &cells[i]).collect())
        .collect()
}

/// The positions of each group's cells in `cells`, groups in order of first appearance.
fn group_indices(cells: &[Cell]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (ci, cell) in cells.iter().enumerate() {
        let i = *index
            .entry(group_key(&cell.operation, &cell.params))
            .or_insert_with(|| {
                groups.push(vec![]);
                groups.len() - 1
            });
        groups[i].push(ci);
    }
    groups
}

/// Every cell against its group's baseline in `metric` (the suite's, else
/// the one with the smallest median in that metric), and the cells whose
/// comparison had too few runs for an interval.
fn compare_groups(results: &Results, metric: Metric) -> (Vec<Comparison>, Vec<String>) {
    let settings = &results.analysis;
    let mut comparisons = Vec::new();
    let mut untestable = Vec::new();
    for cells in groups(&results.cells) {
        // Wall time's view is the cell itself: not copied (a cell may hold 100,000 runs).
        let views: Vec<Cell> = match metric {
            Metric::Wall => Vec::new(),
            _ => cells.iter().filter_map(|c| view_cell(c, metric)).collect(),
        };
        let view_refs: Vec<&Cell> = match metric {
            Metric::Wall => cells.to_vec(),
            _ => views.iter().collect(),
        };
        let Some(base_view) = baseline_of(&view_refs, results.suite.baseline.as_deref()) else {
            continue;
        };
        let Some(base) = cells.iter().copied().find(|c| c.id == base_view.id) else {
            continue;
        };
        for c in cells {
            // Merged pieces: a ratio is only ever made within one machine.
            if c.machine != base.machine {
                continue;
            }
            // Cells of one group were interleaved, segment by segment, unless
            // one came from an earlier run (--resume): `compare` pairs what it can.
            let Some(Judged { mut comparison, .. }) = judge_pair(metric, c, base, settings) else {
                continue;
            };
            // The medians over the runs a paired ratio used, of the cells as
            // the metric's view shows them.
            let pair = match metric {
                Metric::Wall => Some((c, base)),
                _ => views.iter().find(|v| v.id == c.id).map(|v| (v, base_view)),
            };
            comparison.paired_medians = pair.and_then(|(a, b)| crate::judge::paired_medians(a, b, &comparison));
            if comparison.verdict != Verdict::Baseline && comparison.ci_low.is_none() {
                untestable.push(format!("{} ({} runs)", c.label(), comparison.n));
            }
            comparisons.push(comparison);
        }
    }
    (comparisons, untestable)
}

/// One warning naming the cells whose instructions could not all be counted.
fn not_counted_warning(cells: &[Cell]) -> Option<Warning> {
    let hit: Vec<String> = cells
        .iter()
        .filter_map(|c| Some(format!("{}: {}", c.label(), c.samples.instructions_error.as_ref()?)))
        .collect();
    (!hit.is_empty()).then(|| Warning {
        kind: "instructions_not_counted".into(),
        message: format!(
            "{} cell(s) have fewer counted runs than asked, or none: their runs did not finish under the instruction counter (their times are unaffected). Cells: {}.",
            hit.len(),
            hit.join("; ")
        ),
    })
}

/// Warning kinds `analyze` computes from the cells and the machine; any
/// other kind in a document (a repaired journal, a failed teardown) was
/// recorded by the run and is kept when the document is analysed again.
pub const COMPUTED_WARNINGS: &[&str] = &[
    "too_few_runs",
    "high_variation",
    "slow_first_run",
    "slow_first_round",
    "warmup_in_measurement",
    "no_steady_state",
    "many_outliers",
    "segment_modes",
    "busy_machine",
    "busy_during_run",
    "cpu_governor",
    "instructions_not_counted",
    crate::analysis::findings::drift::KIND,
    carryover::KIND,
    contention::KIND,
    crate::analysis::findings::carryover_screen::KIND,
    BLOCKED,
];

/// The warning kind of a run taken in blocks.
pub const BLOCKED: &str = "blocked_order";

/// Sets each ok cell's `stats.carry_over`, group by group: the group's
/// tests share one confidence level (`judge::carryover`).
fn judge_carry_over(results: &mut Results, settings: &AnalysisSettings) {
    let group_of = group_indices(&results.cells);
    for group in group_of {
        let found = {
            let cells: Vec<&Cell> = group.iter().map(|i| &results.cells[*i]).collect();
            crate::judge::judge_group(&cells, settings)
        };
        for (i, co) in group.iter().zip(found) {
            if let Some(stats) = results.cells[*i].stats.as_mut() {
                stats.carry_over = co;
            }
        }
    }
}

/// Analyses a saved document again with this versus's rules (statistics,
/// verdicts, computed warnings and findings), keeping the warnings the run
/// itself recorded: what `versus report` shows for a file of any version.
pub fn reanalyze(results: &mut Results) {
    let recorded: Vec<Warning> = results
        .warnings
        .iter()
        .filter(|w| !COMPUTED_WARNINGS.contains(&w.kind.as_str()))
        .cloned()
        .collect();
    analyze(results, &recorded);
}

/// The cell's segments at two levels (`judge::judge::modes`), if they are.
pub fn segment_modes(cell: &Cell) -> Option<judge::Modes> {
    let per_call = cell.samples.per_call_ns();
    if per_call.iter().any(|x| *x <= 0.0) {
        return None;
    }
    let logs: Vec<f64> = per_call.iter().map(|x| x.ln()).collect();
    judge::modes(&logs, &cell.segment_lengths())
}

/// A measurement problem found in one cell: (warning kind, what was seen).
pub fn cell_flags(cell: &Cell) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let Some(s) = &cell.stats else { return out };
    if let Some(m) = segment_modes(cell) {
        let what = if cell.samples.iterations.is_empty() {
            "passes"
        } else {
            "worker processes"
        };
        out.push((
            "segment_modes",
            format!(
                "{} ({} of {} {what} settled {:.2}x slower)",
                cell.label(),
                m.slow.len(),
                m.of,
                m.ratio
            ),
        ));
    }
    if let Some(cv) = s.stddev_ns.map(|sd| sd / s.mean_ns).filter(|cv| *cv > HIGH_CV) {
        out.push(("high_variation", format!("{} ({:.0}%)", cell.label(), cv * 100.0)));
    }
    let wall = cell.samples.per_call_ns();
    if wall.len() >= 3 {
        let rest = summarize(&wall[1..]).map_or(0.0, |r| r.median);
        if rest > 0.0 && wall[0] > SLOW_FIRST_RUN * rest {
            out.push(("slow_first_run", format!("{} ({:.1}x)", cell.label(), wall[0] / rest)));
        }
    }
    match (s.steady_state, s.steady_from) {
        (SteadyState::NotReached, _) => out.push(("no_steady_state", cell.label())),
        (SteadyState::Reached, Some(k)) if k > cell.first_warmup_runs() => out.push((
            "warmup_in_measurement",
            format!(
                "{} (steady after {k} runs, {} were warm-up)",
                cell.label(),
                cell.first_warmup_runs()
            ),
        )),
        _ => {}
    }
    if s.n >= 10 && s.outliers.len() * 10 > s.n {
        out.push((
            "many_outliers",
            format!("{} ({} of {})", cell.label(), s.outliers.len(), s.n),
        ));
    }
    out
}

/// `flags` (one list per cell of `cells`) with `slow_first_run` renamed
/// `slow_first_round` in every group whose implementations all had it and
/// took turns (a position past the first in some round): a first round
/// slow for every implementation together is the machine, not each one's
/// warm-up. A group of one implementation says nothing either way.
fn shared_first_rounds<'a>(cells: &[Cell], mut flags: Vec<Vec<(&'a str, String)>>) -> Vec<Vec<(&'a str, String)>> {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, c) in cells.iter().enumerate().filter(|(_, c)| c.outcome == Outcome::Ok) {
        groups.entry(group_key(&c.operation, &c.params)).or_default().push(i);
    }
    let slow = |f: &[(&str, String)]| f.iter().any(|(k, _)| *k == "slow_first_run");
    let in_turns = |c: &Cell| {
        c.samples
            .order
            .as_ref()
            .is_some_and(|o| o.position.iter().any(|p| *p > 0))
    };
    for members in groups.values().filter(|m| m.len() >= 2) {
        if members.iter().all(|&i| slow(&flags[i]) && in_turns(&cells[i])) {
            for &i in members {
                for f in flags[i].iter_mut().filter(|(k, _)| *k == "slow_first_run") {
                    f.0 = "slow_first_round";
                }
            }
        }
    }
    flags
}

/// One warning per kind of cell problem, naming every affected cell.
pub fn cell_warnings(cells: &[Cell]) -> Vec<Warning> {
    let flags: Vec<(&str, String)> = shared_first_rounds(cells, cells.iter().map(cell_flags).collect())
        .into_iter()
        .flatten()
        .collect();
    let mut out = Vec::new();
    for (kind, advice) in [
        (
            "high_variation",
            "runs varied by more than 10% of their mean (coefficient of variation): close other programs, or add runs (--runs, or --precision) so the median settles",
        ),
        (
            "slow_first_run",
            "the first measured run took over 1.5x the median of the others, so warm-up (caches, JIT) leaked into the measurement: add warm-up runs (--warmup, or --warmup auto)",
        ),
        (
            "slow_first_round",
            "every implementation of the group was over 1.5x slower in its first measured run than in the rest, and they took turns, so that first round was slow for all of them together: that is the machine (other processes starting, a CPU clocking up, a cold disk) more than each one's warm-up; rerun on a quiet machine, or add warm-up runs (--warmup) so the group's first round is not measured",
        ),
        (
            "warmup_in_measurement",
            "the series only reached its steady level after the warm-up ended, so early measured runs are still warming up: raise --warmup or use --warmup auto",
        ),
        (
            "no_steady_state",
            "the series was still changing in its second half: no steady state was reached; the figures describe a moving target. Add warm-up and runs, or look for a leak or throttling",
        ),
        (
            "segment_modes",
            "the cell's passes or worker processes settled at two different levels (a JIT's slow path in some forks, a busy stretch in some passes): its median and interval describe neither level, and its comparisons are widened by the difference; look at each level, and add forks or passes to see how often each occurs",
        ),
        (
            "many_outliers",
            "over 10% of the runs are outliers (modified z-score > 3.5): something interrupted some runs (another program, the hypervisor, or a collector or compiler of the code under test; the run's load record says whether other programs took a share). The median resists them; more runs show whether they recur",
        ),
    ] {
        let hit: Vec<&str> = flags
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, d)| d.as_str())
            .collect();
        if !hit.is_empty() {
            out.push(Warning {
                kind: kind.into(),
                message: format!("{} cell(s): {advice}. Cells: {}.", hit.len(), hit.join(", ")),
            });
        }
    }
    out
}

/// Warnings about the machine the run happened on.
pub fn environment_warnings(env: &Environment) -> Vec<Warning> {
    let mut out = Vec::new();
    if let Some(load) = env.load_average.filter(|l| *l > env.cores as f64) {
        out.push(Warning {
            kind: "busy_machine".into(),
            message: format!(
                "The load average was {load:.2} on {} cores when the run started: other work was competing for the CPU. Re-run on an idle machine.",
                env.cores
            ),
        });
    }
    if let Some(load) = env.load.as_ref().filter(|l| l.contended()) {
        out.push(Warning {
            kind: "busy_during_run".into(),
            message: busy_during_run(load),
        });
    }
    if let Some(g) = env.cpu_governor.as_deref().filter(|g| *g != "performance") {
        out.push(Warning {
            kind: "cpu_governor".into(),
            message: format!(
                "The CPU frequency governor is '{g}', so clock speed varies with load. For stable timings set it to 'performance' (e.g. `cpupower frequency-set -g performance`)."
            ),
        });
    }
    out
}

/// What others took of the machine while the run went, and what to do.
fn busy_during_run(load: &crate::results::RunLoad) -> String {
    let mut seen = Vec::new();
    if let (Some(share), Some(cpus)) = (load.others_share, load.cpus) {
        seen.push(format!(
            "other processes took {:.0}% of the machine's CPU time ({:.2} of {cpus} CPUs on average)",
            share * 100.0,
            share * cpus as f64
        ));
    }
    if let Some(steal) = load.steal_share.filter(|s| *s >= crate::environment::STEAL_WARN) {
        seen.push(format!(
            "the hypervisor gave {:.0}% of it to other guests (steal)",
            steal * 100.0
        ));
    }
    let loads = match (load.load_min, load.load_median, load.load_max) {
        (Some(lo), Some(mid), Some(hi)) => format!("; the 1-minute load average ran {lo:.2}–{hi:.2} (median {mid:.2})"),
        _ => String::new(),
    };
    format!(
        "During the run {}{loads}: the timings competed for the CPU, and differences smaller than that competition moved them are not settled. Re-run on a quieter machine.",
        seen.join(", and ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::compare;
    use crate::judge::compare_in;
    use crate::results::Samples;

    fn cell(name: &str, wall: &[u64], outcome: Outcome) -> Cell {
        Cell {
            outcome,
            payload_bytes: Some(1_000_000),
            started_at: Some("t".into()),
            ..Cell::of_samples(
                name,
                Samples {
                    wall_ns: wall.to_vec().into(),
                    user_ns: wall.to_vec().into(),
                    sys_ns: vec![0; wall.len()].into(),
                    max_rss_bytes: vec![5; wall.len()].into(),
                    ..Default::default()
                },
            )
        }
    }

    fn with_stats(mut c: Cell) -> Cell {
        c.stats = cell_stats(&c, &AnalysisSettings::default());
        c
    }

    #[test]
    fn too_few_runs_for_any_verdict_are_said_so() {
        let fixture: Results = serde_json::from_str(include_str!("../../tests/fixtures/hostile-results.json")).unwrap();
        let with_runs = |n: usize| {
            let mut r = fixture.clone();
            for c in r.cells.iter_mut().filter(|c| c.outcome == Outcome::Ok) {
                // The non-baseline implementation is ten times slower on every run.
                let base = if c.implementation == "plain" { 100 } else { 1000 };
                let wall: Vec<u64> = (0..n as u64).map(|i| base + i).collect();
                c.samples = cell("x", &wall, Outcome::Ok).samples;
            }
            analyze(&mut r, &[]);
            r
        };
        let few = with_runs(5);
        let slowest = |r: &Results| {
            r.comparisons
                .iter()
                .filter(|c| c.verdict != Verdict::Baseline)
                .map(|c| c.verdict)
                .collect::<Vec<_>>()
        };
        assert!(slowest(&few).iter().all(|v| *v == Verdict::Unknown));
        assert!(few.warnings.iter().any(|w| w.kind == "too_few_runs"));
        let enough = with_runs(6);
        assert!(slowest(&enough).iter().all(|v| *v == Verdict::Slower));
        assert!(!enough.warnings.iter().any(|w| w.kind == "too_few_runs"));
    }

    #[test]
    fn stats_only_for_ok_cells() {
        let s = cell_stats(&cell("a", &[10, 20, 30], Outcome::Ok), &AnalysisSettings::default()).unwrap();
        assert_eq!((s.median_ns, s.n, s.max_rss_bytes), (20.0, 3, Some(5)));
        assert_eq!(s.throughput_bytes_per_s, Some(1_000_000.0 / 20e-9));
        // Three runs are too few for an interval of the median; six are enough.
        assert_eq!((s.ci_low_ns, s.ci_high_ns, s.mean_ci_low_ns), (None, None, None));
        let s = cell_stats(
            &cell("a", &[10, 20, 30, 15, 25, 20], Outcome::Ok),
            &AnalysisSettings::default(),
        )
        .unwrap();
        assert!(s.ci_low_ns.unwrap() <= 20.0 && s.ci_high_ns.unwrap() >= 20.0);
        assert_eq!(
            cell_stats(&cell("b", &[10], Outcome::Timeout), &AnalysisSettings::default()),
            None
        );
    }

    #[test]
    fn named_baseline_or_fastest() {
        let a = with_stats(cell("a", &[100, 100], Outcome::Ok));
        let b = with_stats(cell("b", &[50, 50], Outcome::Ok));
        let failed = cell("c", &[], Outcome::Failed);
        let cells = vec![&a, &b, &failed];
        assert_eq!(baseline_of(&cells, Some("a")).unwrap().implementation, "a");
        assert_eq!(baseline_of(&cells, None).unwrap().implementation, "b");
        assert!(baseline_of(&cells, Some("c")).is_none());
    }

    #[test]
    fn paired_comparison_of_a_clear_difference() {
        let base = with_stats(cell(
            "base",
            &[100, 102, 98, 101, 99, 100, 103, 97, 100, 101],
            Outcome::Ok,
        ));
        let slow = with_stats(cell(
            "slow",
            &[130, 133, 127, 131, 129, 130, 134, 126, 130, 131],
            Outcome::Ok,
        ));
        let c = compare_in(Metric::Wall, &slow, &base, true, &AnalysisSettings::default()).unwrap();
        assert_eq!(c.verdict, Verdict::Slower);
        assert!(c.ci_low.unwrap() > 1.25 && c.ci_high.unwrap() < 1.35, "{c:?}");
        assert_eq!(
            compare(&base, &base, true, &AnalysisSettings::default())
                .unwrap()
                .verdict,
            Verdict::Baseline
        );
    }

    #[test]
    fn warnings_for_noise_and_slow_first_run() {
        let c = with_stats(cell("a", &[300, 100, 100, 101, 99], Outcome::Ok));
        let quiet = with_stats(cell("b", &[100, 100, 101, 99], Outcome::Ok));
        let warnings = cell_warnings(&[c.clone(), quiet.clone(), c]);
        let kinds: Vec<&str> = warnings.iter().map(|w| w.kind.as_str()).collect();
        assert_eq!(kinds, ["high_variation", "slow_first_run"]);
        assert!(warnings[0].message.starts_with("2 cell(s)"));
        assert!(cell_warnings(&[quiet]).is_empty());
    }

    #[test]
    fn warm_up_leaking_into_the_measurement_is_flagged() {
        let mut series: Vec<u64> = (0..6).map(|i| 400 - 40 * i).collect();
        series.extend(std::iter::repeat_n(100, 24));
        let mut c = cell("jit", &series, Outcome::Ok);
        c.warmup_wall_ns = vec![500, 450];
        let c = with_stats(c);
        let kinds: Vec<&str> = cell_flags(&c).iter().map(|f| f.0).collect();
        assert!(kinds.contains(&"warmup_in_measurement"), "{kinds:?}");
    }

    /// Simulated paired series with shared drift: (a, b) where a is `shift`
    /// slower, sampled until adaptive sampling (1% precision, at least 10 runs)
    /// is satisfied for both, as the scheduler would.
    fn adaptive_pair(rng: &mut rand_chacha::ChaCha8Rng, shift: f64) -> (Cell, Cell) {
        use crate::runner::precise;
        use rand_distr::{Distribution, LogNormal};
        let noise = LogNormal::new(0.0, 0.02).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for i in 0..300u32 {
            let drift = 1.0 + 0.1 * (f64::from(i) / 50.0).sin();
            a.push((1e6 * shift * drift * noise.sample(rng)) as u64);
            b.push((1e6 * drift * noise.sample(rng)) as u64);
            let per = |x: &[u64]| x.iter().map(|v| *v as f64).collect::<Vec<f64>>();
            if a.len() >= 10 && precise(&per(&a), 0.01) && precise(&per(&b), 0.01) {
                break;
            }
        }
        (
            with_stats(cell("a", &a, Outcome::Ok)),
            with_stats(cell("b", &b, Outcome::Ok)),
        )
    }

    #[test]
    fn a_3_percent_shift_is_found_and_a_a_is_not_at_adaptive_sample_sizes() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let s = AnalysisSettings::default();
        let trials = 200;
        let found = (0..trials)
            .filter(|_| {
                let (a, b) = adaptive_pair(&mut rng, 1.03);
                compare(&a, &b, true, &s).unwrap().verdict == Verdict::Slower
            })
            .count();
        assert!(
            found as f64 >= 0.9 * trials as f64,
            "3% shift found in {found} of {trials}"
        );
        let wrong = (0..trials)
            .filter(|_| {
                let (a, b) = adaptive_pair(&mut rng, 1.0);
                matches!(
                    compare(&a, &b, true, &s).unwrap().verdict,
                    Verdict::Faster | Verdict::Slower
                )
            })
            .count();
        assert!(
            wrong as f64 <= 0.05 * trials as f64,
            "A/A called different in {wrong} of {trials}"
        );
    }

    #[test]
    fn machine_warnings() {
        let env = Environment {
            cores: 2,
            load_average: Some(3.5),
            cpu_governor: Some("powersave".into()),
            ..Default::default()
        };
        let kinds: Vec<String> = environment_warnings(&env).into_iter().map(|w| w.kind).collect();
        assert_eq!(kinds, ["busy_machine", "cpu_governor"]);
    }

    #[test]
    fn others_taking_a_real_share_during_the_run_is_a_warning() {
        use crate::results::RunLoad;
        let load = |others: f64| RunLoad {
            samples: 10,
            every_s: 2.0,
            load_min: Some(0.8),
            load_median: Some(2.1),
            load_max: Some(3.4),
            cpus: Some(2),
            busy_share: Some(0.9),
            own_share: Some(0.9 - others),
            others_share: Some(others),
            steal_share: Some(0.0),
        };
        let warned = |others: f64| {
            let env = Environment {
                load: Some(load(others)),
                ..Default::default()
            };
            environment_warnings(&env)
                .into_iter()
                .find(|w| w.kind == "busy_during_run")
        };
        let w = warned(0.23).unwrap();
        assert!(
            w.message.contains("23% of the machine's CPU time (0.46 of 2 CPUs"),
            "{}",
            w.message
        );
        assert!(w.message.contains("0.80–3.40 (median 2.10)"), "{}", w.message);
        assert!(warned(0.02).is_none());
    }
}
