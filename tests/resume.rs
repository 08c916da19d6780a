//! What a run leaves behind, read back and resumed, with the real binary and
//! real processes: `versus report DIR` on a run killed with `kill -9` (from
//! its journal, nothing measured, nothing changed), `--resume` measuring
//! again the cells that failed for versus's own reasons (its output disk
//! full, no process to be had) while the code's own failures stay, and a
//! soak: one suite killed with SIGKILL at random moments and resumed until
//! done, every group measured exactly once. Waits are bounded and poll for a
//! state; nothing asserts how long anything took.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
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

/// SIGKILL at random moments, 20 times, resuming after each, then to the
/// end: every group is recorded exactly once and the final results hold
/// every cell once, each group's cells measured side by side.
#[test]
fn a_suite_killed_at_random_20_times_and_resumed_ends_with_every_group_measured_once() {
    // A group takes at least 60 ms (3 runs of `sleep 0.02`), so a kill comes
    // at most 2 groups after the last one (see below): 20 kills leave work
    // for the last resume.
    const GROUPS: usize = 48;
    const KILLS: usize = 20;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let suite = write(
        dir.path(),
        "s.toml",
        &format!(
            r#"
            [settings]
            runs = 2
            warmup = 1
            [matrix]
            n = {:?}
            [operations.x]
            output = "none"
            [implementations.quick]
            run.x = "true"
            [implementations.sleepy]
            run.x = "sleep 0.02"
            "#,
            (1..=GROUPS).collect::<Vec<_>>()
        ),
    );
    let seed: u64 = std::env::var("VERSUS_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap();
            now.as_nanos() as u64 ^ u64::from(std::process::id())
        });
    eprintln!("soak seed {seed} (VERSUS_SOAK_SEED={seed} repeats it)");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
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
        // A random moment: after 0 or 1 more group is recorded (so the run
        // makes progress), then 0 to 60 ms more — at start-up, mid-group,
        // mid-write.
        let target = group_lines(&journal) + rng.random_range(0..=1);
        let delay = Duration::from_millis(rng.random_range(0..=60));
        let start = Instant::now();
        while group_lines(&journal) < target && start.elapsed() < Duration::from_secs(30) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(delay);
        assert!(
            child.try_wait().unwrap().is_none(),
            "kill {k}: the run ended by itself (seed {seed})"
        );
        kill_9(&mut child);
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
        // Killed before it made its output folder (a loaded machine starts slowly): nothing to render.
        let nothing_yet = !out.exists() && o.status.code() == Some(1);
        assert!(
            o.status.code() == Some(0) || stderr.contains("no group is recorded") || nothing_yet,
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
    assert!(
        twice.is_empty(),
        "groups recorded more than once: {twice:?} (seed {seed})"
    );
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
