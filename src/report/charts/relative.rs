//! The relative-speed chart: each implementation's ratio to the baseline
//! with its interval, one bar per cell, each row keyed by its series'
//! colour and marker, and a legend below the plot for the bar styles, the
//! whisker and the line at 1×.

use super::*;
use crate::report::charts::axes::{fit, log_ticks, ratio_label, ratio_range, text_px};
use crate::report::charts::legend::{self, Entry, Key};
use crate::report::tables::Subset;
use crate::results::{Cell, Comparison, Results, Verdict};
use plotters::element::{PathElement, Rectangle};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Room between a row's words and the axis for its series' marker, in pixels.
const ROW_KEY_PX: i32 = 18;

/// Relative speed against the baseline: one bar per implementation and row
/// value, on a log axis holding 1×, with the ratio's interval as a whisker.
pub(crate) fn relative(results: &Results, subset: &Subset, row: Option<&str>) -> Option<String> {
    let comps = compared(results, subset);
    if comps.is_empty() {
        return None;
    }
    let low = comps.iter().map(|(_, k)| k.ci_low.unwrap_or(k.ratio).min(k.ratio));
    let high = comps.iter().map(|(_, k)| k.ci_high.unwrap_or(k.ratio).max(k.ratio));
    let (lo, hi) = ratio_range(low.fold(1.0, f64::min), high.fold(1.0, f64::max));
    let labels: Vec<String> = comps
        .iter()
        .map(|(c, k)| match row.and_then(|r| c.params.get(r)) {
            Some(v) => format!("{v} · {}", k.implementation),
            None => k.implementation.clone(),
        })
        .collect();
    let font_px = f64::from(FONT_PX);
    let widest = labels.iter().map(|l| text_px(l, font_px)).fold(0.0, f64::max);
    let label_px = widest.min(f64::from(WIDE_PX) * 0.34);
    let y_area = (label_px + 16.0 + font_px * 1.6) as u32 + ROW_KEY_PX as u32;
    let n = comps.len();
    let (x_area, row_px) = (56u32, 32u32);
    let height = row_px * n as u32 + x_area + 2 * MARGIN_PX + TITLE_PX * 2;
    let plot_w = f64::from(WIDE_PX - y_area - 2 * MARGIN_PX);
    let tick_chars = [lo, hi]
        .iter()
        .map(|v| ratio_label(10f64.powf(v.log10().round())).chars().count())
        .max()
        .unwrap_or(4)
        + 1;
    let gap_px = tick_chars as f64 * font_px * 0.58 + 12.0;
    let ticks = log_ticks(lo, hi, gap_px / (plot_w / (hi / lo).log10()));
    let metric = results.view;
    let against = results.suite.baseline.clone().unwrap_or_else(|| match metric {
        crate::base::metric::Metric::Wall => "the fastest".into(),
        crate::base::metric::Metric::Instructions => "the fewest".into(),
    });
    let title = match metric {
        crate::base::metric::Metric::Wall => chart_title(subset, "relative time, below 1× is faster"),
        crate::base::metric::Metric::Instructions => chart_title(subset, "relative instructions, below 1× is fewer"),
    };
    let chart_h = height + extra_title_px(&title, TITLE_PX);
    let entries = legend_entries(results, &comps, &against);
    let total_h = chart_h + legend::height(&entries, WIDE_PX, FONT_PX);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDE_PX, total_h)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (top, _) = root.split_vertically(chart_h);
        let area = titled(&top, &title, TITLE_PX)?;
        let mut chart = ChartBuilder::on(&area)
            .margin(MARGIN_PX)
            .x_label_area_size(x_area)
            .y_label_area_size(y_area)
            .build_cartesian_2d((lo..hi).log_scale().with_key_points(ticks), 0f64..n as f64)
            .ok()?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc(fit(
                &format!("{} relative to {against} (log scale)", metric.noun()),
                plot_w,
                font_px,
            ))
            .y_desc(match row {
                Some(r) => format!("{r} · implementation"),
                None => "implementation".into(),
            })
            .x_label_formatter(&|r| ratio_label(*r))
            .label_style(font(FONT_PX))
            .axis_desc_style(font(FONT_PX))
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .ok()?;
        draw_row_labels(&root, &chart, results, &comps, &labels, (lo, label_px))?;
        draw_bars(&mut chart, results, &comps)?;
        root.present().ok()?;
    }
    legend::append(&mut svg, &entries, (WIDE_PX, total_h), chart_h, FONT_PX)?;
    Some(svg)
}

/// The subset's cells that have a comparison, other than the baseline's own.
fn compared<'r>(results: &'r Results, subset: &Subset<'r>) -> Vec<(&'r Cell, &'r Comparison)> {
    subset
        .cells
        .iter()
        .filter_map(|c| results.comparison_of(c).map(|k| (*c, k)))
        .filter(|(_, k)| k.implementation != k.baseline)
        .collect()
}

/// Whether a bar is filled: the comparison reached a verdict.
fn decided(k: &Comparison) -> bool {
    !matches!(k.verdict, Verdict::Same | Verdict::Unknown)
}

/// What the legend explains: the two bar styles and the whisker when they
/// are drawn, and the line at 1×.
fn legend_entries(results: &Results, comps: &[(&Cell, &Comparison)], against: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    if comps.iter().any(|(_, k)| decided(k)) {
        entries.push(Entry::new(Key::FilledBar, "filled: faster or slower"));
    }
    if comps.iter().any(|(_, k)| !decided(k)) {
        entries.push(Entry::new(Key::OutlinedBar, "outlined: same or unknown"));
    }
    if comps.iter().any(|(_, k)| k.ci_low.is_some() && k.ci_high.is_some()) {
        let percent = results.analysis.confidence * 100.0;
        entries.push(Entry::new(Key::Whisker, format!("whisker: {percent:.0}% interval")));
    }
    entries.push(Entry::new(Key::Reference, format!("1×: {against}")));
    entries
}

/// Row labels beside the axis, placed in pixels (a numeric axis has no
/// category labels), each with its series' marker between it and the axis.
fn draw_row_labels(
    root: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    chart: &RatioChart,
    results: &Results,
    comps: &[(&Cell, &Comparison)],
    labels: &[String],
    (lo, label_px): (f64, f64),
) -> Option<()> {
    let series = super::series_numbers(results);
    let n = comps.len();
    for (j, label) in labels.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(lo, (n - 1 - j) as f64 + 0.5));
        let i = series.get(comps[j].1.implementation.as_str()).copied().unwrap_or(0);
        root.draw(&(EmptyElement::at((px - ROW_KEY_PX / 2 - 2, py)) + marker(i, (0, 0), colour(i).filled())))
            .ok()?;
        let style = font(FONT_PX).pos(Pos::new(HPos::Right, VPos::Center));
        let words = fit(label, label_px, f64::from(FONT_PX));
        root.draw(&Text::new(words, (px - 8 - ROW_KEY_PX, py), style)).ok()?;
    }
    Some(())
}

/// The bars of the relative chart (filled for a verdict, outlined for same or unknown),
/// their whiskers, and the line at 1×.
fn draw_bars(chart: &mut RatioChart, results: &Results, comps: &[(&Cell, &Comparison)]) -> Option<()> {
    let series = super::series_numbers(results);
    let n = comps.len();
    for (j, (_, k)) in comps.iter().enumerate() {
        let y = (n - 1 - j) as f64;
        let i = series.get(k.implementation.as_str()).copied().unwrap_or(0);
        let c = colour(i);
        let style = if decided(k) {
            c.mix(0.75).filled()
        } else {
            c.stroke_width(2)
        };
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(1.0, y + 0.2), (k.ratio, y + 0.8)],
                style,
            )))
            .ok()?;
        if let (Some(l), Some(h)) = (k.ci_low, k.ci_high) {
            chart.draw_series(whisker(l, h, y)).ok()?;
        }
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(1.0, 0.0), (1.0, n as f64)],
            BLACK,
        )))
        .ok()?;
    Some(())
}
