//! Faults of versus itself, with the real binary and real processes:
//! `kill -9` at a group boundary and mid-group then `--resume`, a torn
//! journal tail, TERM and HUP, a full disk for the journal (its write cut
//! back to the last whole line) and for the code under test, and results
//! files that lie. Every wait is bounded and polls
//! for a state; nothing asserts how long anything took.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;
use common::Tmpfs;

fn versus() -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("versus"));
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"));
    c
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

/// Polls until `ready` holds; panics with `what` after a generous bound.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(60), "gave up waiting: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .map(|t| t.lines().map(String::from).collect())
        .unwrap_or_default()
}

/// Group lines of a journal (each run's header line left out).
fn groups(journal: &Path) -> usize {
    lines(journal)
        .iter()
        .filter(|l| l.starts_with(r#"{"type":"group""#))
        .count()
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

fn cells(dir: &Path) -> usize {
    results(dir)["cells"].as_array().unwrap().len()
}

/// Processes still marked as started by versus `pid` (see exec::guard).
fn marked(pid: u32) -> Vec<i32> {
    versus::exec::guard::marked_processes(&format!("{}={pid}", versus::exec::guard::MARK))
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, sig) };
}

/// Three groups (n = 1, 2, 3) of two implementations; every run logs
/// "<impl> <n>" to `log` and then takes `secs`.
fn logging_suite(dir: &Path, log: &Path, secs: &str) -> PathBuf {
    write(
        dir,
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 2
            warmup = 1
            shell = true
            [matrix]
            n = [1, 2, 3]
            [operations.x]
            output = "none"
            [implementations.a]
            run.x = "echo a {{n}} >> {log}; sleep {secs}"
            [implementations.b]
            run.x = "echo b {{n}} >> {log}; sleep {secs}"
            "#,
            log = log.display()
        ),
    )
}

fn start(suite: &Path, out: &Path, extra: &[&str]) -> Child {
    versus()
        .args(["run", "-q"])
        .arg(suite)
        .args(["--out".as_ref(), out.as_os_str()])
        .args(extra)
        .spawn()
        .unwrap()
}

fn runs_of(log: &Path, n: u32) -> usize {
    lines(log).iter().filter(|l| l.ends_with(&format!(" {n}"))).count()
}

#[test]
fn kill_9_after_a_group_then_resume_keeps_it_and_runs_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("log"), dir.path().join("out"));
    let suite = logging_suite(dir.path(), &log, "0.05");
    let mut child = start(&suite, &out, &[]);
    wait_for("the first group in the journal", || {
        groups(&out.join("cells.jsonl")) == 1
    });
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    let first_group_runs = runs_of(&log, 1);
    assert_eq!(first_group_runs, 6, "2 implementations x (1 warm-up + 2 runs)");
    let resumed = versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(resumed.code(), Some(0));
    assert_eq!(runs_of(&log, 1), first_group_runs, "a recorded group ran again");
    assert_eq!(cells(&out), 6);
}

#[test]
fn kill_9_inside_a_group_measures_that_group_again_from_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("log"), dir.path().join("out"));
    let suite = logging_suite(dir.path(), &log, "0.05");
    let mut child = start(&suite, &out, &[]);
    wait_for("group 2 under way", || runs_of(&log, 2) >= 3);
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    let journaled = groups(&out.join("cells.jsonl"));
    assert_eq!(journaled, 1, "only group 1 was finished");
    let before = runs_of(&log, 2);
    let resumed = versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(resumed.code(), Some(0));
    assert_eq!(runs_of(&log, 1), 6, "group 1 was kept");
    assert_eq!(runs_of(&log, 2), before + 6, "group 2 ran again whole");
    assert_eq!(cells(&out), 6);
}

#[test]
fn a_torn_journal_tail_is_set_aside_reported_and_resumed() {
    for cut_inside_utf8 in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (log, out) = (dir.path().join("log"), dir.path().join("out"));
        let suite = logging_suite(dir.path(), &log, "0.01");
        let done = versus()
            .args(["run", "-q"])
            .arg(&suite)
            .arg("--out")
            .arg(&out)
            .status()
            .unwrap();
        assert_eq!(done.code(), Some(0));
        // Keep the first group whole and tear the second, as a crash mid-write would.
        let journal = out.join("cells.jsonl");
        let text = fs::read_to_string(&journal).unwrap();
        let keep: Vec<&str> = text.lines().take(2).collect();
        let mut torn = format!("{}\n{}", keep[0], &keep[1][..40]).into_bytes();
        if cut_inside_utf8 {
            // The cut falls inside a two-byte character.
            torn.extend_from_slice(&"é".as_bytes()[..1]);
        }
        fs::write(&journal, torn).unwrap();
        let resumed = versus()
            .args(["run", "-q"])
            .arg(&suite)
            .arg("--resume")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&resumed.stderr);
        assert_eq!(resumed.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains("cells.jsonl.torn"), "{stderr}");
        assert!(out.join("cells.jsonl.torn").is_file());
        assert_eq!(cells(&out), 6);
        let warnings = results(&out)["warnings"].to_string();
        assert!(warnings.contains("journal_repaired"), "{warnings}");
    }
}

#[test]
fn term_and_hup_stop_the_run_write_what_finished_and_leave_no_process() {
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129)] {
        let dir = tempfile::tempdir().unwrap();
        let (log, out) = (dir.path().join("log"), dir.path().join("out"));
        let suite = logging_suite(dir.path(), &log, "30");
        let mut child = start(&suite, &out, &[]);
        wait_for("a run under way", || runs_of(&log, 1) >= 1);
        signal(&child, sig);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code));
        assert_eq!(results(&out)["status"], "interrupted");
        wait_for("no process left", || marked(child.id()).is_empty());
    }
}

#[test]
fn kill_9_leaves_no_process_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("log"), dir.path().join("out"));
    let suite = logging_suite(dir.path(), &log, "30");
    let mut child = start(&suite, &out, &[]);
    wait_for("a run under way", || runs_of(&log, 1) >= 1);
    assert!(!marked(child.id()).is_empty());
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    wait_for("the guard to clear every process", || marked(child.id()).is_empty());
}

#[test]
fn code_that_fills_the_disk_is_an_outcome_and_the_run_goes_on() {
    let Some(fs_) = Tmpfs::mount("4m") else { return };
    let out = fs_.path().join("out");
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 2
        warmup = 0
        [operations.x]
        [implementations.filler]
        run.x = "head -c 50000000 /dev/zero"
        [implementations.fine]
        run.x = "echo fine"
        "#,
    );
    let run = versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    let r = results(&out);
    let cell = |imp: &str| {
        r["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["implementation"] == imp)
            .unwrap()
            .clone()
    };
    assert_eq!(cell("filler")["outcome"], "failed");
    assert!(cell("filler")["message"].as_str().unwrap().contains("No space left"));
    // Its output went to versus's own folder: the folder's fault, measured again on --resume.
    assert_eq!(cell("filler")["harness_fault"], "output_full");
    assert_eq!(cell("fine")["outcome"], "ok");
    assert!(cell("fine").get("harness_fault").is_none());
}

#[test]
fn a_full_journal_disk_names_the_journal_and_the_run_resumes_after() {
    let Some(fs_) = Tmpfs::mount("4m") else { return };
    let out = fs_.path().join("out");
    let filler = fs_.path().join("filler");
    let dir = tempfile::tempdir().unwrap();
    // Group n=2's run fills the disk outside versus's folder, so the
    // journal cannot take group 2.
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 1
            warmup = 0
            shell = true
            [matrix]
            n = [1, 2]
            [operations.x]
            output = "none"
            [implementations.a]
            run.x = "if [ {{n}} = 2 ]; then head -c 50000000 /dev/zero > {f} 2>/dev/null; fi; true"
            "#,
            f = filler.display()
        ),
    );
    let run = versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    // The journal (or, where its last page still had room, the results
    // file) could not be written: the message names which.
    let named = ["cells.jsonl", "results.json"].map(|f| out.join(f).display().to_string());
    assert!(named.iter().any(|n| stderr.contains(n.as_str())), "{stderr}");
    assert!(groups(&out.join("cells.jsonl")) >= 1, "group 1 kept");
    fs::remove_file(&filler).unwrap();
    let suite2 = fs::read_to_string(&suite)
        .unwrap()
        .replace("head -c 50000000", "head -c 1");
    fs::write(&suite, suite2).unwrap();
    let resumed = versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(resumed.code(), Some(0));
    assert_eq!(cells(&out), 2);
}

#[test]
fn a_journal_write_cut_short_by_a_full_disk_is_cut_back_to_its_last_whole_line() {
    let Some(fs_) = Tmpfs::mount("4m") else { return };
    let out = fs_.path().join("out");
    let filler = fs_.path().join("filler");
    let dir = tempfile::tempdir().unwrap();
    let once = dir.path().join("filled-once");
    // Group n=2's first run (once) fills the disk outside versus's folder. Its
    // line (150 runs of figures) is longer than a page, so the write gets
    // as far as the room left in the journal's last page and then fails:
    // part of the line reaches the file.
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 150
            warmup = 0
            shell = true
            [matrix]
            n = [1, 2]
            [operations.x]
            output = "none"
            [implementations.a]
            run.x = "if [ {{n}} = 2 ] && [ ! -e {once} ]; then touch {once}; head -c 50000000 /dev/zero > {f} 2>/dev/null; fi; true"
            "#,
            f = filler.display(),
            once = once.display()
        ),
    );
    let run = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cells.jsonl") && stderr.contains("cut off"), "{stderr}");
    let journal = fs::read(out.join("cells.jsonl")).unwrap();
    assert_eq!(journal.last(), Some(&b'\n'), "the journal ends inside a line");
    for line in journal.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        serde_json::from_slice::<Value>(line).expect("every line of the journal is whole");
    }
    fs::remove_file(&filler).unwrap();
    let resumed = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        resumed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(!out.join("cells.jsonl.torn").exists(), "nothing was left to set aside");
    assert_eq!(cells(&out), 2);
}

/// A results fixture with one value replaced.
fn lying_results(dir: &Path, pointer: &str, value: Value) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results/sha256.json");
    let mut r: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    *r.pointer_mut(pointer).unwrap() = value;
    write(dir, "lying.json", &r.to_string())
}

#[test]
fn results_that_lie_are_refused_naming_the_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    for (pointer, value, field) in [
        ("/cells/0/stats/median_ns", serde_json::json!(0.0), "median_ns"),
        ("/cells/0/stats/median_ns", serde_json::json!(5e-324), "median_ns"),
        ("/comparisons/1/ci_high", serde_json::json!(1e300), "ci_high"),
        ("/analysis/confidence", serde_json::json!(95), "confidence"),
        (
            "/analysis/bootstrap_resamples",
            serde_json::json!(4_000_000_000u64),
            "bootstrap_resamples",
        ),
    ] {
        let bad = lying_results(dir.path(), pointer, value);
        for args in [vec!["report", "--html", "/dev/null"], vec!["diff"]] {
            let mut cmd = versus();
            cmd.arg(args[0]).arg(&bad);
            if args[0] == "diff" {
                cmd.arg(&bad);
            } else {
                cmd.args(&args[1..]);
            }
            let o = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{pointer}: {stderr}");
            assert!(
                stderr.contains("lying.json") && stderr.contains(field),
                "{pointer}: {stderr}"
            );
        }
    }
}

#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    use std::io::Read;
    let mut child = versus()
        .arg("schema")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's reading end is closed here, as `| head` does.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// This process's memory cgroup folder, where versus makes its own.
fn memory_cgroup() -> Option<PathBuf> {
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    own.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let base = match controllers {
            "" => PathBuf::from("/sys/fs/cgroup"),
            c if c.split(',').any(|x| x == "memory") => PathBuf::from("/sys/fs/cgroup/memory"),
            _ => return None,
        };
        Some(base.join(path.trim_start_matches('/'))).filter(|p| p.is_dir())
    })
}

#[test]
fn memory_limits_leave_no_cgroup_behind() {
    let Some(cgroup) = memory_cgroup() else {
        eprintln!("skipped: no memory cgroup here");
        return;
    };
    let ours = || -> Vec<String> {
        fs::read_dir(&cgroup)
            .map(|d| {
                d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|n| n.starts_with("versus-"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let before = ours();
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "s.toml",
        "[settings]\nruns = 2\nwarmup = 1\n[operations.x]\noutput = \"none\"\n[implementations.a]\nmemory_limit = \"100MB\"\nrun.x = \"true\"\n",
    );
    let run = versus()
        .args(["run", "-q"])
        .arg(&suite)
        .arg("--out")
        .arg(dir.path().join("out"))
        .status()
        .unwrap();
    assert_eq!(run.code(), Some(0));
    let left: Vec<String> = ours().into_iter().filter(|n| !before.contains(n)).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
