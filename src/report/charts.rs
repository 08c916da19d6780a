//! Charts as self-contained SVG, drawn with `plotters` (its SVG backend needs
//! no font files and escapes every text it writes). Each series differs by
//! line dash and marker shape as well as colour, so the charts read without
//! colour. Like every reporter, this only draws numbers `analysis` computed.

use plotters::element::{Circle, Cross, PathElement, Rectangle, TriangleMarker};
use plotters::prelude::*;
use plotters::style::ShapeStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::outcome::Outcome;
use crate::report::tables::Subset;
use crate::results::{Cell, Comparison, Results};
use crate::units::{format_bytes, format_nanos, parse_size};

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

/// Dash pattern of series `i` (solid, dashed, dotted, dash-dot) as polyline pieces.
fn dashed(points: &[(f64, f64)], i: usize) -> Vec<Vec<(f64, f64)>> {
    // Dashing in data space on log axes: split each segment into pieces by the log distance.
    let pattern: &[f64] = match i % 4 {
        0 => return vec![points.to_vec()],
        1 => &[0.08, 0.05],
        2 => &[0.02, 0.04],
        _ => &[0.1, 0.04, 0.02, 0.04],
    };
    let mut out = Vec::new();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (la, lb) = ((a.0.ln(), a.1.ln()), (b.0.ln(), b.1.ln()));
        let len = ((lb.0 - la.0).powi(2) + (lb.1 - la.1).powi(2)).sqrt().max(1e-9);
        let (mut t, mut k, mut on) = (0.0, 0, true);
        while t < 1.0 {
            let step = pattern[k % pattern.len()] * 10.0 / len;
            let t2 = (t + step).min(1.0);
            if on {
                let at = |t: f64| ((la.0 + (lb.0 - la.0) * t).exp(), (la.1 + (lb.1 - la.1) * t).exp());
                out.push(vec![at(t), at(t2)]);
            }
            t = t2;
            k += 1;
            on = !on;
        }
    }
    out
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

/// A chart's title: the operation, the subset's fixed parameters, and what is drawn.
fn chart_title(subset: &Subset, what: &str) -> String {
    if subset.label.is_empty() {
        format!("{}: {what}", subset.operation)
    } else {
        format!("{} ({}): {what}", subset.operation, subset.label)
    }
}

/// An interval from `l` to `h` at bar `y`: a line with end ticks.
fn whisker(l: f64, h: f64, y: f64) -> Vec<PathElement<(f64, f64)>> {
    vec![
        PathElement::new(vec![(l, y + 0.5), (h, y + 0.5)], BLACK.stroke_width(1)),
        PathElement::new(vec![(l, y + 0.35), (l, y + 0.65)], BLACK.stroke_width(1)),
        PathElement::new(vec![(h, y + 0.35), (h, y + 0.65)], BLACK.stroke_width(1)),
    ]
}

/// Time per call against payload size, log-log, one line per implementation
/// with its interval band; cells that are not ok are marked along the top with
/// their outcome. `None` when the subset has no sizes to plot.
pub fn scaling(results: &Results, subset: &Subset, row: &str) -> Option<String> {
    let impls = crate::report::tables::implementations(results);
    let sized: Vec<(&Cell, f64)> = subset
        .cells
        .iter()
        .filter_map(|c| bytes_of(c, row).map(|b| (*c, b)))
        .collect();
    let distinct_sizes = {
        let mut v: Vec<u64> = sized.iter().map(|(_, b)| *b as u64).collect();
        v.sort();
        v.dedup();
        v.len()
    };
    if distinct_sizes < 2 {
        return None;
    }
    let (xmin, xmax) = sized
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), (_, b)| (lo.min(*b), hi.max(*b)));
    let (ymin, ymax) = time_range(&sized);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 440)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let title = chart_title(subset, "time per call by payload size");
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d((xmin / 1.5..xmax * 1.5).log_scale(), (ymin..ymax).log_scale())
            .ok()?;
        chart
            .configure_mesh()
            .x_desc("payload size")
            .y_desc("time per call")
            .x_label_formatter(&|b| format_bytes(*b as u64))
            .y_label_formatter(&|t| format_nanos(*t))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .ok()?;
        for (i, name) in impls.iter().enumerate() {
            let pts = series_points(&sized, name);
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
            let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
            chart
                .draw_series(
                    dashed(&line, i)
                        .into_iter()
                        .map(|seg| PathElement::new(seg, c.stroke_width(2))),
                )
                .ok()?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(-10, 0), (10, 0)], c.stroke_width(2))
                        + marker::<SVGBackend>(i, (0, 0), c.filled())
                });
            chart
                .draw_series(
                    line.iter()
                        .map(|p| EmptyElement::at(*p) + marker::<SVGBackend>(i, (0, 0), c.filled())),
                )
                .ok()?;
        }
        // Not-ok cells: a cross along the top edge, with the outcome's label.
        for (c, b) in sized
            .iter()
            .filter(|(c, _)| c.outcome != Outcome::Ok && c.outcome != Outcome::Skipped)
        {
            let i = impls.iter().position(|n| *n == c.implementation).unwrap_or(0);
            let label = format!("{} {}", c.implementation, c.outcome.label());
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((*b, ymax / 1.6))
                        + Cross::new((0, 0), 6, colour(i).stroke_width(3))
                        + Text::new(label, (8, -4), ("sans-serif", 12).into_font().color(&colour(i))),
                ))
                .ok()?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

/// Relative speed against the baseline: one bar per implementation and row
/// value, on a log axis centred on 1, with the ratio's interval as a whisker.
pub fn relative(results: &Results, subset: &Subset, row: Option<&str>) -> Option<String> {
    let impls = crate::report::tables::implementations(results);
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
    let lo = comps
        .iter()
        .map(|(_, k)| k.ci_low.unwrap_or(k.ratio).min(k.ratio))
        .fold(1.0f64, f64::min)
        / 1.3;
    let hi = comps
        .iter()
        .map(|(_, k)| k.ci_high.unwrap_or(k.ratio).max(k.ratio))
        .fold(1.0f64, f64::max)
        * 1.3;
    let n = comps.len();
    let height = (60 + 26 * n) as u32 + 80;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let baseline = results
            .suite
            .baseline
            .clone()
            .unwrap_or_else(|| "the fastest of each row".into());
        let title = chart_title(subset, &format!("time relative to {baseline} (below 1 is faster)"));
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(170)
            .build_cartesian_2d((lo..hi).log_scale(), 0f64..n as f64)
            .ok()?;
        let labels: Vec<String> = comps
            .iter()
            .map(|(c, k)| match row.and_then(|r| c.params.get(r)) {
                Some(v) => format!("{v} · {}", k.implementation),
                None => k.implementation.clone(),
            })
            .collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_desc("ratio (log scale)")
            .x_label_formatter(&|r| format!("{r:.2}x"))
            .draw()
            .ok()?;
        // Row labels beside the axis, placed in pixels (a numeric axis has no category labels).
        for (j, label) in labels.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(lo, (n - 1 - j) as f64 + 0.5));
            let style = TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(label.clone(), (px - 8, py), style)).ok()?;
        }
        for (j, (_, k)) in comps.iter().enumerate() {
            let y = (n - 1 - j) as f64;
            let i = impls.iter().position(|x| *x == k.implementation).unwrap_or(0);
            let c = colour(i);
            // Hatch-free but distinguishable: filled for a verdict, outlined for ≈.
            let style = match k.verdict {
                crate::results::Verdict::Indistinguishable => c.stroke_width(2),
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
        root.present().ok()?;
    }
    Some(svg)
}

/// Every run of one cell in order: warm-up runs hollow, measured runs filled,
/// outliers as crosses. Shows warm-up trends and outliers at a glance.
pub fn distribution(cell: &Cell) -> Option<String> {
    let stats = cell.stats.as_ref()?;
    let warm = cell.warmup_per_call_ns();
    let measured = cell.samples.per_call_ns();
    let all: Vec<f64> = warm.iter().chain(&measured).copied().collect();
    let (lo, hi) = all.iter().fold((f64::MAX, 0f64), |(a, b), x| (a.min(*x), b.max(*x)));
    if all.is_empty() || hi <= 0.0 {
        return None;
    }
    let pad = ((hi - lo) * 0.1).max(hi * 0.01);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (360, 180)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{} · {}", cell.implementation, crate::plan::params_key(&cell.params)),
                ("sans-serif", 13),
            )
            .margin(6)
            .x_label_area_size(22)
            .y_label_area_size(62)
            .build_cartesian_2d(-0.5f64..(all.len() as f64 - 0.5), (lo - pad).max(0.0)..(hi + pad))
            .ok()?;
        chart
            .configure_mesh()
            .x_labels(4)
            .y_labels(4)
            .y_label_formatter(&|t| format_nanos(*t))
            .draw()
            .ok()?;
        let c = colour(0);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, stats.median_ns), (all.len() as f64 - 0.5, stats.median_ns)],
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
