//! `same_output` when outputs differ: whose output is right, and how the
//! others differ from it. The first implementation listed is no better a
//! judge than the others, so the reference is the implementation the suite
//! names (`reference`), else the output a strict majority of three or more
//! agree on; two that differ, or no majority, leave versus unable to tell,
//! and it says so instead of blaming one. What differs is described from
//! the files themselves: their sizes, the first byte where they part, and a
//! short excerpt of each from there.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::payload::Digest;

/// Who is right among the outputs of a group's ok cells.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Reference {
    /// Everyone agrees.
    Agreed,
    /// The suite names this implementation (index into the outputs given).
    Named(usize),
    /// More than half of the outputs (these indices) are the same.
    Majority(Vec<usize>),
    /// No way to tell: two differ, or no output has a majority.
    Undecided,
}

/// Decides the reference among `digests` (one per ok cell); `named` is the
/// index of the suite's `reference` implementation when it is among them.
pub(super) fn reference(digests: &[Digest], named: Option<usize>) -> Reference {
    if digests.windows(2).all(|w| w[0] == w[1]) {
        return Reference::Agreed;
    }
    if let Some(i) = named {
        return Reference::Named(i);
    }
    let agreeing = |d: &Digest| -> Vec<usize> { (0..digests.len()).filter(|&j| digests[j] == *d).collect() };
    match digests.iter().map(agreeing).max_by_key(Vec::len) {
        Some(most) if digests.len() >= 3 && most.len() * 2 > digests.len() => Reference::Majority(most),
        _ => Reference::Undecided,
    }
}

/// Bytes shown of each output from where they part.
const EXCERPT_BYTES: usize = 32;

/// How the output `a` differs from `b`: "98892 bytes against 41781; from
/// byte 1 on: "\n  {" against "{\"x\"" (the first byte where they part,
/// counted from 0). `None` when either cannot be read.
pub(super) fn difference(a: &Path, b: &Path) -> Option<String> {
    let (size_a, size_b) = (a.metadata().ok()?.len(), b.metadata().ok()?.len());
    let at = first_difference(a, b).ok()??;
    let (ea, eb) = (excerpt(a, at).ok()?, excerpt(b, at).ok()?);
    let sizes = if size_a == size_b {
        format!("both {size_a} bytes")
    } else {
        format!("{size_a} bytes against {size_b}")
    };
    Some(format!("{sizes}; from byte {at} on: {ea} against {eb}"))
}

/// The offset of the first byte where the files differ (a shorter file ends
/// there); `None` when they are equal.
fn first_difference(a: &Path, b: &Path) -> io::Result<Option<u64>> {
    let (mut fa, mut fb) = (File::open(a)?, File::open(b)?);
    let (mut ba, mut bb) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    let mut offset = 0u64;
    loop {
        let na = read_full(&mut fa, &mut ba)?;
        let nb = read_full(&mut fb, &mut bb)?;
        let n = na.min(nb);
        if let Some(i) = (0..n).find(|&i| ba[i] != bb[i]) {
            return Ok(Some(offset + i as u64));
        }
        if na != nb {
            return Ok(Some(offset + n as u64));
        }
        if na == 0 {
            return Ok(None);
        }
        offset += n as u64;
    }
}

/// Reads until `buf` is full or the file ends.
fn read_full(f: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Up to `EXCERPT_BYTES` of the file from `from`, quoted with escapes
/// ("\n", "\u{0}"), "…" when more follows, "(end of output)" when none is left.
fn excerpt(path: &Path, from: u64) -> io::Result<String> {
    use std::io::{Seek, SeekFrom};
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(from))?;
    let mut buf = vec![0u8; EXCERPT_BYTES + 1];
    let n = read_full(&mut f, &mut buf)?;
    if n == 0 {
        return Ok("(end of output)".into());
    }
    let shown = &buf[..n.min(EXCERPT_BYTES)];
    let text: String = String::from_utf8_lossy(shown).escape_debug().collect();
    Ok(format!("\"{text}{}\"", if n > EXCERPT_BYTES { "…" } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(n: u8) -> Digest {
        Digest([n; 32])
    }

    #[test]
    fn the_majority_is_right_and_two_cannot_be_told_apart() {
        let (a, b) = (digest(1), digest(2));
        assert_eq!(reference(&[a, a, a], None), Reference::Agreed);
        // The first listed differs: the two that agree are the reference.
        assert_eq!(reference(&[a, b, b], None), Reference::Majority(vec![1, 2]));
        assert_eq!(reference(&[a, b], None), Reference::Undecided);
        assert_eq!(reference(&[a, a, b, b], None), Reference::Undecided);
        // A named reference decides even against a majority.
        assert_eq!(reference(&[a, b, b], Some(0)), Reference::Named(0));
    }

    #[test]
    fn a_difference_names_sizes_offset_and_excerpts() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "[\n  {\n    \"x\": 0\n  }\n]\n").unwrap();
        std::fs::write(&b, "[{\"x\":0}]\n").unwrap();
        let d = difference(&a, &b).unwrap();
        assert_eq!(
            d,
            r#"23 bytes against 10; from byte 1 on: "\n  {\n    \"x\": 0\n  }\n]\n" against "{\"x\":0}]\n""#
        );
        std::fs::write(&b, "[\n  {\n    \"x\": 0\n  }\n]\n and more").unwrap();
        let d = difference(&a, &b).unwrap();
        assert_eq!(
            d,
            r#"23 bytes against 32; from byte 23 on: (end of output) against " and more""#
        );
    }
}
