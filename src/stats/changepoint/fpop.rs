//! The optimal partition of a series under the normal change-in-mean cost
//! with a penalty per change and a minimum segment length: the same optimum
//! PELT finds, found with functional pruning (FPOP: Maidstone, Hocking,
//! Rigaill & Fearnhead, "On optimal multiple changepoint algorithms for
//! large data", Statistics and Computing 27, 2017).
//!
//! Why: PELT prunes a candidate start only once a change makes it hopeless,
//! so on a steady series (most cells, most of the time) it keeps every
//! start and costs O(n²): 2,000 runs of 1,000 cells took tens of seconds.
//! FPOP keeps, for each candidate start, the set of segment means at which
//! it could still be the best start; the difference between two
//! candidates' costs never changes as runs are added (both gain the same
//! terms), so each set only shrinks, and a candidate whose set is empty is
//! never the best again. On a steady series a handful stay, and the whole
//! DP is close to linear.
//!
//! The DP is run once over the whole series and keeps, for every prefix,
//! the start of its optimal last segment, so the optimal partition of any
//! prefix is read back from it (`Partitions::changes`): `detect` needs three
//! prefixes and pays for one pass.

use super::Costs;

/// Candidate starts of the current segment, with the segment means at which
/// each may still be the best (disjoint closed intervals, in order).
struct Candidate {
    start: usize,
    region: Vec<(f64, f64)>,
}

/// Every prefix's optimal partition of a series.
pub(super) struct Partitions {
    /// `last[t]`: the start of the last segment in the optimal partition of `y[..t]`.
    last: Vec<usize>,
    min_segment: usize,
}

impl Partitions {
    /// The start index of each segment after the first in the optimal
    /// partition of the first `t` values.
    pub(super) fn changes(&self, t: usize) -> Vec<usize> {
        if t < 2 * self.min_segment {
            return vec![];
        }
        let mut out = Vec::new();
        let mut at = t;
        while at > 0 {
            let s = self.last[at];
            if s > 0 {
                out.push(s);
            }
            at = s;
        }
        out.reverse();
        out
    }
}

fn intersect(region: &mut Vec<(f64, f64)>, lo: f64, hi: f64) {
    region.retain_mut(|(a, b)| {
        *a = a.max(lo);
        *b = b.min(hi);
        a <= b
    });
}

fn subtract(region: &mut Vec<(f64, f64)>, lo: f64, hi: f64) {
    let mut i = 0;
    while i < region.len() {
        let (a, b) = region[i];
        if b <= lo || a >= hi {
            i += 1;
        } else if a < lo && b > hi {
            region[i].1 = lo;
            region.insert(i + 1, (hi, b));
            i += 2;
        } else if a < lo {
            region[i].1 = lo;
            i += 1;
        } else if b > hi {
            region[i].0 = hi;
            i += 1;
        } else {
            region.remove(i);
        }
    }
}

/// Adds the start `new` (whose prefix's best cost is `best[new]`): each
/// older candidate keeps only the means at which it beats `new`, `new`
/// keeps those at which no older one beats it, and the emptied go.
fn enter(active: &mut Vec<Candidate>, new: usize, best: &[f64], c: &Costs) {
    let mut region = vec![(f64::NEG_INFINITY, f64::INFINITY)];
    for cand in active.iter_mut() {
        // cand's cost minus new's, at segment mean μ:
        // best[s] − best[new] + Σ over s..new of (y − μ)², a parabola
        // a·(μ − ȳ)² + sse + Δ; cand is the better where it is ≤ 0.
        let a = (new - cand.start) as f64;
        let sse = c.cost(cand.start, new);
        let delta = best[cand.start] - best[new];
        let mean = c.mean(cand.start, new);
        let k = -(sse + delta) / a;
        // Rounding must never drop a candidate that could still win, so its
        // region is widened and the one taken from `new` narrowed.
        let tol = 1e-9 * (1.0 + sse.abs() + delta.abs()) / a;
        if k + tol < 0.0 {
            cand.region.clear();
        } else {
            let r = (k + tol).sqrt();
            intersect(&mut cand.region, mean - r, mean + r);
        }
        if k - tol > 0.0 {
            let r = (k - tol).sqrt();
            subtract(&mut region, mean - r, mean + r);
        }
    }
    active.retain(|c| !c.region.is_empty());
    if !region.is_empty() {
        active.push(Candidate { start: new, region });
    }
}

/// The optimal partitions of every prefix of `y` (already scaled so its
/// noise σ is 1), minimising Σ cost + `penalty` × changes with segments of
/// at least `min_segment` values. Ties go to the earliest start, as PELT's.
pub(super) fn partitions(y: &[f64], penalty: f64, min_segment: usize) -> Partitions {
    let n = y.len();
    let m = min_segment.max(1);
    let c = Costs::new(y);
    let mut best = vec![f64::INFINITY; n + 1];
    let mut last = vec![0usize; n + 1];
    best[0] = -penalty;
    let mut active: Vec<Candidate> = Vec::new();
    for t in m..=n {
        // A start s may end a segment at t once t − s ≥ m; the prefixes
        // before s must themselves be partitionable (s = 0 or s ≥ m).
        let s = t - m;
        if s == 0 || s >= m {
            enter(&mut active, s, &best, &c);
        }
        let mut f = f64::INFINITY;
        for cand in &active {
            let v = best[cand.start] + c.cost(cand.start, t) + penalty;
            if v < f {
                f = v;
                last[t] = cand.start;
            }
        }
        best[t] = f;
    }
    Partitions { last, min_segment: m }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_distr::{Distribution, Normal};

    /// PELT as it was written before: the oracle.
    fn pelt(y: &[f64], penalty: f64, min_segment: usize) -> Vec<usize> {
        let n = y.len();
        let m = min_segment.max(1);
        if n < 2 * m {
            return vec![];
        }
        let c = Costs::new(y);
        let mut best = vec![f64::INFINITY; n + 1];
        let mut last = vec![0usize; n + 1];
        best[0] = -penalty;
        let mut candidates: Vec<usize> = vec![0];
        for t in m..=n {
            if t >= 2 * m {
                candidates.push(t - m);
            }
            let mut f = f64::INFINITY;
            for &s in &candidates {
                let v = best[s] + c.cost(s, t) + penalty;
                if v < f {
                    f = v;
                    last[t] = s;
                }
            }
            best[t] = f;
            candidates.retain(|&s| best[s] + c.cost(s, t) <= f);
        }
        let mut out = Vec::new();
        let mut t = n;
        while t > 0 {
            let s = last[t];
            if s > 0 {
                out.push(s);
            }
            t = s;
        }
        out.reverse();
        out
    }

    #[test]
    fn every_prefix_partition_equals_pelts() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for trial in 0..300 {
            let n = rng.random_range(1..160);
            let steps = rng.random_range(0..5);
            let at: Vec<usize> = (0..steps).map(|_| rng.random_range(0..n)).collect();
            let normal = Normal::new(0.0, 1.0).unwrap();
            // Levels near 1,400: the log of a microsecond median over a σ of 1%.
            let y: Vec<f64> = (0..n)
                .map(|i| 1400.0 + 4.0 * at.iter().filter(|a| i >= **a).count() as f64 + normal.sample(&mut rng))
                .collect();
            let penalty = [1.0, 3.0 * (n.max(2) as f64).ln(), 25.0][trial % 3];
            let m = 1 + trial % 3;
            let p = partitions(&y, penalty, m);
            for t in 0..=n {
                assert_eq!(p.changes(t), pelt(&y[..t], penalty, m), "trial {trial}, prefix {t}");
            }
        }
    }

    #[test]
    fn flat_and_tiny_series() {
        for y in [vec![], vec![5.0], vec![5.0; 30], vec![0.0, 0.0, 10.0, 10.0]] {
            for m in 1..4 {
                assert_eq!(partitions(&y, 1.0, m).changes(y.len()), pelt(&y, 1.0, m), "{y:?} {m}");
            }
        }
    }
}
