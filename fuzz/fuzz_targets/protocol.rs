//! The worker protocol decoder on arbitrary lines (a worker is code under
//! test: whatever it writes must become an outcome, never a harness crash).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    let _ = versus::worker::Message::decode(line);
});
