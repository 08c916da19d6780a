//! SHA-256 of the input, for the cross-language comparison in
//! examples/sha256: setup reads the input into memory (not timed), and the
//! operation returns the raw 32-byte digest of those bytes.
//!
//! Rust's standard library has no SHA-256; the `sha2` crate (RustCrypto) is
//! the idiomatic choice.
//!
//! ```sh
//! cargo build --release --example sha256_worker
//! ```

use sha2::{Digest, Sha256};
use versus_worker::Worker;

fn main() {
    Worker::new()
        .operation(
            "sha256",
            |setup| setup.read_input(),
            |input: &mut Vec<u8>| Ok(Sha256::digest(input)),
        )
        .run()
}
