//! What a run leaves behind, read back and resumed, with the real binary and
//! real processes: `versus report DIR` on a run killed with `kill -9` (from
//! its journal, nothing measured, nothing changed), `--resume` measuring
//! again the cells that failed for versus's own reasons (its output disk
//! full, no process to be had) while the code's own failures stay, and a
//! soak: one suite killed with SIGKILL at 20 moments and resumed until
//! done, every group measured exactly once. Waits are bounded and poll for a
//! state; nothing asserts how long anything took.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;
use common::{PidsCgroup, Tmpfs};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("versus")
}

fn versus() -> Command {
    let mut c = Command::new(bin());
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
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .map(|t| t.lines().map(String::from).collect())
        .unwrap_or_default()
}

/// Group lines of a journal (its run headers left out).
fn group_lines(journal: &Path) -> usize {
    lines(journal)
        .iter()
        .filter(|l| l.starts_with(r#"{"type":"group""#))
        .count()
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

fn cell<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["cells"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap()
}

fn kill_9(child: &mut Child) {
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    child.wait().unwrap();
}

/// Whether any process's command line names `path` (a run's command that
/// writes to it, still alive).
fn running_with(path: &Path) -> bool {
    let needle = path.to_string_lossy().into_owned();
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .any(|e| fs::read(e.path().join("cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(&needle)))
}

fn run(suite: &Path, out: &Path) -> Command {
    let mut c = versus();
    c.args(["run", "-q", "--no-history"]).arg(suite).arg("--out").arg(out);
    c
}

fn resume(suite: &Path, out: &Path) -> Output {
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(suite)
        .arg("--resume")
        .arg(out)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Three groups (n = 1, 2, 3) of two implementations; every run logs
/// "<impl> <n>" to `log` and then sleeps `secs`.
fn logging_suite(dir: &Path, log: &Path, secs: &str) -> PathBuf {
    write(
        dir,
        "s.toml",
        &format!(
            r#"
            name = "logged"
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

#[test]
fn report_renders_a_killed_run_from_its_journal_without_measuring_or_changing_it() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("log"), dir.path().join("out"));
    let suite = logging_suite(dir.path(), &log, "0.05");
    let mut child = run(&suite, &out).spawn().unwrap();
    let journal = out.join("cells.jsonl");
    wait_for("the first group in the journal", || group_lines(&journal) == 1);
    kill_9(&mut child);
    assert!(!out.join("results.json").exists());
    // A write cut short by the kill: a torn tail.
    let mut bytes = fs::read(&journal).unwrap();
    bytes.extend_from_slice(br#"{"type":"group","data":[{"id":"x/a/n=2","#);
    fs::write(&journal, &bytes).unwrap();
    // The killed run's last command may still be starting: counted once it is gone.
    wait_for("the killed run's commands to end", || !running_with(&log));
    let runs_before = lines(&log).len();

    let o = versus().arg("report").arg(&out).output().unwrap();
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("cells.jsonl") && stderr.contains("1 group(s)"),
        "{stderr}"
    );
    assert!(stderr.contains("could not be read"), "the torn tail is named: {stderr}");
    // The summary at the terminal; the report files in the folder, saying what they are.
    assert!(
        stdout.contains("== Headline ==") && stdout.contains("report.md"),
        "{stdout}"
    );
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("interrupted") && md.contains("rendered from the journal"),
        "{md}"
    );
    assert!(out.join("report.html").is_file());
    assert_eq!(lines(&log).len(), runs_before, "report measured something");
    assert_eq!(fs::read(&journal).unwrap(), bytes, "report changed the journal");
    assert!(!out.join("cells.jsonl.torn").exists());
    assert!(!out.join("results.json").exists());

    // The journal itself can be given, with outputs of one's choosing.
    let md2 = dir.path().join("from-journal.md");
    let o = versus()
        .arg("report")
        .arg(&journal)
        .arg("--markdown")
        .arg(&md2)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        fs::read_to_string(&md2).unwrap().contains("logged"),
        "the suite's name, from the journal's header"
    );

    // A file that is neither says what to pass.
    let o = versus()
        .arg("report")
        .arg(dir.path().join("log"))
        .arg("--html")
        .arg("/dev/null")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = versus().arg("report").arg(dir.path()).output().unwrap();
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr.contains("results.json") && stderr.contains("cells.jsonl"),
        "{stderr}"
    );
}

#[test]
fn report_prefers_a_journal_newer_than_the_results_file() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("log"), dir.path().join("out"));
    let suite = logging_suite(dir.path(), &log, "0.05");
    let journal = out.join("cells.jsonl");
    // TERM after group 1: results.json holds group 1.
    let mut child = run(&suite, &out).spawn().unwrap();
    wait_for("the first group in the journal", || group_lines(&journal) == 1);
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    child.wait().unwrap();
    assert_eq!(results(&out)["cells"].as_array().unwrap().len(), 2);
    // A resume killed after group 2: results.json is now older than the journal.
    let mut child = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .spawn()
        .unwrap();
    wait_for("the second group in the journal", || group_lines(&journal) == 2);
    kill_9(&mut child);
    let md = dir.path().join("r.md");
    let o = versus()
        .arg("report")
        .arg(&out)
        .arg("--markdown")
        .arg(&md)
        .output()
        .unwrap();
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("older") && stderr.contains("2 group(s)"), "{stderr}");
    // A finished run renders from its results file, silently.
    let o = resume(&suite, &out);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = versus()
        .arg("report")
        .arg(&out)
        .arg("--markdown")
        .arg(&md)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(!text(&o.stderr).contains("journal"), "{}", text(&o.stderr));
}

#[test]
fn resume_measures_again_what_a_full_output_disk_failed_and_keeps_the_codes_own_failures() {
    let Some(disk) = Tmpfs::mount("4m") else { return };
    let out = disk.path().join("out");
    let dir = tempfile::tempdir().unwrap();
    let (size, log) = (dir.path().join("size"), dir.path().join("log"));
    fs::write(&size, "50000000").unwrap();
    // At n=1, a's output (captured in versus's folder) is more than the disk
    // holds; at n=2, b fails by itself.
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
            [implementations.a]
            run.x = "echo a {{n}} >> {log}; if [ {{n}} = 1 ]; then head -c $(cat {size}) /dev/zero; else echo ok; fi"
            [implementations.b]
            run.x = "echo b {{n}} >> {log}; if [ {{n}} = 2 ]; then exit 1; fi; echo ok"
            "#,
            log = log.display(),
            size = size.display()
        ),
    );
    let o = run(&suite, &out).output().unwrap();
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    let r = results(&out);
    assert_eq!(cell(&r, "x/a/n=1")["harness_fault"], "output_full");
    assert_eq!(cell(&r, "x/b/n=2")["outcome"], "failed");
    assert!(cell(&r, "x/b/n=2").get("harness_fault").is_none());
    assert!(
        stderr.contains("--resume"),
        "the end says how to measure it again: {stderr}"
    );

    // Space is there now (the output is small): the resume measures group n=1 again, and only it.
    fs::write(&size, "1000").unwrap();
    let b_failures = lines(&log).iter().filter(|l| *l == "b 2").count();
    let o = resume(&suite, &out);
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "b's own failure stays: {stderr}");
    assert!(
        stderr.contains("measuring again 1 group(s)") && stderr.contains("x/a/n=1"),
        "{stderr}"
    );
    let r = results(&out);
    assert_eq!(cell(&r, "x/a/n=1")["outcome"], "ok");
    assert!(cell(&r, "x/a/n=1").get("harness_fault").is_none());
    assert_eq!(cell(&r, "x/b/n=2")["outcome"], "failed");
    assert_eq!(
        lines(&log).iter().filter(|l| *l == "b 2").count(),
        b_failures,
        "the code's own failure was run again"
    );
    assert!(r["warnings"].to_string().contains("measured_again"));
}

#[test]
fn resume_measures_again_what_versus_could_not_start() {
    let Some(cgroup) = PidsCgroup::create() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (log, out, marker) = (
        dir.path().join("log"),
        dir.path().join("out"),
        dir.path().join("marker"),
    );
    // a's warm-up at n=2 (once) lowers the cgroup's process limit to 1,
    // below what is running: from then on versus can start no process, in
    // its spawn helper (warm-up) or itself (measured runs).
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 1
            warmup = 1
            shell = true
            [matrix]
            n = [1, 2, 3]
            [operations.x]
            output = "none"
            [implementations.a]
            run.x = "if [ {{n}} = 2 ] && [ ! -e {marker} ]; then touch {marker}; echo 1 > {max}; fi; echo a {{n}} >> {log}"
            [implementations.b]
            run.x = "echo b {{n}} >> {log}"
            "#,
            marker = marker.display(),
            max = cgroup.pids_max().display(),
            log = log.display()
        ),
    );
    let o = cgroup
        .command(&bin())
        .env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"))
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    let r = results(&out);
    for id in ["x/a/n=1", "x/b/n=1"] {
        assert_eq!(cell(&r, id)["outcome"], "ok", "{id}");
    }
    for id in ["x/b/n=2", "x/a/n=3", "x/b/n=3"] {
        assert_eq!(cell(&r, id)["outcome"], "failed", "{id}");
        assert_eq!(
            cell(&r, id)["harness_fault"],
            "cannot_start",
            "{id}: {}",
            cell(&r, id)["message"]
        );
    }

    fs::write(cgroup.pids_max(), "max").unwrap();
    let before = lines(&log).len();
    let o = resume(&suite, &out);
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("measuring again 2 group(s)"), "{stderr}");
    let r = results(&out);
    assert!(r["cells"].as_array().unwrap().iter().all(|c| c["outcome"] == "ok"));
    // Group n=1 was kept: only groups 2 and 3 ran (2 implementations x 2 runs each).
    assert_eq!(lines(&log).len(), before + 8);
}

/// Every group of a journal, by key, with how many whole lines record it.
fn recorded_groups(journal: &Path) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for line in lines(journal) {
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if v["type"] != "group" {
            continue;
        }
        let first = &v["data"][0];
        let key = format!("{}/{}", first["operation"], first["params"]);
        *out.entry(key).or_insert(0) += 1;
    }
    out
}

/// SIGKILL at 20 moments, resuming after each, then to the end: every group
/// is recorded exactly once and the final results hold every cell once,
/// each group's cells measured side by side. The moments are a fixed
/// schedule, not a random one: the first kill comes before any group is
/// recorded (every run waits on a gate the test opens only after it), the
/// others after 0 or 1 more group plus 0 to 60 ms — at start-up, mid-group,
/// mid-write, wherever that lands on this machine; every landing must pass.
#[test]
fn a_suite_killed_20_times_and_resumed_ends_with_every_group_measured_once() {
    // A group takes at least 60 ms (3 runs of `sleep 0.02`), so a kill comes
    // at most 2 groups after the last one (see below): 20 kills leave work
    // for the last resume.
    const GROUPS: usize = 48;
    const KILLS: usize = 20;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let gate = dir.path().join("gate");
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 2
            warmup = 1
            shell = true
            [matrix]
            n = {:?}
            [operations.x]
            output = "none"
            [implementations.quick]
            run.x = "true"
            [implementations.sleepy]
            run.x = "while [ ! -e '{}' ]; do sleep 0.01; done; sleep 0.02"
            "#,
            (1..=GROUPS).collect::<Vec<_>>(),
            gate.display()
        ),
    );
    let journal = out.join("cells.jsonl");
    let mut pids = Vec::new();
    let mut progress = Vec::new();
    for k in 0..KILLS {
        let recorded_before = group_lines(&journal);
        let mut child = if k == 0 {
            run(&suite, &out).spawn().unwrap()
        } else {
            versus()
                .args(["run", "-q", "--no-history"])
                .arg(&suite)
                .arg("--resume")
                .arg(&out)
                .spawn()
                .unwrap()
        };
        pids.push(child.id());
        if k == 0 {
            // The run has begun its journal and cannot finish a group: the gate is shut.
            wait_for("the journal's header", || lines(&journal).len() == 1);
        } else {
            let target = group_lines(&journal) + k % 2;
            let delay = Duration::from_millis((k as u64 * 37) % 61);
            let start = Instant::now();
            while group_lines(&journal) < target && start.elapsed() < Duration::from_secs(30) {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            std::thread::sleep(delay);
        }
        assert!(child.try_wait().unwrap().is_none(), "kill {k}: the run ended by itself");
        kill_9(&mut child);
        if k == 0 {
            assert_eq!(group_lines(&journal), 0, "killed before its first group");
            fs::write(&gate, "").unwrap();
        }
        progress.push(group_lines(&journal).saturating_sub(recorded_before));
        // Whatever was recorded so far can be rendered (or there is nothing yet).
        let o = versus()
            .arg("report")
            .arg(&out)
            .arg("--markdown")
            .arg(dir.path().join("interim.md"))
            .output()
            .unwrap();
        let stderr = text(&o.stderr);
        assert!(
            o.status.code() == Some(0) || stderr.contains("no group is recorded"),
            "kill {k}: {stderr}"
        );
    }
    let last = resume(&suite, &out);
    assert_eq!(last.status.code(), Some(0), "{}", text(&last.stderr));
    let torn = fs::metadata(out.join("cells.jsonl.torn")).map_or(0, |m| m.len());
    eprintln!("groups recorded between kills: {progress:?}; torn bytes set aside: {torn}");

    let recorded = recorded_groups(&journal);
    assert_eq!(recorded.len(), GROUPS, "every group is in the journal");
    let twice: Vec<_> = recorded.iter().filter(|(_, n)| **n != 1).collect();
    assert!(twice.is_empty(), "groups recorded more than once: {twice:?}");
    let r = results(&out);
    assert_eq!(r["status"], "complete");
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2 * GROUPS);
    let mut started: HashMap<String, Vec<String>> = HashMap::new();
    for c in cells {
        assert_eq!(c["outcome"], "ok", "{}", c["id"]);
        assert_eq!(c["samples"]["wall_ns"].as_array().unwrap().len(), 2, "{}", c["id"]);
        started
            .entry(c["params"].to_string())
            .or_default()
            .push(c["started_at"].as_str().unwrap().to_string());
    }
    for (params, starts) in &started {
        assert!(
            starts.windows(2).all(|w| w[0] == w[1]),
            "{params}: cells from different runs {starts:?}"
        );
    }
    for pid in pids {
        let mark = format!("{}={pid}", versus::exec::guard::MARK);
        wait_for("no process left by a killed run", || {
            versus::exec::guard::marked_processes(&mark).is_empty()
        });
    }
}

/// A run stopped before it recorded a group left a folder with no journal,
/// or a journal with only its header: `--resume` measures the whole suite.
/// A folder that does not exist is refused, naming it.
#[test]
fn resume_of_a_folder_with_no_group_recorded_runs_the_suite_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let suite = logging_suite(dir.path(), &log, "0");
    // The journal only: the header of a run killed before its first group.
    let first = dir.path().join("first");
    let o = run(&suite, &first).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let header = lines(&first.join("cells.jsonl")).remove(0);
    let headed = dir.path().join("headed");
    fs::create_dir(&headed).unwrap();
    fs::write(headed.join("cells.jsonl"), header + "\n").unwrap();
    // No journal at all: an empty folder.
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    for out in [&headed, &empty] {
        let o = resume(&suite, out);
        assert_eq!(o.status.code(), Some(0), "{}: {}", out.display(), text(&o.stderr));
        assert!(text(&o.stderr).contains("no group is recorded"), "{}", text(&o.stderr));
        let r = results(out);
        assert_eq!(r["status"], "complete");
        assert_eq!(r["cells"].as_array().unwrap().len(), 6, "{}", out.display());
        assert_eq!(recorded_groups(&out.join("cells.jsonl")).len(), 3);
    }
    let missing = dir.path().join("missing");
    let o = resume(&suite, &missing);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(&format!("--resume {}: no such folder", missing.display())),
        "{}",
        text(&o.stderr)
    );
    assert!(!missing.exists());
}

/// A PostgreSQL address that accepts and never answers: a run that records
/// into it waits there, after measuring and analysing, until it is stopped.
struct SilentStore {
    listener: std::net::TcpListener,
    held: Vec<std::net::TcpStream>,
}

impl SilentStore {
    fn new() -> SilentStore {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        SilentStore { listener, held: vec![] }
    }

    fn url(&self) -> String {
        let port = self.listener.local_addr().unwrap().port();
        format!("postgres://versus@127.0.0.1:{port}/runs?connect_timeout=600&sslmode=disable")
    }

    /// Whether versus has connected (and is now waiting for an answer).
    fn connected(&mut self) -> bool {
        if let Ok((stream, _)) = self.listener.accept() {
            self.held.push(stream);
        }
        !self.held.is_empty()
    }
}

/// Waits for `child` to end, up to a generous bound; its status.
fn ended(child: &mut Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{what}: still running a minute after the signal");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What a signal after measuring must leave: the status it names, the
/// farewell naming the journal, the journal as it was, no half-written file
/// in the folder, no process, and a folder `versus report` renders.
fn assert_ended_at_once(child: Child, out: &Path, journal_before: &[u8], signal: i32) {
    let pid = child.id();
    let output = child.wait_with_output().unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(128 + signal), "{stderr}");
    assert!(
        stderr.contains("interrupted while analysing and writing the results: every finished group is in"),
        "{stderr}"
    );
    assert!(
        fs::read(out.join("cells.jsonl")).unwrap() == journal_before,
        "the journal is untouched"
    );
    let partial: Vec<String> = fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(partial.is_empty(), "half-written files left: {partial:?}");
    let mark = format!("{}={pid}", versus::exec::guard::MARK);
    wait_for("no process left", || {
        versus::exec::guard::marked_processes(&mark).is_empty()
    });
    let o = versus().arg("report").arg(out).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// TERM once measuring is over (here, while versus waits for its store)
/// ends versus at once, where it used to be honoured only between runs.
#[test]
fn term_after_measuring_ends_versus_at_once_and_the_journal_keeps_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (log, out) = (dir.path().join("log"), dir.path().join("out"));
    let suite = logging_suite(dir.path(), &log, "0");
    let mut store = SilentStore::new();
    let mut child = versus()
        .args(["run", "-q", "--store", &store.url()])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("versus at its store", || store.connected());
    let journal = fs::read(out.join("cells.jsonl")).unwrap();
    assert_eq!(recorded_groups(&out.join("cells.jsonl")).len(), 3);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    ended(&mut child, "TERM at the store");
    assert_ended_at_once(child, &out, &journal, libc::SIGTERM);
}

/// The journal of `out` with each cell's runs repeated to `runs` (times
/// spread a little), its statistics dropped: a cell of many runs, recorded
/// as a run records it, without measuring them.
fn inflate(journal: &Path, runs: usize) {
    fn grow(v: &mut Value, from: usize, runs: usize) {
        match v {
            Value::Array(a) if a.len() == from => *a = (0..runs).map(|i| a[i % from].clone()).collect(),
            Value::Object(o) => o.values_mut().for_each(|x| grow(x, from, runs)),
            _ => {}
        }
    }
    let mut out = String::new();
    for line in lines(journal) {
        let mut g: Value = serde_json::from_str(&line).unwrap();
        if g["type"] == "group" {
            for c in g["data"].as_array_mut().unwrap() {
                let from = c["samples"]["wall_ns"].as_array().unwrap().len();
                grow(&mut c["samples"], from, runs);
                for (i, w) in c["samples"]["wall_ns"].as_array_mut().unwrap().iter_mut().enumerate() {
                    *w = Value::from(w.as_u64().unwrap() + (i % 997) as u64 * 100);
                }
                c["stats"] = Value::Null;
            }
        }
        out.push_str(&serde_json::to_string(&g).unwrap());
        out.push('\n');
    }
    fs::write(journal, out).unwrap();
}

/// TERM while a cell of 300,000 runs is analysed: versus says it is
/// analysing, and the signal ends it at once with the journal as it was.
/// (The store beside it never answers, so the signal lands after measuring
/// whatever this machine's speed: during the analysis, the writing, or the
/// wait for the store; each must end versus at once.)
#[test]
fn term_while_a_large_cell_is_analysed_ends_versus_at_once() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let suite = write(
        dir.path(),
        "s.toml",
        r#"
        [settings]
        runs = 3
        warmup = 0
        [operations.x]
        output = "none"
        [implementations.a]
        run.x = "true"
        [implementations.b]
        run.x = "true"
        "#,
    );
    let o = run(&suite, &out).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for f in ["results.json", "report.md", "report.html"] {
        fs::remove_file(out.join(f)).unwrap();
    }
    inflate(&out.join("cells.jsonl"), 300_000);
    let journal = fs::read(out.join("cells.jsonl")).unwrap();
    let store = SilentStore::new();
    let mut child = versus()
        .args(["run", "--store", &store.url()])
        .arg(&suite)
        .arg("--resume")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("analysing 600000 runs of 2 cells") {
        let mut line = String::new();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "ended before analysing: {said}"
        );
        said.push_str(&line);
    }
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = ended(&mut child, "TERM while analysing");
    assert_eq!(status.code(), Some(143), "{said}{rest}");
    assert!(rest.contains("interrupted while analysing"), "{rest}");
    let after = fs::read(out.join("cells.jsonl")).unwrap();
    // The resumed run added its header line, nothing else.
    assert!(after.starts_with(&journal), "the journal keeps what it held");
    assert_eq!(
        lines(&out.join("cells.jsonl")).len(),
        3,
        "two run headers and the group"
    );
    let partial = fs::read_dir(&out)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".partial"))
        .count();
    assert_eq!(partial, 0, "no half-written file");
    let o = versus().arg("report").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    drop(store);
}
