//! Which notes a report carries: the author's reading of the run, in
//! Markdown. Asked for with `--notes FILE`; otherwise found without a flag,
//! first beside a report being written (`docs/results/age.md` takes
//! `docs/results/age.notes.md`, the layout the committed reports use), then
//! the suite's own (`[report] notes`, else `SUITE.notes.md` beside the
//! suite file, as recorded when the suite was read).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::report::Outputs;
use crate::results::Results;

/// The notes' text, or `None` when there are none.
pub(super) fn find(asked: Option<&Path>, results: &Results, outputs: &Outputs) -> Result<Option<String>> {
    if let Some(p) = asked {
        let text = fs::read_to_string(p).with_context(|| format!("--notes {}: cannot read it", p.display()))?;
        return Ok(Some(text));
    }
    let beside = outputs
        .markdown
        .iter()
        .chain(&outputs.html)
        .map(|p| p.with_extension("notes.md"));
    let found = beside.chain(of_suite(results)).find(|p| p.is_file());
    Ok(found.and_then(|p| fs::read_to_string(p).ok()))
}

/// The suite's notes file, where the suite file it names is still there.
fn of_suite(results: &Results) -> Option<PathBuf> {
    let name = results.suite.report.notes.as_ref()?;
    let suite = Path::new(results.suite.file.as_ref()?);
    Some(suite.parent().unwrap_or(Path::new(".")).join(name))
}
