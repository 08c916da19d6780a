//! The bip32 benchmark operations behind a wasm-bindgen interface, the way
//! the seed report's module was built: the same functions as the raw module
//! (rust/wasm) and the native worker (rust/core), with strings passed and
//! results returned through wasm-bindgen's generated JavaScript glue
//! (strings encoded into the module's memory, the 33-byte key copied out as a
//! Uint8Array). install.sh runs the wasm-bindgen CLI (--target nodejs) and
//! then `wasm-opt -O4` on the module, as the seed's build did.

use bip32_bench_core as ops;
use wasm_bindgen::prelude::*;

fn js(e: ops::Error) -> JsError {
    JsError::new(&e)
}

#[wasm_bindgen]
pub fn from_xprv(xprv: &str) -> Result<Vec<u8>, JsError> {
    ops::from_xprv(xprv).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn from_xpub(xpub: &str) -> Result<Vec<u8>, JsError> {
    ops::from_xpub(xpub).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn from_seed(seed: &[u8]) -> Result<Vec<u8>, JsError> {
    ops::from_seed(seed).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn derive_path_xprv(xprv: &str, path: &str) -> Result<Vec<u8>, JsError> {
    ops::derive_path_xprv(xprv, path).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn derive_path_xpub(xpub: &str, path: &str) -> Result<Vec<u8>, JsError> {
    ops::derive_path_xpub(xpub, path).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn neutered(xprv: &str) -> Result<Vec<u8>, JsError> {
    ops::neutered(xprv).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn derive0(xpub: &str) -> Result<Vec<u8>, JsError> {
    ops::derive0(xpub).map(|k| k.to_vec()).map_err(js)
}

#[wasm_bindgen]
pub fn vectors(inputs: &str) -> Result<String, JsError> {
    ops::vectors(inputs).map_err(js)
}
