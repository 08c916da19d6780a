//! A change the machine or the group shares is not the cell's.
//!
//! Between two runs the machine itself can change: a neighbour starts, the
//! host moves the VM, the CPU clocks down. Measured on this project's 2-core
//! VM (issue 41), a busy neighbour during every other run made most
//! unchanged cells read "slower" then "faster", and a user's second run
//! called 13 of 16 unchanged cells faster. Until a cell has history enough
//! to learn its run-to-run noise and its ratio to its group
//! (`history::judge::relative`, from `noise::MIN_RUNS` runs), two references say
//! what the machine did:
//!
//! - **the group**: the other implementations of the cell's group took
//!   turns with it in both runs; the cell's ratio to them (round by round,
//!   `relative::within`) carries little of what they shared;
//! - **the machine's speed**: a fixed workload versus times between rounds
//!   (`exec::speed`), which every cell has, a suite of one command too.
//!
//! A change is called only when it also stands beyond each reference that
//! is known — the same verdict on its log change less the reference's,
//! intervals combined — and is otherwise `unknown`, saying what moved. The
//! references only ever withhold a verdict, never make one: a cell that
//! does not follow the CPU workload (one that waits on a disk) is not
//! called changed because the machine sped up.

use std::collections::HashMap;

use super::noise::Level;
use super::relative::{self, Cells, From, Reference};
use crate::judge::unpaired;
use crate::judge::{self, LogEstimate};
use crate::results::{AnalysisSettings, Cell, Comparison, RunNoise, SpeedReadings, Verdict};
use crate::results::{NoiseSource, SharedBy, SharedShift};

/// Readings each run needs for the machine's change to be judged.
pub(crate) const MIN_READINGS: usize = 3;

/// The machine's change between two runs, log(now / before) of its speed
/// readings' medians with their intervals combined; `None` when either run
/// has too few readings or they timed different workloads.
pub(crate) fn machine_shift(
    old: Option<&SpeedReadings>,
    new: Option<&SpeedReadings>,
    level: f64,
) -> Option<LogEstimate> {
    let (old, new) = (old?, new?);
    if old.workload != new.workload || old.samples_ns.len() < MIN_READINGS || new.samples_ns.len() < MIN_READINGS {
        return None;
    }
    Some(unpaired(
        &readings_estimate(&new.samples_ns, level)?,
        &readings_estimate(&old.samples_ns, level)?,
    ))
}

/// One run's speed readings as a log estimate: the median with its
/// order-statistic interval, or, with too few readings for one at `level`
/// (under 6 at 95%), the readings' whole range — which holds the median
/// 1 − 2·0.5ⁿ of the time (94% with 5, 88% with 4). A reading is ~16 ms,
/// so a short run affords only a few.
fn readings_estimate(samples: &[u64], level: f64) -> Option<LogEstimate> {
    let logs: Vec<f64> = samples.iter().map(|&x| (x.max(1) as f64).ln()).collect();
    let mut est = judge::estimate_owned(logs.clone(), &[logs.len()], level)?;
    if est.interval.is_none() {
        let lo = logs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        est.interval = Some((lo, hi));
    }
    Some(est)
}

/// A change as a log estimate.
fn as_estimate(c: &Comparison) -> LogEstimate {
    LogEstimate {
        center: c.ratio.ln(),
        interval: c.ci_low.zip(c.ci_high).map(|(lo, hi)| (lo.ln(), hi.ln())),
        n: c.n,
        segments: 1,
        between_share: None,
        widened: false,
    }
}

/// Of a change, the share the machine's own change must reach, in the
/// same direction, for the change not to be called whatever is left
/// beyond it: a busy machine slows work unevenly (measured on 2 cores
/// under two busy loops: the speed reference 2.1x slower, CPU loops of
/// 10–120 ms 3.1x), so what is left is not the cell's own.
pub(crate) const MACHINE_SHARE: f64 = 0.5;

/// `change` beyond the machine's own change `machine`: its log change less
/// the machine's, intervals combined, and `unknown` where the machine moved
/// beyond its own interval the same way by at least `MACHINE_SHARE` of it.
pub(crate) fn beyond_machine(change: &Comparison, machine: &LogEstimate, band: f64) -> SharedShift {
    let own = as_estimate(change);
    let beyond = unpaired(&own, machine);
    let mut s = shared(SharedBy::Machine, Vec::new(), machine.center, &beyond, band);
    let moved = crate::judge::decide(machine, band).is_change();
    if moved && own.center != 0.0 && machine.center / own.center >= MACHINE_SHARE {
        s.verdict = Verdict::Unknown;
    }
    s
}

/// `new`'s change since `old` beside the other implementations of its
/// group measured in both runs (`others`, cell ids): its ratio to their
/// median now against the same ratio then, each run's interval from its
/// own rounds. `None` without others or paired rounds.
pub(crate) fn beyond_group(
    (new, old): (&Cell, &Cell),
    others: &[String],
    now: (&HashMap<&str, f64>, &Cells<'_>),
    then: (&HashMap<&str, f64>, &Cells<'_>),
    change: &Comparison,
    settings: &AnalysisSettings,
) -> Option<SharedShift> {
    if others.is_empty() {
        return None;
    }
    // A reference with no learned noise: only the runs' own intervals count.
    let reference = Reference {
        against: others.to_vec(),
        noise: RunNoise {
            sigma: 0.0,
            runs: 1,
            source: NoiseSource::Cell,
        },
        level: Level {
            log_median: 0.0,
            runs: 1,
        },
    };
    let (c, _) = relative::change_beside((new, old), &[reference], now, From::Run(then.0, then.1), settings)?;
    let beyond = as_estimate(&c);
    let band = (1.0 + settings.noise).ln();
    Some(shared(
        SharedBy::Group,
        others.to_vec(),
        change.ratio.ln() - beyond.center,
        &beyond,
        band,
    ))
}

fn shared(by: SharedBy, with: Vec<String>, shift: f64, beyond: &LogEstimate, band: f64) -> SharedShift {
    SharedShift {
        by,
        with,
        shift: shift.exp(),
        beyond: beyond.center.exp(),
        beyond_low: beyond.interval.map(|i| i.0.exp()),
        beyond_high: beyond.interval.map(|i| i.1.exp()),
        verdict: crate::judge::decide(beyond, band),
    }
}

/// Withholds `change`'s verdict when a reference explains it: `faster` or
/// `slower` stands only where the change beyond every reference in
/// `shared` reads the same. Returns whether it was withheld.
pub(crate) fn withhold(change: &mut Comparison, shared: &[SharedShift]) -> bool {
    if !matches!(change.verdict, Verdict::Slower | Verdict::Faster) {
        return false;
    }
    let Some(s) = shared.iter().find(|s| s.verdict != change.verdict) else {
        return false;
    };
    change.note = Some(explain(s));
    change.reason = Some(match s.by {
        SharedBy::Machine => crate::results::Reason::MachineMoved,
        SharedBy::Group => crate::results::Reason::GroupMoved,
    });
    change.verdict = Verdict::Unknown;
    true
}

pub(crate) use crate::results::{GROUP_MOVED, MACHINE_MOVED};

/// Why a change was withheld, for the reader.
pub(crate) fn explain(s: &SharedShift) -> String {
    let how = |r: f64| {
        if r >= 1.0 {
            format!("{:.0}% slower", (r - 1.0) * 100.0)
        } else {
            format!("{:.0}% faster", (1.0 / r - 1.0) * 100.0)
        }
    };
    match s.by {
        SharedBy::Machine => format!(
            "{MACHINE_MOVED}: versus's speed reference ran {} than at that run",
            how(s.shift)
        ),
        SharedBy::Group => format!("{GROUP_MOVED} of its group ({}: {})", s.with.join(", "), how(s.shift)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readings(center: u64, n: u64) -> SpeedReadings {
        SpeedReadings {
            workload: "w".into(),
            samples_ns: (0..n).map(|i| center + (i * 7) % 5).collect(),
        }
    }

    fn change(ratio: f64, lo: f64, hi: f64) -> Comparison {
        let mut c: Comparison = serde_json::from_value(serde_json::json!({
            "implementation": "a", "baseline": "a", "operation": "x", "params": {},
            "ratio": ratio, "ci_low": lo, "ci_high": hi, "verdict": "slower", "paired": false
        }))
        .unwrap();
        c.verdict = if ratio > 1.0 { Verdict::Slower } else { Verdict::Faster };
        c
    }

    #[test]
    fn a_change_the_machine_shares_is_withheld_and_one_beyond_it_stands() {
        let s = AnalysisSettings::default();
        let band = (1.0 + s.noise).ln();
        let machine = machine_shift(Some(&readings(1000, 9)), Some(&readings(1350, 9)), s.confidence).unwrap();
        assert!((machine.center.exp() - 1.35).abs() < 0.01, "{machine:?}");
        let mut moved = change(1.36, 1.30, 1.42);
        let held = beyond_machine(&moved, &machine, band);
        assert!(withhold(&mut moved, &[held]));
        assert_eq!(moved.verdict, Verdict::Unknown);
        assert!(moved.note.unwrap().contains("35% slower"));
        let mut more = change(2.0, 1.9, 2.1);
        let beyond = beyond_machine(&more, &machine, band);
        assert!(!withhold(&mut more, &[beyond]));
        assert_eq!(more.verdict, Verdict::Slower);
    }

    #[test]
    fn a_machine_that_moved_half_as_much_the_same_way_leaves_the_change_uncalled() {
        let s = AnalysisSettings::default();
        let band = (1.0 + s.noise).ln();
        let machine = machine_shift(Some(&readings(1000, 9)), Some(&readings(2100, 9)), s.confidence).unwrap();
        let mut busy = change(3.1, 2.9, 3.3);
        let held = beyond_machine(&busy, &machine, band);
        assert!(held.beyond > 1.4, "{held:?}");
        assert!(withhold(&mut busy, &[held]));
        // Ten times slower on a machine 2.1x slower: the cell changed.
        let mut ten = change(10.0, 9.5, 10.5);
        let beyond = beyond_machine(&ten, &machine, band);
        assert!(!withhold(&mut ten, &[beyond]));
    }

    #[test]
    fn a_faster_machine_never_makes_an_unchanged_cell_slower() {
        let s = AnalysisSettings::default();
        let machine = machine_shift(Some(&readings(1000, 9)), Some(&readings(700, 9)), s.confidence).unwrap();
        let mut same = change(1.0, 0.99, 1.01);
        same.verdict = Verdict::Same;
        let held = beyond_machine(&same, &machine, (1.0 + s.noise).ln());
        assert_eq!(held.verdict, Verdict::Slower);
        assert!(!withhold(&mut same, &[held]));
        assert_eq!(same.verdict, Verdict::Same);
    }

    #[test]
    fn five_readings_of_an_unchanged_machine_leave_a_real_change_called() {
        // A short run affords 5 readings: too few for an order-statistic
        // interval, so their range stands for it (measured before: every
        // 5% change of a suite of one withheld as "moved with the machine").
        let s = AnalysisSettings::default();
        let band = (1.0 + s.noise).ln();
        let machine = machine_shift(Some(&readings(1000, 5)), Some(&readings(1001, 5)), s.confidence).unwrap();
        assert!(machine.interval.is_some(), "{machine:?}");
        let mut slower = change(1.05, 1.03, 1.07);
        let beyond = beyond_machine(&slower, &machine, band);
        assert!(!withhold(&mut slower, &[beyond]));
        assert_eq!(slower.verdict, Verdict::Slower);
        // And 5 readings of a machine twice as slow still hold a doubling back.
        let busy = machine_shift(Some(&readings(1000, 5)), Some(&readings(2000, 5)), s.confidence).unwrap();
        let mut doubled = change(2.0, 1.9, 2.1);
        let held = beyond_machine(&doubled, &busy, band);
        assert!(withhold(&mut doubled, &[held]));
    }

    #[test]
    fn readings_of_another_workload_or_too_few_say_nothing() {
        let mut other = readings(1000, 9);
        other.workload = "v".into();
        assert!(machine_shift(Some(&readings(1000, 9)), Some(&other), 0.95).is_none());
        assert!(machine_shift(Some(&readings(1000, 2)), Some(&readings(1000, 9)), 0.95).is_none());
        assert!(machine_shift(None, Some(&readings(1000, 9)), 0.95).is_none());
    }
}
