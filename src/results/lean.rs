//! Reading a results document without its per-run figures.
//!
//! Some readers want only what a run concluded: the change since an earlier
//! run compares each cell's recorded statistics and never looks at that
//! run's samples, which at 100,000 runs are most of the document. Inside
//! `without_runs`, a cell's `samples` are skipped as they are parsed (read
//! over, never built) and come back empty; everything else is read as
//! usual. Outside it nothing changes. The switch is per thread, so parsing
//! elsewhere at the same time is not affected.

use std::cell::Cell;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

use super::Samples;

thread_local! {
    static SKIPPING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `parse` with every cell's samples left out of what it reads.
pub(crate) fn without_runs<T>(parse: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SKIPPING.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SKIPPING.with(|s| s.replace(true)));
    parse()
}

/// A cell's samples as `Cell` deserialises them: empty inside `without_runs`.
pub(super) fn samples<'de, D: Deserializer<'de>>(d: D) -> Result<Samples, D::Error> {
    if SKIPPING.with(Cell::get) {
        IgnoredAny::deserialize(d)?;
        Ok(Samples::default())
    } else {
        Samples::deserialize(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Results;

    fn fixture() -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn only_the_samples_are_left_out_and_only_inside() {
        let text = fixture();
        let full: Results = serde_json::from_str(&text).unwrap();
        assert!(
            full.cells.iter().any(|c| !c.samples.is_empty()),
            "the fixture has samples"
        );
        let lean: Results = without_runs(|| serde_json::from_str(&text)).unwrap();
        assert!(lean.cells.iter().all(|c| c.samples.is_empty()));
        let mut expected = full.clone();
        expected.cells.iter_mut().for_each(|c| c.samples = Samples::default());
        assert_eq!(lean, expected);
        let again: Results = serde_json::from_str(&text).unwrap();
        assert_eq!(again, full, "outside, samples are read again");
    }

    #[test]
    fn a_failed_parse_leaves_the_switch_off() {
        let bad: Result<Results, _> = without_runs(|| serde_json::from_str("{\"cells\": ["));
        assert!(bad.is_err());
        let full: Results = serde_json::from_str(&fixture()).unwrap();
        assert!(full.cells.iter().any(|c| !c.samples.is_empty()));
    }
}
