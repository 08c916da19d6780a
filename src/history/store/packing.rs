//! How a document is compressed, chosen by the store it goes to
//! (`Packing::for_dialect`), and read back whichever way it was.
//!
//! A PostgreSQL store is shared by a team and grows with every CI run, so
//! its documents are packed hard: bzip2, whose block sorting packs the
//! digits of samples and statistics a third tighter than gzip (a generated
//! 1,000-cell document of 4.6 MB: 372 KB against 555 KB; bench/store-scale.sh),
//! in pieces compressed side by side on two cores. Its encoder holds about
//! 6 MB per core while a piece is full. The default store is a local SQLite
//! file, recorded at the end of every run: there gzip (256 KB of encoder)
//! keeps a long `versus exec` from doubling its peak memory just to save
//! local disk (bench/scaling.sh, section 3). Reading needs no choice: the
//! first bytes say which.

use std::io::{Read, Write};

use bzip2::read::MultiBzDecoder;
use bzip2::write::BzEncoder;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

use super::backend::Dialect;

/// How a document is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    Gzip,
    Bzip2,
}

impl Packing {
    /// bzip2 for a shared PostgreSQL store, gzip for a local SQLite one.
    pub fn for_dialect(dialect: Dialect) -> Packing {
        match dialect {
            Dialect::Postgres => Packing::Bzip2,
            Dialect::Sqlite => Packing::Gzip,
        }
    }

    /// `input`, compressed; only a piece of it is held at a time.
    pub fn compress(self, input: impl Read) -> std::io::Result<Vec<u8>> {
        match self {
            Packing::Gzip => {
                let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::new(GZIP_LEVEL));
                std::io::copy(&mut { input }, &mut enc)?;
                enc.finish()
            }
            Packing::Bzip2 => bzip2_in_pieces(input),
        }
    }
}

/// The text of `packed`, as it is decompressed (gzip or bzip2, by its first bytes).
pub(crate) fn unpack(packed: &[u8]) -> Box<dyn Read + '_> {
    if packed.starts_with(&GZIP_MAGIC) {
        Box::new(GzDecoder::new(packed))
    } else {
        Box::new(MultiBzDecoder::new(packed))
    }
}

/// gzip's default level: on a 4.5 MB document of a 1,000-cell run, 15%
/// smaller than level 3 for about 15 ms more.
const GZIP_LEVEL: u32 = 6;

/// bzip2's largest block (900 KB): 3% smaller than level 5.
const BZIP2_LEVEL: u32 = 9;

/// The text is compressed in pieces of a bzip2 block each (less than 900
/// KB, as the block's first stage can lengthen runs of four equal bytes).
const PIECE: usize = 850_000;

/// Pieces compressed at once, each by an encoder of its own (about 6 MB
/// of memory while its piece is full): on two cores, importing a generated
/// 1,000-cell document took 0.24 s instead of 0.39 s with one.
const WORKERS: usize = 2;

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// `input`, bzip2-compressed: its pieces compressed side by side into
/// streams of their own, joined in order (a multi-stream file, as parallel
/// bzip2 tools write; any bzip2 reader reads it whole). Only the pieces
/// being compressed are held, never the whole text.
fn bzip2_in_pieces(mut input: impl Read) -> std::io::Result<Vec<u8>> {
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
    let mut enc = BzEncoder::new(Vec::new(), bzip2::Compression::new(BZIP2_LEVEL));
    enc.write_all(piece)?;
    enc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(packing: Packing, text: &str) -> Vec<u8> {
        let packed = packing.compress(text.as_bytes()).unwrap();
        let mut back = String::new();
        unpack(&packed).read_to_string(&mut back).unwrap();
        assert_eq!(back, text, "{packing:?}");
        packed
    }

    #[test]
    fn a_text_of_several_pieces_or_none_comes_back_whole() {
        let long: String = (0..3 * PIECE / 8)
            .map(|i| format!("{:07}\n", i * 7919 % 1_000_003))
            .collect();
        assert!(long.len() > WORKERS * PIECE, "more than one round of pieces");
        for text in [long.as_str(), "", "{}\n"] {
            assert!(round_trip(Packing::Bzip2, text).starts_with(b"BZh"));
            assert!(round_trip(Packing::Gzip, text).starts_with(&GZIP_MAGIC));
        }
    }

    #[test]
    fn a_shared_store_packs_with_bzip2_and_a_local_one_with_gzip() {
        assert_eq!(Packing::for_dialect(Dialect::Postgres), Packing::Bzip2);
        assert_eq!(Packing::for_dialect(Dialect::Sqlite), Packing::Gzip);
    }
}
