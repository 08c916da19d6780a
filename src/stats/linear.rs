//! Straight-line fits, y = intercept + slope·x, for "a fixed cost plus a
//! cost per byte". Payload sizes span orders of magnitude (1 KB to 100 MB),
//! so a plain least-squares fit is decided by the largest size alone: an
//! error of 1% there outweighs the whole time at 1 KB. `relative` weights
//! each point by 1/scale² (scale = the point's own time), which minimises
//! the *relative* errors, so every size counts alike and the intercept is
//! pinned by the small sizes, where it shows.
//!
//! Computed around the weighted means (not from raw sums of x²), which keeps
//! the fit exact in f64 when x reaches 10^8 and y 10^9.

/// A line y = intercept + slope·x.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Line {
    pub intercept: f64,
    pub slope: f64,
}

impl Line {
    pub(crate) fn at(&self, x: f64) -> f64 {
        self.intercept + self.slope * x
    }
}

/// Weighted least squares of `y` on `x` with weights `1 / scale²`. `None`
/// unless the slices have equal lengths, at least two distinct x, every
/// value finite and every scale positive.
pub(crate) fn relative(x: &[f64], y: &[f64], scale: &[f64]) -> Option<Line> {
    if x.len() != y.len() || x.len() != scale.len() || x.len() < 2 {
        return None;
    }
    let finite = x.iter().chain(y).chain(scale).all(|v| v.is_finite());
    if !finite || scale.iter().any(|s| *s <= 0.0) {
        return None;
    }
    let w: Vec<f64> = scale.iter().map(|s| 1.0 / (s * s)).collect();
    weighted(x, y, &w)
}

/// Ordinary least squares (every weight 1); `None` as for `relative`.
pub(crate) fn ordinary(x: &[f64], y: &[f64]) -> Option<Line> {
    if x.len() != y.len() || x.len() < 2 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    weighted(x, y, &vec![1.0; x.len()])
}

fn weighted(x: &[f64], y: &[f64], w: &[f64]) -> Option<Line> {
    let total: f64 = w.iter().sum();
    let mean = |v: &[f64]| v.iter().zip(w).map(|(a, b)| a * b).sum::<f64>() / total;
    let (mx, my) = (mean(x), mean(y));
    let sxx: f64 = x.iter().zip(w).map(|(a, b)| b * (a - mx) * (a - mx)).sum();
    let sxy: f64 = x.iter().zip(y).zip(w).map(|((a, c), b)| b * (a - mx) * (c - my)).sum();
    // Every x the same (to rounding): no slope to find.
    if sxx.is_nan() || sxx <= 0.0 || sxx <= 1e-12 * total * mx * mx {
        return None;
    }
    let slope = sxy / sxx;
    Some(Line {
        intercept: my - slope * mx,
        slope,
    })
}

/// (observed − fitted) / observed at each point; observed values must be non-zero.
pub(crate) fn relative_residuals(line: &Line, x: &[f64], y: &[f64]) -> Vec<f64> {
    x.iter().zip(y).map(|(a, b)| (b - line.at(*a)) / b).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_line_is_recovered_across_six_decades() {
        let x = [256.0, 4096.0, 65536.0, 1e6, 1e7, 1e8];
        let y: Vec<f64> = x.iter().map(|s| 2e6 + 1.0 * s).collect();
        let line = relative(&x, &y, &y).unwrap();
        assert!((line.intercept - 2e6).abs() < 1e-3, "{line:?}");
        assert!((line.slope - 1.0).abs() < 1e-12, "{line:?}");
        assert!(relative_residuals(&line, &x, &y).iter().all(|r| r.abs() < 1e-12));
    }

    #[test]
    fn relative_weights_keep_the_small_sizes_in_the_fit() {
        // 1% off at the two largest sizes (1 ms at 100 MB, half the
        // start-up): ordinary least squares moves the 2 ms intercept by over
        // 2%, the fit for relative error by under 0.1%.
        let x = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
        let mut y: Vec<f64> = x.iter().map(|s| 2e6 + s).collect();
        y[4] *= 0.99;
        y[5] *= 1.01;
        let rel = relative(&x, &y, &y).unwrap();
        let ols = ordinary(&x, &y).unwrap();
        assert!((rel.intercept - 2e6).abs() < 0.002e6, "{rel:?}");
        assert!((ols.intercept - 2e6).abs() > 0.04e6, "{ols:?}");
    }

    #[test]
    fn degenerate_inputs_have_no_line() {
        assert_eq!(relative(&[1.0, 1.0], &[2.0, 3.0], &[2.0, 3.0]), None);
        assert_eq!(relative(&[1.0], &[2.0], &[2.0]), None);
        assert_eq!(relative(&[1.0, 2.0], &[2.0, 3.0], &[0.0, 3.0]), None);
        assert_eq!(ordinary(&[1.0, f64::NAN], &[2.0, 3.0]), None);
    }
}
