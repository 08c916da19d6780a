//! Checks on a results file read back from disk. `versus report` and
//! `versus diff` trust what they draw and compare, so a hand-edited or
//! corrupted file must fail here, with the file and the field named, rather
//! than panic, hang, or allocate without bound while drawing a chart of a
//! zero median or a ratio of 10^300.
//!
//! The bounds are what a measurement can be: no time under a picosecond or
//! over about 31 years, ratios within 10^±12, probabilities within [0, 1].

use super::{AnalysisSettings, Cell, Comparison, Finding, Results, Stats};

/// Shortest time a median, mean or interval end may be (ns): one picosecond.
const MIN_NS: f64 = 1e-3;
/// Longest (ns): about 31.7 years.
const MAX_NS: f64 = 1e18;
/// Ratios and their intervals lie within [1/MAX_RATIO, MAX_RATIO].
const MAX_RATIO: f64 = 1e12;
/// Most bootstrap resamples a file may ask the analysis for.
const MAX_RESAMPLES: usize = 1_000_000;

/// A field that failed, and why.
type Check = Result<(), String>;

/// Checks every value that later code relies on; the error names the field.
pub(crate) fn check(r: &Results) -> Check {
    analysis(&r.analysis)?;
    for (i, c) in r.cells.iter().enumerate() {
        cell(c).map_err(|e| format!("cells[{i}] ({}): {e}", c.id))?;
    }
    for (i, c) in r.comparisons.iter().enumerate() {
        comparison(c).map_err(|e| format!("comparisons[{i}]: {e}"))?;
    }
    let ids: std::collections::HashSet<&str> = r.cells.iter().map(|c| c.id.as_str()).collect();
    for (i, f) in r.findings.iter().enumerate() {
        finding(f, &ids).map_err(|e| format!("findings[{i}]: {e}"))?;
    }
    Ok(())
}

/// A finding cites cells of the document. (`versus report` computes
/// findings afresh; this keeps programs that read the file from following a
/// finding to a cell that is not there.)
fn finding(f: &Finding, ids: &std::collections::HashSet<&str>) -> Check {
    match f.cells.iter().find(|id| !ids.contains(id.as_str())) {
        Some(id) => Err(format!("cites cell '{id}', which the document does not hold")),
        None => Ok(()),
    }
}

fn analysis(a: &AnalysisSettings) -> Check {
    let open_unit = |name: &str, v: f64| {
        (v > 0.0 && v < 1.0)
            .then_some(())
            .ok_or(format!("analysis.{name} = {v}: must lie between 0 and 1"))
    };
    open_unit("confidence", a.confidence)?;
    open_unit("alpha", a.alpha)?;
    if !(a.noise >= 0.0 && a.noise < 1.0) {
        return Err(format!("analysis.noise = {}: must lie in [0, 1)", a.noise));
    }
    if !(1..=MAX_RESAMPLES).contains(&a.bootstrap_resamples) {
        return Err(format!(
            "analysis.bootstrap_resamples = {}: must be 1 to {MAX_RESAMPLES}",
            a.bootstrap_resamples
        ));
    }
    Ok(())
}

fn time(name: &str, v: f64) -> Check {
    if v.is_finite() && (MIN_NS..=MAX_NS).contains(&v) {
        Ok(())
    } else {
        Err(format!("{name} = {v}: not a time a run can take (1 ps to 31 years)"))
    }
}

fn cell(c: &Cell) -> Check {
    let s = &c.samples;
    let n = s.wall_ns.len();
    for (name, len) in [
        ("user_ns", s.user_ns.len()),
        ("sys_ns", s.sys_ns.len()),
        ("max_rss_bytes", s.max_rss_bytes.len()),
        ("iterations", s.iterations.len()),
        ("exit_codes", s.exit_codes.len()),
    ] {
        if len != 0 && len != n {
            return Err(format!("samples.{name} has {len} entries for {n} runs"));
        }
    }
    if let Some(w) = s
        .wall_ns
        .iter()
        .chain(c.warmup_wall_ns.iter().copied())
        .find(|w| *w as f64 > MAX_NS)
    {
        return Err(format!("samples.wall_ns holds {w}: not a time a run can take"));
    }
    if let Some(problem) = s.order.as_ref().and_then(|o| o.problem(n)) {
        return Err(problem);
    }
    if s.iterations.contains(&0) {
        return Err("samples.iterations holds 0: a batch has at least one call".into());
    }
    match &c.stats {
        Some(st) => stats(st).map_err(|e| format!("stats.{e}")),
        None => Ok(()),
    }
}

fn stats(s: &Stats) -> Check {
    for (name, v) in [
        ("median_ns", s.median_ns),
        ("mean_ns", s.mean_ns),
        ("min_ns", s.min_ns),
        ("max_ns", s.max_ns),
    ] {
        time(name, v)?;
    }
    for (name, v) in [("ci_low_ns", s.ci_low_ns), ("ci_high_ns", s.ci_high_ns)] {
        if let Some(v) = v {
            time(name, v)?;
        }
    }
    if let (Some(lo), Some(hi)) = (s.ci_low_ns, s.ci_high_ns)
        && lo > hi
    {
        return Err(format!("ci_low_ns = {lo} is above ci_high_ns = {hi}"));
    }
    if let Some(sd) = s
        .stddev_ns
        .filter(|sd| !(sd.is_finite() && *sd >= 0.0 && *sd <= MAX_NS))
    {
        return Err(format!("stddev_ns = {sd}: not a spread of times"));
    }
    if let Some(t) = s.throughput_bytes_per_s.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(format!("throughput_bytes_per_s = {t}: not a throughput"));
    }
    Ok(())
}

fn comparison(c: &Comparison) -> Check {
    let ratio = |name: &str, v: f64| {
        (v.is_finite() && (1.0 / MAX_RATIO..=MAX_RATIO).contains(&v))
            .then_some(())
            .ok_or(format!("{name} = {v}: not a ratio of two measured times"))
    };
    ratio("ratio", c.ratio)?;
    for (name, v) in [("ci_low", c.ci_low), ("ci_high", c.ci_high)] {
        if let Some(v) = v {
            ratio(name, v)?;
        }
    }
    if let Some(m) = c.minimum_detectable.filter(|m| !(m.is_finite() && *m >= 0.0)) {
        return Err(format!(
            "minimum_detectable = {m}: a relative change is finite and not negative"
        ));
    }
    Ok(())
}
