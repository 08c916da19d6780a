//! The warning that names the comparisons other work on the machine could
//! have moved (`judge::contention`): which pairs, how many cores each used,
//! and the interval measured beside the one widened for a quiet machine.

use crate::base::params::params_key;
use crate::base::text;
use crate::results::{Comparison, Results, Warning};

/// The warning's kind.
pub(super) const KIND: &str = "load_dependent";

/// Comparisons named one by one; the rest are counted.
const NAMED: usize = 5;

/// "a parse [size=1MB] against b: a used 1.90 CPUs, b 1.00; measured
/// 0.75x [0.73, 0.78], a quiet machine could give 0.50–0.78".
fn line(c: &Comparison) -> Option<String> {
    let l = c.load_dependent?;
    let p = params_key(&c.params);
    let at = if p.is_empty() { String::new() } else { format!(" [{p}]") };
    let [r, lo, hi] = text::numbers([c.ratio, l.measured_low, l.measured_high]);
    let [_, wlo, whi] = text::numbers([c.ratio, c.ci_low?, c.ci_high?]);
    Some(format!(
        "{} {}{at} against {}: {} used {:.2} CPUs, {} {:.2}; measured {r}x [{lo}, {hi}], a quiet machine could give {wlo}–{whi}",
        c.implementation, c.operation, c.baseline, c.implementation, l.parallelism, c.baseline, l.baseline_parallelism
    ))
}

/// One warning for every load-dependent comparison of the run, if any.
pub(super) fn warning(results: &Results) -> Option<Warning> {
    let load = results.analysis.contention?;
    let lines: Vec<String> = results.comparisons.iter().filter_map(line).collect();
    if lines.is_empty() {
        return None;
    }
    let more = lines.len().saturating_sub(NAMED);
    let rest = if more > 0 {
        format!("; and {more} more")
    } else {
        String::new()
    };
    Some(Warning {
        kind: KIND.into(),
        message: format!(
            "Other work wanted {:.2} of the machine's {:.0} CPUs while the run went, and {} comparison(s) are of implementations that use different numbers of cores, which such work does not slow alike (the one that uses more cores loses more): {}{rest}. Their intervals are widened to what a quiet machine could give and only a verdict that holds across that is called; rerun on a quiet machine for the magnitude.",
            load.others_cpus,
            load.cpus,
            lines.len(),
            lines.into_iter().take(NAMED).collect::<Vec<_>>().join("; ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::metric::Metric;
    use crate::judge::judge_pair;
    use crate::results::{AnalysisSettings, Cell, Contention, RunLoad, Samples, Verdict};

    /// A process cell of 12 runs near `wall` ns that used `cpus` CPUs.
    fn cell(name: &str, wall: u64, cpus: f64) -> Cell {
        let walls: Vec<u64> = (0..12).map(|i| wall + (i * 7 % 5) * wall / 500).collect();
        let user: Vec<u64> = walls.iter().map(|w| (*w as f64 * cpus) as u64).collect();
        let mut cell = Cell::of_samples(
            name,
            Samples {
                wall_ns: walls.into(),
                user_ns: user.into(),
                sys_ns: vec![0; 12].into(),
                ..Default::default()
            },
        );
        cell.stats = crate::analysis::cell::cell_stats(&cell, &AnalysisSettings::default());
        cell
    }

    fn loaded(others: f64) -> AnalysisSettings {
        AnalysisSettings {
            contention: Some(Contention {
                cpus: 2.0,
                others_cpus: others,
            }),
            ..Default::default()
        }
    }

    #[test]
    fn a_two_thread_program_measured_beside_a_busy_loop_keeps_the_quiet_ratio_inside() {
        // As bench/contention.sh measured it: quiet, two threads take 0.51
        // of one thread's time; beside a busy loop they kept 1.2 CPUs and
        // took 0.83 of it.
        let (mt, st) = (cell("mt", 830_000, 1.2), cell("st", 1_000_000, 1.0));
        let measured = judge_pair(Metric::Wall, &mt, &st, &AnalysisSettings::default())
            .unwrap()
            .comparison;
        assert_eq!(measured.verdict, Verdict::Faster);
        assert!(measured.load_dependent.is_none());
        assert!(measured.ci_low.unwrap() > 0.8, "{measured:?}");
        let c = judge_pair(Metric::Wall, &mt, &st, &loaded(1.0)).unwrap().comparison;
        let (lo, hi) = (c.ci_low.unwrap(), c.ci_high.unwrap());
        assert!(lo <= 0.51 && 0.51 < hi, "the quiet ratio 0.51 lies in [{lo}, {hi}]");
        // The load hides how many cores each could use: not called.
        assert_eq!(c.verdict, Verdict::Unknown, "{c:?}");
        let l = c.load_dependent.unwrap();
        assert_eq!(l.measured_verdict, Verdict::Faster);
        assert_eq!(
            (l.measured_low, l.measured_high),
            (measured.ci_low.unwrap(), measured.ci_high.unwrap())
        );
        assert!((l.parallelism - 1.2).abs() < 0.01 && (l.baseline_parallelism - 1.0).abs() < 0.01);
        // Five times faster is more than the load could hide.
        let fast = cell("fast", 200_000, 1.2);
        let c = judge_pair(Metric::Wall, &fast, &st, &loaded(1.0)).unwrap().comparison;
        assert!(c.load_dependent.is_some() && c.verdict == Verdict::Faster, "{c:?}");
    }

    #[test]
    fn alike_programs_and_a_quiet_run_are_left_as_measured() {
        // Two single-threaded programs: the neighbour slows both alike.
        let (a, b) = (cell("a", 1_200_000, 1.0), cell("b", 1_000_000, 0.95));
        let c = judge_pair(Metric::Wall, &a, &b, &loaded(1.0)).unwrap().comparison;
        assert_eq!(c.verdict, Verdict::Slower);
        assert!(c.load_dependent.is_none());
        // No contention recorded: as measured.
        let (mt, st) = (cell("mt", 1_200_000, 1.9), cell("st", 1_000_000, 1.0));
        let c = judge_pair(Metric::Wall, &mt, &st, &AnalysisSettings::default())
            .unwrap()
            .comparison;
        assert!(c.load_dependent.is_none() && c.verdict == Verdict::Slower);
    }

    #[test]
    fn a_run_under_load_names_the_comparison_and_a_quiet_one_does_not() {
        let run = |load: Option<RunLoad>| {
            let mut r = Results {
                cells: vec![cell("one", 1_000_000, 1.0), cell("two", 750_000, 4.0 / 3.0)],
                ..Default::default()
            };
            r.environment.load = load;
            crate::analysis::analyze(&mut r, &[]);
            r
        };
        let busy = RunLoad {
            samples: 10,
            every_s: 2.0,
            load_min: Some(2.0),
            load_median: Some(2.1),
            load_max: Some(2.2),
            cpus: Some(2),
            busy_share: Some(0.95),
            own_share: Some(0.55),
            others_share: Some(0.4),
            steal_share: None,
        };
        let r = run(Some(busy.clone()));
        // The run queue says more than what others took: 2.1 - 1.1 = 1.0 CPU.
        let load = r.analysis.contention.unwrap();
        assert!((load.others_cpus - 1.0).abs() < 1e-9 && load.cpus == 2.0, "{load:?}");
        // The faster is the reference: one against two.
        let one = r.comparisons.iter().find(|c| c.implementation == "one").unwrap();
        assert!(one.load_dependent.is_some(), "{one:?}");
        assert!(
            one.ci_low.unwrap() <= 2.0 && 2.0 <= one.ci_high.unwrap(),
            "the quiet ratio 2 lies inside: {one:?}"
        );
        let w = r.warnings.iter().find(|w| w.kind == KIND).expect("the warning");
        assert!(
            w.message.contains("one op against two: one used 1.00 CPUs, two 1.33"),
            "{}",
            w.message
        );
        // Analysed again (as `versus report` does), once.
        let mut again = r.clone();
        crate::analysis::reanalyze(&mut again);
        assert_eq!(again.warnings.iter().filter(|w| w.kind == KIND).count(), 1);
        // Quiet: as measured, no warning.
        let quiet = run(Some(RunLoad {
            others_share: Some(0.01),
            ..busy
        }));
        assert!(quiet.analysis.contention.is_none());
        assert!(quiet.comparisons.iter().all(|c| c.load_dependent.is_none()));
        assert!(quiet.warnings.iter().all(|w| w.kind != KIND));
    }
}
