//! One implementation against the reference over a whole suite: the
//! geometric mean of its ratios, with an interval.
//!
//! The suite's cells are the grid its author chose (these sizes, these
//! parameters), not a sample from a population of workloads, so the
//! question is "how much faster over exactly these cells", and what is
//! uncertain is how well each cell's ratio was measured. The mean of the
//! log ratios is that geometric mean on the log scale; its standard error
//! is the root of the sum of the cells' squared standard errors over their
//! count, since each cell was measured in its own runs (their errors are
//! independent; drift shared within a group already cancels in a paired
//! ratio). Each side of the interval combines the matching half-widths of
//! the cells' own intervals the same way, so an interval widened by passes
//! or forks widens the mean's too. A bootstrap over cells would answer
//! another question — what a different, random choice of cells would give
//! — and on a grid whose ratios run from 1.1x to 50x it gives an interval
//! as wide as the grid, however well each cell was measured; the spread
//! over cells is reported beside the mean instead (smallest and largest
//! ratio).

use crate::judge::levels::LogEstimate;

/// The mean of the log ratios `estimates` (each with an interval), with
/// the interval that combines theirs; `None` for none.
pub(crate) fn geometric_mean(estimates: &[LogEstimate]) -> Option<LogEstimate> {
    let halves: Vec<(f64, f64)> = estimates.iter().map(|e| e.half_widths()).collect::<Option<_>>()?;
    if estimates.is_empty() {
        return None;
    }
    let k = estimates.len() as f64;
    let center = estimates.iter().map(|e| e.center).sum::<f64>() / k;
    let combine = |side: fn(&(f64, f64)) -> f64| halves.iter().map(|h| side(h).powi(2)).sum::<f64>().sqrt() / k;
    Some(LogEstimate {
        center,
        interval: Some((center - combine(|h| h.0), center + combine(|h| h.1))),
        n: estimates.iter().map(|e| e.n).sum(),
        segments: estimates.iter().map(|e| e.segments).min().unwrap_or(1),
        between_share: None,
        widened: estimates.iter().any(|e| e.widened),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(ratio: f64, lo: f64, hi: f64) -> LogEstimate {
        LogEstimate {
            center: ratio.ln(),
            interval: Some((lo.ln(), hi.ln())),
            n: 10,
            segments: 1,
            between_share: None,
            widened: false,
        }
    }

    #[test]
    fn the_mean_of_logs_with_halves_combined_in_quadrature() {
        // 2x and 8x: a geometric mean of 4x.
        let g = geometric_mean(&[est(2.0, 1.8, 2.2), est(8.0, 7.0, 9.0)]).unwrap();
        assert!((g.center.exp() - 4.0).abs() < 1e-9);
        let (lo, hi) = g.interval.unwrap();
        let below = ((2.0f64 / 1.8).ln().powi(2) + (8.0f64 / 7.0).ln().powi(2)).sqrt() / 2.0;
        assert!((g.center - lo - below).abs() < 1e-12);
        assert!(hi > g.center && g.n == 20);
        // Four equally precise cells: the mean's interval is half as wide as one's.
        let one = est(1.5, 1.4, 1.6);
        let four = geometric_mean(&[one.clone(), one.clone(), one.clone(), one.clone()]).unwrap();
        let width = |e: &LogEstimate| e.interval.map(|(l, h)| h - l).unwrap();
        assert!((width(&four) - width(&one) / 2.0).abs() < 1e-12);
        assert!(geometric_mean(&[]).is_none());
        let mut bare = one;
        bare.interval = None;
        assert!(geometric_mean(&[bare]).is_none());
    }
}
