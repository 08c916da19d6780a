//! The journal: one JSON line per finished group of cells, appended and
//! synced before the next group starts, so nothing measured is lost to a
//! crash, Ctrl-C or `kill -9`. `--resume` reads it back.
//!
//! The unit kept is a group (one operation at one parameter set, every
//! implementation in it): its cells are measured together, interleaved, so
//! they are written as one line and are either all in the journal or not at
//! all. A group cut short is measured again from its start.
//!
//! A crash can leave a torn last line (or, with the old one-cell-per-line
//! format, a fragment glued to the next record). Reading sets such lines
//! aside in `<journal>.torn` and rewrites the journal without them, so the
//! run resumes and nothing is silently dropped.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::Cell;

pub struct Journal {
    file: File,
    pub path: PathBuf,
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
enum Line {
    /// Written by versus before groups were recorded whole; still read.
    Cell(Box<Cell>),
    Group(Vec<Cell>),
}

/// A line as written, borrowing the cells.
#[derive(Serialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
enum LineRef<'a> {
    Group(&'a [Cell]),
}

/// What reading a journal found.
#[derive(Debug, Default)]
pub struct Recovered {
    /// Every cell recorded, by id, the last record of an id winning.
    pub cells: IndexMap<String, Cell>,
    /// Lines that could not be read (a torn tail), set aside: where, and how many bytes.
    pub set_aside: Option<(PathBuf, usize)>,
}

impl Journal {
    /// Opens the journal for appending, creating it.
    pub fn open(path: &Path) -> Result<Journal> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open the journal {}", path.display()))?;
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends one finished group's cells as one line, and syncs it. The line
    /// is streamed through a buffer, never built whole in memory (a group of
    /// 100,000 runs is megabytes of JSON).
    pub fn append_group(&mut self, cells: &[Cell]) -> Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, &self.file);
        serde_json::to_writer(&mut out, &LineRef::Group(cells))
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
            .and_then(|()| self.file.sync_data())
            .with_context(|| {
                format!(
                    "cannot write the journal {} (the groups recorded before this one are kept: free space or fix the folder, then --resume)",
                    self.path.display()
                )
            })
    }

    /// Reads a journal back, setting aside lines that cannot be read (see the
    /// module header) and rewriting the journal without them.
    pub fn recover(path: &Path) -> Result<Recovered> {
        let bytes = fs::read(path).with_context(|| format!("cannot read the journal {}", path.display()))?;
        let mut out = Recovered::default();
        let (mut good, mut bad) = (Vec::new(), Vec::new());
        let complete = bytes.last().is_none_or(|b| *b == b'\n');
        let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
        let last = lines.len().saturating_sub(1);
        for (i, line) in lines.iter().enumerate() {
            let parsed = (i < last || complete)
                .then(|| serde_json::from_slice::<Line>(line).ok())
                .flatten();
            match parsed {
                Some(Line::Cell(c)) => {
                    out.cells.insert(c.id.clone(), *c);
                }
                Some(Line::Group(cells)) => out.cells.extend(cells.into_iter().map(|c| (c.id.clone(), c))),
                None => {
                    bad.extend_from_slice(line);
                    bad.push(b'\n');
                    continue;
                }
            }
            good.extend_from_slice(line);
            good.push(b'\n');
        }
        if !bad.is_empty() {
            out.set_aside = Some(set_aside(path, &good, &bad)?);
        }
        Ok(out)
    }
}

/// Saves unreadable lines beside the journal and rewrites it with the good ones.
fn set_aside(path: &Path, good: &[u8], bad: &[u8]) -> Result<(PathBuf, usize)> {
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
    Ok((torn, bad.len()))
}

#[cfg(test)]
mod tests;
