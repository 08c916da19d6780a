//! Robust spread and outliers: the median absolute deviation (MAD) and the
//! modified z-score of Iglewicz and Hoaglin, which flags a point when
//! 0.6745·|x − median| / MAD > 3.5. Outliers are only flagged: they stay in
//! the data and in every statistic, and the report says how many there were.

use crate::stats::summary::median_of_sorted;

/// The modified z-score above which a sample is an outlier.
pub(crate) const OUTLIER_Z: f64 = 3.5;

/// Median absolute deviation from the median, computed in `xs` itself (left
/// reordered and overwritten), for a caller whose buffer is scratch anyway;
/// `None` for an empty slice.
pub(crate) fn mad_in_place(xs: &mut [f64]) -> Option<f64> {
    median_and_mad_in_place(xs).map(|(_, d)| d)
}

/// The median and the MAD of `xs`, from one copy of it: sorted for the
/// median, then overwritten by the deviations (whose median does not depend
/// on their order). Sorts in place, without the scratch buffer of a stable
/// sort: 100,000 samples cost one copy, not three.
pub(crate) fn median_and_mad(xs: &[f64]) -> Option<(f64, f64)> {
    median_and_mad_in_place(&mut xs.to_vec())
}

/// `median_and_mad` of values already sorted (ascending), without a copy.
/// The deviations |x − m| of the values below the median, read from the
/// middle outwards, ascend, as do those of the values above; merging the two
/// runs up to the middle gives the middle deviations themselves, the same
/// numbers the sorted deviations would hold.
pub(crate) fn median_and_mad_of_sorted(s: &[f64]) -> Option<(f64, f64)> {
    if s.is_empty() {
        return None;
    }
    let m = median_of_sorted(s);
    let split = s.partition_point(|x| *x < m);
    let (mut below, mut above) = (s[..split].iter().rev().peekable(), s[split..].iter().peekable());
    let mut next = || match (below.peek(), above.peek()) {
        (Some(b), Some(a)) if (**b - m).abs() <= (**a - m).abs() => (below.next().unwrap() - m).abs(),
        (_, Some(_)) => (above.next().unwrap() - m).abs(),
        _ => (below.next().unwrap() - m).abs(),
    };
    let n = s.len();
    let mut lower = 0.0;
    for _ in 0..(n - 1) / 2 + 1 {
        lower = next();
    }
    let mad = if n % 2 == 1 { lower } else { (lower + next()) / 2.0 };
    Some((m, mad))
}

fn median_and_mad_in_place(s: &mut [f64]) -> Option<(f64, f64)> {
    if s.is_empty() {
        return None;
    }
    s.sort_unstable_by(f64::total_cmp);
    let m = median_of_sorted(s);
    for v in s.iter_mut() {
        *v = (*v - m).abs();
    }
    s.sort_unstable_by(f64::total_cmp);
    Some((m, median_of_sorted(s)))
}

/// Indices of the outliers in `xs`. With a MAD of zero (over half the samples
/// identical) nothing is flagged: the score is undefined, not infinite.
pub(crate) fn outliers(xs: &[f64]) -> Vec<usize> {
    let Some((m, spread)) = median_and_mad(xs).filter(|(_, d)| *d > 0.0) else {
        return vec![];
    };
    xs.iter()
        .enumerate()
        .filter(|(_, x)| 0.6745 * (*x - m).abs() / spread > OUTLIER_Z)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mad_of_sorted_values_needs_no_copy_and_is_the_same() {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for n in [1, 2, 3, 4, 5, 10, 11, 101, 1000] {
            let mut v: Vec<f64> = (0..n)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Repeated values and skew, as run times have.
                    if i % 7 == 0 {
                        1000.0
                    } else {
                        900.0 + (x % 400) as f64 * 1.37
                    }
                })
                .collect();
            v.sort_unstable_by(f64::total_cmp);
            assert_eq!(median_and_mad_of_sorted(&v), median_and_mad(&v), "n = {n}");
        }
        assert_eq!(median_and_mad_of_sorted(&[]), None);
    }

    #[test]
    fn mad_and_outliers() {
        assert_eq!(mad_in_place(&mut [1.0, 2.0, 3.0, 4.0, 100.0]), Some(1.0));
        assert_eq!(outliers(&[10.0, 11.0, 10.5, 9.8, 10.2, 30.0]), vec![5]);
        assert!(outliers(&[5.0, 5.0, 5.0, 9.0]).is_empty());
        assert!(outliers(&[]).is_empty());
    }
}
