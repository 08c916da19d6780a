//! Interruption of versus itself (Ctrl-C, and the signals that mean "stop"):
//! a flag the scheduler checks between runs, and the process groups to kill
//! at once so it regains control without waiting for the run under way.
//!
//! Everything here is called from a signal handler, so it is atomics and
//! kill(2) only (async-signal-safe).

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that interrupted the run, 0 while none did.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The process group of the run under way (0 when none).
static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);
/// The spawn helper's pid while one runs (0 otherwise).
static HELPER: AtomicI32 = AtomicI32::new(0);

/// Marks the run interrupted by `signal` and kills the process group that is
/// running now; a run the helper started is ended by the helper, which is
/// told with SIGTERM.
pub fn request(signal: i32) {
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    let pg = RUNNING_GROUP.load(Ordering::SeqCst);
    if pg > 0 {
        // SAFETY: killpg has no memory-safety preconditions.
        unsafe { libc::killpg(pg, libc::SIGKILL) };
    }
    let helper = HELPER.load(Ordering::SeqCst);
    if helper > 0 {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(helper, libc::SIGTERM) };
    }
}

/// Ctrl-C: `request(SIGINT)`.
pub fn interrupt() {
    request(libc::SIGINT);
}

pub fn interrupted() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// The signal that interrupted the run, if one did.
pub fn signal() -> Option<i32> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|s| *s != 0)
}

/// Records the process group of the run that starts now (0: none runs).
/// A run that starts after an interrupt is killed at once.
pub fn set_running_group(pgid: i32) {
    RUNNING_GROUP.store(pgid, Ordering::SeqCst);
    if pgid > 0 && interrupted() {
        // SAFETY: see `request`.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    request(signal);
}

/// Handles Ctrl-C (INT), TERM and HUP alike: the run under way is stopped,
/// what finished is written, and versus exits with 128 + the signal's number.
/// Syscalls a signal lands in are restarted (`SA_RESTART`); waits that cannot
/// be (poll) treat the interruption as a reason to look again.
pub fn install() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction with a handler that only touches atomics
        // and calls kill(2), both async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Records the spawn helper's pid (0: none runs).
pub fn set_helper(pid: i32) {
    HELPER.store(pid, Ordering::SeqCst);
}
