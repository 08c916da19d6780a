//! The change-point detector on synthetic series with known steps, for
//! `bench/trend.sh` (which writes docs/results/trend.md): how many steps are
//! found, how many changes are false, and how far off the found ones are.
//! An ignored test, so `cargo test` stays fast; fixed seeds, so the table
//! is reproducible.

use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Normal};

use super::{Options, detect};

struct Tally {
    found: usize,
    steps: usize,
    false_changes: usize,
    series: usize,
    error_sum: usize,
}

/// `trials` series of `n` runs with relative noise `noise`, each with `steps`
/// steps of ratio `ratio` at random places (at least 6 runs apart, or at the
/// newest run when `at_newest`).
fn scenario(seed: u64, trials: usize, n: usize, noise: f64, ratio: f64, steps: usize, at_newest: bool) -> Tally {
    let mut t = Tally {
        found: 0,
        steps: 0,
        false_changes: 0,
        series: trials,
        error_sum: 0,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let normal = Normal::new(0.0, noise).unwrap();
    for _ in 0..trials {
        let mut at: Vec<usize> = Vec::new();
        if at_newest {
            at.push(n - 1);
        }
        while at.len() < steps {
            let i = rng.random_range(6..n - 6);
            if at.iter().all(|a| a.abs_diff(i) >= 6) {
                at.push(i);
            }
        }
        at.sort_unstable();
        let y: Vec<f64> = (0..n)
            .map(|i| {
                let k = at.iter().filter(|a| i >= **a).count() as i32;
                // Alternate up and down so the level stays near 1 ms.
                let level = if k % 2 == 1 { ratio } else { 1.0 };
                1e6 * level * (1.0 + normal.sample(&mut rng))
            })
            .collect();
        let d = detect(&y, &Options::default());
        let mut matched = vec![false; d.changes.len()];
        for a in &at {
            t.steps += 1;
            let best = d
                .changes
                .iter()
                .enumerate()
                .filter(|(j, c)| !matched[*j] && c.index.abs_diff(*a) <= 2)
                .min_by_key(|(_, c)| c.index.abs_diff(*a));
            if let Some((j, c)) = best {
                matched[j] = true;
                t.found += 1;
                t.error_sum += c.index.abs_diff(*a);
            }
        }
        t.false_changes += matched.iter().filter(|m| !**m).count();
    }
    t
}

#[test]
#[ignore = "benchmark: run by bench/trend.sh"]
fn changepoint_bench() {
    println!(
        "\n| series | noise σ | step | steps per series | found (±2 runs) | false changes per series | mean location error (runs) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let cases: &[(&str, usize, f64, f64, usize, bool)] = &[
        ("40 runs, no step", 40, 0.01, 1.0, 0, false),
        ("40 runs, no step", 40, 0.03, 1.0, 0, false),
        ("40 runs, one step", 40, 0.01, 1.02, 1, false),
        ("40 runs, one step", 40, 0.01, 1.05, 1, false),
        ("40 runs, one step", 40, 0.01, 1.10, 1, false),
        ("40 runs, one step", 40, 0.03, 1.05, 1, false),
        ("40 runs, one step", 40, 0.03, 1.10, 1, false),
        ("40 runs, one step", 40, 0.03, 1.20, 1, false),
        ("40 runs, two steps", 40, 0.01, 1.10, 2, false),
        ("100 runs, three steps", 100, 0.02, 1.10, 3, false),
        ("20 runs, step at the newest run", 20, 0.01, 1.10, 1, true),
        ("20 runs, step at the newest run", 20, 0.03, 1.20, 1, true),
    ];
    for (i, (label, n, noise, ratio, steps, newest)) in cases.iter().enumerate() {
        let t = scenario(1000 + i as u64, 200, *n, *noise, *ratio, *steps, *newest);
        let found = if t.steps == 0 {
            "—".to_string()
        } else {
            format!("{:.1}%", 100.0 * t.found as f64 / t.steps as f64)
        };
        let err = if t.found == 0 {
            "—".to_string()
        } else {
            format!("{:.2}", t.error_sum as f64 / t.found as f64)
        };
        println!(
            "| {label} | {:.0}% | {} | {steps} | {found} | {:.3} | {err} |",
            noise * 100.0,
            if *steps == 0 {
                "—".to_string()
            } else {
                format!("{:+.0}%", (ratio - 1.0) * 100.0)
            },
            t.false_changes as f64 / t.series as f64
        );
    }
}
