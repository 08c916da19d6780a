//! The one writer of report files: `run`, `exec` and `report` all hand the
//! results and the list of wanted outputs here. Renderers only turn results
//! into text; this module decides names (charts beside a Markdown report are
//! named after it), creates missing folders, and writes.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::report::formats::{asciidoc, export, github_action, go_bench, html, hyperfine, markdown, pyperf};
use crate::results::{self, Results};

/// The files to write from one results document.
#[derive(Debug, Default, Clone)]
pub(crate) struct Outputs {
    /// Markdown reports, each with its SVG charts beside it.
    pub markdown: Vec<PathBuf>,
    /// Self-contained HTML reports.
    pub html: Vec<PathBuf>,
    pub csv: Option<PathBuf>,
    /// Bencher Metric Format.
    pub bmf: Option<PathBuf>,
    /// The results document itself; `-` is standard output.
    pub json: Option<PathBuf>,
    /// The summary tables as AsciiDoc.
    pub asciidoc: Option<PathBuf>,
    /// hyperfine's JSON export.
    pub hyperfine: Option<PathBuf>,
    /// pyperf's JSON (a benchmark suite file).
    pub pyperf: Option<PathBuf>,
    /// Go's benchmark text format (what `go test -bench` prints, read by benchstat).
    pub go_bench: Option<PathBuf>,
    /// github-action-benchmark's JSON (`customSmallerIsBetter`).
    pub github_action: Option<PathBuf>,
}

impl Outputs {
    pub(crate) fn is_empty(&self) -> bool {
        self.markdown.is_empty()
            && self.html.is_empty()
            && self.csv.is_none()
            && self.bmf.is_none()
            && self.json.is_none()
            && self.asciidoc.is_none()
            && self.hyperfine.is_none()
            && self.pyperf.is_none()
            && self.go_bench.is_none()
            && self.github_action.is_none()
    }

    /// Whether the results document goes to standard output (`--json -`).
    pub(crate) fn json_to_stdout(&self) -> bool {
        self.json.as_deref() == Some(Path::new("-"))
    }
}

/// Writes every wanted output; `notes` is the author's reading, added to
/// Markdown and HTML reports.
pub(crate) fn write(results: &Results, outputs: &Outputs, notes: Option<&str>) -> Result<()> {
    // Each cell's comparison from a map, not a search of them all (`results::lookup`).
    let _scope = results.scope();
    if outputs.json_to_stdout() {
        let mut out = std::io::stdout().lock();
        let written = results::to_writer(&mut out, results)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out));
        // A reader that went away (`| head`) did not want the rest.
        if let Err(e) = written
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            return Err(e).context("writing the results to standard output");
        }
    } else if let Some(p) = &outputs.json {
        make_parent(p)?;
        results::write_json_atomic(p, results)?;
    }
    for p in &outputs.markdown {
        write_markdown(results, p, notes)?;
    }
    for p in &outputs.html {
        let text = html::render(results, notes).context("rendering the HTML report")?;
        write_file(p, &text)?;
    }
    if let Some(p) = &outputs.csv {
        write_file(p, &export::csv(results).context("writing CSV")?)?;
    }
    if let Some(p) = &outputs.asciidoc {
        write_file(p, &asciidoc::render(results))?;
    }
    if let Some(p) = &outputs.bmf {
        make_parent(p)?;
        results::write_json_atomic(p, &export::bmf(results))?;
    }
    if let Some(p) = &outputs.hyperfine {
        write_file(p, &hyperfine::render(results).context("writing hyperfine's JSON")?)?;
    }
    if let Some(p) = &outputs.pyperf {
        write_file(p, &pyperf::render(results).context("writing pyperf's JSON")?)?;
    }
    if let Some(p) = &outputs.go_bench {
        write_file(p, &go_bench::render(results))?;
    }
    if let Some(p) = &outputs.github_action {
        write_file(
            p,
            &github_action::render(results).context("writing github-action-benchmark's JSON")?,
        )?;
    }
    Ok(())
}

/// Writes the Markdown report to `path` with its SVG charts beside it.
fn write_markdown(results: &Results, path: &Path, notes: Option<&str>) -> Result<()> {
    let dir = make_parent(path)?;
    // Charts are named after the report (age.md → age-chart-1-….svg), so reports sharing a folder keep theirs.
    let stem = path
        .file_stem()
        .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    let charts: Vec<(String, String)> = html::chart_files(results)
        .into_iter()
        .map(|(name, svg)| (format!("{stem}-{name}"), svg))
        .collect();
    for (stem, svg) in &charts {
        write_file(&dir.join(format!("{stem}.svg")), svg)?;
    }
    write_file(path, &markdown::render_with_charts(results, &charts, notes))
}

/// Creates the folder a file goes in; returns it.
fn make_parent(path: &Path) -> Result<PathBuf> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    fs::create_dir_all(&dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
    Ok(dir)
}

/// Writes `text` whole to `path` (`base::output`), making its folder.
pub(crate) fn write_file(path: &Path, text: &str) -> Result<()> {
    make_parent(path)?;
    crate::base::output::write(path, text.as_bytes())
}
