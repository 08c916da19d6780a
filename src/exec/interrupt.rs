//! Interruption of versus itself (Ctrl-C, and the signals that mean "stop").
//!
//! While a session measures, a signal is a request: a flag the scheduler
//! checks between runs, and the process groups to kill at once so it
//! regains control without waiting for the run under way; the finished
//! groups are then analysed and written. At any other time — analysing,
//! drawing reports, writing to the store, and in every command that
//! measures nothing — a signal ends versus at once: the file being written
//! is removed (`base::output`), a line says what is kept, and the status is
//! 128 + the signal's number. What was measured is already in the journal,
//! synced group by group, so `versus report DIR` renders it later; a cell of
//! a million runs is not analysed to the end first.
//!
//! Everything here is called from a signal handler, so it is atomics,
//! kill(2), unlink(2), write(2) and _exit(2) only (async-signal-safe).

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};

/// The signal that interrupted the run, 0 while none did.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The process group of the run under way (0 when none).
static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);
/// The spawn helper's pid while one runs (0 otherwise).
static HELPER: AtomicI32 = AtomicI32::new(0);
/// Whether a signal now ends versus at once (true but while a session measures).
static AT_ONCE: AtomicBool = AtomicBool::new(true);
/// The line written when a signal ends versus at once (a leaked C string; null: none).
static FAREWELL: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());

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

/// A session starts measuring: a signal from now on is a request (see the
/// module header).
pub fn measuring() {
    AT_ONCE.store(false, Ordering::SeqCst);
}

/// Measuring is over: a signal from now on ends versus at once, after
/// writing `farewell` (a line saying what is kept) to standard error.
pub fn finishing(farewell: &str) {
    let line = CString::new(format!("\nversus: {farewell}\n").replace('\0', " ")).unwrap_or_default();
    // The line it replaces is left allocated: a handler on another thread
    // may be writing it (a few bytes a session).
    FAREWELL.store(line.into_raw(), Ordering::SeqCst);
    AT_ONCE.store(true, Ordering::SeqCst);
}

/// Ends versus now: the file being written removed, the farewell written,
/// status 128 + `signal`.
fn end_now(signal: libc::c_int) -> ! {
    crate::base::output::remove_pending();
    let line = FAREWELL.load(Ordering::SeqCst);
    if !line.is_null() {
        // SAFETY: a NUL-terminated string from `CString::into_raw`; write(2)
        // and strlen are async-signal-safe.
        unsafe {
            libc::write(libc::STDERR_FILENO, line.cast(), libc::strlen(line));
        }
    }
    // SAFETY: _exit(2) ends the process without running anything else.
    unsafe { libc::_exit(128 + signal) }
}

extern "C" fn on_signal(signal: libc::c_int) {
    if AT_ONCE.load(Ordering::SeqCst) {
        end_now(signal);
    }
    request(signal);
}

/// Handles Ctrl-C (INT), TERM and HUP alike: while a session measures, the
/// run under way is stopped, what finished is written, and versus exits with
/// 128 + the signal's number; at any other time versus ends at once with
/// that status (see the module header). Installed first thing in `main`.
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
