//! Cold start (Rust): read the first line of the corpus, decode it into the
//! crate's typed `SessionNotification` (validated), print its canonical
//! summary. With `--all`, the whole-process throughput of the original
//! comparison: every line of the corpus decoded, the summary of them all.
//!
//!     acp-cold CORPUS
//!     acp-cold --all CORPUS
//!     acp-cold --version    # the versions it was built with

use std::io::BufRead;

use acp_codec_rust::codec;
use acp_codec_rust::summary::Summary;

fn main() -> Result<(), codec::Error> {
    let path = std::env::args().nth(1).ok_or("usage: acp-cold CORPUS | --version")?;
    if path == "--version" {
        println!("{}", env!("ACP_CODEC_VERSIONS"));
        return Ok(());
    }
    let mut s = Summary::default();
    if path == "--all" {
        let path = std::env::args().nth(2).ok_or("usage: acp-cold --all CORPUS")?;
        for line in std::fs::read_to_string(path)?.split('\n').filter(|l| !l.is_empty()) {
            codec::decode_line(line, &mut s)?;
        }
        print!("{}", s.render());
        return Ok(());
    }
    let mut line = String::new();
    std::io::BufReader::new(std::fs::File::open(path)?).read_line(&mut line)?;
    codec::decode_line(line.trim_end_matches('\n'), &mut s)?;
    print!("{}", s.render());
    Ok(())
}
