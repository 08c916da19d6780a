//! Other tools' formats through the real binary: `versus exec --export-json`
//! writes hyperfine's JSON with its keys in hyperfine's order, `--reference`
//! comes first and is every ratio's baseline, `versus import` makes one
//! comparison of several harnesses' files that `report` and `diff` read,
//! and bad input exits 1 naming the file. The real tools are run by
//! scripts/ci/formats.sh.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

fn versus(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env_remove("VERSUS_STORE")
        .env("XDG_DATA_HOME", dir.join("data"))
        .current_dir(dir);
    c
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name)
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn export_json_is_hyperfines_with_its_key_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hf.json");
    versus(dir.path())
        .args([
            "exec",
            "-q",
            "--no-history",
            "-r",
            "3",
            "-w",
            "0",
            "-L",
            "n",
            "1,2",
            "--export-json",
        ])
        .arg(&out)
        .args(["true {n}", "false"])
        .args(["-i"])
        .assert()
        .success();
    let text = fs::read_to_string(&out).unwrap();
    // Key order as written (a Value would sort them).
    let keys = [
        "\"command\"",
        "\"mean\"",
        "\"stddev\"",
        "\"median\"",
        "\"user\"",
        "\"system\"",
        "\"min\"",
        "\"max\"",
        "\"times\"",
        "\"memory_usage_byte\"",
        "\"exit_codes\"",
        "\"parameters\"",
    ];
    let first_entry = &text[..text.find("\"parameters\"").unwrap() + 12];
    let positions: Vec<usize> = keys.iter().map(|k| first_entry.find(k).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let results = v["results"].as_array().unwrap();
    // Each parameter value, every command in it; names with the value filled in.
    let commands: Vec<&str> = results.iter().map(|r| r["command"].as_str().unwrap()).collect();
    assert_eq!(commands, ["true 1", "false", "true 2", "false"]);
    assert_eq!(results[1]["exit_codes"], serde_json::json!([1, 1, 1]));
    assert_eq!(results[0]["exit_codes"], serde_json::json!([0, 0, 0]));
    assert_eq!(results[0]["parameters"], serde_json::json!({"n": "1"}));
}

#[test]
fn reference_is_first_and_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    versus(dir.path())
        .args([
            "exec",
            "-q",
            "--no-history",
            "-r",
            "2",
            "--reference",
            "true",
            "--reference-name",
            "nothing",
        ])
        .args(["--json"])
        .arg(&out)
        .args(["-n", "one", "echo 1"])
        .assert()
        .success();
    let r = json(&out);
    assert_eq!(r["cells"][0]["implementation"], "nothing");
    assert_eq!(r["cells"][1]["implementation"], "one");
    assert!(
        r["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["baseline"] == "nothing")
    );
    versus(dir.path())
        .args(["exec", "--reference-name", "x", "true"])
        .assert()
        .code(2);
}

#[test]
fn import_makes_one_comparison_that_report_and_diff_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("imported");
    let go = format!("{}=go", fixture("go-bench.txt").display());
    let rust = format!("{}=rust", fixture("criterion").display());
    versus(dir.path())
        .args([
            "import",
            "--no-history",
            &go,
            &rust,
            "--rename",
            "sum=Sha256",
            "--rename",
            "arg=size",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("Sha256"));
    let r = json(&out.join("results.json"));
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 8);
    assert!(cells.iter().any(|c| c["id"] == "Sha256/rust/iter/size=64"));
    assert!(out.join("report.html").is_file() && out.join("report.md").is_file());
    for flag in [
        "--pyperf",
        "--go-bench",
        "--github-action",
        "--hyperfine",
        "--html",
        "--bmf",
    ] {
        let file = dir.path().join(format!("x{flag}"));
        versus(dir.path())
            .args(["report"])
            .arg(out.join("results.json"))
            .arg(flag)
            .arg(&file)
            .assert()
            .success();
        assert!(fs::metadata(&file).unwrap().len() > 0, "{flag}");
    }
    let results = out.join("results.json");
    versus(dir.path())
        .arg("diff")
        .arg(&results)
        .arg(&results)
        .assert()
        .success();
}

#[test]
fn bad_input_exits_1_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("broken.json", "{\"results\": [{\"command\": 1"),
        ("notes.txt", "nothing to see\n"),
        ("bench.txt", "BenchmarkA-2 100 12 ns/op\nBenchmarkB-2 x 1 ns/op\n"),
    ];
    for (name, text) in cases {
        fs::write(dir.path().join(name), text).unwrap();
        versus(dir.path())
            .args(["import", "--no-history", name])
            .assert()
            .code(1)
            .stderr(contains(name));
    }
    versus(dir.path())
        .args(["import", "--no-history", "missing.json"])
        .assert()
        .code(1)
        .stderr(contains("missing.json"));
}

#[test]
fn report_json_writes_the_results_as_this_versus_analyses_them() {
    // A results file whose stored analysis is stale: comparisons and
    // findings gone. `report --json` recomputes them from the samples.
    let dir = tempfile::tempdir().unwrap();
    let mut stale = json(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results/age.json"));
    stale["comparisons"] = Value::Array(vec![]);
    stale["findings"] = Value::Array(vec![]);
    let input = dir.path().join("stale.json");
    fs::write(&input, serde_json::to_string(&stale).unwrap()).unwrap();
    versus(dir.path())
        .arg("report")
        .arg(&input)
        .arg("--json")
        .arg(&input)
        .assert()
        .success();
    let fresh = json(&input);
    let compared = fresh["comparisons"].as_array().unwrap();
    assert!(!compared.is_empty());
    assert!(compared.iter().all(|c| c["verdict"].is_string()));
    assert!(!fresh["findings"].as_array().unwrap().is_empty());
    // The measurements themselves are the file's, unchanged.
    let samples = |r: &Value| -> Vec<Value> {
        r["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["samples"].clone())
            .collect()
    };
    assert_eq!(samples(&fresh), samples(&stale));
}
