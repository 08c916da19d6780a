//! versus worker for the acp-codec example (Rust). Operations, each over the
//! whole corpus per call, returning the canonical summary:
//!
//! - `parse`:  `serde_json::from_str::<serde_json::Value>` per line.
//! - `decode`: `serde_json::from_str` per line into the agent-client-protocol
//!   crate's typed `JsonRpcMessage<Notification<SessionNotification>>`.
//!
//! - `encode_decode`: every message, decoded into the typed value in the
//!   untimed setup, encoded with `serde_json::to_string` and decoded again.
//!
//! The setup of `decode` and `encode_decode` (not timed) first checks every line strictly: the
//! typed value, serialized again, must carry every field of the line.

use acp_codec_rust::codec::{self, Error};
use acp_codec_rust::lines;
use acp_codec_rust::summary::Summary;
use versus_worker::Worker;

fn run(lines: &[String], f: fn(&str, &mut Summary) -> Result<(), Error>) -> Result<String, Error> {
    let mut s = Summary::default();
    for l in lines {
        f(l, &mut s)?;
    }
    Ok(s.render())
}

fn main() {
    Worker::new()
        .operation(
            "parse",
            |setup| lines(setup.read_input()?),
            |l: &mut Vec<String>| run(l, codec::parse_line),
        )
        .operation(
            "decode",
            |setup| {
                let l = lines(setup.read_input()?)?;
                for (i, line) in l.iter().enumerate() {
                    codec::check_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
                }
                Ok(l)
            },
            |l: &mut Vec<String>| run(l, codec::decode_line),
        )
        .operation(
            "encode_decode",
            |setup| {
                let l = lines(setup.read_input()?)?;
                let mut msgs = Vec::with_capacity(l.len());
                for (i, line) in l.iter().enumerate() {
                    codec::check_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
                    msgs.push(codec::decode_message(line)?);
                }
                Ok(msgs)
            },
            |msgs: &mut Vec<codec::Line>| -> Result<String, Error> {
                let mut s = Summary::default();
                for m in msgs.iter() {
                    codec::encode_decode(m, &mut s)?;
                }
                Ok(s.render())
            },
        )
        .run()
}
