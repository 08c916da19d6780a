//! How one series looks: its colour, marker shape and line dash. A reader
//! must tell any two series apart, also in grey print and with colour-blind
//! eyes, and suites compare ten implementations or more. So the three cycle
//! at coprime-ish periods (12 colours, 5 markers, 4 dashes): the first 12
//! series differ in colour, any two of the first 20 also in marker or dash,
//! and no (colour, marker, dash) repeats before series 60. Every colour keeps
//! a contrast of at least 3:1 on white (the guideline for graphics).

use plotters::element::{Circle, DynElement, IntoDynElement, Polygon, Rectangle, TriangleMarker};
use plotters::prelude::*;
use plotters::style::ShapeStyle;

/// Okabe–Ito's colour-blind-safe colours first (their light sky blue and
/// orange darkened to hold 3:1 on white), then six more of other hues,
/// each at least ΔE 20 (CIE76) from every other.
pub(crate) const PALETTE: [RGBColor; 12] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(0, 0, 0),
    RGBColor(160, 120, 0),
    RGBColor(51, 34, 136),
    RGBColor(136, 34, 85),
    RGBColor(102, 102, 102),
    RGBColor(17, 119, 51),
    RGBColor(200, 30, 60),
    RGBColor(140, 86, 75),
];

/// The marker shapes, in the order series take them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Marker {
    Circle,
    Triangle,
    Square,
    Diamond,
    TriangleDown,
}

const MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::TriangleDown,
];

/// Dash patterns in pixels (on, off, on, off…): solid, dashed, dotted,
/// dash-dot. Gaps stay short (3 px) so that a line reads as one series.
const DASHES: [&[f64]; 4] = [&[], &[6.0, 3.0], &[2.0, 3.0], &[6.0, 3.0, 2.0, 3.0]];

/// Series `i`'s colour.
pub(crate) fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Series `i`'s marker shape.
pub(crate) fn marker_shape(i: usize) -> Marker {
    MARKERS[i % MARKERS.len()]
}

/// Series `i`'s dash pattern in pixels; empty is a solid line.
pub(crate) fn dash_pattern(i: usize) -> &'static [f64] {
    DASHES[i % DASHES.len()]
}

/// Draws series `i`'s marker centred at `at` (pixels, relative to the
/// element it is added to), about 9 pixels across.
pub(crate) fn marker<DB: DrawingBackend>(
    i: usize,
    at: (i32, i32),
    style: ShapeStyle,
) -> DynElement<'static, DB, (i32, i32)> {
    let (x, y) = at;
    match marker_shape(i) {
        Marker::Circle => Circle::new(at, 4, style).into_dyn(),
        Marker::Triangle => TriangleMarker::new(at, 5, style).into_dyn(),
        Marker::Square => Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], style).into_dyn(),
        Marker::Diamond => Polygon::new(vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)], style).into_dyn(),
        Marker::TriangleDown => Polygon::new(vec![(x - 5, y - 3), (x + 5, y - 3), (x, y + 5)], style).into_dyn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(c: RGBColor) -> f64 {
        let channel = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
    }

    /// CIE L*a*b* of an sRGB colour (D65).
    fn lab(c: RGBColor) -> [f64; 3] {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (lin(c.0), lin(c.1), lin(c.2));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    fn key(i: usize) -> ((u8, u8, u8), Marker, &'static [f64]) {
        let c = colour(i);
        ((c.0, c.1, c.2), marker_shape(i), dash_pattern(i))
    }

    #[test]
    fn twelve_series_differ_in_colour_and_in_marker_or_dash() {
        for i in 0..12 {
            for j in 0..i {
                let (a, b) = (key(i), key(j));
                assert_ne!(a.0, b.0, "series {i} and {j} share a colour");
                assert!(a.1 != b.1 || a.2 != b.2, "series {i} and {j} share marker and dash");
            }
        }
    }

    #[test]
    fn no_style_repeats_below_thirty_series() {
        for i in 0..30 {
            for j in 0..i {
                assert_ne!(key(i), key(j), "series {i} and {j} look alike");
                let (a, b) = (key(i), key(j));
                if j + 20 > i {
                    assert!(a.1 != b.1 || a.2 != b.2, "series {i} and {j} share marker and dash");
                }
            }
        }
    }

    #[test]
    fn colours_read_on_white_and_apart_from_each_other() {
        for c in PALETTE {
            let contrast = 1.05 / (luminance(c) + 0.05);
            assert!(contrast >= 3.0, "{c:?} has contrast {contrast:.2} on white");
        }
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[..i] {
                let (p, q) = (lab(*a), lab(*b));
                let de = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
                assert!(de >= 20.0, "{a:?} and {b:?} are only ΔE {de:.1} apart");
            }
        }
    }
}
