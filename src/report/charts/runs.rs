//! Every run of one cell, drawn as a strip: the distribution behind its
//! median. A cell of more runs than the strip has pixel columns is drawn as
//! each column's fastest and slowest run (spikes and dips stay; the title
//! says so), so a cell of a million runs is a strip of kilobytes.

use super::*;
use crate::base::units::format_nanos;
use crate::report::charts::axes::{compact, wrap_px};
use crate::results::Cell;
use plotters::element::{Circle, Cross, PathElement};
use plotters::prelude::*;

/// The range of the time axis shared by the run charts of `cells` (the
/// panels of one group, so they compare at a glance): every run's time, padded.
pub(crate) fn run_range<'c>(cells: impl IntoIterator<Item = &'c Cell>) -> Option<(f64, f64)> {
    let (lo, hi) = cells
        .into_iter()
        .filter(|c| c.stats.is_some())
        .flat_map(|c| c.warmup_per_call_ns().into_iter().chain(c.samples.per_call_ns()))
        .fold((f64::MAX, 0f64), |(a, b), x| (a.min(x), b.max(x)));
    if hi <= 0.0 || lo > hi {
        return None;
    }
    let pad = ((hi - lo) * 0.08).max(hi * 0.01);
    Some(((lo - pad).max(0.0), hi + pad))
}

/// How a run is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mark {
    Warmup,
    Measured,
    Outlier,
}

/// A run to draw: its position in order, its time and its mark.
type Point = (usize, f64, Mark);

/// The runs to draw: every run, or while there are more than `columns`,
/// each column's fastest and slowest.
fn points(warm: &[f64], measured: &[f64], outliers: &[usize], columns: usize) -> Vec<Point> {
    // `outliers` ascend (`robust::outliers`), so each is found by bisection.
    let is_outlier = |i: usize| outliers.binary_search(&i).is_ok();
    let all = warm.iter().map(|w| (*w, Mark::Warmup)).chain(
        measured
            .iter()
            .enumerate()
            .map(|(i, m)| (*m, if is_outlier(i) { Mark::Outlier } else { Mark::Measured })),
    );
    let runs = warm.len() + measured.len();
    if runs <= columns {
        return all.enumerate().map(|(i, (y, mark))| (i, y, mark)).collect();
    }
    // Each column's points, at most two: its fastest and slowest, in run order.
    let mut kept: Vec<Point> = Vec::with_capacity(2 * columns);
    let mut push = |low: Point, high: Point| {
        let (first, second) = if low.0 <= high.0 { (low, high) } else { (high, low) };
        kept.push(first);
        if second.0 != first.0 {
            kept.push(second);
        }
    };
    let mut column: Option<(usize, Point, Point)> = None;
    for (i, (y, mark)) in all.enumerate() {
        let (col, p) = (i * columns / runs, (i, y, mark));
        match column.as_mut() {
            Some((c, low, high)) if *c == col => {
                if y < low.1 {
                    *low = p;
                }
                if y > high.1 {
                    *high = p;
                }
            }
            _ => {
                if let Some((_, low, high)) = column.replace((col, p, p)) {
                    push(low, high);
                }
            }
        }
    }
    if let Some((_, low, high)) = column {
        push(low, high);
    }
    kept
}

/// Every run of one cell in order: warm-up runs hollow, measured runs filled,
/// outliers as crosses, on the time axis `y_range` (from [`run_range`]).
/// Shows warm-up trends and outliers at a glance.
pub(crate) fn distribution(cell: &Cell, y_range: (f64, f64)) -> Option<String> {
    let stats = cell.stats.as_ref()?;
    let warm = cell.warmup_per_call_ns();
    let measured = cell.samples.per_call_ns();
    let runs = warm.len() + measured.len();
    if runs == 0 {
        return None;
    }
    let (w, h) = (RUNS_PX.0, RUNS_PX.1);
    let columns = w as usize;
    let drawn = points(&warm, &measured, &stats.outliers, columns);
    let small = RUNS_FONT_PX;
    let thinned = if runs > columns {
        format!(" · {runs} runs, each column's fastest and slowest drawn")
    } else {
        String::new()
    };
    let title = wrap_px(
        &format!(
            "{} · {}{thinned}",
            cell.implementation,
            crate::base::params::params_key(&cell.params).replace(',', ", ")
        ),
        f64::from(w - 12),
        f64::from(small),
    );
    let h = h + extra_title_px(&title, small);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let area = titled(&root, &title, small)?;
        let mut chart = ChartBuilder::on(&area)
            .margin(6)
            .x_label_area_size(small * 3)
            .y_label_area_size(small * 6)
            .build_cartesian_2d(-0.5f64..(runs as f64 - 0.5), y_range.0..y_range.1)
            .ok()?;
        let per = if cell.samples.iterations.is_empty() {
            "run"
        } else {
            "call"
        };
        chart
            .configure_mesh()
            .x_labels(4)
            .y_labels(4)
            .x_desc("run, in order")
            .y_desc(format!("time per {per}"))
            .x_label_formatter(&|x| format!("{}", x.round() as i64 + 1))
            .y_label_formatter(&|t| compact(&format_nanos(*t)))
            .label_style(font(small))
            .axis_desc_style(font(small))
            .max_light_lines(0)
            .bold_line_style(RGBColor(230, 230, 230))
            .draw()
            .ok()?;
        let c = colour(0);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, stats.median_ns), (runs as f64 - 0.5, stats.median_ns)],
                BLACK.mix(0.4),
            )))
            .ok()?;
        chart
            .draw_series(drawn.iter().map(|&(i, y, mark)| {
                let at = (i as f64, y);
                match mark {
                    Mark::Warmup => Circle::new(at, 3, c.stroke_width(1)).into_dyn(),
                    Mark::Measured => Circle::new(at, 3, c.filled()).into_dyn(),
                    Mark::Outlier => Cross::new(at, 4, RGBColor(213, 94, 0).stroke_width(2)).into_dyn(),
                }
            }))
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_cell_draws_every_run_and_a_long_one_each_columns_extremes() {
        let warm = [9.0, 5.0];
        let measured: Vec<f64> = (0..10).map(|i| 1.0 + f64::from(i % 3)).collect();
        let every = points(&warm, &measured, &[4], 360);
        assert_eq!(every.len(), 12);
        assert_eq!(
            (every[0].2, every[6].2, every[5].2),
            (Mark::Warmup, Mark::Outlier, Mark::Measured)
        );
        // 100,000 runs with one spike and one dip: at most two points a
        // column, in run order, both extremes and the outlier kept.
        let mut long: Vec<f64> = (0..100_000).map(|i| 10.0 + f64::from(i % 7)).collect();
        long[50_000] = 99.0;
        long[70_000] = 0.5;
        let kept = points(&[], &long, &[50_000], 360);
        assert!(kept.len() <= 720 && kept.len() > 360, "{} points", kept.len());
        assert!(kept.windows(2).all(|w| w[0].0 < w[1].0), "in run order");
        assert!(kept.contains(&(50_000, 99.0, Mark::Outlier)) && kept.iter().any(|p| p.1 == 0.5));
    }
}
