//! The core's side of a worker: a child process with a request pipe on its
//! fd 3 and a response pipe on its fd 4, its stdout and stderr going to a log.
//! Every read has a deadline, so a worker that hangs is a timeout, not a
//! stuck harness.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::base::child;
use crate::worker::protocol::{Hello, MAX_LINE_BYTES, Message, PROTOCOL_VERSION};

#[derive(Debug, thiserror::Error)]
pub(crate) enum WorkerError {
    #[error("cannot start the worker: {0}")]
    Spawn(io::Error),
    #[error("the worker did not answer within {0:?}")]
    Timeout(Duration),
    #[error("the worker exited ({0}); its output is in the worker log")]
    Exited(String),
    #[error("the worker wrote something that is not a protocol message ({reason}): {line}")]
    Garbage { reason: String, line: String },
    #[error("the worker answered '{got}' where '{expected}' was expected")]
    Unexpected { expected: String, got: String },
    #[error("the worker reported {class}: {message}")]
    Remote { class: String, message: String },
    #[error("the worker speaks protocol {0}, this versus speaks {PROTOCOL_VERSION}")]
    Version(u64),
    #[error("bad handshake: {0}")]
    Handshake(String),
    #[error("talking to the worker: {0}")]
    Io(io::Error),
}

/// A running worker.
pub(crate) struct WorkerProcess {
    child: Child,
    requests: Option<File>,
    responses: File,
    buf: Vec<u8>,
    next_id: u64,
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds is a valid array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 returned two fresh fds that we now own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Duplicates `fd` to a number of at least 10, close-on-exec, so that placing it
/// at 3 or 4 in the child cannot clobber the other one.
fn high(fd: &OwnedFd) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC on a valid fd returns a new fd or -1.
    let n = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 10) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: n is a fresh fd we own.
    Ok(unsafe { OwnedFd::from_raw_fd(n) })
}

impl WorkerProcess {
    /// Starts `argv` with the protocol fds, its output appended to `log`.
    pub(crate) fn spawn(
        argv: &[String],
        cwd: &Path,
        env: &[(String, String)],
        log: &Path,
    ) -> Result<Self, WorkerError> {
        Self::spawn_with(argv, cwd, env, log, false)
    }

    /// `spawn`, with address-space randomisation off when `fixed_layout`.
    pub(crate) fn spawn_with(
        argv: &[String],
        cwd: &Path,
        env: &[(String, String)],
        log: &Path,
        fixed_layout: bool,
    ) -> Result<Self, WorkerError> {
        let (prog, args) = argv
            .split_first()
            .ok_or_else(|| WorkerError::Spawn(io::Error::other("empty command")))?;
        let (req_read, req_write) = pipe().map_err(WorkerError::Spawn)?;
        let (resp_read, resp_write) = pipe().map_err(WorkerError::Spawn)?;
        let child_in = high(&req_read).map_err(WorkerError::Spawn)?;
        let child_out = high(&resp_write).map_err(WorkerError::Spawn)?;
        drop((req_read, resp_write));
        let log_file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(WorkerError::Spawn)?;
        let log_err = log_file.try_clone().map_err(WorkerError::Spawn)?;
        let mut cmd = child::command(prog);
        cmd.args(args)
            .current_dir(cwd)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("VERSUS_WORKER_FDS", "3,4")
            .env("VERSUS_PROTOCOL", PROTOCOL_VERSION.to_string())
            .stdin(Stdio::null())
            .stdout(log_file)
            .stderr(log_err)
            .process_group(0);
        let (a, b) = (child_in.as_raw_fd(), child_out.as_raw_fd());
        // SAFETY: only dup2 between fork and exec; dup2 clears close-on-exec on the target.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(io::Error::last_os_error());
                }
                if fixed_layout {
                    crate::exec::fix_layout()?;
                }
                Ok(())
            });
        }
        let child = cmd.spawn().map_err(|e| {
            WorkerError::Spawn(if e.kind() == io::ErrorKind::NotFound {
                io::Error::new(e.kind(), format!("{prog}: command not found"))
            } else {
                e
            })
        })?;
        drop((child_in, child_out));
        Ok(WorkerProcess {
            child,
            requests: Some(File::from(req_write)),
            responses: File::from(resp_read),
            buf: Vec::new(),
            next_id: 1,
        })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a line as is (a newline is added).
    pub(crate) fn send_raw(&mut self, line: &str) -> Result<(), WorkerError> {
        let Some(w) = self.requests.as_mut() else {
            return Err(WorkerError::Io(io::Error::other("the request channel is closed")));
        };
        let mut bytes = line.as_bytes().to_vec();
        if !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        w.write_all(&bytes).map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                WorkerError::Exited("it closed its request channel".into())
            } else {
                WorkerError::Io(e)
            }
        })
    }

    /// Sends a request with a fresh id and returns the id.
    pub(crate) fn send(&mut self, kind: &str, data: Value) -> Result<u64, WorkerError> {
        let id = self.next_id;
        self.next_id += 1;
        self.send_raw(&Message::encode(kind, id, data))?;
        Ok(id)
    }

    /// Closes the request channel (the worker should exit).
    pub(crate) fn close_requests(&mut self) {
        self.requests = None;
    }

    /// Reads the next line, waiting at most `timeout`.
    pub(crate) fn recv_line(&mut self, timeout: Duration) -> Result<String, WorkerError> {
        let start = Instant::now();
        loop {
            if let Some(pos) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=pos).collect();
                return Ok(String::from_utf8_lossy(&line[..line.len() - 1]).into_owned());
            }
            if self.buf.len() > MAX_LINE_BYTES {
                let head = String::from_utf8_lossy(&self.buf[..200]).into_owned();
                return Err(WorkerError::Garbage {
                    reason: "a line over 1 MiB".into(),
                    line: head,
                });
            }
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(WorkerError::Timeout(timeout));
            }
            let mut pfd = libc::pollfd {
                fd: self.responses.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
            // SAFETY: pfd is valid for the call.
            let r = unsafe { libc::poll(&mut pfd, 1, ms) };
            if r < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(WorkerError::Io(e));
            }
            if r == 0 {
                continue;
            }
            let mut chunk = [0u8; 64 * 1024];
            match self.responses.read(&mut chunk) {
                Ok(0) => {
                    let status = self.wait_exit(Duration::from_secs(2));
                    return Err(WorkerError::Exited(
                        status.map_or("still running, channel closed".into(), |s| s.to_string()),
                    ));
                }
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(WorkerError::Io(e)),
            }
        }
    }

    /// Reads and decodes the next message.
    pub(crate) fn recv(&mut self, timeout: Duration) -> Result<Message, WorkerError> {
        let line = self.recv_line(timeout)?;
        Message::decode(&line).map_err(|reason| WorkerError::Garbage {
            reason,
            line: line.chars().take(200).collect(),
        })
    }

    /// Waits for the handshake and checks the version.
    pub(crate) fn handshake(&mut self, timeout: Duration) -> Result<Hello, WorkerError> {
        let m = self.recv(timeout)?;
        let hello = Hello::from_message(&m).map_err(WorkerError::Handshake)?;
        if hello.protocol != PROTOCOL_VERSION {
            return Err(WorkerError::Version(hello.protocol));
        }
        Ok(hello)
    }

    /// Sends a request and waits for a response of type `expect`; an `error`
    /// response becomes `WorkerError::Remote`.
    pub(crate) fn request(
        &mut self,
        kind: &str,
        data: Value,
        expect: &str,
        timeout: Duration,
    ) -> Result<Map<String, Value>, WorkerError> {
        let id = self.send(kind, data)?;
        let m = self.recv(timeout)?;
        if m.id.is_some_and(|got| got != id) {
            return Err(WorkerError::Unexpected {
                expected: format!("{expect} for request {id}"),
                got: format!("{} for request {}", m.kind, m.id.unwrap_or(0)),
            });
        }
        match m.kind.as_str() {
            k if k == expect => Ok(m.data),
            "error" => Err(WorkerError::Remote {
                class: m.str("class").unwrap_or("internal").to_string(),
                message: m.str("message").unwrap_or_default().to_string(),
            }),
            other => Err(WorkerError::Unexpected {
                expected: expect.into(),
                got: other.into(),
            }),
        }
    }

    /// Waits up to `timeout` for the worker to exit.
    pub(crate) fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            if start.elapsed() >= timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Asks the worker to shut down; kills it if it does not within `grace`.
    pub(crate) fn shutdown(mut self, grace: Duration) {
        let _ = self.request("shutdown", Value::Object(Map::new()), "bye", grace);
        self.close_requests();
        if self.wait_exit(grace).is_none() {
            self.kill();
        }
    }

    pub(crate) fn kill(&mut self) {
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe { libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}
