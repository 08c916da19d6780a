//! Running one command and measuring it: wall time on the monotonic clock,
//! user and system CPU and peak resident memory from `wait4` (which covers
//! the child and every descendant it waited for), a per-run timeout, and an
//! optional memory limit so an out-of-memory kill is recognised as such.
//!
//! The child gets its own process group so a timeout or Ctrl-C kills the
//! whole tree, and so the terminal's Ctrl-C reaches versus alone. The
//! `Executor` trait is the seam that lets the scheduler be tested with a
//! fake clock.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

use crate::exec::cgroup::{MemoryLimiter, RunLimit, rlimit_says_oom};
use crate::units::{Bytes, Nanos};

/// What to run. Paths are used as given.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RunRequest {
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    /// File fed to standard input; `None` gives /dev/null.
    pub stdin: Option<PathBuf>,
    /// File standard output is written to; `None` discards it.
    pub stdout: Option<PathBuf>,
    /// File standard error is written to; `None` discards it.
    pub stderr: Option<PathBuf>,
    pub timeout: Duration,
    pub memory_limit: Option<Bytes>,
    /// Start the run from the spawn helper (`exec::helper`), whose small
    /// memory lets `max_rss` measure a child smaller than versus itself. It
    /// costs a message each way per run, so the runner asks for it on warm-up
    /// runs only.
    #[serde(skip)]
    pub exact_memory: bool,
}

/// How a run ended, as the operating system tells it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    Timeout,
    OutOfMemory,
    /// The program could not be started (not found, not executable, ...).
    SpawnError(String),
}

/// One measured run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunRecord {
    pub wall: Nanos,
    pub user: Nanos,
    pub sys: Nanos,
    pub max_rss: Bytes,
    /// versus's own peak resident memory when the run started. The child is
    /// started the vfork way (sharing versus's memory until exec), and Linux
    /// counts the memory a process had before exec in its peak, so `max_rss`
    /// is never below this: a value at this floor means "at most this much".
    pub rss_floor: Bytes,
    pub exit: Exit,
}

/// How far above the floor a child's `max_rss` may lie and still be the
/// floor: a vfork child touches a few pages of the shared memory before exec.
pub const RSS_FLOOR_SLACK: Bytes = Bytes(256 * 1024);

/// The peak resident memory of this process's own memory image (VmHWM),
/// read from /proc. Unlike `getrusage`, it leaves out what the process held
/// before its own exec, which for the spawn helper is versus's whole size.
/// Costs a read of /proc per call, so only the helper uses it.
fn own_image_peak_rss() -> Option<Bytes> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(Bytes(kb * 1024))
}

/// This process's own peak resident memory so far (getrusage: at least the
/// peak of its memory image, and possibly more, which only makes the floor
/// under a child's figure more cautious).
pub fn own_peak_rss() -> Bytes {
    // SAFETY: getrusage writes into the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    Bytes(ru.ru_maxrss.max(0) as u64 * 1024)
}

/// Lowers this process's recorded peak resident memory to what it holds now
/// (Linux: `/proc/self/clear_refs`), so a burst of work such as generating a
/// payload does not raise the floor under every later run's `max_rss`.
/// Best effort: where it is not possible the floor stays higher and is still
/// recorded as such.
pub fn reset_own_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Runs commands. The real one starts processes; tests use a fake.
pub trait Executor {
    fn run(&mut self, req: &RunRequest) -> RunRecord;
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static CURRENT_GROUP: AtomicI32 = AtomicI32::new(0);
/// The spawn helper's pid while one runs (0 otherwise).
pub(crate) static HELPER_PID: AtomicI32 = AtomicI32::new(0);

/// Called from the Ctrl-C handler: marks the run interrupted and kills the
/// process group that is running now, so the scheduler regains control at once.
/// Async-signal-safe: atomics and kill(2) only.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let pg = CURRENT_GROUP.load(Ordering::SeqCst);
    if pg > 0 {
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe { libc::killpg(pg, libc::SIGKILL) };
    }
    // A run the helper started: the helper kills its group the same way.
    let helper = HELPER_PID.load(Ordering::SeqCst);
    if helper > 0 {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(helper, libc::SIGTERM) };
    }
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Starts real processes.
pub struct ProcessExecutor {
    /// Started on the first run that asks for exact memory; `None` inside the
    /// helper itself, and after it failed (runs then start here).
    helper: HelperState,
    /// Read the floor under a child's peak memory from /proc (the helper).
    precise_floor: bool,
    /// Found on first use: finding a cgroup means creating one, which a run
    /// without memory limits has no need to pay for.
    limiter: Option<MemoryLimiter>,
    /// Standard streams opened once and handed to each run as duplicates: a
    /// `dup` costs less than an `open` (path lookup, and truncation of a
    /// capture file), and on a command as short as `true` that per-run cost
    /// shows next to hyperfine's (bench/harness.sh).
    streams: StreamCache,
}

/// `/dev/null` and the capture files of recent runs, kept open.
#[derive(Default)]
struct StreamCache {
    null: Option<File>,
    capture: std::collections::HashMap<PathBuf, File>,
}

impl StreamCache {
    /// Most capture files kept open; a group interleaves a handful at a time.
    const MAX_OPEN: usize = 64;

    fn null(&mut self) -> std::io::Result<Stdio> {
        if self.null.is_none() {
            self.null = Some(std::fs::OpenOptions::new().read(true).write(true).open("/dev/null")?);
        }
        Ok(Stdio::from(self.null.as_ref().expect("opened above").try_clone()?))
    }

    /// An empty file at `path` positioned at its start, for a run's output.
    /// The file is created on first use and emptied before each later one; if
    /// it was removed or replaced in the meantime, it is created again.
    fn capture(&mut self, path: &Path) -> std::io::Result<Stdio> {
        use std::os::unix::fs::MetadataExt;
        // The open file's size, if it is still the file at `path` (the runner
        // removes an output file before each run).
        let still_there = |f: &File| {
            let (Ok(open), Ok(named)) = (f.metadata(), std::fs::metadata(path)) else {
                return None;
            };
            (open.ino() == named.ino() && open.dev() == named.dev()).then_some(open.len())
        };
        let reuse = self
            .capture
            .get_mut(path)
            .and_then(|f| still_there(f).map(|len| (f, len)));
        let file = match reuse {
            Some((f, len)) => {
                if len > 0 {
                    f.set_len(0)?;
                }
                // The run's duplicate shares this offset; a program may have
                // moved it without writing.
                f.seek(SeekFrom::Start(0))?;
                f
            }
            None => {
                if self.capture.len() >= Self::MAX_OPEN {
                    self.capture.clear();
                }
                let f = File::create(path)?;
                self.capture.insert(path.to_path_buf(), f);
                self.capture.get_mut(path).expect("inserted above")
            }
        };
        Ok(Stdio::from(file.try_clone()?))
    }
}

impl ProcessExecutor {
    pub fn new() -> Self {
        ProcessExecutor {
            helper: HelperState::NotStarted,
            precise_floor: false,
            limiter: None,
            streams: StreamCache::default(),
        }
    }

    /// Which mechanism enforces memory limits here, for the report.
    pub fn memory_limit_mechanism(&mut self) -> &'static str {
        self.limiter().mechanism()
    }

    fn limiter(&mut self) -> &MemoryLimiter {
        self.limiter.get_or_insert_with(MemoryLimiter::detect)
    }
}

impl Default for ProcessExecutor {
    fn default() -> Self {
        Self::new()
    }
}

fn timeval_nanos(tv: libc::timeval) -> Nanos {
    Nanos(tv.tv_sec as u64 * 1_000_000_000 + tv.tv_usec as u64 * 1_000)
}

/// Waits until `pid` has exited or `deadline` passes; true if it exited.
/// Uses a pidfd where the kernel has one, else polls.
fn wait_exit(pid: libc::pid_t, timeout: Duration) -> bool {
    let start = Instant::now();
    // SAFETY: plain syscall; a negative result is handled.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as libc::c_int;
    if fd >= 0 {
        let exited = loop {
            let left = timeout.saturating_sub(start.elapsed());
            let ms = left.as_millis().min(i32::MAX as u128) as libc::c_int;
            let mut pfd = libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: pfd is a valid pollfd for the duration of the call.
            let r = unsafe { libc::poll(&mut pfd, 1, if left.is_zero() { 0 } else { ms.max(1) }) };
            if r > 0 {
                break true;
            }
            if r == 0 && start.elapsed() >= timeout {
                break false;
            }
            // r < 0 is EINTR; r == 0 before the deadline is rounding: poll again.
        };
        // SAFETY: fd came from pidfd_open and is closed once.
        unsafe { libc::close(fd) };
        return exited;
    }
    loop {
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid with WNOWAIT only inspects; info is valid memory.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        if r == 0 && unsafe { info.si_pid() } == pid {
            return true;
        }
        if start.elapsed() >= timeout {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Reads the last `max` bytes of a file, lossily, for failure messages.
pub fn tail(path: &Path, max: u64) -> String {
    let Ok(mut f) = File::open(path) else {
        return String::new();
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = f.seek(SeekFrom::Start(len.saturating_sub(max)));
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).trim().to_string()
}

enum HelperState {
    NotStarted,
    Running(crate::exec::helper::Helper),
    /// Inside the helper, or the helper could not be used.
    Off,
}

impl ProcessExecutor {
    /// The executor the spawn helper itself uses: it never starts a helper.
    pub(crate) fn inside_helper() -> Self {
        ProcessExecutor {
            helper: HelperState::Off,
            precise_floor: true,
            ..Self::new()
        }
    }

    /// Runs `req` through the helper; `None` when the helper is not available.
    fn run_in_helper(&mut self, req: &RunRequest) -> Option<RunRecord> {
        if matches!(self.helper, HelperState::NotStarted) {
            self.helper = match crate::exec::helper::Helper::start() {
                Ok(h) => HelperState::Running(h),
                Err(_) => HelperState::Off,
            };
        }
        let HelperState::Running(h) = &mut self.helper else {
            return None;
        };
        match h.run(req) {
            Ok(r) => Some(r),
            Err(_) => {
                // A helper that failed once is not trusted again; runs start here.
                self.helper = HelperState::Off;
                None
            }
        }
    }
}

impl Executor for ProcessExecutor {
    fn run(&mut self, req: &RunRequest) -> RunRecord {
        if req.exact_memory
            && let Some(r) = self.run_in_helper(req)
        {
            return r;
        }
        self.run_here(req)
    }
}

impl ProcessExecutor {
    /// Starts and measures one run from this process.
    fn run_here(&mut self, req: &RunRequest) -> RunRecord {
        let failed = |msg: String| RunRecord {
            wall: Nanos(0),
            user: Nanos(0),
            sys: Nanos(0),
            max_rss: Bytes(0),
            rss_floor: Bytes(0),
            exit: Exit::SpawnError(msg),
        };
        let Some((program, args)) = req.argv.split_first() else {
            return failed("empty command".into());
        };
        let mut cmd = Command::new(program);
        cmd.args(args).process_group(0);
        for (k, v) in &req.env {
            cmd.env(k, v);
        }
        if let Some(d) = &req.cwd {
            cmd.current_dir(d);
        }
        let streams = &mut self.streams;
        let stdio = (|| -> std::io::Result<_> {
            let stdin = match &req.stdin {
                Some(p) => Stdio::from(File::open(p)?),
                None => streams.null()?,
            };
            let mut out = |path: &Option<PathBuf>| match path {
                Some(p) => streams.capture(p),
                None => streams.null(),
            };
            Ok((stdin, out(&req.stdout)?, out(&req.stderr)?))
        })();
        let (stdin, stdout, stderr) = match stdio {
            Ok(s) => s,
            Err(e) => return failed(format!("cannot open standard streams: {e}")),
        };
        cmd.stdin(stdin).stdout(stdout).stderr(stderr);

        let limit = match req.memory_limit {
            Some(bytes) => match self.limiter().prepare(bytes) {
                Ok(l) => Some(l),
                Err(e) => return failed(format!("cannot set the memory limit: {e}")),
            },
            None => None,
        };
        if let Some(l) = &limit {
            let hook = l.child_hook();
            // SAFETY: the hook only makes async-signal-safe syscalls (open/write/close/setrlimit)
            // on data prepared before fork.
            unsafe { cmd.pre_exec(move || hook.apply()) };
        }

        // Inside the helper the precise figure is worth a read of /proc.
        let rss_floor = if self.precise_floor {
            own_image_peak_rss().unwrap_or_else(own_peak_rss)
        } else {
            own_peak_rss()
        };
        let start = Instant::now();
        let child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                if let Some(l) = limit {
                    l.finish();
                }
                return failed(match e.kind() {
                    std::io::ErrorKind::NotFound => format!("{program}: command not found"),
                    _ => format!("{program}: {e}"),
                });
            }
        };
        let pid = child.id() as libc::pid_t;
        CURRENT_GROUP.store(pid, Ordering::SeqCst);
        if interrupted() {
            // SAFETY: see interrupt().
            unsafe { libc::killpg(pid, libc::SIGKILL) };
        }
        let exited = wait_exit(pid, req.timeout);
        let wall = Nanos::from_duration(start.elapsed());
        // Kill whatever is left of the group: the child on timeout, stray
        // background descendants otherwise.
        // SAFETY: see interrupt().
        unsafe { libc::killpg(pid, libc::SIGKILL) };
        let mut status = 0;
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our unreaped child; status and ru are valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        CURRENT_GROUP.store(0, Ordering::SeqCst);
        drop(child);
        let under_rlimit = limit.as_ref().is_some_and(RunLimit::is_rlimit);
        let oom = limit.map(RunLimit::finish).unwrap_or(false);
        let exit = if r < 0 {
            Exit::SpawnError(format!("wait4 failed: {}", std::io::Error::last_os_error()))
        } else if oom {
            Exit::OutOfMemory
        } else if !exited {
            Exit::Timeout
        } else if libc::WIFEXITED(status) {
            Exit::Code(libc::WEXITSTATUS(status))
        } else {
            Exit::Signal(libc::WTERMSIG(status))
        };
        let failed_run = !matches!(exit, Exit::Code(0) | Exit::Timeout | Exit::OutOfMemory);
        let exit = match &req.stderr {
            Some(err) if under_rlimit && failed_run && rlimit_says_oom(&tail(err, 4096)) => Exit::OutOfMemory,
            _ => exit,
        };
        RunRecord {
            wall,
            user: timeval_nanos(ru.ru_utime),
            sys: timeval_nanos(ru.ru_stime),
            max_rss: Bytes(ru.ru_maxrss as u64 * 1024),
            rss_floor,
            exit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(argv: &[&str]) -> RunRequest {
        RunRequest {
            argv: argv.iter().map(|s| s.to_string()).collect(),
            timeout: Duration::from_secs(10),
            ..Default::default()
        }
    }

    #[test]
    fn exit_codes_and_signals_are_reported() {
        let mut ex = ProcessExecutor::new();
        assert_eq!(ex.run(&req(&["true"])).exit, Exit::Code(0));
        assert_eq!(ex.run(&req(&["sh", "-c", "exit 7"])).exit, Exit::Code(7));
        assert_eq!(
            ex.run(&req(&["sh", "-c", "kill -SEGV $$"])).exit,
            Exit::Signal(libc::SIGSEGV)
        );
        assert!(matches!(ex.run(&req(&["/no/such/program"])).exit, Exit::SpawnError(_)));
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let mut ex = ProcessExecutor::new();
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("survived");
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let mut r = req(&["sh", "-c", &script]);
        r.timeout = Duration::from_millis(200);
        assert_eq!(ex.run(&r).exit, Exit::Timeout);
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "a grandchild outlived the timeout");
    }

    #[test]
    fn cpu_time_and_memory_of_the_tree_are_measured() {
        let mut ex = ProcessExecutor::new();
        // A grandchild that touches 64 MB: wait4's rusage covers descendants the child waited for.
        let r = ex.run(&req(&[
            "sh",
            "-c",
            "head -c 64000000 /dev/zero | tail -c 1 >/dev/null; python3 -c 'b=bytearray(80_000_000)'",
        ]));
        assert_eq!(r.exit, Exit::Code(0));
        assert!(r.max_rss.0 >= 80_000_000, "max_rss {}", r.max_rss.0);
        assert!(r.user.0 + r.sys.0 > 0);
        assert!(r.wall.0 > 0);
    }

    #[test]
    fn a_child_smaller_than_versus_is_at_most_the_floor() {
        let mut ex = ProcessExecutor::new();
        let r = ex.run(&req(&["true"]));
        assert!(r.rss_floor.0 > 0);
        // `true` needs far less than versus itself; what wait4 says is versus's size.
        assert!(r.max_rss.0 <= r.rss_floor.0 + RSS_FLOOR_SLACK.0, "{r:?}");
    }

    #[test]
    fn streams_are_redirected() {
        let mut ex = ProcessExecutor::new();
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::write(&input, "hello").unwrap();
        let mut r = req(&["sh", "-c", "cat; echo oops >&2"]);
        r.stdin = Some(input);
        r.stdout = Some(dir.path().join("out"));
        r.stderr = Some(dir.path().join("err"));
        assert_eq!(ex.run(&r).exit, Exit::Code(0));
        assert_eq!(std::fs::read_to_string(dir.path().join("out")).unwrap(), "hello");
        assert_eq!(tail(&dir.path().join("err"), 100), "oops");
    }

    #[test]
    fn each_run_captures_only_its_own_output() {
        let mut ex = ProcessExecutor::new();
        let dir = tempfile::tempdir().unwrap();
        let (out, err) = (dir.path().join("out"), dir.path().join("err"));
        let run = |ex: &mut ProcessExecutor, script: &str| {
            let mut r = req(&["sh", "-c", script]);
            r.stdout = Some(out.clone());
            r.stderr = Some(err.clone());
            assert_eq!(ex.run(&r).exit, Exit::Code(0));
        };
        run(&mut ex, "echo a long first line; echo a long first error >&2");
        run(&mut ex, "echo second; echo oops >&2");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "second\n");
        assert_eq!(std::fs::read_to_string(&err).unwrap(), "oops\n");
        // A run that writes nothing leaves an empty capture.
        run(&mut ex, "true");
        assert_eq!(std::fs::read_to_string(&err).unwrap(), "");
        // The runner removes an output file before a run: it must be created anew.
        std::fs::remove_file(&out).unwrap();
        run(&mut ex, "echo third");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "third\n");
    }

    #[test]
    fn memory_limit_is_recognised() {
        let mut ex = ProcessExecutor::new();
        let mut r = req(&["python3", "-c", "b = bytearray(400_000_000); print(len(b))"]);
        r.memory_limit = Some(Bytes(100_000_000));
        assert_eq!(
            ex.run(&r).exit,
            Exit::OutOfMemory,
            "mechanism: {}",
            ex.memory_limit_mechanism()
        );
        let mut ok = req(&["python3", "-c", "b = bytearray(10_000_000)"]);
        ok.memory_limit = Some(Bytes(200_000_000));
        assert_eq!(ex.run(&ok).exit, Exit::Code(0));
    }
}
