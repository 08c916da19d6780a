//! A run's results document as the store keeps it: the exact bytes of its
//! `results.json`, gzip-compressed. Samples dominate a document and compress
//! about tenfold, and the store keeps them only here (a cell row holds its
//! summary), so a run costs a tenth of its file. Compressing streams: a
//! document is read from its file, or serialised from the results, straight
//! into the encoder, so recording a run never holds its text whole.
//! `history export` decompresses the very bytes that were recorded.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

use crate::results::{self, Results};

/// gzip's default level: on a 4.5 MB document of a 1,000-cell run, 15%
/// smaller than level 3 for about 15 ms more (bench/store-scale.sh).
const LEVEL: u32 = 6;

/// A compressed results document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    gzip: Arc<Vec<u8>>,
}

impl Document {
    /// The file at `path`, compressed as it is read.
    pub fn from_file(path: &Path) -> Result<Document> {
        let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut enc = GzEncoder::new(Vec::new(), Compression::new(LEVEL));
        std::io::copy(&mut BufReader::new(file), &mut enc)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Document {
            gzip: Arc::new(enc.finish()?),
        })
    }

    /// `text`, compressed.
    pub fn from_text(text: &str) -> Document {
        let mut enc = GzEncoder::new(Vec::new(), Compression::new(LEVEL));
        // Writing into memory cannot fail.
        let _ = enc.write_all(text.as_bytes());
        Document {
            gzip: Arc::new(enc.finish().unwrap_or_default()),
        }
    }

    /// The text `results::to_json_text` gives for `results`, serialised
    /// straight into the encoder.
    pub fn from_results(results: &Results) -> Result<Document> {
        let mut out = BufWriter::new(GzEncoder::new(Vec::new(), Compression::new(LEVEL)));
        serde_json::to_writer_pretty(&mut out, results)?;
        out.write_all(b"\n")?;
        let enc = out.into_inner().map_err(|e| e.into_error())?;
        Ok(Document {
            gzip: Arc::new(enc.finish()?),
        })
    }

    /// A document as stored.
    pub fn from_gzip(gzip: Vec<u8>) -> Document {
        Document { gzip: Arc::new(gzip) }
    }

    /// The compressed bytes.
    pub fn gzip(&self) -> &[u8] {
        &self.gzip
    }

    /// The compressed bytes, shared (to be bound into a statement without a copy).
    pub fn shared(&self) -> Arc<Vec<u8>> {
        Arc::clone(&self.gzip)
    }

    /// The document's text, exactly as recorded.
    pub fn text(&self) -> Result<String> {
        let mut text = String::new();
        GzDecoder::new(self.gzip.as_slice())
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
            std::io::copy(&mut GzDecoder::new(self.gzip.as_slice()), &mut out)?;
            out.flush()
        };
        write().with_context(|| format!("cannot write {}", path.display()))
    }

    /// The results, checked as `results::from_text` checks a file.
    pub fn results(&self) -> Result<Results> {
        results::from_text(&self.text()?)
    }

    /// The results, parsed as they are decompressed (no text held), for a
    /// document this versus recorded: its schema version is checked, the
    /// rest trusted.
    pub fn results_streamed(&self) -> Result<Results> {
        let r: Results = serde_json::from_reader(BufReader::new(GzDecoder::new(self.gzip.as_slice())))
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
    fn a_document_comes_back_byte_for_byte() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let d = Document::from_file(&path).unwrap();
        assert_eq!(d.text().unwrap(), text);
        assert_eq!(Document::from_text(&text).text().unwrap(), text);
        let r = results::read(&path).unwrap();
        let serialised = Document::from_results(&r).unwrap();
        assert_eq!(serialised.text().unwrap(), results::to_json_text(&r).unwrap());
        assert_eq!(serialised.results_streamed().unwrap(), r);
    }
}
