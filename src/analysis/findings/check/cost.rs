//! The checker's rules on how time grows with size, read again from the
//! medians of the cells a cost finding rests on: one tolerance for
//! "linear" (`cost::MAX_RESIDUAL`) — a line called linear misses no median
//! by more, and one refused misses some median by more (a refusal on any
//! other ground is written only for a per-byte cost confirmed negative);
//! a super-linear exponent is the slope of log median on log size over the
//! upper sizes, and beyond the tolerance; a cliff's sizes are at least
//! `cliff::CLIFF` times slower per byte than the sizes on both sides.

use crate::analysis::findings::cliff::CLIFF;
use crate::analysis::findings::cost::MAX_RESIDUAL;
use crate::base::text::payload;
use crate::results::{CostFit, Finding, FindingKind, FitProblem, Results};

/// Problems with a cost or not-linear finding; none for other kinds.
pub(super) fn problems(results: &Results, f: &Finding) -> Vec<String> {
    let Some(fit) = f
        .cost
        .as_ref()
        .filter(|_| matches!(f.kind, FindingKind::Cost | FindingKind::NotLinear))
    else {
        return vec![];
    };
    let mut points: Vec<(u64, f64)> = f
        .cells
        .iter()
        .filter_map(|id| results.cells.iter().find(|c| c.id == *id))
        .filter_map(|c| Some((c.payload_bytes?, c.stats.as_ref()?.median_ns)))
        .filter(|p| p.0 > 0 && p.1 > 0.0)
        .collect();
    points.sort_by_key(|p| p.0);
    let mut out = linear(f, fit, &points);
    if fit.problem == Some(FitProblem::SuperLinear) {
        out.extend(super_linear(fit, &points));
    }
    if fit.problem == Some(FitProblem::Cliff) || !fit.cliffs.is_empty() {
        out.extend(cliffs(fit, &points));
    }
    out
}

/// "Linear" by the one tolerance, from the line's own figures.
fn linear(f: &Finding, fit: &CostFit, points: &[(u64, f64)]) -> Vec<String> {
    let miss =
        |&(bytes, median): &(u64, f64)| ((median - fit.fixed_ns - fit.per_byte_ns * bytes as f64) / median).abs();
    let Some(worst) = points.iter().max_by(|a, b| miss(a).total_cmp(&miss(b))) else {
        return vec![];
    };
    let beyond = miss(worst) > MAX_RESIDUAL * (1.0 + 1e-9);
    let refused_for_misses = matches!(
        fit.problem,
        Some(FitProblem::Residual | FitProblem::SuperLinear | FitProblem::Cliff)
    );
    let said_linear = f.kind == FindingKind::Cost && fit.holds;
    match (said_linear, beyond, refused_for_misses) {
        (true, true, _) => vec![format!(
            "called linear, but its line misses the {} median by {:.0}%",
            payload(worst.0),
            100.0 * miss(worst)
        )],
        (false, false, true) => vec![format!(
            "called not linear, but its line is within {:.0}% of every median",
            100.0 * MAX_RESIDUAL
        )],
        (false, _, false) if fit.problem != Some(FitProblem::NegativePerByte) => {
            vec!["not linear on a ground other than the one tolerance".to_string()]
        }
        _ => vec![],
    }
}

/// The exponent over the upper sizes, fitted again, and beyond the tolerance.
fn super_linear(fit: &CostFit, points: &[(u64, f64)]) -> Vec<String> {
    let mut sizes: Vec<u64> = points.iter().map(|p| p.0).collect();
    sizes.dedup();
    let upper = sizes.len().div_ceil(2).max(3).min(sizes.len());
    let from = sizes.get(sizes.len().wrapping_sub(upper)).copied().unwrap_or(0);
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.0 >= from)
        .map(|p| ((p.0 as f64).ln(), p.1.ln()))
        .collect();
    let n = logs.len() as f64;
    let (mx, my) = (
        logs.iter().map(|p| p.0).sum::<f64>() / n,
        logs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let k = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
    let to = sizes.last().copied().unwrap_or(0);
    let mut out = Vec::new();
    if fit.exponent.is_none_or(|e| (e - k).abs() > 1e-6 * k.abs().max(1.0)) {
        out.push(format!("exponent {:?}, where the medians give {k:.4}", fit.exponent));
    }
    if from == 0 || (to as f64 / from as f64).powf(k - 1.0) <= 1.0 + MAX_RESIDUAL {
        out.push(format!(
            "called super-linear, but size^{k:.2} from {} to {} is within the tolerance of linear",
            payload(from),
            payload(to)
        ));
    }
    out
}

/// Each cliff as its medians give it: neighbouring sizes, each slower per
/// byte than the sizes on both sides by `CLIFF` at least.
fn cliffs(fit: &CostFit, points: &[(u64, f64)]) -> Vec<String> {
    let per_byte = |bytes: u64| points.iter().find(|p| p.0 == bytes).map(|p| p.1 / bytes as f64);
    let index = |bytes: u64| points.iter().position(|p| p.0 == bytes);
    let mut out = Vec::new();
    if fit.cliffs.is_empty() {
        out.push("a cliff named with no cliff listed".to_string());
    }
    for c in &fit.cliffs {
        let (Some(before), Some(after)) = (per_byte(c.before_bytes), per_byte(c.after_bytes)) else {
            out.push(format!(
                "a cliff beside {} and {}, which have no medians",
                payload(c.before_bytes),
                payload(c.after_bytes)
            ));
            continue;
        };
        let mut expected: Vec<u64> = Vec::new();
        if let (Some(i), Some(j)) = (index(c.before_bytes), index(c.after_bytes)) {
            expected.extend(points.get(i + 1..j).unwrap_or(&[]).iter().map(|p| p.0));
        }
        let deep = c
            .payload_bytes
            .iter()
            .all(|b| per_byte(*b).is_some_and(|x| x >= CLIFF * before.max(after)));
        if expected != c.payload_bytes || expected.is_empty() || !deep {
            out.push(format!(
                "a cliff at {:?}: not the sizes between {} and {}, or not {CLIFF} times slower per byte than both",
                c.payload_bytes,
                payload(c.before_bytes),
                payload(c.after_bytes)
            ));
        }
    }
    out
}
