//! The charts as a reader checks them, read back from the SVG they are:
//! no legend over a plotted point or line, size ticks in the suite's own
//! units, no two series drawn alike, and every kind of mark drawn named in
//! the legend. The documents are the committed `age` results, with more
//! implementations and other sizes made from its cells where a rule needs them.

use std::collections::{BTreeSet, HashMap};

use crate::base::outcome::Outcome;
use crate::base::params::ParamValue;
use crate::base::units::parse_size;
use crate::report::tables::subsets;
use crate::results::Results;

use super::{relative, scaling};

fn age() -> Results {
    serde_json::from_str(include_str!("../../../tests/fixtures/results/age.json")).unwrap()
}

/// `n` implementations of one operation at `sizes`, each a constant factor
/// slower than the one before (1.25×), from the cells of `age` at armor=false.
fn suite(n: usize, sizes: &[&str]) -> Results {
    let mut r = age();
    let template: Vec<_> = r
        .cells
        .iter()
        .filter(|c| c.implementation == "age" && c.operation == "encrypt")
        .filter(|c| c.params.get("armor") == Some(&ParamValue::Bool(false)))
        .cloned()
        .collect();
    let mut cells = Vec::new();
    for k in 0..n {
        for (j, size) in sizes.iter().enumerate() {
            let mut c = template[j % template.len()].clone();
            c.implementation = format!("impl-{k:02}");
            c.params.insert("size".into(), ParamValue::Str(size.to_string()));
            c.payload_bytes = Some(parse_size(size).unwrap().0);
            let factor = 1.25f64.powi(k as i32) * (1.0 + j as f64);
            let s = c.stats.as_mut().unwrap();
            s.median_ns *= factor;
            s.ci_low_ns = s.ci_low_ns.map(|x| x * factor);
            s.ci_high_ns = s.ci_high_ns.map(|x| x * factor);
            cells.push(c);
        }
    }
    r.cells = cells;
    r.comparisons.clear();
    r.operations = vec!["encrypt".into()];
    r.matrix.insert(
        "size".into(),
        sizes.iter().map(|s| ParamValue::Str(s.to_string())).collect(),
    );
    r.matrix.shift_remove("armor");
    r
}

fn scaling_svg(r: &Results) -> String {
    scaling(r, &subsets(r)[0], "size").expect("a scaling chart")
}

/// One SVG element as plotters writes them: tag, attributes, inner text.
#[derive(Debug)]
struct El {
    tag: String,
    attrs: HashMap<String, String>,
    text: String,
}

impl El {
    fn num(&self, name: &str) -> f64 {
        self.attrs.get(name).and_then(|v| v.parse().ok()).unwrap_or(0.0)
    }

    /// The element's outline in pixels: its points, or its box's corners.
    fn points(&self) -> Vec<(f64, f64)> {
        match self.tag.as_str() {
            "polyline" | "polygon" => self.attrs["points"]
                .split_whitespace()
                .filter_map(|p| p.split_once(','))
                .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                .collect(),
            "line" => vec![(self.num("x1"), self.num("y1")), (self.num("x2"), self.num("y2"))],
            "circle" => {
                let (x, y, r) = (self.num("cx"), self.num("cy"), self.num("r"));
                vec![
                    (x - r, y - r),
                    (x + r, y - r),
                    (x + r, y + r),
                    (x - r, y + r),
                    (x - r, y - r),
                ]
            }
            "rect" => {
                let (x, y, w, h) = (self.num("x"), self.num("y"), self.num("width"), self.num("height"));
                vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
            }
            _ => vec![],
        }
    }
}

fn elements(svg: &str) -> Vec<El> {
    let mut out = Vec::new();
    for piece in svg.split('<').skip(1) {
        if piece.starts_with('/') {
            continue;
        }
        let tag: String = piece.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        let head = &piece[..piece.find('>').unwrap_or(piece.len())];
        let mut attrs = HashMap::new();
        for part in head.split('"').collect::<Vec<_>>().chunks(2) {
            if let [key, value] = part {
                let key = key.trim().trim_end_matches('=').rsplit(' ').next().unwrap_or("");
                attrs.insert(key.to_string(), value.to_string());
            }
        }
        let text = piece[head.len()..].trim_start_matches('>').trim().to_string();
        out.push(El { tag, attrs, text });
    }
    out
}

/// A box in pixels: left, top, right, bottom.
type Box4 = (f64, f64, f64, f64);

fn inside(b: Box4, p: (f64, f64)) -> bool {
    p.0 > b.0 && p.0 < b.2 && p.1 > b.1 && p.1 < b.3
}

/// The legend's box: the smallest drawn rectangle (not the background)
/// around every text that names an implementation of `r`.
fn legend_box(svg: &str, r: &Results) -> Box4 {
    let els = elements(svg);
    let names = r.implementations_that_ran();
    let anchors: Vec<(f64, f64)> = els
        .iter()
        .filter(|e| e.tag == "text" && names.contains(&e.text))
        .map(|e| (e.num("x"), e.num("y")))
        .collect();
    els.iter()
        .filter(|e| e.tag == "rect" && !(e.num("x") == 0.0 && e.num("y") == 0.0))
        .map(|e| {
            let p = e.points();
            (p[0].0, p[0].1, p[2].0, p[2].1)
        })
        .filter(|b| !anchors.is_empty() && anchors.iter().all(|a| inside(*b, *a)))
        .min_by(|a, b| ((a.2 - a.0) * (a.3 - a.1)).total_cmp(&((b.2 - b.0) * (b.3 - b.1))))
        .expect("a legend box around the implementations' names")
}

/// Every drawn shape outside the legend box (the background, the legend's
/// frame and what lies wholly inside it left out) must keep out of the box:
/// no point of it, and no point along any of its lines, within it.
fn assert_nothing_under(svg: &str, legend: Box4) {
    let shrunk = (legend.0 + 1.0, legend.1 + 1.0, legend.2 - 1.0, legend.3 - 1.0);
    for e in elements(svg) {
        let pts = e.points();
        if pts.is_empty() || (e.tag == "rect" && e.num("x") == 0.0 && e.num("y") == 0.0) {
            continue;
        }
        let within = |p: &(f64, f64)| {
            p.0 >= legend.0 - 1.0 && p.0 <= legend.2 + 1.0 && p.1 >= legend.1 - 1.0 && p.1 <= legend.3 + 1.0
        };
        if pts.iter().all(within) {
            continue;
        }
        let mut path = pts.clone();
        if e.tag == "polygon" {
            path.push(pts[0]);
        }
        for w in path.windows(2).chain(std::iter::once(&path[..1])) {
            let (a, b) = (w[0], *w.last().unwrap());
            let steps = ((b.0 - a.0).hypot(b.1 - a.1)).ceil().max(1.0) as usize;
            for s in 0..=steps {
                let t = s as f64 / steps as f64;
                let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                assert!(
                    !inside(shrunk, p),
                    "a {} at {p:?} lies under the legend {legend:?}",
                    e.tag
                );
            }
        }
    }
}

const BINARY: [&str; 6] = ["1KiB", "16KiB", "64KiB", "256KiB", "1MiB", "10MiB"];

#[test]
fn no_legend_covers_a_plotted_point_or_line() {
    for n in [1, 3, 9, 12] {
        let r = suite(n, &BINARY);
        let svg = scaling_svg(&r);
        assert_nothing_under(&svg, legend_box(&svg, &r));
    }
}

#[test]
fn the_relative_charts_legend_covers_no_bar() {
    let r = age();
    for s in subsets(&r) {
        let svg = relative(&r, &s, Some("size")).unwrap();
        let els = elements(&svg);
        let words = els
            .iter()
            .find(|e| e.tag == "text" && e.text.starts_with("1×:"))
            .expect("the 1× line explained");
        let frame = els
            .iter()
            .filter(|e| e.tag == "rect" && e.num("y") < words.num("y") && e.num("y") + e.num("height") > words.num("y"))
            .map(|e| {
                (
                    e.num("x"),
                    e.num("y"),
                    e.num("x") + e.num("width"),
                    e.num("y") + e.num("height"),
                )
            })
            .find(|b| b.0 > 0.0)
            .expect("a legend frame");
        assert_nothing_under(&svg, frame);
    }
}

#[test]
fn binary_sizes_are_ticked_as_the_tables_write_them() {
    let svg = scaling_svg(&suite(3, &BINARY));
    let texts: Vec<String> = elements(&svg)
        .into_iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text)
        .collect();
    for size in ["1KiB", "256KiB", "10MiB"] {
        assert!(texts.contains(&size.to_string()), "no tick {size} in {texts:?}");
    }
    let decimal = texts
        .iter()
        .find(|t| t.ends_with(" KB") || t.ends_with(" MB") || t.ends_with("kB"));
    assert_eq!(decimal, None, "a decimal tick on a binary axis");
}

#[test]
fn twelve_series_are_drawn_in_twelve_colours() {
    let r = suite(12, &BINARY);
    let svg = scaling_svg(&r);
    let legend = legend_box(&svg, &r);
    let lines: BTreeSet<String> = elements(&svg)
        .into_iter()
        .filter(|e| e.tag == "polyline" && e.attrs.get("stroke-width").map(String::as_str) == Some("2"))
        .filter(|e| e.points().iter().all(|p| !inside(legend, *p)))
        .map(|e| e.attrs["stroke"].clone())
        .collect();
    assert_eq!(lines.len(), 12, "series line colours: {lines:?}");
}

/// The texts inside the legend's box.
fn legend_words(svg: &str, r: &Results) -> Vec<String> {
    let legend = legend_box(svg, r);
    elements(svg)
        .into_iter()
        .filter(|e| e.tag == "text" && inside(legend, (e.num("x"), e.num("y"))))
        .map(|e| e.text)
        .collect()
}

#[test]
fn a_timeout_drawn_is_named_in_the_legend() {
    let mut r = suite(3, &BINARY);
    assert!(!legend_words(&scaling_svg(&r), &r).iter().any(|w| w.contains("TIMEOUT")));
    let cell = r.cells.iter_mut().find(|c| c.implementation == "impl-01").unwrap();
    cell.outcome = Outcome::Timeout;
    cell.stats = None;
    let svg = scaling_svg(&r);
    let words = legend_words(&svg, &r);
    assert!(words.iter().any(|w| w.starts_with("TIMEOUT")), "legend: {words:?}");
    assert!(
        words.iter().any(|w| w.contains("interval")),
        "the band unexplained: {words:?}"
    );
}

#[test]
fn the_relative_chart_explains_its_bars() {
    let r = age();
    let svg = relative(&r, &subsets(&r)[0], Some("size")).unwrap();
    let texts: Vec<String> = elements(&svg)
        .into_iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text)
        .collect();
    assert!(
        texts.iter().any(|t| t.starts_with("whisker: 95% interval")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("filled:") || t.starts_with("outlined:")),
        "{texts:?}"
    );
}
