//! Which harness wrote a file, from its content rather than its name: each
//! format has keys (or, for Go's text, lines) that the others lack. A file
//! that matches none is refused with what each format was expected to hold.

use serde_json::Value;

use super::{Bad, Harness};

/// The harness whose format `text` is in.
pub(super) fn harness(text: &str) -> Result<Harness, Bad> {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => json_harness(&v).ok_or_else(|| Bad::new(UNKNOWN_JSON)),
        Err(e) if looks_like_json(text) => Err(Bad::json(&e)),
        Err(_) if text.lines().any(|l| l.starts_with("Benchmark")) => Ok(Harness::GoBench),
        Err(_) => Err(Bad::new(
            "not a results file versus reads: neither JSON nor `go test -bench` text (no line starts with \"Benchmark\")",
        )),
    }
}

const UNKNOWN_JSON: &str = "JSON of no harness versus reads: expected hyperfine's {\"results\": [...]}, \
pyperf's {\"version\", \"benchmarks\"}, pytest-benchmark's {\"machine_info\", \"benchmarks\"}, \
Google Benchmark's {\"context\", \"benchmarks\"} or JMH's [{\"benchmark\", \"primaryMetric\"}, ...]";

fn json_harness(v: &Value) -> Option<Harness> {
    let has = |k: &str| v.get(k).is_some();
    match v {
        Value::Array(items) => items
            .first()
            .filter(|b| b.get("benchmark").is_some() && b.get("primaryMetric").is_some())
            .map(|_| Harness::Jmh),
        Value::Object(_) if has("results") => Some(Harness::Hyperfine),
        Value::Object(_) if has("machine_info") && has("benchmarks") => Some(Harness::PytestBenchmark),
        Value::Object(_) if has("context") && has("benchmarks") => Some(Harness::GoogleBenchmark),
        Value::Object(_) if has("version") && has("benchmarks") => Some(Harness::Pyperf),
        _ => None,
    }
}

/// Whether a file that failed to parse was meant to be JSON.
fn looks_like_json(text: &str) -> bool {
    text.trim_start().starts_with(['{', '['])
}
