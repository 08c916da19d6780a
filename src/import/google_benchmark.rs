//! Google Benchmark's `--benchmark_out_format=json`: `context` (the
//! machine) and `benchmarks[]`. Each entry of `run_type` "iteration" is one
//! run of `iterations` calls taking `real_time` per call (in `time_unit`):
//! one sample; with `--benchmark_repetitions=N` a benchmark has N of them.
//! Its aggregates (mean, median, stddev, cv) are then left out, versus
//! computes its own; a file of aggregates only
//! (`--benchmark_report_aggregates_only`) lacks the minimum and maximum a
//! cell's summary needs, and is refused with the flag to drop. A run that
//! reported an error (`error_occurred`) makes a failed cell with its
//! message. Names are split by `names` (`BM_Sum/64/threads:2`).

use indexmap::IndexMap;
use serde::Deserialize;

use super::{Bad, Bench, Figures, Harness, Imported, names, nanos};

#[derive(Deserialize)]
struct File {
    benchmarks: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    name: String,
    run_name: Option<String>,
    run_type: Option<String>,
    iterations: Option<u64>,
    real_time: Option<f64>,
    time_unit: Option<String>,
    #[serde(default)]
    error_occurred: bool,
    error_message: Option<String>,
}

pub(super) fn parse(text: &str) -> Result<Imported, Bad> {
    let file: File = serde_json::from_str(text).map_err(|e| Bad::json(&e))?;
    let mut benches: IndexMap<String, Bench> = IndexMap::new();
    let mut aggregates_only = Vec::new();
    for (i, e) in file.benchmarks.iter().enumerate() {
        let run_name = e.run_name.clone().unwrap_or_else(|| e.name.clone());
        if e.run_type.as_deref() == Some("aggregate") {
            aggregates_only.push(run_name);
            continue;
        }
        let bench = benches.entry(run_name.clone()).or_insert_with(|| new_bench(&run_name));
        add(bench, e).map_err(|m| Bad::at(format!("benchmarks[{i}] ({})", e.name), m))?;
    }
    if let Some(name) = aggregates_only.iter().find(|n| !benches.contains_key(*n)) {
        return Err(Bad::new(format!(
            "{name} has only aggregates (mean, median, stddev): run without --benchmark_report_aggregates_only so each repetition is kept"
        )));
    }
    Ok(Imported {
        harness: Harness::GoogleBenchmark,
        benches: benches.into_values().collect(),
        cpu_model: None,
    })
}

fn new_bench(run_name: &str) -> Bench {
    let (operation, params) = names::split(run_name, ':');
    Bench {
        operation,
        variant: None,
        params,
        figures: Figures::Samples(Box::default()),
        payload_bytes: None,
        failed: None,
    }
}

fn add(bench: &mut Bench, e: &Entry) -> Result<(), String> {
    if e.error_occurred {
        bench.failed = Some(
            e.error_message
                .clone()
                .unwrap_or_else(|| "the benchmark reported an error".into()),
        );
        return Ok(());
    }
    let Figures::Samples(samples) = &mut bench.figures else {
        return Ok(());
    };
    let iterations = e.iterations.filter(|n| *n > 0).ok_or("no iteration count")?;
    let real = e.real_time.ok_or("no real_time")?;
    let unit_ns = match e.time_unit.as_deref().unwrap_or("ns") {
        "ns" => 1.0,
        "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        other => return Err(format!("time_unit '{other}' is none of ns, us, ms, s")),
    };
    let total = nanos(real * unit_ns * iterations as f64).ok_or_else(|| format!("real_time {real} is not a time"))?;
    samples.wall_ns.push(total);
    samples.iterations.push(iterations);
    Ok(())
}
