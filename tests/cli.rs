//! The real binary, real processes, in a temporary directory. Assertions are
//! on outcome classes and exit statuses, never on timings.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

fn versus() -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"));
    // Runs here record into a store of the tests' own, not the checkout's
    // .versus/ (the tests run in the crate's folder, a git work tree).
    c.env(
        "VERSUS_STORE",
        std::env::temp_dir().join("versus-test-store").join("history.db"),
    );
    c
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

/// `versus run -q --no-history SUITE --out OUT`, for more arguments or an assert.
fn run_quiet(suite: &Path, out: &Path) -> Command {
    let mut cmd = versus();
    cmd.args(["run", "-q", "--no-history"]).arg(suite).arg("--out").arg(out);
    cmd
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

fn outcome_of(results: &Value, op: &str, imp: &str) -> String {
    results["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["operation"] == op && c["implementation"] == imp)
        .unwrap_or_else(|| panic!("no cell {op}/{imp}"))["outcome"]
        .as_str()
        .unwrap()
        .to_string()
}

const FAULTS: &str = r#"
name = "faults"
baseline = "good"
[settings]
runs = 3
warmup = 1
# Long enough for python3 to start on a loaded machine; only `hang` should reach it.
timeout = "5s"
[matrix]
size = ["10KB"]
[payload]
size = "{size}"
[operations.copy]
roundtrip = true
[implementations.good]
run.copy = "cat {in}"
[implementations.crash]
run.copy = "sh -c 'echo dying >&2; exit 3'"
[implementations.hang]
run.copy = "sleep 60"
[implementations.hog]
memory_limit = "100MB"
run.copy = "python3 -c 'import sys; b = bytearray(600_000_000); sys.stdout.write(open(sys.argv[1]).read())' {in}"
[implementations.liar]
run.copy = "echo not the payload"
[implementations.also_good]
run.copy = "cp {in} {out}"
"#;

#[test]
fn every_fault_is_an_outcome_and_the_other_cells_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "faults.toml",
        &FAULTS.replace("cp {in} {out}", "dd if={in} status=none"),
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3);
    let r = results(&out);
    assert_eq!(r["schema_version"], 2);
    assert_eq!(outcome_of(&r, "copy", "good"), "ok");
    assert_eq!(outcome_of(&r, "copy", "also_good"), "ok");
    assert_eq!(outcome_of(&r, "copy", "crash"), "failed");
    assert_eq!(outcome_of(&r, "copy", "hang"), "timeout");
    assert_eq!(outcome_of(&r, "copy", "hog"), "out_of_memory");
    assert_eq!(outcome_of(&r, "copy", "liar"), "wrong_output");
    let cells = r["cells"].as_array().unwrap();
    let good = cells.iter().find(|c| c["implementation"] == "good").unwrap();
    assert_eq!(good["samples"]["wall_ns"].as_array().unwrap().len(), 3);
    assert_eq!(good["payload_bytes"], 10_000);
    assert!(good["stats"]["median_ns"].as_f64().unwrap() > 0.0);
    for bad in cells.iter().filter(|c| c["outcome"] != "ok") {
        assert!(bad["stats"].is_null());
        assert!(bad["message"].is_string());
    }
    // Never in a ratio: only the two ok cells are compared.
    let compared: Vec<&str> = r["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["implementation"].as_str().unwrap())
        .collect();
    assert_eq!(compared, ["good", "also_good"]);
    // The report keeps a row for every implementation, with the outcome in place of a number.
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    for label in ["TIMEOUT", "OOM", "FAILED", "WRONG OUTPUT"] {
        assert!(md.contains(label), "report lacks {label}");
    }
    // The journal holds the run's header, then every cell, as one line for the one group.
    let journal = fs::read_to_string(out.join("cells.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 2);
    let header: serde_json::Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    assert_eq!(header["type"], "run");
    let line: serde_json::Value = serde_json::from_str(journal.lines().nth(1).unwrap()).unwrap();
    assert_eq!(
        (line["type"].as_str(), line["data"].as_array().map(Vec::len)),
        (Some("group"), Some(6))
    );
}

#[test]
fn a_malformed_suite_names_file_line_and_column_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(dir.path(), "bad.toml", "name = \"x\"\n[operations.a\n");
    let out = dir.path().join("out");
    let assert = versus().arg("run").arg(&suite).arg("--out").arg(&out).assert().code(1);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(err.contains("bad.toml:2:"), "{err}");
    assert!(!out.join("results.json").exists());
}

#[test]
fn bad_input_is_exit_1_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("placeholder", FAULTS.replace("cat {in}", "cat {nope}")),
        ("missing op", FAULTS.replace("run.copy = \"echo not the payload\"", "")),
        ("empty matrix", FAULTS.replace("size = [\"10KB\"]", "size = []")),
        ("no program", FAULTS.replace("cat {in}", "no-such-program-here {in}")),
        ("bad size", FAULTS.replace("size = [\"10KB\"]", "size = [\"ten\"]")),
    ];
    for (what, text) in cases {
        let suite = write(dir.path(), "s.toml", &text);
        let out = dir.path().join(what.replace(' ', "-"));
        let assert = versus().arg("run").arg(&suite).arg("--out").arg(&out).assert().code(1);
        let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(err.contains("s.toml"), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(!out.join("results.json").exists(), "{what}: a results file was written");
    }
    versus()
        .args(["run", "--only", "nobody"])
        .arg(write(dir.path(), "ok.toml", FAULTS))
        .assert()
        .code(1);
    versus()
        .args(["run", "--only", "good,nobody"])
        .arg(dir.path().join("ok.toml"))
        .assert()
        .code(1);
    let assert = versus()
        .args(["run", "--baseline", "nobody"])
        .arg(dir.path().join("ok.toml"))
        .assert()
        .code(1);
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("--baseline nobody"));
    versus().args(["run", "/no/such/suite.toml"]).assert().code(1);
    versus().args(["run", "--runs", "many", "x.toml"]).assert().code(2);
    versus().args(["exec", "--timeout", "soon", "true"]).assert().code(1);
    versus().args(["exec", "no-such-program-here"]).assert().code(1);
}

#[test]
fn exec_compares_ad_hoc_commands() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let md = dir.path().join("r.md");
    versus()
        .args([
            "exec",
            "-q",
            "--runs",
            "3",
            "--warmup",
            "0",
            "-n",
            "t",
            "-n",
            "s",
            "true",
            "sleep 0.01",
            "--json",
        ])
        .arg(&json)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .code(0);
    let r: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2);
    assert!(
        cells
            .iter()
            .all(|c| c["samples"]["wall_ns"].as_array().unwrap().len() == 3)
    );
    assert!(fs::read_to_string(&md).unwrap().contains("| s |"));
    // A failing command is an outcome (exit 3), not an error.
    versus()
        .args(["exec", "-q", "--runs", "2", "false", "true"])
        .assert()
        .code(3);
    // Without a shell, shell syntax is refused (it would be passed on as arguments), with the fix named.
    versus()
        .args(["exec", "-q", "--runs", "1", "true && false"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--shell"));
    // --shell takes the shell as its value, as hyperfine's does; -N and --shell=none mean no shell.
    versus()
        .args(["exec", "-q", "--runs", "1", "--shell", "sh", "true && false"])
        .assert()
        .code(3);
    versus()
        .args(["exec", "-q", "--runs", "1", "-S", "bash", "true && false"])
        .assert()
        .code(3);
    versus()
        .args(["exec", "-q", "--runs", "1", "-N", "true"])
        .assert()
        .code(0);
    versus()
        .args(["exec", "-q", "--runs", "1", "--shell=none", "true | x"])
        .assert()
        .code(1);
}

#[test]
fn resume_skips_finished_cells() {
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("count");
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 2
            warmup = 0
            [matrix]
            n = [1, 2]
            [operations.x]
            output = "none"
            [implementations.a]
            run.x = "sh -c 'echo run >> {}'"
            "#,
            counter.display()
        ),
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(fs::read_to_string(&counter).unwrap().lines().count(), 4);
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(
        fs::read_to_string(&counter).unwrap().lines().count(),
        4,
        "resume ran finished cells again"
    );
    assert_eq!(results(&out)["cells"].as_array().unwrap().len(), 2);
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--resume")
        .arg(dir.path())
        .assert()
        .code(1);
}

#[test]
fn ctrl_c_keeps_finished_cells_and_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 2
        warmup = 0
        [matrix]
        n = [1, 2, 3, 4, 5, 6, 7, 8]
        [operations.x]
        output = "none"
        [implementations.a]
        run.x = "sleep 0.3"
        "#,
    );
    let out = dir.path().join("out");
    let bin = assert_cmd::cargo::cargo_bin("versus");
    let mut child = StdCommand::new(bin)
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .spawn()
        .unwrap();
    let journal = out.join("cells.jsonl");
    let start = Instant::now();
    // The first group after the run's header line.
    while fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 2 {
        assert!(start.elapsed() < Duration::from_secs(30), "no cell finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let r = results(&out);
    assert_eq!(r["status"], "interrupted");
    let n = r["cells"].as_array().unwrap().len();
    assert!((1..8).contains(&n), "{n} cells");
    assert!(out.join("report.md").exists());
}

#[test]
fn services_start_before_cells_and_stop_after() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 2
            [operations.get]
            same_output = true
            [services.web]
            command = "python3 -m http.server {port} --bind 127.0.0.1"
            ready_http = "http://127.0.0.1:{port}/"
            [implementations.py]
            run.get = "python3 -c 'import urllib.request; print(urllib.request.urlopen(\"http://127.0.0.1:{port}/s.toml\").status)'"
            "#
        ),
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(outcome_of(&results(&out), "get", "py"), "ok");
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the service outlived the run"
    );
    // A service that never becomes ready is a clear error.
    let never = write(
        dir.path(),
        "n.toml",
        "[operations.x]\n[implementations.a]\nrun.x = \"true\"\n[services.s]\ncommand = \"sleep 30\"\nready_tcp = \"127.0.0.1:9\"\nready_timeout = \"300ms\"\n",
    );
    versus()
        .args(["run", "-q"])
        .arg(&never)
        .arg("--out")
        .arg(dir.path().join("o2"))
        .assert()
        .code(1);
}

#[test]
fn the_published_schema_is_current() {
    let assert = versus().arg("schema").assert().code(0);
    let generated: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let committed: Value = serde_json::from_str(
        &fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/suite.schema.json")).unwrap(),
    )
    .unwrap();
    assert!(
        generated == committed,
        "docs/suite.schema.json is stale: run `versus schema > docs/suite.schema.json`"
    );
}

#[test]
fn the_quickstart_suite_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = dir.path().join("out");
    versus()
        .current_dir(root)
        .args([
            "run",
            "-q",
            "examples/quickstart.toml",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--only",
            "gzip",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    assert_eq!(outcome_of(&r, "decompress", "gzip"), "ok");
    // The implementations table lists only what --only kept.
    let listed: Vec<&String> = r["environment"]["implementations"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(listed, ["gzip"]);
}

#[test]
fn in_process_workers_take_turns_and_their_faults_are_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let worker = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rogue_worker.py");
    let mut text = String::from(
        r#"
        [settings]
        runs = 3
        warmup = 1
        timeout = "5s"
        min_sample_time = "2ms"
        [matrix]
        size = ["4KB"]
        [payload]
        size = "{size}"
        [operations.copy]
        roundtrip = true
        [implementations.process]
        run.copy = "cat {in}"
        "#,
    );
    for mode in [
        "good",
        "crash_in_run",
        "hang",
        "wrong_output",
        "garbage",
        "wrong_version",
    ] {
        text.push_str(&format!(
            "[implementations.{mode}]\nworker = \"python3 {}\"\nenv = {{ ROGUE_MODE = \"{mode}\" }}\n",
            worker.display()
        ));
    }
    let suite = write(dir.path(), "w.toml", &text);
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3);
    let r = results(&out);
    assert_eq!(outcome_of(&r, "copy", "process"), "ok");
    assert_eq!(outcome_of(&r, "copy", "good"), "ok");
    assert_eq!(outcome_of(&r, "copy", "crash_in_run"), "failed");
    assert_eq!(outcome_of(&r, "copy", "hang"), "timeout");
    assert_eq!(outcome_of(&r, "copy", "wrong_output"), "wrong_output");
    assert_eq!(outcome_of(&r, "copy", "garbage"), "failed");
    assert_eq!(outcome_of(&r, "copy", "wrong_version"), "failed");
    let good = r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["implementation"] == "good")
        .unwrap();
    let iterations = good["samples"]["iterations"].as_array().unwrap();
    assert_eq!(iterations.len(), 3);
    assert!(
        iterations
            .iter()
            .all(|n| n == &iterations[0] && n.as_u64().unwrap() >= 1)
    );
    assert_eq!(good["worker"]["language"], "python");
    // Warm-up batches keep their own sizes (calibration may grow the batch after them).
    let warm = good["samples"]["warmup_iterations"].as_array().unwrap();
    assert_eq!(warm.len(), good["warmup_wall_ns"].as_array().unwrap().len());
    assert!(warm.iter().all(|n| n.as_u64().unwrap() >= 1));
    // The worker's own peak over the cell: a Python interpreter is megabytes.
    let peak = good["samples"]["worker_max_rss_bytes"].as_u64().unwrap();
    assert!(peak > 1_000_000, "{peak}");
    assert_eq!(good["stats"]["max_rss_bytes"].as_u64(), Some(peak));
}

/// Each call of the worker below appends its implementation's name to a log:
/// the calls each implementation's worker served, counted.
fn calls_served(log: &Path) -> std::collections::HashMap<String, usize> {
    let mut served = std::collections::HashMap::new();
    for who in fs::read_to_string(log).unwrap().lines() {
        *served.entry(who.to_string()).or_insert(0) += 1;
    }
    served
}

#[test]
fn a_timed_batch_after_another_workers_turn_comes_after_an_untimed_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Each call lasts 3 ms, past the 1 ms target: batches of one call.
    let worker = write(
        dir.path(),
        "tick.py",
        "import os, time\nimport versus_worker\n\n\
         @versus_worker.operation(\"tick\")\ndef tick():\n\
         \x20   with open(os.environ[\"CALLS\"], \"a\") as f:\n\
         \x20       f.write(os.environ[\"WHO\"] + \"\\n\")\n\
         \x20   time.sleep(0.003)\n\x20   return b\"t\"\n\n\
         if __name__ == \"__main__\":\n\x20   versus_worker.main()\n",
    );
    let run = |lead_in: bool| {
        let log = dir.path().join(format!("calls-{lead_in}"));
        let mut text = format!(
            "[settings]\nruns = 4\nwarmup = 1\nmin_sample_time = \"1ms\"\norder = \"interleaved\"\nlead_in = {lead_in}\n[operations.tick]\n"
        );
        for who in ["a", "b", "c"] {
            text.push_str(&format!(
                "[implementations.{who}]\nworker = \"python3 {}\"\nenv = {{ PYTHONPATH = \"{}\", WHO = \"{who}\", CALLS = \"{}\" }}\n",
                worker.display(),
                root.join("workers/python/src").display(),
                log.display()
            ));
        }
        let out = dir.path().join(format!("out-{lead_in}"));
        run_quiet(&write(dir.path(), &format!("s-{lead_in}.toml"), &text), &out)
            .assert()
            .success();
        let md = fs::read_to_string(out.join("report.md")).unwrap();
        (results(&out), calls_served(&log), md)
    };
    let (with, served_with, md_with) = run(true);
    let (without, served_without, md_without) = run(false);
    assert_eq!(with["design"]["lead_in"], true);
    assert_eq!(without["design"]["lead_in"], false);
    assert!(md_with.contains("(the lead-in)"), "{md_with}");
    assert!(md_without.contains("No lead-in"), "{md_without}");
    for cell in with["cells"].as_array().unwrap() {
        let who = cell["implementation"].as_str().unwrap();
        let order = &cell["samples"]["order"];
        let me = order["implementations"]
            .as_array()
            .unwrap()
            .iter()
            .position(|i| i == who)
            .unwrap() as u64;
        // Interleaved, three take turns: no run follows its own.
        let after_another = order["after"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p.as_u64() != Some(me))
            .count();
        assert_eq!(after_another, 4, "{cell}");
        assert_eq!(cell["samples"]["iterations"], serde_json::json!([1, 1, 1, 1]));
        // One untimed batch (of one call) before each of them, none otherwise.
        assert_eq!(served_with[who], served_without[who] + after_another, "{who}");
    }
}

#[test]
fn diff_gates_on_a_real_slowdown_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let run = |cmd: &str, name: &str| {
        let p = dir.path().join(name);
        versus()
            .args(["exec", "-q", "--runs", "6", "--warmup", "0", "-n", "s", cmd, "--json"])
            .arg(&p)
            .assert()
            .code(0);
        p
    };
    let old = run("sleep 0.01", "old.json");
    // 30 times slower: a loaded machine (a nice-19 test beside a benchmark) cannot blur it.
    let new = run("sleep 0.3", "new.json");
    versus().arg("diff").arg(&old).arg(&old).assert().code(0);
    versus().arg("diff").arg(&old).arg(&new).assert().code(0);
    let md = dir.path().join("diff.md");
    versus()
        .arg("diff")
        .arg(&old)
        .arg(&new)
        .args(["--fail-above", "5%", "--markdown"])
        .arg(&md)
        .assert()
        .code(4);
    assert!(fs::read_to_string(&md).unwrap().contains("slower"));
    // Another schema version, or not a results file at all: a clear error.
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&old).unwrap()).unwrap();
    v["schema_version"] = Value::from(99);
    let future = write(dir.path(), "future.json", &v.to_string());
    let assert = versus().arg("diff").arg(&old).arg(&future).assert().code(1);
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("schema_version 99"));
    let junk = write(dir.path(), "junk.json", "{\"hello\": 1}");
    versus().arg("diff").arg(&junk).arg(&old).assert().code(1);
    // Another machine: refused unless asked.
    v["schema_version"] = Value::from(1);
    v["environment"]["cpu_model"] = Value::from("Imaginary CPU");
    let elsewhere = write(dir.path(), "elsewhere.json", &v.to_string());
    versus().arg("diff").arg(&old).arg(&elsewhere).assert().code(1);
    versus()
        .arg("diff")
        .arg(&old)
        .arg(&elsewhere)
        .arg("--allow-different-machines")
        .assert()
        .code(0);
}

#[test]
fn reports_re_render_saved_results_and_escape_every_suite_string() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-results.json");
    let (html, md, csv, bmf) = (
        dir.path().join("r.html"),
        dir.path().join("r.md"),
        dir.path().join("r.csv"),
        dir.path().join("r.bmf.json"),
    );
    versus()
        .arg("report")
        .arg(&fixture)
        .arg("--html")
        .arg(&html)
        .arg("--markdown")
        .arg(&md)
        .arg("--csv")
        .arg(&csv)
        .arg("--bmf")
        .arg(&bmf)
        .assert()
        .code(0);
    let page = fs::read_to_string(&html).unwrap();
    for raw in ["<img src=x", "<script>alert", "<svg onload", "<b>not bold", "<i>x</i>"] {
        assert!(!page.contains(raw), "raw markup in the HTML: {raw}");
    }
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(
        !page.contains("http://") || !page.contains("src=\"http"),
        "the page fetches something"
    );
    let markdown = fs::read_to_string(&md).unwrap();
    assert!(!markdown.contains("<img src=x"));
    assert!(markdown.contains("](r-chart-1-copy-"), "the Markdown links its charts");
    assert!(
        fs::read_dir(dir.path())
            .unwrap()
            .any(|e| e.unwrap().path().extension().is_some_and(|x| x == "svg"))
    );
    // CSV: a header and one row per cell; BMF: only ok cells, with latency.
    let r: Value = serde_json::from_str(&fs::read_to_string(&fixture).unwrap()).unwrap();
    let cells = r["cells"].as_array().unwrap();
    let mut reader = csv_rows(&fs::read_to_string(&csv).unwrap());
    assert_eq!(reader.len(), cells.len() + 1);
    assert!(reader.remove(0).contains(&"verdict".to_string()));
    let b: Value = serde_json::from_str(&fs::read_to_string(&bmf).unwrap()).unwrap();
    let ok = cells.iter().filter(|c| c["outcome"] == "ok").count();
    assert_eq!(b.as_object().unwrap().len(), ok);
    assert!(
        b.as_object()
            .unwrap()
            .values()
            .all(|m| m["latency"]["value"].as_f64().unwrap() > 0.0)
    );
    // Bytes per second is a measure of its own: Bencher's `throughput` means operations per second.
    assert!(b.as_object().unwrap().values().all(|m| m.get("throughput").is_none()));
    // With no file to write, the terminal report.
    // With no file to write, the terminal report: the headline first, each
    // operation's tables with --verbose.
    let shown = versus().arg("report").arg(&fixture).assert().code(0);
    let text = String::from_utf8_lossy(&shown.get_output().stdout).into_owned();
    assert!(
        text.contains("== Headline ==") && !text.contains("== copy =="),
        "{text}"
    );
    let verbose = versus().arg("report").arg(&fixture).arg("--verbose").assert().code(0);
    assert!(String::from_utf8_lossy(&verbose.get_output().stdout).contains("== copy =="));
    // The author's notes appear in both reports, rendered, with nothing that can run.
    let notes = dir.path().join("notes.md");
    fs::write(&notes, "**plain** is the baseline.\n\n<script>alert(1)</script>\n").unwrap();
    versus()
        .arg("report")
        .arg(&fixture)
        .args(["--notes"])
        .arg(&notes)
        .arg("--html")
        .arg(&html)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .code(0);
    let page = fs::read_to_string(&html).unwrap();
    assert!(page.contains("<strong>plain</strong> is the baseline."));
    assert!(!page.contains("<script>alert(1)") && page.contains("&lt;script&gt;"));
    assert!(
        fs::read_to_string(&md)
            .unwrap()
            .contains("## Notes\n\n**plain** is the baseline.")
    );
    versus()
        .arg("report")
        .arg(&fixture)
        .args(["--notes", "/no/such/notes.md", "--html"])
        .arg(&html)
        .assert()
        .code(1);
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn a_relative_out_folder_still_gives_commands_absolute_paths() {
    let dir = tempfile::tempdir().unwrap();
    let suites = dir.path().join("suites");
    fs::create_dir_all(&suites).unwrap();
    let suite = write(
        &suites,
        "s.toml",
        r#"
        setup = ["sh -c 'echo key > {tmp}/key.txt'"]
        [settings]
        runs = 2
        [operations.read]
        expect_file = "{tmp}/key.txt"
        [implementations.cat]
        run.read = "cat {tmp}/key.txt"
        "#,
    );
    // The suite's commands run in suites/, the output folder is relative to the caller.
    versus()
        .current_dir(dir.path())
        .args(["run", "-q"])
        .arg(&suite)
        .args(["--out", "out"])
        .assert()
        .code(0);
    assert_eq!(outcome_of(&results(&dir.path().join("out")), "read", "cat"), "ok");
}

#[test]
fn generated_payloads_and_a_relative_suite_path() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("ex")).unwrap();
    write(
        &dir.path().join("ex"),
        "s.toml",
        r#"
        [settings]
        runs = 2
        [matrix]
        n = [100, 200]
        [payload]
        command = "sh -c 'head -c {n} /dev/zero > {out}'"
        [operations.copy]
        roundtrip = true
        [implementations.cat]
        run.copy = "cat {in}"
        "#,
    );
    // The suite path is relative to the caller; its commands run in ex/.
    versus()
        .current_dir(dir.path())
        .args([
            "run",
            "-q",
            "ex/s.toml",
            "--out",
            "out",
            "--html",
            "extra.html",
            "--markdown",
            "extra.md",
        ])
        .assert()
        .code(0);
    for report in ["out/report.html", "out/report.md", "extra.html", "extra.md"] {
        assert!(dir.path().join(report).is_file(), "{report} missing");
    }
    let r = results(&dir.path().join("out"));
    let sizes: Vec<u64> = r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["payload_bytes"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [100, 200]);
}

/// Findings (docs/results-format.md, "Findings") are in results.json and
/// open the reports, and `versus report` computes them for a file without
/// them. Which kinds appear depends on timings, so only their presence and
/// the cells they cite are checked.
#[test]
fn findings_are_recorded_and_open_the_reports() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 3
        warmup = 1
        [matrix]
        size = ["1KB", "10KB", "100KB"]
        [payload]
        size = "{size}"
        [operations.copy]
        roundtrip = true
        [operations.idle]
        output = "none"
        throughput = "none"
        [implementations.cat]
        run = { copy = "cat {in}", idle = "true" }
        [implementations.cp]
        run = { copy = "cp {in} {out}", idle = "true" }
        "#,
    );
    let out = dir.path().join("out");
    versus()
        .arg("run")
        .arg("-q")
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    // What each cell's work depends on: copy reads the payload, idle nothing.
    for c in r["cells"].as_array().unwrap() {
        let used = if c["operation"] == "copy" { vec!["size"] } else { vec![] };
        assert_eq!(c["work_params"], serde_json::json!(used), "{}", c["id"]);
    }
    let findings = r["findings"].as_array().unwrap();
    for imp in ["cat", "cp"] {
        let fits: Vec<&Value> = findings
            .iter()
            .filter(|f| f["implementation"] == imp && (f["kind"] == "cost" || f["kind"] == "not_linear"))
            .collect();
        assert_eq!(fits.len(), 1, "{findings:#?}");
        assert_eq!(fits[0]["cells"].as_array().unwrap().len(), 3);
        assert_eq!(fits[0]["cost"]["sizes"], 3);
    }
    assert!(
        findings
            .iter()
            .any(|f| f["kind"] == "winner" || f["kind"] == "crossover")
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    // The headline leads; the findings come before the appendix's detail.
    let first_section = md.find("\n## ").unwrap();
    assert_eq!(&md[first_section..first_section + 12], "\n## Headline");
    assert!(md.find("\n## Findings\n").unwrap() < md.find("\n## Appendix\n").unwrap());
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.find("id=\"headline\"").unwrap() < html.find("id=\"findings\"").unwrap());
    assert!(html.find("id=\"findings\"").unwrap() < html.find("id=\"summary\"").unwrap());
    // A file from before findings (none recorded, no work_params) gets them from `versus report`.
    let mut old = r.clone();
    old.as_object_mut().unwrap().remove("findings");
    for c in old["cells"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("work_params");
    }
    let old_file = write(dir.path(), "old.json", &old.to_string());
    let md = dir.path().join("old.md");
    versus()
        .arg("report")
        .arg(&old_file)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .code(0);
    assert!(fs::read_to_string(&md).unwrap().contains("\n## Findings\n"));
}

#[test]
fn baseline_flag_overrides_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        baseline = "one"
        [settings]
        runs = 3
        warmup = 0
        [operations.noop]
        [implementations.one]
        run.noop = "true"
        [implementations.two]
        run.noop = "true"
        "#,
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q", "--baseline", "two"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    let comparisons = r["comparisons"].as_array().unwrap();
    assert!(!comparisons.is_empty());
    assert!(comparisons.iter().all(|c| c["baseline"] == "two"));
    assert_eq!(r["suite"]["baseline"], "two");
}

#[test]
fn an_artifact_is_reported_with_its_size() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("module-o3.wasm"), vec![0u8; 1234]).unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 2
        warmup = 0
        [operations.noop]
        [implementations.mod]
        run.noop = "true"
        artifact = "module-{level}.wasm"
        variants.o3 = { level = "o3" }
        variants.oz = { level = "oz" }
        "#,
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    let imps = &r["environment"]["implementations"];
    assert_eq!(imps["mod-o3"]["artifact"]["path"], "module-o3.wasm");
    assert_eq!(imps["mod-o3"]["artifact"]["bytes"], 1234);
    // A missing file is said, not an error.
    assert!(imps["mod-oz"]["artifact"]["bytes"].is_null());
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("module-o3.wasm: 1234 bytes"), "{md}");
    assert!(md.contains("module-oz.wasm: not found"));
}

#[test]
fn warm_up_runs_measure_a_child_smaller_than_versus() {
    let dir = tempfile::tempdir().unwrap();
    // perl-base is on every Debian system; `perl -e 1` peaks at a few MB,
    // less than versus itself and more than the spawn helper.
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 3
        warmup = 2
        [operations.start]
        [implementations.perl]
        run.start = "perl -e 1"
        "#,
    );
    let out = dir.path().join("out");
    versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    let cell = &r["cells"][0];
    let u = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect::<Vec<u64>>()
    };
    let (warm, warm_floor) = (
        u(&cell["samples"]["warmup_max_rss_bytes"]),
        u(&cell["samples"]["warmup_rss_floor_bytes"]),
    );
    let measured_floor = u(&cell["samples"]["rss_floor_bytes"]);
    assert_eq!(warm.len(), 2);
    // The helper's floor is below versus's, and perl's peak rises above it.
    assert!(
        warm_floor.iter().max() < measured_floor.iter().min(),
        "{warm_floor:?} {measured_floor:?}"
    );
    assert!(
        warm.iter().zip(&warm_floor).all(|(w, f)| w > f),
        "{warm:?} {warm_floor:?}"
    );
    let stats = &cell["stats"];
    assert_eq!(stats["max_rss_at_most"], false);
    assert_eq!(stats["max_rss_bytes"].as_u64(), warm.iter().max().copied());
}

/// Runs piece `shard` of the quickstart (2 runs, gzip and xz only) into `out`.
fn quickstart_piece(root: &Path, out: &Path, shard: &str, env: &[(&str, &str)]) -> assert_cmd::assert::Assert {
    let mut c = versus();
    c.current_dir(root)
        .args(["run", "-q", "examples/quickstart.toml", "--runs", "2", "--warmup", "0"])
        .args(["--only", "gzip,xz", "--shard", shard, "--out"])
        .arg(out);
    for (k, v) in env {
        c.env(k, v);
    }
    c.assert()
}

#[test]
fn shards_of_a_suite_merge_into_the_cells_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = |n: &str| dir.path().join(n);
    // The index from the scheduler's environment: Slurm's, and any variable's.
    quickstart_piece(
        root,
        &p("a"),
        "slurm",
        &[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
    )
    .code(0);
    quickstart_piece(
        root,
        &p("b"),
        "JOB_COMPLETION_INDEX/2",
        &[("JOB_COMPLETION_INDEX", "1")],
    )
    .code(0);
    let (a, b) = (results(&p("a")), results(&p("b")));
    assert_eq!(
        (a["shard"]["index"].as_u64(), b["shard"]["index"].as_u64()),
        (Some(0), Some(1))
    );
    assert!(a["suite"]["hash"].as_str().unwrap().len() == 64);
    assert!(a["environment"]["machine"]["id"].is_string());

    // A missing piece is named, and allowed only with --partial (status 5).
    versus()
        .args(["merge", "--out"])
        .arg(p("m"))
        .arg(p("a"))
        .assert()
        .code(1)
        .stderr(predicates::str::contains("no piece given for shard 1/2"));
    versus()
        .args(["merge", "--partial", "--out"])
        .arg(p("m"))
        .arg(p("a"))
        .assert()
        .code(5);
    // The same piece twice is refused.
    versus()
        .args(["merge", "--out"])
        .arg(p("m"))
        .args([p("a"), p("b"), p("b").join("results.json")])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("held by more than one piece"));
    versus()
        .args(["merge", "--out"])
        .arg(p("m"))
        .args([p("a"), p("b")])
        .assert()
        .code(0);
    let merged = results(&p("m"));
    let cells = |r: &Value| -> Vec<String> {
        r["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    // Plan order, as a single run writes it.
    let expected: Vec<String> = ["1KB", "100KB", "1MB"]
        .iter()
        .flat_map(|s| {
            ["compress", "decompress"]
                .iter()
                .flat_map(move |op| ["gzip", "xz"].map(|i| format!("{op}/{i}/size={s}")))
        })
        .collect();
    assert_eq!(cells(&merged), expected);
    assert_eq!(merged["merge"]["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(merged["comparisons"].as_array().unwrap().len(), 12);
    let report = fs::read_to_string(p("m").join("report.md")).unwrap();
    assert!(report.contains("Pieces: which machine ran which rows"));

    // A piece of another suite file is refused, naming the file.
    let other = write(dir.path(), "other.json", &{
        let mut b = results(&p("b"));
        b["suite"]["hash"] = Value::from("0".repeat(64));
        b.to_string()
    });
    versus()
        .args(["merge", "--out"])
        .arg(p("m"))
        .arg(p("a"))
        .arg(&other)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("comes from another suite"));
}

#[test]
fn a_shard_index_missing_from_the_environment_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    versus()
        .current_dir(root)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .args(["run", "-q", "examples/quickstart.toml", "--shard", "slurm", "--out"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--shard slurm"));
    versus()
        .current_dir(root)
        .args(["run", "-q", "examples/quickstart.toml", "--shard", "3/3"])
        .assert()
        .code(2);
}

#[test]
fn services_get_a_free_port_and_cells_reach_them_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 2
        [operations.get]
        same_output = true
        [services.web]
        command = "python3 -m http.server {port} --bind 127.0.0.1 --directory {tmp}"
        ready_http = "http://127.0.0.1:{port}/"
        [implementations.py]
        run.get = "python3 -c 'import urllib.request,sys; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode()[:15])' http://127.0.0.1:{web.port}/"
        "#,
    );
    let out = dir.path().join("out");
    run_quiet(&suite, &out).assert().code(0);
    assert_eq!(outcome_of(&results(&out), "get", "py"), "ok");
}

#[test]
fn each_cell_records_what_the_service_did_for_it_and_the_report_shows_the_service() {
    let dir = tempfile::tempdir().unwrap();
    // A server whose /heavy costs it about 3 million additions per request
    // and whose /light costs nothing.
    write(
        dir.path(),
        "server.py",
        r#"
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/heavy":
            sum(range(3_000_000))
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"#,
    );
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 3
        warmup = 0
        [operations.heavy]
        [operations.light]
        [services.web]
        command = "python3 server.py {port}"
        version = "python3 --version"
        ready_http = "http://127.0.0.1:{port}/"
        [implementations.py]
        run.heavy = "python3 -c 'import urllib.request; urllib.request.urlopen(\"http://127.0.0.1:{web.port}/heavy\").read()'"
        run.light = "python3 -c 'import urllib.request; urllib.request.urlopen(\"http://127.0.0.1:{web.port}/light\").read()'"
        "#,
    );
    let out = dir.path().join("out");
    run_quiet(&suite, &out)
        .arg("--markdown")
        .arg(dir.path().join("r.md"))
        .assert()
        .code(0);
    let r = results(&out);
    let web = &r["environment"]["services"]["web"];
    assert!(web["version"].as_str().unwrap().starts_with("Python 3"), "{web}");
    assert!(std::path::Path::new(web["log"].as_str().unwrap()).is_file(), "{web}");
    assert!(web["port"].as_u64().unwrap() > 0);
    let usage = |op: &str| {
        let cell = r["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["operation"] == op)
            .unwrap();
        let u = &cell["services"][0];
        assert_eq!(u["name"], "web");
        assert_eq!(u["calls"], 3, "{u}");
        assert!(u["peak_rss_bytes"].as_u64().unwrap() > 1_000_000, "{u}");
        u["cpu_ns"].as_u64().unwrap()
    };
    let (heavy, light) = (usage("heavy"), usage("light"));
    assert!(heavy > 5 * light.max(1), "heavy {heavy} ns, light {light} ns");
    let md = std::fs::read_to_string(dir.path().join("r.md")).unwrap();
    assert!(md.contains("web CPU/call") && md.contains("web peak RSS"), "{md}");
    assert!(md.contains("## Services") && md.contains("python3 server.py"), "{md}");
}

#[test]
fn a_service_that_dies_fails_the_later_cells_naming_it_and_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 1
        warmup = 0
        [matrix]
        n = [1, 2, 3]
        [operations.x]
        output = "none"
        [services.brief]
        command = "sleep 0.5"
        [implementations.a]
        run.x = "sleep 0.4"
        "#,
    );
    let out = dir.path().join("out");
    run_quiet(&suite, &out).assert().code(3);
    let r = results(&out);
    let last = r["cells"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["outcome"], "failed");
    let message = last["message"].as_str().unwrap();
    assert!(
        message.contains("service 'brief'") && message.contains("brief.log"),
        "{message}"
    );
}

#[test]
fn a_service_that_never_gets_ready_names_itself_its_probe_and_log_and_writes_no_results() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [operations.x]
        output = "none"
        [services.mute]
        command = "sleep 30"
        ready_tcp = "127.0.0.1:{port}"
        ready_timeout = "1s"
        [implementations.a]
        run.x = "true"
        "#,
    );
    let out = dir.path().join("out");
    let o = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("service 'mute'") && stderr.contains("TCP 127.0.0.1:") && stderr.contains("mute.log"),
        "{stderr}"
    );
    assert!(!out.join("results.json").exists());
}

/// `--passes 3`: every group visited three times, each cell's six runs in
/// three segments of two, the design recorded, the report's levels table.
#[test]
fn passes_take_each_cells_runs_in_three_visits() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "passes.toml",
        r#"
        name = "passes"
        [matrix]
        n = [1, 2]
        [operations.x]
        output = "none"
        [implementations.a]
        run.x = "true"
        [implementations.b]
        run.x = "sh -c true"
        "#,
    );
    let out = dir.path().join("out");
    versus()
        .args([
            "run",
            "-q",
            "--no-history",
            "--runs",
            "6",
            "--warmup",
            "1",
            "--passes",
            "3",
        ])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    assert_eq!(r["design"]["passes"], 3);
    for c in r["cells"].as_array().unwrap() {
        assert_eq!(c["samples"]["wall_ns"].as_array().unwrap().len(), 6);
        let passes: Vec<u64> = c["segments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["pass"].as_u64().unwrap())
            .collect();
        assert_eq!(passes, [0, 1, 2]);
        assert_eq!(c["stats"]["levels"]["segments"], 3);
    }
    // Both implementations of a visit were measured together: paired.
    assert!(r["comparisons"].as_array().unwrap().iter().all(|c| c["paired"] == true));
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Levels of repetition"), "{md}");
}
