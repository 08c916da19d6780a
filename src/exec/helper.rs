//! The spawn helper: a second, small versus process that starts runs on
//! behalf of the main one when their peak memory must be exact.
//!
//! Why it exists: versus starts children the vfork way (they share its
//! memory until they exec), and Linux counts the memory a process had before
//! exec in the peak that `wait4` reports. A child smaller than versus (tens
//! of MB once results accumulate) would be reported at versus's size. The
//! helper is a fresh process of a few MB (the `versus-spawn` binary beside
//! versus, about 2.3 MB resident; else versus itself with a hidden argument,
//! about 3.7 MB), so the children it starts are measured down to that much
//! smaller floor.
//!
//! Wire format, one JSON object per line, private to one versus binary (the
//! helper is always the same executable as its parent, so the two cannot
//! disagree; `versus-spawn` is built from the same crate): a `RunRequest` in, a
//! `RunRecord` out. The runner asks for the
//! helper on warm-up runs only: a request and a reply per run cost tens of
//! microseconds outside the timed region, which matters for a whole-tool
//! comparison of thousands of tiny runs but not for warm-up.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use anyhow::{Context, Result, anyhow};

use crate::base::child;
use crate::exec::contract::{Executor, RunRecord, RunRequest};
use crate::exec::interrupt;
use crate::exec::process::ProcessExecutor;

/// The hidden first argument that makes the versus binary serve as the helper.
pub const ARG: &str = "__spawn-helper";

/// The main process's handle on a running helper.
pub struct Helper {
    child: Child,
    /// `None` once closed (when the helper is being stopped).
    requests: Option<ChildStdin>,
    replies: BufReader<ChildStdout>,
    line: String,
}

impl Helper {
    /// Starts the helper from this executable. Its own process group keeps
    /// the terminal's Ctrl-C away from it: versus forwards an interrupt itself.
    /// It is `versus-spawn` from beside this executable where there is one
    /// (a smaller program, so a lower floor), else this executable itself.
    pub fn start() -> Result<Helper> {
        let exe = std::env::current_exe().context("finding versus's own executable")?;
        let small = exe.with_file_name("versus-spawn");
        let mut command = if small.is_file() {
            child::command(small)
        } else {
            let mut c = child::command(exe);
            c.arg(ARG);
            c
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .context("starting the spawn helper")?;
        let requests = child.stdin.take().ok_or_else(|| anyhow!("helper has no stdin"))?;
        let replies = BufReader::new(child.stdout.take().ok_or_else(|| anyhow!("helper has no stdout"))?);
        interrupt::set_helper(child.id() as i32);
        Ok(Helper {
            child,
            requests: Some(requests),
            replies,
            line: String::new(),
        })
    }

    /// Has the helper start and measure one run.
    pub fn run(&mut self, req: &RunRequest) -> Result<RunRecord> {
        let mut message = serde_json::to_vec(req)?;
        message.push(b'\n');
        let requests = self
            .requests
            .as_mut()
            .ok_or_else(|| anyhow!("the spawn helper is stopped"))?;
        requests.write_all(&message)?;
        self.line.clear();
        if self.replies.read_line(&mut self.line)? == 0 {
            return Err(anyhow!("the spawn helper exited"));
        }
        Ok(serde_json::from_str(&self.line)?)
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        interrupt::set_helper(0);
        // End of input ends the helper, which then removes its own cgroup
        // folder; the kill is for one that does not end within a second.
        drop(self.requests.take());
        for _ in 0..100 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An executor that starts the runs asking for exact memory from the spawn
/// helper and every other run from the executor it wraps. The helper starts
/// on first use; if it cannot start, or fails once, every run goes to the
/// wrapped executor (whose figures are then bounds, recorded as such).
pub struct HelperExecutor<E> {
    inner: E,
    helper: HelperState,
}

enum HelperState {
    NotStarted,
    Running(Helper),
    Off,
}

impl<E: Executor> HelperExecutor<E> {
    pub fn new(inner: E) -> Self {
        HelperExecutor {
            inner,
            helper: HelperState::NotStarted,
        }
    }

    /// The wrapped executor.
    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.inner
    }

    /// Runs `req` through the helper; `None` when the helper is not available.
    fn run_in_helper(&mut self, req: &RunRequest) -> Option<RunRecord> {
        if matches!(self.helper, HelperState::NotStarted) {
            self.helper = match Helper::start() {
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
                // A helper that failed once is not trusted again.
                self.helper = HelperState::Off;
                None
            }
        }
    }
}

impl<E: Executor> Executor for HelperExecutor<E> {
    fn memory_limit_mechanism(&mut self) -> &'static str {
        self.inner.memory_limit_mechanism()
    }

    fn run(&mut self, req: &RunRequest) -> RunRecord {
        // The helper's own stdout is its reply channel: shown output must not go there.
        if req.exact_memory
            && !req.inherit_output
            && let Some(r) = self.run_in_helper(req)
        {
            return r;
        }
        self.inner.run(req)
    }
}

extern "C" fn on_terminate(_: libc::c_int) {
    interrupt::interrupt();
}

/// The helper's main loop: one run per request line, until end of input.
/// SIGTERM (from the main process's Ctrl-C) kills the run under way, which
/// then ends with its outcome like any other.
pub fn serve() -> Result<()> {
    // SAFETY: the handler only calls `interrupt`, which is async-signal-safe.
    unsafe { libc::signal(libc::SIGTERM, on_terminate as *const () as libc::sighandler_t) };
    let mut exec = ProcessExecutor::with_precise_floor();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let req: RunRequest = serde_json::from_str(&line?).context("spawn helper: bad request")?;
        let mut reply = serde_json::to_vec(&exec.run(&req))?;
        reply.push(b'\n');
        match stdout.write_all(&reply).and_then(|()| stdout.flush()) {
            // The main process is gone (killed): there is no one left to tell.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Exit;
    use std::time::Duration;

    #[test]
    fn wire_messages_round_trip() {
        let req = RunRequest {
            argv: vec!["sh".into(), "-c".into(), "exit 3".into()],
            timeout: Duration::from_millis(1500),
            memory_limit: Some(crate::base::units::Bytes(1 << 20)),
            ..Default::default()
        };
        let back: RunRequest = serde_json::from_str(&serde_json::to_string(&req).unwrap()).unwrap();
        assert_eq!(
            (back.argv, back.timeout, back.memory_limit),
            (req.argv, req.timeout, req.memory_limit)
        );
        let rec = RunRecord {
            wall: crate::base::units::Nanos(5),
            user: crate::base::units::Nanos(1),
            sys: crate::base::units::Nanos(2),
            max_rss: crate::base::units::Bytes(3),
            rss_floor: crate::base::units::Bytes(4),
            exit: Exit::SpawnError("x: command not found".into()),
        };
        let back: RunRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(back, rec);
    }
}
