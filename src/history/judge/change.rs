//! A cell's change between two runs: the one rule `versus diff`, the
//! change-since table of every report, `--fail-above` and `versus trend`
//! share.
//!
//! Two runs are never side by side, so the change is the ratio of the two
//! medians, with an interval from both cells' own intervals
//! (`compare::unpaired`). That interval covers the variation inside each run
//! only; the run-to-run noise of the cell (`noise`), when known, widens it
//! to at least what two runs of an unchanged cell differ by: ±t·√2·σ, t
//! Student's quantile for the runs the noise was learned from. The verdict is
//! then read off the widened interval as every other verdict is
//! (`verdict::decide`): `slower` or `faster` only when the change exceeds
//! both its interval and the noise; `unknown` — "within run-to-run noise" —
//! when it does not; `same` only when even the noise is inside the band.
//!
//! A change since the last runs is measured from the cell's level (`Level`:
//! the median of its last few runs) rather than from one run: the center
//! moves to the level, and the noise term shrinks from √2·σ (two runs, each
//! with its noise) to σ·√(1 + the level's share).

use crate::base::metric::Metric;
use crate::history::judge::noise::Level;
use crate::judge::{LogEstimate, t_quantile};
use crate::judge::{from_estimate, log_estimate, unpaired};
use crate::results::NoiseSource as Source;
use crate::results::RunNoise;
use crate::results::view_cell;
use crate::results::{AnalysisSettings, Cell, Comparison, Verdict};

/// The half-width (log units) run-to-run noise alone gives a change at
/// `level` between one run and one earlier run.
pub(crate) fn noise_half_width(noise: &RunNoise, level: f64) -> f64 {
    reference_half_width(noise, level, 1.0)
}

/// The same against a reference whose variance is `share` of one run's
/// (`Level::variance_share`; 1 for a single earlier run).
pub(crate) fn reference_half_width(noise: &RunNoise, level: f64, share: f64) -> f64 {
    let df = noise.runs.saturating_sub(1).max(1) as f64;
    t_quantile(level, df) * (1.0 + share).sqrt() * noise.sigma
}

/// `est` with its interval widened to at least ±`half` around its center.
pub(crate) fn widen(mut est: LogEstimate, half: f64) -> LogEstimate {
    if let Some((lo, hi)) = est.interval {
        est.interval = Some((lo.min(est.center - half), hi.max(est.center + half)));
    }
    est
}

/// How a noise figure reads in a report: "±3.1% (12 runs of this cell)".
pub(crate) fn describe(noise: &RunNoise, level: f64) -> String {
    let pct = (noise_half_width(noise, level).exp() - 1.0) * 100.0;
    let whose = match noise.source {
        Source::Cell => "of this cell",
        Source::Machine => "of this machine's cells",
    };
    format!("±{pct:.1}% ({} runs {whose})", noise.runs)
}

/// `new` against `old` (the same cell in two runs, both analysed), with
/// the cell's run-to-run noise when it is known; measured from `reference`
/// (the cell's level over its last runs, `old` among them) when given.
pub(crate) fn change(
    new: &Cell,
    old: &Cell,
    noise: Option<&RunNoise>,
    reference: Option<&Level>,
    settings: &AnalysisSettings,
) -> Option<Comparison> {
    let (sn, so) = (new.stats.as_ref()?, old.stats.as_ref()?);
    let center = match reference {
        Some(level) => sn.median_ns.ln() - level.log_median,
        None => sn.median_ns.ln() - so.median_ns.ln(),
    };
    let share = reference.map_or(1.0, Level::variance_share);
    judged(new, old, center, noise.map(|n| (n, share)), settings)
}

/// A change of log size `center` between the runs of `new` and `old`: the
/// interval the two runs' own intervals give, moved to `center`, widened to
/// the run-to-run noise (with the reference's share of it) when known, and
/// the verdict read off it. Also the judge of a ratio beside the others of a
/// group (`history::judge::relative`), whose runs are the cell's own.
pub(crate) fn judged(
    new: &Cell,
    old: &Cell,
    center: f64,
    noise: Option<(&RunNoise, f64)>,
    settings: &AnalysisSettings,
) -> Option<Comparison> {
    let (sn, so) = (new.stats.as_ref()?, old.stats.as_ref()?);
    let within = unpaired(&log_estimate(sn)?, &log_estimate(so)?);
    Some(judged_within(new, old, within, center, noise, settings))
}

/// `judged` with the runs' own part of the interval given: `within`, an
/// estimate whose interval is moved to `center`.
pub(crate) fn judged_within(
    new: &Cell,
    old: &Cell,
    mut est: LogEstimate,
    center: f64,
    noise: Option<(&RunNoise, f64)>,
    settings: &AnalysisSettings,
) -> Comparison {
    let shift = center - est.center;
    est.center = center;
    est.interval = est.interval.map(|(lo, hi)| (lo + shift, hi + shift));
    let within = est.interval;
    let est = match noise {
        Some((n, share)) => widen(est, reference_half_width(n, settings.confidence, share)),
        None => est,
    };
    let mut c = from_estimate(new, old, &est, false, settings);
    // Say when it was the noise, not the runs themselves, that kept it unknown.
    if let (Some((n, _)), Some((lo, hi)), Verdict::Unknown) = (noise, within, c.verdict) {
        let without = LogEstimate {
            interval: Some((lo, hi)),
            ..est.clone()
        };
        if crate::judge::decide(&without, (1.0 + settings.noise).ln()) != Verdict::Unknown {
            c.note = Some(format!("within run-to-run noise {}", describe(n, settings.confidence)));
            c.reason = Some(crate::results::Reason::WithinNoise {
                band: noise_half_width(n, settings.confidence).exp() - 1.0,
            });
        }
    }
    c
}

/// A step in a cell's history (`versus trend`): the log medians of the
/// runs before it and after it, against the cell's run-to-run noise `sigma`
/// (log units, learned from `runs` runs). The step's interval is Student's
/// t over the two levels' means, and the verdict is read off it as every
/// verdict is: a change only when the interval excludes none and the step
/// passes the noise floor.
pub(crate) fn step(before: &[f64], after: &[f64], sigma: f64, runs: usize, settings: &AnalysisSettings) -> Verdict {
    if before.is_empty() || after.is_empty() {
        return Verdict::Unknown;
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let center = mean(after) - mean(before);
    let se = sigma * (1.0 / before.len() as f64 + 1.0 / after.len() as f64).sqrt();
    let half = t_quantile(settings.confidence, runs.saturating_sub(2).max(1) as f64) * se;
    let est = LogEstimate {
        center,
        interval: Some((center - half, center + half)),
        n: before.len() + after.len(),
        segments: 1,
        between_share: None,
        widened: false,
    };
    crate::judge::decide(&est, (1.0 + settings.noise).ln())
}

/// `new` against `old` (the same cell in two runs, both analysed) in
/// `metric`: wall time as `change::change` judges it, against the cell's
/// run-to-run `noise` when known and from its `reference` level when
/// given; another metric by the same rule on both
/// cells' views, with that metric's band (counts move between runs no more
/// than between the runs of one cell, which the band already holds).
pub(crate) fn change_in(
    metric: Metric,
    new: &Cell,
    old: &Cell,
    noise: Option<&RunNoise>,
    reference: Option<&Level>,
    settings: &AnalysisSettings,
) -> Option<Comparison> {
    if metric == Metric::Wall {
        return change(new, old, noise, reference, settings);
    }
    let (n, o) = (view_cell(new, metric)?, view_cell(old, metric)?);
    let mut c = change(&n, &o, None, None, &settings.for_metric(metric))?;
    c.metric = metric;
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Results, Samples};

    fn cell(id: &str, wall: &[u64]) -> Cell {
        let mut r: Results =
            serde_json::from_str(include_str!("../../../tests/fixtures/hostile-results.json")).unwrap();
        let mut c = r.cells.remove(0);
        c.id = id.into();
        c.samples = Samples {
            wall_ns: wall.to_vec().into(),
            ..Default::default()
        };
        c.segments.clear();
        c.stats = crate::analysis::cell_stats(&c, &AnalysisSettings::default());
        c
    }

    fn around(center: u64, n: u64) -> Vec<u64> {
        (0..n).map(|i| center - 2 + (i * 7) % 5).collect()
    }

    #[test]
    fn a_change_must_exceed_the_noise_as_well_as_its_interval() {
        let s = AnalysisSettings::default();
        let old = cell("a", &around(1000, 20));
        let new = cell("a", &around(1040, 20));
        // Tight runs, no history: +4% is called.
        assert_eq!(change(&new, &old, None, None, &s).unwrap().verdict, Verdict::Slower);
        // With ±3% run-to-run noise learned from 10 runs, +4% is within it.
        let noise = RunNoise {
            sigma: 0.03,
            runs: 10,
            source: Source::Cell,
        };
        let c = change(&new, &old, Some(&noise), None, &s).unwrap();
        assert_eq!(c.verdict, Verdict::Unknown);
        // The reason as a type carries the band the note gives in words.
        let Some(crate::results::Reason::WithinNoise { band }) = c.reason else {
            panic!("{c:?}")
        };
        let note = c.note.unwrap();
        assert!(
            note.starts_with(&format!("within run-to-run noise ±{:.1}% (", band * 100.0)),
            "{note}"
        );
        // A +30% change clears it.
        let big = cell("a", &around(1300, 20));
        assert_eq!(
            change(&big, &old, Some(&noise), None, &s).unwrap().verdict,
            Verdict::Slower
        );
    }

    #[test]
    fn a_change_from_the_level_of_the_last_runs_is_narrower_and_centred_on_it() {
        let s = AnalysisSettings::default();
        let noise = RunNoise {
            sigma: 0.02,
            runs: 20,
            source: Source::Cell,
        };
        // The last run happened to be 3% fast; the level of five runs is 1000.
        let old = cell("a", &around(970, 20));
        let new = cell("a", &around(1060, 20));
        let level = Level {
            log_median: 1000f64.ln(),
            runs: 5,
        };
        let from_run = change(&new, &old, Some(&noise), None, &s).unwrap();
        let from_level = change(&new, &old, Some(&noise), Some(&level), &s).unwrap();
        assert!((from_level.ratio - 1.06).abs() < 1e-3, "{from_level:?}");
        let width = |c: &Comparison| (c.ci_high.unwrap() / c.ci_low.unwrap()).ln();
        assert!(
            width(&from_level) < 0.85 * width(&from_run),
            "{from_level:?} {from_run:?}"
        );
        // +6% against ±2% noise: found from the level (one run's noise would need ±8%).
        assert_eq!(from_level.verdict, Verdict::Slower, "{from_level:?}");
        assert!(from_level.minimum_detectable.unwrap() < from_run.minimum_detectable.unwrap());
    }

    #[test]
    fn a_step_in_a_history_is_judged_by_the_same_rule() {
        let s = AnalysisSettings::default();
        let level = |l: f64| vec![l, l + 0.01, l - 0.01, l + 0.005, l - 0.005];
        assert_eq!(step(&level(0.0), &level(0.2), 0.01, 10, &s), Verdict::Slower);
        assert_eq!(step(&level(0.0), &level(-0.2), 0.01, 10, &s), Verdict::Faster);
        // A 1.5% step against 5% noise over two short levels: not a change.
        assert_eq!(step(&level(0.0), &level(0.015), 0.05, 10, &s), Verdict::Unknown);
    }
}
