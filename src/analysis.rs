//! From samples to conclusions: per-cell statistics, comparisons against the
//! baseline, and warnings about the quality of the measurement. Pure over the
//! `Results` document; the reports only print what this computes.

use std::collections::HashMap;

use crate::outcome::Outcome;
use crate::plan::params_key;
use crate::results::{Cell, Comparison, Environment, Results, Stats, Warning};
use crate::stats::{self, summarize};

/// Coefficient of variation above which a cell is flagged as noisy.
pub const HIGH_CV: f64 = 0.10;
/// A first measured run this many times the median of the rest is flagged as warm-up leaking in.
pub const SLOW_FIRST_RUN: f64 = 1.5;

fn to_f64(xs: &[u64]) -> Vec<f64> {
    xs.iter().map(|&x| x as f64).collect()
}

/// Statistics of an ok cell with at least one sample.
pub fn cell_stats(cell: &Cell) -> Option<Stats> {
    if cell.outcome != Outcome::Ok {
        return None;
    }
    let wall = summarize(&cell.samples.per_call_ns())?;
    let median = |xs: &[u64]| summarize(&to_f64(xs)).map(|s| s.median);
    let calls: u64 = cell.samples.iterations.iter().sum();
    let per_call = |xs: &[u64]| {
        (calls > 0 && xs.len() == cell.samples.iterations.len()).then(|| xs.iter().sum::<u64>() as f64 / calls as f64)
    };
    Some(Stats {
        n: wall.n,
        mean_ns: wall.mean,
        median_ns: wall.median,
        stddev_ns: wall.stddev,
        min_ns: wall.min,
        max_ns: wall.max,
        throughput_bytes_per_s: cell.payload_bytes.and_then(|b| stats::throughput(b, wall.median)),
        median_user_ns: median(&cell.samples.user_ns),
        median_sys_ns: median(&cell.samples.sys_ns),
        max_rss_bytes: cell.samples.max_rss_bytes.iter().copied().max(),
        alloc_bytes_per_call: per_call(&cell.samples.alloc_bytes),
        gc_per_call: per_call(&cell.samples.gc_count),
    })
}

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

/// Fills in `stats`, `comparisons` and the measurement warnings. Idempotent.
pub fn analyze(results: &mut Results, extra_warnings: &[Warning]) {
    for cell in &mut results.cells {
        cell.stats = cell_stats(cell);
    }
    let mut groups: Vec<(String, Vec<&Cell>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for cell in &results.cells {
        let key = format!("{}/{}", cell.operation, params_key(&cell.params));
        let i = *index.entry(key.clone()).or_insert_with(|| {
            groups.push((key, vec![]));
            groups.len() - 1
        });
        groups[i].1.push(cell);
    }
    let mut comparisons = Vec::new();
    for (_, cells) in &groups {
        let Some(base) = baseline_of(cells, results.suite.baseline.as_deref()) else {
            continue;
        };
        let base_median = base.stats.as_ref().map_or(0.0, |s| s.median_ns);
        for c in cells {
            if let Some(s) = &c.stats
                && base_median > 0.0
            {
                comparisons.push(Comparison {
                    implementation: c.implementation.clone(),
                    baseline: base.implementation.clone(),
                    operation: c.operation.clone(),
                    params: c.params.clone(),
                    ratio: s.median_ns / base_median,
                });
            }
        }
    }
    results.comparisons = comparisons;
    let mut warnings = environment_warnings(&results.environment);
    warnings.extend(cell_warnings(&results.cells));
    warnings.extend(extra_warnings.iter().cloned());
    results.warnings = warnings;
}

fn label(cell: &Cell) -> String {
    let p = params_key(&cell.params);
    if p.is_empty() {
        format!("{} {}", cell.implementation, cell.operation)
    } else {
        format!("{} {} [{p}]", cell.implementation, cell.operation)
    }
}

/// A measurement problem found in one cell: (warning kind, what was seen).
pub fn cell_flags(cell: &Cell) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let Some(s) = &cell.stats else { return out };
    if let Some(cv) = s.stddev_ns.map(|sd| sd / s.mean_ns).filter(|cv| *cv > HIGH_CV) {
        out.push(("high_variation", format!("{} ({:.0}%)", label(cell), cv * 100.0)));
    }
    let wall = &cell.samples.wall_ns;
    if wall.len() >= 3 {
        let rest = summarize(&to_f64(&wall[1..])).map_or(0.0, |r| r.median);
        if rest > 0.0 && wall[0] as f64 > SLOW_FIRST_RUN * rest {
            out.push((
                "slow_first_run",
                format!("{} ({:.1}x)", label(cell), wall[0] as f64 / rest),
            ));
        }
    }
    out
}

/// One warning per kind of cell problem, naming every affected cell.
pub fn cell_warnings(cells: &[Cell]) -> Vec<Warning> {
    let flags: Vec<(&str, String)> = cells.iter().flat_map(cell_flags).collect();
    let mut out = Vec::new();
    for (kind, advice) in [
        (
            "high_variation",
            "runs varied by more than 10% of their mean (coefficient of variation): close other programs, or add runs (--runs) so the median settles",
        ),
        (
            "slow_first_run",
            "the first measured run took over 1.5x the median of the others, so warm-up (caches, JIT) leaked into the measurement: add warm-up runs (--warmup)",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Params;
    use crate::results::Samples;

    fn cell(name: &str, wall: &[u64], outcome: Outcome) -> Cell {
        Cell {
            id: name.into(),
            implementation: name.into(),
            operation: "op".into(),
            params: Params::new(),
            outcome,
            message: None,
            payload_bytes: Some(1_000_000),
            warmup_runs: 0,
            runs_requested: wall.len() as u32,
            warmup_wall_ns: vec![],
            samples: Samples {
                wall_ns: wall.to_vec(),
                user_ns: wall.to_vec(),
                sys_ns: vec![0; wall.len()],
                max_rss_bytes: vec![5; wall.len()],
                ..Default::default()
            },
            worker: None,
            stats: None,
        }
    }

    #[test]
    fn stats_only_for_ok_cells() {
        let ok = cell("a", &[10, 20, 30], Outcome::Ok);
        let s = cell_stats(&ok).unwrap();
        assert_eq!((s.median_ns, s.n, s.max_rss_bytes), (20.0, 3, Some(5)));
        assert_eq!(s.throughput_bytes_per_s, Some(1_000_000.0 / 20e-9));
        assert_eq!(cell_stats(&cell("b", &[10], Outcome::Timeout)), None);
    }

    #[test]
    fn named_baseline_or_fastest() {
        let mut a = cell("a", &[100], Outcome::Ok);
        let mut b = cell("b", &[50], Outcome::Ok);
        a.stats = cell_stats(&a);
        b.stats = cell_stats(&b);
        let failed = cell("c", &[], Outcome::Failed);
        let cells = vec![&a, &b, &failed];
        assert_eq!(baseline_of(&cells, Some("a")).unwrap().implementation, "a");
        assert_eq!(baseline_of(&cells, None).unwrap().implementation, "b");
        assert!(baseline_of(&cells, Some("c")).is_none());
    }

    #[test]
    fn warnings_for_noise_and_slow_first_run() {
        let mut c = cell("a", &[300, 100, 100, 101, 99], Outcome::Ok);
        c.stats = cell_stats(&c);
        let mut quiet = cell("b", &[100, 100, 101, 99], Outcome::Ok);
        quiet.stats = cell_stats(&quiet);
        let warnings = cell_warnings(&[c.clone(), quiet.clone(), c]);
        let kinds: Vec<&str> = warnings.iter().map(|w| w.kind.as_str()).collect();
        assert_eq!(kinds, ["high_variation", "slow_first_run"]);
        assert!(warnings[0].message.starts_with("2 cell(s)"));
        assert!(cell_warnings(&[quiet]).is_empty());
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
}
