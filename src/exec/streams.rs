//! A run's standard streams: `/dev/null` and capture files kept open and
//! handed to each run as duplicates (a `dup` costs less than an `open` with
//! its path lookup and truncation, which shows on a command as short as
//! `true`), and reading the tail of a capture for failure messages.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// `/dev/null` and the capture files of recent runs, kept open.
#[derive(Default)]
pub(super) struct StreamCache {
    null: Option<File>,
    capture: std::collections::HashMap<PathBuf, File>,
}

impl StreamCache {
    /// Most capture files kept open; a group interleaves a handful at a time.
    const MAX_OPEN: usize = 64;

    pub(super) fn null(&mut self) -> std::io::Result<Stdio> {
        if self.null.is_none() {
            self.null = Some(std::fs::OpenOptions::new().read(true).write(true).open("/dev/null")?);
        }
        Ok(Stdio::from(self.null.as_ref().expect("opened above").try_clone()?))
    }

    /// An empty file at `path` positioned at its start, for a run's output.
    /// The file is created on first use and emptied before each later one; if
    /// it was removed or replaced in the meantime, it is created again.
    pub(super) fn capture(&mut self, path: &Path) -> std::io::Result<Stdio> {
        use std::os::unix::fs::MetadataExt;
        // The open file's size, if it is still the file at `path` (the runner
        // removes an output file before each run).
        let still_there = |f: &File| {
            let (Ok(open), Ok(named)) = (f.metadata(), std::fs::metadata(path)) else {
                return None;
            };
            (open.ino() == named.ino() && open.dev() == named.dev()).then_some(open.len())
        };
        let reuse = self
            .capture
            .get_mut(path)
            .and_then(|f| still_there(f).map(|len| (f, len)));
        let file = match reuse {
            Some((f, len)) => {
                if len > 0 {
                    f.set_len(0)?;
                }
                // The run's duplicate shares this offset; a program may have
                // moved it without writing.
                f.seek(SeekFrom::Start(0))?;
                f
            }
            None => {
                if self.capture.len() >= Self::MAX_OPEN {
                    self.capture.clear();
                }
                let f = File::create(path)?;
                self.capture.insert(path.to_path_buf(), f);
                self.capture.get_mut(path).expect("inserted above")
            }
        };
        Ok(Stdio::from(file.try_clone()?))
    }
}

/// Reads the last `max` bytes of a file, lossily, for failure messages.
pub(crate) fn tail(path: &Path, max: u64) -> String {
    let Ok(mut f) = File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(max)));
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).trim().to_string()
}
