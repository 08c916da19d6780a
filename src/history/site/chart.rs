//! The one chart the site draws: lines over a suite's runs (a cell's
//! median with its interval, or each implementation's ratio to the
//! baseline), on a log scale, with the runs where something changed
//! marked. Hand-written SVG, a polyline per series, so a history of
//! thousands of runs stays a few kilobytes; labels are escaped.

use std::fmt::Write as _;

use crate::base::sink::html;

/// Colours of successive series (those of the reports' charts).
const COLOURS: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#000000", "#a07800", "#332288", "#882255",
];

/// One series: (x, y) points, x a run index, y above 0; optional interval per point.
pub(crate) struct Series {
    pub label: String,
    pub points: Vec<(usize, f64)>,
    pub band: Vec<(usize, f64, f64)>,
}

/// What a chart shows.
pub(crate) struct Chart<'a> {
    /// Runs along the x axis (indexes 0..runs).
    pub runs: usize,
    pub series: &'a [Series],
    /// Runs where a change starts, with the series (index) it belongs to.
    pub marks: &'a [(usize, usize)],
    /// How a y value reads (a time, a ratio).
    pub format: &'a dyn Fn(f64) -> String,
    /// A line across the chart at this y (a ratio of 1), if any.
    pub rule: Option<f64>,
}

const W: f64 = 720.0;
const H: f64 = 240.0;
const LEFT: f64 = 70.0;
const PAD: f64 = 12.0;

struct Frame {
    runs: usize,
    lo: f64,
    hi: f64,
}

impl Frame {
    fn x(&self, run: usize) -> f64 {
        let span = (self.runs.max(2) - 1) as f64;
        LEFT + (W - LEFT - PAD) * run as f64 / span
    }

    fn y(&self, v: f64) -> f64 {
        let (lo, hi) = (self.lo.ln(), self.hi.ln());
        let t = if hi > lo {
            (v.max(f64::MIN_POSITIVE).ln() - lo) / (hi - lo)
        } else {
            0.5
        };
        H - PAD - (H - 2.0 * PAD) * t
    }
}

fn frame(c: &Chart) -> Option<Frame> {
    let values = c.series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(|p| p.1)
            .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
    });
    let (mut lo, mut hi) = values
        .chain(c.rule)
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return None;
    }
    if lo == hi {
        (lo, hi) = (lo * 0.9, hi * 1.1);
    }
    Some(Frame { runs: c.runs, lo, hi })
}

/// A coordinate to a tenth of a unit, written as integers: a history of
/// thousands of runs is thousands of points a page, and formatting a float
/// to a fixed precision costs several times as much.
fn coordinate(d: &mut String, v: f64) {
    let tenths = (v.max(0.0) * 10.0).round() as u64;
    let _ = write!(d, "{}.{}", tenths / 10, tenths % 10);
}

/// Which of a pixel column's values a path keeps.
#[derive(Clone, Copy)]
enum Keep {
    /// The lowest and the highest, in the order they came: a line.
    Both,
    /// The highest: a band's upper edge.
    High,
    /// The lowest: a band's lower edge.
    Low,
}

/// The points as the chart's pixels show them: while there are more runs
/// than pixel columns, each column's points give way to its extremes
/// (`keep`), which draw the same line with a fraction of the points (a
/// history of 2,000 runs is 638 columns wide).
fn on_pixels(f: &Frame, points: impl Iterator<Item = (usize, f64)>, keep: Keep) -> Vec<(f64, f64)> {
    let columns = W - LEFT - PAD;
    let out: Vec<(f64, f64)> = points.map(|(x, y)| (f.x(x), y)).collect();
    if (f.runs as f64) <= columns {
        return out;
    }
    let mut kept: Vec<(f64, f64)> = Vec::with_capacity(2 * columns as usize + 2);
    let mut k = 0;
    while k < out.len() {
        let column = out[k].0.round();
        let end = k + out[k..].iter().take_while(|p| p.0.round() == column).count();
        let part = &out[k..end];
        let low = part
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.1.total_cmp(&b.1.1))
            .map_or(0, |m| m.0);
        let high = part
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.1.total_cmp(&b.1.1))
            .map_or(0, |m| m.0);
        match keep {
            Keep::High => kept.push(part[high]),
            Keep::Low => kept.push(part[low]),
            Keep::Both if low == high => kept.push(part[low]),
            Keep::Both => {
                kept.push(part[low.min(high)]);
                kept.push(part[low.max(high)]);
            }
        }
        k = end;
    }
    kept
}

fn path(f: &Frame, points: impl Iterator<Item = (usize, f64)>, keep: Keep) -> String {
    let mut d = String::new();
    for (k, (x, y)) in on_pixels(f, points, keep).into_iter().enumerate() {
        d.push(if k == 0 { 'M' } else { 'L' });
        coordinate(&mut d, x);
        d.push(',');
        coordinate(&mut d, f.y(y));
    }
    d
}

fn band(s: &mut String, f: &Frame, series: &Series, colour: &str) {
    if series.band.len() < 2 {
        return;
    }
    let upper = path(f, series.band.iter().map(|b| (b.0, b.2)), Keep::High);
    let mut lower = path(f, series.band.iter().rev().map(|b| (b.0, b.1)), Keep::Low);
    lower.replace_range(..1, "L");
    let d = upper + &lower;
    let _ = write!(
        s,
        "<path d=\"{d}Z\" fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"none\"/>"
    );
}

/// Series of at most this many points get a mark at each.
const MARKED_POINTS: usize = 60;

/// The chart as an inline SVG element; empty when there is nothing to draw.
pub(crate) fn svg(c: &Chart) -> String {
    let Some(f) = frame(c) else { return String::new() };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" role=\"img\">\
<rect x=\"{LEFT}\" y=\"{PAD}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/>\
<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>\
<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
        W - LEFT - PAD,
        H - 2.0 * PAD,
        LEFT - 4.0,
        PAD + 10.0,
        html(&(c.format)(f.hi)),
        LEFT - 4.0,
        H - PAD,
        html(&(c.format)(f.lo)),
    );
    if let Some(r) = c.rule {
        let y = f.y(r);
        let _ = write!(
            s,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
            W - PAD
        );
    }
    for (i, series) in c.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        band(&mut s, &f, series, colour);
        let d = path(&f, series.points.iter().copied(), Keep::Both);
        let _ = write!(
            s,
            "<path d=\"{d}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\"><title>{}</title></path>",
            html(&series.label)
        );
        // A line of one point draws nothing, and a short history reads
        // better run by run: each point marked while they are few.
        if series.points.len() <= MARKED_POINTS {
            for &(run, v) in &series.points {
                let _ = write!(
                    s,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{colour}\"/>",
                    f.x(run),
                    f.y(v)
                );
            }
        }
    }
    for &(run, i) in c.marks {
        let x = f.x(run);
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(
            s,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{PAD}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"1\" stroke-dasharray=\"2 2\"/>",
            H - PAD
        );
    }
    s.push_str("</svg>");
    s
}

/// The legend: each series' label in its colour (escaped here).
pub(crate) fn legend(series: &[Series]) -> String {
    let items: Vec<String> = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "<span style=\"color:{}\">■</span> {}",
                COLOURS[i % COLOURS.len()],
                html(&s.label)
            )
        })
        .collect();
    format!("<p>{}</p>", items.join(" &nbsp; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(runs: usize) -> Frame {
        Frame {
            runs,
            lo: 1.0,
            hi: 100.0,
        }
    }

    /// A wobbling series with one spike up and one dip down.
    fn series(runs: usize) -> Vec<(usize, f64)> {
        (0..runs)
            .map(|k| match k {
                700 => (k, 90.0),
                1300 => (k, 2.0),
                _ => (k, 10.0 + (k % 7) as f64 * 0.1),
            })
            .collect()
    }

    #[test]
    fn a_short_history_keeps_every_point() {
        let points = series(600);
        assert_eq!(on_pixels(&frame(600), points.iter().copied(), Keep::Both).len(), 600);
    }

    #[test]
    fn a_long_history_keeps_each_columns_extremes_spikes_and_all() {
        let f = frame(2000);
        let kept = on_pixels(&f, series(2000).into_iter(), Keep::Both);
        let columns = (W - LEFT - PAD) as usize;
        assert!(kept.len() <= 2 * (columns + 1), "{} points", kept.len());
        assert!(kept.len() > columns, "every column is drawn: {}", kept.len());
        assert!(kept.iter().any(|p| p.1 == 90.0) && kept.iter().any(|p| p.1 == 2.0));
        assert!(kept.windows(2).all(|w| w[0].0 <= w[1].0), "in run order");
        let high = on_pixels(&f, series(2000).into_iter(), Keep::High);
        assert!(high.len() <= columns + 1 && high.iter().any(|p| p.1 == 90.0));
        assert!(!high.iter().any(|p| p.1 == 2.0), "the dip is no upper edge");
        let low = on_pixels(&f, series(2000).into_iter(), Keep::Low);
        assert!(low.iter().any(|p| p.1 == 2.0) && !low.iter().any(|p| p.1 == 90.0));
    }
}
