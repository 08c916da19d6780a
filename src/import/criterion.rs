//! criterion's folder (`target/criterion`, or any folder under it): for
//! each benchmark, `<id>/new/benchmark.json` names it (group, function,
//! value, throughput) and `<id>/new/sample.json` holds its samples, each
//! `iters` calls taking `times` nanoseconds in all, exactly what versus
//! records for an in-process batch. The group is the operation, the
//! function the variant (criterion's way to compare functions in a group),
//! the value a parameter (`names`: `size=64`, or `arg`). `Throughput::Bytes`
//! gives the bytes per call. Only `new/` is read: `base/` and named
//! baselines are earlier runs.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Bad, Bench, Figures, Harness, Imported, names, nanos};
use crate::results::Samples;

#[derive(Deserialize)]
struct Id {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
    throughput: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Sample {
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// Folders deeper than this are not searched (a criterion id has few parts).
const MAX_DEPTH: usize = 12;

pub(super) fn read_dir(dir: &Path) -> Result<Imported, Bad> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    find(dir, 0, &mut seen, &mut found).map_err(|e| Bad::new(format!("cannot read the folder: {e}")))?;
    found.sort();
    if found.is_empty() {
        return Err(Bad::new(
            "no */new/benchmark.json in this folder: is it criterion's output (target/criterion)?",
        ));
    }
    let benches = found.iter().map(|new| bench(dir, new)).collect::<Result<_, _>>()?;
    Ok(Imported {
        harness: Harness::Criterion,
        benches,
        cpu_model: None,
    })
}

/// Every `new` folder holding a `benchmark.json`, below `dir`. A folder
/// reached twice (through a symbolic link to itself or to an ancestor) is
/// searched once: a loop would otherwise be walked to `MAX_DEPTH` along
/// every branch.
fn find(dir: &Path, depth: usize, seen: &mut HashSet<PathBuf>, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if depth > MAX_DEPTH || !seen.insert(fs::canonicalize(dir)?) {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") && path.join("benchmark.json").is_file() {
            found.push(path);
        } else if path.file_name().is_none_or(|n| n != "report") {
            find(&path, depth + 1, seen, found)?;
        }
    }
    Ok(())
}

fn bench(root: &Path, new: &Path) -> Result<Bench, Bad> {
    let shown = |f: &str| new.join(f).strip_prefix(root).unwrap_or(new).display().to_string();
    let read = |f: &str| fs::read_to_string(new.join(f)).map_err(|e| Bad::at(shown(f), format!("cannot read it: {e}")));
    let id: Id =
        serde_json::from_str(&read("benchmark.json")?).map_err(|e| Bad::at(shown("benchmark.json"), e.to_string()))?;
    let sample: Sample =
        serde_json::from_str(&read("sample.json")?).map_err(|e| Bad::at(shown("sample.json"), e.to_string()))?;
    if sample.iters.len() != sample.times.len() {
        return Err(Bad::at(shown("sample.json"), "iters and times differ in length"));
    }
    let mut samples = Samples::default();
    for (i, (iters, ns)) in sample.iters.iter().zip(&sample.times).enumerate() {
        let bad = || {
            Bad::at(
                shown("sample.json"),
                format!("sample {i}: {iters} iterations in {ns} ns"),
            )
        };
        let calls = (iters.is_finite() && *iters >= 1.0)
            .then(|| iters.round() as u64)
            .ok_or_else(bad)?;
        samples.wall_ns.push(nanos(*ns).ok_or_else(bad)?);
        samples.iterations.push(calls);
    }
    let params = names::params(id.value_str.iter().map(String::as_str), '=');
    let bytes = id.throughput.as_ref().and_then(|t| {
        t.get("Bytes")
            .or_else(|| t.get("BytesDecimal"))
            .and_then(serde_json::Value::as_u64)
    });
    Ok(Bench {
        operation: id.group_id,
        variant: id.function_id,
        params,
        figures: Figures::Samples(Box::new(samples)),
        payload_bytes: bytes,
        failed: None,
    })
}
