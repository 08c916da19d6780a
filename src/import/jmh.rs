//! JMH's `-rf json`: a list of benchmarks, each a method at one set of
//! `params`, with its `mode` and `primaryMetric`. `rawData` holds each
//! measured iteration's score, fork by fork: one sample each. The score is
//! a time per operation (`avgt`, `ss`: "ns/op", "us/op", …) or operations
//! per time (`thrpt`: "ops/s", …), turned into time per call. JMH does not
//! say how many operations an iteration ran; a sample is written as the
//! iteration's measurement time (`measurementTime`) of calls at that time
//! per call, so the time per call is the score's. `sample` mode keeps a
//! histogram instead: the cell holds JMH's summary (score as the mean, its
//! 0th, 50th and 100th percentiles). The operation is `Class.method`
//! (without the package); secondary metrics (GC profiler, …) are not read.

use serde::Deserialize;
use serde_json::Value;

use super::{Bad, Bench, Figures, Harness, Imported, Summary, nanos};
use crate::results::Samples;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    benchmark: String,
    mode: String,
    #[serde(default)]
    params: serde_json::Map<String, Value>,
    measurement_time: Option<String>,
    measurement_batch_size: Option<u64>,
    primary_metric: Metric,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metric {
    score: f64,
    score_unit: String,
    #[serde(default)]
    score_percentiles: serde_json::Map<String, Value>,
    raw_data: Option<Vec<Vec<f64>>>,
    raw_data_histogram: Option<Value>,
}

pub(super) fn parse(text: &str) -> Result<Imported, Bad> {
    let list: Vec<Entry> = serde_json::from_str(text).map_err(|e| Bad::json(&e))?;
    let benches = list
        .into_iter()
        .enumerate()
        .map(|(i, e)| bench(&e).map_err(|m| Bad::at(format!("[{i}] ({})", e.benchmark), m)))
        .collect::<Result<_, _>>()?;
    Ok(Imported {
        harness: Harness::Jmh,
        benches,
        cpu_model: None,
    })
}

fn bench(e: &Entry) -> Result<Bench, String> {
    let m = &e.primary_metric;
    let per_call_ns = per_call(&m.score_unit)?;
    let figures = match (&m.raw_data, &m.raw_data_histogram) {
        (Some(forks), _) => Figures::Samples(Box::new(samples(e, forks, &per_call_ns)?)),
        (None, Some(_)) => Figures::Summary(summary(m, &per_call_ns)?),
        (None, None) => return Err("primaryMetric has neither rawData nor rawDataHistogram".into()),
    };
    let method = e.benchmark.rsplit('.').take(2).collect::<Vec<_>>();
    let operation = method.into_iter().rev().collect::<Vec<_>>().join(".");
    let mut params: Vec<(String, String)> = e
        .params
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), String::from)))
        .collect();
    if e.mode != "avgt" && e.mode != "sample" {
        params.push(("mode".into(), e.mode.clone()));
    }
    Ok(Bench {
        operation,
        variant: None,
        params,
        figures,
        payload_bytes: None,
        failed: None,
    })
}

/// How a score in `unit` becomes nanoseconds per call.
fn per_call(unit: &str) -> Result<impl Fn(f64) -> Option<f64>, String> {
    let seconds = |u: &str| match u {
        "ns" => Some(1e-9),
        "us" | "µs" => Some(1e-6),
        "ms" => Some(1e-3),
        "s" => Some(1.0),
        "min" => Some(60.0),
        "hr" => Some(3600.0),
        _ => None,
    };
    let bad = || format!("scoreUnit '{unit}' is neither a time per operation nor operations per time");
    let (time_per_op, s) = match unit.split_once('/') {
        Some((t, "op")) => (true, seconds(t).ok_or_else(bad)?),
        Some(("ops", t)) => (false, seconds(t).ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    Ok(move |score: f64| {
        let ns = if time_per_op { score * s * 1e9 } else { s * 1e9 / score };
        (ns.is_finite() && ns > 0.0).then_some(ns)
    })
}

fn samples(e: &Entry, forks: &[Vec<f64>], per_call_ns: &impl Fn(f64) -> Option<f64>) -> Result<Samples, String> {
    let iteration_ns = e.measurement_time.as_deref().and_then(duration_ns);
    let mut samples = Samples::default();
    for (f, fork) in forks.iter().enumerate() {
        for (i, score) in fork.iter().enumerate() {
            let ns = per_call_ns(*score).ok_or_else(|| format!("rawData[{f}][{i}]: {score} is not a score"))?;
            let calls = match (e.mode.as_str(), iteration_ns) {
                ("ss", _) => e.measurement_batch_size.unwrap_or(1).max(1),
                (_, Some(it)) => (it / ns).round().max(1.0) as u64,
                (_, None) => 1,
            };
            let total = nanos(ns * calls as f64).ok_or_else(|| format!("rawData[{f}][{i}]: {score} is not a score"))?;
            samples.wall_ns.push(total);
            samples.iterations.push(calls);
        }
    }
    Ok(samples)
}

fn summary(m: &Metric, per_call_ns: &impl Fn(f64) -> Option<f64>) -> Result<Summary, String> {
    let pct = |p: &str| {
        m.score_percentiles
            .get(p)
            .and_then(Value::as_f64)
            .and_then(per_call_ns)
            .ok_or_else(|| format!("scorePercentiles has no {p}"))
    };
    let n = m
        .raw_data_histogram
        .as_ref()
        .and_then(Value::as_array)
        .map_or(0, |forks| count(forks));
    Ok(Summary {
        n,
        mean_ns: per_call_ns(m.score).ok_or("score is not a score")?,
        median_ns: pct("50.0")?,
        stddev_ns: None,
        min_ns: pct("0.0")?,
        max_ns: pct("100.0")?,
    })
}

/// Samples in a histogram: fork → iteration → [value, count] pairs.
fn count(forks: &[Value]) -> usize {
    let pairs = forks
        .iter()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_array)
        .flatten();
    pairs
        .filter_map(|pair| pair.get(1).and_then(Value::as_u64))
        .sum::<u64>() as usize
}

/// "100 ms" → nanoseconds.
fn duration_ns(text: &str) -> Option<f64> {
    let (n, unit) = text.trim().split_once(' ')?;
    let n: f64 = n.parse().ok()?;
    let scale = match unit {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "min" => 60e9,
        _ => return None,
    };
    Some(n * scale)
}
