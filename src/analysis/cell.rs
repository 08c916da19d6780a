//! One cell's statistics: its time per call (median with an interval over
//! its segments, mean with a bootstrap interval, spread, outliers, steady
//! state, stability), CPU time and peak memory, and the same statistics of
//! its instructions where they were counted. A cell may hold 100,000 runs:
//! they are turned into one series once, and sorted in place once the
//! statistics that need their order are done.

use super::STEADY_TOLERANCE;
use crate::base::metric::Metric;
use crate::base::outcome::Outcome;
use crate::judge;
use crate::results::{AnalysisSettings, Cell, Levels, MetricStats, Stats, SteadyState};
use crate::results::{metric_stats, view_cell};
use crate::stats::bootstrap::{self, seed_for};
use crate::stats::order::MIN_SAMPLES_95;
use crate::stats::steady::{self, Steady};
use crate::stats::{self, robust, summarize};

/// The cell's whole series per call, warm-up first: for in-process cells the
/// warm-up batches are divided by the cell's batch size.
fn whole_series(cell: &Cell) -> Vec<f64> {
    let mut series = cell.lead_in_per_call_ns();
    cell.samples.per_call_into(&mut series);
    series
}

/// The median of integer figures (CPU times), from one sorted copy.
fn median_of(xs: impl ExactSizeIterator<Item = u64>) -> Option<f64> {
    if xs.len() == 0 {
        return None;
    }
    let mut s: Vec<f64> = xs.map(|x| x as f64).collect();
    s.sort_unstable_by(f64::total_cmp);
    Some(stats::summary::median_of_sorted(&s))
}

/// The cell's peak memory and whether it is only an upper bound. A run's
/// figure above its floor (the starting process's own peak, which `wait4`
/// cannot go under) is exact; one at the floor only says "at most this".
/// With a command's peak taken as the same on every run, the answer is the
/// largest exact figure (warm-up runs, started by the small spawn helper, are
/// usually exact), else the smallest bound.
fn peak_memory(samples: &crate::results::Samples) -> (Option<u64>, bool) {
    if let Some(worker) = samples.worker_max_rss_bytes {
        return (Some(worker), false);
    }
    let slack = crate::exec::RSS_FLOOR_SLACK.0;
    // Walked twice rather than collected: a cell may hold 100,000 runs.
    let runs = || {
        let warmup = samples.warmup_max_rss_bytes.iter().zip(&samples.warmup_rss_floor_bytes);
        samples
            .max_rss_bytes
            .iter()
            .zip(samples.rss_floor_bytes.iter())
            .chain(warmup.map(|(rss, floor)| (*rss, *floor)))
    };
    let exact = runs().filter(|(rss, floor)| *rss > floor + slack).map(|(rss, _)| rss);
    if let Some(m) = exact.max() {
        return (Some(m), false);
    }
    if let Some(m) = runs().map(|(rss, _)| rss).min() {
        return (Some(m), true);
    }
    // Results written before floors were recorded: the largest figure as it is.
    (samples.max_rss_bytes.iter().max(), false)
}

/// The cell's median on the log scale with its interval over its segments.
/// The interval is of the log median, so it turns into one of the median by
/// `exp` (medians commute with monotone maps); the center is recomputed in
/// nanoseconds by the caller, which keeps an even count's midpoint exact.
fn median_estimate(cell: &Cell, per_call: &[f64], level: f64) -> Option<judge::LogEstimate> {
    if per_call.iter().any(|x| *x <= 0.0) {
        return None;
    }
    let logs: Vec<f64> = per_call.iter().map(|x| x.ln()).collect();
    judge::estimate_owned(logs, &cell.segment_lengths(), level)
}

/// Statistics of an ok cell with at least one sample.
pub fn cell_stats(cell: &Cell, settings: &AnalysisSettings) -> Option<Stats> {
    if cell.outcome != Outcome::Ok {
        return None;
    }
    // One series, warm-up first, and the measured runs as its tail: a cell
    // of 100,000 runs is not copied once per statistic. What needs the runs
    // in order comes first; then they are sorted in place for the rest.
    let mut series = whole_series(cell);
    let first = series.len() - cell.samples.len();
    let per_call = &series[first..];
    let wall = summarize(per_call)?;
    let outliers = robust::outliers(per_call);
    let unstable = crate::judge::assess(per_call, &cell.segment_lengths());
    let calls: u64 = cell.samples.iterations.iter().sum();
    let per_call_of = |xs: &[u64]| {
        (calls > 0 && xs.len() == cell.samples.iterations.len()).then(|| xs.iter().sum::<u64>() as f64 / calls as f64)
    };
    let seed = seed_for(&cell.id);
    let peak = peak_memory(&cell.samples);
    let median_est = median_estimate(cell, per_call, settings.confidence);
    let median_ci = median_est
        .as_ref()
        .and_then(|e| e.interval)
        .map(|(lo, hi)| (lo.exp(), hi.exp()));
    let (steady_from, steady_state) = match steady::steady_state(&series, STEADY_TOLERANCE) {
        Steady::From(k) => (Some(k), SteadyState::Reached),
        Steady::NotReached => (None, SteadyState::NotReached),
        Steady::Unknown => (None, SteadyState::Unknown),
    };
    series[first..].sort_unstable_by(f64::total_cmp);
    let sorted = &series[first..];
    let mean_ci = (sorted.len() >= MIN_SAMPLES_95)
        .then(|| bootstrap::intervals_of_sorted(sorted, settings.confidence, seed))
        .flatten()
        .map(|(_, mean)| mean);
    Some(Stats {
        n: wall.n,
        mean_ns: wall.mean,
        median_ns: wall.median,
        stddev_ns: wall.stddev,
        min_ns: wall.min,
        max_ns: wall.max,
        throughput_bytes_per_s: cell.payload_bytes.and_then(|b| stats::throughput(b, wall.median)),
        median_user_ns: median_of(cell.samples.user_ns.iter()),
        median_sys_ns: median_of(cell.samples.sys_ns.iter()),
        max_rss_bytes: peak.0,
        max_rss_at_most: peak.1,
        ci_low_ns: median_ci.map(|i| i.0),
        ci_high_ns: median_ci.map(|i| i.1),
        levels: median_est.filter(|e| e.segments > 1).map(|e| Levels {
            modes: super::segment_modes(cell).map(|m| crate::results::SegmentModes {
                slow: m.slow.len(),
                of: m.of,
                ratio: m.ratio,
            }),
            ..Levels::of(&e)
        }),
        mean_ci_low_ns: mean_ci.map(|i| i.low),
        mean_ci_high_ns: mean_ci.map(|i| i.high),
        outliers,
        steady_from,
        steady_state,
        alloc_bytes_per_call: per_call_of(&cell.samples.alloc_bytes),
        gc_per_call: per_call_of(&cell.samples.gc_count),
        // Set for the whole group at once (`judge::carryover`): its tests share one level.
        carry_over: None,
        instructions: None,
        repeatability: None,
        unstable,
    })
}

/// The cell's statistics in `metric` (other than wall time), from its
/// counted runs: the same statistics as its time's, per call.
pub fn metric_cell_stats(cell: &Cell, metric: Metric, settings: &AnalysisSettings) -> Option<MetricStats> {
    let mut view = view_cell(cell, metric)?;
    view.stats = None;
    let s = cell_stats(&view, settings)?;
    Some(metric_stats(&s, &view.samples.per_call_ns()))
}

/// Sets the cell's statistics: its time's, and its instructions' where counted.
pub fn fill_stats(cell: &mut Cell, settings: &AnalysisSettings) {
    cell.stats = stats_of(cell, settings);
}

/// The cell's statistics as `fill_stats` sets them.
pub(super) fn stats_of(cell: &Cell, settings: &AnalysisSettings) -> Option<Stats> {
    let mut stats = cell_stats(cell, settings);
    let counted = cell
        .samples
        .counted()
        .then(|| metric_cell_stats(cell, Metric::Instructions, settings))
        .flatten();
    if let Some(s) = stats.as_mut() {
        s.instructions = counted;
    }
    stats
}
