//! Results documents on disk: written atomically in versus's layout, read
//! back with their schema version and values checked.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::{READS_SCHEMA_VERSIONS, Results, SCHEMA_VERSION, layout, validate};

/// The exact text `write_json_atomic` writes for `value`.
pub fn to_json_text<T: Serialize>(value: &T) -> Result<String> {
    Ok(layout::to_string(value)? + "\n")
}

/// Writes `value` as JSON (`layout`) to `path` atomically (`base::output`), so a
/// crash never leaves a half-written results file.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    crate::base::output::write_with(path, |w| {
        layout::to_writer(&mut *w, value)?;
        w.write_all(b"\n")
    })
}

/// Reads a results file, refusing other schema versions with a clear message.
pub fn read(path: &Path) -> Result<Results> {
    let text = fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    from_text(&text).with_context(|| path.display().to_string())
}

/// Parses and checks a results document: the right schema version, every
/// field present, every value possible (`validate`).
pub fn from_text(text: &str) -> Result<Results> {
    let probe: serde_json::Value = serde_json::from_str(text).context("not valid JSON")?;
    match probe.get("schema_version").and_then(|v| v.as_u64()) {
        Some(v) if READS_SCHEMA_VERSIONS.iter().any(|r| u64::from(*r) == v) => {}
        Some(v) => {
            anyhow::bail!("schema_version {v} is not supported by this versus (it reads version {SCHEMA_VERSION})")
        }
        None => anyhow::bail!("no schema_version: not a versus results file"),
    }
    // Parsed again from the text, not from `probe`: a `Value`'s objects are
    // sorted by key, which would lose the order of implementations (the
    // report's column order) and of parameters.
    let mut results: Results = serde_json::from_str(text).context("not a valid versus results file")?;
    results.schema_version = SCHEMA_VERSION;
    validate::check(&results).map_err(|e| anyhow::anyhow!(e))?;
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_keeps_the_order_of_implementations() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
        let r = read(&path).unwrap();
        let names: Vec<&str> = r.environment.implementations.keys().map(String::as_str).collect();
        // As written in the file (suite order), not sorted.
        assert_eq!(names, ["plain", "<img src=x onerror=alert(1)>", "sleepy"]);
    }
}
