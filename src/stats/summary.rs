//! Summary statistics of one series.
//! file or formats text; every input is a slice and every invariant is in a type.

/// Summary of one series of samples (at least one finite value).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    pub n: usize,
    pub mean: f64,
    pub median: f64,
    /// Sample standard deviation (n − 1 denominator); `None` with fewer than 2 samples.
    pub stddev: Option<f64>,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// Coefficient of variation, stddev / mean; `None` when undefined.
    #[cfg(test)]
    pub(crate) fn cv(&self) -> Option<f64> {
        self.stddev.filter(|_| self.mean > 0.0).map(|s| s / self.mean)
    }
}

/// Summarizes a series; `None` if it is empty or holds a NaN or infinity.
pub(crate) fn summarize(xs: &[f64]) -> Option<Summary> {
    if xs.is_empty() || xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let stddev = (n >= 2).then(|| {
        let ss: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
        (ss / (n - 1) as f64).sqrt()
    });
    Some(Summary {
        n,
        mean,
        median: median_of_sorted(&sorted),
        stddev,
        min: sorted[0],
        max: sorted[n - 1],
    })
}

/// Median of a non-empty slice, from a sorted copy of it.
pub(crate) fn median(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    median_of_sorted(&s)
}

/// Median of an already sorted, non-empty slice (mean of the two middle values when even).
pub(crate) fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The `p` quantile (0 to 1) of an already sorted, non-empty slice,
/// interpolated linearly between the two nearest values.
pub(crate) fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    let at = p.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

/// Throughput in bytes per second of moving `bytes` in `nanos`.
pub(crate) fn throughput(bytes: u64, nanos: f64) -> Option<f64> {
    (nanos > 0.0).then(|| bytes as f64 / (nanos / 1e9))
}

/// Index of the smallest value, for picking the fastest implementation as baseline.
pub(crate) fn argmin(xs: &[f64]) -> Option<usize> {
    xs.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_a_known_series() {
        let s = summarize(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(s.n, 8);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.median, 4.5);
        assert_eq!(s.min, 2.0);
        assert_eq!(s.max, 9.0);
        // sample variance = 32 / 7
        assert!((s.stddev.unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn degenerate_series() {
        assert_eq!(summarize(&[]), None);
        assert_eq!(summarize(&[1.0, f64::NAN]), None);
        let one = summarize(&[3.0]).unwrap();
        assert_eq!((one.median, one.stddev, one.cv()), (3.0, None, None));
        assert_eq!(summarize(&[1.0, 3.0, 2.0]).unwrap().median, 2.0);
    }

    #[test]
    fn throughput_and_argmin() {
        assert_eq!(throughput(1_000_000, 1e9), Some(1e6));
        assert_eq!(throughput(1, 0.0), None);
        assert_eq!(argmin(&[3.0, 1.0, 2.0]), Some(1));
        assert_eq!(argmin(&[]), None);
    }
}
