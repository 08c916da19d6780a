//! A run's results document as the store keeps it: the exact bytes of its
//! `results.json`, compressed as the store asks (`packing`). The store
//! keeps the samples only here (a cell row holds its summary).
//! Compressing streams: a document is read from its file, or serialised
//! from the results, straight into the encoder, so recording a run never
//! holds its text whole. `history export` decompresses the very bytes that
//! were recorded. Either way a password in the document's command line
//! (recorded by an older versus) is hidden (`hidden`).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::Arc;

use super::hidden::Hidden;
use super::packing::{Packing, unpack};
use crate::results::{self, Results};
use anyhow::{Context, Result, bail};

/// A compressed results document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    packed: Arc<Vec<u8>>,
}

impl Document {
    /// The file at `path`, compressed as it is read.
    pub fn from_file(path: &Path, packing: Packing) -> Result<Document> {
        let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let packed = packing
            .compress(Hidden::new(BufReader::new(file)))
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Document {
            packed: Arc::new(packed),
        })
    }

    /// `text`, compressed.
    pub fn from_text(text: &str, packing: Packing) -> Document {
        Document {
            // Reading from memory cannot fail.
            packed: Arc::new(packing.compress(text.as_bytes()).unwrap_or_default()),
        }
    }

    /// The text `results::to_json_text` gives for `results`, serialised
    /// into the encoder a piece at a time (a thread writes the text into
    /// a pipe that `compress` reads).
    pub fn from_results(results: &Results, packing: Packing) -> Result<Document> {
        let (reader, writer) = std::io::pipe()?;
        std::thread::scope(|s| {
            let writing = s.spawn(move || -> Result<()> {
                let mut out = BufWriter::new(writer);
                results::to_writer(&mut out, results)?;
                out.write_all(b"\n")?;
                out.flush()?;
                Ok(())
            });
            let packed = packing.compress(reader);
            let written = writing
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("serialising the results failed")));
            written?;
            Ok(Document {
                packed: Arc::new(packed?),
            })
        })
    }

    /// A document as stored.
    pub fn from_stored(packed: Vec<u8>) -> Document {
        Document {
            packed: Arc::new(packed),
        }
    }

    /// The compressed bytes, as stored.
    pub fn packed(&self) -> &[u8] {
        &self.packed
    }

    /// The compressed bytes, shared (to be bound into a statement without a copy).
    pub fn shared(&self) -> Arc<Vec<u8>> {
        Arc::clone(&self.packed)
    }

    /// The decompressed text, read as it is decompressed, with any password
    /// in its command line hidden (one recorded by an older versus).
    fn reader(&self) -> Box<dyn Read + '_> {
        Box::new(Hidden::new(unpack(&self.packed)))
    }

    /// The document's text, as recorded (any password hidden).
    pub fn text(&self) -> Result<String> {
        let mut text = String::new();
        self.reader()
            .read_to_string(&mut text)
            .context("the recorded document cannot be decompressed")?;
        Ok(text)
    }

    /// Writes the document's text to `path` (its folder made), decompressed as it is written.
    pub fn write_text(&self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
        }
        let write = || -> std::io::Result<()> {
            let mut out = BufWriter::new(File::create(path)?);
            std::io::copy(&mut self.reader(), &mut out)?;
            out.flush()
        };
        write().with_context(|| format!("cannot write {}", path.display()))
    }

    /// The results, checked as `results::from_text` checks a file.
    pub fn results(&self) -> Result<Results> {
        results::from_text(&self.text()?)
    }

    /// What the run concluded, parsed as it is decompressed (no text held)
    /// and without its per-run figures (`results::lean`: every cell's
    /// samples empty, its statistics as recorded), for a document this
    /// versus recorded: its schema version is checked, the rest trusted.
    pub fn results_without_runs(&self) -> Result<Results> {
        let r: Results = results::without_runs(|| serde_json::from_reader(BufReader::new(self.reader())))
            .context("the recorded document is not a results file")?;
        if r.schema_version != results::SCHEMA_VERSION {
            bail!(
                "the recorded document has schema_version {}, this versus reads {}",
                r.schema_version,
                results::SCHEMA_VERSION
            );
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_comes_back_byte_for_byte_however_packed() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let r = results::read(&path).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("export.json");
        for packing in [Packing::Gzip, Packing::Bzip2] {
            let d = Document::from_file(&path, packing).unwrap();
            assert_eq!(d.text().unwrap(), text);
            d.write_text(&out).unwrap();
            assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
            assert_eq!(Document::from_text(&text, packing).text().unwrap(), text);
            let serialised = Document::from_results(&r, packing).unwrap();
            assert_eq!(serialised.text().unwrap(), results::to_json_text(&r).unwrap());
            let mut lean = r.clone();
            lean.cells.iter_mut().for_each(|c| c.samples = Default::default());
            assert_eq!(serialised.results_without_runs().unwrap(), lean);
        }
    }
}
