//! The journal: one JSON line per finished group of cells, appended and
//! synced before the next group starts, so nothing measured is lost to a
//! crash, Ctrl-C or `kill -9`. `--resume` reads it back, and `versus report`
//! renders a run from it when the run left no results file.
//!
//! The unit kept is a group (one operation at one parameter set, every
//! implementation in it): its cells are measured together, interleaved, so
//! they are written as one line and are either all in the journal or not at
//! all. A group cut short is measured again from its start. Each run that
//! writes to the journal first appends its document's header (suite,
//! command, environment: everything but the cells), so the journal alone
//! can be rendered.
//!
//! A crash can leave a torn last line (or, with the old one-cell-per-line
//! format, a fragment glued to the next record). Recovery sets such lines
//! aside in `<journal>.torn` and rewrites the journal without them, so the
//! run resumes and nothing is silently dropped. A write that fails while
//! versus lives (a full disk) is cut back to the last whole line at once.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{Cell, Results};

pub struct Journal {
    file: File,
    pub path: PathBuf,
    /// The file's length up to its last whole line: where a failed write is cut back to.
    whole_bytes: u64,
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
enum Line {
    /// The header of the run that appends the lines after it.
    Run(Box<Results>),
    /// Written by versus before groups were recorded whole; still read.
    Cell(Box<Cell>),
    Group(Vec<Cell>),
}

/// The line types this versus reads; a line of another type is skipped, not torn.
const KNOWN_TYPES: [&str; 3] = ["run", "cell", "group"];

/// A line as written, borrowing what it holds.
#[derive(Serialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
enum LineRef<'a> {
    Run(&'a Results),
    Group(&'a [Cell]),
}

/// What reading a journal found.
#[derive(Debug, Default)]
pub struct Recovered {
    /// The header of the last run that wrote to the journal; `None` in
    /// journals written before versus recorded it.
    pub header: Option<Box<Results>>,
    /// Every cell recorded, by id, the last record of an id winning.
    pub cells: IndexMap<String, Cell>,
    /// Bytes of lines that could not be read (a torn tail), left out.
    pub unreadable_bytes: usize,
    /// Where recovery set those lines aside, when it did.
    pub set_aside: Option<PathBuf>,
}

/// A journal read into its readable and unreadable lines.
struct Reading {
    found: Recovered,
    good: Vec<u8>,
    bad: Vec<u8>,
}

impl Journal {
    /// Opens the journal for appending, creating it.
    pub fn open(path: &Path) -> Result<Journal> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open the journal {}", path.display()))?;
        let whole_bytes = file
            .metadata()
            .with_context(|| format!("cannot read the journal {}", path.display()))?
            .len();
        Ok(Journal {
            file,
            path: path.to_path_buf(),
            whole_bytes,
        })
    }

    /// Appends the header of the run about to record groups (`header`'s
    /// cells are not written), and syncs it.
    pub fn append_run(&mut self, header: &Results) -> Result<()> {
        let empty = Results {
            cells: vec![],
            ..header.clone()
        };
        self.append(&LineRef::Run(&empty))
    }

    /// Appends one finished group's cells as one line, and syncs it.
    pub fn append_group(&mut self, cells: &[Cell]) -> Result<()> {
        self.append(&LineRef::Group(cells))
    }

    /// Appends one line and syncs it. The line is streamed through a buffer,
    /// never built whole in memory (a group of 100,000 runs is megabytes of
    /// JSON). A write that fails is cut back to the last whole line, so a
    /// full disk leaves no torn line behind.
    fn append(&mut self, line: &LineRef) -> Result<()> {
        let written = (|| -> std::io::Result<()> {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, &self.file);
            serde_json::to_writer(&mut out, line)?;
            out.write_all(b"\n")?;
            out.flush()?;
            drop(out);
            self.file.sync_data()
        })();
        // The buffer is dropped by now: nothing more of the line can reach the file.
        let Err(error) = written else {
            self.whole_bytes = self.file.metadata().map(|m| m.len()).unwrap_or(self.whole_bytes);
            return Ok(());
        };
        let cut = self.file.set_len(self.whole_bytes).and_then(|()| self.file.sync_data());
        let what_became_of_it = match cut {
            Ok(()) => "its unfinished line was cut off".to_string(),
            Err(e) => format!("its unfinished line could not be cut off ({e}) and will be set aside by --resume"),
        };
        Err(error).with_context(|| {
            format!(
                "cannot write the journal {}; {what_became_of_it}; the groups recorded before it are kept: free space or fix the folder, then --resume",
                self.path.display()
            )
        })
    }

    /// Whether `path` is a journal rather than a results file: named
    /// `.jsonl`, or its first line is a record of a known type.
    pub fn looks_like(path: &Path) -> bool {
        use std::io::BufRead;
        if path.extension().is_some_and(|e| e == "jsonl") {
            return true;
        }
        let Ok(f) = File::open(path) else { return false };
        let mut first = Vec::new();
        if std::io::BufReader::new(f).read_until(b'\n', &mut first).is_err() {
            return false;
        }
        serde_json::from_slice::<serde_json::Value>(&first).is_ok_and(|v| {
            v.get("type")
                .and_then(|t| t.as_str())
                .is_some_and(|t| KNOWN_TYPES.contains(&t))
        })
    }

    /// Reads a journal without changing it (a run may still be appending to
    /// it): unreadable lines are left out and counted, not set aside.
    pub fn read(path: &Path) -> Result<Recovered> {
        Ok(Self::reading(path)?.found)
    }

    /// Reads a journal back, setting aside lines that cannot be read (see the
    /// module header) and rewriting the journal without them.
    pub fn recover(path: &Path) -> Result<Recovered> {
        let Reading { mut found, good, bad } = Self::reading(path)?;
        if !bad.is_empty() {
            found.set_aside = Some(set_aside(path, &good, &bad)?);
        }
        Ok(found)
    }

    fn reading(path: &Path) -> Result<Reading> {
        let bytes = fs::read(path).with_context(|| format!("cannot read the journal {}", path.display()))?;
        let mut out = Reading {
            found: Recovered::default(),
            good: Vec::new(),
            bad: Vec::new(),
        };
        let complete = bytes.last().is_none_or(|b| *b == b'\n');
        let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
        let last = lines.len().saturating_sub(1);
        for (i, line) in lines.iter().enumerate() {
            let whole = i < last || complete;
            let kept = whole && out.found.take(line);
            let target = if kept { &mut out.good } else { &mut out.bad };
            target.extend_from_slice(line);
            target.push(b'\n');
        }
        out.found.unreadable_bytes = out.bad.len();
        Ok(out)
    }
}

impl Recovered {
    /// Takes in one whole line; false when it cannot be read.
    fn take(&mut self, line: &[u8]) -> bool {
        match serde_json::from_slice::<Line>(line) {
            Ok(Line::Run(header)) => self.header = Some(header),
            Ok(Line::Cell(c)) => {
                self.cells.insert(c.id.clone(), *c);
            }
            Ok(Line::Group(cells)) => super::gather(&mut self.cells, cells),
            Err(_) => return of_unknown_type(line),
        }
        true
    }
}

/// Whether a line is a whole record of a type this versus does not know
/// (written by a later one): skipped and kept, not set aside.
fn of_unknown_type(line: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(line) else {
        return false;
    };
    value
        .get("type")
        .and_then(|t| t.as_str())
        .is_some_and(|t| !KNOWN_TYPES.contains(&t))
}

/// Saves unreadable lines beside the journal and rewrites it with the good ones.
fn set_aside(path: &Path, good: &[u8], bad: &[u8]) -> Result<PathBuf> {
    let torn = path.with_extension("jsonl.torn");
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&torn)
        .with_context(|| format!("cannot write {}", torn.display()))?;
    f.write_all(bad)
        .with_context(|| format!("cannot write {}", torn.display()))?;
    let tmp = path.with_extension("jsonl.partial");
    fs::write(&tmp, good)
        .and_then(|()| fs::rename(&tmp, path))
        .with_context(|| format!("cannot rewrite the journal {}", path.display()))?;
    Ok(torn)
}

#[cfg(test)]
mod tests;
