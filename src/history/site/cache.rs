//! What `versus site` keeps between publishes: each (suite, machine) pair's
//! cell medians and intervals, run by run, in the user's cache folder (never
//! in the site). A run's cells never change once recorded, so a publish
//! after one new run reads the older runs' points from here and only the new
//! run's from the store: at 2,000 runs × 1,000 cells that is two million
//! rows the store no longer has to give. The file is trusted only while its
//! runs are the first runs of the pair, the same ids started at the same
//! times, and its length is what its header says; anything else (a pruned
//! store, another store at the same address, a torn file) reads nothing and
//! the publish reads the store whole, as without it. A cache that cannot be
//! written is no error.
//!
//! Layout (little-endian): `MAGIC`; the run count (u32), each run's id
//! (i64), its start time's length (u16) and bytes; the point count (u64),
//! each point's series id and run index (u32 each) and its median, interval
//! low and high (f64 each, NaN for none).

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

use crate::history::TrendRun;

const MAGIC: &[u8] = b"versus site points 1\n";
const POINT_BYTES: u64 = 32;

/// One point as the cache keeps it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Raw {
    pub series_id: i64,
    pub run: usize,
    pub median_ns: f64,
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
}

/// The cache file of a pair of a store; the address is only hashed, never written.
pub(crate) fn path(store: &str, suite: &str, machine: &str) -> PathBuf {
    let key = crate::base::digest::sha256_hex(format!("{store}\0{suite}\0{machine}").as_bytes());
    crate::payload::cache_dir()
        .join("site")
        .join(format!("{}.points", &key[..24]))
}

/// Feeds the cached points to `each` and says how many of `runs` (the
/// first ones) they cover; 0, feeding nothing, when the file is missing or
/// not to be trusted.
pub(crate) fn read(path: &PathBuf, runs: &[TrendRun], each: &mut dyn FnMut(Raw)) -> usize {
    let Ok(file) = File::open(path) else { return 0 };
    let Ok(length) = file.metadata().map(|m| m.len()) else {
        return 0;
    };
    let mut r = BufReader::with_capacity(1 << 20, file);
    let Some((covered, points)) = header(&mut r, runs, length) else {
        return 0;
    };
    let mut buf = [0u8; POINT_BYTES as usize];
    for _ in 0..points {
        if r.read_exact(&mut buf).is_err() {
            return 0;
        }
        let word = |k: usize| u32::from_le_bytes(buf[k..k + 4].try_into().expect("4 bytes"));
        let real = |k: usize| f64::from_le_bytes(buf[k..k + 8].try_into().expect("8 bytes"));
        let some = |v: f64| (!v.is_nan()).then_some(v);
        each(Raw {
            series_id: i64::from(word(0)),
            run: word(4) as usize,
            median_ns: real(8),
            ci_low_ns: some(real(16)),
            ci_high_ns: some(real(24)),
        });
    }
    covered
}

/// The runs the file covers, if they begin `runs`, and its point count, if the length agrees.
fn header(r: &mut impl Read, runs: &[TrendRun], length: u64) -> Option<(usize, u64)> {
    let mut magic = vec![0u8; MAGIC.len()];
    r.read_exact(&mut magic).ok()?;
    (magic == MAGIC).then_some(())?;
    let count = u32::from_le_bytes(take(r)?) as usize;
    (count <= runs.len()).then_some(())?;
    let mut read = MAGIC.len() as u64 + 4;
    for run in &runs[..count] {
        let id = i64::from_le_bytes(take(r)?);
        let mut started = vec![0u8; u16::from_le_bytes(take(r)?) as usize];
        r.read_exact(&mut started).ok()?;
        (id == run.id && started == run.started_at.as_bytes()).then_some(())?;
        read += 10 + started.len() as u64;
    }
    let points = u64::from_le_bytes(take(r)?);
    (length == read + 8 + points * POINT_BYTES).then_some((count, points))
}

fn take<const N: usize>(r: &mut impl Read) -> Option<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b).ok().map(|_| b)
}

/// Keeps the `count` `points` of `runs` for the next publish (written
/// aside and renamed, so a reader sees the old file or the new); silent
/// when it cannot.
pub(crate) fn write(path: &PathBuf, runs: &[TrendRun], count: usize, points: &mut dyn Iterator<Item = Raw>) {
    let aside = path.with_extension("part");
    let written = path
        .parent()
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| File::create(&aside))
        .and_then(|f| write_to(BufWriter::with_capacity(1 << 20, f), runs, count, points))
        .and_then(|()| fs::rename(&aside, path));
    if written.is_err() {
        let _ = fs::remove_file(&aside);
    }
}

fn write_to(
    mut w: impl Write,
    runs: &[TrendRun],
    count: usize,
    points: &mut dyn Iterator<Item = Raw>,
) -> std::io::Result<()> {
    let too_big = || std::io::Error::other("beyond the cache's 32-bit ids");
    w.write_all(MAGIC)?;
    w.write_all(&u32::try_from(runs.len()).map_err(|_| too_big())?.to_le_bytes())?;
    for run in runs {
        w.write_all(&run.id.to_le_bytes())?;
        let started = run.started_at.as_bytes();
        w.write_all(&u16::try_from(started.len()).map_err(|_| too_big())?.to_le_bytes())?;
        w.write_all(started)?;
    }
    w.write_all(&(count as u64).to_le_bytes())?;
    let mut written = 0;
    for p in points {
        written += 1;
        w.write_all(&u32::try_from(p.series_id).map_err(|_| too_big())?.to_le_bytes())?;
        w.write_all(&u32::try_from(p.run).map_err(|_| too_big())?.to_le_bytes())?;
        for v in [Some(p.median_ns), p.ci_low_ns, p.ci_high_ns] {
            w.write_all(&v.unwrap_or(f64::NAN).to_le_bytes())?;
        }
    }
    if written != count {
        return Err(std::io::Error::other("the points were not as many as counted"));
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(n: usize) -> Vec<TrendRun> {
        (0..n)
            .map(|k| TrendRun {
                id: 10 + k as i64,
                started_at: format!("2026-11-{:02}T10:00:00Z", k + 1),
                git_commit: None,
            })
            .collect()
    }

    fn points(runs: usize) -> Vec<Raw> {
        (0..runs)
            .flat_map(|run| {
                (1..=3).map(move |s| Raw {
                    series_id: s,
                    run,
                    median_ns: 1000.0 * s as f64 + run as f64,
                    ci_low_ns: (s != 2).then_some(990.0),
                    ci_high_ns: (s != 2).then_some(1010.0),
                })
            })
            .collect()
    }

    fn kept(path: &PathBuf, runs: &[TrendRun]) -> (usize, Vec<Raw>) {
        let mut got = Vec::new();
        let covered = read(path, runs, &mut |p| got.push(p));
        (covered, got)
    }

    #[test]
    fn what_is_kept_reads_back_for_the_same_runs_and_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pair.points");
        let (four, written) = (runs(4), points(4));
        write(&path, &four, written.len(), &mut written.iter().copied());
        assert_eq!(kept(&path, &four), (4, written.clone()), "the same runs: every point");
        assert_eq!(kept(&path, &runs(5)), (4, written), "one run more: the four it covers");
    }

    #[test]
    fn a_file_that_does_not_begin_the_runs_or_is_torn_reads_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pair.points");
        let (four, written) = (runs(4), points(4));
        write(&path, &four, written.len(), &mut written.iter().copied());
        assert_eq!(kept(&path, &runs(3)), (0, vec![]), "a pruned store: fewer runs");
        let mut other = runs(4);
        other[1].started_at = "2027-01-01T00:00:00Z".into();
        assert_eq!(kept(&path, &other), (0, vec![]), "another store at the same address");
        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        assert_eq!(kept(&path, &four), (0, vec![]), "a torn file");
        assert_eq!(kept(&dir.path().join("none"), &four), (0, vec![]), "no file");
    }

    #[test]
    fn a_miscounted_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pair.points");
        let (four, written) = (runs(4), points(4));
        write(&path, &four, written.len(), &mut written.iter().copied());
        write(&path, &runs(5), written.len() + 3, &mut points(5).into_iter().take(2));
        assert_eq!(kept(&path, &four).0, 4);
        assert!(!path.with_extension("part").exists());
    }
}
