//! Legends drawn below a chart, in a band the SVG grows by, never over the
//! plot: a legend inside the plot covers whichever points happen to fall
//! under it, and which those are depends on the data. The legend explains
//! every kind of mark the chart drew — each series' line and marker, the
//! interval band, the crosses of cells that did not finish — so nothing on
//! a chart needs the surrounding page to be read. It is written as its own
//! SVG group (`<g class="legend">`) so a test can find it.

use plotters::element::{Cross, EmptyElement, PathElement, Rectangle, Text};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{fit, text_px};
use super::style::{colour, marker};
use super::{Polylines, font};

/// What a legend entry shows before its words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Key {
    /// Series `i`'s line (dashed as it is) and marker.
    Series(usize),
    /// A shaded band: an interval around a line.
    Band,
    /// The cross of a cell that did not finish ok.
    Cross,
    /// A filled bar (a verdict) and an outlined one (none).
    FilledBar,
    OutlinedBar,
    /// An interval drawn as a line with end ticks.
    Whisker,
    /// A vertical reference line (1× on a ratio axis).
    Reference,
}

/// One entry: a key and its words.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    pub key: Key,
    pub label: String,
}

impl Entry {
    pub(super) fn new(key: Key, label: impl Into<String>) -> Self {
        Entry {
            key,
            label: label.into(),
        }
    }
}

/// Width of a key, and the gaps after it and between columns, in pixels.
const KEY_PX: u32 = 32;
const GAP_PX: u32 = 8;
const COLUMN_GAP_PX: u32 = 18;
/// Room above the legend's frame and inside it.
const PAD_PX: u32 = 8;

/// Where the entries go: as many columns as fit, filled row by row, each
/// as wide as its widest entry.
struct Layout {
    /// Each column's left edge from the legend's, and its width, in pixels.
    columns: Vec<(u32, u32)>,
    row_px: u32,
}

impl Layout {
    fn rows(&self, entries: usize) -> u32 {
        entries.div_ceil(self.columns.len()) as u32
    }

    fn width(&self) -> u32 {
        self.columns.last().map_or(0, |(x, w)| x + w)
    }
}

fn layout(entries: &[Entry], width: u32, font_px: u32) -> Layout {
    let inner = width.saturating_sub(4 * PAD_PX);
    let entry_px: Vec<u32> = entries
        .iter()
        .map(|e| (KEY_PX + GAP_PX + text_px(&e.label, f64::from(font_px)).ceil() as u32).min(inner))
        .collect();
    let row_px = (f64::from(font_px) * 1.55).ceil() as u32;
    let with = |count: usize| {
        let mut columns: Vec<(u32, u32)> = Vec::new();
        for c in 0..count {
            let w = entry_px.iter().skip(c).step_by(count).copied().max().unwrap_or(0);
            let x = columns.last().map_or(0, |(x, w)| x + w + COLUMN_GAP_PX);
            columns.push((x, w));
        }
        Layout { columns, row_px }
    };
    (2..=entries.len())
        .rev()
        .map(with)
        .find(|l| l.width() <= inner)
        .unwrap_or_else(|| with(1))
}

/// The height in pixels a legend of `entries` adds below a chart `width`
/// wide; 0 when there is nothing to explain.
pub(super) fn height(entries: &[Entry], width: u32, font_px: u32) -> u32 {
    if entries.is_empty() {
        return 0;
    }
    let l = layout(entries, width, font_px);
    l.rows(entries.len()) * l.row_px + 3 * PAD_PX
}

/// Adds the legend to `svg` (a whole chart, `width` × `total` pixels) in
/// the band that starts `top` pixels down, as a `<g class="legend">`.
pub(super) fn append(
    svg: &mut String,
    entries: &[Entry],
    (width, total): (u32, u32),
    top: u32,
    font_px: u32,
) -> Option<()> {
    if entries.is_empty() {
        return Some(());
    }
    let mut part = String::new();
    {
        let root = SVGBackend::with_string(&mut part, (width, total)).into_drawing_area();
        draw(&root, entries, width, top, font_px)?;
        root.present().ok()?;
    }
    let body = &part[part.find('\n')? + 1..part.rfind("</svg>")?];
    let end = svg.rfind("</svg>")?;
    svg.insert_str(end, &format!("<g class=\"legend\">\n{body}</g>\n"));
    Some(())
}

fn draw(
    root: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    entries: &[Entry],
    width: u32,
    top: u32,
    font_px: u32,
) -> Option<()> {
    let l = layout(entries, width, font_px);
    let (rows, used) = (l.rows(entries.len()), l.width());
    let left = i32::try_from(width.saturating_sub(used) / 2).ok()?;
    let (y0, pad) = (i32::try_from(top + PAD_PX).ok()?, PAD_PX as i32);
    let frame = (
        (left - pad, y0),
        (left + used as i32 + pad, y0 + (rows * l.row_px + PAD_PX) as i32),
    );
    root.draw(&Rectangle::new(
        [frame.0, frame.1],
        RGBColor(190, 190, 190).stroke_width(1),
    ))
    .ok()?;
    for (k, e) in entries.iter().enumerate() {
        let (row, (column_x, column_px)) = ((k / l.columns.len()) as i32, l.columns[k % l.columns.len()]);
        let x = left + column_x as i32;
        let y = y0 + pad / 2 + row * l.row_px as i32 + l.row_px as i32 / 2;
        draw_key(root, e.key, (x + KEY_PX as i32 / 2, y))?;
        let style = font(font_px).pos(Pos::new(HPos::Left, VPos::Center));
        let words = fit(
            &e.label,
            f64::from(column_px.saturating_sub(KEY_PX + GAP_PX)),
            f64::from(font_px),
        );
        root.draw(&Text::new(words, (x + (KEY_PX + GAP_PX) as i32, y), style))
            .ok()?;
    }
    Some(())
}

/// A key centred at `at`, `KEY_PX` wide.
fn draw_key(root: &DrawingArea<SVGBackend, plotters::coord::Shift>, key: Key, at: (i32, i32)) -> Option<()> {
    let half = KEY_PX as i32 / 2 - 2;
    let grey = RGBColor(90, 90, 90);
    let dot = EmptyElement::at(at);
    match key {
        Key::Series(i) => root.draw(
            &(dot
                + Polylines::dashed(&[(-half, 0), (half, 0)], i, colour(i).stroke_width(2))
                + marker(i, (0, 0), colour(i).filled())),
        ),
        Key::Band => root.draw(
            &(dot
                + Rectangle::new([(-half, -6), (half, 6)], grey.mix(0.2).filled())
                + PathElement::new(vec![(-half, 0), (half, 0)], grey.stroke_width(2))),
        ),
        Key::Cross => root.draw(&(dot + Cross::new((0, 0), 6, grey.stroke_width(3)))),
        Key::FilledBar => root.draw(&(dot + Rectangle::new([(-half, -6), (half, 6)], grey.mix(0.75).filled()))),
        Key::OutlinedBar => root.draw(&(dot + Rectangle::new([(-half, -6), (half, 6)], grey.stroke_width(2)))),
        Key::Whisker => root.draw(
            &(dot
                + PathElement::new(vec![(-half, 0), (half, 0)], BLACK.stroke_width(1))
                + PathElement::new(vec![(-half, -5), (-half, 5)], BLACK.stroke_width(1))
                + PathElement::new(vec![(half, -5), (half, 5)], BLACK.stroke_width(1))),
        ),
        Key::Reference => root.draw(&(dot + PathElement::new(vec![(0, -8), (0, 8)], BLACK.stroke_width(1)))),
    }
    .ok()
}
