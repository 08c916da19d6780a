//! Peak memory against payload size, per implementation in a series: about
//! constant (it grows by less than `CONSTANT_BELOW` bytes per payload byte
//! over the sizes, or by less than `SMALL_GROWTH` of itself from the
//! smallest payload to the largest, and no cell is more than
//! `CONSTANT_SPREAD` above the lowest); not following the size (no such
//! growth, but cells far apart: a runtime that sizes its heap on the first
//! call, say), with its lowest and highest cells; or growing by k bytes per payload byte
//! (the least-squares slope, which the large sizes decide, as they should
//! for a growth rate). The smallest and largest cells are cited.
//!
//! A figure that is only an upper bound (`max_rss_at_most`) is left out
//! while two exact sizes remain; otherwise it is used, shown with "≤", and
//! the finding says so.

use crate::analysis::findings::series::Series;
use crate::base::text;
use crate::results::{Cell, Finding, FindingKind, Growth, MemoryGrowth};
use crate::stats::linear;

/// Growth below this many bytes of memory per payload byte is "constant".
pub(crate) const CONSTANT_BELOW: f64 = 0.05;
/// Memory at the largest payload within this share of the memory at the
/// smallest is "constant" whatever the slope.
pub(crate) const SMALL_GROWTH: f64 = 0.10;
/// Fewest times the largest payload must be the smallest's to tell growth.
const MIN_SPAN: f64 = 10.0;
/// A peak that does not grow with the payload but whose highest cell is
/// more than this much above its lowest is not "constant": it varies for
/// another reason (a runtime's heap sized on the first call, a collector).
pub(crate) const CONSTANT_SPREAD: f64 = 0.5;

struct Point<'r> {
    cell: &'r Cell,
    payload: u64,
    rss: u64,
    at_most: bool,
}

fn points<'r>(cells: &[&'r Cell]) -> Vec<Point<'r>> {
    let all: Vec<Point> = cells
        .iter()
        .filter_map(|c| {
            let s = c.stats.as_ref()?;
            Some(Point {
                cell: c,
                payload: c.payload_bytes?,
                rss: s.max_rss_bytes?,
                at_most: s.max_rss_at_most,
            })
        })
        .collect();
    let distinct = |ps: &[&Point]| {
        let mut sizes: Vec<u64> = ps.iter().map(|p| p.payload).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes.len()
    };
    let exact: Vec<&Point> = all.iter().filter(|p| !p.at_most).collect();
    if distinct(&exact) >= 2 {
        all.into_iter().filter(|p| !p.at_most).collect()
    } else {
        all
    }
}

/// One finding per implementation of the series with peak memory at two
/// or more sizes spanning at least `MIN_SPAN`.
pub(crate) fn findings(series: &Series) -> Vec<Finding> {
    series
        .by_implementation()
        .into_iter()
        .filter_map(|(name, cells)| finding(series, name, &cells))
        .collect()
}

fn finding(series: &Series, name: &str, cells: &[&Cell]) -> Option<Finding> {
    let ps = points(cells);
    let smallest = ps.iter().min_by_key(|p| (p.payload, p.rss))?;
    let largest = ps.iter().max_by_key(|p| (p.payload, p.rss))?;
    if (largest.payload as f64) < MIN_SPAN * smallest.payload as f64 {
        return None;
    }
    let x: Vec<f64> = ps.iter().map(|p| p.payload as f64).collect();
    let y: Vec<f64> = ps.iter().map(|p| p.rss as f64).collect();
    let k = linear::ordinary(&x, &y)?.slope;
    let upper_bounds = ps.iter().any(|p| p.at_most);
    // Growth that is small beside the memory itself (page-sized steps over
    // small payloads) is constant too, however steep its slope.
    let barely = (largest.rss as f64) < (1.0 + SMALL_GROWTH) * smallest.rss as f64;
    let (lowest, highest) = (ps.iter().map(|p| p.rss).min()?, ps.iter().map(|p| p.rss).max()?);
    let level = (highest as f64) <= (1.0 + CONSTANT_SPREAD) * lowest as f64;
    let growth = if (k < CONSTANT_BELOW || barely) && level {
        Growth::Constant
    } else if k < CONSTANT_BELOW || barely {
        Growth::Varies
    } else {
        Growth::Proportional
    };
    let shown = |p: &Point| {
        let s = text::size(p.rss);
        if p.at_most { format!("≤ {s}") } else { s }
    };
    let (low, high) = (ps.iter().min_by_key(|p| p.rss)?, ps.iter().max_by_key(|p| p.rss)?);
    let span = format!(
        "{} to {}",
        text::payload(smallest.payload),
        text::payload(largest.payload)
    );
    let mut sentence = match growth {
        Growth::Constant => {
            let range = if text::size(low.rss) == text::size(high.rss) {
                text::size(low.rss)
            } else {
                text::size_range(low.rss, high.rss)
            };
            let bound = if low.at_most || high.at_most { "≤ " } else { "" };
            format!("{name}: peak memory about constant, {bound}{range} from {span}")
        }
        Growth::Varies => format!(
            "{name}: peak memory does not follow the payload size: from {} at {} to {} at {} ({} to {})",
            shown(low),
            text::payload(low.payload),
            shown(high),
            text::payload(high.payload),
            text::payload(smallest.payload),
            text::payload(largest.payload)
        ),
        Growth::Proportional | Growth::Other => format!(
            "{name}: peak memory grows about {} bytes per payload byte, from {} at {} to {} at {}",
            text::number(k),
            shown(smallest),
            text::payload(smallest.payload),
            shown(largest),
            text::payload(largest.payload)
        ),
    };
    if upper_bounds {
        sentence.push_str(" (\"≤\": upper bounds, not exact peaks)");
    }
    let mut f = Finding::new(
        FindingKind::Memory,
        series.operation,
        series.params.clone(),
        sentence,
        vec![smallest.cell.id.clone(), largest.cell.id.clone()],
    );
    f.implementation = Some(name.to_string());
    f.memory = Some(MemoryGrowth {
        growth,
        bytes_per_payload_byte: k,
        smallest_payload_bytes: smallest.payload,
        smallest_rss_bytes: smallest.rss,
        largest_payload_bytes: largest.payload,
        largest_rss_bytes: largest.rss,
        upper_bounds,
    });
    Some(f)
}
