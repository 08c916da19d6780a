//! The bip32 benchmark operations as a wasm32 module with a minimal raw
//! interface: no wasm-bindgen, no imports. The host writes its arguments
//! (UTF-8 strings or bytes) back to back into the input buffer, calls an
//! operation with their lengths, and reads the result from the output
//! buffer: a return value n >= 0 is the result's length, n < 0 means failure
//! with a message of -n bytes in the output buffer.
//!
//! Exports: `memory`, `input_ptr()`, `output_ptr()`, `buffer_size()`, and
//! one function per operation (see the bottom of this file).

use bip32_bench_core as ops;
use std::cell::UnsafeCell;

const SIZE: usize = 16 * 1024;

struct Buffer(UnsafeCell<[u8; SIZE]>);
// wasm32-unknown-unknown is single-threaded: the host never calls in
// concurrently.
unsafe impl Sync for Buffer {}

static INPUT: Buffer = Buffer(UnsafeCell::new([0; SIZE]));
static OUTPUT: Buffer = Buffer(UnsafeCell::new([0; SIZE]));

#[unsafe(no_mangle)]
pub extern "C" fn input_ptr() -> *mut u8 {
    INPUT.0.get().cast()
}

#[unsafe(no_mangle)]
pub extern "C" fn output_ptr() -> *const u8 {
    OUTPUT.0.get().cast()
}

#[unsafe(no_mangle)]
pub extern "C" fn buffer_size() -> usize {
    SIZE
}

/// The input buffer's first `a` bytes, and the `b` bytes after them.
fn args(a: usize, b: usize) -> (&'static [u8], &'static [u8]) {
    // SAFETY: single-threaded, and the host does not write the buffer during
    // a call; the lengths are checked against the buffer's size.
    let input: &'static [u8; SIZE] = unsafe { &*INPUT.0.get() };
    let a = a.min(SIZE);
    let b = b.min(SIZE - a);
    (&input[..a], &input[a..a + b])
}

fn text(bytes: &[u8]) -> Result<&str, ops::Error> {
    std::str::from_utf8(bytes).map_err(|e| e.to_string())
}

/// Copies a result (or an error message) to the output buffer.
fn reply<T: AsRef<[u8]>>(result: Result<T, ops::Error>) -> isize {
    // SAFETY: as in `args`.
    let output: &mut [u8; SIZE] = unsafe { &mut *OUTPUT.0.get() };
    let (bytes, sign): (&[u8], isize) = match &result {
        Ok(value) => (value.as_ref(), 1),
        Err(message) => (message.as_bytes(), -1),
    };
    if bytes.len() > SIZE {
        let message = b"result larger than the output buffer";
        output[..message.len()].copy_from_slice(message);
        return -(message.len() as isize);
    }
    output[..bytes.len()].copy_from_slice(bytes);
    sign * bytes.len() as isize
}

#[unsafe(no_mangle)]
pub extern "C" fn from_xprv(xprv_len: usize) -> isize {
    let (xprv, _) = args(xprv_len, 0);
    reply(text(xprv).and_then(ops::from_xprv))
}

#[unsafe(no_mangle)]
pub extern "C" fn from_xpub(xpub_len: usize) -> isize {
    let (xpub, _) = args(xpub_len, 0);
    reply(text(xpub).and_then(ops::from_xpub))
}

#[unsafe(no_mangle)]
pub extern "C" fn from_seed(seed_len: usize) -> isize {
    let (seed, _) = args(seed_len, 0);
    reply(ops::from_seed(seed))
}

#[unsafe(no_mangle)]
pub extern "C" fn derive_path_xprv(xprv_len: usize, path_len: usize) -> isize {
    let (xprv, path) = args(xprv_len, path_len);
    reply(text(xprv).and_then(|x| ops::derive_path_xprv(x, text(path)?)))
}

#[unsafe(no_mangle)]
pub extern "C" fn derive_path_xpub(xpub_len: usize, path_len: usize) -> isize {
    let (xpub, path) = args(xpub_len, path_len);
    reply(text(xpub).and_then(|x| ops::derive_path_xpub(x, text(path)?)))
}

#[unsafe(no_mangle)]
pub extern "C" fn neutered(xprv_len: usize) -> isize {
    let (xprv, _) = args(xprv_len, 0);
    reply(text(xprv).and_then(ops::neutered))
}

#[unsafe(no_mangle)]
pub extern "C" fn derive0(xpub_len: usize) -> isize {
    let (xpub, _) = args(xpub_len, 0);
    reply(text(xpub).and_then(ops::derive0))
}

#[unsafe(no_mangle)]
pub extern "C" fn vectors(inputs_len: usize) -> isize {
    let (inputs, _) = args(inputs_len, 0);
    reply(text(inputs).and_then(ops::vectors))
}
