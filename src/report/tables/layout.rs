//! Tables laid out for a terminal of a given width. A figure is read with
//! its spread ("26.2 ms ± 9.56 ms") and a verdict with its factor ("1.27x
//! slower"); a line break inside either makes one figure read as two, or
//! puts a spread under the next column. So a cell may only break where a
//! reader expects a new line: between a verdict and its evidence ("1.27x
//! slower" / "[1.21, 1.33]"), and between the words of a label or heading.
//! A table wider than the terminal is first narrowed at those breaks; when
//! even that is too wide it is stacked: its figure columns are split into
//! blocks, one under the other, each repeating the label columns.

/// How a column's text sits in its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// Where a column's cells may break onto a new line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Breaks {
    /// At any space: labels, headings, prose.
    Words,
    /// Only between a figure and its evidence: before "[", before a
    /// bracketed ratio "(3.26x)", after "…:", before "p = ".
    Evidence,
}

/// A table to lay out: plain text cells (no escape codes).
pub(crate) struct Grid<'a> {
    pub header: &'a [String],
    pub rows: &'a [Vec<String>],
    /// Leading columns shown in every block when the table is stacked.
    pub repeat: usize,
    pub align: &'a [Align],
    pub breaks: &'a [Breaks],
}

/// Space before every column (the first is the table's indent).
const GAP: usize = 2;

fn width(s: &str) -> usize {
    console::measure_text_width(s)
}

/// The pieces of `text` between its break opportunities, each with what
/// ends it (a space, or the "/" or "," of a cell id): joined they give the
/// text back. A line may end after any piece, the space dropped.
pub(crate) fn pieces(text: &str, breaks: Breaks) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let after = &text[end..];
        let breakable = match (breaks, c) {
            (Breaks::Words, ' ') => true,
            // Inside a word only between the parts of an id: "compress/zstd/size=1MB,level=fast".
            (Breaks::Words, '/' | ',') => !after.is_empty() && !after.starts_with(' '),
            (Breaks::Evidence, ' ') => {
                let before = text[..i].chars().next_back();
                let ratio = after.starts_with('(') && after[1..].starts_with(|c: char| c.is_ascii_digit());
                after.starts_with('[')
                    || ratio
                    || before == Some(':')
                    || (before == Some(',') && after.starts_with("p = "))
            }
            _ => false,
        };
        if breakable && i > start {
            out.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() || out.is_empty() {
        out.push(&text[start..]);
    }
    out
}

/// `text` wrapped to `columns` at its break opportunities; a piece longer
/// than the line stays whole.
pub(crate) fn wrap(text: &str, breaks: Breaks, columns: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces(text, breaks) {
        if !line.is_empty() && width(format!("{line}{piece}").trim_end()) > columns {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        line.push_str(piece);
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// Lines a figure with evidence may take when its column narrows: two
/// ("1.27x slower" / "[1.21, 1.33]"); a table that needs more is stacked.
const MAX_FIGURE_LINES: usize = 2;

/// The narrowest width at which `text` wraps into at most `lines` lines.
fn narrowest(text: &str, breaks: Breaks, lines: usize) -> usize {
    let widest_piece = pieces(text, breaks)
        .iter()
        .map(|p| width(p.trim_end()))
        .max()
        .unwrap_or(0);
    (widest_piece..width(text))
        .find(|&w| wrap(text, breaks, w).len() <= lines)
        .unwrap_or(width(text))
}

/// Natural and least widths of one column: the widest cell unbroken, and
/// the narrowest the column can be (words and id parts whole; a figure on
/// at most `MAX_FIGURE_LINES` lines).
fn widths(grid: &Grid, col: usize) -> (usize, usize) {
    let header = grid.header.get(col).map_or("", String::as_str);
    let cells = std::iter::once((header, Breaks::Words)).chain(
        grid.rows
            .iter()
            .map(|r| (r.get(col).map_or("", String::as_str), grid.breaks[col])),
    );
    let (mut natural, mut least) = (0, 0);
    for (text, breaks) in cells {
        natural = natural.max(width(text));
        least = least.max(match breaks {
            Breaks::Words => narrowest(text, breaks, usize::MAX),
            Breaks::Evidence => narrowest(text, breaks, MAX_FIGURE_LINES),
        });
    }
    (natural, least)
}

/// Widths for `cols` within `columns`: natural when they fit, else
/// narrowed toward their least widths, figure columns (index `repeat` and
/// up) before labels; `None` when even the least widths do not fit.
fn fit(natural: &[usize], least: &[usize], cols: &[usize], repeat: usize, columns: usize) -> Option<Vec<usize>> {
    let total = |w: &[usize]| w.iter().map(|x| x + GAP).sum::<usize>();
    let mut w: Vec<usize> = cols.iter().map(|&c| natural[c]).collect();
    if total(&w) <= columns {
        return Some(w);
    }
    let floor: Vec<usize> = cols.iter().map(|&c| least[c]).collect();
    if total(&floor) > columns {
        return None;
    }
    // Figures wrap before labels do (a cell id reads best whole): the
    // widest figure column that can still narrow gives up one column, then
    // the widest label column.
    let is_label = |i: usize| cols[i] < repeat;
    while total(&w) > columns {
        let narrowable = |label: bool| {
            (0..w.len())
                .filter(|&i| w[i] > floor[i] && is_label(i) == label)
                .max_by_key(|&i| w[i])
        };
        let i = narrowable(false).or_else(|| narrowable(true))?;
        w[i] -= 1;
    }
    Some(w)
}

/// The table as lines of at most `columns` (unless a single unbreakable
/// piece is wider), `paint` applied to each line of each body cell:
/// `paint(cell, line)`.
pub(crate) fn render(grid: &Grid, columns: usize, paint: &dyn Fn(&str, &str) -> String) -> Vec<String> {
    let n = grid.header.len().max(grid.rows.iter().map(Vec::len).max().unwrap_or(0));
    let (natural, least): (Vec<usize>, Vec<usize>) = (0..n).map(|c| widths(grid, c)).unzip();
    let repeat: Vec<usize> = (0..grid.repeat.min(n)).collect();
    let figures: Vec<usize> = (grid.repeat.min(n)..n).collect();
    let all: Vec<usize> = (0..n).collect();
    let blocks: Vec<Vec<usize>> = if fit(&natural, &least, &all, grid.repeat, columns).is_some() || figures.len() <= 1 {
        vec![all]
    } else {
        stack(&least, &repeat, &figures, columns)
    };
    let mut out = Vec::new();
    for (b, cols) in blocks.iter().enumerate() {
        if b > 0 {
            out.push(String::new());
        }
        let w = fit(&natural, &least, cols, grid.repeat, columns)
            .unwrap_or_else(|| cols.iter().map(|&c| least[c]).collect());
        let header_shown = grid.header.iter().any(|h| !h.is_empty());
        if header_shown {
            let cells: Vec<String> = cols
                .iter()
                .map(|&c| grid.header.get(c).cloned().unwrap_or_default())
                .collect();
            out.extend(row_lines(grid, cols, &w, &cells, true, &|_, l| l.to_string()));
        }
        for row in grid.rows {
            let cells: Vec<String> = cols.iter().map(|&c| row.get(c).cloned().unwrap_or_default()).collect();
            out.extend(row_lines(grid, cols, &w, &cells, false, paint));
        }
    }
    out
}

/// Figure columns in blocks beside the repeated columns, in order: as few
/// blocks as fit at the columns' least widths, with the columns shared out
/// evenly among them (7 columns in 3 blocks are 3, 2, 2, not 3, 3, 1). A
/// column too wide for any block is alone in its own.
fn stack(least: &[usize], repeat: &[usize], figures: &[usize], columns: usize) -> Vec<Vec<usize>> {
    let base: usize = repeat.iter().map(|&c| least[c] + GAP).sum();
    let fits = |block: &[usize]| base + block.iter().map(|&c| least[c] + GAP).sum::<usize>() <= columns;
    let greedy = {
        let mut blocks: Vec<Vec<usize>> = Vec::new();
        for &c in figures {
            match blocks.last_mut() {
                Some(block) if fits(&[block.as_slice(), &[c]].concat()) => block.push(c),
                _ => blocks.push(vec![c]),
            }
        }
        blocks
    };
    let k = greedy.len();
    let even: Vec<Vec<usize>> = (0..k)
        .map(|b| figures[b * figures.len() / k..(b + 1) * figures.len() / k].to_vec())
        .collect();
    let chosen = if even.iter().all(|b| !b.is_empty() && fits(b)) {
        even
    } else {
        greedy
    };
    chosen.into_iter().map(|b| [repeat, b.as_slice()].concat()).collect()
}

/// One table row as lines: each cell wrapped to its width and aligned.
fn row_lines(
    grid: &Grid,
    cols: &[usize],
    w: &[usize],
    cells: &[String],
    header: bool,
    paint: &dyn Fn(&str, &str) -> String,
) -> Vec<String> {
    let wrapped: Vec<Vec<String>> = cols
        .iter()
        .zip(w)
        .zip(cells)
        .map(|((&c, &width), text)| wrap(text, if header { Breaks::Words } else { grid.breaks[c] }, width))
        .collect();
    let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
    (0..height)
        .map(|k| {
            let mut line = String::new();
            for (i, &c) in cols.iter().enumerate() {
                let text = wrapped[i].get(k).map_or("", String::as_str);
                let pad = " ".repeat(w[i].saturating_sub(width(text)));
                let shown = if text.is_empty() {
                    String::new()
                } else {
                    paint(&cells[i], text)
                };
                line.push_str(&" ".repeat(GAP));
                match grid.align[c] {
                    Align::Left => {
                        line.push_str(&shown);
                        line.push_str(&pad);
                    }
                    Align::Right => {
                        line.push_str(&pad);
                        line.push_str(&shown);
                    }
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_lines(header: &[&str], rows: &[&[&str]], repeat: usize, columns: usize) -> Vec<String> {
        let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
        let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect();
        let align: Vec<Align> = (0..header.len())
            .map(|i| if i < repeat { Align::Left } else { Align::Right })
            .collect();
        let breaks: Vec<Breaks> = (0..header.len())
            .map(|i| if i < repeat { Breaks::Words } else { Breaks::Evidence })
            .collect();
        render(
            &Grid {
                header: &header,
                rows: &rows,
                repeat,
                align: &align,
                breaks: &breaks,
            },
            columns,
            &|_, l| l.to_string(),
        )
    }

    #[test]
    fn evidence_breaks_only_between_a_figure_and_its_evidence() {
        assert_eq!(pieces("26.2 ms ± 9.56 ms", Breaks::Evidence), ["26.2 ms ± 9.56 ms"]);
        assert_eq!(
            pieces("not confirmed: 1.16x slower [0.91, 1.38], p = 0.05", Breaks::Evidence),
            ["not confirmed: ", "1.16x slower ", "[0.91, 1.38], ", "p = 0.05"]
        );
        assert_eq!(
            pieces("≈ 1.01 [0.98, 1.03]", Breaks::Evidence),
            ["≈ 1.01 ", "[0.98, 1.03]"]
        );
        assert_eq!(
            pieces("compress/zstd/size=1MB,level=fast", Breaks::Words),
            ["compress/", "zstd/", "size=1MB,", "level=fast"]
        );
        assert_eq!(pieces("a, b", Breaks::Words), ["a, ", "b"]);
        // A figure takes at most two lines: its least width keeps "not confirmed: 1.16x slower" whole.
        assert_eq!(
            narrowest(
                "not confirmed: 1.16x slower [0.91, 1.38], p = 0.05",
                Breaks::Evidence,
                2
            ),
            27
        );
        assert_eq!(
            wrap("1.27x slower [1.21, 1.33]", Breaks::Evidence, 14),
            ["1.27x slower", "[1.21, 1.33]"]
        );
    }

    #[test]
    fn a_table_that_fits_is_one_block_at_natural_widths() {
        let lines = grid_lines(
            &["size", "a", "b"],
            &[&["1KB", "1.00 ms ± 20 µs", "2.00 ms ± 9 µs"]],
            1,
            80,
        );
        assert_eq!(
            lines,
            [
                "  size                a               b",
                "  1KB   1.00 ms ± 20 µs  2.00 ms ± 9 µs"
            ]
        );
    }

    #[test]
    fn a_table_too_wide_is_stacked_and_never_splits_a_figure() {
        let cell = "26.2 ms ± 9.56 ms";
        let lines = grid_lines(
            &["size", "n", "first", "second", "third", "fourth"],
            &[&["1KB", "10", cell, cell, cell, cell]],
            2,
            50,
        );
        assert!(lines.iter().all(|l| width(l) <= 50), "{lines:#?}");
        // Every figure whole, with its spread, on one line.
        assert_eq!(
            lines.iter().map(|l| l.matches(cell).count()).sum::<usize>(),
            4,
            "{lines:#?}"
        );
        // Two blocks, each repeating the labels.
        assert_eq!(
            lines.iter().filter(|l| l.trim_start().starts_with("size")).count(),
            2,
            "{lines:#?}"
        );
        assert!(lines.iter().any(String::is_empty));
    }

    #[test]
    fn stacked_blocks_share_the_columns_out_evenly() {
        let natural = [4, 2, 10, 10, 10, 10, 10, 10, 10];
        let blocks = stack(&natural, &[0, 1], &[2, 3, 4, 5, 6, 7, 8], 10 + 3 * 12);
        let sizes: Vec<usize> = blocks.iter().map(|b| b.len() - 2).collect();
        assert_eq!(sizes, [2, 2, 3]);
        assert!(blocks.iter().all(|b| b[..2] == [0, 1]));
    }

    #[test]
    fn a_verdict_wraps_between_its_factor_and_its_interval_never_mid_word() {
        let header = ["cell", "verdict"];
        let lines = grid_lines(
            &header,
            &[&[
                "encrypt/sun-jdk25/size=0.1MB",
                "not confirmed: 1.16x slower [0.91, 1.38], p = 0.05",
            ]],
            1,
            50,
        );
        assert!(lines.iter().all(|l| width(l) <= 50), "{lines:#?}");
        // The id breaks between its parts; the verdict between its factor and its evidence.
        assert!(
            lines[1].contains("encrypt/sun-jdk25/") && lines[2].contains("size=0.1MB"),
            "{lines:#?}"
        );
        assert!(lines[1].contains("not confirmed: 1.16x slower"), "{lines:#?}");
        assert!(lines[2].contains("[0.91, 1.38], p = 0.05"), "{lines:#?}");
    }
}
