//! Whole-payload encryption and decryption in memory, binary or armored
//! (matrix parameter `armor`), to one X25519 recipient; and reading an
//! encrypted file through the crate's seekable `StreamReader`, in file order
//! or in a fixed shuffled order of 16 KiB reads.

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use age::armor::{ArmoredReader, ArmoredWriter, Format};
use age::x25519;
use versus_worker::{Error, Setup};

pub struct State {
    data: Vec<u8>,
    armored: bool,
    id: x25519::Identity,
}

fn armored(s: &Setup) -> bool {
    s.param("armor").and_then(|v| v.as_bool()).unwrap_or(false) || s.param_str("armor").as_deref() == Some("true")
}

/// Reads the payload, makes a key and checks one round trip (untimed); for
/// decrypt keeps the ciphertext instead of the payload.
pub fn setup(s: &Setup, for_decrypt: bool) -> Result<State, Error> {
    let payload = s.read_input()?;
    let id = x25519::Identity::generate();
    let armored = armored(s);
    let ct = encrypt(&payload, armored, &id.to_public())?;
    if decrypt(&ct, &id)? != payload {
        return Err("round trip did not restore the payload".into());
    }
    let data = if for_decrypt { ct } else { payload };
    Ok(State { data, armored, id })
}

pub fn encrypt(payload: &[u8], armored: bool, r: &x25519::Recipient) -> Result<Vec<u8>, Error> {
    let enc = age::Encryptor::with_recipients(std::iter::once(r as &dyn age::Recipient))?;
    let format = if armored { Format::AsciiArmor } else { Format::Binary };
    let mut w = enc.wrap_output(ArmoredWriter::wrap_output(Vec::new(), format)?)?;
    w.write_all(payload)?;
    Ok(w.finish()?.finish()?)
}

/// Detects armor by its first line, as the Go worker does; binary input is
/// read directly.
pub fn decrypt(ct: &[u8], id: &x25519::Identity) -> Result<Vec<u8>, Error> {
    let src: Box<dyn Read + '_> = if ct.starts_with(b"-----BEGIN AGE ENCRYPTED FILE-----") {
        Box::new(ArmoredReader::new(ct))
    } else {
        Box::new(ct)
    };
    let mut r = age::Decryptor::new(src)?.decrypt(std::iter::once(id as &dyn age::Identity))?;
    let mut out = Vec::new();
    r.read_to_end(&mut out)?;
    Ok(out)
}

pub fn encrypt_op(s: &mut State) -> Result<Vec<u8>, Error> {
    encrypt(&s.data, s.armored, &s.id.to_public())
}

pub fn decrypt_op(s: &mut State) -> Result<Vec<u8>, Error> {
    decrypt(&s.data, &s.id)
}

const READ_SIZE: usize = 16 << 10;

pub struct Random {
    ct: Vec<u8>,
    id: x25519::Identity,
    offsets: Vec<usize>,
    len: usize,
}

pub fn setup_random(s: &Setup, shuffled: bool) -> Result<Random, Error> {
    let payload = s.read_input()?;
    let id = x25519::Identity::generate();
    let ct = encrypt(&payload, false, &id.to_public())?;
    let mut offsets: Vec<usize> = (0..payload.len()).step_by(READ_SIZE).collect();
    if shuffled {
        // Fisher-Yates with a fixed xorshift64 generator: the same order every run.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in (1..offsets.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            offsets.swap(i, (x % (i as u64 + 1)) as usize);
        }
    }
    let mut st = Random { ct, id, offsets, len: payload.len() };
    if read_blocks(&mut st)? != payload {
        return Err("reading did not restore the payload".into());
    }
    Ok(st)
}

/// Opens the file (header parsed, file key unwrapped), then seeks to each
/// offset and reads one block into place in a new output buffer (allocated
/// per call, as in the Go worker).
pub fn read_blocks(s: &mut Random) -> Result<Vec<u8>, Error> {
    let mut r = age::Decryptor::new(Cursor::new(&s.ct[..]))?.decrypt(std::iter::once(&s.id as &dyn age::Identity))?;
    let mut out = vec![0u8; s.len];
    for &off in &s.offsets {
        let end = (off + READ_SIZE).min(s.len);
        r.seek(SeekFrom::Start(off as u64))?;
        r.read_exact(&mut out[off..end])?;
    }
    Ok(out)
}
