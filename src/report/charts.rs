//! Charts as self-contained SVG, drawn with `plotters` (its SVG backend needs
//! no font files and escapes every text it writes). Each series differs by
//! line dash and marker shape as well as colour, so the charts read without
//! colour. Ticks, labels and dashes come from `axes`, sized so that text
//! stays readable when the page shrinks a chart to a phone's width. Like
//! every reporter, this only draws numbers `analysis` computed.

use plotters::element::{Circle, Cross, PathElement, Rectangle, TriangleMarker};
use plotters::prelude::*;
use plotters::style::ShapeStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::types::RangedCoordf64;
use plotters::element::{Drawable, PointCollection};
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::outcome::Outcome;
use crate::report::axes::{
    compact, dash, dash_pattern, fit, log_ticks, ratio_label, ratio_range, text_px, thin, wrap_px,
};
use crate::report::tables::Subset;
use crate::results::{Cell, Comparison, Results};
use crate::units::{format_bytes, format_nanos, parse_size};

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

/// Colour-blind-safe palette (Okabe–Ito).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(0, 0, 0),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Draws series `i`'s marker at `(x, y)`: circle, triangle, square, cross, in turn.
fn marker<DB: DrawingBackend>(i: usize, at: (i32, i32), style: ShapeStyle) -> DynElement<'static, DB, (i32, i32)> {
    match i % 4 {
        0 => Circle::new(at, 4, style).into_dyn(),
        1 => TriangleMarker::new(at, 5, style).into_dyn(),
        2 => Rectangle::new([(at.0 - 4, at.1 - 4), (at.0 + 4, at.1 + 4)], style).into_dyn(),
        _ => Cross::new(at, 4, style.stroke_width(2)).into_dyn(),
    }
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
fn axis_figure(metric: crate::results::Metric, v: f64) -> String {
    match metric {
        crate::results::Metric::Wall => format_nanos(v),
        crate::results::Metric::Instructions => crate::units::format_count(v),
    }
}

/// Time per call against payload size, log-log, one line per implementation
/// with its interval band; cells that are not ok are marked along the top with
/// their outcome. `None` when the subset has no sizes to plot.
pub fn scaling(results: &Results, subset: &Subset, row: &str) -> Option<String> {
    let sized: Vec<(&Cell, f64)> = subset
        .cells
        .iter()
        .filter_map(|c| bytes_of(c, row).map(|b| (*c, b)))
        .collect();
    let mut sizes: Vec<f64> = sized.iter().map(|(_, b)| *b).collect();
    sizes.sort_unstable_by(f64::total_cmp);
    sizes.dedup();
    if sizes.len() < 2 {
        return None;
    }
    let (xmin, xmax) = (sizes[0] / 1.5, sizes[sizes.len() - 1] * 1.5);
    let (ymin, ymax) = time_range(&sized);
    let (height, x_area, y_area) = (440u32, 56u32, 100u32);
    let plot_w = f64::from(WIDE_PX - y_area - 2 * MARGIN_PX);
    let plot_h = f64::from(height - x_area - 2 * MARGIN_PX - TITLE_PX * 2);
    let x_ticks = thin(
        &sizes,
        &|b| text_px(&compact(&format_bytes(b as u64)), f64::from(FONT_PX)),
        plot_w / (xmax / xmin).log10(),
    );
    let y_gap = f64::from(FONT_PX) * 1.3 + 8.0;
    let y_ticks = log_ticks(ymin, ymax, y_gap / (plot_h / (ymax / ymin).log10()));
    let metric = results.view;
    let title = chart_title(subset, &format!("{} per call by payload size", metric.noun()));
    let height = height + extra_title_px(&title, TITLE_PX);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDE_PX, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let area = titled(&root, &title, TITLE_PX)?;
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
            .x_label_formatter(&|b| compact(&format_bytes(*b as u64)))
            .y_label_formatter(&|t| compact(&axis_figure(metric, *t)))
            .label_style(font(FONT_PX))
            .axis_desc_style(font(FONT_PX))
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .ok()?;
        draw_scaling_series(&root, &mut chart, results, &sized)?;
        mark_not_ok(&mut chart, results, &sized, ymax)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font(font(FONT_PX))
            .legend_area_size(36)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

type LogChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>>;

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
    for (i, name) in crate::report::tables::implementations(results).iter().enumerate() {
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
            .ok()?
            .label(name.as_str())
            .legend(move |(x, y)| {
                EmptyElement::at((x, y))
                    + Polylines::dashed(&[(-14, 0), (14, 0)], i, c.stroke_width(2))
                    + marker::<SVGBackend<'b>>(i, (0, 0), c.filled())
            });
    }
    Some(())
}

/// Not-ok cells: a cross near the top edge with the outcome's label; several
/// at one size are stacked so their labels do not overlap.
fn mark_not_ok(chart: &mut LogChart, results: &Results, sized: &[(&Cell, f64)], ymax: f64) -> Option<()> {
    let impls = crate::report::tables::implementations(results);
    let mut at_size: Vec<f64> = Vec::new();
    for (c, b) in sized
        .iter()
        .filter(|(c, _)| c.outcome != Outcome::Ok && c.outcome != Outcome::Skipped)
    {
        let k = at_size.iter().filter(|x| **x == *b).count() as i32;
        at_size.push(*b);
        let i = impls.iter().position(|n| *n == c.implementation).unwrap_or(0);
        let label = format!("{} {}", c.implementation, c.outcome.label());
        let dy = i32::try_from(FONT_PX).unwrap_or(15) + 4;
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((*b, ymax / 1.6))
                    + Cross::new((0, k * dy), 6, colour(i).stroke_width(3))
                    + Text::new(label, (9, k * dy - 8), font(FONT_PX).color(&colour(i))),
            ))
            .ok()?;
    }
    Some(())
}

/// Relative speed against the baseline: one bar per implementation and row
/// value, on a log axis holding 1×, with the ratio's interval as a whisker.
pub fn relative(results: &Results, subset: &Subset, row: Option<&str>) -> Option<String> {
    let comps: Vec<(&Cell, &Comparison)> = subset
        .cells
        .iter()
        .filter_map(|c| {
            results
                .comparisons
                .iter()
                .find(|k| k.implementation == c.implementation && k.operation == c.operation && k.params == c.params)
                .map(|k| (*c, k))
        })
        .filter(|(_, k)| k.implementation != k.baseline)
        .collect();
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
    let y_area = (label_px + 16.0 + font_px * 1.6) as u32;
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
        crate::results::Metric::Wall => "the fastest".into(),
        crate::results::Metric::Instructions => "the fewest".into(),
    });
    let title = match metric {
        crate::results::Metric::Wall => chart_title(subset, "relative time, below 1× is faster"),
        crate::results::Metric::Instructions => chart_title(subset, "relative instructions, below 1× is fewer"),
    };
    let height = height + extra_title_px(&title, TITLE_PX);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDE_PX, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let area = titled(&root, &title, TITLE_PX)?;
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
        // Row labels beside the axis, placed in pixels (a numeric axis has no category labels).
        for (j, label) in labels.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(lo, (n - 1 - j) as f64 + 0.5));
            let style = font(FONT_PX).pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(fit(label, label_px, font_px), (px - 8, py), style))
                .ok()?;
        }
        draw_bars(&mut chart, results, &comps)?;
        root.present().ok()?;
    }
    Some(svg)
}

type RatioChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, RangedCoordf64>>;

/// The bars of the relative chart (filled for a verdict, outlined for same or unknown),
/// their whiskers, and the line at 1×.
fn draw_bars(chart: &mut RatioChart, results: &Results, comps: &[(&Cell, &Comparison)]) -> Option<()> {
    let impls = crate::report::tables::implementations(results);
    let n = comps.len();
    for (j, (_, k)) in comps.iter().enumerate() {
        let y = (n - 1 - j) as f64;
        let i = impls.iter().position(|x| *x == k.implementation).unwrap_or(0);
        let c = colour(i);
        let style = match k.verdict {
            crate::results::Verdict::Same | crate::results::Verdict::Unknown => c.stroke_width(2),
            _ => c.mix(0.75).filled(),
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
            crate::plan::params_key(&cell.params).replace(',', ", ")
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
            .light_line_style(WHITE)
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
