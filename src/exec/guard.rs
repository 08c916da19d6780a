//! The orphan guard: a small process that outlives versus only to make sure
//! nothing versus started outlives it.
//!
//! Ctrl-C, TERM and HUP are handled in versus itself (`interrupt`), which
//! stops the run under way. `kill -9` cannot be handled, and the run under
//! way, its descendants, the suite's services and the spawn helper would go
//! on running. So versus marks its own environment (`VERSUS_RUN=<pid>`),
//! which every process it starts inherits, and starts the guard with a pipe:
//! when versus ends, however it ends, the kernel closes the pipe, and the
//! guard kills every process still carrying the mark. The mark costs nothing
//! per run; the guard costs one process per session and a scan of /proc
//! when versus ends. A program that clears its environment escapes it.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Child, Stdio};

use crate::base::child;

/// The environment variable that marks versus's descendants.
pub const MARK: &str = crate::base::child::RUN_MARK;
/// The hidden first argument that makes versus (or versus-spawn) the guard.
pub const ARG: &str = "__guard";

/// Marks this process's environment, so every process started from now on
/// carries the mark. Call it first thing in `main`, before any thread starts.
pub fn mark_self() {
    // SAFETY: called at the start of main, while versus has a single thread.
    unsafe { std::env::set_var(MARK, std::process::id().to_string()) };
}

/// The running guard; dropping it leaves it running (it ends with versus).
pub struct Guard {
    _child: Child,
}

/// Starts the guard for this process. `None` if it cannot start (then a
/// `kill -9` may leave orphans, as before).
pub fn start() -> Option<Guard> {
    let exe = std::env::current_exe().ok()?;
    let small = exe.with_file_name("versus-spawn");
    let program = if small.is_file() { small } else { exe };
    let child = child::command(program)
        .arg(ARG)
        .arg(std::process::id().to_string())
        .env_remove(MARK)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()?;
    Some(Guard { _child: child })
}

/// The guard's main: waits for the end of its input (versus ended), then
/// kills every process marked with versus's pid, until none is left.
pub fn serve(versus_pid: &str) {
    let mut sink = [0u8; 64];
    let mut stdin = std::io::stdin();
    while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
    let needle = format!("{MARK}={versus_pid}");
    for _ in 0..10 {
        let marked = marked_processes(&needle);
        if marked.is_empty() {
            break;
        }
        for pid in marked {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Processes whose environment holds exactly `needle` (`NAME=value`).
pub fn marked_processes(needle: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return vec![];
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|entry| entry == needle.as_bytes()))
        })
        .collect()
}
