//! `versus conformance -- CMD`: a worker checked against the protocol's
//! scenario files.

use super::*;
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::ExitCode;

pub fn conformance(args: crate::app::cli::ConformanceArgs) -> Result<ExitCode> {
    let mut scenarios = crate::worker::load_scenarios(args.scenarios.as_deref()).with_context(|| {
        format!(
            "--scenarios {}",
            args.scenarios.as_deref().unwrap_or(Path::new("")).display()
        )
    })?;
    if let Some(bad) = args.only.iter().find(|n| !scenarios.iter().any(|(s, _)| s == *n)) {
        bail!(
            "--only {bad}: no such scenario (known: {})",
            scenarios.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    if !args.only.is_empty() {
        scenarios.retain(|(n, _)| args.only.contains(n));
    }
    let scratch = tempfile::Builder::new().prefix("versus-conformance-").tempdir()?;
    let results = crate::worker::run_conformance(&args.command, &scenarios, scratch.path())?;
    let failed = results.iter().filter(|r| r.failure.is_some()).count();
    for r in &results {
        match &r.failure {
            None => say(&format!("ok    {}\n", r.name)),
            Some(f) => say(&format!("FAIL  {} — {}\n      {f}\n", r.name, r.description)),
        }
    }
    say(&format!(
        "conformance: {} passed, {failed} failed\n",
        results.len() - failed
    ));
    Ok(ExitCode::from(if failed == 0 { exit::OK } else { exit::NOT_OK }))
}
