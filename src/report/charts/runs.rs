//! Every run of one cell, drawn as a strip: the distribution behind its
//! median.

use super::*;
use crate::base::units::format_nanos;
use crate::report::charts::axes::{compact, wrap_px};
use crate::results::Cell;
use plotters::element::{Circle, Cross, PathElement};
use plotters::prelude::*;

/// The range of the time axis shared by the run charts of `cells` (the
/// panels of one group, so they compare at a glance): every run's time, padded.
pub fn run_range<'c>(cells: impl IntoIterator<Item = &'c Cell>) -> Option<(f64, f64)> {
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

/// Every run of one cell in order: warm-up runs hollow, measured runs filled,
/// outliers as crosses, on the time axis `y_range` (from [`run_range`]).
/// Shows warm-up trends and outliers at a glance.
pub fn distribution(cell: &Cell, y_range: (f64, f64)) -> Option<String> {
    let stats = cell.stats.as_ref()?;
    let warm = cell.warmup_per_call_ns();
    let measured = cell.samples.per_call_ns();
    let runs = warm.len() + measured.len();
    if runs == 0 {
        return None;
    }
    let (w, h) = (RUNS_PX.0, RUNS_PX.1);
    let small = RUNS_FONT_PX;
    let title = wrap_px(
        &format!(
            "{} · {}",
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
            .draw_series(
                warm.iter()
                    .enumerate()
                    .map(|(i, w)| Circle::new((i as f64, *w), 3, c.stroke_width(1))),
            )
            .ok()?;
        let base = warm.len();
        chart
            .draw_series(measured.iter().enumerate().map(|(i, m)| {
                let at = ((base + i) as f64, *m);
                if stats.outliers.contains(&i) {
                    Cross::new(at, 4, RGBColor(213, 94, 0).stroke_width(2)).into_dyn()
                } else {
                    Circle::new(at, 3, c.filled()).into_dyn()
                }
            }))
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}
