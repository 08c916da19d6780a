//! `versus conformance`: runs the scenario files of `conformance/` against a
//! worker command, each scenario in a fresh worker process. The scenarios
//! are data (see conformance/README.md); this is only their interpreter.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::base::units::Bytes;
use crate::payload;
use crate::worker::client::WorkerProcess;

include!(concat!(env!("OUT_DIR"), "/scenarios.rs"));

const STEP_TIMEOUT: Duration = Duration::from_secs(10);
const PAYLOAD_BYTES: u64 = 1000;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScenarioResult {
    pub name: String,
    pub description: String,
    /// `None` when the scenario passed; else which step failed and why.
    pub failure: Option<String>,
}

struct Vars {
    payload: String,
    sha256: String,
    length: u64,
}

/// Replaces the `{payload…}` strings anywhere inside a JSON value.
fn substitute(v: &Value, vars: &Vars) -> Value {
    match v {
        Value::String(s) if s == "{payload_length}" => Value::from(vars.length),
        Value::String(s) => Value::String(
            s.replace("{payload_sha256}", &vars.sha256)
                .replace("{payload}", &vars.payload),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, vars)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), substitute(x, vars))).collect()),
        other => other.clone(),
    }
}

fn check_expect(want: &Map<String, Value>, got: &crate::worker::protocol::Message) -> Result<(), String> {
    if let Some(t) = want.get("type").and_then(Value::as_str)
        && got.kind != t
    {
        let detail = match (got.str("class"), got.str("message")) {
            (Some(c), Some(m)) => format!(" ({c}: {m})"),
            _ => String::new(),
        };
        return Err(format!("expected a '{t}' message, got '{}'{detail}", got.kind));
    }
    if let Some(id) = want.get("id").and_then(Value::as_u64)
        && got.id != Some(id)
    {
        return Err(format!("expected id {id}, got {:?}", got.id));
    }
    if let Some(data) = want.get("data").and_then(Value::as_object) {
        for (k, v) in data {
            if got.data.get(k) != Some(v) {
                return Err(format!(
                    "data.{k}: expected {v}, got {}",
                    got.data.get(k).unwrap_or(&Value::Null)
                ));
            }
        }
    }
    for k in want
        .get("has")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !got.data.contains_key(k) {
            return Err(format!("data.{k} is missing"));
        }
    }
    for (k, items) in want.get("contains").and_then(Value::as_object).into_iter().flatten() {
        let have = got.data.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
        for item in items.as_array().into_iter().flatten() {
            if !have.contains(item) {
                return Err(format!("data.{k} does not include {item}"));
            }
        }
    }
    for (k, min) in want.get("at_least").and_then(Value::as_object).into_iter().flatten() {
        let (Some(have), Some(min)) = (got.data.get(k).and_then(Value::as_f64), min.as_f64()) else {
            return Err(format!("data.{k} is not a number"));
        };
        if have < min {
            return Err(format!("data.{k} = {have}, expected at least {min}"));
        }
    }
    Ok(())
}

fn run_steps(worker: &mut WorkerProcess, steps: &[Value], vars: &Vars) -> Result<(), String> {
    let mut next_id = 1u64;
    for (i, step) in steps.iter().enumerate() {
        let at = |msg: String| format!("step {}: {msg}", i + 1);
        let step = substitute(step, vars);
        let obj = step.as_object().ok_or_else(|| at("not an object".into()))?;
        if let Some(msg) = obj.get("send") {
            let mut msg = msg
                .as_object()
                .cloned()
                .ok_or_else(|| at("send: not an object".into()))?;
            msg.entry("id").or_insert_with(|| Value::from(next_id));
            next_id += 1;
            worker
                .send_raw(&Value::Object(msg).to_string())
                .map_err(|e| at(e.to_string()))?;
        } else if let Some(raw) = obj.get("send_raw").and_then(Value::as_str) {
            worker.send_raw(raw).map_err(|e| at(e.to_string()))?;
        } else if let Some(want) = obj.get("expect").and_then(Value::as_object) {
            let got = worker.recv(STEP_TIMEOUT).map_err(|e| at(e.to_string()))?;
            check_expect(want, &got).map_err(at)?;
        } else if obj.contains_key("close") {
            worker.close_requests();
        } else if let Some(code) = obj.get("expect_exit") {
            let status = worker
                .wait_exit(STEP_TIMEOUT)
                .ok_or_else(|| at("the worker did not exit".into()))?;
            if let Some(want) = code.as_i64()
                && status.code() != Some(want as i32)
            {
                return Err(at(format!("expected exit status {want}, got {status}")));
            }
        } else {
            return Err(at(format!("unknown step {step}")));
        }
    }
    Ok(())
}

/// Runs the given scenarios (name, JSON text) against `argv`; `scratch` holds
/// the payload and the worker logs.
pub(crate) fn run(
    argv: &[String],
    scenarios: &[(String, String)],
    scratch: &Path,
) -> std::io::Result<Vec<ScenarioResult>> {
    let payload_path = scratch.join("payload.bin");
    payload::generate(&payload_path, 7, Bytes(PAYLOAD_BYTES))?;
    let vars = Vars {
        payload: payload_path.display().to_string(),
        sha256: payload::digest_file(&payload_path)?.hex(),
        length: PAYLOAD_BYTES,
    };
    let cwd = std::env::current_dir()?;
    let mut results = Vec::new();
    for (name, text) in scenarios {
        let parsed: Result<Value, _> = serde_json::from_str(text);
        let (description, steps) = match &parsed {
            Ok(v) => (
                v.get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                v.get("steps").and_then(Value::as_array).cloned().unwrap_or_default(),
            ),
            Err(e) => {
                results.push(ScenarioResult {
                    name: name.clone(),
                    description: String::new(),
                    failure: Some(format!("the scenario file is not valid JSON: {e}")),
                });
                continue;
            }
        };
        let log = scratch.join(format!("{name}.log"));
        let failure = match WorkerProcess::spawn(argv, &cwd, &[], &log) {
            Err(e) => Some(e.to_string()),
            Ok(mut worker) => {
                let r = run_steps(&mut worker, &steps, &vars).err();
                worker.kill();
                r.map(|f| {
                    let out = crate::exec::tail(&log, 400);
                    if out.is_empty() {
                        f
                    } else {
                        format!("{f}\n    worker output: {}", out.replace('\n', "\n    "))
                    }
                })
            }
        };
        results.push(ScenarioResult {
            name: name.clone(),
            description,
            failure,
        });
    }
    Ok(results)
}

/// The built-in scenarios, or those of `dir`.
pub(crate) fn load(dir: Option<&Path>) -> std::io::Result<Vec<(String, String)>> {
    match dir {
        None => Ok(SCENARIOS.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect()),
        Some(d) => {
            let mut out = Vec::new();
            for entry in std::fs::read_dir(d)? {
                let p = entry?.path();
                if p.extension().is_some_and(|x| x == "json") {
                    let name = p
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    out.push((name, std::fs::read_to_string(&p)?));
                }
            }
            out.sort();
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_scenario_is_well_formed() {
        assert!(SCENARIOS.len() >= 10);
        for (name, text) in SCENARIOS {
            let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(v["scenario"], *name);
            assert!(
                v["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{name}: no description"
            );
            let steps = v["steps"].as_array().unwrap();
            assert!(!steps.is_empty());
            for s in steps {
                let o = s.as_object().unwrap();
                assert!(
                    ["send", "send_raw", "expect", "close", "expect_exit"]
                        .iter()
                        .any(|k| o.contains_key(*k)),
                    "{name}: unknown step {s}"
                );
            }
        }
    }

    #[test]
    fn payload_length_becomes_a_number() {
        let vars = Vars {
            payload: "/p".into(),
            sha256: "ab".into(),
            length: 9,
        };
        let v = substitute(
            &serde_json::json!({"a": "{payload_length}", "b": ["{payload}", "x{payload_sha256}"]}),
            &vars,
        );
        assert_eq!(v, serde_json::json!({"a": 9, "b": ["/p", "xab"]}));
    }
}
