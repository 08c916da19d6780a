//! Cold start (Rust): read the first line of the corpus, decode it into the
//! crate's typed `SessionNotification` (validated), print its canonical
//! summary. With `--all`, the whole-process throughput of the original
//! comparison: every line of the corpus decoded, the summary of them all.
//! With `--raw`, what the original's Rust column timed: every line parsed
//! into a `serde_json::Value` only, the same summary from it.
//!
//!     acp-cold CORPUS
//!     acp-cold --all CORPUS
//!     acp-cold --raw CORPUS
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
    if path == "--all" || path == "--raw" {
        let read: fn(&str, &mut Summary) -> Result<(), codec::Error> = if path == "--raw" {
            codec::parse_line
        } else {
            codec::decode_line
        };
        let path = std::env::args().nth(2).ok_or("usage: acp-cold --all|--raw CORPUS")?;
        for line in std::fs::read_to_string(path)?.split('\n').filter(|l| !l.is_empty()) {
            read(line, &mut s)?;
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
