//! The scaling chart: time against payload size on log-log axes, one
//! series per implementation with its interval band, failures marked, and
//! a legend below the plot explaining each of those marks.

use super::*;
use crate::base::outcome::Outcome;
use crate::report::charts::axes::{compact, log_ticks, text_px, thin};
use crate::report::charts::legend::{self, Entry, Key};
use crate::report::charts::sizes::{label_at, size_ticks};
use crate::report::tables::Subset;
use crate::results::{Cell, Results};
use plotters::element::Cross;
use plotters::prelude::*;

/// Time per call against payload size, log-log, one line per implementation
/// with its interval band; cells that are not ok are marked along the top with
/// their outcome. `None` when the subset has no sizes to plot.
pub(crate) fn scaling(results: &Results, subset: &Subset, row: &str) -> Option<String> {
    let sized: Vec<(&Cell, f64)> = subset
        .cells
        .iter()
        .filter_map(|c| bytes_of(c, row).map(|b| (*c, b)))
        .collect();
    let sizes = size_ticks(&sized, row);
    if sizes.len() < 2 {
        return None;
    }
    let (xmin, xmax) = (sizes[0].0 / 1.5, sizes[sizes.len() - 1].0 * 1.5);
    let (ymin, ymax) = time_range(&sized);
    let (height, x_area, y_area) = (440u32, 56u32, 100u32);
    let plot_w = f64::from(WIDE_PX - y_area - 2 * MARGIN_PX);
    let plot_h = f64::from(height - x_area - 2 * MARGIN_PX - TITLE_PX * 2);
    let values: Vec<f64> = sizes.iter().map(|t| t.0).collect();
    let x_ticks = thin(
        &values,
        &|b| text_px(&label_at(&sizes, b), f64::from(FONT_PX)),
        plot_w / (xmax / xmin).log10(),
    );
    let y_gap = f64::from(FONT_PX) * 1.3 + 8.0;
    let y_ticks = log_ticks(ymin, ymax, y_gap / (plot_h / (ymax / ymin).log10()));
    let metric = results.view;
    let title = chart_title(subset, &format!("{} per call by payload size", metric.noun()));
    let chart_h = height + extra_title_px(&title, TITLE_PX);
    let entries = legend_entries(results, &sized);
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
            .build_cartesian_2d(
                (xmin..xmax).log_scale().with_key_points(x_ticks),
                (ymin..ymax).log_scale().with_key_points(y_ticks),
            )
            .ok()?;
        chart
            .configure_mesh()
            .x_desc("payload size (log scale)")
            .y_desc(format!("{} per call (log scale)", metric.noun()))
            .x_label_formatter(&|b| label_at(&sizes, *b))
            .y_label_formatter(&|t| compact(&axis_figure(metric, *t)))
            .label_style(font(FONT_PX))
            .axis_desc_style(font(FONT_PX))
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .ok()?;
        draw_scaling_series(&root, &mut chart, results, &sized)?;
        mark_not_ok(&mut chart, results, &sized, ymax)?;
        root.present().ok()?;
    }
    legend::append(&mut svg, &entries, (WIDE_PX, total_h), chart_h, FONT_PX)?;
    Some(svg)
}

/// What the legend explains: each implementation drawn, the interval band
/// when one is, and each outcome marked with a cross.
fn legend_entries(results: &Results, sized: &[(&Cell, f64)]) -> Vec<Entry> {
    let mut entries: Vec<Entry> = results
        .implementations_that_ran()
        .iter()
        .enumerate()
        .filter(|(_, name)| !series_points(sized, name).is_empty())
        .map(|(i, name)| Entry::new(Key::Series(i), name.as_str()))
        .collect();
    let banded = sized
        .iter()
        .filter_map(|(c, _)| c.stats.as_ref())
        .any(|s| s.ci_low_ns.is_some() && s.ci_high_ns.is_some());
    if banded {
        let percent = results.analysis.confidence * 100.0;
        entries.push(Entry::new(Key::Band, format!("shaded: {percent:.0}% interval")));
    }
    let mut outcomes: Vec<Outcome> = not_ok(sized).map(|(c, _)| c.outcome).collect();
    outcomes.sort_by_key(|o| o.label());
    outcomes.dedup();
    for o in outcomes {
        entries.push(Entry::new(Key::Cross, format!("{}: no time plotted", o.label())));
    }
    entries
}

/// The cells marked with a cross: those that ran and did not finish ok.
fn not_ok<'s, 'c>(sized: &'s [(&'c Cell, f64)]) -> impl Iterator<Item = &'s (&'c Cell, f64)> {
    sized
        .iter()
        .filter(|(c, _)| c.outcome != Outcome::Ok && c.outcome != Outcome::Skipped)
}

/// Each implementation's line (dashed in pixels), markers and interval band.
fn draw_scaling_series<'a, 'b>(
    root: &DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    chart: &mut LogChart<'a, 'b>,
    results: &Results,
    sized: &[(&Cell, f64)],
) -> Option<()>
where
    'b: 'a,
{
    for (i, name) in results.implementations_that_ran().iter().enumerate() {
        let pts = series_points(sized, name);
        if pts.is_empty() {
            continue;
        }
        let c = colour(i);
        let band: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.0, p.3))
            .chain(pts.iter().rev().map(|p| (p.0, p.2)))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, c.mix(0.15))))
            .ok()?;
        let pixels: Vec<(i32, i32)> = pts.iter().map(|p| chart.backend_coord(&(p.0, p.1))).collect();
        root.draw(&Polylines::dashed(&pixels, i, c.stroke_width(2))).ok()?;
        chart
            .draw_series(
                pts.iter()
                    .map(|p| EmptyElement::at((p.0, p.1)) + marker::<SVGBackend<'b>>(i, (0, 0), c.filled())),
            )
            .ok()?;
    }
    Some(())
}

/// Not-ok cells: a cross near the top edge with the outcome's label; several
/// at one size are stacked so their labels do not overlap.
fn mark_not_ok(chart: &mut LogChart, results: &Results, sized: &[(&Cell, f64)], ymax: f64) -> Option<()> {
    let series = super::series_numbers(results);
    let mut at_size: Vec<f64> = Vec::new();
    for (c, b) in not_ok(sized) {
        let k = at_size.iter().filter(|x| **x == *b).count() as i32;
        at_size.push(*b);
        let i = series.get(c.implementation.as_str()).copied().unwrap_or(0);
        let label = format!("{} {}", c.implementation, c.outcome.label());
        let dy = i32::try_from(FONT_PX).unwrap_or(15) + 4;
        // The label reads rightwards from the cross, or leftwards where it would leave the plot.
        let x = chart.backend_coord(&(*b, ymax)).0;
        let right = chart.plotting_area().get_pixel_range().0.end;
        let (dx, side) = if f64::from(x) + 9.0 + text_px(&label, f64::from(FONT_PX)) > f64::from(right) {
            (-9, HPos::Right)
        } else {
            (9, HPos::Left)
        };
        let c = colour(i);
        let style = font(FONT_PX).color(&c).pos(Pos::new(side, VPos::Top));
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((*b, ymax / 1.6))
                    + Cross::new((0, k * dy), 6, c.stroke_width(3))
                    + Text::new(label, (dx, k * dy - 8), style),
            ))
            .ok()?;
    }
    Some(())
}
