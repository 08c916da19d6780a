//! Running one command from this process and measuring it: wall time on the
//! monotonic clock, user and system CPU and peak resident memory from `wait4`
//! (which covers the child and every descendant it waited for), a per-run
//! timeout, and an optional memory limit so an out-of-memory kill is
//! recognised as such.
//!
//! The child gets its own process group so a timeout or Ctrl-C kills the
//! whole tree, and so the terminal's Ctrl-C reaches versus alone.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::base::child;
use crate::base::units::{Bytes, Nanos};
use crate::exec::cgroup::{MemoryLimiter, RunLimit, rlimit_says_oom};
use crate::exec::contract::{Executor, Exit, RunRecord, RunRequest};
use crate::exec::streams::{StreamCache, tail};
use crate::exec::{interrupt, rss};

/// Starts real processes.
pub struct ProcessExecutor {
    /// Read the floor under a child's peak memory from /proc (the spawn
    /// helper, whose floor is its own small image).
    precise_floor: bool,
    /// Found on first use: finding a cgroup means creating one, which a run
    /// without memory limits has no need to pay for.
    limiter: Option<MemoryLimiter>,
    /// Standard streams opened once and handed to each run as duplicates.
    streams: StreamCache,
}

impl ProcessExecutor {
    pub fn new() -> Self {
        ProcessExecutor {
            precise_floor: false,
            limiter: None,
            streams: StreamCache::default(),
        }
    }

    /// The executor the spawn helper uses: its floor is read from /proc.
    pub fn with_precise_floor() -> Self {
        ProcessExecutor {
            precise_floor: true,
            ..Self::new()
        }
    }

    fn limiter(&mut self) -> &MemoryLimiter {
        self.limiter.get_or_insert_with(MemoryLimiter::detect)
    }

    /// One run's memory limit, or the record of a run that could not start
    /// because the limit could not be set. A cgroup refused for want of room
    /// is versus short of resources (its own fault), not its output disk full.
    fn prepare_limit(&mut self, bytes: Bytes) -> Result<RunLimit, RunRecord> {
        self.limiter().prepare(bytes).map_err(|e| {
            let mut r = RunRecord::not_started_by(&e, format!("cannot set the memory limit: {e}"));
            if let Exit::HarnessError(fault, _) = &mut r.exit {
                *fault = crate::base::outcome::HarnessFault::CannotStart;
            }
            r
        })
    }
}

impl Default for ProcessExecutor {
    fn default() -> Self {
        Self::new()
    }
}

/// Turns address-space randomisation off for the process about to exec
/// (and its descendants, which inherit the personality).
pub(crate) fn fix_layout() -> std::io::Result<()> {
    const ADDR_NO_RANDOMIZE: libc::c_ulong = 0x0040000;
    // SAFETY: personality(0xffffffff) only reads the current persona.
    let current = unsafe { libc::personality(0xffff_ffff) };
    if current < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: setting a persona flag has no memory-safety preconditions.
    if unsafe { libc::personality(current as libc::c_ulong | ADDR_NO_RANDOMIZE) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
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

impl Executor for ProcessExecutor {
    fn memory_limit_mechanism(&mut self) -> &'static str {
        self.limiter().mechanism()
    }

    /// Starts and measures one run from this process.
    fn run(&mut self, req: &RunRequest) -> RunRecord {
        let failed = RunRecord::not_started;
        let Some((program, args)) = req.argv.split_first() else {
            return failed("empty command".into());
        };
        let mut cmd = child::command(program);
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
            if req.inherit_output {
                return Ok((stdin, Stdio::inherit(), Stdio::inherit()));
            }
            Ok((stdin, out(&req.stdout)?, out(&req.stderr)?))
        })();
        let (stdin, stdout, stderr) = match stdio {
            Ok(s) => s,
            Err(e) => return RunRecord::not_started_by(&e, format!("cannot open standard streams: {e}")),
        };
        cmd.stdin(stdin).stdout(stdout).stderr(stderr);

        let limit = match req.memory_limit.map(|bytes| self.prepare_limit(bytes)).transpose() {
            Ok(l) => l,
            Err(not_started) => return not_started,
        };
        if let Some(l) = &limit {
            let hook = l.child_hook();
            // SAFETY: the hook only makes async-signal-safe syscalls (open/write/close/setrlimit)
            // on data prepared before fork.
            unsafe { cmd.pre_exec(move || hook.apply()) };
        }
        if req.fixed_layout {
            // SAFETY: personality is a plain, async-signal-safe syscall.
            unsafe { cmd.pre_exec(fix_layout) };
        }

        // Inside the helper the precise figure is worth a read of /proc.
        let rss_floor = if self.precise_floor {
            rss::own_image_peak().unwrap_or_else(rss::own_peak)
        } else {
            rss::own_peak()
        };
        let start = Instant::now();
        let child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                if let Some(l) = limit {
                    l.finish();
                }
                let message = match e.kind() {
                    std::io::ErrorKind::NotFound => format!("{program}: command not found"),
                    _ => format!("{program}: {e}"),
                };
                return RunRecord::not_started_by(&e, message);
            }
        };
        let pid = child.id() as libc::pid_t;
        interrupt::set_running_group(pid);
        let exited = wait_exit(pid, req.timeout);
        let wall = Nanos::from_duration(start.elapsed());
        // Kill whatever is left of the group: the child on timeout, stray
        // background descendants otherwise.
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
        let mut status = 0;
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our unreaped child; status and ru are valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        interrupt::set_running_group(0);
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
        assert!(r.max_rss.0 <= r.rss_floor.0 + crate::exec::RSS_FLOOR_SLACK.0, "{r:?}");
    }

    #[test]
    fn a_fixed_layout_turns_randomisation_off_for_the_run() {
        let mut ex = ProcessExecutor::new();
        let dir = tempfile::tempdir().unwrap();
        let mut r = req(&["sh", "-c", "cat /proc/self/personality; grep stack /proc/self/maps"]);
        r.stdout = Some(dir.path().join("a"));
        r.fixed_layout = true;
        assert_eq!(ex.run(&r).exit, Exit::Code(0));
        let first = std::fs::read_to_string(dir.path().join("a")).unwrap();
        r.stdout = Some(dir.path().join("b"));
        assert_eq!(ex.run(&r).exit, Exit::Code(0));
        // Without randomisation the stack lands at the same address every time.
        assert_eq!(first, std::fs::read_to_string(dir.path().join("b")).unwrap());
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
        assert_eq!(crate::exec::streams::tail(&dir.path().join("err"), 100), "oops");
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
