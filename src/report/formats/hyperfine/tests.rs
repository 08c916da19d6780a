//! The export against a file hyperfine 1.20 itself wrote
//! (tests/fixtures/formats/hyperfine-1.20.json): the same keys in the same
//! order, the same JSON types, the same units.

use std::path::Path;

use serde_json::Value;

use super::render;
use crate::results::Results;

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A results document from a small exec run, committed.
fn exec_results() -> Results {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/versus-exec.json");
    crate::results::read(&path).unwrap()
}

#[test]
fn same_keys_types_and_units_as_hyperfine() {
    let hf_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/hyperfine-1.20.json");
    let hf: Value = serde_json::from_str(&std::fs::read_to_string(hf_path).unwrap()).unwrap();
    let ours: Value = serde_json::from_str(&render(&exec_results()).unwrap()).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&ours), ["results"]);
    let (h, o) = (&hf["results"][0], &ours["results"][0]);
    // serde_json sorts a Value's keys; the order as written is checked in tests/cli.rs.
    assert_eq!(keys(h), keys(o));
    for k in keys(h) {
        let (th, to) = (type_of(&h[&k]), type_of(&o[&k]));
        // Whole-number seconds are still floats in hyperfine's output; 0 may print as an integer in neither.
        assert_eq!(th, to, "{k}");
        if let (Some(a), Some(b)) = (h[&k].as_array(), o[&k].as_array()) {
            assert_eq!(type_of(&a[0]), type_of(&b[0]), "{k}[0]");
        }
    }
    // Units: seconds. The exec run slept 10 ms.
    let median = o["median"].as_f64().unwrap();
    assert!((0.01..0.5).contains(&median), "{median}");
    assert_eq!(
        o["times"].as_array().unwrap().len(),
        o["exit_codes"].as_array().unwrap().len()
    );
}
