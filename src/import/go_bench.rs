//! `go test -bench` text (also what benchstat reads): configuration lines
//! (`cpu: …`) and one line per benchmark run, `BenchmarkName-8  N  x ns/op
//! [y MB/s] [z B/op] [w allocs/op] …`. With `-count N` a benchmark has N
//! lines: each is one sample of N calls whose total time is ns/op × N.
//! `MB/s` gives the bytes per call (Go's `SetBytes`); `B/op` the bytes
//! allocated. The `-8` suffix (GOMAXPROCS) is dropped; the rest of the name
//! is split by `names`. Other lines (PASS, ok, logs) are ignored, as
//! benchstat does; a benchmark line that does not parse is an error with
//! its line number.

use indexmap::IndexMap;

use super::{Bad, Bench, Figures, Harness, Imported, names, nanos};

/// One benchmark line's figures.
struct Line {
    iterations: u64,
    ns_per_op: f64,
    mb_per_s: Option<f64>,
    bytes_per_op: Option<f64>,
}

pub(super) fn parse(text: &str) -> Result<Imported, Bad> {
    let mut cpu_model = None;
    let mut benches: IndexMap<String, Bench> = IndexMap::new();
    for (i, raw) in text.lines().enumerate() {
        let place = || format!("line {}", i + 1);
        if let Some(cpu) = raw.strip_prefix("cpu:") {
            cpu_model = Some(cpu.trim().to_string());
            continue;
        }
        let Some(rest) = raw.strip_prefix("Benchmark") else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // `go test -v` prints a benchmark's bare name when it starts.
        if fields.len() < 2 {
            continue;
        }
        let line = line(&fields[1..]).map_err(|m| Bad::at(place(), m))?;
        let name = without_procs(fields[0]);
        let bench = benches.entry(name.to_string()).or_insert_with(|| new_bench(name));
        add(bench, &line).map_err(|m| Bad::at(place(), m))?;
    }
    Ok(Imported {
        harness: Harness::GoBench,
        benches: benches.into_values().collect(),
        cpu_model,
    })
}

fn new_bench(name: &str) -> Bench {
    let (operation, params) = names::split(name, '=');
    Bench {
        operation,
        variant: None,
        params,
        figures: Figures::Samples(Box::default()),
        payload_bytes: None,
        failed: None,
    }
}

/// The iteration count and value/unit pairs after the name.
fn line(fields: &[&str]) -> Result<Line, String> {
    let iterations: u64 = fields[0]
        .parse()
        .map_err(|_| format!("'{}' is not an iteration count", fields[0]))?;
    if iterations == 0 {
        return Err("an iteration count of 0".into());
    }
    let mut out = Line {
        iterations,
        ns_per_op: f64::NAN,
        mb_per_s: None,
        bytes_per_op: None,
    };
    let pairs = &fields[1..];
    if !pairs.len().is_multiple_of(2) {
        return Err(format!("'{}' has no unit", pairs[pairs.len() - 1]));
    }
    for pair in pairs.chunks(2) {
        let value: f64 = pair[0]
            .parse()
            .map_err(|_| format!("'{}' is not a number (before {})", pair[0], pair[1]))?;
        // No benchmark takes negative time, allocates negative bytes or runs at infinite speed.
        if !value.is_finite() || value < 0.0 {
            return Err(format!(
                "'{} {}' is not a figure a benchmark can have",
                pair[0], pair[1]
            ));
        }
        match pair[1] {
            "ns/op" => out.ns_per_op = value,
            "MB/s" => out.mb_per_s = Some(value),
            "B/op" => out.bytes_per_op = Some(value),
            _ => {} // allocs/op and custom metrics: versus keeps no column for them
        }
    }
    if out.ns_per_op.is_nan() {
        return Err("no ns/op figure".into());
    }
    Ok(out)
}

/// The largest payload a call is taken to read (1 PB): beyond it a figure is nonsense, not a benchmark.
const MAX_PAYLOAD_BYTES: f64 = 1e15;

fn add(bench: &mut Bench, line: &Line) -> Result<(), String> {
    let Figures::Samples(samples) = &mut bench.figures else {
        return Ok(());
    };
    let total = nanos(line.ns_per_op * line.iterations as f64)
        .ok_or_else(|| format!("{} ns/op is not a time", line.ns_per_op))?;
    samples.wall_ns.push(total);
    samples.iterations.push(line.iterations);
    if let Some(b) = line.bytes_per_op {
        samples.alloc_bytes.push((b * line.iterations as f64).round() as u64);
    }
    if let Some(mb) = line.mb_per_s {
        // SetBytes(n) makes MB/s = n / (ns/op) × 1000, so n comes back whole.
        let bytes = (mb * line.ns_per_op / 1000.0).round();
        if bytes > MAX_PAYLOAD_BYTES {
            return Err(format!(
                "{mb} MB/s at {} ns/op is {bytes:.3e} bytes a call: no payload is that large",
                line.ns_per_op
            ));
        }
        bench.payload_bytes = Some(bytes as u64);
    }
    Ok(())
}

/// The name without Go's `-GOMAXPROCS` suffix.
fn without_procs(name: &str) -> &str {
    match name.rsplit_once('-') {
        Some((base, procs)) if !procs.is_empty() && procs.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => name,
    }
}
