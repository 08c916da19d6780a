//! The two functions both harnesses time, shared by the criterion benchmark
//! and the versus worker so that both measure the same code.

use sha2::{Digest, Sha256};

/// Size of the SHA-256 input: 1 MB (10^6 bytes, versus's `1MB`).
pub const SIZE: usize = 1_000_000;

/// The deterministic 1 MB input: byte `i` is `i * 31 mod 256`, the same in
/// every language of bench/inprocess.
pub fn data() -> Vec<u8> {
    (0..SIZE).map(|i| (i * 31 % 256) as u8).collect()
}

/// SHA-256 of `data` with the sha2 crate: the raw 32-byte digest.
pub fn sha256(data: &[u8]) -> impl AsRef<[u8]> + use<> {
    Sha256::digest(data)
}

/// The empty operation: returns an empty byte string.
pub fn noop() -> &'static [u8] {
    b""
}
