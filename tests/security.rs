//! What versus promises beyond running a suite's commands (docs/security.md),
//! through the real binary and real processes in temporary folders:
//!
//! - it never deletes or replaces what it did not create: an output folder is
//!   new, empty, or one versus wrote before, and one run at a time writes
//!   into it;
//! - no process it starts for a suite (setup, services, builds, version
//!   commands, runs) inherits the store or libpq's secrets.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn versus(dir: &Path) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("versus"));
    c.current_dir(dir)
        .env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env("XDG_DATA_HOME", dir.join(".data"))
        .env("VERSUS_STORE_RETRY_SECONDS", "0")
        .env_remove("VERSUS_STORE")
        .env_remove("PGPASSWORD")
        .stdin(Stdio::null());
    c
}

fn run(cmd: &mut Command) -> (Option<i32>, String) {
    let Output { status, stdout, stderr } = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    (status.code(), text)
}

/// A suite of one quick cell named `name`, its command `command`.
fn suite(dir: &Path, name: &str, command: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\n[settings]\nruns = 2\nwarmup = 0\n[operations.x]\noutput = \"none\"\n\
         [implementations.a]\nrun.x = \"{command}\"\n"
    );
    fs::write(&path, text).unwrap();
    path
}

/// Polls until `ready` holds; panics with `what` after a generous bound.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(60), "gave up waiting: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_folder_versus_did_not_make_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path(), "s", "true");
    let proj = dir.path().join("proj");
    fs::create_dir_all(proj.join("tmp")).unwrap();
    fs::create_dir_all(proj.join("work")).unwrap();
    fs::write(proj.join("tmp/notes.txt"), "x").unwrap();
    fs::write(proj.join("report.md"), "my own report").unwrap();
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--out", "proj"]));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("proj") && text.contains("--out"), "{text}");
    assert_eq!(fs::read_to_string(proj.join("tmp/notes.txt")).unwrap(), "x");
    assert_eq!(fs::read_to_string(proj.join("report.md")).unwrap(), "my own report");
    assert!(proj.join("work").is_dir());
    assert!(!proj.join("results.json").exists());
}

#[test]
fn a_new_an_empty_or_an_earlier_runs_folder_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let s = suite(dir.path(), "s", "true");
    fs::create_dir(dir.path().join("empty")).unwrap();
    for out in ["new/deeper", "empty", "empty"] {
        let (code, text) = run(versus(dir.path())
            .args(["run", "-q", "--no-history"])
            .arg(&s)
            .args(["--out", out]));
        assert_eq!(code, Some(0), "--out {out}: {text}");
        assert!(dir.path().join(out).join("results.json").is_file());
    }
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--resume", "empty"]));
    assert_eq!(code, Some(0), "--resume: {text}");
}

#[test]
fn a_second_run_into_a_folder_in_use_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (started, hold) = (dir.path().join("started"), dir.path().join("hold"));
    fs::write(&hold, "").unwrap();
    let slow = suite(
        dir.path(),
        "slow",
        &format!(
            "sh -c 'touch {}; while [ -e {} ]; do sleep 0.01; done'",
            started.display(),
            hold.display()
        ),
    );
    let quick = suite(dir.path(), "quick", "true");
    let mut first = versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&slow)
        .args(["--out", "o"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the first run to start its cell", || started.exists());
    let (code, text) = run(versus(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&quick)
        .args(["--out", "o"]));
    fs::remove_file(&hold).unwrap();
    let first = first.wait().unwrap();
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("/o") && text.contains("another"), "{text}");
    assert_eq!(first.code(), Some(0));
    let results = fs::read_to_string(dir.path().join("o/results.json")).unwrap();
    assert!(
        results.contains("\"name\": \"slow\""),
        "the second run wrote into the first's folder"
    );
}

#[test]
fn no_process_started_for_a_suite_inherits_the_store_or_libpq_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let dump = |what: &str| format!("sh -c 'env > {d}/{what}.env'");
    let text = format!(
        r#"
name = "env"
setup = ["{setup}"]
teardown = ["{teardown}"]
[settings]
runs = 1
warmup = 0
[operations.x]
output = "none"
[services.svc]
command = "sh -c 'env > {d}/service.env; exec sleep 60'"
[implementations.a]
build = "{build}"
version = "{version}"
prepare = ["{prepare}"]
run.x = "{run}"
[implementations.b]
env = {{ PGPASSWORD = "given-by-the-suite" }}
run.x = "{given}"
"#,
        setup = dump("setup"),
        teardown = dump("teardown"),
        build = dump("build"),
        version = dump("version"),
        prepare = dump("prepare"),
        run = dump("run"),
        given = dump("given"),
    );
    fs::write(dir.path().join("s.toml"), text).unwrap();
    for args in [&["init", "-q"][..], &["add", "s.toml"], &["-c", "user.name=t", "-c", "user.email=t@versus.invalid", "commit", "-qm", "s"]] {
        assert!(Command::new("git").current_dir(dir.path()).args(args).status().unwrap().success());
    }
    let (code, out) = run(versus(dir.path())
        .env("VERSUS_STORE", "postgres://u:Secret1@127.0.0.1:1/db")
        .env("PGPASSWORD", "Secret2")
        .env("PGPASSFILE", "/Secret3/pgpass")
        .env("VERSUS_TEST_KEPT", "kept")
        .args(["run", "-q", "--no-history", "s.toml", "--out", "o"]));
    assert_eq!(code, Some(0), "{out}");
    for what in ["setup", "teardown", "service", "build", "version", "prepare", "run", "given"] {
        let env = fs::read_to_string(dir.path().join(format!("{what}.env")))
            .unwrap_or_else(|e| panic!("{what} wrote no environment: {e}"));
        assert!(env.contains("VERSUS_TEST_KEPT=kept"), "{what}: the rest of the environment is kept");
        let leaked: Vec<&str> = env
            .lines()
            .filter(|l| l.contains("Secret") || l.starts_with("VERSUS_STORE=") || l.starts_with("PGPASSFILE="))
            .collect();
        assert!(leaked.is_empty(), "{what} inherited {leaked:?}");
    }
    let given = fs::read_to_string(dir.path().join("given.env")).unwrap();
    assert!(given.contains("PGPASSWORD=given-by-the-suite"), "a suite's own env is kept");
}
