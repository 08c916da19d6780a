//! A cliff: sizes where one implementation's throughput falls far below
//! the sizes on both sides of them — a JIT stuck on its slow path at 500 KB
//! and 1 MB, 111 MB/s against 13 GB/s at 100 KB and 6.3 GB/s at 5 MB. Read
//! as a misfit of the cost line it is "not linear (98% at 500 KB)", which
//! names neither what happened nor where; named as a cliff, it says both.
//!
//! Over one implementation's stable cells in size order, a cliff is a run
//! of neighbouring sizes, none the first or last, whose throughput (size
//! over median) is at most 1 / `CLIFF` of both the size just below the run
//! and the size just above it. Throughput that rises with size (a fixed
//! cost spread thinner) or falls and stays down (a cache left behind) has
//! no size above it that recovers, so neither is a cliff. Where runs
//! overlap, the longest from the smallest size is taken.

use crate::base::metric::Metric;
use crate::base::text;
use crate::base::units::format_throughput;
use crate::results::Cliff;

/// How many times the throughput on both sides of a cliff must be its own.
pub(crate) const CLIFF: f64 = 4.0;

/// The cliffs among `points` ((payload bytes, median), sorted by size,
/// medians above 0).
pub(crate) fn find(points: &[(u64, f64)]) -> Vec<Cliff> {
    let per_byte: Vec<f64> = points.iter().map(|(b, m)| m / *b as f64).collect();
    let n = points.len();
    let mut out = Vec::new();
    let mut i = 1;
    while i + 1 < n {
        // Per byte, a cliff costs at least CLIFF times its neighbours.
        let deep = |j: usize| {
            let lowest = per_byte[i..=j].iter().copied().fold(f64::INFINITY, f64::min);
            lowest >= CLIFF * per_byte[i - 1].max(per_byte[j + 1])
        };
        match (i..n - 1).rev().find(|&j| deep(j)) {
            Some(j) => {
                out.push(cliff(points, &per_byte, i, j));
                i = j + 2;
            }
            None => i += 1,
        }
    }
    out
}

fn cliff(points: &[(u64, f64)], per_byte: &[f64], i: usize, j: usize) -> Cliff {
    let inside = &per_byte[i..=j];
    Cliff {
        payload_bytes: points[i..=j].iter().map(|p| p.0).collect(),
        per_byte_low_ns: inside.iter().copied().fold(f64::INFINITY, f64::min),
        per_byte_high_ns: inside.iter().copied().fold(0.0, f64::max),
        before_bytes: points[i - 1].0,
        before_per_byte_ns: per_byte[i - 1],
        after_bytes: points[j + 1].0,
        after_per_byte_ns: per_byte[j + 1],
    }
}

/// A figure per byte as a reader takes it: "111 MB/s" in time, "9.2
/// instr/byte" in instructions.
fn rate(metric: Metric, per_byte: f64) -> String {
    match metric {
        Metric::Wall => format_throughput(1e9 / per_byte),
        Metric::Instructions => format!("{} instr/byte", text::number(per_byte)),
    }
}

/// "a cliff at 500 KB and 1 MB: 110–111 MB/s against 6.33 GB/s at 5 MB
/// and 13.0 GB/s at 100 KB": the size above first, where the slow path ends.
pub(crate) fn text(c: &Cliff, metric: Metric) -> String {
    let sizes: Vec<String> = c.payload_bytes.iter().map(|b| text::payload(*b)).collect();
    let (worst, best) = (rate(metric, c.per_byte_high_ns), rate(metric, c.per_byte_low_ns));
    let own = match (worst.split_once(' '), best.split_once(' ')) {
        _ if worst == best => worst,
        (Some((w, unit)), Some((b, same))) if unit == same => format!("{w}–{b} {unit}"),
        _ => format!("{worst}–{best}"),
    };
    format!(
        "a cliff at {}: {own} against {} at {} and {} at {}",
        text::and_list(&sizes),
        rate(metric, c.after_per_byte_ns),
        text::payload(c.after_bytes),
        rate(metric, c.before_per_byte_ns),
        text::payload(c.before_bytes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (bytes, ns) at `gb_s` GB/s.
    fn at(bytes: u64, gb_s: f64) -> (u64, f64) {
        (bytes, bytes as f64 / gb_s)
    }

    #[test]
    fn a_slow_path_at_two_sizes_is_one_cliff() {
        // aes-gcm-java, sun-jdk21 encrypting.
        let points = [
            at(100_000, 13.0),
            at(500_000, 0.111),
            at(1_000_000, 0.111),
            at(5_000_000, 6.33),
            at(10_000_000, 6.44),
        ];
        let found = find(&points);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].payload_bytes, vec![500_000, 1_000_000]);
        assert_eq!(
            text(&found[0], Metric::Wall),
            "a cliff at 500 KB and 1 MB: 111 MB/s against 6.33 GB/s at 5 MB and 13.0 GB/s at 100 KB"
        );
    }

    #[test]
    fn falling_or_rising_throughput_and_a_shallow_dip_are_no_cliff() {
        // A fixed cost spread thinner, then a cache left behind for good.
        let rising = [
            at(1_000, 0.01),
            at(100_000, 1.0),
            at(10_000_000, 0.2),
            at(100_000_000, 0.19),
        ];
        assert!(find(&rising).is_empty());
        // Bouncy Castle's dip at 30 and 40 MB: 1.5x, not a cliff.
        let dip = [
            at(20_000_000, 0.15),
            at(30_000_000, 0.1),
            at(40_000_000, 0.1),
            at(50_000_000, 0.15),
        ];
        assert!(find(&dip).is_empty());
    }
}
