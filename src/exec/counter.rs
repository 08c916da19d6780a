//! Counting instructions: the figure a busy machine cannot move.
//!
//! Where the machine has hardware performance counters, `perf stat -e
//! instructions:u` counts a run's user-space instructions (the whole process
//! tree: perf follows children) at almost no cost. Where it has none (most
//! virtual machines and CI runners), valgrind counts them by running the
//! program on its synthetic CPU: a process run under Cachegrind without cache
//! simulation (`--cache-sim=no`, the faster of valgrind's two counting
//! tools here: see docs/results/instructions.md), children followed
//! (`--trace-children=yes`), each process writing its own total; an
//! in-process worker under Callgrind, whose counters the core reads between
//! batches through valgrind's gdbserver (`vgdb … status internal`), a
//! method that needs nothing of the worker and so serves every language.
//!
//! Every counted process starts with address-space randomisation off
//! (`personality(ADDR_NO_RANDOMIZE)`, as `setarch -R` does) and with the
//! seeds that would otherwise differ run to run fixed where a runtime reads
//! them from the environment: `PYTHONHASHSEED=0` (CodSpeed's runner sets the
//! same), `GODEBUG=asyncpreemptoff=1`, without which Go's preemption
//! signals crash Callgrind and make counts depend on timing, and
//! `GOMAXPROCS=1`: valgrind runs one thread at a time anyway, and Go's idle
//! processors spin looking for work for as long as a batch takes, adding
//! instructions that depend on time (docs/results/instructions.md). A
//! suite's own setting of any wins.
//!
//! What valgrind counts is not always what production runs: its CPU offers
//! no AVX-512 or SHA extensions, so libraries that pick a code path by CPU
//! feature take another one, and a JIT compiles (in background threads whose
//! instructions are counted) at a different moment. docs/results/instructions.md
//! states the limits per language.
use std::path::{Path, PathBuf};

use super::contract::RunRequest;
use crate::base::child;
use crate::suite::CounterChoice;

/// The hardware event `perf` counts.
pub(super) const PERF_EVENT: &str = "instructions:u";

/// How this machine counts instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Counter {
    /// Hardware counters through `perf stat` (process cells), with valgrind
    /// for in-process workers when it is installed (`valgrind` is its version).
    Perf { program: String, valgrind: Option<String> },
    /// valgrind, of this version ("3.19.0").
    Valgrind { version: String },
}

/// The count of `perf stat -x,` output (its CSV lines): the sum of its
/// instruction lines, `None` when one is not a number (a machine without
/// hardware counters says "<not supported>") or there is none.
pub(super) fn perf_counts(csv: &str) -> Option<u64> {
    let mut total = None;
    for line in csv.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.get(2).is_some_and(|e| e.starts_with("instructions")) {
            let v: u64 = fields[0].trim().parse().ok()?;
            total = Some(total.unwrap_or(0) + v);
        }
    }
    total
}

/// The version valgrind reports ("3.19.0"), if it runs.
fn valgrind_version() -> Option<String> {
    let out = child::command("valgrind").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v = text.trim().trim_start_matches("valgrind-").to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// Whether `perf` counts `PERF_EVENT` here: a `perf stat` of `true` that
/// gives a number (a machine without hardware counters says
/// "<not supported>").
fn perf_works(program: &str) -> bool {
    let out = child::command(program)
        .args(["stat", "-x,", "-e", PERF_EVENT, "--", "true"])
        .output();
    out.is_ok_and(|o| o.status.success() && perf_counts(&String::from_utf8_lossy(&o.stderr)).is_some())
}

impl Counter {
    /// The counter `choice` asks for on this machine, or why there is none.
    pub(crate) fn detect(choice: CounterChoice) -> Result<Counter, String> {
        let valgrind = valgrind_version();
        let perf = (choice != CounterChoice::Valgrind && perf_works("perf")).then(|| "perf".to_string());
        match (perf, valgrind) {
            (Some(program), valgrind) => Ok(Counter::Perf { program, valgrind }),
            (None, _) if choice == CounterChoice::Perf => Err(format!(
                "`perf stat -e {PERF_EVENT}` counts nothing on this machine (no hardware counters, or perf is missing): use counter = \"valgrind\" or \"auto\""
            )),
            (None, Some(version)) => Ok(Counter::Valgrind { version }),
            (None, None) => Err(format!(
                "no instruction counter: valgrind is not installed (apt-get install valgrind) and `perf stat -e {PERF_EVENT}` counts nothing here"
            )),
        }
    }

    /// What counts a process run: "perf instructions:u", "valgrind-cachegrind 3.19.0".
    pub(crate) fn process_name(&self) -> String {
        match self {
            Counter::Perf { .. } => format!("perf {PERF_EVENT}"),
            Counter::Valgrind { version } => format!("valgrind-cachegrind {version}"),
        }
    }

    /// What counts an in-process worker's batches; `None` without valgrind.
    pub(crate) fn worker_name(&self) -> Option<String> {
        match self {
            Counter::Perf { valgrind, .. } => valgrind.as_ref().map(|v| format!("valgrind-callgrind {v}")),
            Counter::Valgrind { version } => Some(format!("valgrind-callgrind {version}")),
        }
    }

    /// `req` as a counted run whose count goes to `scratch` (emptied first):
    /// the command under the counter, the layout fixed, the seeds set.
    pub(crate) fn wrap(&self, req: &RunRequest, scratch: &Path) -> std::io::Result<RunRequest> {
        reset(scratch)?;
        let mut argv: Vec<String> = match self {
            Counter::Perf { program, .. } => vec![
                program.clone(),
                "stat".into(),
                "-x,".into(),
                "-e".into(),
                PERF_EVENT.into(),
                "-o".into(),
                scratch.join("perf.csv").display().to_string(),
                "--".into(),
            ],
            Counter::Valgrind { .. } => vec![
                "valgrind".into(),
                "--tool=cachegrind".into(),
                "--cache-sim=no".into(),
                "--branch-sim=no".into(),
                "--trace-children=yes".into(),
                format!("--cachegrind-out-file={}", scratch.join("count.%p").display()),
                format!("--log-file={}", scratch.join("valgrind.%p.log").display()),
            ],
        };
        argv.extend(req.argv.iter().cloned());
        Ok(RunRequest {
            argv,
            env: fixed_env(&req.env),
            fixed_layout: true,
            exact_memory: false,
            ..req.clone()
        })
    }

    /// The instructions of the run `wrap` made with `scratch`, once it ended.
    pub(crate) fn read(&self, scratch: &Path) -> Result<u64, String> {
        match self {
            Counter::Perf { .. } => {
                let path = scratch.join("perf.csv");
                let text = std::fs::read_to_string(&path).map_err(|e| format!("perf wrote no counts: {e}"))?;
                perf_counts(&text).ok_or_else(|| format!("perf counted nothing: {}", text.trim()))
            }
            Counter::Valgrind { .. } => cachegrind_total(scratch),
        }
    }
}

/// Empties (or makes) a run's scratch folder.
fn reset(scratch: &Path) -> std::io::Result<()> {
    if scratch.exists() {
        std::fs::remove_dir_all(scratch)?;
    }
    std::fs::create_dir_all(scratch)
}

/// The sum of the `summary:` lines of every Cachegrind output in `scratch`:
/// one per process of the tree (a process that replaced itself by `exec`
/// keeps only its last program's count: valgrind writes none at `exec`).
pub(super) fn cachegrind_total(scratch: &Path) -> Result<u64, String> {
    let mut total = 0u64;
    let mut files = 0;
    let entries = std::fs::read_dir(scratch).map_err(|e| format!("cannot read {}: {e}", scratch.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !name.starts_with("count.") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).map_err(|e| format!("cannot read {name}: {e}"))?;
        let summary = text
            .lines()
            .find_map(|l| l.strip_prefix("summary:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .ok_or_else(|| format!("{name} holds no summary: the process did not finish under valgrind"))?;
        total += summary;
        files += 1;
    }
    if files == 0 {
        return Err(format!("valgrind wrote no counts{}", log_tail(scratch)));
    }
    Ok(total)
}

/// The last lines valgrind logged in `scratch`, for a message.
pub(crate) fn log_tail(scratch: &Path) -> String {
    let Ok(entries) = std::fs::read_dir(scratch) else {
        return String::new();
    };
    let text: String = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split_once("== ").map_or(l, |(_, rest)| rest).trim())
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(": {}", lines[lines.len().saturating_sub(3)..].join(" / "))
}

/// The seeds a counted process gets, unless `env` (the suite's) or versus's
/// own environment sets them.
pub(super) fn fixed_env(env: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = env.to_vec();
    for (k, v) in [
        ("PYTHONHASHSEED", "0"),
        ("GODEBUG", "asyncpreemptoff=1"),
        ("GOMAXPROCS", "1"),
    ] {
        if !env.iter().any(|(e, _)| e == k) && std::env::var_os(k).is_none() {
            out.push((k.into(), v.into()));
        }
    }
    out
}

/// A worker under Callgrind: its command, the folder its gdbserver's pipes
/// go to, and how to read its counters.
pub(crate) struct CountedWorker {
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    scratch: PathBuf,
}

impl CountedWorker {
    /// `argv` under Callgrind, collecting nothing to disk; its pipes and log in `scratch`.
    pub(crate) fn new(argv: &[String], env: &[(String, String)], scratch: &Path) -> std::io::Result<CountedWorker> {
        reset(scratch)?;
        let mut wrapped: Vec<String> = vec![
            "valgrind".into(),
            "--tool=callgrind".into(),
            "--callgrind-out-file=/dev/null".into(),
            "--vgdb=yes".into(),
            // Followed through `exec` (a launcher script, a version manager's
            // shim), so the worker itself runs under Callgrind, with its pid.
            "--trace-children=yes".into(),
            format!("--vgdb-prefix={}", scratch.join("vgdb").display()),
            format!("--log-file={}", scratch.join("valgrind.%p.log").display()),
        ];
        wrapped.extend(argv.iter().cloned());
        Ok(CountedWorker {
            argv: wrapped,
            env: fixed_env(env),
            scratch: scratch.to_path_buf(),
        })
    }

    /// The instructions every thread of the worker (`pid`) has executed
    /// since it started, by thread: `status internal` through vgdb. Reading
    /// adds no instruction to the worker's count.
    pub(crate) fn read(&self, pid: u32) -> Result<Vec<(u32, u64)>, String> {
        let out = child::command("vgdb")
            .arg(format!("--vgdb-prefix={}", self.scratch.join("vgdb").display()))
            .arg(format!("--pid={pid}"))
            .args(["status", "internal"])
            .output()
            .map_err(|e| format!("cannot run vgdb: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let threads = thread_events(&text);
        if threads.is_empty() {
            return Err(format!(
                "vgdb read no counters: {}{}",
                String::from_utf8_lossy(&out.stderr).trim(),
                log_tail(&self.scratch)
            ));
        }
        Ok(threads)
    }

    /// What valgrind logged last, for a message.
    pub(crate) fn log_tail(&self) -> String {
        log_tail(&self.scratch)
    }
}

/// The `events-<thread>: <count>` lines of Callgrind's `status internal`.
pub(super) fn thread_events(status: &str) -> Vec<(u32, u64)> {
    status
        .lines()
        .filter_map(|l| {
            let (key, value) = l.split_once(": ")?;
            let tid: u32 = key.strip_prefix("events-")?.parse().ok()?;
            Some((tid, value.trim().parse().ok()?))
        })
        .collect()
}

/// Instructions between two readings of the same worker: each thread's
/// growth (a thread that appeared counts from zero).
pub(crate) fn executed_between(before: &[(u32, u64)], after: &[(u32, u64)]) -> u64 {
    after
        .iter()
        .map(|(tid, now)| {
            let then = before.iter().find(|(t, _)| t == tid).map_or(0, |(_, v)| *v);
            now.saturating_sub(then)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_output_counts_only_with_a_number() {
        assert_eq!(perf_counts("123456,,instructions:u,1000,100.00,,\n"), Some(123_456));
        assert_eq!(perf_counts("<not supported>,,instructions:u,0,100.00,,\n"), None);
        assert_eq!(
            perf_counts("# started on Mon\n\n42,,instructions:u,1,100.00,,\n"),
            Some(42)
        );
        assert_eq!(perf_counts(""), None);
    }

    #[test]
    fn status_lines_give_each_threads_total_and_growth() {
        let status = "events: Ir\nthreads: 2\nevents-1: 1000\nframes-1: 4\nevents-1-0: 999\nevents-3: 50\n";
        let now = thread_events(status);
        assert_eq!(now, [(1, 1000), (3, 50)]);
        assert_eq!(executed_between(&[(1, 400)], &now), 650);
        assert_eq!(executed_between(&now, &now), 0);
    }

    #[test]
    fn seeds_are_fixed_unless_the_suite_sets_them() {
        let env = fixed_env(&[("PYTHONHASHSEED".into(), "7".into())]);
        assert!(env.contains(&("PYTHONHASHSEED".into(), "7".into())));
        assert_eq!(env.iter().filter(|(k, _)| k == "PYTHONHASHSEED").count(), 1);
        if std::env::var_os("GOMAXPROCS").is_none() {
            assert!(env.contains(&("GOMAXPROCS".into(), "1".into())));
        }
    }

    #[test]
    fn cachegrind_totals_add_up_every_process_of_the_tree() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("count.10"),
            "desc: I1 cache\ncmd: a\nevents: Ir\nsummary: 100\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("count.11"), "cmd: b\nevents: Ir\nsummary: 23\n").unwrap();
        assert_eq!(cachegrind_total(dir.path()), Ok(123));
        std::fs::write(dir.path().join("count.12"), "cmd: c\nevents: Ir\n").unwrap();
        assert!(cachegrind_total(dir.path()).unwrap_err().contains("no summary"));
        let empty = tempfile::tempdir().unwrap();
        assert!(cachegrind_total(empty.path()).is_err());
    }
}
