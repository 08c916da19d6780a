//! Charts as self-contained SVG, drawn with `plotters` (its SVG backend needs
//! no font files and escapes every text it writes). Each series differs by
//! line dash and marker shape as well as colour (`style`), so the charts
//! read without colour. Ticks and labels come from `axes` and `sizes`,
//! sized so that text stays readable when the page shrinks a chart to a
//! phone's width; legends (`legend`) sit below the plot, never on it. Like
//! every reporter, this only draws numbers `analysis` computed.

pub(super) mod axes;
mod legend;
pub(super) mod panels;
mod relative;
mod runs;
mod scaling;
mod sizes;
pub(super) mod style;
#[cfg(test)]
mod tests;

pub(super) use relative::relative;
pub(super) use runs::{distribution, run_range};
pub(super) use scaling::scaling;

use plotters::element::PathElement;
use plotters::prelude::*;
use plotters::style::ShapeStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::types::RangedCoordf64;
use plotters::element::{Drawable, PointCollection};
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::base::units::{format_nanos, parse_size};
use crate::report::charts::axes::{dash, wrap_px};
use crate::report::charts::style::dash_pattern;
use crate::report::charts::style::{colour, marker};
use crate::report::tables::Subset;
use crate::results::Cell;

/// Design width of the wide charts, in SVG pixels. The page scales every
/// chart to its column (the SVG has a viewBox; the page sets width 100%), so
/// text is sized for the narrowest column: 15 px at 600 wide is 9.6 px in a
/// 384-pixel column (a 400-pixel phone).
const WIDE_PX: u32 = 600;
const FONT_PX: u32 = 15;
const TITLE_PX: u32 = 17;
const MARGIN_PX: u32 = 10;
/// The run charts: small panels, at least 280 pixels wide on the page.
const RUNS_PX: (u32, u32) = (360, 220);
const RUNS_FONT_PX: u32 = 13;

/// Each implementation's series number (its colour and marker), in report order.
fn series_numbers(results: &crate::results::Results) -> std::collections::HashMap<String, usize> {
    let mut numbers = std::collections::HashMap::new();
    for (i, name) in results.implementations_that_ran().into_iter().enumerate() {
        numbers.entry(name).or_insert(i);
    }
    numbers
}

fn bytes_of(cell: &Cell, row: &str) -> Option<f64> {
    cell.payload_bytes
        .or_else(|| {
            cell.params
                .get(row)
                .and_then(|v| parse_size(&v.to_string()).ok())
                .map(|b| b.0)
        })
        .map(|b| b as f64)
        .filter(|b| *b > 0.0)
}

/// The time axis's range: every median and interval end, with room above
/// for the outcome marks.
fn time_range(sized: &[(&Cell, f64)]) -> (f64, f64) {
    let times: Vec<f64> = sized
        .iter()
        .filter_map(|(c, _)| c.stats.as_ref())
        .flat_map(|s| {
            [
                s.ci_low_ns.unwrap_or(s.median_ns),
                s.ci_high_ns.unwrap_or(s.median_ns),
                s.median_ns,
            ]
        })
        .filter(|t| *t > 0.0)
        .collect();
    if times.is_empty() {
        return (1.0, 1e9);
    }
    let (lo, hi) = times
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), t| (lo.min(*t), hi.max(*t)));
    (lo / 2.0, hi * 4.0)
}

/// One implementation's (size, median, interval low, interval high), by size.
fn series_points(sized: &[(&Cell, f64)], name: &str) -> Vec<(f64, f64, f64, f64)> {
    let mut pts: Vec<(f64, f64, f64, f64)> = sized
        .iter()
        .filter(|(c, _)| c.implementation == name)
        .filter_map(|(c, b)| {
            let s = c.stats.as_ref()?;
            Some((
                *b,
                s.median_ns,
                s.ci_low_ns.unwrap_or(s.median_ns),
                s.ci_high_ns.unwrap_or(s.median_ns),
            ))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts
}

/// A chart's title: the operation, the subset's fixed parameters, and what
/// is drawn, in lines that fit the chart's width (wrapped, not cut).
fn chart_title(subset: &Subset, what: &str) -> Vec<String> {
    let title = if subset.label.is_empty() {
        format!("{}: {what}", subset.operation)
    } else {
        format!("{} ({}): {what}", subset.operation, subset.label)
    };
    wrap_px(&title, f64::from(WIDE_PX - 2 * MARGIN_PX), f64::from(TITLE_PX))
}

/// Height of one title line at `font_px`, in SVG pixels.
fn line_px(font_px: u32) -> u32 {
    (f64::from(font_px) * 1.24 * 1.3).ceil() as u32
}

/// Height the title's lines beyond the first add to a chart.
fn extra_title_px(lines: &[String], font_px: u32) -> u32 {
    line_px(font_px) * (lines.len().max(1) as u32 - 1)
}

/// Draws the title's lines centred at the top of `root` and returns the
/// area below them, where the chart goes.
fn titled<'a>(
    root: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    lines: &[String],
    font_px: u32,
) -> Option<DrawingArea<SVGBackend<'a>, plotters::coord::Shift>> {
    let line = line_px(font_px);
    let (width, _) = root.dim_in_pixel();
    let (top, rest) = root.split_vertically(line * lines.len() as u32 + MARGIN_PX / 2);
    let x = i32::try_from(width / 2).ok()?;
    for (i, l) in lines.iter().enumerate() {
        let y = i32::try_from(MARGIN_PX / 2 + line * i as u32).ok()?;
        let style = font(font_px).pos(Pos::new(HPos::Center, VPos::Top));
        top.draw(&Text::new(l.clone(), (x, y), style)).ok()?;
    }
    Some(rest)
}

/// An interval from `l` to `h` at bar `y`: a line with end ticks.
fn whisker(l: f64, h: f64, y: f64) -> Vec<PathElement<(f64, f64)>> {
    vec![
        PathElement::new(vec![(l, y + 0.5), (h, y + 0.5)], BLACK.stroke_width(1)),
        PathElement::new(vec![(l, y + 0.35), (l, y + 0.65)], BLACK.stroke_width(1)),
        PathElement::new(vec![(h, y + 0.35), (h, y + 0.65)], BLACK.stroke_width(1)),
    ]
}

/// Lines drawn as pieces (the "on" parts of a dash pattern), in pixels, as
/// one element: usable both on the chart and in its legend.
struct Polylines {
    pieces: Vec<Vec<(i32, i32)>>,
    style: ShapeStyle,
}

impl Polylines {
    /// `points` (pixels) dashed with series `i`'s pattern.
    fn dashed(points: &[(i32, i32)], i: usize, style: ShapeStyle) -> Self {
        let pts: Vec<(f64, f64)> = points.iter().map(|p| (f64::from(p.0), f64::from(p.1))).collect();
        let pieces = dash(&pts, dash_pattern(i))
            .into_iter()
            .map(|piece| piece.iter().map(|p| (p.0.round() as i32, p.1.round() as i32)).collect())
            .collect();
        Polylines { pieces, style }
    }
}

impl<'a> PointCollection<'a, (i32, i32)> for &'a Polylines {
    type Point = &'a (i32, i32);
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Vec<(i32, i32)>>>;
    fn point_iter(self) -> Self::IntoIter {
        self.pieces.iter().flatten()
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Polylines {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        for piece in &self.pieces {
            let path: Vec<BackendCoord> = points.by_ref().take(piece.len()).collect();
            backend.draw_path(path, &self.style)?;
        }
        Ok(())
    }
}

/// A sans-serif font of `px` pixels as drawn (plotters' SVG backend writes
/// the size it is given divided by 1.24, its points-to-pixels ratio).
fn font(px: u32) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", f64::from(px) * 1.24).into_font())
}

/// An axis label: a time, or a count without its unit word (the axis names it).
fn axis_figure(metric: crate::base::metric::Metric, v: f64) -> String {
    match metric {
        crate::base::metric::Metric::Wall => format_nanos(v),
        crate::base::metric::Metric::Instructions => crate::base::units::format_count(v),
    }
}

type LogChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>>;

type RatioChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, RangedCoordf64>>;
