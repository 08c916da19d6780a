//! Machine-readable exports for other tools: CSV in long format (one row per
//! cell, for spreadsheets and data frames) and Bencher Metric Format JSON (for
//! Bencher's continuous benchmarking), both from the same analysed results.

use serde_json::{Map, Value, json};

use crate::base::sink::csv_field;
use crate::results::Results;

/// One row per cell. Parameters become `param_<name>` columns; statistics are
/// empty for cells that are not ok; comparison columns are empty without a baseline.
/// CPU times are `wait4`'s medians (empty in-process); 0 is a share no clock
/// tick caught, which the other reports show as "< 1 tick".
pub fn csv(results: &Results) -> Result<String, csv::Error> {
    let params: Vec<&String> = results.matrix.keys().collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = vec!["id".into(), "operation".into(), "implementation".into()];
    header.extend(params.iter().map(|p| format!("param_{p}")));
    header.extend(
        [
            "outcome",
            "message",
            "n",
            "median_ns",
            "ci_low_ns",
            "ci_high_ns",
            "mean_ns",
            "stddev_ns",
            "min_ns",
            "max_ns",
            "median_user_ns",
            "median_sys_ns",
            "payload_bytes",
            "throughput_bytes_per_s",
            "max_rss_bytes",
            "max_rss_at_most",
            "alloc_bytes_per_call",
            "baseline",
            "ratio",
            "ratio_ci_low",
            "ratio_ci_high",
            "verdict",
            "minimum_detectable",
        ]
        .map(String::from),
    );
    w.write_record(&header)?;
    let num = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for c in &results.cells {
        let s = c.stats.as_ref();
        let cmp = results.comparison_of(c);
        let mut row: Vec<String> = [&c.id, &c.operation, &c.implementation].map(|s| csv_field(s)).to_vec();
        row.extend(
            params
                .iter()
                .map(|p| c.params.get(*p).map_or_else(String::new, |v| csv_field(&v.to_string()))),
        );
        row.extend([
            serde_json::to_value(c.outcome)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            csv_field(c.message.as_deref().unwrap_or_default()),
            s.map_or_else(String::new, |s| s.n.to_string()),
            num(s.map(|s| s.median_ns)),
            num(s.and_then(|s| s.ci_low_ns)),
            num(s.and_then(|s| s.ci_high_ns)),
            num(s.map(|s| s.mean_ns)),
            num(s.and_then(|s| s.stddev_ns)),
            num(s.map(|s| s.min_ns)),
            num(s.map(|s| s.max_ns)),
            num(s.and_then(|s| s.median_user_ns)),
            num(s.and_then(|s| s.median_sys_ns)),
            c.payload_bytes.map_or_else(String::new, |b| b.to_string()),
            num(s.and_then(|s| s.throughput_bytes_per_s)),
            s.and_then(|s| s.max_rss_bytes)
                .map_or_else(String::new, |b| b.to_string()),
            s.filter(|s| s.max_rss_bytes.is_some())
                .map_or_else(String::new, |s| s.max_rss_at_most.to_string()),
            num(s.and_then(|s| s.alloc_bytes_per_call)),
            cmp.map_or_else(String::new, |k| csv_field(&k.baseline)),
            num(cmp.map(|k| k.ratio)),
            num(cmp.and_then(|k| k.ci_low)),
            num(cmp.and_then(|k| k.ci_high)),
            cmp.and_then(|k| serde_json::to_value(k.verdict).ok())
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            num(cmp.and_then(|k| k.minimum_detectable)),
        ]);
        w.write_record(&row)?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Bencher Metric Format: benchmark name (the cell id) → measures. `latency`
/// is nanoseconds per call (median, with its interval); `bytes-per-second` is
/// the payload's throughput where a payload counts (a measure of its own:
/// Bencher's built-in `throughput` is operations per second, so bytes/s
/// filed there would be labelled wrongly). Cells that are not ok are left out:
/// BMF has no place for an outcome.
/// The BMF measure name of payload bytes per second.
pub const BMF_BYTES_PER_SECOND: &str = "bytes-per-second";

pub fn bmf(results: &Results) -> Value {
    let mut out = Map::new();
    for c in &results.cells {
        let Some(s) = &c.stats else { continue };
        let mut measures = Map::new();
        measures.insert(
            "latency".into(),
            json!({
                "value": s.median_ns,
                "lower_value": s.ci_low_ns.unwrap_or(s.median_ns),
                "upper_value": s.ci_high_ns.unwrap_or(s.median_ns),
            }),
        );
        if let (Some(t), Some(b)) = (s.throughput_bytes_per_s, c.payload_bytes) {
            let per = |ns: Option<f64>| ns.filter(|n| *n > 0.0).map_or(t, |n| b as f64 / (n / 1e9));
            measures.insert(
                BMF_BYTES_PER_SECOND.into(),
                json!({"value": t, "lower_value": per(s.ci_high_ns), "upper_value": per(s.ci_low_ns)}),
            );
        }
        out.insert(c.id.clone(), Value::Object(measures));
    }
    Value::Object(out)
}
