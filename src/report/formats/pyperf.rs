//! pyperf's JSON (a benchmark suite file, format version 1.0), so that
//! `python -m pyperf stats`, `show`, `hist` and `compare_to` read a versus
//! run (`versus report --pyperf`, `versus import --pyperf`).
//!
//! One pyperf benchmark per ok cell, named by the cell's id; one pyperf run
//! per measured sample, as pyperf runs one process per run: its `loops` is
//! the sample's number of calls (1 for a process run) and its one value the
//! time per call in seconds, as pyperf's values are. Warm-up samples are
//! left out (pyperf keeps its own warm-ups apart, with their loop counts, and
//! reads only values). The file's common metadata says where it was
//! measured, in pyperf's own keys. Cells that did not end ok have no place
//! in pyperf's format and are left out.

use serde_json::{Map, Value, json};

use crate::results::{Cell, Results};

/// pyperf's file format version, which its reader checks.
const FORMAT_VERSION: &str = "1.0";

/// The file's text.
pub fn render(results: &Results) -> serde_json::Result<String> {
    let benchmarks: Vec<Value> = results
        .cells
        .iter()
        .filter(|c| c.stats.is_some() && !c.samples.is_empty())
        .map(benchmark)
        .collect();
    let doc = json!({
        "version": FORMAT_VERSION,
        "metadata": common_metadata(results),
        "benchmarks": benchmarks,
    });
    Ok(serde_json::to_string(&doc)? + "\n")
}

/// The benchmark name of a cell: its id, without the trailing `/` of a cell with no parameters.
pub fn name(cell: &Cell) -> String {
    cell.id.trim_end_matches('/').to_string()
}

fn benchmark(cell: &Cell) -> Value {
    let per_call_s = cell.samples.per_call_ns().into_iter().map(|ns| ns / 1e9);
    let loops = |i: usize| cell.samples.iterations.get(i).copied().unwrap_or(1);
    let runs: Vec<Value> = per_call_s
        .enumerate()
        .map(|(i, v)| json!({"metadata": {"loops": loops(i)}, "values": [v]}))
        .collect();
    json!({
        "metadata": {"name": name(cell), "unit": "second"},
        "runs": runs,
    })
}

fn common_metadata(results: &Results) -> Value {
    let env = &results.environment;
    let mut m = Map::new();
    if !env.cpu_model.is_empty() {
        m.insert("cpu_model_name".into(), env.cpu_model.clone().into());
    }
    if env.cores > 0 {
        m.insert("cpu_count".into(), env.cores.into());
    }
    if let Some(machine) = &env.machine {
        m.insert("hostname".into(), machine.hostname.clone().into());
    }
    if !env.os.is_empty() {
        m.insert("platform".into(), env.os.clone().into());
    }
    m.insert("description".into(), format!("versus: {}", results.suite.name).into());
    Value::Object(m)
}
