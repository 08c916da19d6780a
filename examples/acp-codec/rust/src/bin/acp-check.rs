//! Strict check of a corpus against the crate's typed schema (the check the
//! worker's `decode` setup runs), and its canonical summary both ways.
//!
//!     acp-check CORPUS

use acp_codec_rust::{codec, lines, summary::Summary};

fn main() -> Result<(), codec::Error> {
    let path = std::env::args().nth(1).ok_or("usage: acp-check CORPUS")?;
    let l = lines(std::fs::read(path)?)?;
    let (mut p, mut d) = (Summary::default(), Summary::default());
    for (i, line) in l.iter().enumerate() {
        codec::check_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        codec::parse_line(line, &mut p)?;
        codec::decode_line(line, &mut d)?;
    }
    let (p, d) = (p.render(), d.render());
    if p != d {
        return Err(format!("parse and decode summaries differ:\n{p}\n---\n{d}").into());
    }
    eprintln!("{} lines: all decode strictly", l.len());
    print!("{d}");
    Ok(())
}
