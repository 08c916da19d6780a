//! How findings write their numbers: sizes as people write them ("1 KB",
//! "100 MB", with the units helpers), a time with its interval in the
//! time's own unit ("3.10 ms [3.05, 3.12]"), lists of sizes ("1 KB to
//! 1 MB"). Only formatting; the numbers come from the finding's analysis.

use crate::base::metric::Metric;
use crate::base::units::{format_bytes, three_digits};

/// A payload or memory size without padding zeros: "1 KB", "1.5 MB", "256 B".
pub fn size(bytes: u64) -> String {
    let text = format_bytes(bytes);
    let (number, unit) = text.split_once(' ').unwrap_or((&text, ""));
    let number = if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        number
    };
    format!("{number} {unit}")
}

/// A payload size as suites write them: binary units when the size is a
/// whole number of KiB, MiB or GiB ("256 KiB", "100 MiB"), decimal ones
/// otherwise ("100 KB", "1.5 MB"), so a finding names the sizes the tables show.
pub fn payload(bytes: u64) -> String {
    let whole = |scales: [(&'static str, u64); 3]| {
        scales
            .into_iter()
            .find(|(_, scale)| bytes >= *scale && bytes.is_multiple_of(*scale))
            .map(|(unit, scale)| (bytes / scale, unit))
    };
    let binary = whole([("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]);
    let decimal = whole([("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1000)]);
    match (binary, decimal) {
        // Whichever writes the smaller number: 16 MB, not 15625 KiB.
        (Some((b, unit)), Some((d, _))) if b < d => format!("{b} {unit}"),
        (Some((b, unit)), None) => format!("{b} {unit}"),
        _ => size(bytes),
    }
}

/// A fractional size (an estimated crossover), rounded to whole bytes.
pub fn size_f(bytes: f64) -> String {
    size(bytes.max(0.0).round() as u64)
}

/// Two sizes as a range, the unit once when they share it: "4.6–5.6 MB",
/// "900 KB–1.2 MB".
pub fn size_range(low: u64, high: u64) -> String {
    let (a, b) = (size(low), size(high));
    match (a.split_once(' '), b.split_once(' ')) {
        (Some((na, ua)), Some((nb, ub))) if ua == ub => format!("{na}–{nb} {ub}"),
        _ => format!("{a}–{b}"),
    }
}

/// A time: "812 ns", "3.45 µs", "24.1 ms"; a fitted cost may be negative: "-11.3 µs".
pub fn time(ns: f64) -> String {
    figure(Metric::Wall, ns)
}

/// A figure of `metric`: "3.45 µs", "33.0 k instr"; negative ones keep their sign.
pub fn figure(metric: Metric, v: f64) -> String {
    if v < 0.0 {
        format!("-{}", metric.format(-v))
    } else {
        metric.format(v)
    }
}

/// The scale of a formatted figure's unit ("ms": 1e6, "k instr": 1e3).
fn unit_scale(unit: &str) -> f64 {
    match unit.split(' ').next().unwrap_or("") {
        "µs" | "k" => 1e3,
        "ms" | "M" => 1e6,
        "s" | "G" => 1e9,
        _ => 1.0,
    }
}

/// A time with its interval written in the time's unit: "3.10 ms [3.05, 3.12]".
pub fn time_ci(ns: f64, low: Option<f64>, high: Option<f64>) -> String {
    figure_ci(Metric::Wall, ns, low, high)
}

/// A figure of `metric` with its interval in the figure's unit:
/// "3.10 ms [3.05, 3.12]", "33.0 k instr [32.9, 33.1]".
pub fn figure_ci(metric: Metric, v: f64, low: Option<f64>, high: Option<f64>) -> String {
    let main = figure(metric, v);
    let unit = main.split_once(' ').map_or("", |(_, u)| u).to_string();
    let scale = unit_scale(&unit);
    match (low, high) {
        (Some(lo), Some(hi)) => {
            let [v2, lo, hi] = numbers([v.abs() / scale, lo / scale, hi / scale]);
            let sign = if v < 0.0 { "-" } else { "" };
            if unit.is_empty() {
                format!("{sign}{v2} [{lo}, {hi}]")
            } else {
                format!("{sign}{v2} {unit} [{lo}, {hi}]")
            }
        }
        _ => main,
    }
}

/// Two times, the unit once when they share it: "4.91 against 6.02 ms",
/// "950 µs against 1.20 ms".
pub fn time_pair(a: f64, b: f64) -> String {
    figure_pair(Metric::Wall, a, b)
}

/// Two figures of `metric`, the unit once when they share it.
pub fn figure_pair(metric: Metric, a: f64, b: f64) -> String {
    let (ta, tb) = (figure(metric, a), figure(metric, b));
    match (ta.split_once(' '), tb.split_once(' ')) {
        (Some((na, ua)), Some((_, ub))) if ua == ub => format!("{na} against {tb}"),
        _ => format!("{ta} against {tb}"),
    }
}

/// Two times as a range, the unit once when they share it: "156–188 ms".
pub fn time_range(low: f64, high: f64) -> String {
    figure_range(Metric::Wall, low, high)
}

/// A range of figures of `metric`, the unit once when they share it.
pub fn figure_range(metric: Metric, low: f64, high: f64) -> String {
    let (a, b) = (figure(metric, low), figure(metric, high));
    match (a.split_once(' '), b.split_once(' ')) {
        (Some((na, ua)), Some((_, ub))) if ua == ub => format!("{na}–{b}"),
        _ => format!("{a}–{b}"),
    }
}

/// A signed figure with three significant digits: "3.10", "-0.52", "0.004".
pub fn number(v: f64) -> String {
    if v.abs() < 0.01 && v != 0.0 {
        let digits = (-v.abs().log10().floor()) as usize + 2;
        return format!("{v:.digits$}");
    }
    let text = three_digits(v.abs());
    if v < 0.0 { format!("-{text}") } else { text }
}

/// A figure and its interval with the decimals of `number`, or more where
/// those would print the interval's ends alike: "0.556 [0.555, 0.557]",
/// not "0.56 [0.56, 0.56]".
pub fn numbers([v, lo, hi]: [f64; 3]) -> [String; 3] {
    let base = number(v);
    let mut decimals = base.split_once('.').map_or(0, |(_, d)| d.len());
    while decimals < 6 && format!("{lo:.decimals$}") == format!("{hi:.decimals$}") && lo != hi {
        decimals += 1;
    }
    if decimals == base.split_once('.').map_or(0, |(_, d)| d.len()) {
        [base, number(lo), number(hi)]
    } else {
        [v, lo, hi].map(|x| format!("{x:.decimals$}"))
    }
}

/// A ratio: "3.20x".
pub fn ratio(r: f64) -> String {
    format!("{}x", three_digits(r))
}

/// A share as a whole percentage: "6%", or "0.4%" below 1%.
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p < 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    list(items, "and")
}

/// "a", "a or b", "a, b or c".
pub fn or_list(items: &[String]) -> String {
    list(items, "or")
}

fn list(items: &[String], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {conjunction} {last}", rest.join(", ")),
    }
}

/// Sizes that are a run of neighbours in `all` (sorted) read as a range,
/// "1 KB to 1 MB"; others are listed: "1 KB, 64 KB and 100 MB".
pub fn sizes(picked: &[u64], all: &[u64]) -> String {
    let positions: Vec<usize> = picked.iter().filter_map(|s| all.iter().position(|a| a == s)).collect();
    let consecutive = positions.windows(2).all(|w| w[1] == w[0] + 1);
    match picked {
        [first, .., last] if consecutive && picked.len() >= 3 => format!("{} to {}", payload(*first), payload(*last)),
        _ => and_list(&picked.iter().map(|s| payload(*s)).collect::<Vec<_>>()),
    }
}

/// The longest message a cell keeps (bytes): a program's or worker's error
/// text beyond it is cut in the middle, so a 900 KB error is not copied
/// into every report, journal line and store row.
pub const MESSAGE_MAX: usize = 4096;

/// `text` within `max` bytes: its head and tail with what was left out
/// counted between them ("… 895,920 bytes left out …"); as it is when short.
pub fn capped(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(64);
    let (head, tail) = (keep * 2 / 3, keep / 3);
    let head_end = floor_boundary(text, head);
    let tail_start = ceil_boundary(text, text.len() - tail);
    format!(
        "{} … {} bytes left out … {}",
        &text[..head_end],
        tail_start - head_end,
        &text[tail_start..]
    )
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_in_the_tables() {
        assert_eq!(size(1000), "1 KB");
        assert_eq!(size(100_000_000), "100 MB");
        assert_eq!(size(1_500_000), "1.5 MB");
        assert_eq!(size(256), "256 B");
        assert_eq!(time_ci(3.1e6, Some(3.05e6), Some(3.12e6)), "3.10 ms [3.05, 3.12]");
        assert_eq!(time_ci(950.0, Some(-20.0), Some(2100.0)), "950 ns [-20.0, 2100]");
        assert_eq!(
            time_ci(-11_263.7, Some(-12_537.0), Some(-2141.0)),
            "-11.3 µs [-12.5, -2.14]"
        );
        assert_eq!(number(0.0042), "0.00420");
        assert_eq!(numbers([0.5556, 0.5551, 0.5560]), ["0.556", "0.555", "0.556"]);
        assert_eq!(numbers([1.14, 1.04, 1.22]), ["1.14", "1.04", "1.22"]);
        assert_eq!(size_range(4_600_000, 5_600_000), "4.6–5.6 MB");
        assert_eq!(size_range(900_000, 1_200_000), "900 KB–1.2 MB");
        assert_eq!(time_pair(4.91e6, 6.02e6), "4.91 against 6.02 ms");
        assert_eq!(time_range(156e6, 188e6), "156–188 ms");
        assert_eq!(time_pair(950e3, 1.2e6), "950 µs against 1.20 ms");
        let counts = Metric::Instructions;
        assert_eq!(figure_pair(counts, 33_000.0, 53_600.0), "33.0 against 53.6 k instr");
        assert_eq!(
            figure_ci(counts, 2.5e6, Some(2.49e6), Some(2.51e6)),
            "2.50 M instr [2.49, 2.51]"
        );
        let all = [1000, 64_000, 1_000_000, 10_000_000];
        assert_eq!(sizes(&[1000, 64_000, 1_000_000], &all), "1 KB to 1 MB");
        assert_eq!(sizes(&[1000, 1_000_000], &all), "1 KB and 1 MB");
        assert_eq!(payload(256), "256 B");
        assert_eq!(payload(1024), "1 KiB");
        assert_eq!(payload(100 << 20), "100 MiB");
        assert_eq!(payload(1536), "1.54 KB");
        assert_eq!(payload(100_000), "100 KB");
        assert_eq!(payload(16_000_000), "16 MB");
        assert_eq!(payload(2048), "2 KiB");
    }

    #[test]
    fn a_long_message_keeps_its_head_and_tail_within_the_cap() {
        assert_eq!(capped("short", 100), "short");
        let long = format!("HEAD{}é{}TAIL", "x".repeat(900_000), "y".repeat(1000));
        let c = capped(&long, MESSAGE_MAX);
        assert!(c.len() <= MESSAGE_MAX, "{}", c.len());
        assert!(c.starts_with("HEAD") && c.ends_with("TAIL"));
        let left_out: usize = c
            .split(" … ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            c.len() - " …  bytes left out … ".len() - left_out.to_string().len() + left_out,
            long.len()
        );
    }
}
