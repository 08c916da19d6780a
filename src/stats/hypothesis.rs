//! Hypothesis tests used for verdicts. Both are rank tests: they assume no
//! distribution shape, which suits timings (skewed, with outliers).
//!
//! - Wilcoxon signed-rank on paired differences (runs taken side by side):
//!   exact null distribution for up to 30 non-zero differences without ties,
//!   else the normal approximation with tie and continuity corrections.
//!   Zero differences are dropped (Wilcoxon's convention).
//! - Mann-Whitney U for two independent series (e.g. two results files):
//!   normal approximation with tie and continuity corrections (fine from
//!   about 8 samples per side).

use statrs::distribution::{ContinuousCDF, Normal};

fn normal_two_sided(z: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("standard normal");
    (2.0 * (1.0 - n.cdf(z.abs()))).min(1.0)
}

/// Average ranks (1-based) of `xs`, and the tie groups' sizes.
fn ranks(xs: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|a, b| xs[*a].total_cmp(&xs[*b]));
    let mut r = vec![0.0; xs.len()];
    let mut ties = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for k in &idx[i..=j] {
            r[*k] = avg;
        }
        if j > i {
            ties.push(j - i + 1);
        }
        i = j + 1;
    }
    (r, ties)
}

/// Two-sided p-value of the Wilcoxon signed-rank test that the differences
/// are centred on zero. 1.0 when every difference is zero.
/// The smallest two-sided p-value the tests can give at all: 2/2^n for the
/// signed-rank test on n pairs (every pair on one side), 2/C(n1+n2, n1) for
/// Mann-Whitney's U on n1 and n2 runs (the two samples fully separated). Below
/// a handful of runs it is above any usual alpha, so no difference, however
/// large, can be called significant.
pub fn smallest_p(paired: bool, n1: usize, n2: usize) -> f64 {
    if paired {
        let n = n1.min(n2);
        return (2.0 * 0.5f64.powi(n as i32)).min(1.0);
    }
    // C(n1 + n2, n1), built up as a product of ratios to stay finite.
    let (k, total) = (n1.min(n2), n1 + n2);
    let ways = (0..k).fold(1.0, |acc, i| acc * (total - i) as f64 / (i + 1) as f64);
    (2.0 / ways).min(1.0)
}

pub fn wilcoxon_signed_rank(diffs: &[f64]) -> f64 {
    let d: Vec<f64> = diffs.iter().copied().filter(|x| *x != 0.0 && x.is_finite()).collect();
    let n = d.len();
    if n == 0 {
        return 1.0;
    }
    let abs: Vec<f64> = d.iter().map(|x| x.abs()).collect();
    let (r, ties) = ranks(&abs);
    let w_plus: f64 = d.iter().zip(&r).filter(|(x, _)| **x > 0.0).map(|(_, r)| r).sum();
    if n <= 30 && ties.is_empty() {
        // counts[s] = number of sign assignments whose positive ranks sum to s.
        let max = n * (n + 1) / 2;
        let mut counts = vec![0f64; max + 1];
        counts[0] = 1.0;
        for rank in 1..=n {
            for s in (rank..=max).rev() {
                counts[s] += counts[s - rank];
            }
        }
        let total = 2f64.powi(n as i32);
        let w = w_plus.round() as usize;
        let lower: f64 = counts[..=w].iter().sum::<f64>() / total;
        let upper: f64 = counts[w..].iter().sum::<f64>() / total;
        return (2.0 * lower.min(upper)).min(1.0);
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let tie_term: f64 = ties.iter().map(|t| (*t as f64).powi(3) - *t as f64).sum::<f64>() / 48.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term;
    if var <= 0.0 {
        return 1.0;
    }
    let diff = w_plus - mean;
    let corrected = (diff.abs() - 0.5).max(0.0) * diff.signum();
    normal_two_sided(corrected / var.sqrt())
}

/// Two-sided p-value of the Mann-Whitney U test that `a` and `b` come from the
/// same distribution.
pub fn mann_whitney_u(a: &[f64], b: &[f64]) -> f64 {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let all: Vec<f64> = a.iter().chain(b).copied().collect();
    let (r, ties) = ranks(&all);
    let r1: f64 = r[..n1].iter().sum();
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let u = r1 - n1f * (n1f + 1.0) / 2.0;
    let n = n1f + n2f;
    let tie_term: f64 = ties.iter().map(|t| (*t as f64).powi(3) - *t as f64).sum();
    let var = n1f * n2f / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if var <= 0.0 {
        return 1.0;
    }
    let diff = u - n1f * n2f / 2.0;
    let corrected = (diff.abs() - 0.5).max(0.0) * diff.signum();
    normal_two_sided(corrected / var.sqrt())
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_smallest_p_needs_six_pairs_to_pass_five_percent() {
        assert_eq!(smallest_p(true, 5, 5), 0.0625);
        assert!(smallest_p(true, 6, 6) < 0.05);
        assert_eq!(smallest_p(false, 3, 3), 0.1);
        assert!(smallest_p(false, 4, 4) < 0.05);
        // The tests themselves agree: five pairs all on one side give exactly that p.
        assert_eq!(wilcoxon_signed_rank(&[0.1, 0.2, 0.3, 0.4, 0.5]), smallest_p(true, 5, 5));
    }

    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use rand_distr::{Distribution, LogNormal};

    #[test]
    fn known_values() {
        // All 8 differences positive: exact p = 2 / 2^8.
        let p = wilcoxon_signed_rank(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        assert!((p - 2.0 / 256.0).abs() < 1e-12, "{p}");
        assert_eq!(wilcoxon_signed_rank(&[0.0, 0.0]), 1.0);
        // Symmetric differences: no evidence.
        assert!(wilcoxon_signed_rank(&[-3.0, -2.0, -1.0, 1.0, 2.0, 3.0]) > 0.9);
        // Completely separated samples of 10: p well below 0.001.
        let a: Vec<f64> = (0..10).map(f64::from).collect();
        let b: Vec<f64> = (20..30).map(f64::from).collect();
        assert!(mann_whitney_u(&a, &b) < 0.001);
        assert!(mann_whitney_u(&a, &a) > 0.9);
    }

    /// Differences of log times of two identical series: a false positive
    /// rate at most alpha (0.05), over 2000 simulated A/A comparisons.
    #[test]
    fn a_a_comparisons_are_called_different_at_most_at_the_alpha_rate() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let noise: LogNormal<f64> = LogNormal::new(0.0, 0.05).unwrap();
        for n in [10, 20, 50] {
            let hits = (0..2000)
                .filter(|_| {
                    let d: Vec<f64> = (0..n)
                        .map(|_| noise.sample(&mut rng).ln() - noise.sample(&mut rng).ln())
                        .collect();
                    wilcoxon_signed_rank(&d) < 0.05
                })
                .count();
            let rate = hits as f64 / 2000.0;
            assert!(rate <= 0.06, "n={n}: false positive rate {rate}");
            let hits = (0..2000)
                .filter(|_| {
                    let a: Vec<f64> = (0..n).map(|_| noise.sample(&mut rng)).collect();
                    let b: Vec<f64> = (0..n).map(|_| noise.sample(&mut rng)).collect();
                    mann_whitney_u(&a, &b) < 0.05
                })
                .count();
            let rate = hits as f64 / 2000.0;
            assert!(rate <= 0.06, "n={n}: Mann-Whitney false positive rate {rate}");
        }
    }
}
