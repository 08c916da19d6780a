//! The suite parser and validator on arbitrary text: an error is fine, a
//! panic or a hang is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = versus::suite::parse(std::path::Path::new("fuzz.toml"), text);
});
