//! hyperfine's `--export-json`: `{"results": [...]}`, one entry per command
//! and parameter value, with `times` (seconds, one per run),
//! `memory_usage_byte` (hyperfine 1.20) and `exit_codes`. Each run is one
//! sample, as in a `versus exec` cell. The operation is `exec`, as
//! `versus exec` names its own, so a hyperfine file and a versus run of the
//! same commands share cell ids; the command is the variant. hyperfine
//! writes a parametrised command with its values filled in, each parameter
//! value with every command in turn; the n-th command of each value is one
//! variant, named by its text where that is the same at every value, else
//! by the text with the values put back as `{name}` where that gives every
//! value's text back, else `command n`. A file without `times` (hyperfine
//! before 1.6) gives its summary.

use serde::Deserialize;

use super::{Bad, Bench, Figures, Harness, Imported, Summary, nanos};
use crate::results::Samples;

#[derive(Deserialize)]
struct File {
    results: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    command: String,
    mean: f64,
    stddev: Option<f64>,
    median: Option<f64>,
    min: f64,
    max: f64,
    times: Option<Vec<f64>>,
    memory_usage_byte: Option<Vec<u64>>,
    exit_codes: Option<Vec<Option<i32>>>,
    #[serde(default)]
    parameters: std::collections::BTreeMap<String, serde_json::Value>,
}

pub(super) fn parse(text: &str) -> Result<Imported, Bad> {
    let file: File = serde_json::from_str(text).map_err(|e| Bad::json(&e))?;
    let names = variants(&file.results);
    let benches = file
        .results
        .into_iter()
        .zip(names)
        .enumerate()
        .map(|(i, (e, name))| bench(e, name).map_err(|m| Bad::at(format!("results[{i}]"), m)))
        .collect::<Result<_, _>>()?;
    Ok(Imported {
        harness: Harness::Hyperfine,
        benches,
        cpu_model: None,
    })
}

fn bench(e: Entry, variant: String) -> Result<Bench, String> {
    let params = params(&e);
    let secs = |field: &str, s: f64| nanos(s * 1e9).ok_or_else(|| format!("{field}: {s} is not a time in seconds"));
    let figures = match &e.times {
        Some(times) => {
            let mut samples = Samples::default();
            for (i, t) in times.iter().enumerate() {
                samples.wall_ns.push(secs(&format!("times[{i}]"), *t)?);
            }
            if let Some(mem) = e.memory_usage_byte.as_ref().filter(|m| m.len() == times.len()) {
                samples.max_rss_bytes = mem.clone().into();
            }
            let codes: Vec<i32> = e.exit_codes.iter().flatten().map(|c| c.unwrap_or(-1)).collect();
            if codes.len() == times.len() && codes.iter().any(|c| *c != 0) {
                samples.exit_codes = codes;
            }
            Figures::Samples(Box::new(samples))
        }
        None => Figures::Summary(Summary {
            n: e.exit_codes.as_ref().map_or(0, Vec::len),
            mean_ns: secs("mean", e.mean)? as f64,
            median_ns: secs("median", e.median.ok_or("neither times nor a median")?)? as f64,
            stddev_ns: e.stddev.map(|s| s * 1e9),
            min_ns: secs("min", e.min)? as f64,
            max_ns: secs("max", e.max)? as f64,
        }),
    };
    Ok(Bench {
        operation: "exec".into(),
        variant: Some(variant),
        params,
        figures,
        payload_bytes: None,
        failed: None,
    })
}

fn params(e: &Entry) -> Vec<(String, String)> {
    e.parameters
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), String::from)))
        .collect()
}

/// Each entry's variant name (see the module's header).
fn variants(entries: &[Entry]) -> Vec<String> {
    let params: Vec<Vec<(String, String)>> = entries.iter().map(params).collect();
    let mut points: Vec<&Vec<(String, String)>> = Vec::new();
    for p in &params {
        if !points.contains(&p) {
            points.push(p);
        }
    }
    let commands = entries.len() / points.len().max(1);
    let in_turn = commands > 0
        && entries.len().is_multiple_of(points.len())
        && params.iter().enumerate().all(|(i, p)| p == points[i / commands]);
    if !in_turn {
        return entries.iter().map(|e| e.command.clone()).collect();
    }
    let names: Vec<String> = (0..commands)
        .map(|c| {
            let mine: Vec<usize> = (c..entries.len()).step_by(commands).collect();
            let text = |i: usize| entries[i].command.as_str();
            if mine.iter().all(|&i| text(i) == text(c)) {
                return text(c).to_string();
            }
            let t = template(text(c), &params[c]);
            let fits = mine.iter().all(|&i| fill(&t, &params[i]) == text(i));
            if fits { t } else { format!("command {}", c + 1) }
        })
        .collect();
    (0..entries.len()).map(|i| names[i % commands].clone()).collect()
}

/// `template` with each `{name}` replaced by its value.
fn fill(template: &str, params: &[(String, String)]) -> String {
    params
        .iter()
        .fold(template.to_string(), |t, (k, v)| t.replace(&format!("{{{k}}}"), v))
}

/// The command with each parameter's value put back as `{name}` (longest values first).
fn template(command: &str, params: &[(String, String)]) -> String {
    let mut by_length: Vec<&(String, String)> = params.iter().filter(|(_, v)| !v.is_empty()).collect();
    by_length.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    by_length.into_iter().fold(command.to_string(), |c, (k, v)| {
        c.replace(v.as_str(), &format!("{{{k}}}"))
    })
}
