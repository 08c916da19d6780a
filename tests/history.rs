//! The history store through the real binary: every run recorded, the
//! change since the last run in the report, baselines, `versus diff` on run
//! ids and baseline names, export and import round trips, `versus trend`'s
//! exit status, and bad stores (uncreatable path, newer schema, unreachable
//! server) failing with exit 1 after the run's own results are written.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

fn versus(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    // Outside git, exec and the history commands use the user's data folder: the test's own.
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env_remove("VERSUS_STORE")
        // libpq's TLS settings, which versus honours too, as each test gives them.
        .env_remove("PGSSLMODE")
        .env_remove("PGSSLROOTCERT")
        .env("XDG_DATA_HOME", dir.join(".data"))
        .current_dir(dir);
    c
}

/// A small suite: `cat` and `head` copying a payload, three runs each.
fn suite(dir: &Path) -> PathBuf {
    let p = dir.join("suite.toml");
    fs::write(
        &p,
        r#"
name = "history test"
baseline = "cat"
[settings]
runs = 3
warmup = 0
[matrix]
size = ["1KB"]
[payload]
size = "{size}"
[operations.copy]
[implementations.cat]
run.copy = "cat {in}"
[implementations.head]
run.copy = "head -c 100000 {in}"
"#,
    )
    .unwrap();
    p
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_run_is_recorded_and_the_next_report_shows_the_change() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path());
    let out = dir.path().join("out");
    versus(dir.path())
        .args([
            "run",
            "-q",
            s.to_str().unwrap(),
            "--out",
            "out",
            "--save-baseline",
            "first",
        ])
        .assert()
        .success()
        .stderr(contains("History: run 1 recorded").and(contains("baseline first")));
    assert!(
        dir.path().join(".versus/history.db").is_file(),
        "the default store is beside the suite"
    );
    let first = fs::read_to_string(out.join("results.json")).unwrap();
    assert!(json(&out.join("results.json")).get("since").is_none());
    versus(dir.path())
        .args(["run", "-q", s.to_str().unwrap(), "--out", "out"])
        .assert()
        .success()
        .stdout(contains("Since the last run (run 1"));
    let second = json(&out.join("results.json"));
    assert_eq!(second["since"]["run_id"], 1);
    assert_eq!(second["since"]["changes"].as_array().unwrap().len(), 2);
    assert!(
        fs::read_to_string(out.join("report.md"))
            .unwrap()
            .contains("Change since an earlier run")
    );
    assert!(
        fs::read_to_string(out.join("report.html"))
            .unwrap()
            .contains("Change since the last run")
    );

    let listed = versus(dir.path())
        .args(["history", "list", "--suite", "history test"])
        .assert()
        .success()
        .stdout(contains("history test").and(contains("cells")));
    // Piped, each run is one line: its suite name is never wrapped away from its status.
    let text = String::from_utf8_lossy(&listed.get_output().stdout).into_owned();
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("history test")).collect();
    assert!(
        !rows.is_empty() && rows.iter().all(|l| l.contains("complete")),
        "{text}"
    );
    versus(dir.path())
        .args(["history", "show", "1"])
        .assert()
        .success()
        .stdout(contains("run 1: history test"));
    versus(dir.path())
        .args(["history", "export", "1", "--out", "exported.json"])
        .assert()
        .success();
    assert_eq!(fs::read_to_string(dir.path().join("exported.json")).unwrap(), first);
    versus(dir.path())
        .args(["diff", "first", "2"])
        .assert()
        .success()
        .stdout(contains("copy/cat/"));
    versus(dir.path())
        .args([
            "run",
            "-q",
            s.to_str().unwrap(),
            "--out",
            "out",
            "--compare-to",
            "first",
        ])
        .assert()
        .success()
        .stdout(contains("Since baseline first (run 1"));
    versus(dir.path())
        .args(["run", "-q", s.to_str().unwrap(), "--out", "out", "--compare-to", "nope"])
        .assert()
        .code(1)
        .stderr(contains("--compare-to nope"));
    assert!(out.join("results.json").is_file());
    versus(dir.path())
        .args(["history", "prune", "--keep", "1"])
        .assert()
        .success()
        .stdout(contains("deleted 1 run(s)").and(contains("kept run(s) 1 because a baseline names them")));
}

#[test]
fn no_history_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path());
    versus(dir.path())
        .args(["run", "-q", s.to_str().unwrap(), "--out", "out", "--no-history"])
        .assert()
        .success();
    assert!(!dir.path().join(".versus").exists());
}

fn run_with_store(dir: &Path, store: &str) -> assert_cmd::assert::Assert {
    let s = suite(dir);
    versus(dir)
        .args(["run", "-q", s.to_str().unwrap(), "--out", "out", "--store", store])
        .assert()
}

#[test]
fn a_store_path_that_cannot_be_created_fails_after_the_results_are_written() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("blocker"), "").unwrap();
    run_with_store(dir.path(), "blocker/sub/h.db")
        .code(1)
        .stderr(contains("history store blocker/sub/h.db"));
    assert!(dir.path().join("out/results.json").is_file());
    assert!(dir.path().join("out/report.md").is_file());
}

#[test]
fn a_store_of_a_newer_schema_is_refused_after_the_results_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.db");
    drop(versus::history::open(&versus::history::Location::Sqlite(db.clone())).unwrap());
    let raw = rusqlite::Connection::open(&db).unwrap();
    raw.execute("UPDATE versus_schema SET version = 7", []).unwrap();
    drop(raw);
    run_with_store(dir.path(), db.to_str().unwrap())
        .code(1)
        .stderr(contains(db.to_str().unwrap()).and(contains("version 7")));
    assert!(dir.path().join("out/results.json").is_file());
}

#[test]
fn an_unreachable_server_fails_after_the_results_are_written() {
    let dir = tempfile::tempdir().unwrap();
    run_with_store(dir.path(), "postgres://versus:pw@127.0.0.1:1/none")
        .code(1)
        .stderr(contains("postgres://versus:***@127.0.0.1:1/none").and(contains("cannot connect")));
    assert!(dir.path().join("out/results.json").is_file());
}

#[test]
fn committed_results_import_and_export_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = ["sha256", "age"]
        .iter()
        .map(|n| root.join("docs/results").join(n).join("results.json"))
        .collect();
    let mut cmd = versus(dir.path());
    cmd.args(["history", "import"])
        .args(&files)
        .assert()
        .success()
        .stdout(contains("run 2"));
    // Without a sidecar, the commit is the one the document recorded.
    versus(dir.path())
        .args(["history", "list"])
        .assert()
        .success()
        .stdout(contains("0124eba256+dirty"));
    for (i, f) in files.iter().enumerate() {
        let out = dir.path().join(format!("e{i}.json"));
        versus(dir.path())
            .args([
                "history",
                "export",
                &(i + 1).to_string(),
                "--out",
                out.to_str().unwrap(),
            ])
            .assert()
            .success();
        assert_eq!(fs::read(&out).unwrap(), fs::read(f).unwrap(), "{}", f.display());
    }
}

#[test]
fn trend_exits_4_when_the_newest_run_starts_a_regression() {
    let dir = tempfile::tempdir().unwrap();
    let exec = |cmd: &str| {
        versus(dir.path())
            .args(["exec", "-q", "--runs", "5", "--warmup", "1", "-n", "app", cmd])
            .assert()
            .success();
    };
    // 50 ms, so the scheduling delays of a loaded machine (milliseconds)
    // stay small beside it: six equal runs must read as no change.
    for _ in 0..6 {
        exec("sleep 0.05");
    }
    versus(dir.path())
        .args(["trend", "--markdown", "t.md"])
        .assert()
        .success()
        .stdout(contains("6 run(s)"));
    exec("sleep 0.25");
    versus(dir.path())
        .args(["trend", "--markdown", "t.md", "--html", "t.html"])
        .assert()
        .code(4)
        .stderr(contains("starts a regression"));
    assert!(
        fs::read_to_string(dir.path().join("t.md"))
            .unwrap()
            .contains("REGRESSION")
    );
    assert!(fs::read_to_string(dir.path().join("t.html")).unwrap().contains("<svg"));
}

#[test]
fn a_postgres_store_records_runs_from_the_binary() {
    let Ok(url) = std::env::var("VERSUS_TEST_POSTGRES_URL") else {
        eprintln!("skipped: VERSUS_TEST_POSTGRES_URL is not set (scripts/ci/postgres.sh starts a server)");
        return;
    };
    // A database of its own, so other tests' runs are not "the last run".
    let name = format!("versus_cli_{}", std::process::id());
    let status = std::process::Command::new("psql")
        .args([
            url.as_str(),
            "-qc",
            &format!("DROP DATABASE IF EXISTS {name}; CREATE DATABASE {name}"),
        ])
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("skipped: psql could not create a database on {url}");
        return;
    }
    let root = url.rsplit_once('/').map_or(url.as_str(), |(r, _)| r);
    let store = format!("{root}/{name}");
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path());
    // The store's note goes to standard error; the change since, to the summary.
    versus(dir.path())
        .env("VERSUS_STORE", &store)
        .args(["run", "-q", s.to_str().unwrap(), "--out", "out"])
        .assert()
        .success()
        .stderr(contains("History: run 1 recorded"));
    versus(dir.path())
        .env("VERSUS_STORE", &store)
        .args(["run", "-q", s.to_str().unwrap(), "--out", "out"])
        .assert()
        .success()
        .stdout(contains("Since the last run (run 1"));
    versus(dir.path())
        .args(["history", "list", "--store", &store])
        .assert()
        .success()
        .stdout(contains("history test"));
    assert!(
        !dir.path().join(".versus").exists(),
        "nothing went to the default SQLite store"
    );
}

#[test]
fn a_postgres_store_over_verified_tls_from_the_binary() {
    let (Ok(url), Ok(ca)) = (
        std::env::var("VERSUS_TEST_POSTGRES_URL"),
        std::env::var("VERSUS_TEST_POSTGRES_CA"),
    ) else {
        eprintln!(
            "skipped: VERSUS_TEST_POSTGRES_URL or VERSUS_TEST_POSTGRES_CA is not set \
             (scripts/ci/postgres.sh starts a server with TLS)"
        );
        return;
    };
    let name = format!("versus_cli_tls_{}", std::process::id());
    let status = std::process::Command::new("psql")
        .args([
            url.as_str(),
            "-qc",
            &format!("DROP DATABASE IF EXISTS {name}; CREATE DATABASE {name}"),
        ])
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("skipped: psql could not create a database on {url}");
        return;
    }
    let root = url.rsplit_once('/').map_or(url.as_str(), |(r, _)| r);
    let tls = format!("sslmode=verify-full&sslrootcert={ca}");
    // The certificate names localhost only (reached at 127.0.0.1, where the server listens).
    let store = format!(
        "{}/{name}?{tls}&hostaddr=127.0.0.1",
        root.replacen("@127.0.0.1:", "@localhost:", 1)
    );
    let dir = tempfile::tempdir().unwrap();
    run_with_store(dir.path(), &store)
        .success()
        .stderr(contains("History: run 1 recorded"));
    versus(dir.path())
        .args(["history", "list", "--store", &store])
        .assert()
        .success()
        .stdout(contains("history test"));
    // By its address, the server's certificate does not name the host.
    versus(dir.path())
        .args(["history", "list", "--store", &format!("{root}/{name}?{tls}")])
        .assert()
        .code(1)
        .stderr(
            contains("TLS with the PostgreSQL server failed (sslmode=verify-full)")
                .and(contains("not valid for the host name 127.0.0.1")),
        );
}

#[test]
fn an_unknown_sslmode_or_a_missing_root_certificate_is_named() {
    let dir = tempfile::tempdir().unwrap();
    versus(dir.path())
        .args([
            "history",
            "list",
            "--store",
            "postgres://u:hunter2@127.0.0.1:1/db?sslmode=verify_full",
        ])
        .assert()
        .code(1)
        .stderr(
            contains("postgres://u:***@127.0.0.1:1/db?sslmode=verify_full")
                .and(contains("sslmode=verify_full is not an sslmode"))
                .and(contains("hunter2").not()),
        );
    versus(dir.path())
        .env("PGSSLMODE", "verify-ca")
        .env("PGSSLROOTCERT", dir.path().join("no-such-ca.pem"))
        .args(["history", "list", "--store", "host=127.0.0.1 port=1 dbname=db"])
        .assert()
        .code(1)
        .stderr(contains("root certificate file").and(contains("no-such-ca.pem")));
}

#[test]
fn exec_outside_git_keeps_its_history_in_the_user_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("scratch");
    fs::create_dir(&work).unwrap();
    let data = dir.path().join("data");
    let exec = || {
        versus(&work)
            .env("XDG_DATA_HOME", &data)
            .args(["exec", "-q", "--runs", "2", "true"])
            .assert()
            .success()
    };
    let first = String::from_utf8(exec().get_output().stderr.clone()).unwrap();
    let store = data.join("versus/history.db");
    assert!(store.is_file(), "no store in the data folder");
    assert!(
        !work.join(".versus").exists(),
        "a .versus/ was left in the scratch folder"
    );
    // Said once, where it went and why.
    assert!(
        first.contains("a new store at") && first.contains("data folder"),
        "{first}"
    );
    let second = String::from_utf8(exec().get_output().stderr.clone()).unwrap();
    assert!(!second.contains("a new store"), "{second}");
    // `versus history` alone lists, from the same folder.
    versus(&work)
        .env("XDG_DATA_HOME", &data)
        .arg("history")
        .assert()
        .success()
        .stdout(contains("versus exec").and(contains(store.display().to_string())));
}

#[test]
fn trend_reads_a_cell_the_last_runs_or_the_runs_since_a_date() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..4 {
        versus(dir.path())
            .args(["exec", "-q", "--runs", "2", "-n", "alpha", "true", "-n", "beta", "true"])
            .assert()
            .success();
    }
    let trend = |args: &[&str]| {
        let mut cmd = versus(dir.path());
        cmd.args(["trend", "--markdown", "t.md"]).args(args);
        let out = cmd.output().unwrap();
        let md = fs::read_to_string(dir.path().join("t.md")).unwrap_or_default();
        (out, md)
    };
    let (out, md) = trend(&[]);
    assert!(out.status.success());
    assert!(
        md.contains("exec/alpha/") && md.contains("exec/beta/") && md.contains("4 run(s)"),
        "{md}"
    );
    let (out, md) = trend(&["--cell", "*/alpha/*"]);
    assert!(out.status.success());
    assert!(md.contains("exec/alpha/") && !md.contains("exec/beta/"), "{md}");
    assert!(md.contains("cells matching */alpha/*"), "{md}");
    let (out, md) = trend(&["--last", "2"]);
    assert!(out.status.success());
    assert!(
        md.contains("2 run(s): 3, 4") && md.contains("the last 2 run(s)"),
        "{md}"
    );
    let (out, md) = trend(&["--since", "2000-01-01"]);
    assert!(out.status.success());
    assert!(md.contains("4 run(s)"), "{md}");
    versus(dir.path())
        .args(["trend", "--since", "2999-01-01"])
        .assert()
        .code(1)
        .stderr(contains("no runs"));
    versus(dir.path())
        .args(["trend", "--since", "yesterday"])
        .assert()
        .code(1)
        .stderr(contains("--since yesterday"));
    versus(dir.path())
        .args(["trend", "--cell", "nope/*"])
        .assert()
        .code(1)
        .stderr(contains("--cell nope/*"));
    // --store may follow the subcommand.
    versus(dir.path())
        .args(["history", "stats", "--store", ".data/versus/history.db"])
        .assert()
        .success()
        .stdout(contains("4 run(s)"));
}
