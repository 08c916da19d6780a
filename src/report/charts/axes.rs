//! Chart axes chosen by hand rather than left to `plotters`: its log axes
//! label 1× and 10× across a 50× range, crowd "6.00x7.00x8.00x" into one
//! smear, and leave bars below 1× without a tick. Here the ticks of a ratio
//! axis come from 1-2-5 style ladders per decade, always include 1×, and are
//! thinned until neighbouring labels cannot touch at the chart's width. Also
//! the dashing of series lines, measured in pixels so that a dashed series
//! never looks broken. Layout only: no statistic is computed here.

/// Mantissa sets per decade, finest first; the first one whose ticks are far
/// enough apart wins.
const LADDERS: [&[f64]; 5] = [
    &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0],
    &[1.0, 2.0, 3.0, 5.0],
    &[1.0, 2.0, 5.0],
    &[1.0, 3.0],
    &[1.0],
];

/// The widest range a ratio axis may be narrowed to: a bar of "≈ 1.01" still
/// sits on an axis with ticks either side of 1×.
pub(crate) const MIN_RATIO_SPAN: (f64, f64) = (1.0 / 1.6, 1.6);

/// The range of a ratio axis: `lo..hi` widened to hold 1× and at least
/// [`MIN_RATIO_SPAN`], with a little room at both ends.
pub(crate) fn ratio_range(lo: f64, hi: f64) -> (f64, f64) {
    let lo = if lo.is_finite() && lo > 0.0 { lo } else { 1.0 };
    let hi = if hi.is_finite() && hi > 0.0 { hi } else { 1.0 };
    ((lo / 1.15).min(MIN_RATIO_SPAN.0), (hi * 1.15).max(MIN_RATIO_SPAN.1))
}

/// Ticks for a log axis over `lo..hi` (both > 0): the finest ladder whose
/// neighbouring ticks are at least `min_gap_decades` apart (in log10 units:
/// the pixels a label needs over the pixels per decade), always with 1× when
/// the range holds it. When even one tick per decade is too dense, every
/// second (third, …) decade is kept, counted from 1×.
pub(crate) fn log_ticks(lo: f64, hi: f64, min_gap_decades: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return vec![];
    }
    let inside = |t: f64| t >= lo * (1.0 - 1e-9) && t <= hi * (1.0 + 1e-9);
    let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let spaced = |ticks: &[f64]| {
        ticks
            .windows(2)
            .all(|w| (w[1] / w[0]).log10() >= min_gap_decades - 1e-9)
    };
    for ladder in LADDERS {
        let ticks: Vec<f64> = (first..=last)
            .flat_map(|d| ladder.iter().map(move |m| tidy(m * 10f64.powi(d))))
            .filter(|t| inside(*t))
            .collect();
        if spaced(&ticks) {
            return ticks;
        }
    }
    let stride = min_gap_decades.ceil().max(1.0) as i32;
    (first..=last)
        .filter(|d| d.rem_euclid(stride) == 0)
        .map(|d| tidy(10f64.powi(d)))
        .filter(|t| inside(*t))
        .collect()
}

/// A tick value rounded to the digits it was meant to have (0.3, not 0.30000000000000004).
fn tidy(x: f64) -> f64 {
    let digits = 3 - x.log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// A ratio label as short as it can be: "0.5×", "2×", "1.5×", "50×", "0.02×".
pub(crate) fn ratio_label(r: f64) -> String {
    let text = format!("{r:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}×")
}

/// Values (ascending, > 0) on a log axis of `px_per_decade`, thinned so that
/// the labels of neighbours, `label_px` wide each, stay 10 pixels apart: the
/// first is kept, then each one far enough from the last kept.
pub(crate) fn thin(values: &[f64], label_px: &dyn Fn(f64) -> f64, px_per_decade: f64) -> Vec<f64> {
    let mut kept: Vec<f64> = Vec::new();
    for &v in values {
        match kept.last() {
            Some(&last) if (v / last).log10() * px_per_decade < (label_px(last) + label_px(v)) / 2.0 + 10.0 => {}
            _ => kept.push(v),
        }
    }
    kept
}

/// A formatted figure without the zeros that only pad it: "2.00 ms" → "2 ms",
/// "1.50 MB" → "1.5 MB", "10.0 ms" → "10 ms".
pub(crate) fn compact(label: &str) -> String {
    let (number, unit) = label.split_once(' ').unwrap_or((label, ""));
    let number = if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        number
    };
    if unit.is_empty() {
        number.to_string()
    } else {
        format!("{number} {unit}")
    }
}

/// `text` cut with "…" to about `max_px` pixels at `font_px`.
pub(crate) fn fit(text: &str, max_px: f64, font_px: f64) -> String {
    if text_px(text, font_px) <= max_px {
        return text.to_string();
    }
    let keep = ((max_px / (font_px * 0.58)) as usize).saturating_sub(1);
    let out: String = text.chars().take(keep).collect();
    format!("{}…", out.trim_end())
}

/// `text` in lines of at most `max_px` at `font_px`, broken at spaces; a
/// word wider than a line is cut by `fit`.
pub(crate) fn wrap_px(text: &str, max_px: f64, font_px: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_px(&longer, font_px) > max_px {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        } else {
            line = longer;
        }
    }
    lines.push(line);
    lines.into_iter().map(|l| fit(&l, max_px, font_px)).collect()
}

/// Roughly how many pixels `text` takes at `font_px` in a sans-serif face
/// (an average glyph is a little over half the font size wide).
pub(crate) fn text_px(text: &str, font_px: f64) -> f64 {
    text.chars().count() as f64 * font_px * 0.58
}

/// The "on" pieces of a polyline (in pixels) under `pattern`; the pattern
/// runs on across corners rather than restarting at each point. An empty
/// pattern is a solid line.
pub(crate) fn dash(points: &[(f64, f64)], pattern: &[f64]) -> Vec<Vec<(f64, f64)>> {
    if pattern.is_empty() || points.len() < 2 {
        return vec![points.to_vec()];
    }
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let (mut k, mut left) = (0usize, pattern[0]);
    let mut current: Vec<(f64, f64)> = vec![points[0]];
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut t = 0.0;
        while len > 0.0 && t < len {
            let step = left.min(len - t);
            t += step;
            left -= step;
            let at = (a.0 + (b.0 - a.0) * t / len, a.1 + (b.1 - a.1) * t / len);
            if k % 2 == 0 {
                current.push(at);
            }
            if left <= 1e-9 {
                if k % 2 == 0 {
                    out.push(std::mem::take(&mut current));
                }
                k = (k + 1) % pattern.len();
                left = pattern[k];
                if k % 2 == 0 {
                    current.push(at);
                }
            }
        }
    }
    if current.len() > 1 {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pixels per decade of a 400-pixel-wide plot over the range, and the
    /// gap a label of `font` pixels needs.
    fn gap_for(lo: f64, hi: f64) -> f64 {
        let per_decade = 400.0 / (hi / lo).log10();
        (text_px("0.05×", 15.0) + 10.0) / per_decade
    }

    #[test]
    fn ratio_ticks_are_distinct_spaced_and_include_one() {
        for (lo, hi) in [
            (0.5, 2.0),
            (1.0, 50.0),
            (0.02, 1.0),
            (1.0, 7.0),
            (0.9, 1.1),
            (0.001, 1000.0),
        ] {
            let (lo, hi) = ratio_range(lo, hi);
            let gap = gap_for(lo, hi);
            let ticks = log_ticks(lo, hi, gap);
            let labels: Vec<String> = ticks.iter().map(|t| ratio_label(*t)).collect();
            assert!(ticks.len() >= 3, "{lo}–{hi}: {labels:?}");
            assert!(ticks.contains(&1.0), "{lo}–{hi}: {labels:?}");
            let mut unique = labels.clone();
            unique.dedup();
            assert_eq!(unique, labels, "{lo}–{hi}: labels repeat");
            for w in ticks.windows(2) {
                assert!((w[1] / w[0]).log10() >= gap - 1e-9, "{lo}–{hi}: {labels:?} too close");
            }
        }
    }

    #[test]
    fn a_fifty_fold_range_is_labelled_by_one_two_five() {
        let ticks = log_ticks(0.9, 55.0, 0.2);
        let labels: Vec<String> = ticks.iter().map(|t| ratio_label(*t)).collect();
        assert_eq!(labels, ["1×", "2×", "5×", "10×", "20×", "50×"]);
        // Below 1× too, and finer where there is room.
        let labels: Vec<String> = log_ticks(0.45, 2.2, 0.1).iter().map(|t| ratio_label(*t)).collect();
        assert_eq!(labels, ["0.5×", "0.7×", "1×", "1.5×", "2×"]);
        // A huge range keeps every other decade, counted from 1×.
        let labels: Vec<String> = log_ticks(1e-4, 1e4, 1.5).iter().map(|t| ratio_label(*t)).collect();
        assert_eq!(labels, ["0.0001×", "0.01×", "1×", "100×", "10000×"]);
    }

    #[test]
    fn thinning_keeps_labels_apart() {
        let sizes = [1e3, 64e3, 1e6, 10e6, 100e6];
        // 100 pixels per decade and 40-pixel labels: all fit.
        assert_eq!(thin(&sizes, &|_| 40.0, 100.0), sizes);
        // 30 pixels per decade: 1 MB is too close to 64 KB.
        assert_eq!(thin(&sizes, &|_| 40.0, 30.0), [1e3, 64e3, 10e6]);
        assert_eq!(compact("2.00 ms"), "2 ms");
        assert_eq!(compact("1.50 MB"), "1.5 MB");
        assert_eq!(compact("100 µs"), "100 µs");
        assert_eq!(fit("a rather long label", 60.0, 10.0), "a rather…");
    }

    #[test]
    fn ratio_labels_are_compact() {
        assert_eq!(ratio_label(0.5), "0.5×");
        assert_eq!(ratio_label(2.0), "2×");
        assert_eq!(ratio_label(50.0), "50×");
        assert_eq!(ratio_label(0.02), "0.02×");
        assert_eq!(ratio_label(tidy(0.1 * 3.0)), "0.3×");
    }

    #[test]
    fn dashes_follow_the_pattern_across_corners() {
        // An L of 10 + 10 pixels with 6 on, 3 off: on 0–6, off 6–9, on 9–15 (round the corner), off 15–18, on 18–20.
        let pieces = dash(&[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], &[6.0, 3.0]);
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[0], vec![(0.0, 0.0), (6.0, 0.0)]);
        assert_eq!(pieces[1], vec![(9.0, 0.0), (10.0, 0.0), (10.0, 5.0)]);
        assert_eq!(pieces[2], vec![(10.0, 8.0), (10.0, 10.0)]);
        assert_eq!(dash(&[(0.0, 0.0), (5.0, 5.0)], &[]).len(), 1);
    }
}
