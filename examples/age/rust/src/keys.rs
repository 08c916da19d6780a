//! Key generation, and wrapping the constant file key 00 01 .. 0f for one
//! recipient and unwrapping it with the matching identity, for X25519 and
//! scrypt (work factor 2^10, as in the Go worker). `kind = "hybrid"` is an
//! error: the crate has no ML-KEM-768-X25519 recipient.

use age::secrecy::{ExposeSecret, SecretString};
use age::{scrypt, x25519};
use age_core::format::{FileKey, Stanza};
use versus_worker::{Error, Setup};

const SCRYPT_LOG_N: u8 = 10;
const PASSPHRASE: &str = "correct horse battery staple";

fn kind(s: &Setup) -> Result<String, Error> {
    s.param_str("kind").ok_or_else(|| "no matrix parameter `kind`".into())
}

fn file_key() -> FileKey {
    FileKey::new(Box::new(std::array::from_fn(|i| i as u8)))
}

pub fn setup_keygen(s: &Setup) -> Result<String, Error> {
    let k = kind(s)?;
    if k != "x25519" {
        return Err(format!("no key generation for kind {k:?} in the age crate").into());
    }
    // One key checked, untimed: the identity, parsed back, gives the recipient
    // returned beside it.
    let out = keygen(&mut k.clone())?;
    let (id, recipient) = out
        .trim_end()
        .split_once('\n')
        .ok_or("keygen returned fewer than 2 lines")?;
    let parsed: x25519::Identity = id.parse().map_err(|e: &str| e.to_string())?;
    if parsed.to_public().to_string() != recipient {
        return Err(format!("the identity's recipient differs from the returned {recipient:?}").into());
    }
    Ok(k)
}

/// One X25519 identity and its recipient, as age-keygen writes them: the
/// identity's encoding (AGE-SECRET-KEY-1...) and the recipient's (age1...), a
/// line each. The crate draws the secret only at `generate` and computes the
/// public key at `to_public`, so this call does what one Go call does (Go's
/// `GenerateX25519Identity` computes the public key when it generates).
pub fn keygen(_: &mut String) -> Result<String, Error> {
    let id = x25519::Identity::generate();
    let mut out = id.to_string().expose_secret().to_owned();
    out.push('\n');
    out.push_str(&id.to_public().to_string());
    out.push('\n');
    Ok(out)
}

pub struct Pair {
    r: Box<dyn age::Recipient>,
    id: Box<dyn age::Identity>,
    stanzas: Vec<Stanza>,
}

pub fn setup_pair(s: &Setup) -> Result<Pair, Error> {
    let (r, id): (Box<dyn age::Recipient>, Box<dyn age::Identity>) = match kind(s)?.as_str() {
        "x25519" => {
            let id = x25519::Identity::generate();
            (Box::new(id.to_public()), Box::new(id))
        }
        "scrypt" => {
            let mut r = scrypt::Recipient::new(SecretString::from(PASSPHRASE.to_owned()));
            r.set_work_factor(SCRYPT_LOG_N);
            (Box::new(r), Box::new(scrypt::Identity::new(SecretString::from(PASSPHRASE.to_owned()))))
        }
        k => return Err(format!("kind {k:?} is not in the age crate").into()),
    };
    let stanzas = r.wrap_file_key(&file_key())?.0;
    let mut p = Pair { r, id, stanzas };
    if unwrap(&mut p)? != file_key().expose_secret().to_vec() {
        return Err("unwrap did not return the file key".into());
    }
    Ok(p)
}

/// The stanza's body (random: not compared).
pub fn wrap(p: &mut Pair) -> Result<Vec<u8>, Error> {
    let (mut stanzas, _) = p.r.wrap_file_key(&file_key())?;
    Ok(stanzas.swap_remove(0).body)
}

pub fn unwrap(p: &mut Pair) -> Result<Vec<u8>, Error> {
    match p.id.unwrap_stanzas(&p.stanzas) {
        Some(Ok(k)) => Ok(k.expose_secret().to_vec()),
        Some(Err(e)) => Err(e.into()),
        None => Err("no stanza matched the identity".into()),
    }
}
