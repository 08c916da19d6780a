//! A team's PostgreSQL store going away while a run measures, through the
//! real binary and a real server (scripts/ci/postgres.sh starts one; its
//! `halt` and `resume` stop and restart it with its data):
//!
//! - restarted mid-run: the run goes on, asks the server again when it
//!   records, and the run is in the store;
//! - still down when the run ends: the run exits 1 after its results are
//!   written, leaves its document and what the store keeps beside it in
//!   `.versus/unrecorded/`, and `versus history import` records it later,
//!   byte for byte, with its git state.
//!
//! Its own test binary, so no other test meets the server while it is down.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn server(verb: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ok = Command::new("bash")
        .arg(root.join("scripts/ci/postgres.sh"))
        .arg(verb)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "scripts/ci/postgres.sh {verb} failed");
}

fn versus(dir: &Path, store: &str, retry_s: u64) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("versus"));
    c.current_dir(dir)
        .env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env("VERSUS_STORE", store)
        .env("VERSUS_STORE_RETRY_SECONDS", retry_s.to_string())
        .stdin(Stdio::null());
    c
}

/// A suite of about 1.5 s: time to stop the server while it measures.
fn suite(dir: &Path) -> String {
    let p = dir.join("suite.toml");
    fs::write(
        &p,
        "name = \"restart\"\n[settings]\nruns = 3\nwarmup = 0\n[operations.nap]\noutput = \"none\"\n\
         [implementations.a]\nrun.nap = \"sleep 0.25\"\n[implementations.b]\nrun.nap = \"sleep 0.25\"\n",
    )
    .unwrap();
    // A git repository, so the run has a commit to record.
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
    };
    git(&["init", "-q", "-b", "main"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "x",
    ]);
    p.display().to_string()
}

/// A database of its own on the test server, or None (with the reason printed).
fn database() -> Option<String> {
    let Ok(url) = std::env::var("VERSUS_TEST_POSTGRES_URL") else {
        eprintln!("skipped: VERSUS_TEST_POSTGRES_URL is not set (scripts/ci/postgres.sh starts a server)");
        return None;
    };
    let name = format!("versus_restart_{}", std::process::id());
    let created = Command::new("psql")
        .args([
            url.as_str(),
            "-qc",
            &format!("DROP DATABASE IF EXISTS {name}"),
            "-c",
            &format!("CREATE DATABASE {name}"),
        ])
        .status()
        .is_ok_and(|s| s.success());
    if !created {
        eprintln!("skipped: psql could not create a database on {url}");
        return None;
    }
    let root = url.rsplit_once('/').map_or(url.as_str(), |(r, _)| r);
    Some(format!("{root}/{name}"))
}

fn runs_in(dir: &Path, store: &str) -> String {
    let out = versus(dir, store, 0).args(["history", "list"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_server_restarted_mid_run_loses_nothing() {
    let Some(store) = database() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = suite(d);

    // Restarted mid-run: down from 0.5 s in, back 2 s after the run ends.
    let run = versus(d, &store, 60)
        .args(["run", "-q", &s, "--out", "out"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    server("halt");
    std::thread::sleep(Duration::from_secs(3));
    server("resume");
    let out = run.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("trying again") && stderr.contains("History: run 1 recorded"),
        "{stderr}"
    );
    assert_eq!(runs_in(d, &store).matches(" restart ").count(), 1);

    // Down until after the run has given up: left to import.
    server("halt");
    let out = versus(d, &store, 1)
        .args(["run", "-q", &s, "--out", "out2"])
        .output()
        .unwrap();
    server("resume");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(d.join("out2/results.json").is_file(), "the results come first");
    let left: Vec<PathBuf> = fs::read_dir(d.join(".versus/unrecorded"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".meta.json"))
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    let left = &left[0];
    assert!(stderr.contains(&left.display().to_string()), "{stderr}");
    assert_eq!(fs::read(left).unwrap(), fs::read(d.join("out2/results.json")).unwrap());

    let import = versus(d, &store, 0)
        .args(["history", "import"])
        .arg(left)
        .output()
        .unwrap();
    assert!(import.status.success(), "{}", String::from_utf8_lossy(&import.stderr));
    let list = runs_in(d, &store);
    assert_eq!(list.matches(" restart ").count(), 2, "{list}");
    let meta = fs::read_to_string(left.with_extension("meta.json")).unwrap_or_default();
    assert_eq!(
        list.matches(" main ").count(),
        2,
        "the git branch came with it: {list}\n{meta}"
    );
    let exported = d.join("back.json");
    let export = versus(d, &store, 0)
        .args(["history", "export", "2", "--out"])
        .arg(&exported)
        .status()
        .unwrap();
    assert!(export.success());
    assert_eq!(fs::read(&exported).unwrap(), fs::read(left).unwrap());
}
