//! Units as named types, and the parsers for the sizes and durations users
//! write in suite files and flags.
//!
//! Sizes follow SI for `KB`/`MB`/`GB` (powers of 1000) and IEC for
//! `KiB`/`MiB`/`GiB` (powers of 1024), so "1MB" means what a throughput in
//! MB/s means.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A duration in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct Nanos(pub u64);

impl Nanos {
    pub fn from_duration(d: Duration) -> Self {
        Nanos(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
    }
}

/// A count of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct Bytes(pub u64);

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum UnitError {
    #[error("'{0}' is not a size: expected a number and a unit such as 1KB, 64KiB, 10MB or 512 (bytes)")]
    BadSize(String),
    #[error("'{0}' is not a duration: expected a number and a unit such as 500ms, 10s or 2m")]
    BadDuration(String),
    #[error("'{0}' is too large: sizes up to 9 PB (2^53 bytes) are supported")]
    TooLarge(String),
}

/// Parses "100", "1KB", "1.5MB", "64KiB", "1 GB" into bytes.
pub fn parse_size(text: &str) -> Result<Bytes, UnitError> {
    let bad = || UnitError::BadSize(text.to_string());
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().map_err(|_| bad())?;
    let multiplier: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" | "k" => 1e3,
        "mb" | "m" => 1e6,
        "gb" | "g" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(bad()),
    };
    let bytes = value * multiplier;
    if !bytes.is_finite() || bytes < 0.0 || bytes.fract() != 0.0 && multiplier == 1.0 {
        return Err(bad());
    }
    // 2^53: the largest size every later step (offsets, file lengths,
    // floating-point throughput) still represents exactly; 9 PB.
    if bytes > (1u64 << 53) as f64 {
        return Err(UnitError::TooLarge(text.to_string()));
    }
    Ok(Bytes(bytes.round() as u64))
}

/// Parses "500ms", "10s", "2m", "1h30m" (anything `humantime` accepts).
/// "2%" (or "0.02") as a fraction in [0, 1).
pub fn parse_percent(s: &str) -> Result<f64, String> {
    let v = match s.trim().strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
        None => s.trim().parse::<f64>(),
    }
    .map_err(|_| format!("'{s}' is not a percentage such as 2%"))?;
    if !(v.is_finite() && (0.0..1.0).contains(&v)) {
        return Err(format!("'{s}' must be between 0% and 100%"));
    }
    Ok(v)
}

pub fn parse_duration(text: &str) -> Result<Duration, UnitError> {
    humantime::parse_duration(text.trim()).map_err(|_| UnitError::BadDuration(text.to_string()))
}

impl fmt::Display for Nanos {
    /// Three significant digits in the largest unit that keeps the number >= 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_nanos(self.0 as f64))
    }
}

/// A unit every time is shown in (`versus exec --time-unit`), instead of one per figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Microsecond,
    Millisecond,
    Second,
}

static TIME_UNIT: std::sync::OnceLock<TimeUnit> = std::sync::OnceLock::new();

/// Fixes the unit `format_nanos` uses for the rest of the process (first call wins).
pub fn set_time_unit(unit: TimeUnit) {
    let _ = TIME_UNIT.set(unit);
}

/// Formats a time in nanoseconds with an adaptive unit: "812 ns", "3.45 µs", "24.1 ms", "1.50 s",
/// or in the unit `set_time_unit` fixed.
pub fn format_nanos(ns: f64) -> String {
    let fixed = TIME_UNIT.get().map(|u| match u {
        TimeUnit::Microsecond => (ns / 1e3, "µs"),
        TimeUnit::Millisecond => (ns / 1e6, "ms"),
        TimeUnit::Second => (ns / 1e9, "s"),
    });
    let (value, unit) = if let Some(f) = fixed {
        f
    } else if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    format!("{} {unit}", three_digits(value))
}

/// Formats a count (instructions) with SI prefixes: "812", "3.45 k", "24.1 M", "1.50 G".
pub fn format_count(n: f64) -> String {
    let (value, prefix) = if n.abs() < 1e3 {
        (n, "")
    } else if n.abs() < 1e6 {
        (n / 1e3, " k")
    } else if n.abs() < 1e9 {
        (n / 1e6, " M")
    } else {
        (n / 1e9, " G")
    };
    if prefix.is_empty() && value.fract() == 0.0 {
        return format!("{value:.0}");
    }
    format!("{}{prefix}", three_digits(value))
}

/// Formats bytes with SI units: "1 KB", "64 KB", "1.5 MB".
pub fn format_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    let (value, unit) = if b < 1e3 {
        (b, "B")
    } else if b < 1e6 {
        (b / 1e3, "KB")
    } else if b < 1e9 {
        (b / 1e6, "MB")
    } else {
        (b / 1e9, "GB")
    };
    format!("{} {unit}", three_digits(value))
}

/// Formats bytes with IEC units, for sizes a suite wrote in KiB/MiB/GiB:
/// "512 B", "16.0 KiB", "1.50 MiB".
pub fn format_bytes_iec(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    let (value, unit) = if b < KIB {
        (b, "B")
    } else if b < KIB * KIB {
        (b / KIB, "KiB")
    } else if b < KIB * KIB * KIB {
        (b / (KIB * KIB), "MiB")
    } else {
        (b / (KIB * KIB * KIB), "GiB")
    };
    format!("{} {unit}", three_digits(value))
}

/// Formats a throughput in bytes per second as MB/s or GB/s.
pub fn format_throughput(bytes_per_s: f64) -> String {
    if bytes_per_s >= 1e9 {
        format!("{} GB/s", three_digits(bytes_per_s / 1e9))
    } else if bytes_per_s >= 1e6 {
        format!("{} MB/s", three_digits(bytes_per_s / 1e6))
    } else {
        format!("{} KB/s", three_digits(bytes_per_s / 1e3))
    }
}

/// Formats a rate of calls per second: "7,937/s" below a million, "2.06 M/s" above.
pub fn format_rate(per_s: f64) -> String {
    if per_s >= 1e6 {
        return format!("{} M/s", three_digits(per_s / 1e6));
    }
    if per_s < 10.0 {
        return format!("{}/s", three_digits(per_s));
    }
    let whole = per_s.round() as u64;
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    format!("{out}/s")
}

/// Three significant digits, no trailing exponent: 1.23, 12.3, 123, 1234.
pub fn three_digits(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_like_the_seeds() {
        assert_eq!(format_rate(7937.4), "7,937/s");
        assert_eq!(format_rate(62_500.0), "62,500/s");
        assert_eq!(format_rate(2_060_000.0), "2.06 M/s");
        assert_eq!(format_rate(123.0), "123/s");
        assert_eq!(format_rate(2.5), "2.50/s");
    }

    #[test]
    fn sizes_use_si_and_iec_units() {
        assert_eq!(parse_size("512"), Ok(Bytes(512)));
        assert_eq!(parse_size("1KB"), Ok(Bytes(1000)));
        assert_eq!(parse_size("64KiB"), Ok(Bytes(65536)));
        assert_eq!(parse_size("1.5MB"), Ok(Bytes(1_500_000)));
        assert_eq!(parse_size("100 mb"), Ok(Bytes(100_000_000)));
        assert_eq!(parse_size("1GiB"), Ok(Bytes(1 << 30)));
        assert_eq!(parse_size("0.1MB"), Ok(Bytes(100_000)));
    }

    #[test]
    fn bad_sizes_are_rejected() {
        for bad in ["", "MB", "1XB", "-1KB", "1.5", "1..2MB"] {
            assert!(parse_size(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn formatting_picks_a_readable_unit() {
        assert_eq!(format_nanos(812.0), "812 ns");
        assert_eq!(format_nanos(3_450.0), "3.45 µs");
        assert_eq!(format_nanos(24_100_000.0), "24.1 ms");
        assert_eq!(format_nanos(1_500_000_000.0), "1.50 s");
        assert_eq!(format_bytes(1000), "1.00 KB");
        assert_eq!(format_bytes(100_000_000), "100 MB");
        assert_eq!(format_throughput(2.5e8), "250 MB/s");
        assert_eq!(format_bytes_iec(512), "512 B");
        assert_eq!(format_bytes_iec(16 << 10), "16.0 KiB");
        assert_eq!(format_bytes_iec(3 << 19), "1.50 MiB");
        assert_eq!(format_bytes_iec(1 << 30), "1.00 GiB");
    }
}
