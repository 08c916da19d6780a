//! Every command that prints, with its standard output a pipe whose reader
//! has already gone (`versus history show 1 | head -1` once the head has its
//! line): the command stops printing quietly, never panics, and still does
//! the rest of its job (a run is still recorded).

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn versus(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("versus"));
    c.args(args)
        .current_dir(dir)
        .env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .env("VERSUS_STORE", dir.join("h.db"))
        .stdin(Stdio::null());
    c
}

/// Runs with standard output a pipe nobody reads: every write fails with EPIPE.
fn closed_stdout(mut cmd: Command) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    cmd.stdout(writer).stderr(Stdio::piped()).output().unwrap()
}

fn suite(dir: &Path) -> String {
    let p = dir.join("suite.toml");
    fs::write(
        &p,
        "name = \"pipes\"\n[settings]\nruns = 2\nwarmup = 0\n[operations.noop]\noutput = \"none\"\n\
         [implementations.a]\nrun.noop = \"true\"\n[implementations.b]\nrun.noop = \"true\"\n",
    )
    .unwrap();
    p.display().to_string()
}

#[test]
fn no_command_panics_when_its_reader_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = suite(d);
    let commands: Vec<Vec<&str>> = vec![
        vec!["run", "-q", &s, "--out", "out"],
        vec!["run", "-q", &s, "--out", "out"],
        vec!["exec", "-q", "--runs", "2", "true"],
        vec!["exec", "-q", "--runs", "2", "--json", "-", "true"],
        vec!["history", "list"],
        vec!["history", "show", "1"],
        vec!["history", "stats"],
        vec!["history", "export", "1", "--out", "e.json"],
        vec!["history", "import", "out/results.json"],
        vec!["history", "prune", "--run", "5"],
        vec!["trend", "--suite", "pipes", "--markdown", "t.md"],
        vec!["site", "--out", "site"],
        vec!["site", "--regressions", "--json"],
        vec!["diff", "1", "2"],
        vec!["schema"],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["--help"],
        vec!["history", "--help"],
    ];
    for args in &commands {
        let out = closed_stdout(versus(d, args));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && out.status.code() != Some(101),
            "versus {}: {:?}\n{stderr}",
            args.join(" "),
            out.status
        );
    }
    // Both runs were recorded although nobody read their summaries.
    let list = versus(d, &["history", "list", "--suite", "pipes"]).output().unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    assert_eq!(text.matches("pipes").count(), 2, "{text}");
}
