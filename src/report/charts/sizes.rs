//! The size axis in the units of the tables beside it. A suite that ran at
//! "16KiB / 256KiB / 10MiB" has those words as its table rows; an axis
//! reading "16.4 KB / 262 KB / 10.5 MB" names other numbers for the same
//! points. So the ticks sit at the suite's own sizes, labelled as the suite
//! wrote them; a size the suite gave without a unit (or only as a payload
//! count) is written in binary units when the suite's sizes are binary
//! (KiB/MiB/GiB, or whole multiples of 1024), else in decimal ones.

use crate::base::units::{format_bytes, format_bytes_iec, parse_size};
use crate::report::charts::axes::compact;
use crate::results::Cell;

/// One tick: a size in bytes and its label.
pub(super) type SizeTick = (f64, String);

/// Every distinct size of `sized` (cells with the bytes they are plotted
/// at), ascending, labelled as the tables label its row (`row`'s value).
pub(super) fn size_ticks(sized: &[(&Cell, f64)], row: &str) -> Vec<SizeTick> {
    let mut points: Vec<(f64, String)> = sized
        .iter()
        .map(|(c, b)| (*b, c.params.get(row).map(|v| v.to_string()).unwrap_or_default()))
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points.dedup_by(|a, b| a.0 == b.0);
    labelled(points)
}

/// Sizes (ascending, distinct) with their row's words, as ticks.
fn labelled(points: Vec<(f64, String)>) -> Vec<SizeTick> {
    let binary = is_binary(&points);
    points
        .into_iter()
        .map(|(bytes, text)| {
            let label = if written_as(&text, bytes) {
                text
            } else if binary {
                compact(&format_bytes_iec(bytes as u64))
            } else {
                compact(&format_bytes(bytes as u64))
            };
            (bytes, label)
        })
        .collect()
}

/// Whether `text` is a size with a unit that means exactly `bytes`.
fn written_as(text: &str, bytes: f64) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic()) && parse_size(text).is_ok_and(|b| b.0 as f64 == bytes)
}

/// Binary when some size is written in KiB/MiB/GiB, or, with none written
/// with a unit, when every size from 1 KiB up is a whole number of KiB and
/// not all of them are whole KB.
fn is_binary(points: &[(f64, String)]) -> bool {
    let iec = |t: &str| t.to_ascii_lowercase().ends_with("ib");
    if points.iter().any(|(b, t)| iec(t) && written_as(t, *b)) {
        return true;
    }
    if points.iter().any(|(b, t)| written_as(t, *b)) {
        return false;
    }
    let large: Vec<u64> = points.iter().map(|p| p.0 as u64).filter(|b| *b >= 1024).collect();
    !large.is_empty() && large.iter().all(|b| b % 1024 == 0) && !large.iter().all(|b| b % 1000 == 0)
}

/// The label of the tick at `bytes` among `ticks` (the value plotters hands
/// back is the key point it was given).
pub(super) fn label_at(ticks: &[SizeTick], bytes: f64) -> String {
    // Ticks ascend and are distinct (`size_ticks`): the nearest is one of
    // the two around `bytes`, the lower one on a tie.
    let at = ticks.partition_point(|t| t.0 < bytes);
    let near = [at.checked_sub(1), Some(at)]
        .into_iter()
        .flatten()
        .filter_map(|i| ticks.get(i))
        .min_by(|a, b| (a.0 - bytes).abs().total_cmp(&(b.0 - bytes).abs()));
    near.map(|t| t.1.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_is_the_nearest_ticks() {
        let ticks: Vec<SizeTick> = [1.0, 10.0, 100.0].iter().map(|b| (*b, format!("{b}"))).collect();
        let nearest = |b: f64| {
            ticks
                .iter()
                .min_by(|x, y| (x.0 - b).abs().total_cmp(&(y.0 - b).abs()))
                .map(|t| t.1.clone())
                .unwrap()
        };
        for b in [0.0, 1.0, 5.5, 6.0, 10.0, 55.0, 99.0, 100.0, 1e9] {
            assert_eq!(label_at(&ticks, b), nearest(b), "{b}");
        }
        assert_eq!(label_at(&[], 3.0), "");
    }

    fn ticks(values: &[(&str, u64)]) -> Vec<String> {
        let points = values.iter().map(|(t, b)| (*b as f64, t.to_string())).collect();
        labelled(points).into_iter().map(|t| t.1).collect()
    }

    #[test]
    fn sizes_keep_the_suites_own_words() {
        let binary = [("16KiB", 16 << 10), ("256KiB", 256 << 10), ("10MiB", 10 << 20)];
        assert_eq!(ticks(&binary), ["16KiB", "256KiB", "10MiB"]);
        let decimal = [("0.1MB", 100_000), ("1MB", 1_000_000), ("100MB", 100_000_000)];
        assert_eq!(ticks(&decimal), ["0.1MB", "1MB", "100MB"]);
    }

    #[test]
    fn sizes_without_units_read_in_binary_units_when_they_are_binary() {
        let powers = [("1024", 1024), ("65536", 65536), ("1048576", 1 << 20)];
        assert_eq!(ticks(&powers), ["1 KiB", "64 KiB", "1 MiB"]);
        let decimal = [("1000", 1000), ("64000", 64_000)];
        assert_eq!(ticks(&decimal), ["1 KB", "64 KB"]);
        // A payload count under a row that is not a size: binary by its bytes.
        let files = [("small", 4096), ("large", 16 << 20)];
        assert_eq!(ticks(&files), ["4 KiB", "16 MiB"]);
    }

    #[test]
    fn a_label_that_does_not_match_the_plotted_bytes_is_not_used() {
        // The cell's payload differs from its row's words: the axis shows the bytes.
        assert_eq!(ticks(&[("1KiB", 1100), ("2KiB", 2048)]), ["1.07 KiB", "2KiB"]);
    }
}
