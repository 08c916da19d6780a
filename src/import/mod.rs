//! `versus import`: results of other benchmark harnesses made into a versus
//! results document, so that a team's existing benchmarks get versus's
//! report, findings, `diff`, history and trend without being rewritten.
//! Several files make one comparison, each standing for an implementation:
//! "my Go benchmark against my Rust one".
//!
//! One module per harness turns its file into `Bench`es (an operation, the
//! harness's own variant name where it has one, parameters, and figures);
//! `detect` tells the harness from the file; `names` splits benchmark names
//! the way the harnesses write them; `document` builds the results. Every
//! parser reports bad input as `Bad` (where in the file, and what), which
//! the caller turns into an error naming the file: never a panic.
//!
//! Figures are samples wherever the file keeps them (each sample's total
//! time and number of calls, as versus's in-process batches), else the
//! harness's own summary, and the document says which.

mod criterion;
mod detect;
mod document;
mod go_bench;
mod google_benchmark;
mod hyperfine;
mod jmh;
mod names;
mod pyperf;
mod pytest_benchmark;

use std::fmt;
use std::path::{Path, PathBuf};

pub(crate) use document::{Options, build};

use crate::results::Samples;

/// The harnesses versus reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Harness {
    Hyperfine,
    Pyperf,
    GoBench,
    Criterion,
    Jmh,
    GoogleBenchmark,
    PytestBenchmark,
}

impl Harness {
    /// How messages and reports name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Harness::Hyperfine => "hyperfine",
            Harness::Pyperf => "pyperf",
            Harness::GoBench => "go test -bench",
            Harness::Criterion => "criterion",
            Harness::Jmh => "JMH",
            Harness::GoogleBenchmark => "Google Benchmark",
            Harness::PytestBenchmark => "pytest-benchmark",
        }
    }
}

/// A file or folder to import, and the implementation it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub path: PathBuf,
    /// `PATH=NAME`: the implementation's name [default: the harness's own
    /// variant names, else the file's name without its extension].
    pub label: Option<String>,
}

impl Source {
    /// `PATH` or `PATH=NAME`: a path that exists as given is a path, even with a `=` in it.
    pub fn parse(text: &str) -> Result<Source, String> {
        if Path::new(text).exists() {
            return Ok(Source {
                path: text.into(),
                label: None,
            });
        }
        match text.rsplit_once('=') {
            Some((path, name)) if !name.trim().is_empty() => Ok(Source {
                path: path.into(),
                label: Some(name.trim().to_string()),
            }),
            Some(_) => Err(format!("'{text}': give a name after '=' (FILE=NAME)")),
            None => Ok(Source {
                path: text.into(),
                label: None,
            }),
        }
    }

    /// The name an implementation gets when the file names none: its file name without extension.
    pub fn stem(&self) -> String {
        let name = self.path.file_name().unwrap_or(self.path.as_os_str()).to_string_lossy();
        match name.split_once('.') {
            Some((stem, _)) if !stem.is_empty() => stem.to_string(),
            _ => name.into_owned(),
        }
    }
}

/// One benchmark as the harness recorded it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bench {
    pub operation: String,
    /// The harness's own name for what is compared (hyperfine's command,
    /// criterion's function in a group); None where it has no such name.
    pub variant: Option<String>,
    /// Parameter names and values, in the order the harness gives them.
    pub params: Vec<(String, String)>,
    pub figures: Figures,
    /// Bytes each call processes, where the harness records it (Go's
    /// `SetBytes`, criterion's `Throughput::Bytes`).
    pub payload_bytes: Option<u64>,
    /// Why the harness says the benchmark failed, if it does.
    pub failed: Option<String>,
}

/// What a benchmark's figures are.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Figures {
    /// Each sample's total time and calls (`iterations`; empty when each
    /// sample is one run of a process, as hyperfine's), and what else the
    /// harness recorded per sample.
    Samples(Box<Samples>),
    /// Only the harness's own summary of the time per call.
    Summary(Summary),
}

/// A harness's summary of the time per call (nanoseconds).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    /// Samples the summary is over.
    pub n: usize,
    pub mean_ns: f64,
    pub median_ns: f64,
    pub stddev_ns: Option<f64>,
    pub min_ns: f64,
    pub max_ns: f64,
}

/// What one file held.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Imported {
    pub harness: Harness,
    pub benches: Vec<Bench>,
    /// The CPU the file says it was measured on, where it says.
    pub cpu_model: Option<String>,
}

/// Bad input: where in the file (a line, a field) and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bad {
    pub place: Option<String>,
    pub message: String,
}

impl Bad {
    pub(crate) fn new(message: impl Into<String>) -> Bad {
        Bad {
            place: None,
            message: message.into(),
        }
    }

    pub(crate) fn at(place: impl Into<String>, message: impl Into<String>) -> Bad {
        Bad {
            place: Some(place.into()),
            message: message.into(),
        }
    }

    /// A JSON document that does not parse as the harness's format.
    pub(crate) fn json(e: &serde_json::Error) -> Bad {
        Bad::at(format!("line {}, column {}", e.line(), e.column()), e.to_string())
    }
}

/// A file that could not be imported, named.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", place.as_ref().map(|p| format!(": {p}")).unwrap_or_default())]
pub(crate) struct ImportError {
    pub file: String,
    pub place: Option<String>,
    pub message: String,
}

impl fmt::Display for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads one file or folder: which harness wrote it, then its benchmarks.
pub(crate) fn read(source: &Source) -> Result<Imported, ImportError> {
    let named = |bad: Bad| ImportError {
        file: source.path.display().to_string(),
        place: bad.place,
        message: bad.message,
    };
    let path = &source.path;
    if path.is_dir() {
        return criterion::read_dir(path).map_err(named);
    }
    let text = std::fs::read_to_string(path).map_err(|e| named(Bad::new(format!("cannot read it: {e}"))))?;
    let imported = match detect::harness(&text).map_err(named)? {
        Harness::Hyperfine => hyperfine::parse(&text),
        Harness::Pyperf => pyperf::parse(&text),
        Harness::GoBench => go_bench::parse(&text),
        Harness::Jmh => jmh::parse(&text),
        Harness::GoogleBenchmark => google_benchmark::parse(&text),
        Harness::PytestBenchmark => pytest_benchmark::parse(&text),
        Harness::Criterion => Err(Bad::new(
            "criterion's results are a folder (target/criterion), not a file",
        )),
    }
    .map_err(named)?;
    if imported.benches.is_empty() {
        return Err(named(Bad::new(format!("no benchmark in it ({})", imported.harness))));
    }
    Ok(imported)
}

/// A whole number of nanoseconds from a time that may be fractional:
/// None for a time that is negative, not finite, or beyond any run.
pub(crate) fn nanos(ns: f64) -> Option<u64> {
    (0.0..1e18).contains(&ns).then(|| ns.round() as u64)
}

#[cfg(test)]
mod tests;
