//! Shared code of the acp-codec Rust worker and cold-start program.
pub mod codec;
pub mod summary;

/// The corpus as lines: UTF-8 text split on `\n` (transport work, done before timing).
pub fn lines(bytes: Vec<u8>) -> Result<Vec<String>, codec::Error> {
    let text = String::from_utf8(bytes)?;
    Ok(text.lines().filter(|l| !l.is_empty()).map(str::to_owned).collect())
}
