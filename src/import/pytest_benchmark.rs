//! pytest-benchmark's `--benchmark-json`: `benchmarks[]`, each a test with
//! its parameters (`params`) and `stats`. `stats.data` (written by default
//! since pytest-benchmark 3.1, absent with `--benchmark-save-data` off in
//! older ones) holds each round's time per iteration in seconds, and
//! `stats.iterations` the iterations per round: each round is one sample.
//! Without `data`, the cell holds pytest-benchmark's summary (rounds, mean,
//! median, stddev, min, max). The operation is the test's name without its
//! `[param]` suffix; pytest-benchmark's `group` becomes a parameter when set.

use serde::Deserialize;
use serde_json::Value;

use super::{Bad, Bench, Figures, Harness, Imported, Summary, nanos};
use crate::results::Samples;

#[derive(Deserialize)]
struct File {
    benchmarks: Vec<Entry>,
    #[serde(default)]
    machine_info: Value,
}

#[derive(Deserialize)]
struct Entry {
    name: String,
    group: Option<String>,
    params: Option<serde_json::Map<String, Value>>,
    param: Option<String>,
    stats: Stats,
}

#[derive(Deserialize)]
struct Stats {
    min: f64,
    max: f64,
    mean: f64,
    stddev: Option<f64>,
    median: f64,
    rounds: usize,
    iterations: Option<u64>,
    data: Option<Vec<f64>>,
}

pub(super) fn parse(text: &str) -> Result<Imported, Bad> {
    let file: File = serde_json::from_str(text).map_err(|e| Bad::json(&e))?;
    let benches = file
        .benchmarks
        .into_iter()
        .enumerate()
        .map(|(i, e)| bench(e).map_err(|m| Bad::at(format!("benchmarks[{i}]"), m)))
        .collect::<Result<_, _>>()?;
    let cpu = file.machine_info.pointer("/cpu/brand_raw").and_then(Value::as_str);
    Ok(Imported {
        harness: Harness::PytestBenchmark,
        benches,
        cpu_model: cpu.map(String::from),
    })
}

fn bench(e: Entry) -> Result<Bench, String> {
    let operation = e.name.split_once('[').map_or(e.name.as_str(), |(op, _)| op).to_string();
    let mut params: Vec<(String, String)> = match (&e.params, &e.param) {
        (Some(map), _) => map.iter().map(|(k, v)| (k.clone(), text(v))).collect(),
        (None, Some(p)) => vec![("arg".into(), p.clone())],
        (None, None) => vec![],
    };
    if let Some(g) = &e.group {
        params.insert(0, ("group".into(), g.clone()));
    }
    let s = &e.stats;
    let ns = |field: &str, secs: f64| nanos(secs * 1e9).ok_or_else(|| format!("stats.{field}: {secs} is not a time"));
    // A summary keeps its fractions of a nanosecond.
    let exact = |field: &str, secs: f64| ns(field, secs).map(|_| secs * 1e9);
    let figures = match &s.data {
        Some(data) => {
            let calls = s.iterations.unwrap_or(1).max(1);
            let mut samples = Samples::default();
            for (i, per_call) in data.iter().enumerate() {
                samples
                    .wall_ns
                    .push(ns(&format!("data[{i}]"), per_call * calls as f64)?);
                samples.iterations.push(calls);
            }
            Figures::Samples(Box::new(samples))
        }
        None => Figures::Summary(Summary {
            n: s.rounds,
            mean_ns: exact("mean", s.mean)?,
            median_ns: exact("median", s.median)?,
            stddev_ns: s.stddev.map(|x| x * 1e9),
            min_ns: exact("min", s.min)?,
            max_ns: exact("max", s.max)?,
        }),
    };
    Ok(Bench {
        operation,
        variant: None,
        params,
        figures,
        payload_bytes: None,
        failed: None,
    })
}

/// A parameter's value as text: strings as they are, anything else as JSON.
fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}
