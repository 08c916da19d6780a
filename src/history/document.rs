//! A run's results document as the store keeps it: the exact bytes of its
//! `results.json`, compressed. Samples and statistics dominate a document:
//! digits that bzip2's block sorting packs a third tighter than gzip (a
//! generated 1,000-cell document of 4.6 MB: 372 KB against 555 KB, for
//! about 0.3 s more CPU, half that on two cores; bench/store-scale.sh), and
//! the store keeps the samples only here (a cell row holds its summary). Documents recorded gzip-compressed
//! by earlier versions are read as they are: the first bytes say which.
//! Compressing streams: a document is read from its file, or serialised
//! from the results, straight into the encoder, so recording a run never
//! holds its text whole. `history export` decompresses the very bytes that
//! were recorded.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use bzip2::read::MultiBzDecoder;
use bzip2::write::BzEncoder;
use flate2::read::GzDecoder;

use crate::results::{self, Results};

/// bzip2's largest block (900 KB): 3% smaller than level 5.
const LEVEL: u32 = 9;

/// The text is compressed in pieces of a bzip2 block each (less than 900
/// KB, as the block's first stage can lengthen runs of four equal bytes).
const PIECE: usize = 850_000;

/// Pieces compressed at once, each by an encoder of its own (about 7 MB
/// of memory while its piece is full): on two cores, importing a generated
/// 1,000-cell document took 0.24 s instead of 0.39 s with one.
const WORKERS: usize = 2;

/// The first bytes of a gzip stream (documents recorded before bzip2).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// `input`, bzip2-compressed: its pieces compressed side by side into
/// streams of their own, joined in order (a multi-stream file, as parallel
/// bzip2 tools write; any bzip2 reader reads it whole). Only the pieces
/// being compressed are held, never the whole text.
fn compress(mut input: impl Read) -> std::io::Result<Vec<u8>> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(WORKERS));
    let mut out = Vec::new();
    loop {
        let mut pieces = Vec::with_capacity(workers);
        for _ in 0..workers {
            let mut piece = Vec::with_capacity(PIECE);
            (&mut input).take(PIECE as u64).read_to_end(&mut piece)?;
            if piece.is_empty() {
                break;
            }
            pieces.push(piece);
        }
        let last = pieces.len() < workers || pieces.last().is_some_and(|p| p.len() < PIECE);
        let packed: Vec<std::io::Result<Vec<u8>>> = std::thread::scope(|s| {
            let running: Vec<_> = pieces.iter().map(|p| s.spawn(move || compress_piece(p))).collect();
            running
                .into_iter()
                .map(|r| {
                    r.join()
                        .unwrap_or_else(|_| Err(std::io::Error::other("a compressing thread failed")))
                })
                .collect()
        });
        for p in packed {
            out.extend_from_slice(&p?);
        }
        if last {
            break;
        }
    }
    if out.is_empty() {
        // An empty text is still one (empty) stream.
        out = compress_piece(&[])?;
    }
    Ok(out)
}

fn compress_piece(piece: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = BzEncoder::new(Vec::new(), bzip2::Compression::new(LEVEL));
    enc.write_all(piece)?;
    enc.finish()
}

/// A compressed results document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    packed: Arc<Vec<u8>>,
}

impl Document {
    /// The file at `path`, compressed as it is read.
    pub fn from_file(path: &Path) -> Result<Document> {
        let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let packed = compress(BufReader::new(file)).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Document {
            packed: Arc::new(packed),
        })
    }

    /// `text`, compressed.
    pub fn from_text(text: &str) -> Document {
        Document {
            // Reading from memory cannot fail.
            packed: Arc::new(compress(text.as_bytes()).unwrap_or_default()),
        }
    }

    /// The text `results::to_json_text` gives for `results`, serialised
    /// into the encoder a piece at a time (a thread writes the text into
    /// a pipe that `compress` reads).
    pub fn from_results(results: &Results) -> Result<Document> {
        let (reader, writer) = std::io::pipe()?;
        std::thread::scope(|s| {
            let writing = s.spawn(move || -> Result<()> {
                let mut out = BufWriter::new(writer);
                results::layout::to_writer(&mut out, results)?;
                out.write_all(b"\n")?;
                out.flush()?;
                Ok(())
            });
            let packed = compress(reader);
            let written = writing
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("serialising the results failed")));
            written?;
            Ok(Document {
                packed: Arc::new(packed?),
            })
        })
    }

    /// A document as stored (bzip2, or gzip from an earlier version).
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

    /// The decompressed text, read as it is decompressed.
    fn reader(&self) -> Box<dyn Read + '_> {
        let bytes = self.packed.as_slice();
        if bytes.starts_with(&GZIP_MAGIC) {
            Box::new(GzDecoder::new(bytes))
        } else {
            Box::new(MultiBzDecoder::new(bytes))
        }
    }

    /// The document's text, exactly as recorded.
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

    /// The results, parsed as they are decompressed (no text held), for a
    /// document this versus recorded: its schema version is checked, the
    /// rest trusted.
    pub fn results_streamed(&self) -> Result<Results> {
        let r: Results = serde_json::from_reader(BufReader::new(self.reader()))
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

    #[test]
    fn a_text_of_several_pieces_or_none_comes_back_whole() {
        let long: String = (0..3 * PIECE / 8)
            .map(|i| format!("{:07}\n", i * 7919 % 1_000_003))
            .collect();
        assert!(long.len() > WORKERS * PIECE + PIECE / 2, "three rounds and a half");
        for text in [long.as_str(), "", "{}\n"] {
            let d = Document::from_text(text);
            assert!(d.packed().starts_with(b"BZh"));
            assert_eq!(d.text().unwrap(), text);
        }
    }

    #[test]
    fn a_document_recorded_with_gzip_still_reads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        let old = Document::from_stored(enc.finish().unwrap());
        assert_eq!(old.text().unwrap(), text);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("export.json");
        old.write_text(&out).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
        let new = Document::from_text(&text);
        assert!(new.packed().starts_with(b"BZh"), "new documents are bzip2");
        assert_eq!(new.text().unwrap(), text);
    }
}
