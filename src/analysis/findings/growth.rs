//! How fast time grows with size where a line does not describe it, in the
//! words a reader uses: "time ×4.0 per doubling of size from 1 MB to 10 MB:
//! quadratic", not "the best fixed + per-byte line misses the 10 MB median
//! by 92%".
//!
//! The exponent is the least-squares slope of log(median) against
//! log(size) over the upper sizes (the larger half of the distinct sizes,
//! at least `UPPER_SIZES`): at small sizes a fixed cost flattens the
//! curve, and the growth that matters for large payloads shows above it.
//! Time is then ×2^k per doubling. The growth is *super-linear* when it
//! carries the largest size above what linear growth from the first upper
//! size gives by more than the one tolerance of "linear"
//! (`cost::MAX_RESIDUAL`): (to / from)^(k − 1) > 1 + MAX_RESIDUAL.

use crate::analysis::findings::cost::MAX_RESIDUAL;
use crate::stats::linear;

/// Fewest sizes the exponent is fitted over (all of them when fewer).
pub(crate) const UPPER_SIZES: usize = 3;
/// How far an exponent may be from a whole number to be named by it.
pub(crate) const NAMED_WITHIN: f64 = 0.15;

/// The exponent over the upper sizes of `points` ((payload bytes, median),
/// medians above 0), and the sizes it spans; `None` below two sizes.
pub(crate) fn exponent(points: &[(u64, f64)]) -> Option<(f64, u64, u64)> {
    let mut sizes: Vec<u64> = points.iter().map(|p| p.0).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let upper = UPPER_SIZES.max(sizes.len().div_ceil(2)).min(sizes.len());
    let from = *sizes.get(sizes.len() - upper)?;
    let to = *sizes.last()?;
    let (x, y): (Vec<f64>, Vec<f64>) = points
        .iter()
        .filter(|p| p.0 >= from && p.0 > 0 && p.1 > 0.0)
        .map(|p| ((p.0 as f64).ln(), p.1.ln()))
        .unzip();
    let line = linear::ordinary(&x, &y)?;
    line.slope.is_finite().then_some((line.slope, from, to))
}

/// Whether exponent `k` over `from`..`to` bytes is growth faster than
/// linear by more than the tolerance of "linear".
pub(crate) fn super_linear(k: f64, from: u64, to: u64) -> bool {
    from > 0 && (to as f64 / from as f64).powf(k - 1.0) > 1.0 + MAX_RESIDUAL
}

/// "linear", "quadratic", "cubic", or "size^1.6".
pub(crate) fn name(k: f64) -> String {
    let whole = k.round();
    match whole as i64 {
        1 if (k - whole).abs() <= NAMED_WITHIN => "linear".into(),
        2 if (k - whole).abs() <= NAMED_WITHIN => "quadratic".into(),
        3 if (k - whole).abs() <= NAMED_WITHIN => "cubic".into(),
        _ => format!("size^{k:.1}"),
    }
}

/// "×4.0": the factor per doubling of size.
pub(crate) fn per_doubling(k: f64) -> String {
    format!("×{:.1}", 2f64.powf(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exponent_is_read_over_the_upper_sizes() {
        // A fixed 1 ms, then time ∝ size²: the upper sizes show the square.
        let points: Vec<(u64, f64)> = [1e3, 1e4, 1e5, 1e6, 5e6, 1e7]
            .iter()
            .map(|b| (*b as u64, 1e6 + 1e-4 * b * b))
            .collect();
        let (k, from, to) = exponent(&points).unwrap();
        assert!((k - 2.0).abs() < 0.1, "{k}");
        assert_eq!((from, to), (1_000_000, 10_000_000));
        assert!(super_linear(k, from, to));
        assert_eq!(
            (name(k), per_doubling(k)),
            ("quadratic".to_string(), "×4.0".to_string())
        );
    }

    #[test]
    fn linear_growth_with_a_fixed_cost_is_not_super_linear() {
        let points: Vec<(u64, f64)> = [1e3, 1e5, 1e7, 1e8].iter().map(|b| (*b as u64, 2e5 + b)).collect();
        let (k, from, to) = exponent(&points).unwrap();
        assert!(k <= 1.0 && !super_linear(k, from, to), "{k}");
        assert_eq!(name(1.6), "size^1.6");
        assert_eq!(name(1.05), "linear");
    }
}
