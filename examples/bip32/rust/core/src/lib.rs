//! The operations of examples/bip32 over the `bip32` crate (0.6, k256
//! backend), shared by the native versus worker and the wasm32 module, so
//! both run exactly the same Rust code.
//!
//! Every benchmark operation does what the seed report's benchmark did, plus
//! reading the resulting key's compressed public key (33 bytes), which it
//! returns: the crate computes public keys eagerly, the JavaScript libraries
//! lazily, so reading it makes every implementation do the same work.
//!
//! Keys are the `bip32` crate's default types, `XPrv`/`XPub`
//! (`k256::ecdsa::SigningKey`/`VerifyingKey`), as in the seed report.

use bip32::{ChildNumber, Prefix, XPrv, XPub};
use std::str::FromStr;

/// A compressed secp256k1 public key.
pub type PublicKey = [u8; 33];

/// Errors are reported as text: the callers only pass them on.
pub type Error = String;

fn err(e: impl std::fmt::Display) -> Error {
    e.to_string()
}

/// The child numbers of a path: `m/44'/0'/0'/0/0` (from a master key) or
/// `0/0/0/0/0` (relative to any key); `'` or `h` marks a hardened index.
/// `m` alone is the empty path.
fn children(path: &str) -> impl Iterator<Item = Result<ChildNumber, Error>> + '_ {
    let rest = match path {
        "m" | "" => "",
        _ => path.strip_prefix("m/").unwrap_or(path),
    };
    rest.split('/')
        .filter(|_| !rest.is_empty())
        .map(|c| ChildNumber::from_str(c).map_err(err))
}

/// `fromBase58(xprv)` + public key.
pub fn from_xprv(xprv: &str) -> Result<PublicKey, Error> {
    Ok(XPrv::from_str(xprv).map_err(err)?.public_key().to_bytes())
}

/// `fromBase58(xpub)` + public key.
pub fn from_xpub(xpub: &str) -> Result<PublicKey, Error> {
    Ok(XPub::from_str(xpub).map_err(err)?.to_bytes())
}

/// `fromSeed(seed)` + public key.
pub fn from_seed(seed: &[u8]) -> Result<PublicKey, Error> {
    Ok(XPrv::new(seed).map_err(err)?.public_key().to_bytes())
}

/// `fromBase58(xprv).derivePath(path)` + public key.
pub fn derive_path_xprv(xprv: &str, path: &str) -> Result<PublicKey, Error> {
    let mut key = XPrv::from_str(xprv).map_err(err)?;
    for child in children(path) {
        key = key.derive_child(child?).map_err(err)?;
    }
    Ok(key.public_key().to_bytes())
}

/// `fromBase58(xpub).derivePath(path)` + public key (non-hardened path).
pub fn derive_path_xpub(xpub: &str, path: &str) -> Result<PublicKey, Error> {
    let mut key = XPub::from_str(xpub).map_err(err)?;
    for child in children(path) {
        key = key.derive_child(child?).map_err(err)?;
    }
    Ok(key.to_bytes())
}

/// `fromBase58(xprv).neutered()` + public key.
pub fn neutered(xprv: &str) -> Result<PublicKey, Error> {
    let key = XPrv::from_str(xprv).map_err(err)?;
    let public: XPub = key.public_key();
    Ok(public.to_bytes())
}

/// `fromBase58(xpub).derive(0)` + public key.
pub fn derive0(xpub: &str) -> Result<PublicKey, Error> {
    let key = XPub::from_str(xpub).map_err(err)?;
    let child = key
        .derive_child(ChildNumber::new(0, false).map_err(err)?)
        .map_err(err)?;
    Ok(child.to_bytes())
}

/// The BIP-0032 test vectors: for each `vector <seed>` / `chain <path>`
/// record of the inputs file, one line `<path> <xpub> <xprv>` with the keys
/// derived from that seed's master key, in the order of the file.
pub fn vectors(inputs: &str) -> Result<String, Error> {
    let mut out = String::new();
    let mut master: Option<XPrv> = None;
    for line in records(inputs) {
        match line {
            ("vector", seed) => master = Some(XPrv::new(&hex(seed)?).map_err(err)?),
            ("chain", path) => {
                let mut key = master.clone().ok_or("chain before vector")?;
                for child in children(path) {
                    key = key.derive_child(child?).map_err(err)?;
                }
                out.push_str(path);
                out.push(' ');
                out.push_str(&key.public_key().to_string(Prefix::XPUB));
                out.push(' ');
                out.push_str(&key.to_string(Prefix::XPRV));
                out.push('\n');
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The benchmark inputs of the inputs file (`data/inputs.txt`).
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub xprv: String,
    pub xpub: String,
    pub seed: Vec<u8>,
    pub path_xprv: String,
    pub path_xpub: String,
}

impl Inputs {
    pub fn parse(text: &str) -> Result<Inputs, Error> {
        let mut inputs = Inputs::default();
        for (key, value) in records(text) {
            match key {
                "xprv" => inputs.xprv = value.to_string(),
                "xpub" => inputs.xpub = value.to_string(),
                "seed" => inputs.seed = hex(value)?,
                "path-xprv" => inputs.path_xprv = value.to_string(),
                "path-xpub" => inputs.path_xpub = value.to_string(),
                _ => {}
            }
        }
        if inputs.xprv.is_empty() || inputs.xpub.is_empty() || inputs.seed.is_empty() {
            return Err("inputs file lacks xprv, xpub or seed".into());
        }
        Ok(inputs)
    }
}

/// `key value` records, skipping comments and blank lines.
fn records(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once(' ').unwrap_or((l, "")))
}

fn hex(s: &str) -> Result<Vec<u8>, Error> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd-length hex: {s}"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(err))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUTS: &str = include_str!("../../../data/inputs.txt");
    const EXPECTED: &str = include_str!("../../../data/vectors-expected.txt");

    #[test]
    fn published_vectors() {
        assert_eq!(vectors(INPUTS).unwrap(), EXPECTED);
    }

    #[test]
    fn benchmark_operations_agree() {
        let i = Inputs::parse(INPUTS).unwrap();
        // fromBase58(xprv) and neutered() give the master public key.
        assert_eq!(from_xprv(&i.xprv).unwrap(), neutered(&i.xprv).unwrap());
        // The xpub's own key, and children derived the two ways.
        from_xpub(&i.xpub).unwrap();
        assert_eq!(derive0(&i.xpub).unwrap(), derive_path_xpub(&i.xpub, "0").unwrap());
        derive_path_xprv(&i.xprv, &i.path_xprv).unwrap();
        derive_path_xpub(&i.xpub, &i.path_xpub).unwrap();
        from_seed(&i.seed).unwrap();
    }
}
