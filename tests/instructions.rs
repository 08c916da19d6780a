//! Instructions counted by the real binary: a tiny C program under valgrind
//! (process cells), the Python worker library's conformance worker under
//! valgrind (in-process cells), and the `perf` path through a fake `perf`
//! that stands in for hardware counters this machine does not have.
//! Assertions are on counts and verdicts, never on timings.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn versus() -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"));
    c
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

fn cell<'r>(r: &'r Value, implementation: &str) -> &'r Value {
    r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["implementation"] == implementation)
        .unwrap_or_else(|| panic!("no cell of {implementation}"))
}

fn counts(c: &Value) -> Vec<u64> {
    c["samples"]["instructions"]
        .as_array()
        .map(|a| a.iter().map(|v| v.as_u64().unwrap()).collect())
        .unwrap_or_default()
}

/// A loop of `n` steps plus `extra` per thousand: the variant does 1% more work.
const WORK_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long n = atol(argv[1]);
    long extra = argc > 2 ? atol(argv[2]) : 0;
    volatile unsigned long x = 0;
    for (long i = 0; i < n + n / 1000 * extra; i++) x += (unsigned long)i * 2654435761u;
    printf("%lu\n", (unsigned long)(x & 1));
    return 0;
}
"#;

/// Compiles `WORK_C` into `dir`.
fn work_program(dir: &Path) -> PathBuf {
    let src = write(dir, "work.c", WORK_C);
    let exe = dir.join("work");
    let status = std::process::Command::new("cc")
        .args(["-O1", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .expect("a C compiler (cc)");
    assert!(status.success());
    exe
}

#[test]
fn process_cells_count_exactly_and_a_one_percent_change_is_called() {
    let dir = tempfile::tempdir().unwrap();
    let exe = work_program(dir.path());
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
name = "counted"
baseline = "base"
[settings]
runs = 2
warmup = 0
counted_runs = 6
measure = ["wall", "instructions"]
counter = "valgrind"
[operations.work]
[implementations.base]
run.work = "{exe} 200000"
[implementations.more]
run.work = "{exe} 200000 10"
"#,
            exe = exe.display()
        ),
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let r = results(&out);
    let (base, more) = (cell(&r, "base"), cell(&r, "more"));
    // A deterministic program counts the same on every run, whatever the load.
    for c in [base, more] {
        let n = counts(c);
        assert_eq!(n.len(), 6, "{c}");
        assert!(n.iter().all(|x| *x == n[0]), "{n:?}");
        assert!(
            c["samples"]["counter"]
                .as_str()
                .unwrap()
                .starts_with("valgrind-cachegrind")
        );
        assert_eq!(c["stats"]["instructions"]["repeatability"], 0.0);
    }
    // The timed runs are as they always were: wall time, no counts in them.
    assert_eq!(base["samples"]["wall_ns"].as_array().unwrap().len(), 2);
    let comparison = r["metrics"]["instructions"]["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["implementation"] == "more")
        .unwrap();
    assert_eq!(comparison["metric"], "instructions");
    assert_eq!(comparison["verdict"], "slower");
    let ratio = comparison["ratio"].as_f64().unwrap();
    assert!((1.005..1.015).contains(&ratio), "{ratio}");
    // The report shows the counts beside the times.
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("Instructions per run"), "{md}");
    assert!(md.contains("## Findings in instructions"), "{md}");
    // And versus diff compares them on request.
    let diff = versus()
        .args(["diff", "--metric", "instructions"])
        .arg(out.join("results.json"))
        .arg(out.join("results.json"))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&diff.get_output().stdout).to_string();
    assert!(text.contains("Median instructions per cell"), "{text}");
}

#[test]
fn counts_are_recorded_in_the_history_and_followed_by_trend() {
    let dir = tempfile::tempdir().unwrap();
    let exe = work_program(dir.path());
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
name = "counted history"
[settings]
runs = 2
warmup = 0
counted_runs = 2
measure = ["wall", "instructions"]
counter = "valgrind"
[operations.work]
[implementations.base]
run.work = "{exe} 100000"
"#,
            exe = exe.display()
        ),
    );
    let store = dir.path().join("history.db");
    for i in 0..2 {
        versus()
            .args(["run", "-q"])
            .arg(&suite)
            .arg("--out")
            .arg(dir.path().join(format!("out-{i}")))
            .arg("--store")
            .arg(&store)
            .assert()
            .success();
    }
    // The second run's change since the first, in instructions too.
    let r = results(&dir.path().join("out-1"));
    let since = &r["since"]["metrics"]["instructions"];
    assert_eq!(since.as_array().map(Vec::len), Some(1), "{}", r["since"]);
    let md = dir.path().join("trend.md");
    versus()
        .args(["trend", "--metric", "instructions", "--store"])
        .arg(&store)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .success();
    let text = fs::read_to_string(&md).unwrap();
    assert!(text.contains("# Trend: counted history (instructions)"), "{text}");
    assert!(text.contains(" instr"), "{text}");
}

#[test]
fn a_worker_under_valgrind_counts_each_batch_less_its_empty_cost() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
name = "counted worker"
[settings]
runs = 2
warmup = 1
counted_runs = 3
min_sample_time = "1ms"
measure = ["wall", "instructions"]
counter = "valgrind"
[operations.echo]
[payload]
size = "1KB"
[implementations.python]
worker = "python3 {worker}"
env = {{ PYTHONPATH = "{src}" }}
"#,
            worker = root.join("workers/python/conformance_worker.py").display(),
            src = root.join("workers/python/src").display()
        ),
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let r = results(&out);
    let c = cell(&r, "python");
    assert_eq!(c["samples"]["instructions_error"], Value::Null, "{c}");
    let n = counts(c);
    assert_eq!(n.len(), 3);
    let calls = c["samples"]["instruction_iterations"][0].as_u64().unwrap();
    let empty = c["samples"]["instruction_overhead"][0].as_u64().unwrap();
    assert!(calls >= 1 && empty > 0, "{c}");
    assert!(
        c["samples"]["counter"]
            .as_str()
            .unwrap()
            .starts_with("valgrind-callgrind")
    );
    // Per call: (batch − empty) ÷ calls, which the statistics report.
    let per_call = c["stats"]["instructions"]["median"].as_f64().unwrap();
    let mut net: Vec<f64> = n.iter().map(|b| (b - empty) as f64 / calls as f64).collect();
    net.sort_by(f64::total_cmp);
    assert!((per_call - net[1]).abs() < 1e-6, "{per_call} vs {net:?}");
}

/// A `perf` that counts what a machine with hardware counters would: it
/// answers the probe and writes a fixed count for every run it wraps.
const FAKE_PERF: &str = r#"#!/bin/sh
# perf stat -x, -e instructions:u [-o FILE] -- CMD...
out=""
while [ "$1" != "--" ]; do
  if [ "$1" = "-o" ]; then out="$2"; shift; fi
  shift
done
shift
"$@"
status=$?
line="123456,,instructions:u,1000,100.00,,"
if [ -n "$out" ]; then echo "$line" > "$out"; else echo "$line" >&2; fi
exit $status
"#;

#[test]
fn perf_is_used_where_it_counts_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    fs::create_dir(&bin).unwrap();
    let perf = write(&bin, "perf", FAKE_PERF);
    fs::set_permissions(&perf, fs::Permissions::from_mode(0o755)).unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
name = "perf"
[settings]
runs = 1
warmup = 0
counted_runs = 2
measure = ["wall", "instructions"]
[operations.op]
[implementations.t]
run.op = "true"
"#,
    );
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = dir.path().join("out");
    versus()
        .env("PATH", &path)
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let r = results(&out);
    let c = cell(&r, "t");
    assert_eq!(counts(c), [123_456, 123_456]);
    assert_eq!(c["samples"]["counter"], "perf instructions:u");
    // Asked for valgrind, the same machine uses valgrind even so.
    let suite = fs::read_to_string(&suite)
        .unwrap()
        .replace("[operations", "counter = \"valgrind\"\n[operations");
    let suite = write(dir.path(), "v.toml", &suite);
    let out = dir.path().join("out-valgrind");
    versus()
        .env("PATH", &path)
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let r = results(&out);
    assert!(
        cell(&r, "t")["samples"]["counter"]
            .as_str()
            .unwrap()
            .starts_with("valgrind")
    );
}
