//! The record of a run, from the real binary: the commits of versus and of
//! the suite's repository (with whether its tree was dirty), the CPU beyond
//! its brand string, the load sampled through the run, and which of the
//! suite's implementations ran — in results.json and in every report.
//! Nothing here asserts a timing or a load figure, only that they are there.

use std::fs;
use std::path::Path;
use std::process::Command as StdCommand;

use assert_cmd::Command;
use serde_json::Value;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = StdCommand::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=versus test", "-c", "user.email=test@example.invalid"])
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

const SUITE: &str = r#"
name = "record"
[settings]
runs = 2
warmup = 0
[operations.noop]
[implementations.one]
# Long enough for the CPU's tick counters to move between the load readings
# (two runs of `true` can take less than one 10 ms tick, and then no share is known).
run.noop = "sleep 0.03"
[implementations.two]
run.noop = "true"
"#;

fn run(dir: &Path, out: &str) -> (Value, String) {
    let assert = Command::cargo_bin("versus")
        .unwrap()
        .env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .args(["run", "--no-history", "--only", "one", "--color", "never"])
        .arg(dir.join("suite.toml"))
        .arg("--out")
        .arg(dir.join(out))
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let text = fs::read_to_string(dir.join(out).join("results.json")).unwrap();
    (serde_json::from_str(&text).unwrap(), stdout)
}

#[test]
fn a_run_records_its_code_machine_load_and_what_ran() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("suite.toml"), SUITE).unwrap();
    let committed = git(dir.path(), &["init", "-q"])
        .and_then(|_| git(dir.path(), &["add", "suite.toml"]))
        .and_then(|_| git(dir.path(), &["commit", "-q", "-m", "suite"]))
        .and_then(|_| git(dir.path(), &["rev-parse", "HEAD"]));
    let (r, stdout) = run(dir.path(), "clean");

    // The suite's repository, clean; none when git is missing.
    match &committed {
        Some(head) => {
            assert_eq!(r["suite"]["git"]["commit"], head.as_str(), "{}", r["suite"]);
            assert_eq!(r["suite"]["git"]["dirty"], false);
        }
        None => assert!(r["suite"].get("git").is_none()),
    }
    // versus's own commit, when this test runs in a checkout of it.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let own = git(manifest, &["rev-parse", "--show-toplevel"])
        .filter(|top| fs::canonicalize(top).ok() == fs::canonicalize(manifest).ok())
        .and_then(|_| git(manifest, &["rev-parse", "HEAD"]));
    match own {
        Some(head) => assert_eq!(r["environment"]["versus_commit"]["commit"], head.as_str()),
        None => assert!(r["environment"].get("versus_commit").is_none()),
    }
    // The CPU beyond its brand string, and the load read at the start and the end at least.
    let cpu = &r["environment"]["cpu"];
    assert!(cpu["logical_cpus"].as_u64().unwrap() >= 1, "{cpu}");
    assert!(cpu["flags"].is_array());
    let load = &r["environment"]["load"];
    assert!(load["samples"].as_u64().unwrap() >= 2, "{load}");
    assert!(load["load_median"].is_number(), "{load}");
    assert!(load["others_share"].is_number(), "{load}");
    // The machine's own speed, read between measured rounds.
    let speed = &r["environment"]["speed"];
    assert!(speed["samples_ns"].as_array().is_some_and(|s| !s.is_empty()), "{speed}");
    assert!(
        speed["workload"].as_str().is_some_and(|w| w.contains("xorshift")),
        "{speed}"
    );
    // What ran: the suite's two, of which --only kept one.
    assert_eq!(r["suite"]["implementations"], serde_json::json!(["one", "two"]));

    let md = fs::read_to_string(dir.path().join("clean/report.md")).unwrap();
    assert!(
        md.starts_with("# record — 1 of 2 implementations: one\n"),
        "{}",
        &md[..80]
    );
    for row in [
        "| versus commit |",
        "| Suite commit |",
        "| CPU identity |",
        "| Load average during the run |",
    ] {
        assert!(md.contains(row), "{row} missing");
    }
    assert!(md.contains("Not run (the suite defines them; this run left them out): two."));
    let html = fs::read_to_string(dir.path().join("clean/report.html")).unwrap();
    assert!(html.contains("<h1>record — 1 of 2 implementations: one</h1>"));
    assert!(html.contains("Other processes&#x27; CPU") || html.contains("Other processes' CPU"));
    assert!(
        stdout.contains("== Run ==") && stdout.contains("not run: two"),
        "{stdout}"
    );

    // A tracked file changed: the record says the tree was dirty.
    if committed.is_some() {
        fs::write(dir.path().join("suite.toml"), format!("{SUITE}\n# edited\n")).unwrap();
        let (r, _) = run(dir.path(), "dirty");
        assert_eq!(r["suite"]["git"]["dirty"], true);
    }
}
