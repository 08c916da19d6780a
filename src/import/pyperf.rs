//! pyperf's JSON (`-o FILE` of pyperf and pyperformance, format 1.0): a
//! suite of benchmarks, each a list of runs (one process each), each run
//! with values (seconds per loop iteration) and its metadata. Metadata
//! cascades: the file's common metadata, then the benchmark's, then the
//! run's; a benchmark's `name` and `unit`, a run's `loops` and
//! `inner_loops` are read from it. Each value is one sample of
//! loops × inner_loops calls, as pyperf measured it. Warm-up values and
//! calibration runs (no values) are left out: pyperf keeps them out of its
//! own statistics too. Benchmarks of other units than seconds (pyperf also
//! records bytes and counts) are refused.

use serde_json::{Map, Value};

use super::{Bad, Bench, Figures, Harness, Imported, nanos};
use crate::results::Samples;

/// pyperf's format version this reader knows.
const VERSION: &str = "1.0";

pub(super) fn parse(text: &str) -> Result<Imported, Bad> {
    let doc: Value = serde_json::from_str(text).map_err(|e| Bad::json(&e))?;
    match doc.get("version").and_then(Value::as_str) {
        Some(VERSION) => {}
        other => {
            return Err(Bad::at(
                "version",
                format!("{other:?}: this reader knows pyperf's format {VERSION}"),
            ));
        }
    }
    let empty = Map::new();
    let common = doc.get("metadata").and_then(Value::as_object).unwrap_or(&empty);
    let list = doc
        .get("benchmarks")
        .and_then(Value::as_array)
        .ok_or_else(|| Bad::at("benchmarks", "not a list"))?;
    let benches = list
        .iter()
        .enumerate()
        .map(|(i, b)| bench(b, common).map_err(|m| Bad::at(format!("benchmarks[{i}]"), m)))
        .collect::<Result<_, _>>()?;
    Ok(Imported {
        harness: Harness::Pyperf,
        benches,
        cpu_model: common.get("cpu_model_name").and_then(Value::as_str).map(String::from),
    })
}

fn bench(b: &Value, common: &Map<String, Value>) -> Result<Bench, String> {
    let empty = Map::new();
    let own = b.get("metadata").and_then(Value::as_object).unwrap_or(&empty);
    let meta = |key: &str| own.get(key).or_else(|| common.get(key));
    let name = meta("name").and_then(Value::as_str).ok_or("metadata: no name")?;
    let unit = meta("unit").and_then(Value::as_str).unwrap_or("second");
    if unit != "second" {
        return Err(format!(
            "'{name}' is measured in {unit}s; versus imports times (unit \"second\")"
        ));
    }
    let runs = b.get("runs").and_then(Value::as_array).ok_or("runs: not a list")?;
    let mut samples = Samples::default();
    for (r, run) in runs.iter().enumerate() {
        let run_meta = run.get("metadata").and_then(Value::as_object).unwrap_or(&empty);
        let count = |key: &str| -> Result<u64, String> {
            match run_meta.get(key).or_else(|| meta(key)) {
                None => Ok(1),
                Some(v) => v
                    .as_u64()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("runs[{r}].metadata.{key}: {v} is not a count")),
            }
        };
        let calls = count("loops")? * count("inner_loops")?;
        let values = run
            .get("values")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (j, v) in values.iter().enumerate() {
            let total = v
                .as_f64()
                .and_then(|s| nanos(s * calls as f64 * 1e9))
                .ok_or_else(|| format!("runs[{r}].values[{j}]: {v} is not a time in seconds"))?;
            samples.wall_ns.push(total);
            samples.iterations.push(calls);
        }
    }
    Ok(Bench {
        operation: name.to_string(),
        variant: None,
        params: vec![],
        figures: Figures::Samples(Box::new(samples)),
        payload_bytes: None,
        failed: None,
    })
}
